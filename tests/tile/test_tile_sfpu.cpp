// Every SfpuUnary and SfpuBinary op on edge values and a range, against references written here
// in double precision from the op definitions in docs/numerics.md.
//
// Comparison rule: a NaN reference needs a NaN result; an infinite reference (or one beyond
// FLT_MAX) needs that infinity; a reference below FLT_MIN needs a zero (denormal results are
// flushed); otherwise |got − ref| ≤ atol + rtol·|ref| with the tolerance given per op.
// Inputs are read by the SFPU with denormals as zero, so the references see flushed inputs too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "tile_test_util.hpp"

namespace tile = zyx::emu::tile;
using tile_test::bits;
using tile_test::from_bits;
using tile_test::Tile;
using SU = zyx::emu::tile::SfpuUnary;
using SB = zyx::emu::tile::SfpuBinary;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<float> edge_values() {
    return {0.0f,
            -0.0f,
            1.0f,
            -1.0f,
            0.5f,
            -0.5f,
            2.0f,
            -2.0f,
            3.75f,
            -3.75f,
            10.0f,
            -10.0f,
            20.5f,
            -20.5f,
            30.0f,
            -30.0f,
            88.0f,
            -88.0f,
            100.0f,
            -100.0f,
            1e-3f,
            -1e-3f,
            1e-30f,
            -1e-30f,
            1e-40f,
            -1e-40f,
            1e30f,
            -1e30f,
            kInf,
            -kInf,
            std::numeric_limits<float>::quiet_NaN(),
            std::numeric_limits<float>::max(),
            0.999f,
            -0.999f,
            0.25f,
            1.5f};
}

// Edge values first, then a ramp over [-8, 8].
Tile input_tile() {
    Tile t;
    std::vector<float> e = edge_values();
    for (int i = 0; i < 1024; ++i) t.v[i] = i < int(e.size()) ? e[i] : -8.0f + 16.0f * float(i) / 1023.0f;
    return t;
}

double flushed(double x) {
    return std::fabs(x) < double(std::numeric_limits<float>::min()) ? std::copysign(0.0, x) : x;
}

