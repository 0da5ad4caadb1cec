// Tenstorrent code generator benchmarks: tensors on tt:0 (zyx-tt-runtime with the emulated
// Wormhole n150, 8×8 grid) through the tensor API, each beside a baseline measured in the same
// run:
//   matmul   bf16 1024³ on tt:0            vs the hand-written multi-core matmul example   ≥ 0.7×
//   gelu     fused gelu(x · a + b), 16M bf16 vs the hand-written eltwise add example    ≥ 0.5× bandwidth
//   transfer upload + tilize, untilize + download of 64 MiB f32 vs memcpy               ≥ 0.4×
//   mlp      784-256-10 forward pass, batch 64, f32: tt:0 and the host (reported)
// Each tensor-API timing is a whole realize(): scheduling, the runtime round trip and the launch,
// with the program already compiled (the first, untimed run compiles it).
//   build/bin/bench_tt [matmul|gelu|transfer|mlp]
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <stdexcept>
#include <vector>

#include "emu_example_programs.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;

const Device kTT = Device::tt(0);

zyx::Tensor data(const zyx::Shape& s, DType t, Device d, uint64_t seed) {
    zyx::Generator g(seed);
    return zyx::uniform(s, -1, 1, DType::f32, Device::host(), g).cast(t).to(d).realize();
}

// CPU seconds (user + system) so far of this process's zyx-tt-runtime children, from /proc.
double runtime_cpu_seconds() {
    double total = 0;
    const long ticks = sysconf(_SC_CLK_TCK);
    DIR* d = opendir("/proc");
    if (!d) return 0;
    while (dirent* e = readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        std::ifstream f(std::string("/proc/") + e->d_name + "/stat");
        std::string line;
        if (!std::getline(f, line)) continue;
        // pid (comm) state ppid … utime stime: fields 14 and 15, counted after the ')'.
        const size_t close = line.rfind(')');
        if (close == std::string::npos || line.find("(zyx-tt-runtime)") == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 2));
        std::string field;
        long ppid = 0, utime = 0, stime = 0;
        for (int i = 3; i <= 15 && rest >> field; ++i) {
            if (i == 4) ppid = std::stol(field);
            if (i == 14) utime = std::stol(field);
            if (i == 15) stime = std::stol(field);
        }
        if (ppid == getpid()) total += double(utime + stime) / double(ticks);
    }
    closedir(d);
    return total;
}

void row(const char* what, double ours, double base, const char* unit, double ratio, const char* goal) {
    std::printf("%-44s %10.2f %10.2f %-8s %7.3f   %s\n", what, ours, base, unit, ratio, goal);
}

void bench_matmul() {
    const int64_t n = 1024;
    Tensor a = data({n, n}, DType::bf16, kTT, 1), b = data({n, n}, DType::bf16, kTT, 2);
    auto run = [&] { a.matmul(b).realize(); };
    run();  // compiles
    double t = bench::best_of(bench::reps(), run);
    double t_ex = bench::example_matmul_seconds(1024, 1024, 1024);
    double flops = 2.0 * n * n * n;
    row("matmul bf16 1024^3 (GFLOP/s)", flops / t * 1e-9, flops / t_ex * 1e-9, "GFLOP/s", t_ex / t,
        ">= 0.7 (vs example 05's program)");
}

