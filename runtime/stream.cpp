#include "stream.hpp"

#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace zyx::tt::runtime {

namespace {
constexpr size_t kChunk = 64 * 1024;
// Zero-timeout polls for the next request before a blocking read (see fill).
constexpr int kSpinPolls = 200;
}  // namespace

bool InputStream::fill(int timeout_ms) {
    if (eof_) return false;
    if (pos_ == buf_.size()) {
        buf_.clear();
        pos_ = 0;
    } else if (pos_ > kChunk) {
        buf_.erase(0, pos_);
        pos_ = 0;
    }
    if (timeout_ms < 0) {
        // Waiting for the next request. It usually follows within microseconds: look for it a
        // few times (yielding the CPU in between, in case the client shares it) before sleeping,
        // since a sleeping CPU costs a cross-CPU wake-up of tens of microseconds on virtual
        // machines and would dominate a small request's round trip.
        for (int spin = 0; spin < kSpinPolls; ++spin) {
            pollfd p{fd_, POLLIN, 0};
            if (::poll(&p, 1, 0) > 0) break;
            ::sched_yield();
        }
    } else {
        pollfd p{fd_, POLLIN, 0};
        int rc;
        do { rc = ::poll(&p, 1, timeout_ms); } while (rc < 0 && errno == EINTR);
        if (rc <= 0) return false;
    }
    char chunk[kChunk];
    ssize_t n;
    do { n = ::read(fd_, chunk, kChunk); } while (n < 0 && errno == EINTR);
    if (n > 0) buf_.append(chunk, size_t(n));
    if (n <= 0) {
        eof_ = true;
        return false;
    }
    return true;
}

InputStream::LineStatus InputStream::read_line(std::string& line, size_t max_bytes) {
    line.clear();
    bool too_long = false;
    for (;;) {
        size_t nl = buf_.find('\n', pos_);
        size_t end = nl == std::string::npos ? buf_.size() : nl;
        if (!too_long) {
            line.append(buf_, pos_, end - pos_);
            if (line.size() > max_bytes) {
                too_long = true;
                line.clear();
            }
        }
        if (nl != std::string::npos) {
            pos_ = nl + 1;
            return too_long ? LineStatus::too_long : LineStatus::ok;
        }
        pos_ = buf_.size();
        if (!fill(-1)) {
            if (too_long) return LineStatus::too_long;
            return line.empty() ? LineStatus::eof : LineStatus::ok;
        }
    }
}

size_t InputStream::read_exact(std::string& out, uint64_t n, int idle_timeout_ms) {
    uint64_t got = 0;
    while (got < n) {
        if (pos_ == buf_.size() && !fill(idle_timeout_ms)) break;
        size_t take = size_t(std::min<uint64_t>(n - got, buf_.size() - pos_));
        out.append(buf_, pos_, take);
        pos_ += take;
        got += take;
    }
    return size_t(got);
}

int InputStream::read_byte(int timeout_ms) {
    if (pos_ == buf_.size() && !fill(timeout_ms)) return -1;
    return static_cast<unsigned char>(buf_[pos_++]);
}

uint64_t InputStream::discard_until_idle(int idle_timeout_ms) {
    uint64_t n = 0;
    do {
        n += buf_.size() - pos_;
        pos_ = buf_.size();
    } while (fill(idle_timeout_ms));
    return n;
}

bool write_all(int fd, std::string_view data) {
    size_t off = 0;
    while (off < data.size()) {
        ssize_t n = ::write(fd, data.data() + off, data.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += size_t(n);
    }
    return true;
}

}  // namespace zyx::tt::runtime
