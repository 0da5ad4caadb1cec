// asin, acos, atan and atan2 (issue 15, item 5) against the C library in double, on the host and
// on tt:0: a dense sweep of f32 inputs over every binade and both signs (and of pairs for atan2),
// measured in ulps of the exact result; C's special values (NaN, ±0, ±inf, ±1, the whole atan2
// table) exactly; bf16 (computed in f32, rounded once); f64 on the host; dtype promotion and the
// number forms of atan2; gradients against PyTorch's closed forms. The tile engine reads an f32
// denormal as zero (docs/numerics.md §6), so on tt:0 a result may be that of the flushed input
// (or one below 2^-126 a zero) instead.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tensor_test_env.hpp"
#include "tensor_test_values.hpp"
#include "zyx/tensor.hpp"

namespace {

using namespace zyx;
using zyx::test::expect_near;
using zyx::test::values;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kPi = 3.14159265358979323846;

std::vector<Device> devices() {
    std::vector<Device> ds = {Device::host()};
    for (Device d : zyx::available_devices())
        if (d == Device::tt(0)) ds.push_back(d);
    return ds;
}

float from_bits(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
uint32_t bits_of(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
// Round to nearest even bf16, kept in a float (NaN stays NaN).
float to_bf16(float f) {
    if (std::isnan(f)) return f;
    uint32_t b = bits_of(f);
    b += 0x7FFF + ((b >> 16) & 1);
    return from_bits(b & 0xFFFF0000u);
}
// What the tile engine reads: an f32 denormal as a zero of its sign.
double flushed(double v, bool flush) {
    return flush && std::fpclassify(float(v)) == FP_SUBNORMAL ? std::copysign(0.0, v) : v;
}

// Error of `got` in ulps of `want` (the exact result) at `mantissa` bits (23: f32, 7: bf16, 52:
// f64); NaN must meet NaN and an infinity itself. With `flush`, a result below the normal range may
// be a zero (the device writes no denormals).
double ulps(double got, double want, int mantissa, bool flush) {
    if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : kInf;
    if (std::isinf(want) || std::isinf(got)) return got == want ? 0 : kInf;
    const int min_exp = mantissa == 52 ? -1022 : -126;
    if (flush && got == 0 && std::fabs(want) < std::ldexp(1.0, min_exp)) return 0;
    int e = want == 0 ? min_exp : std::max(std::ilogb(want), min_exp);
    return std::fabs(got - want) / std::ldexp(1.0, e - mantissa);
}

// Unary inputs: every 2^17th f32 bit pattern of each sign (all binades, denormals included), a
// fine grid and seeded values in [−1, 1], the neighbours of ±1 and of the branch points tan(π/8)
// and tan(3π/8), and the special values.
std::vector<double> unary_inputs() {
    std::vector<double> v;
    for (uint32_t b = 0; b < 0x7F800000u; b += 1u << 17)
        for (uint32_t s : {0u, 0x80000000u}) v.push_back(from_bits((b + (b >> 17) % 4099) | s));
    for (int i = -4096; i <= 4096; ++i) v.push_back(i / 4096.0);
    for (double x : values(8192, 1)) v.push_back(x);
    for (int k = 1; k <= 64; ++k)
        for (double s : {1.0, -1.0}) v.push_back(s * double(1.0f - float(k) * 0x1p-24f));
    for (double c : {0.41421356237309505, 2.4142135623730951, 0.5})
        for (int k = -8; k <= 8; ++k)
            for (double s : {1.0, -1.0}) v.push_back(s * double(from_bits(bits_of(float(c)) + uint32_t(k))));
    for (double x : {kNaN, kInf, -kInf, 0.0, -0.0, 1.0, -1.0, 1e-45, -1e-45, 1e-38, 1e30, -1e30, 2.0, -2.0})
        v.push_back(x);
    return v;
}

// atan2 inputs: every pair of a set of magnitudes spread over the binades (both signs, the
// zeros, the infinities and NaN), and seeded pairs from [−2, 2]².
void atan2_inputs(std::vector<double>& ys, std::vector<double>& xs) {
    std::vector<double> m = {0.0, -0.0, kInf, -kInf, kNaN, 1e-45, 3e-39, 1.2e-38};
    for (int e = -40; e <= 40; e += 3)
        for (double f : {1.0, 1.37, 2.9})
            for (double s : {1.0, -1.0}) m.push_back(s * double(float(f * std::pow(10.0, e))));
    for (double y : m)
        for (double x : m) ys.push_back(y), xs.push_back(x);
    std::vector<double> a = values(8192, 2, -2, 2), b = values(8192, 3, -2, 2);
    for (size_t i = 0; i < a.size(); ++i) ys.push_back(a[i]), xs.push_back(b[i]);
    for (double t : {1.0, -1.0, 0.5, 3.0})  // |y| = |x| · t: the seams between octants
        for (double x : {1.0, -1.0, 1e-20, -7e25}) ys.push_back(double(float(x * t))), xs.push_back(x);
}

struct Unary {
    const char* name;
    std::function<Tensor(const Tensor&)> op;
    double (*ref)(double);
};
const std::vector<Unary>& unary_ops() {
    static const std::vector<Unary> ops = {
        {"asin", [](const Tensor& t) { return t.asin(); }, [](double v) { return std::asin(v); }},
        {"acos", [](const Tensor& t) { return t.acos(); }, [](double v) { return std::acos(v); }},
        {"atan", [](const Tensor& t) { return t.atan(); }, [](double v) { return std::atan(v); }},
    };
    return ops;
}

// Runs the four functions on `inputs` in `dtype` on `d` (one schedule), and returns, per
// function, the largest error in ulps of the result dtype.
struct Worst {
    double ulps = 0;
    double at_y = 0, at_x = 0;
};
std::vector<Worst> worst_errors(Device d, DType dtype) {
    const bool flush = d != Device::host();
    const int mantissa = dtype == DType::f32 ? 23 : dtype == DType::bf16 ? 7 : 52;
    auto as_dtype = [&](double v) {
        return dtype == DType::f32 ? double(float(v)) : dtype == DType::bf16 ? double(to_bf16(float(v))) : v;
    };
    std::vector<double> in = unary_inputs(), ys, xs;
    atan2_inputs(ys, xs);
    for (auto* v : {&in, &ys, &xs})
        for (double& x : *v) x = as_dtype(x);
    Tensor t = tensor(in, {int64_t(in.size())}, dtype, d);
    Tensor ty = tensor(ys, {int64_t(ys.size())}, dtype, d), tx = tensor(xs, {int64_t(xs.size())}, dtype, d);
    std::vector<Tensor> outs;
    for (const Unary& u : unary_ops()) outs.push_back(u.op(t));
    outs.push_back(atan2(ty, tx));
    zyx::realize(outs);
    std::vector<Worst> worst(outs.size());
    for (size_t k = 0; k < outs.size(); ++k) {
        EXPECT_EQ(outs[k].dtype(), dtype);
        EXPECT_EQ(outs[k].device(), d);
        std::vector<double> got = outs[k].to(Device::host()).cast(DType::f64).to_vector<double>();
        for (size_t i = 0; i < got.size(); ++i) {
            double y = k < 3 ? in[i] : ys[i], x = k < 3 ? 0 : xs[i];
            // a 16-bit result is the f32 one rounded once: measured against the rounded exact value
            auto want = [&](bool fl) {
                double r = k < 3 ? unary_ops()[k].ref(flushed(y, fl)) : std::atan2(flushed(y, fl), flushed(x, fl));
                return dtype == DType::bf16 ? double(to_bf16(float(r))) : r;
            };
            double e = ulps(got[i], want(false), mantissa, flush);
            if (flush) e = std::min(e, ulps(got[i], want(true), mantissa, flush));
            if (e > worst[k].ulps) worst[k] = {e, y, x};
        }
    }
    return worst;
}

// ---- values -----------------------------------------------------------------------------------

// f32: the largest error over the sweep, on each device, at most 3 ulp. Measured on 2·10⁶ inputs
// (every 2^11th pattern) and 10⁶ atan2 pairs: asin 2.54, acos 2.61, atan 1.98, atan2 2.36 ulp,
// the same on the host and tt:0 (both compute the same + − × ÷ √ in f32).
TEST(InverseTrig, F32WithinAFewUlpOfTheExactResult) {
    const double bound[] = {3, 3, 3, 3};
    const char* names[] = {"asin", "acos", "atan", "atan2"};
    for (Device d : devices()) {
        SCOPED_TRACE(d.str());
        const uint64_t fallbacks = zyx::runtime_stats().fallbacks;
        std::vector<Worst> w = worst_errors(d, DType::f32);
        for (size_t k = 0; k < w.size(); ++k)
            EXPECT_LE(w[k].ulps, bound[k]) << names[k] << " at y = " << w[k].at_y << ", x = " << w[k].at_x;
        EXPECT_EQ(zyx::runtime_stats().fallbacks, fallbacks)
            << "a kernel fell back to the host: " << zyx::runtime_stats().last_fallback;
    }
}

// bf16: computed in f32 and rounded once, so the exact result rounded to bf16, but for a near-tie
// the f32 error may tip (or tt:0's packer, which rounds ties away from zero): within 1 bf16 ulp.
// (Measured: every result of every finite bf16 input is the correctly rounded one.)
TEST(InverseTrig, Bf16RoundsTheF32ResultOnce) {
    for (Device d : devices()) {
        SCOPED_TRACE(d.str());
        const uint64_t fallbacks = zyx::runtime_stats().fallbacks;
        for (const Worst& w : worst_errors(d, DType::bf16))
            EXPECT_LE(w.ulps, 1.0) << "at y = " << w.at_y << ", x = " << w.at_x;
        EXPECT_EQ(zyx::runtime_stats().fallbacks, fallbacks)
            << "a kernel fell back to the host: " << zyx::runtime_stats().last_fallback;
    }
}

// f64 computes in f64 with a polynomial of its own (measured against libm's double functions,
// themselves within 1 ulp: asin, acos, atan2 3 ulp, atan 1).
TEST(InverseTrig, F64OnTheHost) {
    const char* names[] = {"asin", "acos", "atan", "atan2"};
    std::vector<Worst> w = worst_errors(Device::host(), DType::f64);
    for (size_t k = 0; k < w.size(); ++k)
        EXPECT_LE(w[k].ulps, 4.0) << names[k] << " at y = " << w[k].at_y << ", x = " << w[k].at_x;
}

// C's special values, bit for bit in f32 (the sign of a zero included).
TEST(InverseTrig, SpecialValuesAsC) {
    const float pi = float(kPi), pi2 = float(kPi / 2), pi4 = float(kPi / 4), pi34 = float(3 * kPi / 4);
    const float nan = NAN, inf = INFINITY;
    struct Case {
        const char* op;
        float y, x, want;
    };
    const std::vector<Case> cases = {
        {"asin", 0.f, 0, 0.f},        {"asin", -0.f, 0, -0.f},      {"asin", 1.f, 0, pi2},
        {"asin", -1.f, 0, -pi2},      {"asin", 1.0000001f, 0, nan}, {"asin", -2.f, 0, nan},
        {"asin", inf, 0, nan},        {"asin", nan, 0, nan},        {"acos", 1.f, 0, 0.f},
        {"acos", -1.f, 0, pi},        {"acos", 0.f, 0, pi2},        {"acos", -0.f, 0, pi2},
        {"acos", 1.0000001f, 0, nan}, {"acos", -inf, 0, nan},       {"acos", nan, 0, nan},
        {"atan", 0.f, 0, 0.f},        {"atan", -0.f, 0, -0.f},      {"atan", inf, 0, pi2},
        {"atan", -inf, 0, -pi2},      {"atan", 1.f, 0, pi4},        {"atan", nan, 0, nan},
        {"atan", 1e-40f, 0, 1e-40f},  {"atan2", 0.f, 0.f, 0.f},     {"atan2", -0.f, 0.f, -0.f},
        {"atan2", 0.f, -0.f, pi},     {"atan2", -0.f, -0.f, -pi},   {"atan2", 0.f, -3.f, pi},
        {"atan2", -0.f, -3.f, -pi},   {"atan2", 0.f, 3.f, 0.f},     {"atan2", -0.f, 3.f, -0.f},
        {"atan2", 2.f, 0.f, pi2},     {"atan2", 2.f, -0.f, pi2},    {"atan2", -2.f, 0.f, -pi2},
        {"atan2", -2.f, -0.f, -pi2},  {"atan2", 5.f, inf, 0.f},     {"atan2", -5.f, inf, -0.f},
        {"atan2", 5.f, -inf, pi},     {"atan2", -5.f, -inf, -pi},   {"atan2", inf, 5.f, pi2},
        {"atan2", -inf, -5.f, -pi2},  {"atan2", inf, inf, pi4},     {"atan2", -inf, inf, -pi4},
        {"atan2", inf, -inf, pi34},   {"atan2", -inf, -inf, -pi34}, {"atan2", 1.f, 1.f, pi4},
        {"atan2", -1.f, -1.f, -pi34}, {"atan2", nan, 1.f, nan},     {"atan2", 1.f, nan, nan},
        {"atan2", inf, nan, nan},     {"atan2", nan, inf, nan},     {"atan2", 0.f, nan, nan},
    };
    std::vector<float> ys, xs;
    for (const Case& c : cases) ys.push_back(c.y), xs.push_back(c.x);
    const int64_t n = int64_t(cases.size());
    for (Device d : devices()) {
        SCOPED_TRACE(d.str());
        Tensor y = tensor(ys, {n}, DType::f32, d), x = tensor(xs, {n}, DType::f32, d);
        std::vector<Tensor> outs = {y.asin(), y.acos(), y.atan(), atan2(y, x)};
        zyx::realize(outs);
        std::vector<std::vector<float>> got;
        for (const Tensor& o : outs) got.push_back(o.to(Device::host()).to_vector<float>());
        for (size_t i = 0; i < cases.size(); ++i) {
            const Case& c = cases[i];
            size_t k = std::string(c.op) == "asin" ? 0
                : std::string(c.op) == "acos"      ? 1
                : std::string(c.op) == "atan"      ? 2
                                                   : 3;
            float g = got[k][i];
            // the tile engine may read the denormal 1e-40 as +0
            float want = d != Device::host() && c.y == 1e-40f && g == 0 ? 0.f : c.want;
            if (std::isnan(want)) {
                EXPECT_TRUE(std::isnan(g)) << c.op << "(" << c.y << ", " << c.x << ") = " << g;
            } else {
                EXPECT_EQ(bits_of(g), bits_of(want))
                    << c.op << "(" << c.y << ", " << c.x << ") = " << g << ", want " << want;
            }
        }
    }
}

// ---- dtypes, the number forms, errors ---------------------------------------------------------

TEST(InverseTrig, DtypesAndNumbers) {
    for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16}) {
        Tensor x = full({2}, 0.5, t);
        EXPECT_EQ(x.asin().dtype(), t);
        EXPECT_EQ(x.acos().dtype(), t);
        EXPECT_EQ(x.atan().dtype(), t);
        EXPECT_EQ(x.atan2(x).dtype(), t);
        EXPECT_EQ(atan2(x, 1).dtype(), t);  // the number takes the tensor's dtype
        EXPECT_EQ(atan2(2.5, x).dtype(), t);
    }
    // integers and bool compute in f32, as sinh
    Tensor i = tensor(std::vector<int32_t>{-1, 0, 1, 3}), b = tensor(std::vector<bool>{true, false, true, false});
    for (const Tensor& v : {i.asin(), i.acos(), i.atan(), i.atan2(i), b.atan(), b.asin(), atan2(b, i), atan2(1, i)})
        EXPECT_EQ(v.dtype(), DType::f32);
    expect_near(i.atan(), {4}, {std::atan(-1.0), 0, std::atan(1.0), std::atan(3.0)});
    expect_near(i.asin(), {4}, {-kPi / 2, 0, kPi / 2, kNaN});
    expect_near(b.acos(), {4}, {0, kPi / 2, 0, kPi / 2});
    // f16 with f32 promotes to f32; the number forms agree with the tensor form
    EXPECT_EQ(atan2(full({2}, 1, DType::f16), full({2}, 1, DType::f32)).dtype(), DType::f32);
    Tensor y = tensor(std::vector<float>{1, -2, 0, 3}, {2, 2});
    expect_near(y.atan2(2), {2, 2}, {std::atan2(1.0, 2), std::atan2(-2.0, 2), 0, std::atan2(3.0, 2)});
    expect_near(atan2(-1.5, y), {2, 2}, {std::atan2(-1.5, 1), std::atan2(-1.5, -2), -kPi / 2, std::atan2(-1.5, 3)});
    // broadcasting: [2,2] with [2]
    expect_near(atan2(y, tensor(std::vector<float>{1, -1})), {2, 2},
                {std::atan2(1.0, 1), std::atan2(-2.0, -1), 0, std::atan2(3.0, -1)});
}

TEST(InverseTrig, ErrorsNameTheOp) {
    auto expect_error = [](const std::function<void()>& f, const std::vector<std::string>& frags) {
        try {
            f();
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            for (const auto& s : frags)
                EXPECT_NE(e.message().find(s), std::string::npos) << e.message() << " lacks " << s;
        }
    };
    expect_error([] { atan2(zeros({2, 3}), zeros({4})); }, {"atan2", "[2,3]", "[4]"});
    expect_error([] { Tensor().asin(); }, {"asin"});
    expect_error([] { Tensor().acos(); }, {"acos"});
    expect_error([] { Tensor().atan(); }, {"atan"});
    expect_error([] { atan2(Tensor(), 1.0); }, {"atan2"});
    expect_error([] { atan2(1.0, Tensor()); }, {"atan2"});
    for (Device d : zyx::available_devices())
        if (d != Device::host())
            expect_error([d] { atan2(zeros({2}), zeros({2}, DType::f32, d)); }, {"atan2", d.str()});
}

// ---- gradients --------------------------------------------------------------------------------

// PyTorch's closed forms on the open domain, including 0, the branch points of the argument
// reduction, the octant seams |y| = |x| and the axes of atan2; one backward for all four.
TEST(InverseTrig, GradientsAreTheClosedForms) {
    std::vector<double> u = {-0.999, -0.9, -0.70710677, -0.5, -0.1, 0.0, 1e-3, 0.3, 0.41421357, 0.5, 0.8, 0.99, 0.9999};
    std::vector<double> a = {-1e4, -2.4142137, -3, -1, -0.41421357, -1e-3, 0.0, 0.2, 0.41421354, 1, 2.4142134, 2.5, 50};
    std::vector<double> ys = {0, 0, 1, 1, -1, -1, 2, -2, 0.5, 3, -0.25, 1e-3, -7};
    std::vector<double> xs = {1, -1, 0, 1, 1, -1, 1.5, -0.5, -3, 1e-2, 0.25, 2, -7};
    for (double* v : {u.data(), a.data(), ys.data(), xs.data()})
        for (size_t i = 0; i < u.size(); ++i) v[i] = double(float(v[i]));
    std::vector<double> ds, dc, dt, dy, dx;
    std::vector<std::vector<double>> want(4);
    for (size_t i = 0; i < u.size(); ++i) {
        want[0].push_back(std::asin(u[i]));
        want[1].push_back(std::acos(u[i]));
        want[2].push_back(std::atan(a[i]));
        want[3].push_back(std::atan2(ys[i], xs[i]));
        ds.push_back(1 / std::sqrt(1 - u[i] * u[i]));
        dc.push_back(-1 / std::sqrt(1 - u[i] * u[i]));
        dt.push_back(1 / (1 + a[i] * a[i]));
        double r2 = xs[i] * xs[i] + ys[i] * ys[i];
        dy.push_back(xs[i] / r2);
        dx.push_back(-ys[i] / r2);
    }
    const int64_t n = int64_t(u.size());
    for (Device d : devices()) {
        SCOPED_TRACE(d.str());
        const uint64_t fallbacks = zyx::runtime_stats().fallbacks;
        Tensor ts = tensor(u, {n}).to(d).requires_grad_(), tc = tensor(u, {n}).to(d).requires_grad_();
        Tensor ta = tensor(a, {n}).to(d).requires_grad_();
        Tensor ty = tensor(ys, {n}).to(d).requires_grad_(), tx = tensor(xs, {n}).to(d).requires_grad_();
        // The values, with the gradient attached, are the plain ones. They are realized first: the
        // scheduler merges sums over the same axis into one reduce kernel, and two or more of these
        // composites in one kernel need more DST tiles than tt:0 has (it would run on the host).
        std::vector<Tensor> f = {ts.asin(), tc.acos(), ta.atan(), atan2(ty, tx)};
        zyx::realize(f);
        for (size_t k = 0; k < f.size(); ++k) expect_near(f[k], {n}, want[k]);
        (f[0].sum() + f[1].sum() + f[2].sum() + f[3].sum()).backward();
        expect_near(ts.grad(), {n}, ds, 2e-6);
        expect_near(tc.grad(), {n}, dc, 2e-6);
        expect_near(ta.grad(), {n}, dt, 2e-6);
        expect_near(ty.grad(), {n}, dy, 2e-6);
        expect_near(tx.grad(), {n}, dx, 2e-6);
        EXPECT_EQ(zyx::runtime_stats().fallbacks, fallbacks)
            << "a kernel fell back to the host: " << zyx::runtime_stats().last_fallback;
    }
}

}  // namespace