::testing::AssertionResult close(float got, double ref, double rtol, double atol) {
    if (std::isnan(ref)) {
        if (std::isnan(got)) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "expected NaN, got " << got;
    }
    if (std::fabs(ref) > double(std::numeric_limits<float>::max()) * (1 + 1e-7)) {
        if (std::isinf(got) && std::signbit(got) == std::signbit(ref)) return ::testing::AssertionSuccess();
        return ::testing::AssertionFailure() << "expected " << (ref > 0 ? "+inf" : "-inf") << ", got " << got;
    }
    ref = flushed(ref);
    if (std::fabs(double(got) - ref) <= atol + rtol * std::fabs(ref)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << " expected " << ref << " (diff "
                                         << std::fabs(double(got) - ref) << ")";
}

// erf⁻¹ by bisection on std::erf: slow, obviously right.
double erfinv_bisect(double y) {
    if (std::isnan(y) || y < -1 || y > 1) return kNaN;
    if (y == 1) return INFINITY;
    if (y == -1) return -INFINITY;
    double lo = -10, hi = 10;
    for (int i = 0; i < 200; ++i) {
        double mid = 0.5 * (lo + hi);
        (std::erf(mid) < y ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

struct UnaryCase {
    SU op;
    const char* name;
    float param;  // passed as f32 bits (PowerIterative: as an integer)
    double rtol, atol;
    std::function<double(double x, double p)> ref;
    bool raw = false;  // the op tests the unflushed word (comp.h's zero tests): denormals are not zero
};

const double R = 4e-7;     // ~3 ulp of fp32: libm / libmvec float functions and one final rounding
const double U1 = 1.2e-7;  // one rounding to fp32

std::vector<UnaryCase> unary_cases() {
    return {
        {SU::Exp, "exp", 0, R, 0, [](double x, double) { return std::exp(x); }},
        {SU::Exp2, "exp2", 0, R, 0, [](double x, double) { return std::exp2(x); }},
        {SU::Log, "log", 0, R, 0, [](double x, double) { return std::log(x); }},
        {SU::Sqrt, "sqrt", 0, R, 0, [](double x, double) { return std::sqrt(x); }},
        {SU::Rsqrt, "rsqrt", 0, R, 0, [](double x, double) { return 1.0 / std::sqrt(x); }},
        {SU::Recip, "recip", 0, R, 0, [](double x, double) { return 1.0 / x; }},
        {SU::Sin, "sin", 0, R, 1e-7, [](double x, double) { return std::sin(x); }},
        {SU::Cos, "cos", 0, R, 1e-7, [](double x, double) { return std::cos(x); }},
        {SU::Tan, "tan", 0, R, 1e-7, [](double x, double) { return std::tan(x); }},
        {SU::Negative, "negative", 0, 0, 0, [](double x, double) { return -x; }},
        {SU::Abs, "abs", 0, 0, 0, [](double x, double) { return std::fabs(x); }},
        {SU::Relu, "relu", 0, 0, 0, [](double x, double) { return x < 0 ? 0.0 : x; }},
        {SU::ReluMax, "relu_max", 6.0f, 0, 0,
         [](double x, double p) {
             return std::isnan(x) ? x : x > p ? p : x < 0 ? 0.0 : x;
         }},
        {SU::ReluMin, "relu_min", 0.5f, 0, 0, [](double x, double p) { return x < p ? p : x; }},
        {SU::LeakyRelu, "leaky_relu", 0.01f, R, 0, [](double x, double p) { return x < 0 ? x * p : x; }},
        {SU::Sigmoid, "sigmoid", 0, R, 1e-7, [](double x, double) { return 1.0 / (1.0 + std::exp(-x)); }},
        {SU::Tanh, "tanh", 0, R, 1e-7, [](double x, double) { return std::tanh(x); }},
        {SU::Gelu, "gelu", 0, R, 1e-7,
         [](double x, double) { return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }},
        {SU::Silu, "silu", 0, R, 1e-7, [](double x, double) { return x / (1.0 + std::exp(-x)); }},
        {SU::Square, "square", 0, R, 0, [](double x, double) { return x * x; }},
        {SU::Power, "power", 2.5f, R, 0, [](double x, double p) { return std::pow(x, p); }},
        {SU::PowerIterative, "power_iterative", 0, R, 0, [](double x, double) { return x * x * x; }},
        {SU::Sign, "sign", 0, 0, 0,
         [](double x, double) {
             return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
         }},
        {SU::Signbit, "signbit", 0, 0, 0, [](double x, double) { return std::signbit(x) ? 1.0 : 0.0; }},
        {SU::Floor, "floor", 0, 0, 0, [](double x, double) { return std::floor(x); }},
        {SU::Ceil, "ceil", 0, 0, 0, [](double x, double) { return std::ceil(x); }},
        {SU::Trunc, "trunc", 0, 0, 0, [](double x, double) { return std::trunc(x); }},
        {SU::Elu, "elu", 1.5f, R, 1e-7, [](double x, double p) { return x < 0 ? p * (std::exp(x) - 1) : x; }},
        {SU::Erf, "erf", 0, R, 1e-7, [](double x, double) { return std::erf(x); }},
        {SU::Erfinv, "erfinv", 0, 1e-6, 1e-7, [](double x, double) { return erfinv_bisect(x); }},
        {SU::IsInf, "isinf", 0, 0, 0, [](double x, double) { return std::isinf(x) ? 1.0 : 0.0; }},
        {SU::IsNan, "isnan", 0, 0, 0, [](double x, double) { return std::isnan(x) ? 1.0 : 0.0; }},
        {SU::LogicalNot, "logical_not", 0, 0, 0, [](double x, double) { return x == 0 ? 1.0 : 0.0; }},
        {SU::Heaviside, "heaviside", 0.25f, 0, 0,
         [](double x, double p) {
             return std::isnan(x) ? x : x < 0 ? 0.0 : x > 0 ? 1.0 : p;
         }},
        {SU::Softplus, "softplus", 0, R, 1e-7, [](double x, double) { return x > 20 ? x : std::log1p(std::exp(x)); }},
        {SU::Gtz, "gtz", 0, 0, 0, [](double x, double) { return x > 0 ? 1.0 : 0.0; }, true},
        {SU::Ltz, "ltz", 0, 0, 0, [](double x, double) { return x < 0 ? 1.0 : 0.0; }, true},
        {SU::Gez, "gez", 0, 0, 0, [](double x, double) { return x >= 0 ? 1.0 : 0.0; }, true},
        {SU::Lez, "lez", 0, 0, 0, [](double x, double) { return x <= 0 ? 1.0 : 0.0; }, true},
        {SU::Eqz, "eqz", 0, 0, 0, [](double x, double) { return x == 0 ? 1.0 : 0.0; }, true},
        {SU::Nez, "nez", 0, 0, 0, [](double x, double) { return x != 0 ? 1.0 : 0.0; }, true},
        {SU::UnaryEq, "unary_eq", 0.5f, 0, 0, [](double x, double p) { return x == p ? 1.0 : 0.0; }},
        {SU::UnaryNe, "unary_ne", 0.5f, 0, 0, [](double x, double p) { return x != p ? 1.0 : 0.0; }},
        {SU::UnaryGt, "unary_gt", 0.5f, 0, 0, [](double x, double p) { return x > p ? 1.0 : 0.0; }},
        {SU::UnaryLt, "unary_lt", 0.5f, 0, 0, [](double x, double p) { return x < p ? 1.0 : 0.0; }},
        {SU::UnaryGe, "unary_ge", 0.5f, 0, 0, [](double x, double p) { return x >= p ? 1.0 : 0.0; }},
        {SU::UnaryLe, "unary_le", 0.5f, 0, 0, [](double x, double p) { return x <= p ? 1.0 : 0.0; }},
        // round_tile at 0 decimals: half to even (the param is the number of decimals, here 0)
        {SU::Round, "round", 0, 0, 0, [](double x, double) { return std::nearbyint(x); }},
        // binop_with_scalar.h: one fp32 operation with the scalar (DivScalar multiplies: the
        // kernel passes the reciprocal of the divisor)
        {SU::AddScalar, "add_scalar", 0.3f, U1, 0, [](double x, double p) { return x + p; }},
        {SU::SubScalar, "sub_scalar", 0.3f, U1, 0, [](double x, double p) { return x - p; }},
        {SU::MulScalar, "mul_scalar", 0.3f, U1, 0, [](double x, double p) { return x * p; }},
        {SU::DivScalar, "div_scalar", 0.3f, U1, 0, [](double x, double p) { return x * p; }},
        {SU::RsubScalar, "rsub_scalar", 0.3f, U1, 0, [](double x, double p) { return p - x; }},
    };
}

}  // namespace

TEST(TileSfpuUnary, EveryOpMatchesItsDefinition) {
    const Tile in = input_tile();
    std::vector<UnaryCase> cases = unary_cases();
    // Every SfpuUnary value is covered (RsubScalar is the last enumerator).
    EXPECT_EQ(cases.size(), size_t(SU::RsubScalar) + 1);
    for (const UnaryCase& k : cases) {
        Tile t = in;
        uint32_t param = k.op == SU::PowerIterative ? 3u : k.op == SU::Round ? 0u : bits(k.param);
        tile::sfpu_unary(k.op, t.v, param, /*approx=*/false);
        for (int i = 0; i < 1024; ++i) {
            double x = k.raw ? double(in.v[i]) : flushed(in.v[i]);
            ASSERT_TRUE(close(t.v[i], k.ref(x, double(k.param)), k.rtol, k.atol))
                << k.name << "(" << in.v[i] << ") at element " << i;
        }
    }
}

TEST(TileSfpuUnary, DenormalInputsReadAsZeroAndResultsFlush) {
    Tile t;
    tile::fill(t.v, -1e-40f);
    tile::sfpu_unary(SU::Sign, t.v, 0, false);
    EXPECT_EQ(t.v[0], 0.0f);  // IEEE sign(-1e-40) would be -1
    tile::fill(t.v, -1e-40f);
    tile::sfpu_unary(SU::Signbit, t.v, 0, false);
    EXPECT_EQ(t.v[0], 1.0f);  // read as −0
    tile::fill(t.v, -100.0f);
    tile::sfpu_unary(SU::Exp, t.v, 0, false);
    EXPECT_EQ(bits(t.v[0]), 0u);  // e^-100 ≈ 3.7e-44 is denormal → 0
}

namespace {

// A tile with denormals of both signs among ordinary values, and the same tile with each
// denormal replaced by the zero of its sign (what the SFPU reads).
struct DenormalTiles {
    Tile raw, flushed;
};
DenormalTiles denormal_tiles(uint32_t seed) {
    std::mt19937 rng(seed);
    const float dn[] = {
        1e-40f, -1e-40f, from_bits(1), from_bits(0x80000001u), from_bits(0x007fffffu), from_bits(0x807fffffu)};
    DenormalTiles d;
    for (int i = 0; i < 1024; ++i) {
        const float x = i % 3 == 0 ? dn[(i / 3) % 6] : tile_test::random_bf16(rng, -3, 3);
        d.raw.v[i] = x;
        d.flushed.v[i] = std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
    }
    return d;
}

}  // namespace

// Ops read a denormal input exactly as the zero of its sign, bit for bit in every result
// (most ops leave that to the host's DAZ flag), except comp.h's zero tests, which see the raw
// word.
TEST(TileSfpuUnary, DenormalInputsGiveTheResultsOfTheirZeros) {
    const DenormalTiles d = denormal_tiles(3);
    for (uint32_t k = 0; k <= uint32_t(SU::RsubScalar); ++k) {
        const SU op = SU(k);
        if (op >= SU::Gtz && op <= SU::Nez) continue;
        const uint32_t param = op == SU::PowerIterative ? 3u : op == SU::Round ? 1u : bits(0.75f);
        for (bool approx : {false, true}) {
            Tile a = d.raw, b = d.flushed;
            tile::sfpu_unary(op, a.v, param, approx);
            tile::sfpu_unary(op, b.v, param, approx);
            for (int i = 0; i < 1024; ++i)
                ASSERT_EQ(bits(a.v[i]), bits(b.v[i])) << "op " << k << " on " << d.raw.v[i] << " (element " << i << ")";
        }
    }
}

TEST(TileSfpuBinary, DenormalInputsGiveTheResultsOfTheirZeros) {
    const DenormalTiles x = denormal_tiles(5), y = denormal_tiles(6);
    for (uint32_t k = 0; k <= uint32_t(SB::Remainder); ++k) {
        Tile a, b;
        tile::sfpu_binary(SB(k), x.raw.v, y.raw.v, a.v);
        tile::sfpu_binary(SB(k), x.flushed.v, y.flushed.v, b.v);
        for (int i = 0; i < 1024; ++i)
            ASSERT_EQ(bits(a.v[i]), bits(b.v[i])) << "op " << k << " on " << x.raw.v[i] << ", " << y.raw.v[i];
    }
}

TEST(TileSfpuBinary, ScalarOperandIsTheFilledTile) {
    // sfpu_binary_scalar(op, a, w) is sfpu_binary(op, a, fill_bits(w)) bit for bit, in both orders.
    std::vector<float> e = edge_values();
    std::mt19937 rng(43);
    Tile a;
    for (int i = 0; i < 1024; ++i) a.v[i] = i < int(e.size()) ? e[i] : tile_test::random_bf16(rng, -6, 6);
    const float words[] = {0.0f, -0.0f, 2.5f, -1.5f, 1e-40f, kInf, -kInf, std::numeric_limits<float>::quiet_NaN(),
                           0.3f};
    for (float w : words)
        for (uint32_t k = 0; k <= uint32_t(SB::Remainder); ++k) {
            Tile filled, want, got;
            tile::fill_bits(filled.v, bits(w));
            tile::sfpu_binary(SB(k), a.v, filled.v, want.v);
            tile::sfpu_binary_scalar(SB(k), a.v, bits(w), got.v);
            for (int i = 0; i < 1024; ++i)
                ASSERT_EQ(bits(got.v[i]), bits(want.v[i])) << "op " << k << " (" << a.v[i] << ", " << w << ")";
            tile::sfpu_binary(SB(k), filled.v, a.v, want.v);
            got = a;
            tile::sfpu_binary_scalar(SB(k), bits(w), got.v, got.v);  // in place over the tile operand
            for (int i = 0; i < 1024; ++i)
                ASSERT_EQ(bits(got.v[i]), bits(want.v[i])) << "op " << k << " (" << w << ", " << a.v[i] << ")";
        }
}

TEST(TileSfpuBinary, PowerFollowsCsSpecialCases) {
    // C's pow on signed zeros, infinities, NaN, −1 and negative bases (odd / even / non-integer
    // exponents): the sign and NaN-ness of glibc's powf, the value within 1 ulp.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float xs[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f, -0.5f, kInf, -kInf, nan, -8.0f, 3e20f, -3e20f};
    const float ys[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f,  -2.0f, 3.0f,    -3.0f,
                        0.5f, -0.5f, 2.5f, kInf,  -kInf, nan,   0x1p25f, 1e30f};
    Tile a, b, o;
    int n = 0;
    for (float x : xs)
        for (float y : ys) a.v[n] = x, b.v[n] = y, ++n;
    for (int i = n; i < 1024; ++i) a.v[i] = 1.0f, b.v[i] = 1.0f;
    tile::sfpu_binary(SB::Power, a.v, b.v, o.v);
    for (int i = 0; i < n; ++i) {
        const float want = std::pow(a.v[i], b.v[i]);
        const std::string what = "pow(" + std::to_string(a.v[i]) + ", " + std::to_string(b.v[i]) + ")";
        ASSERT_EQ(std::isnan(o.v[i]), std::isnan(want)) << what << " = " << o.v[i];
        if (std::isnan(want)) continue;
        ASSERT_EQ(std::signbit(o.v[i]), std::signbit(want)) << what << " = " << o.v[i];
        ASSERT_TRUE(close(o.v[i], want, 1.2e-7, 0)) << what;
    }
}

TEST(TileSfpuBinary, ProductsRoundThenFlush) {
    // (1 − 2^-24) · 2^-126 = 2^-126 − 2^-150 exactly: IEEE rounding to the denormal grid gives
    // 2^-126 (a normal number, kept); a flush decided before that rounding would give 0.
    Tile a, b, o;
    tile::fill(a.v, 1.0f - 0x1p-24f);
    tile::fill(b.v, 0x1p-126f);
    tile::sfpu_binary(SB::Mul, a.v, b.v, o.v);
    EXPECT_EQ(o.v[0], 0x1p-126f);
    tile::sfpu_unary(SU::MulScalar, a.v, bits(0x1p-126f), false);
    EXPECT_EQ(a.v[0], 0x1p-126f);
    // Sums: an exact result in the denormal range is flushed to the zero of its sign.
    tile::fill(a.v, 0x1.8p-126f);
    tile::fill(b.v, 0x1.4p-126f);
    tile::sfpu_binary(SB::Sub, a.v, b.v, o.v);
    EXPECT_EQ(bits(o.v[0]), 0u);
    tile::sfpu_binary(SB::Rsub, a.v, b.v, o.v);
    EXPECT_EQ(bits(o.v[0]), 0x80000000u);
    tile::sfpu_unary(SU::SubScalar, a.v, bits(0x1.4p-126f), false);
    EXPECT_EQ(bits(a.v[0]), 0u);
}

TEST(TileSfpuBinary, MaxMinAreFmaxFminBitForBit) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, nan, -nan, kInf, -kInf, 1e-40f, -1e-40f, 2.5f};
    Tile a, b, mx, mn;
    int n = 0;
    for (float x : v)
        for (float y : v) a.v[n] = x, b.v[n] = y, ++n;
    for (; n < 1024; ++n) a.v[n] = float(n % 7) - 3.0f, b.v[n] = float(n % 5) - 2.0f;
    tile::sfpu_binary(SB::Max, a.v, b.v, mx.v);
    tile::sfpu_binary(SB::Min, a.v, b.v, mn.v);
    auto fl = [](float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; };
    for (int i = 0; i < 1024; ++i) {
        // glibc's fmaxf / fminf of the flushed inputs: a NaN loses, (±0, ∓0) gives the second,
        // two NaNs give the first.
        ASSERT_EQ(bits(mx.v[i]), bits(std::fmax(fl(a.v[i]), fl(b.v[i])))) << "max(" << a.v[i] << ", " << b.v[i] << ")";
        ASSERT_EQ(bits(mn.v[i]), bits(std::fmin(fl(a.v[i]), fl(b.v[i])))) << "min(" << a.v[i] << ", " << b.v[i] << ")";
    }
}

TEST(TileSfpuUnary, ApproxGeluIsTheTanhFormOthersStayAccurate) {
    const Tile in = input_tile();
    Tile g = in, e = in;
    tile::sfpu_unary(SU::Gelu, g.v, 0, /*approx=*/true);
    tile::sfpu_unary(SU::Exp, e.v, 0, /*approx=*/true);
    for (int i = 0; i < 1024; ++i) {
        double x = flushed(in.v[i]);
        double ref = std::isinf(x) ? (x > 0 ? x : 0.0)
                                   : 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
        ASSERT_TRUE(close(g.v[i], ref, R, 1e-7)) << "gelu approx(" << in.v[i] << ")";
        ASSERT_TRUE(close(e.v[i], std::exp(x), R, 0)) << "exp approx(" << in.v[i] << ")";
    }
    // The two gelu forms differ somewhere (else approx would not be modelled).
    Tile exact = in;
    tile::sfpu_unary(SU::Gelu, exact.v, 0, false);
    double diff = 0;
    for (int i = 40; i < 1024; ++i) diff = std::max(diff, double(std::fabs(exact.v[i] - g.v[i])));
    EXPECT_GT(diff, 1e-5);
}

// The vectorised functions (glibc's libmvec, and erf: ours) against double references on a sweep
// of fp32 bit patterns (every 65521st: all binades, both signs), in ulps of the exact result:
// within libmvec's documented 4 ulp for the fp32 ones, within 1 ulp (one rounding of a double
// result) for the ops computed in double, 0.63 for erf (ErfIsWithinItsBoundOnEveryThirdFloat
// below sweeps it densely). docs/numerics.md §6 has the maxima of a denser sweep.
TEST(TileSfpuUnary, VectorisedFunctionsStayWithinTheirUlpBounds) {
    struct Case {
        SU op;
        const char* name;
        float param;
        bool approx;
        double max_ulp;
        std::function<double(double, double)> ref;
    };
    const std::vector<Case> cases = {
        {SU::Exp, "exp", 0, false, 4, [](double x, double) { return std::exp(x); }},
        {SU::Exp2, "exp2", 0, false, 4, [](double x, double) { return std::exp2(x); }},
        {SU::Log, "log", 0, false, 4, [](double x, double) { return std::log(x); }},
        {SU::Sin, "sin", 0, false, 4, [](double x, double) { return std::sin(x); }},
        {SU::Cos, "cos", 0, false, 4, [](double x, double) { return std::cos(x); }},
        {SU::Tan, "tan", 0, false, 4, [](double x, double) { return std::tan(x); }},
        {SU::Tanh, "tanh", 0, false, 4, [](double x, double) { return std::tanh(x); }},
        {SU::Erf, "erf", 0, false, 0.63, [](double x, double) { return std::erf(x); }},
        {SU::Sigmoid, "sigmoid", 0, false, 4, [](double x, double) { return 1.0 / (1.0 + std::exp(-x)); }},
        {SU::Elu, "elu", 1.0f, false, 4, [](double x, double p) { return x < 0 ? p * std::expm1(x) : x; }},
        {SU::Softplus, "softplus", 0, false, 4, [](double x, double) { return x > 20 ? x : std::log1p(std::exp(x)); }},
        {SU::Power, "power", 2.5f, false, 4, [](double x, double p) { return std::pow(x, p); }},
        {SU::Silu, "silu", 0, false, 1, [](double x, double) { return x / (1.0 + std::exp(-x)); }},
        {SU::Gelu, "gelu", 0, false, 1,
         [](double x, double) { return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }},
        {SU::Gelu, "gelu approx", 0, true, 1,
         [](double x, double) {
             if (std::isinf(x)) return x > 0 ? x : 0.0;
             const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
             return x / (1.0 + std::exp(-2.0 * u));
         }},
    };
    for (const Case& k : cases) {
        double worst = 0, worst_x = 0;
        Tile in, t;
        uint64_t u = 0;
        while (u < (uint64_t(1) << 32)) {
            int n = 0;
            for (; n < 1024 && u < (uint64_t(1) << 32); ++n, u += 65521) in.v[n] = from_bits(uint32_t(u));
            for (int i = n; i < 1024; ++i) in.v[i] = 1.0f;
            t = in;
            tile::sfpu_unary(k.op, t.v, bits(k.param), k.approx);
            for (int i = 0; i < n; ++i) {
                const double ref = k.ref(flushed(in.v[i]), double(k.param));
                const float got = t.v[i];
                // NaN, infinite and denormal-range references: exactly as the other tests.
                if (std::isnan(ref) || std::fabs(ref) > double(std::numeric_limits<float>::max()) ||
                    std::fabs(ref) < double(std::numeric_limits<float>::min())) {
                    ASSERT_TRUE(close(got, ref, 1e-6, 0)) << k.name << "(" << in.v[i] << ")";
                    continue;
                }
                int e;
                std::frexp(ref, &e);
                const double ulps = std::fabs(double(got) - ref) / std::ldexp(1.0, std::max(e - 1, -126) - 23);
                if (ulps > worst) worst = ulps, worst_x = in.v[i];
            }
        }
        EXPECT_LE(worst, k.max_ulp) << k.name << ": " << worst << " ulp at x = " << worst_x;
    }
}

// erf (ours: piecewise polynomials in fp32, tile_sfpu.cpp) against glibc's erf in double on
// every third fp32 bit pattern from FLT_MIN to +inf, and on their negations: within 0.63 ulp of
// the exact value (an exhaustive sweep against erfl measured 0.6206: the final rounding's 0.5
// plus the fp32 tail's rounding and the polynomials' error), odd bit for bit, non-decreasing,
// exactly 1 from x = 4 on (from 3.9193 the exact value rounds to 1). Inputs below FLT_MIN are
// denormals, read as zero (ErfSpecialValues). ErfIsMonotonicOnEveryFloatWhereItIsFlat checks
// every float where a step of one ulp moves erf least.
TEST(TileSfpuUnary, ErfIsWithinItsBoundOnEveryThirdFloat) {
    double worst = 0, worst_x = 0;
    float last = 0.0f;  // the previous result: erf is non-decreasing
    Tile in, pos, neg;
    const uint64_t four = 0x40800000, end = 0x7f800000;  // 4.0f, +inf
    uint64_t u = 0x00800000;                             // FLT_MIN
    while (u < end) {
        int n = 0;
        for (; n < 1024 && u < end; ++n, u += 3) in.v[n] = from_bits(uint32_t(u));
        for (int i = n; i < 1024; ++i) in.v[i] = 1.0f;
        pos = in;
        tile::sfpu_unary(SU::Erf, pos.v, 0, false);
        for (int i = 0; i < 1024; ++i) neg.v[i] = -in.v[i];
        tile::sfpu_unary(SU::Erf, neg.v, 0, false);
        for (int i = 0; i < n; ++i) {
            const float x = in.v[i], y = pos.v[i];
            // (plain tests: gtest's assertions cost more than the sweep itself)
            if (bits(neg.v[i]) != bits(-y))
                FAIL() << "erf(" << -x << ") = " << neg.v[i] << " is not -erf(" << x << ") = " << -y;
            if (!(y >= last)) FAIL() << "erf decreases at x = " << x << ": " << y << " after " << last;
            last = y;
            if (bits(x) >= four) {
                if (y != 1.0f) FAIL() << "erf(" << x << ") = " << y << ", not 1";
                continue;
            }
            const double ref = std::erf(double(x));  // in [FLT_MIN, 1)
            // the ulp of ref's fp32 binade: 2^(exponent − 23), from the bits of the double
            const double ulp =
                std::bit_cast<double>((std::bit_cast<uint64_t>(ref) & 0x7ff0000000000000u) - (uint64_t(23) << 52));
            const double ulps = std::fabs(double(y) - ref) / ulp;
            if (ulps > worst) worst = ulps, worst_x = x;
        }
    }
    std::printf("erf: max %.4f ulp at x = %.9g\n", worst, worst_x);
    EXPECT_LE(worst, 0.63) << "at x = " << worst_x;
}

// erf's result must not decrease from one float to the next. Where erf is flat (toward 3.92,
// erf(x) rises by ~10⁻⁶ ulp per ulp of x) the fp32 rounding noise of the evaluation could break
// that, and at the pieces' boundaries the polynomials change: every float of [2, 4), and 2^14
// floats on each side of every piece boundary (k + ½)/8 and of the split 9/16, plus the first
// 2^18 floats from FLT_MIN (where the table's 2^32 scaling keeps the tail normal), each within
// 0.63 ulp.
TEST(TileSfpuUnary, ErfIsMonotonicOnEveryFloatWhereItIsFlat) {
    std::vector<std::pair<uint32_t, uint32_t>> ranges = {{bits(2.0f), bits(4.0f)},
                                                         {0x00800000u, 0x00800000u + (1u << 18)}};
    for (int k = 0; k < 32; ++k) {
        const uint32_t b = bits((k + 0.5f) / 8);
        ranges.push_back({b - (1u << 14), b + (1u << 14)});
    }
    const uint32_t split = bits(0.5625f);
    ranges.push_back({split - (1u << 14), split + (1u << 14)});
    double worst = 0, worst_x = 0;
    Tile in, out;
    for (const auto& [begin, end] : ranges) {
        float last = -1.0f;
        for (uint32_t u = begin; u < end;) {
            int n = 0;
            for (; n < 1024 && u < end; ++n, ++u) in.v[n] = from_bits(u);
            for (int i = n; i < 1024; ++i) in.v[i] = 1.0f;
            out = in;
            tile::sfpu_unary(SU::Erf, out.v, 0, false);
            for (int i = 0; i < n; ++i) {
                const float x = in.v[i], y = out.v[i];
                if (!(y >= last))
                    FAIL() << "erf decreases at x = " << x << " (" << std::hex << bits(x) << "): " << y << " after "
                           << last;
                last = y;
                const double ref = std::erf(double(x));
                if (ref >= 1.0 - 0x1p-25) continue;  // rounds to 1 (ErfIsWithinItsBoundOnEveryThirdFloat checks those)
                const double ulp =
                    std::bit_cast<double>((std::bit_cast<uint64_t>(ref) & 0x7ff0000000000000u) - (uint64_t(23) << 52));
                const double ulps = std::fabs(double(y) - ref) / ulp;
                if (ulps > worst) worst = ulps, worst_x = x;
            }
        }
    }
    EXPECT_LE(worst, 0.63) << "at x = " << worst_x;
}

TEST(TileSfpuUnary, ErfSpecialValues) {
    const float fmin = std::numeric_limits<float>::min(), fmax = std::numeric_limits<float>::max();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    // input, expected result (compared bit for bit)
    const std::vector<std::pair<float, float>> cases = {
        {0.0f, 0.0f},
        {-0.0f, -0.0f},
        {kInf, 1.0f},
        {-kInf, -1.0f},
        {fmax, 1.0f},
        {-fmax, -1.0f},
        {1e-40f, 0.0f},
        {-1e-40f, -0.0f},
        {from_bits(0x007fffff), 0.0f},
        {from_bits(0x807fffff), -0.0f},  // denormals
        {fmin, float(M_2_SQRTPI * double(fmin))},
        {-fmin, -float(M_2_SQRTPI * double(fmin))},  // erf(x) = 2x/√π there
        {4.0f, 1.0f},
        {3.95f, 1.0f},
        {-100.0f, -1.0f},
        {1.0f, float(std::erf(1.0))},
        {-0.5f, float(std::erf(-0.5))},
        {0.25f, float(std::erf(0.25))},
        {3.75f, float(std::erf(3.75))},
    };
    Tile t;
    tile::fill(t.v, nan);
    for (size_t i = 0; i < cases.size(); ++i) t.v[i] = cases[i].first;
    tile::sfpu_unary(SU::Erf, t.v, 0, false);
    for (size_t i = 0; i < cases.size(); ++i)
        EXPECT_EQ(bits(t.v[i]), bits(cases[i].second))
            << "erf(" << cases[i].first << ") = " << t.v[i] << ", expected " << cases[i].second;
    for (size_t i = cases.size(); i < 1024; ++i) ASSERT_TRUE(std::isnan(t.v[i]));
    // a NaN keeps its sign
    tile::fill(t.v, -nan);
    tile::sfpu_unary(SU::Erf, t.v, 0, false);
    EXPECT_TRUE(std::isnan(t.v[0]) && std::signbit(t.v[0]));
}

TEST(TileSfpuUnary, ErfinvInvertsErf) {
    Tile t;
    for (int i = 0; i < 1024; ++i) t.v[i] = -0.999f + 1.998f * float(i) / 1023.0f;
    Tile y = t;
    tile::sfpu_unary(SU::Erfinv, y.v, 0, false);
    for (int i = 0; i < 1024; ++i) ASSERT_NEAR(std::erf(double(y.v[i])), double(t.v[i]), 2e-7) << t.v[i];
    tile::fill(t.v, 1.0f);
    tile::sfpu_unary(SU::Erfinv, t.v, 0, false);
    EXPECT_EQ(t.v[0], kInf);
    tile::fill(t.v, 1.5f);
    tile::sfpu_unary(SU::Erfinv, t.v, 0, false);
    EXPECT_TRUE(std::isnan(t.v[0]));
}

TEST(TileSfpuUnary, UnknownOpIsUnsupported) {
    Tile t;
    tile::fill(t.v, 2.0f);
    try {
        tile::sfpu_unary(SU(200), t.v, 0, false);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
        EXPECT_EQ(e.message().rfind("Unsupported:", 0), 0u) << e.message();
        EXPECT_NE(e.message().find("200"), std::string::npos) << e.message();
    }
    EXPECT_EQ(t.v[0], 2.0f);
}

// ---- binary -------------------------------------------------------------------------------------

TEST(TileSfpuBinary, EveryOpOnEdgePairs) {
    // Tile a × tile b covers edge × edge pairs, then random pairs.
    std::vector<float> e = edge_values();
    std::mt19937 rng(41);
    Tile a, b;
    int n = 0;
    for (float x : e)
        for (float y : e)
            if (n < 1024) a.v[n] = x, b.v[n] = y, ++n;
    for (; n < 1024; ++n) a.v[n] = tile_test::random_bf16(rng, -6, 6), b.v[n] = tile_test::random_bf16(rng, -6, 6);

    struct BinCase {
        SB op;
        const char* name;
        double rtol;
        std::function<double(double, double)> ref;
    };
    const double U = 1.2e-7;  // one rounding to fp32
    const std::vector<BinCase> cases = {
        {SB::Add, "add", U, [](double x, double y) { return x + y; }},
        {SB::Sub, "sub", U, [](double x, double y) { return x - y; }},
        {SB::Rsub, "rsub", U, [](double x, double y) { return y - x; }},
        {SB::Mul, "mul", U, [](double x, double y) { return x * y; }},
        {SB::Div, "div", U, [](double x, double y) { return x / y; }},
        {SB::Power, "power", R, [](double x, double y) { return std::pow(x, y); }},
        {SB::Max, "max", 0, [](double x, double y) { return std::fmax(x, y); }},
        {SB::Min, "min", 0, [](double x, double y) { return std::fmin(x, y); }},
        {SB::Eq, "eq", 0, [](double x, double y) { return x == y ? 1.0 : 0.0; }},
        {SB::Ne, "ne", 0, [](double x, double y) { return x != y ? 1.0 : 0.0; }},
        {SB::Lt, "lt", 0, [](double x, double y) { return x < y ? 1.0 : 0.0; }},
        {SB::Gt, "gt", 0, [](double x, double y) { return x > y ? 1.0 : 0.0; }},
        {SB::Le, "le", 0, [](double x, double y) { return x <= y ? 1.0 : 0.0; }},
        {SB::Ge, "ge", 0, [](double x, double y) { return x >= y ? 1.0 : 0.0; }},
        // fmod is exact; a zero result is +0. remainder takes the sign of y (one rounding).
        {SB::Fmod, "fmod", 0,
         [](double x, double y) {
             double r = std::fmod(x, y);
             return r == 0 ? 0.0 : r;
         }},
        {SB::Remainder, "remainder", U,
         [](double x, double y) {
             double r = std::fmod(x, y);
             if (r == 0) return 0.0;
             return std::signbit(r) != std::signbit(y) ? r + y : r;
         }},
    };
    EXPECT_EQ(cases.size(), size_t(SB::Remainder) + 1);
    for (const BinCase& k : cases) {
        Tile out;
        tile::sfpu_binary(k.op, a.v, b.v, out.v);
        for (int i = 0; i < 1024; ++i) {
            double x = flushed(a.v[i]), y = flushed(b.v[i]);
            double ref = k.ref(x, y);
            // x·y or x+y may land just past FLT_MAX after rounding; compare in fp32 then.
            ASSERT_TRUE(close(out.v[i], ref, k.rtol, 0)) << k.name << "(" << a.v[i] << ", " << b.v[i] << ")";
        }
    }
}

TEST(TileSfpuBinary, OutputMayAliasAnInput) {
    Tile a, b;
    for (int i = 0; i < 1024; ++i) a.v[i] = float(i), b.v[i] = 2.0f;
    tile::sfpu_binary(SB::Sub, a.v, b.v, a.v);
    tile::sfpu_binary(SB::Mul, a.v, b.v, b.v);
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(a.v[i], float(i) - 2.0f);
        ASSERT_EQ(b.v[i], (float(i) - 2.0f) * 2.0f);
    }
}

