// FPU (matrix engine) tile ops: eltwise_binary, matmul, reduce, transpose.
// Rules and sources: docs/numerics.md. Every op runs under DenormalsAreZero (the matrix unit
// reads denormals as zero and flushes denormal results).
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"
#include "tile_simd.hpp"

namespace zyx::emu::tile {

using detail::bits_of;
using detail::float_of;

namespace {

// ---- math fidelity (SrcASrcB.md "Fidelity phases") -------------------------------------------
// A multiplier sees SrcA as hi (implicit 1 + top 4 mantissa bits) and lo (the rest), SrcB as hi
// (implicit 1 + top 6 bits) and lo (the rest). Phase 0 = A_hi·B_hi, 1 = A_lo·B_hi,
// 2 = A_hi·B_lo, 3 = A_lo·B_lo. LoFi runs phase 0, HiFi2 phases 0–1, HiFi3 0–2, HiFi4 all.
// The least significant bit of a TF32 mantissa in SrcA is never used.
constexpr uint32_t kSrcAUsedMask = 0xffffc000u;  // drop TF32 mantissa LSB (and anything below)
constexpr uint32_t kSrcAHiMask = 0xfff80000u;    // sign, exponent, top 4 mantissa bits
constexpr uint32_t kSrcBHiMask = 0xfffe0000u;    // sign, exponent, top 6 mantissa bits

inline float srca_used(float x) { return float_of(bits_of(x) & kSrcAUsedMask); }
inline float srca_hi(float x) { return float_of(bits_of(x) & kSrcAHiMask); }
inline float srcb_hi(float x) { return float_of(bits_of(x) & kSrcBHiMask); }

// a is the SrcA operand, b the SrcB operand of a multiplication at fidelity F (a template
// parameter so each loop is branch-free and vectorises).
template <MathFidelity F>
inline float fidelity_mul(float a, float b) {
    a = srca_used(a);
    if constexpr (F == MathFidelity::LoFi) return srca_hi(a) * srcb_hi(b);
    if constexpr (F == MathFidelity::HiFi2) return a * srcb_hi(b);
    if constexpr (F == MathFidelity::HiFi3) return a * srcb_hi(b) + srca_hi(a) * (b - srcb_hi(b));
    return a * b;
}

template <MathFidelity F>
void mul_tile(const float* __restrict a, const float* __restrict b, float* __restrict out) {
    for (uint32_t i = 0; i < kTileElems; ++i) out[i] = fidelity_mul<F>(a[i], b[i]);
}

// ---- matmul kernel ---------------------------------------------------------------------------
// c[32×32] += a[32×32] · b[32×32], all row-major, k in the order 1, 0, 3, 2, … (matmul's
// contract; the portable loop keeps it with std::fma). Register blocking: `Rows` rows of c (2
// vectors of 16 floats each) stay in registers while k runs over 32; each b row is loaded once per k and
// a[i][k] is broadcast. Rows = 12 uses 24 accumulators + 2 b vectors + 1 broadcast of the 32
// AVX-512 registers; the tile is done as 12 + 12 + 8 rows (measured: ~15% faster than 4 × 8).
#if defined(__AVX512F__)
template <uint32_t Rows>
inline void matmul_rows(const float* __restrict a, const float* __restrict b, float* __restrict c) {
    __m512 acc[Rows][2];
#pragma GCC unroll 16
    for (uint32_t i = 0; i < Rows; ++i) {
        acc[i][0] = _mm512_loadu_ps(c + i * kTileDim);
        acc[i][1] = _mm512_loadu_ps(c + i * kTileDim + 16);
    }
#pragma GCC unroll 8
    for (uint32_t step = 0; step < kTileDim; ++step) {
        const uint32_t k = step ^ 1;  // 1, 0, 3, 2, …: the order matmul promises (tile_math.hpp)
        const __m512 b0 = _mm512_loadu_ps(b + k * kTileDim);
        const __m512 b1 = _mm512_loadu_ps(b + k * kTileDim + 16);
#pragma GCC unroll 16
        for (uint32_t i = 0; i < Rows; ++i) {
            const __m512 av = _mm512_set1_ps(a[i * kTileDim + k]);
            acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
        }
    }
#pragma GCC unroll 16
    for (uint32_t i = 0; i < Rows; ++i) {
        _mm512_storeu_ps(c + i * kTileDim, acc[i][0]);
        _mm512_storeu_ps(c + i * kTileDim + 16, acc[i][1]);
    }
}
#endif

void matmul_kernel(const float* __restrict a, const float* __restrict b, float* __restrict c) {
#if defined(__AVX512F__)
    matmul_rows<12>(a, b, c);
    matmul_rows<12>(a + 12 * kTileDim, b, c + 12 * kTileDim);
    matmul_rows<8>(a + 24 * kTileDim, b, c + 24 * kTileDim);
#else
    // Portable form of the same blocking (8 rows at a time); fixed trip counts so the compiler
    // vectorises j. std::fma: one rounding per step, as the AVX-512 path.
    for (uint32_t i0 = 0; i0 < kTileDim; i0 += 8) {
        float acc[8][kTileDim];
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < kTileDim; ++j) acc[i][j] = c[(i0 + i) * kTileDim + j];
        for (uint32_t step = 0; step < kTileDim; ++step)
            for (uint32_t i = 0; i < 8; ++i) {
                const uint32_t k = step ^ 1;  // 1, 0, 3, 2, …
                const float av = a[(i0 + i) * kTileDim + k];
                for (uint32_t j = 0; j < kTileDim; ++j) acc[i][j] = std::fma(av, b[k * kTileDim + j], acc[i][j]);
            }
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < kTileDim; ++j) c[(i0 + i) * kTileDim + j] = acc[i][j];
    }
#endif
}

