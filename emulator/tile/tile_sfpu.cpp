// SFPU (vector engine) tile ops: sfpu_unary, sfpu_binary, where. DST → DST, in fp32.
// Definitions follow tt-metal's compute API (ckernel_sfpu_*.h); docs/numerics.md lists each.
// Denormal inputs are read as zero and denormal results written as zero (the SFPU treats fp32
// denormals as zero, FloatBitPatterns.md). The APPROX variants compute at full accuracy except
// Gelu, whose approximate form is the tanh formula.
//
// Speed: every op is a loop over the tile that the compiler vectorises. The transcendental
// functions are glibc's libmvec vector variants (declared below: `omp simd` loops calling them
// become calls of _ZGVeN16v_expf and friends, or the AVX2 / SSE variants without AVX-512), so
// their results are libmvec's, within its documented 4 ulp (the measured maxima are in
// docs/numerics.md §6); erf is ours (erf_tile: piecewise polynomials in double, within 0.5013
// ulp). Ops made of IEEE arithmetic, comparisons and selects read denormal
// inputs as zero through the host's MXCSR DAZ flag instead of flushing them in code (the same
// values), and flush their results explicitly (or by FTZ where that is provably the same: sums
// and differences). + − × ÷, sqrt and the comparisons stay exact.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"
#include "tile_simd.hpp"

// libmvec: glibc's vector variants of these (libm.so's linker script pulls in libmvec.so.1)
// exist for SSE, AVX, AVX2 and AVX-512. Declaring them `simd` lets GCC call them from the
// `omp simd` loops below (-fopenmp-simd, -fno-math-errno: emulator/tile/CMakeLists.txt); glibc
// declares them so only under -ffast-math.
#define ZYX_TILE_SIMD __attribute__((simd("notinbranch")))
extern "C" {
ZYX_TILE_SIMD float expf(float) noexcept;
ZYX_TILE_SIMD float exp2f(float) noexcept;
ZYX_TILE_SIMD float expm1f(float) noexcept;
ZYX_TILE_SIMD float logf(float) noexcept;
ZYX_TILE_SIMD float log1pf(float) noexcept;
ZYX_TILE_SIMD float sinf(float) noexcept;
ZYX_TILE_SIMD float cosf(float) noexcept;
ZYX_TILE_SIMD float tanf(float) noexcept;
ZYX_TILE_SIMD float tanhf(float) noexcept;
ZYX_TILE_SIMD float powf(float, float) noexcept;
ZYX_TILE_SIMD double exp(double) noexcept;
ZYX_TILE_SIMD double erfc(double) noexcept;
}
#undef ZYX_TILE_SIMD

namespace zyx::emu::tile {

using detail::bits_of;
using detail::flush_denormal;
using detail::float_of;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- maps ----------------------------------------------------------------------------------------
// The ways to apply y = fn(x) (or fn(x, y)) elementwise, chosen by what fn is made of. All loops
// are branch-free (selects, not jumps), so they vectorise; out may alias an input in the binary
// forms (each element is read before it is written).

// fn may call libm / libmvec: denormals are flushed in code on the way in and out.
template <class Fn>
inline void map_flushed(float* __restrict t, Fn fn) {
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = flush_denormal(fn(flush_denormal(t[i])));
}

// y = combine(x, call(x)) with the call made for every element first, in a loop of its own:
// where `combine` selects between the call's result and something else, GCC would otherwise
// move the call into the selected branch, and a loop with a call in a branch does not
// vectorise. `call` may use libm / libmvec; denormals are flushed as in map_flushed. V is the
// type of the intermediate (float, or double for ops computed in double).
template <class V, class Call, class Combine>
inline void map_flushed_then(float* __restrict t, Call call, Combine combine) {
    alignas(64) V v[kTileElems];
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) v[i] = call(flush_denormal(t[i]));
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = flush_denormal(float(combine(flush_denormal(t[i]), v[i])));
}

// fn is IEEE arithmetic, comparisons and selects on x only (no libm call, no test of x's bits):
// under MXCSR DAZ such an fn reads a denormal x exactly as the zero flush_denormal(x) would give
// (a select that passes x through returns the denormal itself, which the result flush then
// turns into that same zero), so the input flush is left to the host. Results are flushed here,
// unless `Integral`: fn's results are never denormal (integers, ±0, ±1, NaN), so nothing to do.
template <bool Integral = false, class Fn>
inline void map_daz(float* __restrict t, Fn fn) {
    detail::DenormalsAreZero daz(/*flush_results=*/false);
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const float x = detail::kHostDenormalsAreZero ? t[i] : flush_denormal(t[i]);
        const float y = fn(x);
        t[i] = Integral ? y : flush_denormal(y);
    }
}