TEST(TileSfpuBinary, UnknownOpIsUnsupported) {
    Tile a, b, o;
    EXPECT_THROW(tile::sfpu_binary(SB(99), a.v, b.v, o.v), zyx::Error);
}

TEST(TileSfpuBinary, FmodAndRemainderSigns) {
    // PyTorch's fmod / remainder on the four sign combinations, and zero results are +0.
    Tile a, b, f, r;
    const float xs[] = {7.5f, -7.5f, 7.5f, -7.5f, -4.0f, 4.0f, 3.0f, 1.0f};
    const float ys[] = {2.0f, 2.0f, -2.0f, -2.0f, 2.0f, -2.0f, 0.0f, kInf};
    for (int i = 0; i < 8; ++i) a.v[i] = xs[i], b.v[i] = ys[i];
    tile::sfpu_binary(SB::Fmod, a.v, b.v, f.v);
    tile::sfpu_binary(SB::Remainder, a.v, b.v, r.v);
    const float fmod_want[] = {1.5f, -1.5f, 1.5f, -1.5f, 0.0f, 0.0f};
    const float rem_want[] = {1.5f, 0.5f, -0.5f, -1.5f, 0.0f, 0.0f};
    for (int i = 0; i < 6; ++i) {
        EXPECT_EQ(bits(f.v[i]), bits(fmod_want[i])) << "fmod(" << xs[i] << ", " << ys[i] << ") = " << f.v[i];
        EXPECT_EQ(bits(r.v[i]), bits(rem_want[i])) << "remainder(" << xs[i] << ", " << ys[i] << ") = " << r.v[i];
    }
    EXPECT_TRUE(std::isnan(f.v[6]));  // division by zero
    EXPECT_TRUE(std::isnan(r.v[6]));
    EXPECT_EQ(f.v[7], 1.0f);
    EXPECT_EQ(r.v[7], 1.0f);
}