// out = inᵀ. With AVX-512: each 16×16 quarter is transposed in registers (4 rounds of
// 2-lane interleaves and permutes); otherwise a plain double loop.
void transpose_into(const float* __restrict in, float* __restrict out) {
#if defined(__AVX512F__)
    for (uint32_t br = 0; br < kTileDim; br += 16)
        for (uint32_t bc = 0; bc < kTileDim; bc += 16) {
            __m512 r[16], t[16];
            for (uint32_t i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(in + (br + i) * kTileDim + bc);
            // round 1: interleave 32-bit elements of row pairs
            for (uint32_t i = 0; i < 16; i += 2) {
                t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
                t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
            }
            // round 2: interleave 64-bit pairs of rows i, i+2
            for (uint32_t i = 0; i < 16; i += 4)
                for (uint32_t j = 0; j < 2; ++j) {
                    r[i + j] = _mm512_castpd_ps(
                        _mm512_unpacklo_pd(_mm512_castps_pd(t[i + j]), _mm512_castps_pd(t[i + j + 2])));
                    r[i + j + 2] = _mm512_castpd_ps(
                        _mm512_unpackhi_pd(_mm512_castps_pd(t[i + j]), _mm512_castps_pd(t[i + j + 2])));
                }
            // round 3: 128-bit lanes of rows i, i+4
            for (uint32_t i = 0; i < 16; i += 8)
                for (uint32_t j = 0; j < 4; ++j) {
                    t[i + j] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0x88);
                    t[i + j + 4] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0xdd);
                }
            // round 4: 128-bit lanes of rows i, i+8
            for (uint32_t j = 0; j < 8; ++j) {
                r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
                r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xdd);
            }
            // r[k] now holds a permuted column; store each to its transposed row.
            static constexpr uint32_t kRowOf[16] = {0, 2, 1, 3, 4, 6, 5, 7, 8, 10, 9, 11, 12, 14, 13, 15};
            for (uint32_t k = 0; k < 16; ++k) _mm512_storeu_ps(out + (bc + kRowOf[k]) * kTileDim + br, r[k]);
        }
#else
    for (uint32_t r = 0; r < kTileDim; ++r)
        for (uint32_t c = 0; c < kTileDim; ++c) out[c * kTileDim + r] = in[r * kTileDim + c];
#endif
}

void check_fidelity(const char* fn, MathFidelity f) {
    if (f != MathFidelity::LoFi && f != MathFidelity::HiFi2 && f != MathFidelity::HiFi3 && f != MathFidelity::HiFi4)
        throw Error(ErrorStatus::InvalidArgument,
                    std::string("tile::") + fn + ": math fidelity " + std::to_string(unsigned(f)) +
                        " is not LoFi(0)/HiFi2(2)/HiFi3(3)/HiFi4(4)");
}

}  // namespace

