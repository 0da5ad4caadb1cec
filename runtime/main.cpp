// zyx-tt-runtime: one process that owns one Tenstorrent device (or one emulated device) and
// serves the protocol of docs/protocol.md on its stdin/stdout.
//
//   zyx-tt-runtime [--target emulator|metal] [--preset NAME] [--device-id N] [--lock-dir DIR]
//                  [--threads N] [--schedule-seed N] [--raw-timeout-ms N] [--debug-delay CMD=MS]…
//
// At start it takes the runtime lock of its device (src/backend/tenstorrent/device_lock.hpp): a
// second runtime for the same target and device id answers its first request with device_busy
// naming the holder's pid, and exits.
//
// stdout carries protocol only: at start the protocol descriptors are moved away from 0 and 1,
// stdin is reopened on /dev/null and stdout is pointed at stderr, so that text printed by
// vendor code can never corrupt the stream. Logs go to stderr (ZYX_DEBUG=runtime).
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backend/tenstorrent/device_lock.hpp"
#include "backend/tenstorrent/protocol.hpp"
#include "core/log.hpp"
#include "server.hpp"
#include "stream.hpp"
#include "target.hpp"

using namespace zyx;
using namespace zyx::tt;

namespace {

const char* kUsage =
    "usage: zyx-tt-runtime [options]\n"
    "Serves the zyx Tenstorrent runtime protocol (docs/protocol.md) on stdin/stdout.\n"
    "  --target NAME          emulator (default) or metal\n"
    "  --preset NAME          emulator preset: wormhole-n150 (default), blackhole-p100a, blackhole-p150\n"
    "  --device-id N          which device: its lock, and for metal the chip (default 0)\n"
    "  --lock-dir DIR         where the device lock lives (default ${XDG_RUNTIME_DIR:-/tmp}/zyx-<uid>)\n"
    "  --threads N            emulator worker threads (default: all cores)\n"
    "  --schedule-seed N      emulator: randomised, seeded fiber schedule\n"
    "  --no-race-check        emulator: do not fail launches in which two cores race on L1 / DRAM bytes\n"
    "  --raw-timeout-ms N     wait for compile_program source bytes at most N ms per piece (default 2000)\n"
    "  --debug-delay CMD=MS   test hook: sleep MS ms inside CMD (write_buf, read_buf, run, …)\n"
    "  --list-targets         print the compiled-in targets and exit\n";

bool parse_u64(const char* s, uint64_t* out) {
    if (!s || !*s) return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 10);
    if (errno || *end || s[0] == '-') return false;
    *out = v;
    return true;
}

[[noreturn]] void usage_error(const std::string& msg) {
    std::fprintf(stderr, "zyx-tt-runtime: %s\n%s", msg.c_str(), kUsage);  // allow-print: command-line usage
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    runtime::TargetOptions topts;
    runtime::ServerOptions sopts;
    std::string lock_dir;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) usage_error("missing value after " + a);
            return argv[++i];
        };
        uint64_t n = 0;
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);  // allow-print: command-line usage
            return 0;
        } else if (a == "--list-targets") {
            for (const std::string& t : runtime::target_names())
                std::printf("%s\n", t.c_str());  // allow-print: command-line usage
            return 0;
        } else if (a == "--target") {
            topts.target = value();
        } else if (a == "--preset") {
            topts.preset = value();
        } else if (a == "--device-id") {
            if (!parse_u64(value(), &n) || n > UINT32_MAX) usage_error("--device-id needs a number");
            topts.device_id = uint32_t(n);
        } else if (a == "--lock-dir") {
            lock_dir = value();
            if (lock_dir.empty()) usage_error("--lock-dir needs a directory");
        } else if (a == "--threads") {
            if (!parse_u64(value(), &n) || n > 1024) usage_error("--threads needs a number up to 1024");
            topts.threads = unsigned(n);
        } else if (a == "--schedule-seed") {
            if (!parse_u64(value(), &n)) usage_error("--schedule-seed needs a number");
            topts.has_schedule_seed = true;
            topts.schedule_seed = n;
        } else if (a == "--no-race-check") {
            topts.check_races = false;
        } else if (a == "--raw-timeout-ms") {
            if (!parse_u64(value(), &n) || n < 1 || n > 600000) usage_error("--raw-timeout-ms needs 1 to 600000");
            sopts.raw_timeout_ms = int(n);
        } else if (a == "--debug-delay") {
            std::string spec = value();
            size_t eq = spec.find('=');
            bool known = false;
            for (int c = 0; c <= int(protocol::Command::exit); ++c) {
                if (eq != std::string::npos && protocol::command_name(protocol::Command(c)) == spec.substr(0, eq) &&
                    parse_u64(spec.c_str() + eq + 1, &n) && n <= 600000) {
                    sopts.delay_ms[protocol::Command(c)] = int(n);
                    known = true;
                }
            }
            if (!known) usage_error("--debug-delay needs COMMAND=MILLISECONDS, got '" + spec + "'");
        } else {
            usage_error("unknown option '" + a + "'");
        }
    }

    // Protocol descriptors away from 0/1; stray prints from libraries land on stderr.
    int in_fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);
    int out_fd = ::fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (in_fd < 0 || out_fd < 0) {
        std::perror("zyx-tt-runtime: dup");
        return 1;
    }
    int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) {
        ::dup2(devnull, 0);
        ::close(devnull);
    }
    ::dup2(2, 1);
    // A client that goes away must not kill us mid-write with SIGPIPE: write() reports EPIPE and
    // the server ends cleanly.
    ::signal(SIGPIPE, SIG_IGN);

    // The device lock comes before the device: a busy device is never opened twice.
    std::unique_ptr<DeviceLock> lock;
    try {
        lock = std::make_unique<DeviceLock>(topts.target, topts.device_id, lock_dir, DeviceLock::Role::runtime);
    } catch (const Error& e) {
        ZYX_LOG(runtime) << "device lock: " << e.what();
        return runtime::serve_unavailable(in_fd, out_fd, Error(e.status(), "zyx-tt-runtime: " + e.message()),
                                          sopts.raw_timeout_ms,
                                          /*once=*/true);
    }

    std::unique_ptr<runtime::Target> target;
    try {
        target = runtime::target_create(topts);
    } catch (const Error& e) {
        ZYX_LOG(runtime) << "target '" << topts.target << "' failed to start: " << e.what();
        return runtime::serve_unavailable(
            in_fd, out_fd, Error(e.status(), "zyx-tt-runtime: target '" + topts.target + "': " + e.message()),
            sopts.raw_timeout_ms);
    }
    ZYX_LOG(runtime) << "pid " << ::getpid() << " serving target " << target->name() << " (" << target->device().name
                     << ")";
    runtime::Server server(*target, sopts);
    return server.serve(in_fd, out_fd);
}
