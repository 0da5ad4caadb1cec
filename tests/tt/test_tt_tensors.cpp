// Tensors on tt:0 through the tensor API: how many programs typical chains become on the chip
// (fusion), that they all run there, and shapes and views the generator must get right at tile
// edges — sizes that are not multiples of 32, size-1 and empty axes, 0-d tensors, and every kind
// of strided view (permute, slice with steps, flip, expand, pad) — each compared with the same
// computation on the reference interpreter.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "schedule/scheduler.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Shape;
using zyx::Tensor;

const Device kTT = Device::tt(0);

bool have_tt() {
    for (Device d : zyx::available_devices())
        if (d == kTT) return true;
    return false;
}

Tensor data(const Shape& s, Device d, uint64_t seed, DType t = DType::f32) {
    zyx::Generator g(seed);
    return zyx::uniform(s, -2, 2, DType::f32, Device::host(), g).cast(t).to(d).realize();
}

// Kernels `fn` launches, and how many of them ran on tt:0.
struct Launched {
    uint64_t kernels = 0, on_tt = 0, fallbacks = 0;
};
template <class Fn>
Launched launched(Fn fn) {
    zyx::sched::reset_stats();
    fn();
    zyx::sched::Stats s = zyx::sched::stats();
    return {s.kernels, s.kernels_on["tt:0"], s.fallbacks};
}

TEST(TtTensors, FusionOnTheChip) {
    if (!have_tt()) GTEST_SKIP() << "tt:0 is not available in this build or configuration";
    Tensor a = data({64, 96}, kTT, 1), b = data({64, 96}, kTT, 2), c = data({96}, kTT, 3);
    Launched l = launched([&] { ((a * b + c).exp() - 1).relu().sqrt().realize(); });
    EXPECT_EQ(l.kernels, 1u);  // an elementwise chain is one program
    EXPECT_EQ(l.on_tt, 1u);
    Tensor x = data({40, 70}, kTT, 4), w = data({70, 50}, kTT, 5), bias = data({50}, kTT, 6);
    l = launched([&] { (x.matmul(w) + bias).relu().realize(); });
    EXPECT_EQ(l.kernels, 1u);  // matmul with its epilogue: one program
    EXPECT_EQ(l.on_tt, 1u);
    Tensor w2 = data({50, 10}, kTT, 7);
    l = launched([&] { ((x.matmul(w) + bias).relu().matmul(w2)).realize(); });
    EXPECT_EQ(l.kernels, 2u);  // two matmuls, each with its epilogue
    EXPECT_EQ(l.on_tt, 2u);
    l = launched([&] { x.softmax(-1).realize(); });
    EXPECT_LE(l.kernels, 3u);
    EXPECT_EQ(l.on_tt, l.kernels);
    l = launched([&] { x.softmax(0).realize(); });
    EXPECT_LE(l.kernels, 3u);
    EXPECT_EQ(l.on_tt, l.kernels);
    l = launched([&] { zyx::layer_norm(x, {70}).realize(); });
    EXPECT_LE(l.kernels, 3u);
    EXPECT_EQ(l.on_tt, l.kernels);
    EXPECT_EQ(l.fallbacks, 0u);
}

// `op` on tt:0 and on the interpreter from the same values, compared within `tol`.
void same_as_interpreter(const std::string& what, const std::function<Tensor(Device)>& op, double tol = 1e-5);
// The same, the case named by two parts.
void same_as_interpreter(const std::string& name, const char* what, const std::function<Tensor(Device)>& op,
                         double tol = 1e-5) {
    std::string label = name;
    label.append(what);
    same_as_interpreter(label, op, tol);
}
void same_as_interpreter(const std::string& what, const std::function<Tensor(Device)>& op, double tol) {
    Tensor got, want;
    Launched l = launched([&] { got = op(kTT).realize(); });
    want = op(Device::interpreter());
    EXPECT_EQ(l.fallbacks, 0u) << what << " ran kernels on the host";
    ASSERT_EQ(got.shape(), want.shape()) << what;
    ASSERT_EQ(got.dtype(), want.dtype()) << what;
    std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
    ASSERT_EQ(g.size(), w.size()) << what;
    for (size_t i = 0; i < g.size(); ++i) {
        if (!std::isfinite(w[i])) {
            EXPECT_TRUE(std::isnan(w[i]) ? std::isnan(g[i]) : g[i] == w[i]) << what << " element " << i << ": " << g[i];
            continue;
        }
        ASSERT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << what << " element " << i;
    }
}