// ---- comp.h, round_tile ---------------------------------------------------------------------------

TEST(TileSfpuCompare, ZeroTestsSeeTheRawWordAndNaNIsFalseExceptNez) {
    const float in[] = {0.0f, -0.0f, 1e-40f, -1e-40f, std::numeric_limits<float>::quiet_NaN(), -kInf, 2.0f, -2.0f};
    // gtz ltz gez lez eqz nez for each input
    const float want[][6] = {{0, 0, 1, 1, 1, 0}, {0, 0, 1, 1, 1, 0}, {1, 0, 1, 0, 0, 1}, {0, 1, 0, 1, 0, 1},
                             {0, 0, 0, 0, 0, 1}, {0, 1, 0, 1, 0, 1}, {1, 0, 1, 0, 0, 1}, {0, 1, 0, 1, 0, 1}};
    const SU ops[] = {SU::Gtz, SU::Ltz, SU::Gez, SU::Lez, SU::Eqz, SU::Nez};
    for (int k = 0; k < 6; ++k) {
        Tile t;
        for (int i = 0; i < 8; ++i) t.v[i] = in[i];
        tile::sfpu_unary(ops[k], t.v, 0, false);
        for (int i = 0; i < 8; ++i) EXPECT_EQ(t.v[i], want[i][k]) << "op " << k << " on " << in[i];
    }
}

