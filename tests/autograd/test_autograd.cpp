// Autograd (label `autograd`): every differentiable op of the Tensor API against central finite
// differences in f64 on the interpreter; the same gradients on the host and tt:0 against the
// interpreter's; hand-computed gradients at kinks and for composites; misuse errors; memory that
// stays flat over a training loop.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "../tensor/tensor_test_env.hpp"
#include "schedule/devices.hpp"
#include "schedule/interpreter_device.hpp"
#include "schedule/scheduler.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Shape;
using zyx::Tensor;
using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

const Device kInterp = Device::interpreter();

// Values for an input: uniform in [lo, hi), seeded per input.
std::vector<double> values(const Shape& s, double lo, double hi, uint64_t seed) {
    zyx::Generator g(seed);
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    std::vector<double> v(static_cast<size_t>(n));
    for (double& x : v) x = lo + (hi - lo) * g.next_double();
    return v;
}

struct Input {
    Shape shape;
    double lo = -2, hi = 2;
};

// The scalar the checks differentiate: Σ f(inputs) · w with fixed weights w (so every output
// element matters, with a different weight).
double loss_value(const Fn& f, const std::vector<Tensor>& in, const std::vector<double>& w) {
    Tensor out = f(in).cast(DType::f64);
    std::vector<double> o = out.to_vector<double>();
    double s = 0;
    for (size_t i = 0; i < o.size(); ++i) s += o[i] * w[i % w.size()];
    return s;
}

Tensor loss_tensor(const Fn& f, const std::vector<Tensor>& in, const std::vector<double>& w, Device d, DType t) {
    Tensor out = f(in);
    std::vector<double> wv(size_t(out.numel()));
    for (size_t i = 0; i < wv.size(); ++i) wv[i] = w[i % w.size()];
    return (out * zyx::tensor(wv, out.shape(), t, d)).sum();
}

// Autograd's gradients of Σ f · w with respect to every input, on `d` in dtype `t`.
std::vector<std::vector<double>> autograd_grads(const Fn& f, const std::vector<Input>& spec,
                                                const std::vector<double>& w, Device d, DType t) {
    std::vector<Tensor> in;
    for (size_t i = 0; i < spec.size(); ++i)
        in.push_back(
            zyx::tensor(values(spec[i].shape, spec[i].lo, spec[i].hi, 100 + i), spec[i].shape, t, d).requires_grad_());
    loss_tensor(f, in, w, d, t).backward();
    std::vector<std::vector<double>> g;
    for (const Tensor& x : in) {
        EXPECT_TRUE(x.grad().defined());
        g.push_back(x.grad().defined() ? x.grad().cast(DType::f64).to_vector<double>() : std::vector<double>{});
    }
    return g;
}

// Central finite differences of the same loss in f64 on the interpreter.
std::vector<std::vector<double>> numeric_grads(const Fn& f, const std::vector<Input>& spec,
                                               const std::vector<double>& w) {
    std::vector<std::vector<double>> base;
    for (size_t i = 0; i < spec.size(); ++i) base.push_back(values(spec[i].shape, spec[i].lo, spec[i].hi, 100 + i));
    auto make = [&](const std::vector<std::vector<double>>& v) {
        std::vector<Tensor> in;
        for (size_t i = 0; i < spec.size(); ++i) in.push_back(zyx::tensor(v[i], spec[i].shape, DType::f64, kInterp));
        return in;
    };
    std::vector<std::vector<double>> g(spec.size());
    const double h = 1e-6;
    for (size_t i = 0; i < spec.size(); ++i)
        for (size_t j = 0; j < base[i].size(); ++j) {
            auto v = base;
            v[i][j] = base[i][j] + h;
            double up = loss_value(f, make(v), w);
            v[i][j] = base[i][j] - h;
            double down = loss_value(f, make(v), w);
            g[i].push_back((up - down) / (2 * h));
        }
    return g;
}

const std::vector<double> kWeights = {1.0, -0.5, 0.75, 2.0, -1.25, 0.3, 1.7};

struct GradCase {
    std::string name;
    std::vector<Input> inputs;
    Fn f;
};

