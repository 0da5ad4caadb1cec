// The protocol server of zyx-tt-runtime: reads requests from one descriptor, answers on another,
// and keeps the records (buffers, programs, arena) every request is checked against.
//
// Contract (docs/protocol.md): one response line per request line, in order; after any bad
// request the server answers with an error and keeps serving; nothing but protocol goes to the
// output descriptor (logs go to stderr through ZYX_LOG(runtime)).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "arena.hpp"
#include "backend/tenstorrent/protocol.hpp"
#include "stream.hpp"
#include "target.hpp"

namespace zyx::tt::runtime {

// One request taken from the input with the framing of docs/protocol.md §2 applied:
// - a line is a compile_program when its parsed JSON says so ("cmd" decoded, never a text
//   search); its raw sources are read into its kernels, or skipped by their declared lengths
//   when the request is refused (and when those cannot be read, as below);
// - after a line the runtime cannot read (longer than the line limit, not JSON, nesting too
//   deep, a duplicate key) it cannot know whether raw sources follow, so it discards the input
//   until none has arrived for raw_timeout_ms, and answers that line once.
// Every line that is read yields exactly one request or one error.
struct FramedRequest {
    enum class Kind { request, error, end_of_input };
    Kind kind = Kind::end_of_input;
    protocol::Request request;    // kind == request: parsed, compile_program sources filled in
    std::optional<Error> error;   // kind == error: what to answer
    std::optional<uint64_t> seq;  // kind == error: the request's seq, when it could be read
};
FramedRequest read_request(InputStream& in, int raw_timeout_ms);
// read_request in two steps: the next non-empty line (nullopt), or the end of input / a line too
// long (the FramedRequest to answer); then the framing of that line.
std::optional<FramedRequest> read_request_line(InputStream& in, std::string& line, int raw_timeout_ms);
FramedRequest frame_request(InputStream& in, const std::string& line, int raw_timeout_ms);

// Serves a runtime whose target failed to start: every request (framed by read_request) is
// answered with `reason`, except exit. With `once`, only the first request is answered, then it
// returns (a busy device: the runtime says why and leaves). Returns the process exit status.
int serve_unavailable(int in_fd, int out_fd, const Error& reason, int raw_timeout_ms, bool once = false);

struct ServerOptions {
    // How long the server waits for the next piece of a compile_program's raw source bytes
    // before it answers with a Protocol error.
    int raw_timeout_ms = 2000;
    // Test hook (--debug-delay): sleep this long inside the named command, after its checks and
    // before it touches the device, so that tests can kill the runtime mid-request.
    std::map<protocol::Command, int> delay_ms;
    uint32_t default_page_bytes = 4096;
};

class Server {
public:
    Server(Target& target, ServerOptions options);

    // Serves until exit or end of input. Returns the process exit status (0 on a clean end).
    int serve(int in_fd, int out_fd);

    // Answers one parsed request whose kernel sources (compile_program) are filled in.
    // Never throws: every failure becomes an error response.
    nlohmann::json handle(const protocol::Request& r);

    bool exiting() const { return exiting_; }

private:
    struct BufferRecord {
        TargetBuffer target;
        uint64_t bytes = 0;
        uint32_t page_bytes = 0;
    };
    struct ProgramRecord {
        protocol::Program desc;
        std::string key;  // content key in compiled_by_key_
        uint32_t refs = 1;
        std::map<std::pair<uint32_t, uint32_t>, TargetProgram> instances;  // (rows, cols) → instance
    };

    nlohmann::json dispatch(const protocol::Request& r);
    nlohmann::json hello(const protocol::Request& r);
    nlohmann::json alloc_buf(const protocol::Request& r);
    nlohmann::json free_buf(const protocol::Request& r);
    nlohmann::json transfer(const protocol::Request& r);
    nlohmann::json copy_buf(const protocol::Request& r);
    nlohmann::json compile_program(const protocol::Request& r);
    nlohmann::json run(const protocol::Request& r);
    nlohmann::json release_program(const protocol::Request& r);
    nlohmann::json stats();

    BufferRecord& buffer_for(uint32_t id, ErrorStatus status, std::string_view ctx);
    void delay(protocol::Command c);

    Target& target_;
    ServerOptions options_;
    Arena arena_;
    bool greeted_ = false;
    bool exiting_ = false;

    std::unordered_map<uint32_t, BufferRecord> buffers_;
    uint32_t next_buffer_ = 1;
    uint64_t buffer_bytes_ = 0;
    std::unordered_map<uint32_t, ProgramRecord> programs_;
    std::unordered_map<std::string, uint32_t> compiled_by_key_;
    uint32_t next_program_ = 1;

    struct Counters {
        uint64_t requests = 0, errors = 0, bytes_written = 0, bytes_read = 0, launches = 0, compiles = 0,
                 compile_cache_hits = 0, instances = 0;
    } counters_;
};

}  // namespace zyx::tt::runtime