TEST(TileSfpuCompare, ScalarComparisonsReadDenormalsAsZero) {
    Tile t;
    tile::fill(t.v, 1e-40f);
    tile::sfpu_unary(SU::UnaryEq, t.v, bits(0.0f), false);
    EXPECT_EQ(t.v[0], 1.0f);
    tile::fill(t.v, std::numeric_limits<float>::quiet_NaN());
    tile::sfpu_unary(SU::UnaryNe, t.v, bits(1.0f), false);
    EXPECT_EQ(t.v[0], 1.0f);
    tile::fill(t.v, std::numeric_limits<float>::quiet_NaN());
    tile::sfpu_unary(SU::UnaryGe, t.v, bits(1.0f), false);
    EXPECT_EQ(t.v[0], 0.0f);
}

TEST(TileSfpuRound, HalfToEvenAtDecimals) {
    struct Case {
        float x;
        int32_t d;
        float want;
    };
    const Case cases[] = {
        {2.5f, 0, 2.0f},
        {3.5f, 0, 4.0f},
        {-2.5f, 0, -2.0f},
        {0.4f, 0, 0.0f},
        {1.25f, 1, 1.2f},
        {1.35f, 1, 1.4f},
        {1234.5f, -1, 1230.0f},
        {1250.0f, -2, 1200.0f},
        {0x1p24f + 2.0f, 0, 0x1p24f + 2.0f},
        {kInf, 2, kInf},
        {1.0f, 39, std::numeric_limits<float>::quiet_NaN()},
    };
    for (const Case& c : cases) {
        Tile t;
        tile::fill(t.v, c.x);
        tile::sfpu_unary(SU::Round, t.v, uint32_t(c.d), false);
        // The reference is the fp32 formula: 10^-d · round_half_even(x · 10^d).
        float coeff = std::strtof(("1e" + std::to_string(c.d)).c_str(), nullptr);
        float inverse = std::strtof(("1e" + std::to_string(-c.d)).c_str(), nullptr);
        float v = c.x * coeff;
        if (std::fabs(v) <= 0x1p23f) v = std::nearbyint(v);
        float ref = c.d > 38 ? std::numeric_limits<float>::quiet_NaN() : inverse * v;  // inf · 0
        if (std::isnan(c.want)) {
            EXPECT_TRUE(std::isnan(t.v[0])) << c.x << " at " << c.d;
            continue;
        }
        EXPECT_EQ(t.v[0], ref) << c.x << " at " << c.d;
        if (!std::isinf(c.want)) { EXPECT_NEAR(t.v[0], c.want, std::fabs(c.want) * 1e-6) << c.x << " at " << c.d; }
    }
}

