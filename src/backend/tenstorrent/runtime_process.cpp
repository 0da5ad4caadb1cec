#include "backend/tenstorrent/runtime_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/error.hpp"
#include "core/log.hpp"

extern char** environ;

namespace zyx::tt {

namespace {
// Non-blocking reads tried (with a sched_yield between them) before receive_line sleeps in poll().
constexpr int kSpinReads = 200;
}  // namespace

namespace {

constexpr size_t kStderrLinesKept = 30;

long long now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// write() with SIGPIPE blocked in this thread; a SIGPIPE raised by this write is consumed so it
// is never delivered later. Returns the write() result with errno preserved.
ssize_t write_no_sigpipe(int fd, const char* data, size_t n) {
    sigset_t pipe_set, old_set, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    ssize_t rc = ::write(fd, data, n);
    int err = errno;
    if (rc < 0 && err == EPIPE && !was_pending) {
        timespec zero{0, 0};
        while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
    errno = err;
    return rc;
}

}  // namespace

RuntimeProcess::RuntimeProcess(const std::vector<std::string>& argv) {
    if (argv.empty()) throw Error(ErrorStatus::InvalidArgument, "RuntimeProcess: empty argument vector");
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        throw Error(ErrorStatus::Initialization, std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]);
        throw Error(ErrorStatus::Initialization, std::string("pipe: ") + std::strerror(errno));
    }
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        throw Error(ErrorStatus::Initialization, std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);  // dup2 clears close-on-exec on 0/1/2
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    // The child starts with no blocked signals and default SIGPIPE handling, whatever the
    // calling thread had.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t empty, defaults;
    sigemptyset(&empty);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int rc = ::posix_spawn(&pid_, args[0], &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(in[1]), ::close(out[0]), ::close(err[0]);
        pid_ = -1;
        dead_ = reaped_ = true;
        throw Error(ErrorStatus::Initialization, "cannot start zyx-tt-runtime '" + argv[0] + "': " + std::strerror(rc));
    }
    in_fd_ = in[1];
    out_fd_ = out[0];
    err_fd_ = err[0];
    // Our ends never block: every wait goes through poll() with a deadline.
    ::fcntl(in_fd_, F_SETFL, ::fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
    ::fcntl(out_fd_, F_SETFL, ::fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
    ::fcntl(err_fd_, F_SETFL, ::fcntl(err_fd_, F_GETFL) | O_NONBLOCK);
    ZYX_LOG(runtime) << "started " << argv[0] << " as pid " << pid_;
}

RuntimeProcess::~RuntimeProcess() {
    shutdown(1000);
    close_fd(out_fd_);
    close_fd(err_fd_);
}

void RuntimeProcess::take_stderr(const char* data, size_t n) {
    err_partial_.append(data, n);
    size_t start = 0;
    for (size_t nl; (nl = err_partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string line = err_partial_.substr(start, nl - start);
        ZYX_LOG(runtime) << "[zyx-tt-runtime " << pid_ << "] " << line;
        err_lines_.push_back(std::move(line));
        if (err_lines_.size() > kStderrLinesKept) err_lines_.pop_front();
    }
    err_partial_.erase(0, start);
    if (err_partial_.size() > 4096) {  // a very long line without '\n': keep its start
        err_lines_.push_back(err_partial_.substr(0, 4096) + "…");
        if (err_lines_.size() > kStderrLinesKept) err_lines_.pop_front();
        err_partial_.clear();
    }
}

void RuntimeProcess::drain_stderr() {
    if (err_fd_ < 0) return;
    char buf[8192];
    for (;;) {
        ssize_t n = ::read(err_fd_, buf, sizeof buf);
        if (n > 0) {
            take_stderr(buf, size_t(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) {  // the child closed stderr (normally: it exited)
            if (!err_partial_.empty()) take_stderr("\n", 1);
            close_fd(err_fd_);
        }
        return;  // EAGAIN: nothing more for now
    }
}

std::string RuntimeProcess::stderr_tail() const {
    std::string s;
    for (const std::string& l : err_lines_) s.append(s.empty() ? "" : "\n").append(l);
    if (!err_partial_.empty()) s.append(s.empty() ? "" : "\n").append(err_partial_);
    return s;
}

std::string RuntimeProcess::reap(int timeout_ms) {
    if (reaped_) return exit_description_;
    if (pid_ <= 0) return "never started";
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        int status = 0;
        pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            reaped_ = true;
            dead_ = true;
            if (WIFEXITED(status))
                exit_description_ = "exited with status " + std::to_string(WEXITSTATUS(status));
            else if (WIFSIGNALED(status))
                exit_description_ =
                    "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
            else
                exit_description_ = "ended";
            return exit_description_;
        }
        if (r < 0 && errno != EINTR) {
            reaped_ = true;
            exit_description_ = std::string("cannot be waited for: ") + std::strerror(errno);
            return exit_description_;
        }
        if (now_ms() >= deadline) return "still running";
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

void RuntimeProcess::kill() {
    if (pid_ > 0 && !reaped_) {
        ::kill(pid_, SIGKILL);  // our own child, by pid
        reap(5000);
    }
    dead_ = true;
    close_fd(in_fd_);
}

void RuntimeProcess::shutdown(int timeout_ms) {
    close_fd(in_fd_);  // end of input: the runtime exits by itself
    if (pid_ > 0 && !reaped_) {
        if (reap(timeout_ms) == "still running") kill();
    }
    dead_ = true;
    drain_stderr();
}

void RuntimeProcess::crashed(std::string_view what, std::string_view when) {
    drain_stderr();
    std::string how = reap(1000);
    if (how == "still running") {
        // stdout closed but the process lingers: it can no longer serve us, so end it.
        ::kill(pid_, SIGKILL);
        how = reap(5000) + " (ended by the client after it closed its stdout)";
    }
    dead_ = true;
    close_fd(in_fd_);
    drain_stderr();
    std::string msg = "zyx-tt-runtime (pid " + std::to_string(pid_) + ") " + how + " " + std::string(when) + " '" +
        std::string(what) + "'";
    std::string tail = stderr_tail();
    msg += tail.empty() ? "; it wrote nothing to stderr" : "; its last stderr lines:\n" + tail;
    throw Error(ErrorStatus::RuntimeCrashed, msg);
}

void RuntimeProcess::timed_out(std::string_view what, int timeout_ms, std::string_view phase) {
    kill();
    drain_stderr();
    std::string msg = "zyx-tt-runtime (pid " + std::to_string(pid_) + ") did not " + std::string(phase) + " '" +
        std::string(what) + "' within " + std::to_string(timeout_ms) + " ms; it was ended";
    std::string tail = stderr_tail();
    if (!tail.empty()) msg += "; its last stderr lines:\n" + tail;
    throw Error(ErrorStatus::Timeout, msg);
}

bool RuntimeProcess::wait_io(bool want_write, long long deadline_ms) {
    for (;;) {
        pollfd fds[2];
        int n = 0;
        fds[n++] = pollfd{want_write ? in_fd_ : out_fd_, short(want_write ? POLLOUT : POLLIN), 0};
        int err_index = -1;
        if (err_fd_ >= 0) {
            err_index = n;
            fds[n++] = pollfd{err_fd_, POLLIN, 0};
        }
        long long left = deadline_ms - now_ms();
        if (left <= 0) return false;
        int rc = ::poll(fds, nfds_t(n), int(std::min<long long>(left, 1 << 30)));
        if (rc < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorStatus::Io, std::string("poll on the runtime's pipes: ") + std::strerror(errno));
        }
        if (rc == 0) return false;
        if (err_index >= 0 && fds[err_index].revents) drain_stderr();
        if (fds[0].revents) return true;  // ready, or hung up / error: the caller's read/write tells
    }
}

void RuntimeProcess::send(std::string_view bytes, int timeout_ms, std::string_view what) {
    if (dead_) crashed(what, "before");
    long long deadline = now_ms() + timeout_ms;
    size_t off = 0;
    while (off < bytes.size()) {
        ssize_t n = write_no_sigpipe(in_fd_, bytes.data() + off, bytes.size() - off);
        if (n > 0) {
            off += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!wait_io(true, deadline)) timed_out(what, timeout_ms, "accept the request");
            continue;
        }
        crashed(what, "while sending");  // EPIPE: nobody reads the other end any more
    }
}

std::string RuntimeProcess::receive_line(int timeout_ms, std::string_view what) {
    if (dead_) crashed(what, "before");
    long long deadline = now_ms() + timeout_ms;
    int spins = 0;
    for (;;) {
        size_t nl = out_buf_.find('\n');
        if (nl != std::string::npos) {
            std::string line = out_buf_.substr(0, nl);
            out_buf_.erase(0, nl + 1);
            return line;
        }
        char buf[65536];
        ssize_t n = ::read(out_fd_, buf, sizeof buf);
        if (n > 0) {
            out_buf_.append(buf, size_t(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) crashed(what, "while answering");
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) crashed(what, "while answering");
        // Most answers come back within microseconds. Polling for them briefly (yielding the CPU
        // each time, in case the runtime shares it) keeps this core awake: sleeping in poll()
        // here costs a cross-CPU wake-up of tens of microseconds on virtual machines.
        if (spins++ < kSpinReads) {
            // The runtime's stderr is otherwise read only in wait_io: on a loaded machine a long
            // request can be answered within the spins, and its log lines would wait in the pipe
            // (and be lost if this process exits without ending the runtime).
            if ((spins & 31) == 31) drain_stderr();
            ::sched_yield();
            continue;
        }
        if (!wait_io(false, deadline)) timed_out(what, timeout_ms, "answer");
    }
}

}  // namespace zyx::tt