std::vector<GradCase> cases() {
    const Input m34{{3, 4}}, v4{{4}}, c31{{3, 1}}, pos34{{3, 4}, 0.5, 2.5};
    auto un = [&](const std::string& name, std::function<Tensor(const Tensor&)> op, Input in = {{3, 4}}) {
        return GradCase{name, {in}, [op](const std::vector<Tensor>& v) { return op(v[0]); }};
    };
    auto bin = [&](const std::string& name, std::function<Tensor(const Tensor&, const Tensor&)> op, Input a, Input b) {
        return GradCase{name, {a, b}, [op](const std::vector<Tensor>& v) { return op(v[0], v[1]); }};
    };
    std::vector<GradCase> c = {
        // elementwise, unary
        un("neg", [](const Tensor& x) { return -x; }),
        un("exp", [](const Tensor& x) { return x.exp(); }),
        un("exp2", [](const Tensor& x) { return x.exp2(); }),
        un("log", [](const Tensor& x) { return x.log(); }, pos34),
        un("log2", [](const Tensor& x) { return x.log2(); }, pos34),
        un("log10", [](const Tensor& x) { return x.log10(); }, pos34),
        un("log1p", [](const Tensor& x) { return x.log1p(); }, pos34),
        un("sqrt", [](const Tensor& x) { return x.sqrt(); }, pos34),
        un("rsqrt", [](const Tensor& x) { return x.rsqrt(); }, pos34),
        un("reciprocal", [](const Tensor& x) { return x.reciprocal(); }, pos34),
        un("square", [](const Tensor& x) { return x.square(); }),
        un("sin", [](const Tensor& x) { return x.sin(); }),
        un("cos", [](const Tensor& x) { return x.cos(); }),
        un("tan", [](const Tensor& x) { return x.tan(); }, Input{{3, 4}, -1, 1}),
        un("tanh", [](const Tensor& x) { return x.tanh(); }),
        un("sigmoid", [](const Tensor& x) { return x.sigmoid(); }),
        un("erf", [](const Tensor& x) { return x.erf(); }),
        un("abs", [](const Tensor& x) { return x.abs(); }),
        un("relu", [](const Tensor& x) { return x.relu(); }),
        un("leaky_relu", [](const Tensor& x) { return x.leaky_relu(0.1); }),
        un("gelu", [](const Tensor& x) { return x.gelu(); }),
        un("gelu tanh", [](const Tensor& x) { return x.gelu(true); }),
        un("silu", [](const Tensor& x) { return x.silu(); }),
        un("softplus", [](const Tensor& x) { return x.softplus(2.0); }),
        // composites of src/api/math.cpp: their gradients are those of the primitives they use
        un("expm1", [](const Tensor& x) { return x.expm1(); }),
        un("relu6", [](const Tensor& x) { return x.relu6(); }, Input{{3, 4}, -2, 8}),
        un("hardsigmoid", [](const Tensor& x) { return x.hardsigmoid(); }, Input{{3, 4}, -5, 5}),
        un("hardswish", [](const Tensor& x) { return x.hardswish(); }, Input{{3, 4}, -5, 5}),
        un("elu", [](const Tensor& x) { return x.elu(0.7); }),
        un("selu", [](const Tensor& x) { return x.selu(); }),
        un("mish", [](const Tensor& x) { return x.mish(); }),
        un("nan_to_num", [](const Tensor& x) { return x.nan_to_num(); }),
        un("tril", [](const Tensor& x) { return x.tril(1); }),
        un("triu", [](const Tensor& x) { return x.triu(-1); }),
        un("diag", [](const Tensor& x) { return zyx::diag(x, 1); }, v4),
        bin("logaddexp", [](const Tensor& a, const Tensor& b) { return zyx::logaddexp(a, b); }, m34, v4),
        bin("lerp 0.3", [](const Tensor& a, const Tensor& b) { return zyx::lerp(a, b, 0.3); }, m34, v4),
        bin("lerp 0.8", [](const Tensor& a, const Tensor& b) { return zyx::lerp(a, b, 0.8); }, m34, c31),
        GradCase{"lerp tensor weight", {m34, m34, Input{{4}, -0.5, 1.5}},
                 [](const std::vector<Tensor>& v) { return zyx::lerp(v[0], v[1], v[2]); }},
        bin("outer", [](const Tensor& a, const Tensor& b) { return zyx::outer(a, b); }, v4, Input{{3}}),
        un("clamp", [](const Tensor& x) { return x.clamp(-1.0, 0.7); }),
        un("floor (zero)", [](const Tensor& x) { return x.floor() + x; }),
        un("pow scalar", [](const Tensor& x) { return x.pow(3); }),
        un("scalar ops", [](const Tensor& x) { return (2.0 - x) * 3.0 / 4.0 + 1.0; }),
        // elementwise, binary with broadcasting
        bin("add", [](const Tensor& a, const Tensor& b) { return a + b; }, m34, v4),
        bin("sub", [](const Tensor& a, const Tensor& b) { return a - b; }, m34, c31),
        bin("mul", [](const Tensor& a, const Tensor& b) { return a * b; }, m34, v4),
        bin("div", [](const Tensor& a, const Tensor& b) { return a / b; }, m34, Input{{3, 1}, 0.5, 2}),
        bin("pow", [](const Tensor& a, const Tensor& b) { return a.pow(b); }, pos34, v4),
        bin("maximum", [](const Tensor& a, const Tensor& b) { return a.maximum(b); }, m34, v4),
        bin("minimum", [](const Tensor& a, const Tensor& b) { return a.minimum(b); }, m34, c31),
        bin("fmod", [](const Tensor& a, const Tensor& b) { return a.fmod(b); }, m34, Input{{4}, 0.7, 1.3}),
        bin("remainder", [](const Tensor& a, const Tensor& b) { return a.remainder(b); }, m34, Input{{4}, 0.7, 1.3}),
        GradCase{"where", {m34, m34, v4},
                 [](const std::vector<Tensor>& v) { return zyx::where(v[0] > 0.2, v[0] * v[1], v[2]); }},
        // reductions
        un("sum", [](const Tensor& x) { return x.sum(); }),
        un("sum axis", [](const Tensor& x) { return x.sum({1}); }),
        un("mean keepdim", [](const Tensor& x) { return x.mean({0}, true); }),
        un("prod", [](const Tensor& x) { return x.prod({1}); }, Input{{3, 4}, 0.5, 1.5}),
        un("max", [](const Tensor& x) { return x.max({1}); }),
        un("min", [](const Tensor& x) { return x.min(); }),
        un("var", [](const Tensor& x) { return x.var({1}); }),
        un("std", [](const Tensor& x) { return x.stddev({0}); }),
        un("logsumexp", [](const Tensor& x) { return x.logsumexp({1}); }),
        un("softmax", [](const Tensor& x) { return x.softmax(1); }),
        un("log_softmax", [](const Tensor& x) { return x.log_softmax(0); }),
        // issue 15: scans, norms, selections (src/api/scan.cpp) and tensor clamp bounds, clone
        un("cumsum", [](const Tensor& x) { return x.cumsum(1); }),
        un("cumprod", [](const Tensor& x) { return x.cumprod(0); }),
        un("norm 2", [](const Tensor& x) { return x.norm(2, 1); }),
        un("norm 3", [](const Tensor& x) { return x.norm(3); }),
        un("norm inf", [](const Tensor& x) { return x.norm(INFINITY, 0); }),
        un("max_with_indices", [](const Tensor& x) { return x.max_with_indices(1).values; }),
        un("sort", [](const Tensor& x) { return x.sort(0, true).values; }),
        un("topk", [](const Tensor& x) { return x.topk(2).values; }),
        un("median", [](const Tensor& x) { return x.median(0).values; }),
        bin("clamp tensors", [](const Tensor& a, const Tensor& b) { return a.clamp(b - 1, b + 1); }, m34, v4),
        un("clone", [](const Tensor& x) { return x.clone() * 2.0; }),
        // movement
        un("reshape", [](const Tensor& x) { return x.reshape({2, 6}).sum({0}); }),
        un("permute", [](const Tensor& x) { return x.reshape({3, 2, 2}).permute({2, 0, 1}); }),
        un("transpose", [](const Tensor& x) { return x.transpose(); }),
        un("expand", [](const Tensor& x) { return x.unsqueeze(0).expand({2, 3, 4}); }),
        un("pad", [](const Tensor& x) { return x.pad({{1, 2}, {0, 1}}, 0.5); }),
        un("slice step", [](const Tensor& x) { return x.slice(1, 1, 4, 2); }),
        un("slice step 3", [](const Tensor& x) { return x.slice(0, 0, 3, 2).slice(1, 0, 4, 3); }),
        un("flip", [](const Tensor& x) { return x.flip({0, 1}); }),
        un("index", [](const Tensor& x) { return x[1]; }),
        un("repeat", [](const Tensor& x) { return x.repeat({2, 1}); }),
        un("split", [](const Tensor& x) { return x.split(3, 1)[0] * 2.0 - x.split(3, 1)[1].sum(); }),
        bin("cat", [](const Tensor& a, const Tensor& b) { return zyx::cat({a, b.unsqueeze(0)}, 0); }, m34, v4),
        bin("stack", [](const Tensor& a, const Tensor& b) { return zyx::stack({a, b}, 1); }, m34, m34),
        // linear algebra
        bin("matmul", [](const Tensor& a, const Tensor& b) { return a.matmul(b); }, m34, Input{{4, 2}}),
        bin("matmul batched", [](const Tensor& a, const Tensor& b) { return a.matmul(b); }, Input{{2, 3, 4}}, Input{{4, 2}}),
        bin("matmul vector", [](const Tensor& a, const Tensor& b) { return a.matmul(b); }, m34, v4),
        bin("dot", [](const Tensor& a, const Tensor& b) { return a.dot(b); }, v4, v4),
        // networks
        bin("conv2d", [](const Tensor& x, const Tensor& w) { return zyx::conv2d(x, w); }, Input{{1, 2, 5, 5}}, Input{{3, 2, 3, 3}}),
        GradCase{"conv2d stride pad dilation bias", {Input{{1, 2, 6, 6}}, Input{{2, 2, 2, 3}}, Input{{2}}},
                 [](const std::vector<Tensor>& v) {
                     return zyx::conv2d(v[0], v[1], v[2], {.stride = {2, 1}, .padding = 1, .dilation = {1, 2}});
                 }},
        bin("conv2d groups", [](const Tensor& x, const Tensor& w) { return zyx::conv2d(x, w, Tensor(), {.groups = 2}); },
            Input{{1, 4, 4, 4}}, Input{{2, 2, 2, 2}}),
        un("max_pool2d", [](const Tensor& x) { return zyx::max_pool2d(x, 2); }, Input{{1, 2, 4, 4}}),
        un("max_pool2d overlap pad", [](const Tensor& x) { return zyx::max_pool2d(x, 3, 2, 1); }, Input{{1, 1, 5, 5}}),
        un("avg_pool2d", [](const Tensor& x) { return zyx::avg_pool2d(x, {2, 3}, 1); }, Input{{1, 2, 4, 5}}),
        GradCase{"layer_norm", {Input{{3, 4}}, Input{{4}}, Input{{4}}},
                 [](const std::vector<Tensor>& v) { return zyx::layer_norm(v[0], {4}, v[1], v[2]); }},
        un("cross_entropy", [](const Tensor& x) { return zyx::cross_entropy(x, zyx::tensor(std::vector<int32_t>{2, 0, 3}).to(x.device())); }),
        bin("mse_loss", [](const Tensor& a, const Tensor& b) { return zyx::mse_loss(a, b); }, m34, m34),
        // non-contiguous operands: views of the inputs feeding elementwise ops and a matmul
        bin("transposed operand", [](const Tensor& a, const Tensor& b) { return a.transpose() * b; }, m34, Input{{4, 3}}),
        bin("sliced operands of matmul", [](const Tensor& a, const Tensor& b) { return a.slice(1, 0, 4, 2).matmul(b.flip({0})); },
            m34, Input{{2, 3}}),
        // indexing and assignment (indexing.cpp: composites of where, sum and views); index
        // tensors hold repeated and out-of-range positions
        un("gather", [](const Tensor& x) { return x.gather(1, zyx::tensor({{0, 3, 3}, {1, -1, 2}, {4, 0, 0}}).to(x.device())); }),
        bin("scatter", [](const Tensor& x, const Tensor& s) {
            return x.scatter(0, zyx::tensor({{0, 2, 2, 1}, {2, 0, 5, 1}}).to(x.device()), s); }, m34, Input{{2, 4}}),
        bin("scatter_add", [](const Tensor& x, const Tensor& s) {
            return x.scatter_add(1, zyx::tensor({{0, 0}, {3, 1}, {2, -1}}).to(x.device()), s); }, m34, Input{{3, 2}}),
        un("index_select", [](const Tensor& x) { return x.index_select(1, zyx::tensor({3, 0, 3}).to(x.device())); }),
        un("embedding", [](const Tensor& w) { return zyx::embedding(zyx::tensor({{2, 0}, {2, 1}}).to(w.device()), w); }),
        bin("index_put accumulate", [](const Tensor& x, const Tensor& v) {
            return x.index_put({zyx::tensor({0, 2, 0}).to(x.device())}, v, true); }, m34, Input{{3, 4}}),
        bin("index_put_ slices", [](const Tensor& x, const Tensor& v) {
            Tensor y = x * 1;
            return y.index_put_({zyx::Range(0, 3, 2), zyx::Range(1)}, v); }, m34, Input{{3}}),
        bin("masked_fill_ and +=", [](const Tensor& x, const Tensor& y) {
            Tensor a = x * 1;
            a += y;
            return a.masked_fill_(zyx::tensor(std::vector<bool>{true, false, false, true}).to(x.device()), 0); }, m34, v4),
        un("index tensors and mask", [](const Tensor& x) {
            return x.index({zyx::tensor({2, -1, 0}).to(x.device()), zyx::tensor({1, 3, 3}).to(x.device())}) +
                   x.masked_select(zyx::tensor(std::vector<bool>{false, true, true, false}).to(x.device())).sum(); }),
    };
    return c;
}

