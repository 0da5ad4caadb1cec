// SFPU (vector engine) tile ops: sfpu_unary, sfpu_binary. DST → DST, in fp32.
// Definitions follow tt-metal's compute API (ckernel_sfpu_*.h); docs/numerics.md lists each.
// Denormal inputs are read as zero and denormal results written as zero (the SFPU treats fp32
// denormals as zero, FloatBitPatterns.md). The APPROX variants compute at full accuracy except
// Gelu, whose approximate form is the tanh formula.
#include <cmath>
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
    }
    throw Error(ErrorStatus::Unsupported,
                "Unsupported: tile::sfpu_binary: op " + std::to_string(unsigned(op)) + " is not an SfpuBinary value");
}

}  // namespace zyx::emu::tile
