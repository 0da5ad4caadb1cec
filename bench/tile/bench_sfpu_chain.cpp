// bench_sfpu_chain: what a long chain of SFPU ops costs per tile on the emulator, the shape of
// the compute kernels the Tenstorrent code generator emits (a fused gelu(x·a + b) with erf by
// its Abramowitz–Stegun polynomial is 40 SFPU calls per tile: fill_tile_bitcast of each constant,
// SFPU binaries, abs / recip / negative / exp / sign, copy_dest_values, with an *_init before
// every change of op, as the generator writes them).
//
// One program on the whole emulated Wormhole n150 grid (8×8 cores) over 4096 bf16 tiles: a
// reader, the compute kernel (copy_tile into a 32-bit DST, the chain, pack_tile) and a writer.
// Measured beside the same program whose compute kernel only copies each tile (the baseline:
// unpack, pack, circular buffers, NoC and fibers), in the same run, and beside the same gelu
// written with binop_with_scalar.h's add_unary_tile / mul_unary_tile / rsub_unary_tile (29 SFPU
// calls). Figures are process CPU time per tile (best of the launches), so other load on the
// machine moves them less than wall time.
//   build/bin/bench_sfpu_chain            (ZYX_BENCH_REPS=n: timed launches, default 5)
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "emu/device.hpp"

using namespace zyx::emu;

namespace {

constexpr uint32_t kTiles = 4096;
constexpr uint32_t kTileBytes = 2048;  // bf16

const char* kReader = R"(
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    InterleavedAddrGen<true> g{addr, 2048};
    for (uint32_t i = start; i < start + count; ++i) {
        cb_reserve_back(0, 1);
        noc_async_read_page(i, g, get_write_ptr(0));
        noc_async_read_barrier();
        cb_push_back(0, 1);
    }
})";

const char* kWriter = R"(
void kernel_main() {
    const uint32_t addr = get_arg_val<uint32_t>(0), start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    InterleavedAddrGen<true> g{addr, 2048};
    for (uint32_t i = start; i < start + count; ++i) {
        cb_wait_front(16, 1);
        noc_async_write_page(i, g, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
})";

// gelu(x·0.75 + 0.25) with erf(z) = sign(z)·(1 − t·P(t)·e^(−z²)), t = 1/(1 + p|z|): 40 SFPU calls.
const char* kGeluChain = R"(
        fill_tile_init();
        fill_tile_bitcast(1, 0x3f400000u);
        mul_binary_tile_init();
        mul_binary_tile(0, 1, 0);
        fill_tile_init();
        fill_tile_bitcast(1, 0x3e800000u);
        add_binary_tile_init();
        add_binary_tile(0, 1, 0);
        fill_tile_init();
        fill_tile_bitcast(1, 0x3f3504f3u);
        mul_binary_tile_init();
        mul_binary_tile(0, 1, 2);
        copy_dest_values_init();
        copy_dest_values<DataFormat::Float32>(2, 1);
        abs_tile_init();
        abs_tile(1);
        fill_tile_init();
        fill_tile_bitcast(3, 0x3ea7ba05u);
        mul_binary_tile_init();
        mul_binary_tile(1, 3, 1);
        fill_tile_init();
        fill_tile_bitcast(3, 0x3f800000u);
        add_binary_tile_init();
        add_binary_tile(1, 3, 1);
        recip_tile_init();
        recip_tile(1);
        fill_tile_init();
        fill_tile_bitcast(3, 0x3f87dc22u);
        mul_binary_tile_init();
        mul_binary_tile(1, 3, 4);
        fill_tile_init();
        fill_tile_bitcast(3, 0xbfba00e3u);
        add_binary_tile_init();
        add_binary_tile(4, 3, 4);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        fill_tile_init();
        fill_tile_bitcast(3, 0x3fb5f0e3u);
        add_binary_tile_init();
        add_binary_tile(4, 3, 4);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        fill_tile_init();
        fill_tile_bitcast(3, 0xbe91a98eu);
        add_binary_tile_init();
        add_binary_tile(4, 3, 4);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        fill_tile_init();
        fill_tile_bitcast(3, 0x3e827906u);
        add_binary_tile_init();
        add_binary_tile(4, 3, 4);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        mul_binary_tile(2, 2, 1);
        negative_tile_init();
        negative_tile(1);
        exp_tile_init();
        exp_tile(1);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        fill_tile_init();
        fill_tile_bitcast(1, 0x3f800000u);
        sub_binary_tile_init();
        sub_binary_tile(1, 4, 1);
        sign_tile_init();
        sign_tile(2);
        mul_binary_tile_init();
        mul_binary_tile(2, 1, 2);
        fill_tile_init();
        fill_tile_bitcast(1, 0x3f800000u);
        add_binary_tile_init();
        add_binary_tile(2, 1, 2);
        fill_tile_init();
        fill_tile_bitcast(1, 0x3f000000u);
        mul_binary_tile_init();
        mul_binary_tile(0, 1, 0);
        mul_binary_tile(0, 2, 0);
)";