// Every case: autograd in f64 on the interpreter against central differences.
TEST(Autograd, EveryOpAgainstFiniteDifferences) {
    for (const GradCase& c : cases()) {
        SCOPED_TRACE(c.name);
        auto ag = autograd_grads(c.f, c.inputs, kWeights, kInterp, DType::f64);
        auto fd = numeric_grads(c.f, c.inputs, kWeights);
        ASSERT_EQ(ag.size(), fd.size());
        for (size_t i = 0; i < ag.size(); ++i) {
            ASSERT_EQ(ag[i].size(), fd[i].size()) << "input " << i;
            for (size_t j = 0; j < ag[i].size(); ++j)
                EXPECT_NEAR(ag[i][j], fd[i][j], 1e-5 + 1e-5 * std::fabs(fd[i][j]))
                    << c.name << ": input " << i << " element " << j;
        }
    }
}

// The same gradients in f32 on the host (and tt:0 when it can run) against the interpreter's.
void same_on(Device d) {
    for (const GradCase& c : cases()) {
        SCOPED_TRACE(c.name + " on " + d.str());
        auto want = autograd_grads(c.f, c.inputs, kWeights, kInterp, DType::f32);
        auto got = autograd_grads(c.f, c.inputs, kWeights, d, DType::f32);
        for (size_t i = 0; i < want.size(); ++i)
            for (size_t j = 0; j < want[i].size() && j < got[i].size(); ++j)
                EXPECT_NEAR(got[i][j], want[i][j], 1e-4 + 1e-4 * std::fabs(want[i][j]))
                    << "input " << i << " element " << j;
    }
}

