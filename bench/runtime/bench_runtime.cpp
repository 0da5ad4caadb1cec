// Runtime benchmarks, each beside its baseline measured in the same run:
//   1. small request round trip (ping)    vs a raw pipe ping-pong with an echo child    goal ≤ 2×
//      (the echo child is this program run with --echo: it waits for input the way the runtime
//      does, a short poll-and-yield spin before a blocking read, so both sides differ only by
//      what the runtime does with a request)
//   2. 64 MiB write + read through the pool vs memcpy of the same bytes twice            goal ≥ 0.5×
//   3. empty program launch on one core and on the whole grid                           goal ≤ 1 ms
//      (baseline column: the part of it spent inside the device's launch + wait)
//
//   bench_runtime [--runtime PATH] [--preset NAME] [--chunk-kib N]
// Prints a table; the "ratio" column is what the goals refer to.
#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backend/tenstorrent/device.hpp"
#include "backend/tenstorrent/memory_pool.hpp"
#include "backend/tenstorrent/runtime_client.hpp"
#include "backend/tenstorrent/runtime_process.hpp"
#include "core/error.hpp"

using namespace zyx;
using namespace zyx::tt;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Best of `reps` timings of f().
template <class F>
double best_of(int reps, F&& f) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        auto t0 = Clock::now();
        f();
        best = std::min(best, seconds_since(t0));
    }
    return best;
}

void row(const char* what, double ours, double base, const char* unit, double ratio, const char* goal) {
    std::printf("%-40s %12.3f %12.3f %-6s %8.2f   %s\n", what, ours, base, unit, ratio, goal);
}

