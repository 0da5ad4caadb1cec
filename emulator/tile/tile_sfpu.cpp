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
// docs/numerics.md §6); erf is ours (erf_tile: piecewise polynomials in fp32 with a
// compensated last step, within 0.621 ulp, monotonic). Ops made of IEEE arithmetic, comparisons and selects read denormal
// inputs as zero through the host's MXCSR DAZ flag instead of flushing them in code (the same
// values), and flush their results explicitly (or by FTZ where that is provably the same: sums
// and differences). + − × ÷, sqrt and the comparisons stay exact.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

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
using detail::float_of;
using detail::flush_denormal;

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

// Whether DAZ / FTZ can change a result of x + s, x − s, s − x (`Sum`) or x·s (`Product`) for
// this scalar operand s. Setting and restoring MXCSR costs about a fifth of such an op on a tile,
// and for most scalars it makes no difference, so map2_daz skips it there:
// - sums, |s| ≥ 2^-100 (or NaN): a denormal x is below half an ulp of s and of the float below
//   it, so s ± x rounds to s, as s ± 0 does; and a nonzero sum is ≥ 2^-124 (if |x| ≥ |s|/2, x and
//   s are multiples of 2^-124, else |s ± x| > |s|/2), so never denormal: nothing for FTZ to do;
// - products, s = ±0 or FLT_MIN ≤ |s| ≤ 1 (not a denormal s, which DAZ reads as zero): |x·s| ≤
//   |x|, so a denormal x gives a denormal or zero product with the sign of ±0·s, which the
//   explicit result flush turns into that same ±0 (FTZ is off for products anyway).
enum class ScalarUse { None, Sum, Product };
template <class A, class B>
inline bool daz_matters(ScalarUse use, A a, B b) {
    float s;
    if constexpr (std::is_same_v<B, ScalarArg>)
        s = b.s;
    else if constexpr (std::is_same_v<A, ScalarArg>)
        s = a.s;
    else
        return true;
    switch (use) {
        case ScalarUse::Sum: return std::fabs(s) < 0x1p-100f;
        case ScalarUse::Product: return !(std::fabs(s) <= 1.0f) || (s != 0.0f && std::fabs(s) < 0x1p-126f);
        case ScalarUse::None: break;
    }
    return true;
}