TEST(Autograd, HostAgreesWithTheInterpreter) { same_on(Device::host()); }

TEST(Autograd, TenstorrentAgreesWithTheInterpreter) {
    bool have_tt = false;
    for (const Device& d : zyx::available_devices()) have_tt |= d == Device::tt(0);
    if (!have_tt) GTEST_SKIP() << "tt:0 cannot run here";
    same_on(Device::tt(0));
}

// ---- kinks and ties (PyTorch 1.13's subgradients) ------------------------------------------------------

std::vector<float> grad_of(const std::vector<float>& xs, const std::function<Tensor(const Tensor&)>& f) {
    Tensor x = zyx::tensor(xs).requires_grad_();
    f(x).sum().backward();
    return x.grad().to_vector<float>();
}

TEST(Autograd, SubgradientsAtKinksAreTorchs) {
    EXPECT_EQ(grad_of({-1, 0, 2}, [](const Tensor& x) { return x.relu(); }), (std::vector<float>{0, 0, 1}));
    EXPECT_EQ(grad_of({-1, 0, 2}, [](const Tensor& x) { return x.abs(); }), (std::vector<float>{-1, 0, 1}));
    // clamp passes the gradient at its bounds, not beyond
    EXPECT_EQ(grad_of({-2, -1, 0, 1, 2}, [](const Tensor& x) { return x.clamp(-1.0, 1.0); }),
              (std::vector<float>{0, 1, 1, 1, 0}));
    // maximum / minimum of two tensors: a tie splits the gradient
    Tensor a = zyx::tensor({1.f, 2.f, 3.f}).requires_grad_(), b = zyx::tensor({1.f, 5.f, 0.f}).requires_grad_();
    a.maximum(b).sum().backward();
    EXPECT_EQ(a.grad().to_vector<float>(), (std::vector<float>{0.5f, 0, 1}));
    EXPECT_EQ(b.grad().to_vector<float>(), (std::vector<float>{0.5f, 1, 0}));
    // max over an axis: tied elements share the gradient evenly
    EXPECT_EQ(grad_of({3, 1, 3, 3}, [](const Tensor& x) { return x.max(); }),
              (std::vector<float>{1.f / 3, 0, 1.f / 3, 1.f / 3}));
    // prod with a zero: the product of the others
    EXPECT_EQ(grad_of({2, 0, 3}, [](const Tensor& x) { return x.prod(); }), (std::vector<float>{0, 6, 0}));
    EXPECT_EQ(grad_of({0, 0, 3}, [](const Tensor& x) { return x.prod(); }), (std::vector<float>{0, 0, 0}));
    // hardtanh-style activations: 0 at the bounds; hardswish's middle slope reaches the kinks
    EXPECT_EQ(grad_of({-1, 0, 3, 6, 7}, [](const Tensor& x) { return x.relu6(); }),
              (std::vector<float>{0, 0, 1, 0, 0}));
    EXPECT_EQ(grad_of({-3, 0, 3}, [](const Tensor& x) { return x.hardsigmoid(); }),
              (std::vector<float>{0, 1.f / 6, 0}));
    EXPECT_EQ(grad_of({-4, -3, 0, 3, 4}, [](const Tensor& x) { return x.hardswish(); }),
              (std::vector<float>{0, -0.5f, 0.5f, 1.5f, 1}));
    // elu at 0 takes the exponential side (α); unused sides stay finite far out and at ±inf
    EXPECT_EQ(grad_of({0, 100, -100}, [](const Tensor& x) { return x.elu(0.5); }), (std::vector<float>{0.5f, 1, 0}));
    EXPECT_EQ(grad_of({-INFINITY, 0, 100}, [](const Tensor& x) { return x.expm1(); }),
              (std::vector<float>{0, 1, INFINITY}));
    // logaddexp of equal values: half each, as PyTorch's 1 / (1 + e^0)
    Tensor p = zyx::tensor({1.f, -2.f}).requires_grad_(), q = zyx::tensor({1.f, -2.f}).requires_grad_();
    zyx::logaddexp(p, q).sum().backward();
    EXPECT_EQ(p.grad().to_vector<float>(), (std::vector<float>{0.5f, 0.5f}));
    EXPECT_EQ(q.grad().to_vector<float>(), (std::vector<float>{0.5f, 0.5f}));
    // pow: d/dy of 0^y with y >= 0 is 0, not nan
    Tensor base = zyx::tensor({0.f, 2.f}).requires_grad_(), e = zyx::tensor({2.f, 3.f}).requires_grad_();
    base.pow(e).sum().backward();
    EXPECT_EQ(base.grad().to_vector<float>(), (std::vector<float>{0, 12}));
    EXPECT_EQ(e.grad().to_vector<float>()[0], 0.f);
    EXPECT_NEAR(e.grad().to_vector<float>()[1], 8 * std::log(2.f), 1e-5);
}