// ---- eltwise ---------------------------------------------------------------------------------

void broadcast(Broadcast bcast, const float* src, float* dst) {
    alignas(64) float t[kTileElems];
    switch (bcast) {
        case Broadcast::None: std::memmove(dst, src, kTileElems * sizeof(float)); return;
        case Broadcast::Row:
            for (uint32_t r = 0; r < kTileDim; ++r)
                for (uint32_t c = 0; c < kTileDim; ++c) t[r * kTileDim + c] = src[c];
            break;
        case Broadcast::Col:
            for (uint32_t r = 0; r < kTileDim; ++r)
                for (uint32_t c = 0; c < kTileDim; ++c) t[r * kTileDim + c] = src[r * kTileDim];
            break;
        case Broadcast::Scalar:
            for (uint32_t i = 0; i < kTileElems; ++i) t[i] = src[0];
            break;
        default:
            throw Error(ErrorStatus::InvalidArgument,
                        "tile::broadcast: unknown broadcast " + std::to_string(unsigned(bcast)));
    }
    std::memcpy(dst, t, sizeof t);
}

void eltwise_binary(EltwiseOp op, Broadcast bcast, const float* a, const float* b, float* dst, bool acc_to_dest,
                    MathFidelity fidelity) {
    check_fidelity("eltwise_binary", fidelity);
    if (op != EltwiseOp::Add && op != EltwiseOp::Sub && op != EltwiseOp::Mul)
        throw Error(ErrorStatus::InvalidArgument, "tile::eltwise_binary: unknown op " + std::to_string(unsigned(op)));
    detail::DenormalsAreZero daz;

    // The B operand as the FPU sees it after broadcast (ELWADD.md: SrcB row / column 0 broadcast).
    alignas(64) float bb[kTileElems];
    const float* bp = b;
    switch (bcast) {
        case Broadcast::None: break;
        case Broadcast::Row:
            for (uint32_t r = 0; r < kTileDim; ++r)
                for (uint32_t c = 0; c < kTileDim; ++c) bb[r * kTileDim + c] = b[c];
            bp = bb;
            break;
        case Broadcast::Col:
            for (uint32_t r = 0; r < kTileDim; ++r)
                for (uint32_t c = 0; c < kTileDim; ++c) bb[r * kTileDim + c] = b[r * kTileDim];
            bp = bb;
            break;
        case Broadcast::Scalar:
            for (uint32_t i = 0; i < kTileElems; ++i) bb[i] = b[0];
            bp = bb;
            break;
        default:
            throw Error(ErrorStatus::InvalidArgument,
                        "tile::eltwise_binary: unknown broadcast " + std::to_string(unsigned(bcast)));
    }

    // add/sub ignore fidelity; mul uses it (docs/numerics.md §5). Result then optionally += Dst.
    // Without accumulation the result goes straight into dst (unless dst is an operand: the
    // loops below promise the compiler their pointers do not overlap).
    alignas(64) float tmp[kTileElems];
    const bool direct = !acc_to_dest && dst != a && dst != bp;
    float* res = direct ? dst : tmp;
    switch (op) {
        case EltwiseOp::Add:
            for (uint32_t i = 0; i < kTileElems; ++i) res[i] = a[i] + bp[i];
            break;
        case EltwiseOp::Sub:
            for (uint32_t i = 0; i < kTileElems; ++i) res[i] = a[i] - bp[i];
            break;
        case EltwiseOp::Mul:
            switch (fidelity) {
                case MathFidelity::LoFi: mul_tile<MathFidelity::LoFi>(a, bp, res); break;
                case MathFidelity::HiFi2: mul_tile<MathFidelity::HiFi2>(a, bp, res); break;
                case MathFidelity::HiFi3: mul_tile<MathFidelity::HiFi3>(a, bp, res); break;
                case MathFidelity::HiFi4: mul_tile<MathFidelity::HiFi4>(a, bp, res); break;
            }
            break;
    }
    if (acc_to_dest) {
        for (uint32_t i = 0; i < kTileElems; ++i) dst[i] += res[i];
    } else if (!direct) {
        std::memcpy(dst, res, sizeof(tmp));
    }
}

