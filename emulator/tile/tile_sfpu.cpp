// SFPU (vector engine) tile ops: sfpu_unary, sfpu_binary. DST → DST, in fp32.
// Definitions follow tt-metal's compute API (ckernel_sfpu_*.h); docs/numerics.md lists each.
// Denormal inputs are read as zero and denormal results written as zero (the SFPU treats fp32
// denormals as zero, FloatBitPatterns.md). The APPROX variants compute at full accuracy except
// Gelu, whose approximate form is the tanh formula.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"

namespace zyx::emu::tile {

using detail::flush_denormal;
using detail::float_of;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Applies y = fn(x) to every element, flushing denormals on the way in and out.
template <class Fn>
inline void map_tile(float* t, Fn fn) {
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = flush_denormal(fn(flush_denormal(t[i])));
}

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

// gelu(x) = x·Φ(x); at −inf the limit 0 (the formulas would give −inf·0 = NaN).
float gelu_exact(float x) {
    if (std::isinf(x)) return x > 0 ? x : 0.0f;
    return float(0.5 * double(x) * (1.0 + std::erf(double(x) * 0.70710678118654752440)));
}
float gelu_tanh(float x) {
    if (std::isinf(x)) return x > 0 ? x : 0.0f;
    double xd = x;
    return float(0.5 * xd * (1.0 + std::tanh(0.79788456080286535588 * (xd + 0.044715 * xd * xd * xd))));
}

// 10^n as the nearest float, as round_tile's table holds it: +inf above 10^38, 0 below 10^-45;
// a denormal power reads as zero (SFPU arithmetic).
float pow10_float(int64_t n) {
    if (n > 38) return kInf;
    if (n < -45) return 0.0f;
    return flush_denormal(std::strtof(("1e" + std::to_string(n)).c_str(), nullptr));
}

// x > 0 etc. on the raw word: the zero tests of comp.h are tests of the bits (±0 are zero, a
// denormal is not, NaN compares false) — IEEE comparisons of the unflushed value.
template <class Cmp>
inline void compare_tile(float* t, Cmp cmp) {
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = cmp(t[i]) ? 1.0f : 0.0f;
}

}  // namespace

