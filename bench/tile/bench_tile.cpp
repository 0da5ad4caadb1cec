// bench_tile: speed of the emulator's tile math against baselines measured in the same run.
//
//   1. tile::matmul on one 32×32×32 tile (dst += a·b), and the Float16_b packed path,
//      vs cblas_sgemm 32×32×32
//   2. emulated bf16 matmul 1024×1024×1024 as matmul_tiles runs it: for every output tile and
//      every k, tile::matmul_bf16 on the Float16_b tiles (pack both, multiply; 32768 calls), then
//      pack each output tile to Float16_b                      vs cblas_sgemm 1024³ in fp32
//   3. unpack_tile / pack_tile ns per tile for each format   vs memcpy of the same bytes
//   4. the other per-tile ops (FPU eltwise, DST rounding, SFPU unary / binary / scalar ops, fill,
//      where, copy) in ns per tile
//
// Everything is single-threaded (openblas_set_num_threads(1)); memory is touched before timing.
// Goals (issue 2, brief): 1. ≥ 0.6× sgemm; 2. ≥ 0.3× sgemm; unpack Float16_b ≪ 100 ns.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "tile_math.hpp"

extern "C" void openblas_set_num_threads(int);

namespace tile = zyx::emu::tile;
using zyx::emu::DataFormat;
using zyx::emu::MathFidelity;

namespace {

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Best of `reps` timings of fn() repeated `inner` times; returns seconds per call.
template <class Fn>
double time_per_call(Fn fn, int inner, int reps) {
    double best = 1e30;
    for (int r = 0; r < reps; ++r) {
        double t0 = now_s();
        for (int i = 0; i < inner; ++i) fn();
        best = std::min(best, (now_s() - t0) / inner);
    }
    return best;
}

volatile float g_sink;  // keeps results alive

struct alignas(64) Tile {
    float v[1024];
};

}  // namespace