// ---- matmul ----------------------------------------------------------------------------------

void matmul(const float* a, const float* b, float* dst, bool transpose_b, MathFidelity fidelity) {
    check_fidelity("matmul", fidelity);
    detail::DenormalsAreZero daz;
    // matmul_tiles: in0 (a) goes to SrcB, in1 (b) to SrcA (docs/numerics.md §5, matmul).
    alignas(64) float bt[kTileElems];
    const float* bp = b;
    if (transpose_b) {
        transpose_into(b, bt);
        bp = bt;
    }
    // TF32 data in SrcA loses its mantissa LSB; bf16 data has none, so the common case skips it.
    uint32_t b_bits = 0;
    for (uint32_t i = 0; i < kTileElems; ++i) b_bits |= bits_of(bp[i]);
    if ((b_bits & ~kSrcAUsedMask) != 0) {
        for (uint32_t i = 0; i < kTileElems; ++i) bt[i] = srca_used(bp[i]);
        bp = bt;
    }
    if (fidelity == MathFidelity::HiFi4) {
        matmul_kernel(a, bp, dst);
        return;
    }
    // Lower fidelities as sums of exact partial products (see fidelity_mul):
    //   LoFi  = a_hi·b_hi        HiFi2 = a_hi·b        HiFi3 = a_hi·b + a_lo·b_hi
    // where a (SrcB) splits at 6 mantissa bits and b (SrcA) at 4.
    alignas(64) float a_hi[kTileElems];
    alignas(64) float b_part[kTileElems];
    for (uint32_t i = 0; i < kTileElems; ++i) a_hi[i] = srcb_hi(a[i]);
    switch (fidelity) {
        case MathFidelity::LoFi:
            for (uint32_t i = 0; i < kTileElems; ++i) b_part[i] = srca_hi(bp[i]);
            matmul_kernel(a_hi, b_part, dst);
            break;
        case MathFidelity::HiFi2: matmul_kernel(a_hi, bp, dst); break;
        default: {  // HiFi3
            alignas(64) float a_lo[kTileElems];
            for (uint32_t i = 0; i < kTileElems; ++i) a_lo[i] = a[i] - a_hi[i];
            for (uint32_t i = 0; i < kTileElems; ++i) b_part[i] = srca_hi(bp[i]);
            alignas(64) float sum[kTileElems] = {};
            matmul_kernel(a_hi, bp, sum);
            matmul_kernel(a_lo, b_part, sum);
            for (uint32_t i = 0; i < kTileElems; ++i) dst[i] += sum[i];
            break;
        }
    }
}

// ---- matmul of Float16_b tiles straight from L1 -----------------------------------------------
// VDPBF16PS (AVX512-BF16) works on 32-bit lanes that each hold two bf16, the even element in the
// low half: lane j of acc += x.odd · y.odd, then += x.even · y.even, each step a fused
// multiply-add with DAZ and FTZ (Intel SDM, VDPBF16PS pseudo-code; the probe checks this host).
// With x = (a[i][k], a[i][k+1]) broadcast and y = (b[k][j], b[k+1][j]) that is matmul's order
// 1, 0, 3, 2, …, so both paths give the same bits.

void pack_matmul_in0_bf16(const void* l1, uint32_t* out) {
    const auto* t = static_cast<const uint16_t*>(l1);
    for (uint32_t r = 0; r < kTileDim; ++r) {  // row r = its left face row, then its right one
        std::memcpy(out + r * 16, t + face_index(r, 0), 32);
        std::memcpy(out + r * 16 + 8, t + face_index(r, 16), 32);
    }
}

void pack_matmul_in1_bf16(const void* l1, bool transpose_b, uint32_t* __restrict out) {
    const auto* t = static_cast<const uint16_t*>(l1);
    if (transpose_b) {  // (bᵀ[2p][j], bᵀ[2p+1][j]) = (b[j][2p], b[j][2p+1]): one word of b's row j
        for (uint32_t j = 0; j < kTileDim; ++j)
            for (uint32_t p = 0; p < 16; ++p) std::memcpy(out + p * 32 + j, t + face_index(j, 2 * p), 4);
        return;
    }
    for (uint32_t p = 0; p < 16; ++p)  // rows 2p and 2p+1 interleaved, 16 columns (one face) at a time
        for (uint32_t h = 0; h < 2; ++h) {
            const uint16_t* __restrict even = t + face_index(2 * p, 16 * h);
            const uint16_t* __restrict odd = t + face_index(2 * p + 1, 16 * h);
            uint32_t* __restrict o = out + p * 32 + 16 * h;
            for (uint32_t j = 0; j < 16; ++j) o[j] = uint32_t(even[j]) | uint32_t(odd[j]) << 16;
        }
}

