// Buffered reading of the runtime's stdin: request lines, and the raw source bytes that follow a
// compile_program line. Writing of response lines to stdout in one piece.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zyx::tt::runtime {

class InputStream {
public:
    explicit InputStream(int fd) : fd_(fd) {}

    enum class LineStatus { ok, eof, too_long };
    // Reads the next line into `line` (without the '\n'); blocks until one arrives. A line longer
    // than `max_bytes` is consumed up to and including its '\n' and reported as too_long. A last
    // line without '\n' at end of input counts as a line.
    LineStatus read_line(std::string& line, size_t max_bytes);

    // Appends exactly `n` bytes to `out`. Waits at most `idle_timeout_ms` for each new piece of
    // data. Returns the number of bytes appended: less than n means the input ended or went
    // idle for that long.
    size_t read_exact(std::string& out, uint64_t n, int idle_timeout_ms);

    // Reads one byte if one arrives within `timeout_ms`; returns -1 otherwise.
    int read_byte(int timeout_ms);

    // Discards all input until none has arrived for `idle_timeout_ms` (or the input ends).
    // Returns the number of bytes discarded.
    uint64_t discard_until_idle(int idle_timeout_ms);

private:
    // Refills the buffer; waits at most timeout_ms (-1 = forever). Returns false at EOF/timeout.
    bool fill(int timeout_ms);

    int fd_;
    std::string buf_;
    size_t pos_ = 0;
    bool eof_ = false;
};

// Writes all of `data` to `fd`, retrying on EINTR and short writes. Returns false when the peer
// is gone (EPIPE) or another error occurs.
bool write_all(int fd, std::string_view data);

}  // namespace zyx::tt::runtime