void bench_gelu() {
    // 16M bf16 elements (32 MiB), as the eltwise add example's operands.
    const int64_t rows = 4096, cols = 4096;
    Tensor x = data({rows, cols}, DType::bf16, kTT, 3);
    auto run = [&] { (x * 0.75 + 0.25).gelu().realize(); };
    run();
    const double cpu0 = runtime_cpu_seconds();
    double t = bench::best_of(bench::reps(), run);
    const double cpu = (runtime_cpu_seconds() - cpu0) / std::max(1, bench::reps());
    const uint32_t tiles = uint32_t(rows * cols / 1024);
    double cpu_ex = 0;
    double t_ex = bench::example_eltwise_add_seconds(tiles, &cpu_ex);
    double bytes = 2.0 * rows * cols * 2;          // x read, result written
    double bytes_ex = 3.0 * double(tiles) * 2048;  // a, b read, c written
    row("fused gelu(x*a+b) 16M bf16 (GB/s)", bytes / t * 1e-9, bytes_ex / t_ex * 1e-9, "GB/s",
        (bytes / t) / (bytes_ex / t_ex), ">= 0.5 (vs example 02's add)");
    // The same per CPU second of the emulating processes (the runtime's, the example's): what
    // the wall-time figure approaches on an idle machine, and steadier under other load.
    if (cpu > 0 && cpu_ex > 0)
        row("  the same per CPU second (GB/s)", bytes / cpu * 1e-9, bytes_ex / cpu_ex * 1e-9, "GB/s",
            (bytes / cpu) / (bytes_ex / cpu_ex), "(reported: CPU time, 10 ms ticks)");
}

void bench_transfer() {
    const size_t n = size_t(16) << 20;  // 64 MiB of f32
    std::vector<float> host(n), back(n);
    for (size_t i = 0; i < n; ++i) host[i] = float(i % 1000);
    const zyx::Shape shape = {4096, 4096};
    Tensor t;
    auto up = [&] { t = zyx::from_bytes(host.data(), n * 4, shape, DType::f32, kTT).realize(); };
    auto down = [&] { t.to_buffer(back.data(), back.size()); };
    up();
    down();
    double t_up = bench::best_of(bench::reps(), up), t_down = bench::best_of(bench::reps(), down);
    if (back != host) throw std::runtime_error("transfer: the download differs from the upload");
    std::vector<float> tmp(n);
    double t_copy = bench::best_of(5, [&] { std::memcpy(tmp.data(), host.data(), n * 4); });
    double bytes = double(n) * 4;
    row("upload + tilize 64 MiB (GB/s)", bytes / t_up * 1e-9, bytes / t_copy * 1e-9, "GB/s", t_copy / t_up, "");
    row("untilize + download 64 MiB (GB/s)", bytes / t_down * 1e-9, bytes / t_copy * 1e-9, "GB/s", t_copy / t_down, "");
    row("both ways vs two memcpy (GB/s)", 2 * bytes / (t_up + t_down) * 1e-9, bytes / t_copy * 1e-9, "GB/s",
        2 * t_copy / (t_up + t_down), ">= 0.4");
}

void bench_mlp() {
    auto forward_ms = [](Device d) {
        Tensor x = data({64, 784}, DType::f32, d, 5), w1 = data({784, 256}, DType::f32, d, 6),
               b1 = data({256}, DType::f32, d, 7), w2 = data({256, 10}, DType::f32, d, 8),
               b2 = data({10}, DType::f32, d, 9);
        auto run = [&] { (((x.matmul(w1) + b1).relu()).matmul(w2) + b2).realize(); };
        run();
        return bench::best_of(bench::reps(5), run) * 1e3;
    };
    double tt = forward_ms(kTT), host = forward_ms(Device::host());
    row("MLP 784-256-10 forward, batch 64, f32 (ms)", tt, host, "ms", host / tt, "(reported: tt:0 vs host)");
}

}  // namespace

int main(int argc, char** argv) {
    bool all = argc < 2;
    auto want = [&](const char* what) { return all || std::strcmp(argv[1], what) == 0; };
    try {
        std::printf("%-44s %10s %10s %-8s %7s   %s\n", "benchmark", "tt:0", "baseline", "unit", "ratio", "goal");
        if (want("matmul")) bench_matmul();
        if (want("gelu")) bench_gelu();
        if (want("transfer")) bench_transfer();
        if (want("mlp")) bench_mlp();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_tt: %s\n", e.what());
        return 1;
    }
    return 0;
}