namespace {

#if defined(__AVX512F__) && defined(__AVX512BF16__)
// c[Rows×32] += a · b on packed pairs (register blocking as matmul_rows: 2 accumulators a row).
template <uint32_t Rows>
inline void dot_rows(const uint32_t* __restrict a, const uint32_t* __restrict b, float* __restrict c) {
    __m512 acc[Rows][2];
#pragma GCC unroll 16
    for (uint32_t i = 0; i < Rows; ++i) {
        acc[i][0] = _mm512_loadu_ps(c + i * kTileDim);
        acc[i][1] = _mm512_loadu_ps(c + i * kTileDim + 16);
    }
#pragma GCC unroll 4
    for (uint32_t p = 0; p < 16; ++p) {
        const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b + p * 32);
        const __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + p * 32 + 16);
#pragma GCC unroll 16
        for (uint32_t i = 0; i < Rows; ++i) {
            const __m512bh av = (__m512bh)_mm512_set1_epi32(int32_t(a[i * 16 + p]));
            acc[i][0] = _mm512_dpbf16_ps(acc[i][0], av, b0);
            acc[i][1] = _mm512_dpbf16_ps(acc[i][1], av, b1);
        }
    }
#pragma GCC unroll 16
    for (uint32_t i = 0; i < Rows; ++i) {
        _mm512_storeu_ps(c + i * kTileDim, acc[i][0]);
        _mm512_storeu_ps(c + i * kTileDim + 16, acc[i][1]);
    }
}

// Runs VDPBF16PS on 256 vectors of fixed pseudo-random cases (cancelling sums, the whole
// exponent range, underflowing products, denormal inputs and accumulators) and compares each
// lane with the two fused multiply-adds matmul promises.
bool probe_dot_product() {
    detail::DenormalsAreZero daz;
    volatile uint32_t seed = 0x2545f491u;  // volatile: the probe must run, not fold
    uint32_t state = seed;
    auto next = [&state] { return state = state * 1664525u + 1013904223u, state >> 8; };
    auto bf = [](uint16_t h) { return detail::float_of(uint32_t(h) << 16); };
    for (uint32_t v = 0; v < 256; ++v) {
        const uint32_t mode = v % 4;
        alignas(64) uint16_t x[32], y[32];
        alignas(64) float acc[16], out[16];
        for (uint32_t i = 0; i < 32; ++i) {
            uint32_t ex = mode == 0 ? 120 + next() % 16
                : mode == 1         ? 1 + next() % 254
                : mode == 2         ? next() % 12
                                    : 100 + next() % 56;
            if (mode == 2 && ex > 0) ex += 55;  // products near and below 2^-126
            const uint32_t sx = next() & 1, mx = next() % 128;
            x[i] = uint16_t(sx << 15 | ex << 7 | mx);
            const uint32_t ey = mode == 2 ? 55 + next() % 12 : 120 + next() % 16, sy = next() & 1, my = next() % 128;
            y[i] = uint16_t(sy << 15 | ey << 7 | my);
        }
        for (uint32_t j = 0; j < 16; ++j) {
            const uint32_t ea = mode == 2 ? next() % 24 : 112 + next() % 32;  // ea 0: a denormal
            const uint32_t sa = next() & 1, ma = next() & 0x7fffffu;
            acc[j] = detail::float_of(sa << 31 | ea << 23 | ma);
        }
        __m512bh xv, yv;
        std::memcpy(&xv, x, 64);
        std::memcpy(&yv, y, 64);
        _mm512_store_ps(out, _mm512_dpbf16_ps(_mm512_load_ps(acc), xv, yv));
        for (uint32_t j = 0; j < 16; ++j) {
            float ref = std::fma(bf(x[2 * j + 1]), bf(y[2 * j + 1]), acc[j]);
            ref = std::fma(bf(x[2 * j]), bf(y[2 * j]), ref);
            if (bits_of(ref) != bits_of(out[j])) return false;
        }
    }
    return true;
}
#endif

}  // namespace