// softmax + cross_entropy: d/dlogits = (softmax − onehot) / N, computed by hand.
TEST(Autograd, CrossEntropyGradientIsSoftmaxMinusOneHot) {
    std::vector<float> l = {1, 2, 0.5f, -1, 0, 3};
    Tensor logits = zyx::tensor(l, {2, 3}).requires_grad_();
    zyx::cross_entropy(logits, zyx::tensor(std::vector<int32_t>{1, 2})).backward();
    std::vector<float> g = logits.grad().to_vector<float>();
    const int target[2] = {1, 2};
    for (int n = 0; n < 2; ++n) {
        double z = 0;
        for (int k = 0; k < 3; ++k) z += std::exp(double(l[size_t(3 * n + k)]));
        for (int k = 0; k < 3; ++k) {
            double want = (std::exp(double(l[size_t(3 * n + k)])) / z - (k == target[n])) / 2;
            EXPECT_NEAR(g[size_t(3 * n + k)], want, 1e-6) << n << "," << k;
        }
    }
}

// layer_norm without affine parameters: each row of the output sums to 0 whatever x is, so the
// gradient of the sum is 0; with weight w, d/dx of Σ y·c for c constant along the row is 0 too,
// and d/dw is the normalised row itself.
TEST(Autograd, LayerNormGradientsByHand) {
    std::vector<float> xv = {1, 2, 4, -1, 0.5f, 3};
    Tensor x = zyx::tensor(xv, {2, 3}).requires_grad_();
    Tensor w = zyx::tensor({2.f, 2.f, 2.f}).requires_grad_();
    zyx::layer_norm(x, {3}, w).sum().backward();
    for (float g : x.grad().to_vector<float>()) EXPECT_NEAR(g, 0, 1e-5);
    std::vector<float> gw = w.grad().to_vector<float>();
    for (int k = 0; k < 3; ++k) {
        double want = 0;
        for (int n = 0; n < 2; ++n) {
            double m = (xv[size_t(3 * n)] + xv[size_t(3 * n + 1)] + xv[size_t(3 * n + 2)]) / 3, v = 0;
            for (int j = 0; j < 3; ++j) v += (xv[size_t(3 * n + j)] - m) * (xv[size_t(3 * n + j)] - m) / 3;
            want += (xv[size_t(3 * n + k)] - m) / std::sqrt(v + 1e-5);
        }
        EXPECT_NEAR(gw[size_t(k)], want, 1e-5) << k;
    }
}