// Comparisons of the raw word (comp.h's zero tests): no flush at all, 1.0 where true.
template <class Cmp>
inline void compare_raw(float* __restrict t, Cmp cmp) {
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = cmp(t[i]) ? 1.0f : 0.0f;
}

// How a binary op's result is flushed. Ftz: by the host (MXCSR FTZ), valid only where FTZ and
// "round, then flush" agree on every input: sums and differences, whose exact results below
// 2^-126 are multiples of 2^-149 and so exact (tile_internal.hpp, DenormalsAreZero). Explicit:
// the IEEE result is flushed in code (products, quotients, selects).
enum class ResultFlush { Ftz, Explicit };

#if defined(__AVX512F__)
inline __m512 flush_denormal_v(__m512 x) {
    const __m512i u = _mm512_castps_si512(x);
    const __mmask16 tiny = _mm512_testn_epi32_mask(u, _mm512_set1_epi32(0x7f800000));
    return _mm512_castsi512_ps(_mm512_mask_and_epi32(u, tiny, u, _mm512_set1_epi32(int(0x80000000u))));
}
#endif

// A binary op's operand: a tile, or one word standing for a tile whose every element is it (a
// lazily filled DST tile). Both give the same values element by element: the word is used as
// it is, bit for bit, as a load of the filled tile would give it.
struct TileArg {
    const float* p;
    float at(uint32_t i) const { return p[i]; }
#if defined(__AVX512F__)
    __m512 vec(uint32_t i) const { return _mm512_loadu_ps(p + i); }
#endif
};
struct ScalarArg {
    float s;
    float at(uint32_t) const { return s; }
#if defined(__AVX512F__)
    __m512 vec(uint32_t) const { return _mm512_set1_ps(s); }
#endif
};

// out = fn(a, b) under DAZ (fn: IEEE arithmetic, comparisons, selects). `vfn` is the same op on
// 16 lanes (AVX-512 intrinsics), used when the library is built with AVX-512; GCC's own
// vectorisation of the scalar form spends two more instructions per flush.
template <ResultFlush F, class A, class B, class Fn, class VFn>
inline void map2_daz(A a, B b, float* out, [[maybe_unused]] Fn fn, [[maybe_unused]] VFn vfn) {
    detail::DenormalsAreZero daz(/*flush_results=*/F == ResultFlush::Ftz);
#if defined(__AVX512F__)
    for (uint32_t i = 0; i < kTileElems; i += 16) {
        const __m512 r = vfn(a.vec(i), b.vec(i));
        _mm512_storeu_ps(out + i, F == ResultFlush::Ftz ? r : flush_denormal_v(r));
    }
#else
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const float x = detail::kHostDenormalsAreZero ? a.at(i) : flush_denormal(a.at(i));
        const float y = detail::kHostDenormalsAreZero ? b.at(i) : flush_denormal(b.at(i));
        const float r = fn(x, y);
        out[i] = F == ResultFlush::Ftz && detail::kHostDenormalsAreZero ? r : flush_denormal(r);
    }
#endif
}

// C's pow(x, y) (powf) of flushed operands. libmvec's powf leaves its vector path for every lane
// with x ≤ 0 (and other special inputs), which costs ~5× on a tile of mixed signs, so it is
// called on |x| for every element first, then the sign is applied as C's pow does: −|x|^y for a
// negative x (also −0, −inf) and an odd integer y, NaN for a finite x < 0 and a non-integer y,
// |x|^y otherwise (powf is exactly symmetric in the sign of x; glibc computes it that way).
template <class A, class B>
inline void pow_tile(A a, B b, float* out) {
    alignas(64) float v[kTileElems];
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) v[i] = powf(std::fabs(flush_denormal(a.at(i))), flush_denormal(b.at(i)));
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const float x = flush_denormal(a.at(i)), y = flush_denormal(b.at(i));
        const bool y_integer = std::trunc(y) == y;  // false for NaN, true for ±inf
        const bool y_odd = y_integer && std::trunc(y * 0.5f) != y * 0.5f;
        const bool x_negative = (bits_of(x) >> 31) != 0;
        const float r = x < 0.0f && x > -kInf && !y_integer ? kNaN : x_negative && y_odd ? -v[i] : v[i];
        out[i] = flush_denormal(r);
    }
}

#if defined(__AVX512F__)
#define ZYX_V(expr) [](__m512 x, __m512 y) { return expr; }
#else
#define ZYX_V(expr) nullptr
#endif

// ---- op definitions --------------------------------------------------------------------------