bool matmul_bf16_uses_dot_product() {
#if defined(__AVX512F__) && defined(__AVX512BF16__)
    static const bool ok = probe_dot_product();
    return ok;
#else
    return false;
#endif
}

void matmul_packed_bf16(const uint32_t* a, const uint32_t* b, float* dst) {
#if defined(__AVX512F__) && defined(__AVX512BF16__)
    if (matmul_bf16_uses_dot_product()) {
        dot_rows<12>(a, b, dst);
        dot_rows<12>(a + 12 * 16, b, dst + 12 * kTileDim);
        dot_rows<8>(a + 24 * 16, b, dst + 24 * kTileDim);
        return;
    }
#endif
    // The pairs widened back to fp32 rows: the same products and order through matmul_kernel.
    alignas(64) float af[kTileElems], bf[kTileElems];
    for (uint32_t i = 0; i < kTileElems / 2; ++i) {
        af[2 * i] = float_of(a[i] << 16), af[2 * i + 1] = float_of(a[i] & 0xffff0000u);
        const uint32_t p = i / 32, j = i % 32;
        bf[2 * p * kTileDim + j] = float_of(b[i] << 16), bf[(2 * p + 1) * kTileDim + j] = float_of(b[i] & 0xffff0000u);
    }
    detail::DenormalsAreZero daz;
    matmul_kernel(af, bf, dst);
}

void matmul_bf16(const void* a_l1, const void* b_l1, float* dst, bool transpose_b, MathFidelity fidelity) {
    if (fidelity == MathFidelity::HiFi4) {  // lower fidelities truncate mantissas first: matmul does
        alignas(64) uint32_t a[512], b[512];
        pack_matmul_in0_bf16(a_l1, a);
        pack_matmul_in1_bf16(b_l1, transpose_b, b);
        matmul_packed_bf16(a, b, dst);
        return;
    }
    alignas(64) float a[kTileElems], b[kTileElems];
    unpack_tile(DataFormat::Float16_b, a_l1, a);
    unpack_tile(DataFormat::Float16_b, b_l1, b);
    matmul(a, b, dst, transpose_b, fidelity);
}

// ---- reduce ----------------------------------------------------------------------------------

namespace {

// GMPOOL scales by the scaler's exponent only: 2^floor(log2|s|), or excludes the datum (−inf)
// when the exponent field is 0.
inline float max_scale(float s) {
    uint32_t e = bits_of(s) & 0x7f800000u;
    return e == 0 ? 0.0f : float_of(e);
}
inline float max_scaled(float x, float scale_pow2) {
    return scale_pow2 == 0.0f ? -std::numeric_limits<float>::infinity() : x * scale_pow2;
}

}  // namespace

void reduce(PoolType pool, ReduceDim dim, const float* in, const float* scaler, float* dst) {
    reduce(pool, dim, in, scaler, dst, false);
}