int main() {
    openblas_set_num_threads(1);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);

    // ---- 1. one tile ----
    Tile a, b, c;
    for (int i = 0; i < 1024; ++i) a.v[i] = dist(rng), b.v[i] = dist(rng), c.v[i] = 0;
    const double flops_tile = 2.0 * 32 * 32 * 32;
    double t_tile = time_per_call([&] { tile::matmul(a.v, b.v, c.v, false, MathFidelity::HiFi4); }, 20000, 7);
    g_sink = c.v[0];
    double t_tile_tb = time_per_call([&] { tile::matmul(a.v, b.v, c.v, true, MathFidelity::HiFi4); }, 20000, 5);
    double t_tile_lofi = time_per_call([&] { tile::matmul(a.v, b.v, c.v, false, MathFidelity::LoFi); }, 20000, 5);
    // The Float16_b path the emulator's matmul takes: operands packed once, then the product.
    alignas(64) uint16_t la[1024], lb[1024];
    alignas(64) uint32_t pa[512], pb[512];
    tile::pack_tile(DataFormat::Float16_b, a.v, la);
    tile::pack_tile(DataFormat::Float16_b, b.v, lb);
    tile::pack_matmul_in0_bf16(la, pa);
    tile::pack_matmul_in1_bf16(lb, false, pb);
    double t_packed = time_per_call([&] { tile::matmul_packed_bf16(pa, pb, c.v); }, 20000, 7);
    double t_bf16_l1 =
        time_per_call([&] { tile::matmul_bf16(la, lb, c.v, false, MathFidelity::HiFi4); }, 20000, 5);
    double t_blas_tile = time_per_call(
        [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 32, 32, 32, 1.0f, a.v, 32, b.v, 32, 1.0f, c.v, 32);
        },
        20000, 7);
    g_sink = c.v[0];
    std::printf("matmul 32x32x32 (one tile, dst += a*b)\n");
    std::printf("  tile::matmul HiFi4          %8.1f ns  %6.1f GFLOP/s\n", t_tile * 1e9, flops_tile / t_tile * 1e-9);
    std::printf("  tile::matmul HiFi4 b^T      %8.1f ns  %6.1f GFLOP/s\n", t_tile_tb * 1e9,
                flops_tile / t_tile_tb * 1e-9);
    std::printf("  tile::matmul LoFi           %8.1f ns  %6.1f GFLOP/s\n", t_tile_lofi * 1e9,
                flops_tile / t_tile_lofi * 1e-9);
    std::printf("  tile::matmul_packed_bf16    %8.1f ns  %6.1f GFLOP/s  (VDPBF16PS: %s)\n", t_packed * 1e9,
                flops_tile / t_packed * 1e-9, tile::matmul_bf16_uses_dot_product() ? "yes" : "no");
    std::printf("  tile::matmul_bf16 (packing) %8.1f ns  %6.1f GFLOP/s\n", t_bf16_l1 * 1e9,
                flops_tile / t_bf16_l1 * 1e-9);
    std::printf("  cblas_sgemm 32^3            %8.1f ns  %6.1f GFLOP/s\n", t_blas_tile * 1e9,
                flops_tile / t_blas_tile * 1e-9);

    // ---- 2. 1024^3 ----
    const int n = 1024, nt = n / 32;
    std::vector<float> A(size_t(n) * n), B(size_t(n) * n), C(size_t(n) * n);
    for (auto& x : A) x = dist(rng);
    for (auto& x : B) x = dist(rng);
    // Tiled bf16 copies in L1 face order, as a reader kernel would leave them in a CB.
    std::vector<uint16_t> At(size_t(n) * n), Bt(size_t(n) * n), Ct(size_t(n) * n);
    auto tilize_bf16 = [&](const std::vector<float>& m, std::vector<uint16_t>& out) {
        Tile t;
        for (int ti = 0; ti < nt; ++ti)
            for (int tj = 0; tj < nt; ++tj) {
                for (int r = 0; r < 32; ++r)
                    for (int cc = 0; cc < 32; ++cc) t.v[r * 32 + cc] = m[size_t(ti * 32 + r) * n + tj * 32 + cc];
                tile::pack_tile(DataFormat::Float16_b, t.v, &out[size_t(ti * nt + tj) * 1024]);
            }
    };
    tilize_bf16(A, At);
    tilize_bf16(B, Bt);
    auto emulated = [&] {
        Tile dst;
        for (int ti = 0; ti < nt; ++ti)
            for (int tj = 0; tj < nt; ++tj) {
                std::memset(dst.v, 0, sizeof(dst.v));  // tile_regs_release zeroes DST
                for (int tk = 0; tk < nt; ++tk)
                    tile::matmul_bf16(&At[size_t(ti * nt + tk) * 1024], &Bt[size_t(tk * nt + tj) * 1024], dst.v, false,
                                      MathFidelity::HiFi4);
                tile::pack_tile(DataFormat::Float16_b, dst.v, &Ct[size_t(ti * nt + tj) * 1024]);
            }
    };
    auto blas = [&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, C.data(),
                    n);
    };
    const double flops_big = 2.0 * n * n * n;
    double t_emu = time_per_call(emulated, 1, 3);
    double t_blas = time_per_call(blas, 1, 3);
    // Spot-check the emulated result against sgemm (bf16 inputs: loose tolerance).
    double max_err = 0;
    for (int k = 0; k < 64; ++k) {
        int r = (k * 97) % n, cc = (k * 389) % n;
        int ti = r / 32, tj = cc / 32, rr = r % 32, c2 = cc % 32;
        uint16_t h = Ct[size_t(ti * nt + tj) * 1024 + tile::face_index(rr, c2)];
        float v;
        uint32_t u = uint32_t(h) << 16;
        std::memcpy(&v, &u, 4);
        max_err = std::max(max_err, double(std::fabs(v - C[size_t(r) * n + cc])));
    }
    std::printf("matmul 1024x1024x1024 (single thread)\n");
    std::printf("  emulated bf16 (matmul_bf16+pack)   %7.3f s  %6.1f GFLOP/s\n", t_emu, flops_big / t_emu * 1e-9);
    std::printf("  cblas_sgemm fp32                   %7.3f s  %6.1f GFLOP/s\n", t_blas, flops_big / t_blas * 1e-9);
    std::printf("  max |emulated - sgemm| on 64 samples: %.3g\n", max_err);

    // ---- 3. unpack / pack ----
    std::printf("unpack_tile / pack_tile per tile (memcpy of the L1 bytes as baseline)\n");
    struct Fmt {
        DataFormat f;
        const char* name;
        uint32_t bytes;
    };
    const Fmt fmts[] = {{DataFormat::Float16_b, "Float16_b", 2048}, {DataFormat::Float16, "Float16", 2048},
                        {DataFormat::Float32, "Float32", 4096},     {DataFormat::Bfp8_b, "Bfp8_b", 1088},
                        {DataFormat::Int32, "Int32", 4096},         {DataFormat::UInt16, "UInt16", 2048},
                        {DataFormat::UInt8, "UInt8", 1024}};
    alignas(64) static uint8_t l1[4096], l1b[4096];
    Tile src, out;
    for (int i = 0; i < 1024; ++i) src.v[i] = dist(rng);
    double t_copy_tile = time_per_call(
        [&] {
            std::memcpy(out.v, src.v, 4096);
            g_sink = out.v[5];
        },
        200000, 5);
    for (const Fmt& f : fmts) {
        tile::pack_tile(f.f, src.v, l1);
        double tu = time_per_call(
            [&] {
                tile::unpack_tile(f.f, l1, out.v);
                g_sink = out.v[7];
            },
            100000, 5);
        double tp = time_per_call(
            [&] {
                tile::pack_tile(f.f, src.v, l1);
                g_sink = float(l1[9]);
            },
            100000, 5);
        double tm = time_per_call(
            [&] {
                std::memcpy(l1b, l1, f.bytes);
                g_sink = float(l1b[3]);
            },
            200000, 5);
        std::printf("  %-10s unpack %7.1f ns  pack %7.1f ns  (memcpy %5.1f ns of %u B)\n", f.name, tu * 1e9, tp * 1e9,
                    tm * 1e9, f.bytes);
    }
    std::printf("  (memcpy of a 4096 B fp32 tile: %.1f ns)\n", t_copy_tile * 1e9);

    // ---- 4. the other per-tile ops the emulator calls often ----
    std::printf("other ops per tile (memcpy of a 4096 B fp32 tile: %.1f ns)\n", t_copy_tile * 1e9);
    Tile d2;
    for (int i = 0; i < 1024; ++i) d2.v[i] = dist(rng);
    auto report = [&](const char* name, auto fn) {
        double t = time_per_call(fn, 50000, 5);
        std::printf("  %-36s %8.1f ns\n", name, t * 1e9);
    };
    report("eltwise_binary add", [&] {
        tile::eltwise_binary(tile::EltwiseOp::Add, tile::Broadcast::None, a.v, b.v, d2.v, false, MathFidelity::HiFi4);
        g_sink = d2.v[3];
    });
    report("eltwise_binary mul HiFi4", [&] {
        tile::eltwise_binary(tile::EltwiseOp::Mul, tile::Broadcast::None, a.v, b.v, d2.v, false, MathFidelity::HiFi4);
        g_sink = d2.v[3];
    });
    report("eltwise_binary mul LoFi", [&] {
        tile::eltwise_binary(tile::EltwiseOp::Mul, tile::Broadcast::None, a.v, b.v, d2.v, false, MathFidelity::LoFi);
        g_sink = d2.v[3];
    });
    report("eltwise_binary add bcast row, acc", [&] {
        tile::eltwise_binary(tile::EltwiseOp::Add, tile::Broadcast::Row, a.v, b.v, d2.v, true, MathFidelity::HiFi4);
        g_sink = d2.v[3];
    });
    report("dest16_round Float16_b nearest-even", [&] {
        std::memcpy(d2.v, a.v, 4096);
        tile::dest16_round(DataFormat::Float16_b, d2.v, zyx::Rounding::NearestEven);
        g_sink = d2.v[3];
    });
    report("dest16_round Float16 nearest-even", [&] {
        std::memcpy(d2.v, a.v, 4096);
        tile::dest16_round(DataFormat::Float16, d2.v, zyx::Rounding::NearestEven);
        g_sink = d2.v[3];
    });
    report("  (memcpy alone, subtract it above)", [&] {
        std::memcpy(d2.v, a.v, 4096);
        g_sink = d2.v[3];
    });
    report("transpose", [&] {
        tile::transpose(a.v, d2.v);
        g_sink = d2.v[3];
    });
    report("reduce sum row", [&] {
        tile::reduce(tile::PoolType::Sum, tile::ReduceDim::Row, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    // SFPU ops work in place: each call starts from a fresh copy of `a` (inputs in [-1, 1)), and
    // the copy's time, measured in the same run, is subtracted.
    const double t_refresh = time_per_call(
        [&] {
            std::memcpy(d2.v, a.v, 4096);
            g_sink = d2.v[3];
        },
        50000, 5);
    Tile pos;  // in [0.5, 1.5): log of a negative input takes libmvec's slow path (NaN), ~8x
    for (int i = 0; i < 1024; ++i) pos.v[i] = std::fabs(a.v[i]) + 0.5f;
    auto report_unary = [&](const char* name, tile::SfpuUnary op, uint32_t param, bool approx,
                            const Tile* src = nullptr) {
        const float* from = src ? src->v : a.v;
        double t = time_per_call(
            [&] {
                std::memcpy(d2.v, from, 4096);
                tile::sfpu_unary(op, d2.v, param, approx);
                g_sink = d2.v[3];
            },
            20000, 5);
        std::printf("  %-36s %8.1f ns\n", name, (t - t_refresh) * 1e9);
    };
    const uint32_t half = 0x3f000000u;  // 0.5f
    report_unary("sfpu_unary relu", tile::SfpuUnary::Relu, 0, false);
    report_unary("sfpu_unary negative", tile::SfpuUnary::Negative, 0, false);
    report_unary("sfpu_unary recip", tile::SfpuUnary::Recip, 0, false);
    report_unary("sfpu_unary sign", tile::SfpuUnary::Sign, 0, false);
    report_unary("sfpu_unary exp", tile::SfpuUnary::Exp, 0, false);
    report_unary("sfpu_unary log (x > 0)", tile::SfpuUnary::Log, 0, false, &pos);
    report_unary("sfpu_unary sin", tile::SfpuUnary::Sin, 0, false);
    report_unary("sfpu_unary tanh", tile::SfpuUnary::Tanh, 0, false);
    report_unary("sfpu_unary erf", tile::SfpuUnary::Erf, 0, false);
    report_unary("sfpu_unary sigmoid", tile::SfpuUnary::Sigmoid, 0, false);
    report_unary("sfpu_unary gelu", tile::SfpuUnary::Gelu, 0, false);
    report_unary("sfpu_unary gelu approx", tile::SfpuUnary::Gelu, 0, true);
    report_unary("sfpu_unary add_scalar (add_unary)", tile::SfpuUnary::AddScalar, half, false);
    report_unary("sfpu_unary mul_scalar (mul_unary)", tile::SfpuUnary::MulScalar, half, false);
    report("sfpu_binary add", [&] {
        tile::sfpu_binary(tile::SfpuBinary::Add, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    report("sfpu_binary mul", [&] {
        tile::sfpu_binary(tile::SfpuBinary::Mul, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    report("sfpu_binary div", [&] {
        tile::sfpu_binary(tile::SfpuBinary::Div, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    report("sfpu_binary max", [&] {
        tile::sfpu_binary(tile::SfpuBinary::Max, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    report("sfpu_binary power", [&] {
        tile::sfpu_binary(tile::SfpuBinary::Power, a.v, b.v, d2.v);
        g_sink = d2.v[3];
    });
    report("fill", [&] {
        tile::fill(d2.v, 0.5f);
        g_sink = d2.v[3];
    });
    report("where", [&] {
        tile::where(a.v, b.v, c.v, d2.v);
        g_sink = d2.v[3];
    });
    report("copy (copy_dest_values)", [&] {
        tile::copy(a.v, d2.v);
        g_sink = d2.v[3];
    });

    std::printf("ratios\n");
    std::printf("  tile::matmul / sgemm 32^3 GFLOP/s          %.2f\n", t_blas_tile / t_tile);
    std::printf("  emulated 1024^3 / sgemm 1024^3 throughput  %.2f  (goal >= 0.30)\n", t_blas / t_emu);
    return 0;
}