// The raw side of benchmark 1: copies stdin to stdout, waiting for input as zyx-tt-runtime does.
int echo_main() {
    char buf[4096];
    for (;;) {
        for (int spin = 0; spin < 200; ++spin) {
            pollfd p{0, POLLIN, 0};
            if (::poll(&p, 1, 0) > 0) break;
            ::sched_yield();
        }
        ssize_t n = ::read(0, buf, sizeof buf);
        if (n <= 0) return 0;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = ::write(1, buf + off, size_t(n - off));
            if (w <= 0) return 0;
            off += w;
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && !std::strcmp(argv[1], "--echo")) return echo_main();
    OpenOptions o;
    Config cfg;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--runtime"))
            o.runtime = argv[i + 1];
        else if (!std::strcmp(argv[i], "--preset"))
            cfg.emulator_preset = argv[i + 1];
        else if (!std::strcmp(argv[i], "--chunk-kib"))
            o.transfer_chunk_bytes = std::strtoull(argv[i + 1], nullptr, 10) << 10;
    }
    o.config = cfg;
    o.lock_dir = std::filesystem::temp_directory_path() / ("zyx-bench-" + std::to_string(::getpid()));
    try {
        auto dev = TTDevice::open(o);
        // Transfers overlap the client's copy with the runtime's only when a second core is free:
        // the load average says how much the machine was shared during the run.
        std::string load;
        if (FILE* f = std::fopen("/proc/loadavg", "r")) {
            char buf[64] = {};
            if (std::fgets(buf, sizeof buf, f)) load = buf;
            std::fclose(f);
        }
        std::printf("device: %s; %ld cores, load average %s\n", dev->info().name.c_str(),
                    ::sysconf(_SC_NPROCESSORS_ONLN), load.c_str());
        std::printf("%-40s %12s %12s %-6s %8s   %s\n", "benchmark", "zyx", "baseline", "unit", "ratio", "goal");

        // 1. Round trip of a small request vs a raw pipe ping-pong. Blocks of the two alternate,
        //    and the best block of each counts, so that load from other processes hits both alike.
        const int n = 2000, blocks = 15;
        RuntimeClient& client = dev->client();
        protocol::Request ping;
        ping.cmd = protocol::Command::ping;
        RuntimeProcess echo({"/proc/self/exe", "--echo"});
        const std::string line = "{\"cmd\":\"ping\",\"seq\":123456}\n";
        auto ours_block = [&] {
            for (int i = 0; i < n; ++i) client.call(ping);
        };
        auto raw_block = [&] {
            for (int i = 0; i < n; ++i) {
                echo.send(line, 1000, "ping");
                echo.receive_line(1000, "ping");
            }
        };
        ours_block();
        raw_block();
        double ours = 1e30, raw = 1e30;
        for (int b = 0; b < blocks; ++b) {
            ours = std::min(ours, best_of(1, ours_block) / n * 1e6);
            raw = std::min(raw, best_of(1, raw_block) / n * 1e6);
        }
        row("round trip: ping vs raw pipe echo", ours, raw, "us", ours / raw, "<= 2");

        // 2. 64 MiB write + read vs memcpy of the same bytes (one copy each way).
        const size_t bytes = 64u << 20;
        std::vector<uint8_t> src(bytes), dst(bytes), tmp(bytes);
        for (size_t i = 0; i < bytes; ++i) src[i] = uint8_t(i * 7);
        auto& pool = dev->tt_pool();
        backend::BufferId b = pool.allocate(bytes);
        auto transfer = [&] {
            pool.host_to_pool(src.data(), bytes, b, {});
            pool.pool_to_host(b, dst.data(), bytes, {});
        };
        transfer();  // first touch of device pages and arena
        double t_ours = best_of(5, transfer);
        if (std::memcmp(src.data(), dst.data(), bytes) != 0)
            std::printf("ERROR: 64 MiB round trip corrupted the data\n");
        std::memcpy(tmp.data(), src.data(), bytes);
        double t_memcpy = best_of(5, [&] {
            std::memcpy(tmp.data(), src.data(), bytes);
            std::memcpy(dst.data(), tmp.data(), bytes);
        });
        double gbps_ours = 2.0 * bytes / t_ours / 1e9, gbps_memcpy = 2.0 * bytes / t_memcpy / 1e9;
        row("64 MiB write+read vs memcpy", gbps_ours, gbps_memcpy, "GB/s", gbps_ours / gbps_memcpy, ">= 0.5");
        // Where the time goes: each direction alone against one memcpy.
        double t_w = best_of(5, [&] { pool.host_to_pool(src.data(), bytes, b, {}); });
        double t_r = best_of(5, [&] { pool.pool_to_host(b, dst.data(), bytes, {}); });
        double t_1 = best_of(5, [&] { std::memcpy(tmp.data(), src.data(), bytes); });
        row("  64 MiB write only vs one memcpy", bytes / t_w / 1e9, bytes / t_1 / 1e9, "GB/s", t_1 / t_w, "");
        row("  64 MiB read only vs one memcpy", bytes / t_r / 1e9, bytes / t_1 / 1e9, "GB/s", t_1 / t_r, "");
        pool.release(b);

        // 3. Empty program launches.
        auto empty_program = [&](protocol::Grid grid) {
            protocol::Program p;
            p.grid = grid;
            p.kernels.push_back(
                {"reader", protocol::KernelKind::data_movement_0, "void kernel_main() {}", {}, {}, {}, {}});
            p.kernels.push_back(
                {"writer", protocol::KernelKind::data_movement_1, "void kernel_main() {}", {}, {}, {}, {}});
            p.kernels.push_back(
                {"compute", protocol::KernelKind::compute, "namespace NAMESPACE { void MAIN {} }", {}, {}, {}, {}});
            return dev->compile_program(p);
        };
        for (protocol::Grid g : {protocol::Grid{1, 1}, dev->device_desc().grid}) {
            std::string what =
                "empty program launch, " + std::to_string(g.rows) + "x" + std::to_string(g.cols) + " cores";
            try {
                backend::ProgramId p = empty_program(g);
                for (int i = 0; i < 5; ++i) dev->launch(p, {}, {}, {});
                const int runs = 200;
                double total = best_of(3,
                                       [&] {
                                           for (int i = 0; i < runs; ++i) dev->launch(p, {}, {}, {});
                                       }) /
                    runs * 1e3;
                // Where the time goes: the part spent inside the device's launch + wait, as the
                // runtime measures it (the rest is protocol and runtime-arg building).
                double in_device = 0;
                for (int i = 0; i < runs; ++i) {
                    dev->launch(p, {}, {}, {});
                    in_device += dev->last_launch_us() / 1e3;
                }
                in_device /= runs;
                row(what.c_str(), total, in_device, "ms", total, "<= 1 ms (whole grid)");
                std::printf("%-40s %12s %12s (baseline column = time inside the device's launch+wait)\n", "", "", "");
                dev->release(p);
            } catch (const Error& e) { std::printf("%-40s not measured: %s\n", what.c_str(), e.what()); }
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_runtime: %s\n", e.what());
        return 1;
    }
    return 0;
}