// erf⁻¹ on (−1, 1): Winitzki's closed form (relative error ≈ 2e-3) refined by three Newton steps
// on erf in double, which converges to well below fp32 precision.
double erfinv_double(double x) {
    if (std::isnan(x) || x < -1.0 || x > 1.0) return kNaN;
    if (x == 1.0) return kInf;
    if (x == -1.0) return -kInf;
    if (x == 0.0) return x;
    const double a = 0.147;
    const double pi = 3.14159265358979323846;
    double ln = std::log((1.0 - x) * (1.0 + x));
    double t = 2.0 / (pi * a) + ln / 2.0;
    double y = std::copysign(std::sqrt(std::sqrt(t * t - ln / a) - t), x);
    const double two_over_sqrt_pi = 1.12837916709551257390;
    for (int i = 0; i < 3; ++i) y -= (std::erf(y) - x) / (two_over_sqrt_pi * std::exp(-y * y));
    return y;
}

// gelu(x) = x·Φ(x) = ½x·erfc(−x/√2), in double (erfc, not 1 + erf: no cancellation for negative
// x; in fp32 the rounding of x/√2 alone costs up to ~200 ulp where x < −10); at −inf the limit 0
// (the formula gives −inf·0 = NaN). For map_flushed_then: the call, then the rest.
inline double gelu_exact_call(float x) { return erfc(double(x) * -0.70710678118654752440); }
inline double gelu_exact_combine(float x, double erfc_v) { return x == -kInf ? 0.0 : 0.5 * double(x) * erfc_v; }
// ½x(1 + tanh(u)) with u = √(2/π)(x + 0.044715x³), in double, written x / (1 + e^(−2u)) (the
// same value: 1 + tanh u = 2 / (1 + e^(−2u)), without the cancellation of 1 + tanh u for
// negative x); at −inf the limit 0.
inline double gelu_tanh_call(float x) {
    const double xd = x;
    return exp(-2.0 * 0.79788456080286535588 * (xd + 0.044715 * xd * xd * xd));
}
inline double gelu_tanh_combine(float x, double e) { return x == -kInf ? 0.0 : double(x) / (1.0 + e); }

// ---- erf ----------------------------------------------------------------------------------------
// Ours rather than libmvec's erff (up to 4 ulp): within 0.5013 ulp of the exact value on every
// fp32 input, and a little faster (docs/numerics.md §6, §9).
//
// erf(x) = x·G(a), a = |x| clamped to kErfClamp, G(a) = erf(a)/a (even, smooth, from 2/√π at 0 to
// 1/4 at 4). From 3.9193 on, erf(x) rounds to ±1 in fp32, and so does kErfClamp·G(kErfClamp).
// [0, 4) is cut into 16 pieces of width 1/4; on piece k (k/4 ≤ a < (k+1)/4) G is a polynomial of
// degree 6 in v = a − k/4 ∈ [0, 1/4), evaluated in double by Horner's rule, and a·G is rounded
// once to fp32 and given the sign of x. a, the piece and v are exact, so the errors are the
// polynomials' (below 8·10⁻¹¹ relative, 0.0013 ulp) and double rounding (~10⁻¹⁶): the result is
// the correctly rounded one except within 0.0013 ulp of a rounding boundary (0.02 % of inputs).
// A NaN passes through every step; a denormal x is read as zero (DAZ), so it gives a zero of its
// sign, as ±0 do, and results are never denormal.
//
// The coefficients are derived here, at first use, from libm's long double erf (erfl): on each
// piece, G is interpolated at the 7 Chebyshev points (the interpolant is within a small factor of
// the best polynomial of its degree) and the Chebyshev series is rewritten in powers of v.
constexpr int kErfPieces = 16;
constexpr int kErfDegree = 6;
constexpr float kErfClamp = 3.96875f;  // in the last piece; erf there is 1 in fp32

struct ErfTable {
    alignas(64) double c[kErfDegree + 1][kErfPieces];  // c[j][k]: the coefficient of v^j on piece k
};

ErfTable make_erf_table() {
    constexpr int n = kErfDegree + 1;  // interpolation points per piece
    const long double pi = 3.141592653589793238462643383279502884L;
    ErfTable table{};
    for (int k = 0; k < kErfPieces; ++k) {
        // Chebyshev coefficients b_j of G on the piece, in s = 8v − 1 ∈ [−1, 1], from its values
        // at the points s_i = cos θ_i, θ_i = π(i + ½)/n: b_j = (2/n) Σ_i G(s_i) cos(j θ_i), b_0 halved.
        long double b[n] = {};
        for (int i = 0; i < n; ++i) {
            const long double theta = pi * (i + 0.5L) / n;
            const long double a = (k + 0.5L + 0.5L * std::cos(theta)) / 4;  // > 0
            const long double g = std::erf(a) / a;
            for (int j = 0; j < n; ++j) b[j] += g * std::cos(j * theta) * 2 / n;
        }
        b[0] /= 2;
        // Σ b_j T_j(s) in powers of v: T_0 = 1, T_1 = s = 8v − 1, T_{j+1} = 2s·T_j − T_{j−1}.
        long double t_prev[n] = {1}, t_cur[n] = {-1, 8}, p[n] = {};
        for (int i = 0; i < n; ++i) p[i] = b[0] * t_prev[i] + b[1] * t_cur[i];
        for (int j = 2; j < n; ++j) {
            long double t_next[n];
            for (int i = 0; i < n; ++i) t_next[i] = 2 * ((i > 0 ? 8 * t_cur[i - 1] : 0) - t_cur[i]) - t_prev[i];
            for (int i = 0; i < n; ++i) t_prev[i] = t_cur[i], t_cur[i] = t_next[i], p[i] += b[j] * t_next[i];
        }
        for (int i = 0; i < n; ++i) table.c[i][k] = double(p[i]);
    }
    return table;
}