// conv2d: d/dw[o, c, i, j] of Σ y is the sum of x over the positions the tap (i, j) visits, and
// d/dx of Σ y counts, at each pixel, the taps that cover it times Σ_o w[o, c, ·, ·] there.
TEST(Autograd, Conv2dGradientsByHand) {
    const int H = 4, W = 5;
    std::vector<float> xv(H * W);
    for (int i = 0; i < H * W; ++i) xv[size_t(i)] = float(i % 7) - 2;
    Tensor x = zyx::tensor(xv, {1, 1, H, W}).requires_grad_();
    Tensor w = zyx::ones({1, 1, 2, 3}).requires_grad_();
    zyx::conv2d(x, w).sum().backward();  // output 3 × 3
    std::vector<float> gw = w.grad().to_vector<float>(), gx = x.grad().to_vector<float>();
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) {
            float want = 0;
            for (int oh = 0; oh < 3; ++oh)
                for (int ow = 0; ow < 3; ++ow) want += xv[size_t((oh + i) * W + ow + j)];
            EXPECT_FLOAT_EQ(gw[size_t(i * 3 + j)], want) << i << "," << j;
        }
    for (int h = 0; h < H; ++h)
        for (int c = 0; c < W; ++c) {
            int taps = 0;
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 3; ++j) taps += (h - i >= 0 && h - i < 3 && c - j >= 0 && c - j < 3);
            EXPECT_FLOAT_EQ(gx[size_t(h * W + c)], float(taps)) << h << "," << c;
        }
}