void sfpu_unary(SfpuUnary op, float* t, uint32_t param, bool approx) {
    const float p = float_of(param);  // the parameter as f32 for ops that take a float
    switch (op) {
        case SfpuUnary::Exp: map_tile(t, [](float x) { return std::exp(x); }); return;
        case SfpuUnary::Exp2: map_tile(t, [](float x) { return std::exp2(x); }); return;
        case SfpuUnary::Log: map_tile(t, [](float x) { return std::log(x); }); return;
        case SfpuUnary::Sqrt: map_tile(t, [](float x) { return std::sqrt(x); }); return;
        case SfpuUnary::Rsqrt: map_tile(t, [](float x) { return float(1.0 / std::sqrt(double(x))); }); return;
        case SfpuUnary::Recip: map_tile(t, [](float x) { return 1.0f / x; }); return;
        case SfpuUnary::Sin: map_tile(t, [](float x) { return std::sin(x); }); return;
        case SfpuUnary::Cos: map_tile(t, [](float x) { return std::cos(x); }); return;
        case SfpuUnary::Tan: map_tile(t, [](float x) { return std::tan(x); }); return;
        case SfpuUnary::Negative: map_tile(t, [](float x) { return -x; }); return;
        case SfpuUnary::Abs: map_tile(t, [](float x) { return std::fabs(x); }); return;
        // relu = relu_min with threshold 0: x < 0 → 0 (−0 and NaN pass through).
        case SfpuUnary::Relu: map_tile(t, [](float x) { return x < 0.0f ? 0.0f : x; }); return;
        // relu_max(x, p) = max(min(x, p), 0)
        case SfpuUnary::ReluMax:
            map_tile(t, [p](float x) { x = x > p ? p : x; return x < 0.0f ? 0.0f : x; });
            return;
        // relu_min(x, p) = max(x, p)
        case SfpuUnary::ReluMin: map_tile(t, [p](float x) { return x < p ? p : x; }); return;
        case SfpuUnary::LeakyRelu: map_tile(t, [p](float x) { return x < 0.0f ? x * p : x; }); return;
        case SfpuUnary::Sigmoid:
            map_tile(t, [](float x) { return float(1.0 / (1.0 + std::exp(-double(x)))); });
            return;
        case SfpuUnary::Tanh: map_tile(t, [](float x) { return std::tanh(x); }); return;
        case SfpuUnary::Gelu:
            if (approx) map_tile(t, gelu_tanh);
            else map_tile(t, gelu_exact);
            return;
        case SfpuUnary::Silu:
            map_tile(t, [](float x) { return float(double(x) / (1.0 + std::exp(-double(x)))); });
            return;
        case SfpuUnary::Square: map_tile(t, [](float x) { return x * x; }); return;
        case SfpuUnary::Power: map_tile(t, [p](float x) { return std::pow(x, p); }); return;
        case SfpuUnary::PowerIterative:
            map_tile(t, [param](float x) {
                float y = 1.0f;
                for (uint32_t i = 0; i < param; ++i) y *= x;
                return y;
            });
            return;
        case SfpuUnary::Sign:
            map_tile(t, [](float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : std::isnan(x) ? x : 0.0f; });
            return;
        // (sign bit read from the bits: GCC 12 ICEs on a vectorised std::signbit with AVX-512)
        case SfpuUnary::Signbit:
            map_tile(t, [](float x) { return (detail::bits_of(x) >> 31) != 0 ? 1.0f : 0.0f; });
            return;
        case SfpuUnary::Floor: map_tile(t, [](float x) { return std::floor(x); }); return;
        case SfpuUnary::Ceil: map_tile(t, [](float x) { return std::ceil(x); }); return;
        case SfpuUnary::Trunc: map_tile(t, [](float x) { return std::trunc(x); }); return;
        case SfpuUnary::Elu: map_tile(t, [p](float x) { return x < 0.0f ? p * std::expm1(x) : x; }); return;
        case SfpuUnary::Erf: map_tile(t, [](float x) { return std::erf(x); }); return;
        case SfpuUnary::Erfinv: map_tile(t, [](float x) { return float(erfinv_double(x)); }); return;
        case SfpuUnary::IsInf: map_tile(t, [](float x) { return std::isinf(x) ? 1.0f : 0.0f; }); return;
        case SfpuUnary::IsNan: map_tile(t, [](float x) { return std::isnan(x) ? 1.0f : 0.0f; }); return;
        case SfpuUnary::LogicalNot: map_tile(t, [](float x) { return x == 0.0f ? 1.0f : 0.0f; }); return;
        // heaviside(x, p) = 0 for x < 0, 1 for x > 0, p for x == 0 (NaN stays NaN).
        case SfpuUnary::Heaviside:
            map_tile(t, [p](float x) { return x < 0.0f ? 0.0f : x > 0.0f ? 1.0f : std::isnan(x) ? x : p; });
            return;
        // softplus with beta 1 and threshold 20 (PyTorch's defaults): x for x > 20.
        case SfpuUnary::Softplus:
            map_tile(t, [](float x) { return x > 20.0f ? x : float(std::log1p(std::exp(double(x)))); });
            return;
        case SfpuUnary::Gtz: compare_tile(t, [](float x) { return x > 0.0f; }); return;
        case SfpuUnary::Ltz: compare_tile(t, [](float x) { return x < 0.0f; }); return;
        case SfpuUnary::Gez: compare_tile(t, [](float x) { return x >= 0.0f; }); return;
        case SfpuUnary::Lez: compare_tile(t, [](float x) { return x <= 0.0f; }); return;
        case SfpuUnary::Eqz: compare_tile(t, [](float x) { return x == 0.0f; }); return;
        case SfpuUnary::Nez: compare_tile(t, [](float x) { return x != 0.0f; }); return;
        // Compare with a scalar: an SFPU comparison of two floats (denormals read as zero).
        case SfpuUnary::UnaryEq: map_tile(t, [p](float x) { return x == p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryNe: map_tile(t, [p](float x) { return x != p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryGt: map_tile(t, [p](float x) { return x > p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryLt: map_tile(t, [p](float x) { return x < p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryGe: map_tile(t, [p](float x) { return x >= p ? 1.0f : 0.0f; }); return;
        case SfpuUnary::UnaryLe: map_tile(t, [p](float x) { return x <= p ? 1.0f : 0.0f; }); return;
        // round(x, d) = 10^-d · round_half_even(x · 10^d), in fp32 as tt-llk's _calculate_round_;
        // |x · 10^d| > 2^23 is already an integer and passes unchanged.
        case SfpuUnary::Round: {
            const int64_t d = int32_t(param);
            const float coeff = pow10_float(d), inverse = pow10_float(-d);
            map_tile(t, [coeff, inverse](float x) {
                float v = flush_denormal(x * coeff);
                if (std::fabs(v) <= 0x1p23f) v = std::nearbyint(v);  // the default mode: half to even
                return inverse * v;
            });
            return;
        }
    }
    throw Error(ErrorStatus::Unsupported,
                "Unsupported: tile::sfpu_unary: op " + std::to_string(unsigned(op)) + " is not an SfpuUnary value");
}

void sfpu_binary(SfpuBinary op, const float* a, const float* b, float* out) {
    // out may alias a or b: each element is read before it is written.
    auto map2 = [&](auto fn) {
        for (uint32_t i = 0; i < kTileElems; ++i)
            out[i] = flush_denormal(fn(flush_denormal(a[i]), flush_denormal(b[i])));
    };
    switch (op) {
        case SfpuBinary::Add: map2([](float x, float y) { return x + y; }); return;
        case SfpuBinary::Sub: map2([](float x, float y) { return x - y; }); return;
        case SfpuBinary::Rsub: map2([](float x, float y) { return y - x; }); return;
        case SfpuBinary::Mul: map2([](float x, float y) { return x * y; }); return;
        case SfpuBinary::Div: map2([](float x, float y) { return x / y; }); return;
        case SfpuBinary::Power: map2([](float x, float y) { return std::pow(x, y); }); return;
        case SfpuBinary::Max: map2([](float x, float y) { return std::fmax(x, y); }); return;
        case SfpuBinary::Min: map2([](float x, float y) { return std::fmin(x, y); }); return;
        case SfpuBinary::Eq: map2([](float x, float y) { return x == y ? 1.0f : 0.0f; }); return;
        case SfpuBinary::Ne: map2([](float x, float y) { return x != y ? 1.0f : 0.0f; }); return;
        case SfpuBinary::Lt: map2([](float x, float y) { return x < y ? 1.0f : 0.0f; }); return;
        case SfpuBinary::Gt: map2([](float x, float y) { return x > y ? 1.0f : 0.0f; }); return;
        case SfpuBinary::Le: map2([](float x, float y) { return x <= y ? 1.0f : 0.0f; }); return;
        case SfpuBinary::Ge: map2([](float x, float y) { return x >= y ? 1.0f : 0.0f; }); return;
        // Exact (libm fmod); silicon forms a − q·b, so a zero result is +0 there and here.
        case SfpuBinary::Fmod:
            map2([](float x, float y) {
                float r = std::fmod(x, y);
                return r == 0.0f ? 0.0f : r;
            });
            return;
        case SfpuBinary::Remainder:
            map2([](float x, float y) {
                float r = std::fmod(x, y);
                if (r == 0.0f) return 0.0f;
                return std::signbit(r) != std::signbit(y) ? r + y : r;
            });
            return;
    }
    throw Error(ErrorStatus::Unsupported,
                "Unsupported: tile::sfpu_binary: op " + std::to_string(unsigned(op)) + " is not an SfpuBinary value");
}

void where(const float* cond, const float* a, const float* b, float* out) {
    for (uint32_t i = 0; i < kTileElems; ++i) {
        const uint32_t c = detail::bits_of(cond[i]);
        out[i] = c != 0 ? a[i] : b[i];
    }
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