#if !defined(__AVX512F__)
// a·b + c, with one rounding where the host has FMA (as the AVX-512 path has), else two.
inline double mul_add(double a, double b, double c) {
#if defined(FP_FAST_FMA)
    return std::fma(a, b, c);
#else
    return a * b + c;
#endif
}
#endif

void erf_tile(float* __restrict t) {
    static const ErfTable table = make_erf_table();
    detail::DenormalsAreZero daz(/*flush_results=*/false);
    // q = floor(4a)/4 comes from a + 1.5·2^50 rounded down (the doubles there are 1/4 apart): that
    // sum is exact, its low mantissa bits are floor(4a), the piece, and q and v = a − q are exact.
    const double shift = 0x1.8p50;
#if defined(__AVX512F__)
    // 8 lanes per vector, 4 vectors per step, interleaved (their Horner chains are long: one
    // vector at a time runs ~15 % slower). The coefficient j of each lane's piece is picked from
    // the two registers holding it for pieces 0–7 and 8–15 by one permute (no gather).
    constexpr int kVectors = 4;
    __m512d lo[kErfDegree + 1], hi[kErfDegree + 1];
    for (int j = 0; j <= kErfDegree; ++j) lo[j] = _mm512_load_pd(&table.c[j][0]), hi[j] = _mm512_load_pd(&table.c[j][8]);
    const __m256 clamp = _mm256_set1_ps(kErfClamp), sign = _mm256_set1_ps(-0.0f);
    const __m512d shift_v = _mm512_set1_pd(shift);
    for (uint32_t i = 0; i < kTileElems; i += 8 * kVectors) {
        __m256 x[kVectors];
        __m512d a[kVectors], v[kVectors], g[kVectors];
        __m512i k[kVectors];
        for (int u = 0; u < kVectors; ++u) {
            x[u] = _mm256_loadu_ps(t + i + 8 * u);
            // minps returns its second operand when either is NaN: a NaN passes.
            a[u] = _mm512_cvtps_pd(_mm256_min_ps(clamp, _mm256_andnot_ps(sign, x[u])));
            const __m512d m = _mm512_add_round_pd(a[u], shift_v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            k[u] = _mm512_castpd_si512(m);
            v[u] = _mm512_sub_pd(a[u], _mm512_sub_pd(m, shift_v));
            g[u] = _mm512_permutex2var_pd(lo[kErfDegree], k[u], hi[kErfDegree]);
        }
        for (int j = kErfDegree - 1; j >= 0; --j)
            for (int u = 0; u < kVectors; ++u) g[u] = _mm512_fmadd_pd(g[u], v[u], _mm512_permutex2var_pd(lo[j], k[u], hi[j]));
        for (int u = 0; u < kVectors; ++u) {
            const __m256 r = _mm512_cvtpd_ps(_mm512_mul_pd(a[u], g[u]));
            _mm256_storeu_ps(t + i + 8 * u, _mm256_or_ps(r, _mm256_and_ps(sign, x[u])));
        }
    }
#else
    // The same values, element by element: q from floor (no per-instruction rounding mode in
    // C++), the coefficients loaded by index (GCC vectorises this loop only where it uses
    // gathers, which its tuning for AMD's cores does not).
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const float x = detail::kHostDenormalsAreZero ? t[i] : flush_denormal(t[i]);
        const float ax = std::fabs(x);
        const double a = kErfClamp < ax ? kErfClamp : ax;  // a NaN passes
        const double q = 0.25 * std::floor(4.0 * a);
        const uint32_t k = uint32_t(std::bit_cast<uint64_t>(q + shift)) & (kErfPieces - 1);  // NaN: any piece
        const double v = a - q;
        double g = table.c[kErfDegree][k];
#pragma GCC unroll 8
        for (int j = kErfDegree - 1; j >= 0; --j) g = mul_add(g, v, table.c[j][k]);
        t[i] = std::copysign(float(a * g), x);
    }
#endif
}