// out = fn(a, b) under DAZ (fn: IEEE arithmetic, comparisons, selects), or without touching
// MXCSR where daz_matters says it cannot change a result. `vfn` is the same op on 16 lanes
// (AVX-512 intrinsics), used when the library is built with AVX-512; GCC's own vectorisation of
// the scalar form spends two more instructions per flush.
template <ResultFlush F, ScalarUse Use = ScalarUse::None, class A, class B, class Fn, class VFn>
inline void map2_daz(A a, B b, float* out, [[maybe_unused]] Fn fn, [[maybe_unused]] VFn vfn) {
    std::optional<detail::DenormalsAreZero> daz;
    if (daz_matters(Use, a, b)) daz.emplace(/*flush_results=*/F == ResultFlush::Ftz);
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
// Ours rather than libmvec's erff (up to 4 ulp): within 0.6206 ulp of the exact value (erfl) on
// every fp32 input (all 2^32 checked, max at x = ±0.685379863; 0.13 % of the results below
// 3.92 are not the correctly rounded ones), odd bit for bit and non-decreasing over all floats
// (docs/numerics.md §6, §9). Evaluated in fp32, 16 lanes per AVX-512 vector, with one
// compensated step at the end: ~2× faster than the degree-6 double version it replaced (within
// 0.5013 ulp, 8 lanes).
//
// a = |x| clamped to kErfClamp (from 3.9193 on, erf rounds to 1 in fp32). [0, kErfClamp] is cut
// into 32 pieces of width 1/8 centred on k/8, k = round(8a), with v = 8a − k ∈ [−½, ½] (exact).
// On piece k, erf(a) = m·f_k(v): for k < kErfSplitPiece, m = a and f_k = erf(a)/a (even, smooth,
// 2/√π at 0: a relative error of f is one of erf down to the smallest a); from there on m =
// kErfSplit (their common boundary, so m = min(a, kErfSplit) in both cases) and f_k =
// erf(a)/kErfSplit, whose variation over a piece is erf's own (tiny where erf is flat near 1: the
// rounding noise of the evaluation stays far below erf's increase from one float to the next,
// which keeps the result monotonic). f_k(v) = c0 + v·P(v), c0 a pair of floats (hi + lo), P of
// degree kErfDegree − 1 by Horner's rule in fp32, and
//     result = fma(m, c0hi, m·(c0lo + v·P(v)))
// (m·c0hi exact inside the fma, one rounding of the sum), given the sign of x. The tail
// m·(c0lo + v·P) is at most ~1/8 of the result, so its fp32 rounding errors and the polynomials'
// error together stay below 0.121 ulp (measured), on top of the final rounding's 0.5 ulp.
// (Degree 4 instead of 5 is ~15 % faster but reaches 0.81 ulp.) The table and so every
// intermediate is scaled by 2^32, undone exactly at the end: without it, for |x| near FLT_MIN
// the product m·(c0lo + …) would be denormal and its rounding cost up to 0.5 ulp more.
// A NaN passes through every step; a denormal x is read as zero (flushed in code, not by the
// host's DAZ), giving a zero of its sign, as ±0 do; results are never denormal (the smallest is
// ≈ 1.13·FLT_MIN). No intermediate is denormal (the 2^32 scaling), so MXCSR's DAZ / FTZ do not
// matter and are left alone.
//
// The coefficients are derived here, at first use, from libm's long double erf (erfl): on each
// piece, from the top degree down, the coefficient of v^j is the leading one of the degree-j
// polynomial interpolating the remainder at the j + 1 Chebyshev points of [−½, ½], rounded to
// fp32; the rounded term is then taken out of the remainder (so each rounding error is absorbed
// by the lower coefficients), and c0 is the midrange of what is left, split into hi + lo.
//
// The portable path computes the same operations element by element (std::fma), so the same
// values bit for bit.
constexpr int kErfPieces = 32;
constexpr int kErfDegree = 5;             // of f_k: c0 plus kErfDegree coefficients of P
constexpr int kErfRows = kErfDegree + 2;  // c0hi, c0lo, c1 … c_degree
constexpr int kErfSplitPiece = 5;         // pieces 0–4 (a < 9/16) are a·erf(a)/a
constexpr float kErfSplit = 0.5625f;      // 9/16, their upper boundary
constexpr float kErfClamp = 3.9296875f;   // 31.4375/8: in piece 31, erf there is 1 in fp32
constexpr float kErfMagic = 0x1.8p23f;    // 8a + this rounds to an integer: round(8a)
constexpr float kErfScale = 0x1p32f;      // the table holds f_k·2^32 (see erf_tile)

struct ErfTable {
    alignas(64) float c[kErfRows][kErfPieces];  // c[row][k]
};

ErfTable make_erf_table() {
    const long double pi = 3.141592653589793238462643383279502884L;
    ErfTable table{};
    for (int k = 0; k < kErfPieces; ++k) {
        // f_k(v), v ∈ [−½, ½]; piece 0 reaches a < 0, where erf(a)/a is still right (even).
        auto f = [k](long double v) -> long double {
            const long double a = (k + v) / 8;
            if (k >= kErfSplitPiece) return std::erf(a) / (long double)kErfSplit;
            return a == 0 ? 2 / std::sqrt(3.141592653589793238462643383279502884L) : std::erf(a) / a;
        };
        long double done[kErfDegree + 1] = {};  // the rounded coefficients taken out so far
        auto rest = [&](long double v) {
            long double p = 0;
            for (int j = kErfDegree; j >= 1; --j) p = (p + done[j]) * v;
            return f(v) - p;
        };
        for (int j = kErfDegree; j >= 1; --j) {
            // Leading coefficient of the degree-j interpolant of rest at the Chebyshev points
            // v_i = ½cos θ_i: divided differences (Newton form), the last one.
            const int n = j + 1;
            long double vs[kErfDegree + 1], dd[kErfDegree + 1];
            for (int i = 0; i < n; ++i) {
                vs[i] = 0.5L * std::cos(pi * (i + 0.5L) / n);
                dd[i] = rest(vs[i]);
            }
            for (int l = 1; l < n; ++l)
                for (int i = n - 1; i >= l; --i) dd[i] = (dd[i] - dd[i - 1]) / (vs[i] - vs[i - l]);
            done[j] = (long double)float(dd[n - 1]);
            table.c[1 + j][k] = float(done[j]);
        }
        long double lo = rest(-0.5L), hi = lo;
        for (int i = -512; i <= 512; ++i) {
            const long double r = rest(i / 1024.0L);
            lo = std::min(lo, r), hi = std::max(hi, r);
        }
        const long double c0 = (lo + hi) / 2;
        table.c[0][k] = float(c0);
        table.c[1][k] = float(c0 - (long double)table.c[0][k]);
        for (int j = 0; j < kErfRows; ++j) table.c[j][k] *= kErfScale;  // exact
    }
    return table;
}

void erf_tile(float* __restrict t) {
    static const ErfTable table = make_erf_table();
#if defined(__AVX512F__)
    // Each coefficient of each lane's piece is picked from the two registers holding it for
    // pieces 0–15 and 16–31 by one permute (no gather). Two vectors per step, interleaved.
    constexpr int kVectors = 4;
    __m512 lo[kErfRows], hi[kErfRows];
    for (int j = 0; j < kErfRows; ++j) lo[j] = _mm512_load_ps(&table.c[j][0]), hi[j] = _mm512_load_ps(&table.c[j][16]);
    const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff), exp_mask = _mm512_set1_epi32(0x7f800000);
    const __m512i sign_mask = _mm512_set1_epi32(int(0x80000000u));
    const __m512 clamp = _mm512_set1_ps(kErfClamp), split = _mm512_set1_ps(kErfSplit);
    const __m512 eight = _mm512_set1_ps(8.0f), magic = _mm512_set1_ps(kErfMagic);
    const __m512 unscale = _mm512_set1_ps(1.0f / kErfScale);
    for (uint32_t i = 0; i < kTileElems; i += 16 * kVectors) {
        __m512i x[kVectors], k[kVectors];
        __m512 a[kVectors], v[kVectors], p[kVectors];
        for (int u = 0; u < kVectors; ++u) {
            x[u] = _mm512_loadu_si512(t + i + 16 * u);
            // |x|, or +0 for a denormal (or zero) x
            const __mmask16 normal = _mm512_test_epi32_mask(x[u], exp_mask);
            a[u] = _mm512_castsi512_ps(_mm512_maskz_and_epi32(normal, x[u], abs_mask));
            a[u] = _mm512_min_ps(clamp, a[u]);  // minps returns its second operand when either is NaN: a NaN passes
            const __m512 m = _mm512_fmadd_ps(a[u], eight, magic);  // magic + round(8a): k in the low bits
            k[u] = _mm512_castps_si512(m);
            v[u] = _mm512_fmsub_ps(a[u], eight, _mm512_sub_ps(m, magic));  // 8a − k, exact
            p[u] = _mm512_permutex2var_ps(lo[kErfRows - 1], k[u], hi[kErfRows - 1]);
        }
        for (int j = kErfRows - 2; j >= 1; --j)
            for (int u = 0; u < kVectors; ++u)
                p[u] = _mm512_fmadd_ps(p[u], v[u], _mm512_permutex2var_ps(lo[j], k[u], hi[j]));
        for (int u = 0; u < kVectors; ++u) {
            // p = c0lo + v·P(v) now; m·c0hi + m·p, the first product exact inside the fma
            const __m512 m = _mm512_min_ps(a[u], split);  // a NaN gives kErfSplit (p is NaN)
            __m512 r = _mm512_fmadd_ps(m, _mm512_permutex2var_ps(lo[0], k[u], hi[0]), _mm512_mul_ps(m, p[u]));
            r = _mm512_mul_ps(r, unscale);  // exact: r is 0, NaN or ≥ 2^32·FLT_MIN
            // r | (x & sign)
            _mm512_storeu_si512(t + i + 16 * u,
                                _mm512_ternarylogic_epi32(_mm512_castps_si512(r), x[u], sign_mask, 0xf8));
        }
    }
#else
    // The same operations element by element (the coefficients loaded by index).
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const uint32_t xb = bits_of(t[i]);
        float a = (xb & 0x7f800000u) != 0 ? float_of(xb & 0x7fffffffu) : 0.0f;
        a = kErfClamp < a ? kErfClamp : a;  // as minps(clamp, a): a NaN passes
        const float m8 = std::fma(a, 8.0f, kErfMagic);
        const uint32_t k = bits_of(m8) & (kErfPieces - 1);  // NaN: any piece
        const float v = std::fma(a, 8.0f, -(m8 - kErfMagic));
        float p = table.c[kErfRows - 1][k];
        for (int j = kErfRows - 2; j >= 1; --j) p = std::fma(p, v, table.c[j][k]);
        const float m = a < kErfSplit ? a : kErfSplit;  // as minps(a, split)
        const float r = std::fma(m, table.c[0][k], m * p) * (1.0f / kErfScale);
        t[i] = float_of(bits_of(r) | (xb & 0x80000000u));
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
    constexpr ScalarUse Sum = ScalarUse::Sum, Product = ScalarUse::Product;
    switch (op) {
        case SfpuBinary::Add:
            map2_daz<Ftz, Sum>(
                a, b, out, [](float x, float y) { return x + y; }, ZYX_V(_mm512_add_ps(x, y)));
            return;
        case SfpuBinary::Sub:
            map2_daz<Ftz, Sum>(
                a, b, out, [](float x, float y) { return x - y; }, ZYX_V(_mm512_sub_ps(x, y)));
            return;
        case SfpuBinary::Rsub:
            map2_daz<Ftz, Sum>(
                a, b, out, [](float x, float y) { return y - x; }, ZYX_V(_mm512_sub_ps(y, x)));
            return;
        case SfpuBinary::Mul:
            map2_daz<Explicit, Product>(
                a, b, out, [](float x, float y) { return x * y; }, ZYX_V(_mm512_mul_ps(x, y)));
            return;
        case SfpuBinary::Div:
            map2_daz<Explicit>(
                a, b, out, [](float x, float y) { return x / y; }, ZYX_V(_mm512_div_ps(x, y)));
            return;
        case SfpuBinary::Power: pow_tile(a, b, out); return;
        case SfpuBinary::Max:
            map2_daz<Explicit>(
                a, b, out, [](float x, float y) { return fmax_select(x, y); },
                ZYX_V(_mm512_mask_blend_ps(
                    _mm512_cmp_ps_mask(x, y, _CMP_GT_OQ) | _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q), y, x)));
            return;
        case SfpuBinary::Min:
            map2_daz<Explicit>(
                a, b, out, [](float x, float y) { return fmin_select(x, y); },
                ZYX_V(_mm512_mask_blend_ps(
                    _mm512_cmp_ps_mask(x, y, _CMP_LT_OQ) | _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q), y, x)));
            return;