// Kernels too large for one program are split into programs that fit, all on the chip, rather
// than sent to the host: a balanced tree of 2^9 distinct leaves needs 10 DST tiles at once (full
// sync gives 8), and with a distinct constant in every leaf it has 1000+ launch scalars (a
// program takes 256); the same inside a reduction.
TEST(TtTensors, KernelsTooLargeForOneProgramAreSplitOnTheChip) {
    if (!have_tt()) GTEST_SKIP() << "tt:0 is not available in this build or configuration";
    // `constants` distinct leaf constants, cycled: the leaves still differ, the scalars repeat.
    std::function<Tensor(const Tensor&, int, int&, int)> tree = [&](const Tensor& x, int depth, int& leaf,
                                                                    int constants) -> Tensor {
        if (depth == 0) return x * (1 + 0.01 * (leaf++ % constants)) - 0.5;
        Tensor l = tree(x, depth - 1, leaf, constants);
        return depth % 2 ? l + tree(x, depth - 1, leaf, constants) : l - tree(x, depth - 1, leaf, constants) * 0.5;
    };
    for (int constants : {7, 1 << 9}) {
        const std::string what = constants == 7 ? "DST-bound tree" : "scalar-bound tree";
        auto deep = [&](Device d) {
            int leaf = 0;
            return tree(data({40, 70}, d, 8), 9, leaf, constants);
        };
        Launched l = launched([&] { deep(kTT).realize(); });
        EXPECT_GT(l.kernels, 1u) << what << " fit in one program";
        EXPECT_EQ(l.on_tt, l.kernels) << what;
        same_as_interpreter(what, deep, 1e-4);
        same_as_interpreter(
            what, " summed over rows", [&](Device d) { return deep(d).sum(-1); }, 1e-4);
    }
}

TEST(TtTensors, ShapesAtTileEdges) {
    if (!have_tt()) GTEST_SKIP() << "tt:0 is not available in this build or configuration";
    const std::vector<Shape> shapes = {{37, 50}, {1, 33}, {64, 1}, {}, {3, 33, 65}, {5, 0}};
    uint64_t seed = 10;
    for (const Shape& s : shapes) {
        std::string name = "shape [";
        for (size_t d = 0; d < s.size(); ++d) {
            if (d) name += ",";
            name += std::to_string(s[d]);
        }
        name += "]";
        ++seed;
        auto x = [&](Device d) { return data(s, d, seed); };
        auto y = [&](Device d) { return data(s, d, seed + 100); };
        same_as_interpreter(name, " x*y+1", [&](Device d) { return x(d) * y(d) + 1; });
        same_as_interpreter(name, " sum", [&](Device d) { return x(d).sum(); });
        if (!s.empty()) {
            same_as_interpreter(name, " max(0)", [&](Device d) { return x(d).max(0); });
            same_as_interpreter(
                name, " mean(-1) bf16", [&](Device d) { return x(d).cast(DType::bf16).mean(-1); }, 1e-2);
        }
        if (s.size() >= 2)
            same_as_interpreter(
                name, " x @ x^T", [&](Device d) { return x(d).matmul(x(d).transpose(-1, -2)); }, 1e-4);
    }
}

TEST(TtTensors, EveryKindOfStridedView) {
    if (!have_tt()) GTEST_SKIP() << "tt:0 is not available in this build or configuration";
    auto x = [](Device d) { return data({3, 40, 70}, d, 50); };
    auto v = [](Device d) { return data({70}, d, 51); };
    same_as_interpreter("permute", [&](Device d) { return x(d).permute({2, 0, 1}) * 2; });
    same_as_interpreter("transpose of the last two", [&](Device d) { return x(d).transpose(1, 2).exp(); });
    same_as_interpreter("slice with steps", [&](Device d) { return x(d).slice(1, 3, 37, 2).slice(2, 1, 70, 3) + 1; });
    same_as_interpreter("flip", [&](Device d) { return x(d).flip({1, 2}) - x(d); });
    same_as_interpreter("expand", [&](Device d) { return x(d) + v(d); });
    same_as_interpreter("expand a column", [&](Device d) { return x(d) * x(d).slice(2, 5, 6); });
    same_as_interpreter("pad", [&](Device d) { return x(d).pad({{0, 0}, {3, 2}, {1, 33}}, -1.5); });
    same_as_interpreter("reshape across rows", [&](Device d) { return x(d).reshape({3, 70, 40}).sum(-1); });
    same_as_interpreter("sum of a permuted view", [&](Device d) { return x(d).permute({1, 2, 0}).sum(-1); });
    same_as_interpreter("contiguous of a transpose", [&](Device d) { return x(d).transpose(0, 2).contiguous(); });
    same_as_interpreter("0-d", [&](Device d) { return data({}, d, 52) * 3 + data({}, d, 53); });
}

}  // namespace