void reduce(PoolType pool, ReduceDim dim, const float* in, const float* scaler, float* dst, bool dst_cleared) {
    if (pool == PoolType::Min)
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: tile::reduce: PoolType::Min (the FPU reduce models Sum, Avg, Max)");
    if (pool != PoolType::Sum && pool != PoolType::Avg && pool != PoolType::Max)
        throw Error(ErrorStatus::InvalidArgument, "tile::reduce: unknown pool type " + std::to_string(unsigned(pool)));
    if (dim != ReduceDim::Row && dim != ReduceDim::Col && dim != ReduceDim::Scalar)
        throw Error(ErrorStatus::InvalidArgument, "tile::reduce: unknown reduce dim " + std::to_string(unsigned(dim)));
    detail::DenormalsAreZero daz;
    const float* scale = scaler;  // row 0 of the scaler tile: scale[k] for position k
    const float ninf = -std::numeric_limits<float>::infinity();

    if (pool == PoolType::Max) {
        float sp[kTileDim];
        for (uint32_t k = 0; k < kTileDim; ++k) sp[k] = max_scale(scale[k]);
        auto combine = [&](uint32_t idx, float m) {
            float prev = dst_cleared ? ninf : dst[idx];
            dst[idx] = m > prev ? m : prev;
        };
        switch (dim) {
            case ReduceDim::Row:  // along W: result in column 0
                for (uint32_t r = 0; r < kTileDim; ++r) {
                    float m = ninf;
                    for (uint32_t c = 0; c < kTileDim; ++c) {
                        float v = max_scaled(in[r * kTileDim + c], sp[c]);
                        m = v > m ? v : m;
                    }
                    combine(r * kTileDim, m);
                }
                break;
            case ReduceDim::Col:  // along H: result in row 0
                for (uint32_t c = 0; c < kTileDim; ++c) {
                    float m = ninf;
                    for (uint32_t r = 0; r < kTileDim; ++r) {
                        float v = max_scaled(in[r * kTileDim + c], sp[r]);
                        m = v > m ? v : m;
                    }
                    combine(c, m);
                }
                break;
            case ReduceDim::Scalar: {  // rows then columns: the scale applies twice
                float m = ninf;
                for (uint32_t r = 0; r < kTileDim; ++r) {
                    float mr = ninf;
                    for (uint32_t c = 0; c < kTileDim; ++c) {
                        float v = max_scaled(in[r * kTileDim + c], sp[c]);
                        mr = v > mr ? v : mr;
                    }
                    mr = max_scaled(mr, sp[r]);
                    m = mr > m ? mr : m;
                }
                combine(0, m);
                break;
            }
        }
        return;
    }

    // Sum and Avg (Avg's 1/N lives in the scaler): exact products and sums in double, rounded
    // once to fp32, then added to the fp32 Dst value.
    switch (dim) {
        case ReduceDim::Row:
            for (uint32_t r = 0; r < kTileDim; ++r) {
                double s = 0;
                for (uint32_t c = 0; c < kTileDim; ++c) s += double(in[r * kTileDim + c]) * double(scale[c]);
                dst[r * kTileDim] += float(s);
            }
            break;
        case ReduceDim::Col:
            for (uint32_t c = 0; c < kTileDim; ++c) {
                double s = 0;
                for (uint32_t r = 0; r < kTileDim; ++r) s += double(in[r * kTileDim + c]) * double(scale[r]);
                dst[c] += float(s);
            }
            break;
        case ReduceDim::Scalar: {  // rows then columns: the scale applies twice (AVG uses 1/√N)
            double s = 0;
            for (uint32_t r = 0; r < kTileDim; ++r) {
                double sr = 0;
                for (uint32_t c = 0; c < kTileDim; ++c) sr += double(in[r * kTileDim + c]) * double(scale[c]);
                s += sr * double(scale[r]);
            }
            dst[0] += float(s);
            break;
        }
    }
}

// ---- transpose -------------------------------------------------------------------------------

void transpose(const float* in, float* dst) {
    alignas(64) float tmp[kTileElems];
    transpose_into(in, tmp);  // via a copy: in and dst may be the same tile
    std::memcpy(dst, tmp, sizeof(tmp));
}

void transpose_dest(float* t, bool dest32, bool is_32bit) {
    if (!dest32 && is_32bit)
        throw Error(
            ErrorStatus::Unsupported,
            "Unsupported: transpose_wh_dest<is_32bit = true> on a 16-bit DST (fp32_dest_acc_en off) is not modelled");
    alignas(64) float tmp[kTileElems];
    transpose_into(t, tmp);
    if (dest32 && is_32bit) {  // both 16-bit halves move, the zero flag is off: bit exact
        std::memcpy(t, tmp, sizeof(tmp));
        return;
    }
    // One 16-bit move per datum, with the zero flag: a half whose exponent field is 0 keeps only
    // its sign. A 16-bit DST holds the whole datum in that half; a 32-bit DST moves its high half
    // and leaves the low half in place.
    for (uint32_t i = 0; i < kTileElems; ++i) {
        uint32_t moved = detail::bits_of(tmp[i]);
        if ((moved & 0x7f800000u) == 0) moved &= 0x80000000u;
        if (dest32) moved = (moved & 0xffff0000u) | (detail::bits_of(t[i]) & 0x0000ffffu);
        tmp[i] = detail::float_of(moved);
    }
    std::memcpy(t, tmp, sizeof(tmp));
}

}  // namespace zyx::emu::tile