// The same computation with binop_with_scalar.h's scalar ops in place of fill + binary: 29 SFPU
// calls, the same fp32 operations in the same order (so the same bits).
const char* kGeluScalarChain = R"(
        binop_with_scalar_tile_init();
        mul_unary_tile(0, 0x3f400000u);
        add_unary_tile(0, 0x3e800000u);
        copy_dest_values_init();
        copy_dest_values<DataFormat::Float32>(0, 2);
        binop_with_scalar_tile_init();
        mul_unary_tile(2, 0x3f3504f3u);
        copy_dest_values_init();
        copy_dest_values<DataFormat::Float32>(2, 1);
        abs_tile_init();
        abs_tile(1);
        binop_with_scalar_tile_init();
        mul_unary_tile(1, 0x3ea7ba05u);
        add_unary_tile(1, 0x3f800000u);
        recip_tile_init();
        recip_tile(1);
        copy_dest_values_init();
        copy_dest_values<DataFormat::Float32>(1, 4);
        binop_with_scalar_tile_init();
        mul_unary_tile(4, 0x3f87dc22u);
        add_unary_tile(4, 0xbfba00e3u);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        binop_with_scalar_tile_init();
        add_unary_tile(4, 0x3fb5f0e3u);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        binop_with_scalar_tile_init();
        add_unary_tile(4, 0xbe91a98eu);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        binop_with_scalar_tile_init();
        add_unary_tile(4, 0x3e827906u);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        mul_binary_tile(2, 2, 1);
        negative_tile_init();
        negative_tile(1);
        exp_tile_init();
        exp_tile(1);
        mul_binary_tile_init();
        mul_binary_tile(4, 1, 4);
        binop_with_scalar_tile_init();
        rsub_unary_tile(4, 0x3f800000u);
        sign_tile_init();
        sign_tile(2);
        mul_binary_tile_init();
        mul_binary_tile(2, 4, 2);
        binop_with_scalar_tile_init();
        add_unary_tile(2, 0x3f800000u);
        mul_unary_tile(0, 0x3f000000u);
        mul_binary_tile_init();
        mul_binary_tile(0, 2, 0);
)";

std::string compute_source(const std::string& chain) {
    return R"(
void kernel_main() {
    const uint32_t count = get_arg_val<uint32_t>(0);
    init_sfpu(0, 16);
    for (uint32_t t = 0; t < count; ++t) {
        tile_regs_acquire();
        cb_wait_front(0, 1);
        copy_tile_to_dst_init_short(0);
        copy_tile(0, 0, 0);
)" + chain +
        R"(
        cb_pop_front(0, 1);
        tile_regs_commit();
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
    }
})";
}

double process_cpu_s() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
double wall_s() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Timing {
    double cpu_per_tile_ns, wall_ms;
};