// ---- where --------------------------------------------------------------------------------------

TEST(TileWhere, TheConditionIsTestedOnItsBits) {
    Tile c, a, b, o;
    const float conds[] = {0.0f, -0.0f, 1e-40f, std::numeric_limits<float>::quiet_NaN(), 1.0f, -3.0f};
    for (int i = 0; i < 1024; ++i) {
        c.v[i] = i < 6 ? conds[i] : float(i % 2);
        a.v[i] = from_bits(0x3f800001u + uint32_t(i));  // full fp32 mantissas: moved, not rounded
        b.v[i] = -float(i);
    }
    tile::where(c.v, a.v, b.v, o.v);
    for (int i = 0; i < 1024; ++i) {
        bool take_a = bits(c.v[i]) != 0;
        ASSERT_EQ(bits(o.v[i]), bits(take_a ? a.v[i] : b.v[i])) << i;
    }
    EXPECT_EQ(o.v[0], b.v[0]);              // +0 → false
    EXPECT_EQ(bits(o.v[1]), bits(a.v[1]));  // −0 is a nonzero word → true
    Tile alias = c;
    tile::where(alias.v, a.v, b.v, alias.v);  // output over the condition
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(bits(alias.v[i]), bits(o.v[i])) << i;
}

// ---- sfpu_reduce ----------------------------------------------------------------------------------