// ---- the API around it -----------------------------------------------------------------------------------

TEST(Autograd, GradientsAccumulateUntilZeroed) {
    Tensor x = zyx::tensor({1.f, 2.f}).requires_grad_();
    (x * 3.f).sum().backward();
    (x * x).sum().backward();
    EXPECT_EQ(x.grad().to_vector<float>(), (std::vector<float>{5, 7}));  // 3 + 2x
    x.zero_grad();
    EXPECT_FALSE(x.grad().defined());
    Tensor y = (x * 2.f).sum();
    y.realize();  // realized before backward: the tape keeps what backward needs
    y.backward();
    y.backward();  // and again
    EXPECT_EQ(x.grad().to_vector<float>(), (std::vector<float>{4, 4}));
}

TEST(Autograd, NoGradDetachAndNonDifferentiableOps) {
    Tensor x = zyx::tensor({1.f, -2.f}).requires_grad_();
    {
        zyx::NoGradGuard off;
        EXPECT_FALSE((x * 2.f).requires_grad());
    }
    EXPECT_TRUE((x * 2.f).requires_grad());
    EXPECT_FALSE(x.detach().requires_grad());
    EXPECT_FALSE((x > 0.f).requires_grad());
    EXPECT_FALSE(x.argmax().requires_grad());
    EXPECT_FALSE(x.cast(DType::i32).requires_grad());
    auto message = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const zyx::Error& e) {
            EXPECT_EQ(e.status(), zyx::ErrorStatus::InvalidArgument);
            return std::string(e.what());
        }
        ADD_FAILURE() << "no error";
        return std::string();
    };
    EXPECT_NE(message([&] { (x > 0.f).cast(DType::f32).sum().backward(); }).find("does not require a gradient"),
              std::string::npos);
    EXPECT_NE(message([&] { (x * 2.f).backward(); }).find("one element"), std::string::npos);
    EXPECT_NE(message([&] { zyx::tensor({1, 2}).requires_grad_(); }).find("float"), std::string::npos);
    EXPECT_NE(message([&] { (x * 2.f).sum().backward(zyx::ones({2})); }).find("shape"), std::string::npos);
    // with an explicit gradient
    (x * 2.f).backward(zyx::tensor({1.f, 10.f}));
    EXPECT_EQ(x.grad().to_vector<float>(), (std::vector<float>{2, 20}));
}

