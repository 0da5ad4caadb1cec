// Every SfpuUnary and SfpuBinary op on edge values and a range, against references written here
// in double precision from the op definitions in docs/numerics.md.
//
// Comparison rule: a NaN reference needs a NaN result; an infinite reference (or one beyond
// FLT_MAX) needs that infinity; a reference below FLT_MIN needs a zero (denormal results are
// flushed); otherwise |got − ref| ≤ atol + rtol·|ref| with the tolerance given per op.
// Inputs are read by the SFPU with denormals as zero, so the references see flushed inputs too.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
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
    return {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.75f, -3.75f, 10.0f, -10.0f, 20.5f, -20.5f,
            30.0f, -30.0f, 88.0f, -88.0f, 100.0f, -100.0f, 1e-3f, -1e-3f, 1e-30f, -1e-30f, 1e-40f, -1e-40f,
            1e30f, -1e30f, kInf, -kInf, std::numeric_limits<float>::quiet_NaN(),
            std::numeric_limits<float>::max(), 0.999f, -0.999f, 0.25f, 1.5f};
}

// Edge values first, then a ramp over [-8, 8].
Tile input_tile() {
    Tile t;
    std::vector<float> e = edge_values();
    for (int i = 0; i < 1024; ++i) t.v[i] = i < int(e.size()) ? e[i] : -8.0f + 16.0f * float(i) / 1023.0f;
    return t;
}

double flushed(double x) { return std::fabs(x) < double(std::numeric_limits<float>::min()) ? std::copysign(0.0, x) : x; }

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
    float param;             // passed as f32 bits (PowerIterative: as an integer)
    double rtol, atol;
    std::function<double(double x, double p)> ref;
};

const double R = 4e-7;  // ~3 ulp of fp32: libm float functions and one final rounding

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
        {SU::ReluMax, "relu_max", 6.0f, 0, 0, [](double x, double p) { return std::isnan(x) ? x : x > p ? p : x < 0 ? 0.0 : x; }},
        {SU::ReluMin, "relu_min", 0.5f, 0, 0, [](double x, double p) { return x < p ? p : x; }},
        {SU::LeakyRelu, "leaky_relu", 0.01f, R, 0, [](double x, double p) { return x < 0 ? x * p : x; }},
        {SU::Sigmoid, "sigmoid", 0, R, 1e-7, [](double x, double) { return 1.0 / (1.0 + std::exp(-x)); }},
        {SU::Tanh, "tanh", 0, R, 1e-7, [](double x, double) { return std::tanh(x); }},
        {SU::Gelu, "gelu", 0, R, 1e-7, [](double x, double) { return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }},
        {SU::Silu, "silu", 0, R, 1e-7, [](double x, double) { return x / (1.0 + std::exp(-x)); }},
        {SU::Square, "square", 0, R, 0, [](double x, double) { return x * x; }},
        {SU::Power, "power", 2.5f, R, 0, [](double x, double p) { return std::pow(x, p); }},
        {SU::PowerIterative, "power_iterative", 0, R, 0, [](double x, double) { return x * x * x; }},
        {SU::Sign, "sign", 0, 0, 0, [](double x, double) { return std::isnan(x) ? x : x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }},
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
        {SU::Heaviside, "heaviside", 0.25f, 0, 0, [](double x, double p) { return std::isnan(x) ? x : x < 0 ? 0.0 : x > 0 ? 1.0 : p; }},
        {SU::Softplus, "softplus", 0, R, 1e-7, [](double x, double) { return x > 20 ? x : std::log1p(std::exp(x)); }},
    };
}

}  // namespace

TEST(TileSfpuUnary, EveryOpMatchesItsDefinition) {
    const Tile in = input_tile();
    std::vector<UnaryCase> cases = unary_cases();
    // Every SfpuUnary value is covered (PowerIterative is the last enumerator).
    EXPECT_EQ(cases.size(), size_t(SU::PowerIterative) + 1);
    for (const UnaryCase& k : cases) {
        Tile t = in;
        uint32_t param = k.op == SU::PowerIterative ? 3u : bits(k.param);
        tile::sfpu_unary(k.op, t.v, param, /*approx=*/false);
        for (int i = 0; i < 1024; ++i) {
            double x = flushed(in.v[i]);
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
    };
    EXPECT_EQ(cases.size(), size_t(SB::Ge) + 1);
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