namespace {

// Checks rows 1–3 hold the scratch word and rows 4–31 are the input's.
void expect_reduce_footprint(const Tile& in, const Tile& out, uint32_t scratch, const char* what) {
    for (int r = 1; r < 32; ++r)
        for (int c = 0; c < 32; ++c) {
            uint32_t want = r < 4 ? scratch : bits(in.at(r, c));
            ASSERT_EQ(bits(out.at(r, c)), want) << what << " row " << r << " col " << c;
        }
}

}  // namespace

TEST(TileSfpuReduce, FloatSumIsExactAndAvgDividesBy32) {
    std::mt19937 rng(7);
    Tile in = tile_test::random_bf16_tile(rng);
    // Column 0: 1 + 31·2^-24 sums to 1 + 2^-19 exactly rounded; fp32 adds in row order give 1.
    in.at(0, 0) = 1.0f;
    for (int r = 1; r < 32; ++r) in.at(r, 0) = 0x1p-24f;
    // Column 1: full fp32 mantissas (no TF32 truncation): 32 · (1 + 2^-23).
    for (int r = 0; r < 32; ++r) in.at(r, 1) = 1.0f + 0x1p-23f;
    for (zyx::emu::DataFormat fmt : {zyx::emu::DataFormat::Float32, zyx::emu::DataFormat::Float16_b})
        for (tile::PoolType pool : {tile::PoolType::Sum, tile::PoolType::Avg}) {
            Tile t = in;
            tile::sfpu_reduce_col(pool, fmt, t.v);
            for (int c = 0; c < 32; ++c) {
                long double s = 0;
                for (int r = 0; r < 32; ++r) s += in.at(r, c);
                float want = float(s);
                if (pool == tile::PoolType::Avg) want *= 0.03125f;
                ASSERT_EQ(t.at(0, c), want) << "column " << c;
            }
            expect_reduce_footprint(in, t, tile::kSfpuReduceScratch, "float sum/avg");
        }
    Tile t = in;
    tile::sfpu_reduce_col(tile::PoolType::Sum, zyx::emu::DataFormat::Float32, t.v);
    EXPECT_EQ(t.at(0, 0), 1.0f + 0x1p-19f);
    EXPECT_EQ(t.at(0, 1), 32.0f * (1.0f + 0x1p-23f));
}