// 10^n as the nearest float, as round_tile's table holds it: +inf above 10^38, 0 below 10^-45;
// a denormal power reads as zero (SFPU arithmetic).
float pow10_float(int64_t n) {
    if (n > 38) return kInf;
    if (n < -45) return 0.0f;
    return flush_denormal(std::strtof(("1e" + std::to_string(n)).c_str(), nullptr));
}

// fmaxf / fminf as glibc's (x86-64): a NaN loses to a number, two NaNs give the first, equal
// values (±0) give the second. Branch-free, so the loops vectorise (std::fmax is a libm call).
inline float fmax_select(float x, float y) { return (x > y || y != y) ? x : y; }
inline float fmin_select(float x, float y) { return (x < y || y != y) ? x : y; }

// Every SfpuBinary op on operands a, b of type TileArg / ScalarArg (out may alias a tile operand).
template <class A, class B>
void binary_impl(SfpuBinary op, A a, B b, float* out) {
    constexpr ResultFlush Ftz = ResultFlush::Ftz, Explicit = ResultFlush::Explicit;
    switch (op) {
        case SfpuBinary::Add: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x + y; }, ZYX_V(_mm512_add_ps(x, y))); return;
        case SfpuBinary::Sub: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x - y; }, ZYX_V(_mm512_sub_ps(x, y))); return;
        case SfpuBinary::Rsub: map2_daz<Ftz>(a, b, out, [](float x, float y) { return y - x; }, ZYX_V(_mm512_sub_ps(y, x))); return;
        case SfpuBinary::Mul:
            map2_daz<Explicit>(a, b, out, [](float x, float y) { return x * y; }, ZYX_V(_mm512_mul_ps(x, y)));
            return;
        case SfpuBinary::Div:
            map2_daz<Explicit>(a, b, out, [](float x, float y) { return x / y; }, ZYX_V(_mm512_div_ps(x, y)));
            return;
        case SfpuBinary::Power: pow_tile(a, b, out); return;
        case SfpuBinary::Max:
            map2_daz<Explicit>(a, b, out, [](float x, float y) { return fmax_select(x, y); },
                               ZYX_V(_mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, y, _CMP_GT_OQ) |
                                                              _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q),
                                                          y, x)));
            return;
        case SfpuBinary::Min:
            map2_daz<Explicit>(a, b, out, [](float x, float y) { return fmin_select(x, y); },
                               ZYX_V(_mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, y, _CMP_LT_OQ) |
                                                              _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q),
                                                          y, x)));
            return;
#if defined(__AVX512F__)
#define ZYX_CMP(pred) [](__m512 x, __m512 y) { return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, y, pred), _mm512_set1_ps(1.0f)); }
#else
#define ZYX_CMP(pred) nullptr
#endif
        case SfpuBinary::Eq: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x == y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_EQ_OQ)); return;
        case SfpuBinary::Ne: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x != y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_NEQ_UQ)); return;
        case SfpuBinary::Lt: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x < y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_LT_OQ)); return;
        case SfpuBinary::Gt: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x > y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_GT_OQ)); return;
        case SfpuBinary::Le: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x <= y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_LE_OQ)); return;
        case SfpuBinary::Ge: map2_daz<Ftz>(a, b, out, [](float x, float y) { return x >= y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_GE_OQ)); return;
#undef ZYX_CMP
        // Exact (libm fmod); silicon forms a − q·b, so a zero result is +0 there and here.
        case SfpuBinary::Fmod:
            for (uint32_t i = 0; i < kTileElems; ++i) {
                const float r = std::fmod(flush_denormal(a.at(i)), flush_denormal(b.at(i)));
                out[i] = flush_denormal(r == 0.0f ? 0.0f : r);
            }
            return;
        case SfpuBinary::Remainder:
            for (uint32_t i = 0; i < kTileElems; ++i) {
                const float x = flush_denormal(a.at(i)), y = flush_denormal(b.at(i));
                const float r = std::fmod(x, y);
                out[i] = flush_denormal(r == 0.0f ? 0.0f : std::signbit(r) != std::signbit(y) ? r + y : r);
            }
            return;
    }
    throw Error(ErrorStatus::Unsupported,
                "Unsupported: tile::sfpu_binary: op " + std::to_string(unsigned(op)) + " is not an SfpuBinary value");
}

}  // namespace