// Runs the program with `chain` as its compute body over kTiles tiles of `in`; best of `reps`
// launches after a warm one. `out` receives the result tiles.
Timing run(const std::string& chain, const std::vector<uint16_t>& in, std::vector<uint16_t>& out, int reps) {
    Device dev(preset("wormhole-n150"));
    const DeviceSpec& s = dev.spec();
    CoreRangeSet grid{CoreRange{{0, 0}, {s.grid_x - 1, s.grid_y - 1}}};
    const uint32_t ncores = s.grid_x * s.grid_y;
    Buffer a = dev.buffer_create(uint64_t(kTiles) * kTileBytes, kTileBytes);
    Buffer c = dev.buffer_create(uint64_t(kTiles) * kTileBytes, kTileBytes);
    dev.buffer_write(a.id, in.data(), in.size() * 2);
    ProgramSpec ps;
    ps.cbs = {{0, DataFormat::Float16_b, kTileBytes, 2, grid, {}, std::nullopt},
              {16, DataFormat::Float16_b, kTileBytes, 2, grid, {}, std::nullopt}};
    KernelSpec reader{}, writer{}, comp{};
    reader.name = "reader", reader.kind = KernelKind::data_movement_1, reader.cores = grid, reader.source = kReader;
    writer.name = "writer", writer.kind = KernelKind::data_movement_0, writer.cores = grid, writer.source = kWriter;
    comp.name = "chain", comp.kind = KernelKind::compute, comp.cores = grid, comp.source = compute_source(chain);
    comp.compute.fp32_dest_acc_en = true;  // the code generator's DST: 32-bit, full sync (8 tiles)
    comp.compute.dst_full_sync_en = true;
    ps.kernels = {reader, writer, comp};
    ProgramId p = dev.program_create(ps);
    for (uint32_t i = 0; i < ncores; ++i) {
        const uint32_t per = kTiles / ncores, extra = kTiles % ncores;
        const uint32_t start = i * per + std::min(i, extra), count = per + (i < extra ? 1 : 0);
        const CoreCoord core{i % s.grid_x, i / s.grid_x};
        dev.program_set_runtime_args(p, 0, core, {a.address, start, count});
        dev.program_set_runtime_args(p, 1, core, {c.address, start, count});
        dev.program_set_runtime_args(p, 2, core, {count});
    }
    dev.program_launch(p);  // warm: first touch of L1, DRAM and fiber stacks
    dev.wait();
    Timing best{1e30, 1e30};
    for (int r = 0; r < reps; ++r) {
        const double c0 = process_cpu_s(), w0 = wall_s();
        dev.program_launch(p);
        dev.wait();
        const double c1 = process_cpu_s(), w1 = wall_s();
        best.cpu_per_tile_ns = std::min(best.cpu_per_tile_ns, (c1 - c0) / kTiles * 1e9);
        best.wall_ms = std::min(best.wall_ms, (w1 - w0) * 1e3);
    }
    out.resize(in.size());
    dev.buffer_read(c.id, out.data(), out.size() * 2);
    return best;
}

// The chain's formula on the host in fp32 (the reference for a spot check of the result).
float gelu_chain_ref(float x) {
    const float z0 = x * 0.75f + 0.25f, z = z0 * 0.70710677f;
    const float t = 1.0f / (std::fabs(z) * 0.3275911f + 1.0f);
    float poly = ((((1.0614054f * t - 1.4531521f) * t + 1.4214138f) * t - 0.28449672f) * t + 0.2548296f) * t;
    const float erf_abs = 1.0f - poly * std::exp(-(z * z));
    const float sign = z > 0 ? 1.0f : z < 0 ? -1.0f : 0.0f;
    return z0 * 0.5f * (sign * erf_abs + 1.0f);
}

}  // namespace

int main() {
    const int reps = std::getenv("ZYX_BENCH_REPS") ? std::max(1, std::atoi(std::getenv("ZYX_BENCH_REPS"))) : 5;
    std::vector<uint16_t> in(size_t(kTiles) * 1024), out_copy, out_chain, out_scalar;
    for (size_t i = 0; i < in.size(); ++i) in[i] = zyx::f32_to_bf16(-4.0f + 8.0f * float(i % 4093) / 4093.0f);
    try {
        const Timing copy = run("", in, out_copy, reps);
        const Timing chain = run(kGeluChain, in, out_chain, reps);
        const Timing scalar = run(kGeluScalarChain, in, out_scalar, reps);
        double max_err = 0;
        for (size_t i = 0; i < in.size(); i += 97) {
            const float want = gelu_chain_ref(zyx::bf16_to_f32(in[i]));
            max_err = std::max(max_err, double(std::fabs(zyx::bf16_to_f32(out_chain[i]) - want)));
        }
        std::printf("SFPU chain, %u bf16 tiles on the whole wormhole-n150 grid, fp32 DST (best of %d launches)\n",
                    kTiles, reps);
        std::printf("  copy only (baseline)      %8.0f ns CPU per tile  %7.2f ms wall\n", copy.cpu_per_tile_ns,
                    copy.wall_ms);
        std::printf("  40 SFPU ops (gelu chain)  %8.0f ns CPU per tile  %7.2f ms wall\n", chain.cpu_per_tile_ns,
                    chain.wall_ms);
        std::printf("  the chain alone           %8.0f ns per tile, %.1f ns per SFPU op\n",
                    chain.cpu_per_tile_ns - copy.cpu_per_tile_ns, (chain.cpu_per_tile_ns - copy.cpu_per_tile_ns) / 40);
        std::printf("  29 SFPU ops (the same with add/mul/rsub_unary_tile) %6.0f ns CPU per tile  %7.2f ms wall\n",
                    scalar.cpu_per_tile_ns, scalar.wall_ms);
        std::printf("  max |result - fp32 host formula| on sampled elements: %.3g (bf16 output); scalar-op chain %s\n",
                    max_err, out_scalar == out_chain ? "gives the same bits" : "DIFFERS");
    } catch (const zyx::Error& e) {
        std::fprintf(stderr, "bench_sfpu_chain: %s\n", e.what());
        return 1;
    }
    return 0;
}
