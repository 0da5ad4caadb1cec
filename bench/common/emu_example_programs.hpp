// The hand-written example programs the emulator benchmarks measure against (examples/05's
// multi-core matmul, examples/08's multicast block matmul, examples/02's eltwise add), run on a fresh emulated Wormhole n150 over its
// whole grid: bench/emulator (against OpenBLAS and memcpy) and bench/tt (the code generator's
// programs against these) share them.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <vector>

#include "../../examples/08_matmul_block_mcast/mcast_matmul.hpp"
#include "example_util.hpp"

namespace bench {

// Best of `reps` runs of f, in seconds.
inline double best_of(int reps, const std::function<void()>& f) {
    double best = 1e30;
    for (int i = 0; i < reps; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

// CPU time of this process, in seconds (every thread): less moved by other load on the machine
// than wall time.
inline double process_cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Timed repetitions: ZYX_BENCH_REPS, else `fallback`.
inline int reps(int fallback = 3) {
    return std::getenv("ZYX_BENCH_REPS") ? std::atoi(std::getenv("ZYX_BENCH_REPS")) : fallback;
}

// Seconds of one launch of the example matmul program: bf16 C = A·B, M×K×N (multiples of 32),
// output tiles split over the whole grid, fp32 accumulation (best of reps(), warm).
inline double example_matmul_seconds(uint32_t M, uint32_t K, uint32_t N) {
    using namespace example;
    const uint32_t Mt = M / 32, Kt = K / 32, Nt = N / 32, tile = 2048;
    Device dev(preset("wormhole-n150"));
    const auto& s = dev.spec();
    CoreRangeSet grid{CoreRange{{0, 0}, {s.grid_x - 1, s.grid_y - 1}}};
    uint32_t ncores = s.grid_x * s.grid_y;
    std::vector<float> a(size_t(M) * K), b(size_t(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 17) - 8) / 8;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 13) - 6) / 8;
    Buffer A = dev.buffer_create(size_t(M) * K * 2, tile), B = dev.buffer_create(size_t(K) * N * 2, tile),
           C = dev.buffer_create(size_t(M) * N * 2, tile);
    auto at = tilize(a, M, K), bt = tilize(b, K, N);
    dev.buffer_write(A.id, at.data(), at.size() * 2);
    dev.buffer_write(B.id, bt.data(), bt.size() * 2);
    ProgramSpec ps;
    for (uint32_t cb : {0u, 1u, 16u}) ps.cbs.push_back({cb, DataFormat::Float16_b, tile, 2, grid, {}, {}});
    std::vector<uint32_t> rct = dev.tensor_accessor_args(A.id), bct = dev.tensor_accessor_args(B.id);
    rct.insert(rct.end(), bct.begin(), bct.end());
    KernelSpec comp = kernel("compute_matmul.cpp", KernelKind::Compute, grid);
    comp.compute.fp32_dest_acc_en = true;
    ps.kernels = {kernel("reader_matmul_tiles.cpp", KernelKind::DataMovement1, grid, rct),
                  kernel("writer_tiles.cpp", KernelKind::DataMovement0, grid, dev.tensor_accessor_args(C.id)), comp};
    ProgramId p = dev.program_create(ps);
    for (uint32_t i = 0; i < ncores; ++i) {
        uint32_t start, count;
        split_work(Mt * Nt, ncores, i, &start, &count);
        CoreCoord c{i % s.grid_x, i / s.grid_x};
        dev.program_set_runtime_args(p, 0, c, {A.address, B.address, Kt, Nt, start, count});
        dev.program_set_runtime_args(p, 1, c, {C.address, start, count});
        dev.program_set_runtime_args(p, 2, c, {Kt, count});
    }
    auto launch = [&] {
        dev.program_launch(p);
        dev.wait();
    };
    launch();  // warm: first touch of L1, DRAM and fiber stacks
    return best_of(reps(), launch);
}

// Seconds of one launch of example 08's program: bf16 C = A·B, M×K×N, matmul_block with A bands
// multicast along grid rows and B bands down grid columns, fp32 accumulation, whole grid (best of
// reps(), warm). `cpu`: when given, the process CPU seconds per launch (mean over the timed
// launches). `check_races`: DeviceOptions::check_races.
inline double example_matmul_block_mcast_seconds(uint32_t M, uint32_t K, uint32_t N, double* cpu = nullptr,
                                                 bool check_races = true) {
    using namespace example;
    const uint32_t tile = 2048;
    DeviceOptions opts;
    opts.check_races = check_races;
    Device dev(preset("wormhole-n150"), opts);
    std::vector<float> a(size_t(M) * K), b(size_t(K) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 17) - 8) / 8;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i % 13) - 6) / 8;
    Buffer A = dev.buffer_create(size_t(M) * K * 2, tile), B = dev.buffer_create(size_t(K) * N * 2, tile),
           C = dev.buffer_create(size_t(M) * N * 2, tile);
    auto at = tilize(a, M, K), bt = tilize(b, K, N);
    dev.buffer_write(A.id, at.data(), at.size() * 2);
    dev.buffer_write(B.id, bt.data(), bt.size() * 2);
    ProgramId p = build_mcast_matmul(dev, M, K, N, A, B, C);
    auto launch = [&] {
        dev.program_launch(p);
        dev.wait();
    };
    launch();  // warm: first touch of L1, DRAM and fiber stacks
    const double cpu0 = process_cpu_seconds();
    const double best = best_of(reps(), launch);
    if (cpu) *cpu = (process_cpu_seconds() - cpu0) / std::max(1, reps());
    return best;
}