#if defined(__AVX512F__)
#define ZYX_CMP(pred) \
    [](__m512 x, __m512 y) { return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, y, pred), _mm512_set1_ps(1.0f)); }
#else
#define ZYX_CMP(pred) nullptr
#endif
        case SfpuBinary::Eq:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x == y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_EQ_OQ));
            return;
        case SfpuBinary::Ne:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x != y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_NEQ_UQ));
            return;
        case SfpuBinary::Lt:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x < y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_LT_OQ));
            return;
        case SfpuBinary::Gt:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x > y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_GT_OQ));
            return;
        case SfpuBinary::Le:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x <= y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_LE_OQ));
            return;
        case SfpuBinary::Ge:
            map2_daz<Ftz>(
                a, b, out, [](float x, float y) { return x >= y ? 1.0f : 0.0f; }, ZYX_CMP(_CMP_GE_OQ));
            return;
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
        case SfpuUnary::Silu:
            map_flushed(t, [](float x) { return float(double(x) / (1.0 + exp(-double(x)))); });
            return;
        case SfpuUnary::Gelu:
            if (approx) {
                map_flushed_then<double>(
                    t, [](float x) { return gelu_tanh_call(x); },
                    [](float x, double e) { return gelu_tanh_combine(x, e); });
            } else {
                map_flushed_then<double>(
                    t, [](float x) { return gelu_exact_call(x); },
                    [](float x, double e) { return gelu_exact_combine(x, e); });
            }
            return;
        // elu(x, p) = x < 0 ? p·(eˣ − 1) : x
        case SfpuUnary::Elu:
            map_flushed_then<float>(
                t, [](float x) { return expm1f(x); }, [p](float x, float e) { return x < 0.0f ? p * e : x; });
            return;
        // softplus with beta 1 and threshold 20 (PyTorch's defaults): x for x > 20.
        case SfpuUnary::Softplus:
            map_flushed_then<float>(
                t, [](float x) { return log1pf(expf(x)); }, [](float x, float s) { return x > 20.0f ? x : s; });
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
            map_daz(t, [p](float x) {
                x = x > p ? p : x;
                return x < 0.0f ? 0.0f : x;
            });
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
        case SfpuUnary::Signbit: compare_raw(t, [](float x) { return (bits_of(x) >> 31) != 0; }); return;
        case SfpuUnary::Floor: map_daz<true>(t, [](float x) { return std::floor(x); }); return;
        case SfpuUnary::Ceil: map_daz<true>(t, [](float x) { return std::ceil(x); }); return;
        case SfpuUnary::Trunc: map_daz<true>(t, [](float x) { return std::trunc(x); }); return;
        // inf and NaN by their bits (a denormal is neither, as its flushed zero)
        case SfpuUnary::IsInf:
            compare_raw(t, [](float x) { return (bits_of(x) & 0x7fffffffu) == 0x7f800000u; });
            return;
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
        case SfpuUnary::ExpScaled:  // the product stays in the SFPU's fp32 register: no store between
            binary_impl(SfpuBinary::Mul, TileArg{t}, ScalarArg{p}, t);
            map_flushed(t, [](float x) { return expf(x); });
            return;
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
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: tile::sfpu_reduce_col: data format " + std::string(data_format_name(fmt)) +
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
                if (fmt == DataFormat::Int32 && int32_t(s) < 0)
                    s = 0u - ((0u - s) >> 5);  // toward zero
                else
                    s >>= 5;
            }
            out = fmt == DataFormat::UInt16 ? (s & 0xffffu) : s;
        }
        t[c] = detail::float_of(out);
        const uint32_t scratch = fmt == DataFormat::UInt16 ? 0xffffu : kSfpuReduceScratch;
        for (uint32_t r = 1; r < 4; ++r) t[r * kTileDim + c] = detail::float_of(scratch);
    }
}

}  // namespace zyx::emu::tile
