// One zyx-tt-runtime child process and the three pipes to it.
//
//   RuntimeProcess rt({"/path/zyx-tt-runtime", "--preset", "wormhole-n150"});
//   rt.send("{\"cmd\":\"ping\"}\n", 1000, "ping");
//   std::string line = rt.receive_line(1000, "ping");
//
// Contracts:
// - The child is started with posix_spawn and an argument vector (no shell); its stdin, stdout
//   and stderr are pipes to this object. Our ends are close-on-exec, so other children of this
//   process never hold them.
// - A dead child is noticed at once: its stdout pipe closes, poll() wakes, and the call throws
//   Error(RuntimeCrashed) with the exit status and the last lines the child wrote to stderr.
// - A child that does not answer within the timeout is ended (SIGKILL to its pid, never by
//   name) and the call throws Error(Timeout).
// - Writing to a dead child never raises SIGPIPE in this process.
// - stderr is drained whenever we wait, so a chatty child never blocks on a full pipe; each line
//   is forwarded to ZYX_LOG(runtime) and the last ones are kept for error messages.
// - The destructor closes stdin (the runtime exits on end of input), waits briefly, then ends
//   the child by pid if it is still there, and reaps it.
#pragma once

#include <sys/types.h>

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace zyx::tt {

class RuntimeProcess {
public:
    // Starts argv[0] (a path) with the given arguments. Throws Error(Initialization) when the
    // program cannot be started.
    explicit RuntimeProcess(const std::vector<std::string>& argv);
    ~RuntimeProcess();
    RuntimeProcess(const RuntimeProcess&) = delete;
    RuntimeProcess& operator=(const RuntimeProcess&) = delete;

    pid_t pid() const { return pid_; }
    // False once the child has been seen to die or has been ended.
    bool alive() const { return !dead_; }

    // Writes all of `bytes` to the child's stdin, waiting at most timeout_ms for the pipe to
    // accept them. `what` names the request in errors. Throws RuntimeCrashed or Timeout.
    void send(std::string_view bytes, int timeout_ms, std::string_view what);
    // Returns the next line (without '\n') from the child's stdout, waiting at most timeout_ms.
    // Throws RuntimeCrashed or Timeout.
    std::string receive_line(int timeout_ms, std::string_view what);

    // Ends the child now (SIGKILL to its pid) and reaps it. Idempotent.
    void kill();
    // Closes stdin and waits up to timeout_ms for the child to exit by itself; kills it after.
    void shutdown(int timeout_ms);

    // The last lines the child wrote to stderr, oldest first, joined by '\n'.
    std::string stderr_tail() const;
    // Reaps the child (waiting up to timeout_ms) and returns "exited with status N" / "killed
    // by signal N (name)" / "still running".
    std::string reap(int timeout_ms);

private:
    // Waits until stdout has data, stdin can take data (want_write) or the deadline passes;
    // drains stderr meanwhile. Returns false on timeout.
    bool wait_io(bool want_write, long long deadline_ms);
    void drain_stderr();
    void take_stderr(const char* data, size_t n);
    [[noreturn]] void crashed(std::string_view what, std::string_view when);
    [[noreturn]] void timed_out(std::string_view what, int timeout_ms, std::string_view phase);

    pid_t pid_ = -1;
    int in_fd_ = -1, out_fd_ = -1, err_fd_ = -1;
    bool dead_ = false;
    bool reaped_ = false;
    std::string exit_description_;
    std::string out_buf_;
    std::string err_partial_;
    std::deque<std::string> err_lines_;
};

}  // namespace zyx::tt