TEST(Autograd, AssignReplacesValuesInPlace) {
    Tensor w = zyx::tensor({1.f, 2.f}).requires_grad_();
    Tensor alias = w;
    {
        zyx::NoGradGuard off;
        w.assign(w - 0.5f * zyx::ones({2}));
    }
    EXPECT_EQ(alias.to_vector<float>(), (std::vector<float>{0.5f, 1.5f}));
    EXPECT_TRUE(alias.requires_grad());
    (alias * alias).sum().backward();
    EXPECT_EQ(w.grad().to_vector<float>(), (std::vector<float>{1, 3}));
}

// A training loop keeps the interpreter's live buffers flat: nothing of a step outlives it.
TEST(Autograd, TrainingLoopMemoryStaysFlat) {
    auto& pool = dynamic_cast<zyx::sched::InterpreterPool&>(*zyx::sched::device_slot(kInterp).pool);
    zyx::Generator g(7);
    Tensor w = zyx::randn({8, 4}, DType::f32, kInterp, g).requires_grad_();
    Tensor b = zyx::zeros({4}, DType::f32, kInterp).requires_grad_();
    Tensor x = zyx::randn({16, 8}, DType::f32, kInterp, g), y = zyx::randn({16, 4}, DType::f32, kInterp, g);
    size_t after_warmup = 0;
    float first = 0, last = 0;
    for (int step = 0; step < 500; ++step) {
        Tensor loss = zyx::mse_loss(x.matmul(w) + b, y);
        loss.backward();
        {
            zyx::NoGradGuard off;
            w.assign(w - w.grad() * 0.05f);
            b.assign(b - b.grad() * 0.05f);
        }
        w.zero_grad();
        b.zero_grad();
        float l = loss.item<float>();
        if (step == 0) first = l;
        last = l;
        if (step == 5) after_warmup = pool.live_buffers();
    }
    EXPECT_LE(pool.live_buffers(), after_warmup);
    EXPECT_LT(last, first * 0.5f);
}

}  // namespace