void sfpu_unary(SfpuUnary op, float* t, uint32_t param, bool approx) {
    const float p = float_of(param);  // the parameter as f32 for ops that take a float
    switch (op) {
        // libmvec (map_flushed)
        case SfpuUnary::Exp: map_flushed(t, [](float x) { return expf(x); }); return;
        case SfpuUnary::Exp2: map_flushed(t, [](float x) { return exp2f(x); }); return;
        case SfpuUnary::Log: map_flushed(t, [](float x) { return logf(x); }); return;
        case SfpuUnary::Sin: map_flushed(t, [](float x) { return sinf(x); }); return;
        case SfpuUnary::Cos: map_flushed(t, [](float x) { return cosf(x); }); return;
        case SfpuUnary::Tan: map_flushed(t, [](float x) { return tanf(x); }); return;
        case SfpuUnary::Tanh: map_flushed(t, [](float x) { return tanhf(x); }); return;
        case SfpuUnary::Sigmoid: map_flushed(t, [](float x) { return 1.0f / (1.0f + expf(-x)); }); return;
        // ours, piecewise polynomials in double (erf_tile)
        case SfpuUnary::Erf: erf_tile(t); return;
        // silu in double: in fp32, e^−x overflows for x < −88.7 where x·sigmoid(x) is still normal.
        case SfpuUnary::Silu: map_flushed(t, [](float x) { return float(double(x) / (1.0 + exp(-double(x)))); }); return;
        case SfpuUnary::Gelu:
            if (approx) {
                map_flushed_then<double>(t, [](float x) { return gelu_tanh_call(x); },
                                         [](float x, double e) { return gelu_tanh_combine(x, e); });
            } else {
                map_flushed_then<double>(t, [](float x) { return gelu_exact_call(x); },
                                         [](float x, double e) { return gelu_exact_combine(x, e); });
            }
            return;
        // elu(x, p) = x < 0 ? p·(eˣ − 1) : x
        case SfpuUnary::Elu:
            map_flushed_then<float>(t, [](float x) { return expm1f(x); }, [p](float x, float e) { return x < 0.0f ? p * e : x; });
            return;
        // softplus with beta 1 and threshold 20 (PyTorch's defaults): x for x > 20.
        case SfpuUnary::Softplus:
            map_flushed_then<float>(t, [](float x) { return log1pf(expf(x)); }, [](float x, float s) { return x > 20.0f ? x : s; });
            return;
        case SfpuUnary::Power: pow_tile(TileArg{t}, ScalarArg{p}, t); return;
        // scalar libm, in double (rarely used)
        case SfpuUnary::Erfinv:
            for (uint32_t i = 0; i < kTileElems; ++i) t[i] = flush_denormal(float(erfinv_double(flush_denormal(t[i]))));
            return;
        // IEEE arithmetic, comparisons, selects (map_daz)
        case SfpuUnary::Sqrt: map_daz(t, [](float x) { return std::sqrt(x); }); return;
        case SfpuUnary::Rsqrt: map_daz(t, [](float x) { return float(1.0 / std::sqrt(double(x))); }); return;
        case SfpuUnary::Recip: map_daz(t, [](float x) { return 1.0f / x; }); return;
        case SfpuUnary::Negative: map_daz(t, [](float x) { return -x; }); return;
        case SfpuUnary::Abs: map_daz(t, [](float x) { return std::fabs(x); }); return;
        // relu = relu_min with threshold 0: x < 0 → 0 (−0 and NaN pass through).
        case SfpuUnary::Relu: map_daz(t, [](float x) { return x < 0.0f ? 0.0f : x; }); return;
        // relu_max(x, p) = max(min(x, p), 0)
        case SfpuUnary::ReluMax:
            map_daz(t, [p](float x) { x = x > p ? p : x; return x < 0.0f ? 0.0f : x; });
            return;
        // relu_min(x, p) = max(x, p)
        case SfpuUnary::ReluMin: map_daz(t, [p](float x) { return x < p ? p : x; }); return;
        case SfpuUnary::LeakyRelu: map_daz(t, [p](float x) { return x < 0.0f ? x * p : x; }); return;
        case SfpuUnary::Square: map_daz(t, [](float x) { return x * x; }); return;
        // x·x·…·x in fp32, in order, n = param factors (n = 0 → 1). The partial products are
        // not flushed, as before: the loop runs over the tile once per factor.
        case SfpuUnary::PowerIterative: {
            alignas(64) float x[kTileElems];
#pragma omp simd
            for (uint32_t i = 0; i < kTileElems; ++i) x[i] = flush_denormal(t[i]), t[i] = 1.0f;
            for (uint32_t k = 0; k < param; ++k) {
#pragma omp simd
                for (uint32_t i = 0; i < kTileElems; ++i) t[i] *= x[i];
            }
#pragma omp simd
            for (uint32_t i = 0; i < kTileElems; ++i) t[i] = flush_denormal(t[i]);
            return;
        }
        // sign: ±1 by the sign bit, +0 for ±0, NaN stays NaN
        case SfpuUnary::Sign:
            map_daz<true>(t, [](float x) { return x != x ? x : x == 0.0f ? 0.0f : std::copysign(1.0f, x); });
            return;
        // The sign bit of the raw word (−denormal reads as −0: the same bit). Read from the bits:
        // GCC 12 ICEs on a vectorised std::signbit with AVX-512.
        case SfpuUnary::Signbit:
            compare_raw(t, [](float x) { return (bits_of(x) >> 31) != 0; });
            return;
        case SfpuUnary::Floor: map_daz<true>(t, [](float x) { return std::floor(x); }); return;
        case SfpuUnary::Ceil: map_daz<true>(t, [](float x) { return std::ceil(x); }); return;
        case SfpuUnary::Trunc: map_daz<true>(t, [](float x) { return std::trunc(x); }); return;
        // inf and NaN by their bits (a denormal is neither, as its flushed zero)
        case SfpuUnary::IsInf: compare_raw(t, [](float x) { return (bits_of(x) & 0x7fffffffu) == 0x7f800000u; }); return;
        case SfpuUnary::IsNan: compare_raw(t, [](float x) { return (bits_of(x) & 0x7fffffffu) > 0x7f800000u; }); return;
        case SfpuUnary::LogicalNot: map_daz<true>(t, [](float x) { return x == 0.0f ? 1.0f : 0.0f; }); return;
        // heaviside(x, p) = 0 for x < 0, 1 for x > 0, p for x == 0 (NaN stays NaN).
        case SfpuUnary::Heaviside:
            map_daz(t, [p](float x) { return x < 0.0f ? 0.0f : x > 0.0f ? 1.0f : x != x ? x : p; });
            return;
        // comp.h's zero tests: IEEE comparisons of the unflushed word (±0 are zero, a denormal is
        // not, NaN compares false).
        case SfpuUnary::Gtz: compare_raw(t, [](float x) { return x > 0.0f; }); return;
        case SfpuUnary::Ltz: compare_raw(t, [](float x) { return x < 0.0f; }); return;
        case SfpuUnary::Gez: compare_raw(t, [](float x) { return x >= 0.0f; }); return;
        case SfpuUnary::Lez: compare_raw(t, [](float x) { return x <= 0.0f; }); return;
        case SfpuUnary::Eqz: compare_raw(t, [](float x) { return x == 0.0f; }); return;
        case SfpuUnary::Nez: compare_raw(t, [](float x) { return x != 0.0f; }); return;
        // Compare with a scalar: an SFPU comparison of two floats (denormals read as zero).
        case SfpuUnary::UnaryEq: map_daz<true>(t, [p](float x) { return x == p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryNe: map_daz<true>(t, [p](float x) { return x != p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryGt: map_daz<true>(t, [p](float x) { return x > p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryLt: map_daz<true>(t, [p](float x) { return x < p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryGe: map_daz<true>(t, [p](float x) { return x >= p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryLe: map_daz<true>(t, [p](float x) { return x <= p ? 1.0f : 0.0f; }); return;
        // round(x, d) = 10^-d · round_half_even(x · 10^d), in fp32 as tt-llk's _calculate_round_;
        // |x · 10^d| > 2^23 is already an integer and passes unchanged.
        case SfpuUnary::Round: {
            const int64_t d = int32_t(param);
            const float coeff = pow10_float(d), inverse = pow10_float(-d);
            map_daz(t, [coeff, inverse](float x) {
                const float v = x * coeff;  // a denormal product reads as zero in the next step
                const float r = std::fabs(v) <= 0x1p23f ? std::nearbyint(v) : v;  // the default mode: half to even
                return inverse * r;
            });
            return;
        }
        // binop_with_scalar.h: the binary op with a scalar operand (DivScalar multiplies: p is the
        // reciprocal the host computed, as ttnn passes it to div_unary_tile).
        case SfpuUnary::AddScalar: binary_impl(SfpuBinary::Add, TileArg{t}, ScalarArg{p}, t); return;
        case SfpuUnary::SubScalar: binary_impl(SfpuBinary::Sub, TileArg{t}, ScalarArg{p}, t); return;
        case SfpuUnary::RsubScalar: binary_impl(SfpuBinary::Rsub, TileArg{t}, ScalarArg{p}, t); return;
        case SfpuUnary::MulScalar:
        case SfpuUnary::DivScalar: binary_impl(SfpuBinary::Mul, TileArg{t}, ScalarArg{p}, t); return;
    }
    throw Error(ErrorStatus::Unsupported,
                "Unsupported: tile::sfpu_unary: op " + std::to_string(unsigned(op)) + " is not an SfpuUnary value");
}

void sfpu_binary(SfpuBinary op, const float* a, const float* b, float* out) {
    binary_impl(op, TileArg{a}, TileArg{b}, out);
}
void sfpu_binary_scalar(SfpuBinary op, const float* a, uint32_t b_bits, float* out) {
    binary_impl(op, TileArg{a}, ScalarArg{float_of(b_bits)}, out);
}
void sfpu_binary_scalar(SfpuBinary op, uint32_t a_bits, const float* b, float* out) {
    binary_impl(op, ScalarArg{float_of(a_bits)}, TileArg{b}, out);
}

#undef ZYX_V

void where(const float* cond, const float* a, const float* b, float* out) {
#if defined(__AVX512F__)
    for (uint32_t i = 0; i < kTileElems; i += 16) {
        const __mmask16 take_a = _mm512_test_epi32_mask(_mm512_loadu_si512(cond + i), _mm512_set1_epi32(-1));
        _mm512_storeu_ps(out + i, _mm512_mask_blend_ps(take_a, _mm512_loadu_ps(b + i), _mm512_loadu_ps(a + i)));
    }
#else
#pragma omp simd
    for (uint32_t i = 0; i < kTileElems; ++i) out[i] = bits_of(cond[i]) != 0 ? a[i] : b[i];
#endif
}

void copy(const float* in, float* out) {
    if (in == out) return;
#if defined(__AVX512F__)
    for (uint32_t i = 0; i < kTileElems; i += 16) _mm512_storeu_ps(out + i, _mm512_loadu_ps(in + i));
#else
    std::memcpy(out, in, kTileElems * sizeof(float));
#endif
}

namespace {

// SFPSWAP's order on 32-bit words: sign-magnitude integers, which for FP32 is the total order
// −NaN < −inf < … < −0 < +0 < … < +inf < +NaN (tt-isa-documentation, SFPSWAP).
bool sign_mag_less(uint32_t c, uint32_t d) {
    c ^= uint32_t(int32_t(c) >> 30) >> 1;
    d ^= uint32_t(int32_t(d) >> 30) >> 1;
    return int32_t(c) < int32_t(d);
}

}  // namespace

void sfpu_reduce_col(PoolType pool, DataFormat fmt, float* t) {
    const bool is_float = fmt == DataFormat::Float32 || fmt == DataFormat::Float16_b;
    if (!is_float && fmt != DataFormat::Int32 && fmt != DataFormat::UInt32 && fmt != DataFormat::UInt16)
        throw Error(ErrorStatus::Unsupported, "Unsupported: tile::sfpu_reduce_col: data format " +
                                                  std::string(data_format_name(fmt)) +
                                                  " (sfpu_reduce takes Float32, Int32, UInt32, UInt16, Float16_b)");
    if (pool != PoolType::Sum && pool != PoolType::Avg && pool != PoolType::Max && pool != PoolType::Min)
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: tile::sfpu_reduce_col: pool type " + std::to_string(unsigned(pool)));
    for (uint32_t c = 0; c < kTileDim; ++c) {
        uint32_t w[kTileDim];
        for (uint32_t r = 0; r < kTileDim; ++r) w[r] = detail::bits_of(t[r * kTileDim + c]);
        uint32_t out = 0;
        if (pool == PoolType::Max || pool == PoolType::Min) {
            out = w[0];
            for (uint32_t r = 1; r < kTileDim; ++r) {
                if (fmt == DataFormat::Int32) {
                    if (pool == PoolType::Max ? int32_t(w[r]) > int32_t(out) : int32_t(w[r]) < int32_t(out)) out = w[r];
                } else if (!is_float) {
                    if (pool == PoolType::Max ? w[r] > out : w[r] < out) out = w[r];
                } else if (pool == PoolType::Max ? sign_mag_less(out, w[r]) : sign_mag_less(w[r], out)) {
                    out = w[r];
                }
            }
        } else if (is_float) {
            double s = 0;
            for (uint32_t r = 0; r < kTileDim; ++r) s += double(flush_denormal(detail::float_of(w[r])));
            float v = flush_denormal(float(s));
            if (pool == PoolType::Avg) v = flush_denormal(v * 0.03125f);
            out = detail::bits_of(v);
        } else {
            uint32_t s = 0;  // wraps, as the SFPU's 32-bit integer adds do
            for (uint32_t r = 0; r < kTileDim; ++r) s += w[r];
            if (pool == PoolType::Avg) {
                if (fmt == DataFormat::Int32 && int32_t(s) < 0) s = 0u - ((0u - s) >> 5);  // toward zero
                else s >>= 5;
            }
            out = fmt == DataFormat::UInt16 ? (s & 0xffffu) : s;
        }
        t[c] = detail::float_of(out);
        const uint32_t scratch = fmt == DataFormat::UInt16 ? 0xffffu : kSfpuReduceScratch;
        for (uint32_t r = 1; r < 4; ++r) t[r * kTileDim + c] = detail::float_of(scratch);
    }
}

}  // namespace zyx::emu::tile