TEST(TileSfpuReduce, FloatMaxMinFollowSfpswapOrder) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Tile in;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) in.at(r, c) = float((r * 7 + c * 3) % 19) - 9.0f;
    for (int r = 0; r < 32; ++r) in.at(r, 0) = -0.0f;  // column 0: −0 everywhere, +0 once
    in.at(5, 0) = 0.0f;
    in.at(3, 1) = nan;   // +NaN sorts above +inf
    in.at(4, 2) = -nan;  // −NaN sorts below −inf
    in.at(6, 3) = -std::numeric_limits<float>::infinity();
    Tile mx = in, mn = in;
    tile::sfpu_reduce_col(tile::PoolType::Max, zyx::emu::DataFormat::Float32, mx.v);
    tile::sfpu_reduce_col(tile::PoolType::Min, zyx::emu::DataFormat::Float32, mn.v);
    EXPECT_EQ(bits(mx.at(0, 0)), bits(0.0f));
    EXPECT_EQ(bits(mn.at(0, 0)), bits(-0.0f));
    EXPECT_EQ(bits(mx.at(0, 1)), bits(nan));
    EXPECT_EQ(bits(mn.at(0, 2)), bits(-nan));
    EXPECT_EQ(mx.at(0, 2), 9.0f);
    EXPECT_EQ(mn.at(0, 3), -std::numeric_limits<float>::infinity());
    for (int c = 4; c < 32; ++c) {
        float hi = -INFINITY, lo = INFINITY;
        for (int r = 0; r < 32; ++r) hi = std::max(hi, in.at(r, c)), lo = std::min(lo, in.at(r, c));
        EXPECT_EQ(mx.at(0, c), hi) << c;
        EXPECT_EQ(mn.at(0, c), lo) << c;
    }
    expect_reduce_footprint(in, mx, tile::kSfpuReduceScratch, "max");
    expect_reduce_footprint(in, mn, tile::kSfpuReduceScratch, "min");
}

TEST(TileSfpuReduce, IntegerFormats) {
    std::mt19937 rng(11);
    using DF = zyx::emu::DataFormat;
    for (DF fmt : {DF::Int32, DF::UInt32, DF::UInt16})
        for (tile::PoolType pool :
             {tile::PoolType::Sum, tile::PoolType::Avg, tile::PoolType::Max, tile::PoolType::Min}) {
            Tile in;
            std::uniform_int_distribution<uint32_t> any(0, fmt == DF::UInt16 ? 0xffffu : 0xffffffffu);
            for (float& x : in.v) x = from_bits(any(rng));
            if (fmt == DF::Int32) {  // column 0 sums to −33: the average rounds toward zero (−1)
                for (int r = 0; r < 32; ++r) in.at(r, 0) = from_bits(uint32_t(r == 0 ? -33 : 0));
            }
            Tile t = in;
            tile::sfpu_reduce_col(pool, fmt, t.v);
            for (int c = 0; c < 32; ++c) {
                uint32_t want = 0;
                if (pool == tile::PoolType::Sum || pool == tile::PoolType::Avg) {
                    uint64_t s = 0;
                    int64_t si = 0;
                    for (int r = 0; r < 32; ++r) s += bits(in.at(r, c)), si += int32_t(bits(in.at(r, c)));
                    if (fmt == DF::Int32) {
                        int32_t w = int32_t(uint32_t(s));  // wrapped
                        want = uint32_t(pool == tile::PoolType::Avg ? w / 32 : w);
                    } else {
                        uint32_t w = uint32_t(s);
                        if (pool == tile::PoolType::Avg) w >>= 5;
                        want = fmt == DF::UInt16 ? (w & 0xffffu) : w;
                    }
                } else {
                    want = bits(in.at(0, c));
                    for (int r = 1; r < 32; ++r) {
                        uint32_t v = bits(in.at(r, c));
                        bool better = fmt == DF::Int32
                            ? (pool == tile::PoolType::Max ? int32_t(v) > int32_t(want) : int32_t(v) < int32_t(want))
                            : (pool == tile::PoolType::Max ? v > want : v < want);
                        if (better) want = v;
                    }
                }
                ASSERT_EQ(bits(t.at(0, c)), want)
                    << zyx::tt::data_format_name(fmt) << " pool " << int(pool) << " column " << c;
            }
            expect_reduce_footprint(in, t, fmt == DF::UInt16 ? 0xffffu : tile::kSfpuReduceScratch, "integer");
        }
    Tile t;
    for (int r = 0; r < 32; ++r) t.at(r, 0) = from_bits(uint32_t(r == 0 ? -33 : 0));
    tile::sfpu_reduce_col(tile::PoolType::Avg, DF::Int32, t.v);
    EXPECT_EQ(int32_t(bits(t.at(0, 0))), -1);
}

TEST(TileSfpuReduce, OtherFormatsAreUnsupported) {
    Tile t;
    try {
        tile::sfpu_reduce_col(tile::PoolType::Sum, zyx::emu::DataFormat::Bfp8_b, t.v);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
        EXPECT_NE(e.message().find("Bfp8_b"), std::string::npos) << e.message();
    }
}