// Seconds of one launch of the example eltwise add program: bf16 c = a + b over n_tiles tiles
// per operand, split over the whole grid (best of reps(), warm). `cpu`: when given, the process
// CPU seconds per launch (mean over the timed launches). `check_races`: DeviceOptions::check_races.
inline double example_eltwise_add_seconds(uint32_t n_tiles, double* cpu = nullptr, bool check_races = true) {
    using namespace example;
    const uint32_t tile = 2048;
    DeviceOptions opts;
    opts.check_races = check_races;
    Device dev(preset("wormhole-n150"), opts);
    const auto& s = dev.spec();
    CoreRangeSet grid{CoreRange{{0, 0}, {s.grid_x - 1, s.grid_y - 1}}};
    uint32_t ncores = s.grid_x * s.grid_y;
    std::vector<uint16_t> host(size_t(n_tiles) * 1024, 0x3f80);
    Buffer A = dev.buffer_create(uint64_t(n_tiles) * tile, tile), B = dev.buffer_create(uint64_t(n_tiles) * tile, tile),
           C = dev.buffer_create(uint64_t(n_tiles) * tile, tile);
    dev.buffer_write(A.id, host.data(), host.size() * 2);
    dev.buffer_write(B.id, host.data(), host.size() * 2);
    ProgramSpec ps;
    for (uint32_t cb : {0u, 1u, 16u}) ps.cbs.push_back({cb, DataFormat::Float16_b, tile, 4, grid, {}, {}});
    std::vector<uint32_t> rct = dev.tensor_accessor_args(A.id), bct = dev.tensor_accessor_args(B.id);
    rct.insert(rct.end(), bct.begin(), bct.end());
    KernelSpec comp;
    comp.name = "add";
    comp.kind = KernelKind::Compute;
    comp.cores = grid;
    comp.source = kernel_source("../../02_eltwise_binary/kernels/compute_add.cpp");
    ps.kernels = {kernel("reader_binary_tiles.cpp", KernelKind::DataMovement1, grid, rct),
                  kernel("writer_tiles.cpp", KernelKind::DataMovement0, grid, dev.tensor_accessor_args(C.id)), comp};
    ProgramId p = dev.program_create(ps);
    for (uint32_t i = 0; i < ncores; ++i) {
        uint32_t start, count;
        split_work(n_tiles, ncores, i, &start, &count);
        CoreCoord c{i % s.grid_x, i / s.grid_x};
        dev.program_set_runtime_args(p, 0, c, {A.address, B.address, start, count});
        dev.program_set_runtime_args(p, 1, c, {C.address, start, count});
        dev.program_set_runtime_args(p, 2, c, {count});
    }
    auto launch = [&] {
        dev.program_launch(p);
        dev.wait();
    };
    launch();
    const double cpu0 = process_cpu_seconds();
    const double best = best_of(reps(), launch);
    if (cpu) *cpu = (process_cpu_seconds() - cpu0) / std::max(1, reps());
    return best;
}

}  // namespace bench
