// The Tensor API around the ops: printing (PyTorch's exact format), reading values, creation from
// C++ data, random numbers, devices, laziness, realization, threads.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "graph/graph.hpp"
#include "schedule/scheduler.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;

// ---- printing: expected strings are what PyTorch prints for the same values -------------------------

TEST(Print, FloatsInIntegerMode) {
    EXPECT_EQ(zyx::tensor({{1.f, 2.f}, {3.f, 4.f}}).to_string(), "tensor([[1., 2.],\n        [3., 4.]])");
    EXPECT_EQ(zyx::tensor({-1.f, 10.f, 100.f}).to_string(), "tensor([ -1.,  10., 100.])");
    EXPECT_EQ(zyx::zeros({3}).to_string(), "tensor([0., 0., 0.])");
}

TEST(Print, FixedAndScientific) {
    EXPECT_EQ(zyx::tensor({1.5f, -2.25f, 1000.f}).to_string(), "tensor([   1.5000,   -2.2500, 1000.0000])");
    EXPECT_EQ(zyx::tensor({1e-5f, 1.f}).to_string(), "tensor([1.0000e-05, 1.0000e+00])");
    EXPECT_EQ(zyx::tensor({123456789.f, 1.f}).to_string(), "tensor([1.2346e+08, 1.0000e+00])");
    EXPECT_EQ(zyx::full({}, 3.5).to_string(), "tensor(3.5000)");
    EXPECT_EQ(zyx::full({}, 2).to_string(), "tensor(2.)");
}

TEST(Print, NonFiniteValues) {
    float nan = std::nanf(""), inf = INFINITY;
    EXPECT_EQ(zyx::tensor({nan, 1.f, inf}).to_string(), "tensor([nan, 1., inf])");
    EXPECT_EQ(zyx::tensor({-inf, 0.5f}).to_string(), "tensor([  -inf, 0.5000])");
}

TEST(Print, IntegersBoolAndDtypeSuffix) {
    EXPECT_EQ(zyx::tensor({-1, 10, 100}).to_string(), "tensor([ -1,  10, 100], dtype=i32)");
    // PyTorch leaves f32, int64 and bool implied, except for empty tensors (no values to tell by).
    EXPECT_EQ(zyx::tensor({{true, false}}).to_string(), "tensor([[ True, False]])");
    EXPECT_EQ(zyx::full({}, true, DType::bool_).to_string(), "tensor(True)");
    EXPECT_EQ(zyx::zeros({0}, DType::bool_).to_string(), "tensor([], dtype=bool)");
    EXPECT_EQ(zyx::zeros({2, 0}, DType::bool_).to_string(), "tensor([], size=(2, 0), dtype=bool)");
    EXPECT_EQ(zyx::tensor(std::vector<int64_t>{1, -2}).to_string(), "tensor([ 1, -2])");
    EXPECT_EQ(zyx::zeros({3, 0}, DType::i64).to_string(), "tensor([], size=(3, 0), dtype=i64)");
    EXPECT_EQ(zyx::tensor({1.f, 2.f}).cast(DType::bf16).to_string(), "tensor([1., 2.], dtype=bf16)");
    EXPECT_EQ(zyx::tensor(std::vector<uint64_t>{18446744073709551615ull}).to_string(),
              "tensor([18446744073709551615], dtype=u64)");
}

TEST(Print, EmptyAndHigherRank) {
    EXPECT_EQ(zyx::zeros({0}).to_string(), "tensor([])");
    EXPECT_EQ(zyx::zeros({0, 3}).to_string(), "tensor([], size=(0, 3))");
    EXPECT_EQ(zyx::zeros({0}, DType::i32).to_string(), "tensor([], dtype=i32)");
    EXPECT_EQ(zyx::arange(0, 8, 1, DType::f32).reshape({2, 2, 2}).to_string(),
              "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])");
}

TEST(Print, LongRowsWrapAt80Columns) {
    EXPECT_EQ(zyx::arange(0, 30, 1, DType::f32).to_string(),
              "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
              "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
              "        28., 29.])");
}

TEST(Print, LargeTensorsAreSummarised) {
    EXPECT_EQ(zyx::zeros({2000}).to_string(), "tensor([0., 0., 0.,  ..., 0., 0., 0.])");
    EXPECT_EQ(zyx::arange(0, 2000, 1, DType::i32).reshape({1000, 2}).to_string(),
              "tensor([[   0,    1],\n        [   2,    3],\n        [   4,    5],\n        ...,\n"
              "        [1994, 1995],\n        [1996, 1997],\n        [1998, 1999]], dtype=i32)");
}

TEST(Print, StreamOperatorAndLazyTensor) {
    std::ostringstream os;
    Tensor lazy = zyx::tensor({1.f, 2.f}) * 2;
    EXPECT_FALSE(lazy.is_realized());
    os << lazy;
    EXPECT_EQ(os.str(), "tensor([2., 4.])");
    EXPECT_TRUE(lazy.is_realized());
}

// ---- reading values ---------------------------------------------------------------------------------

TEST(Read, ToVectorConvertsByTheCastRules) {
    Tensor x = zyx::tensor({-1.7f, 2.5f, 300.f, std::nanf("")});
    EXPECT_EQ(x.to_vector<int32_t>(), (std::vector<int32_t>{-1, 2, 300, 0}));
    EXPECT_EQ(x.to_vector<int8_t>(), (std::vector<int8_t>{-1, 2, 127, 0}));  // saturates
    EXPECT_EQ(x.to_vector<bool>(), (std::vector<bool>{true, true, true, true}));
    Tensor b = zyx::tensor({0.1f, 3.f}).cast(DType::bf16);
    EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{0.10009765625f, 3.f}));  // bf16 0.1 exactly
    Tensor big = zyx::tensor(std::vector<int64_t>{(int64_t(1) << 60) + 1});
    EXPECT_EQ(big.to_vector<int64_t>()[0], (int64_t(1) << 60) + 1);  // 64-bit integers stay exact
}

TEST(Read, ToBufferWritesIntoTheCallersMemory) {
    zyx::Tensor t = zyx::tensor({1.5f, -2.f, 3.f, 0.f}).reshape({2, 2});
    std::vector<float> f(5, 9.f);
    t.to_buffer(f.data(), f.size());
    EXPECT_EQ(f, (std::vector<float>{1.5f, -2.f, 3.f, 0.f, 9.f}));  // only numel() elements written
    int32_t i[4];
    t.to_buffer(i, 4);  // converted by the cast rules
    EXPECT_EQ(i[0], 1);
    EXPECT_EQ(i[1], -2);
    bool b[4];
    t.to_buffer(b, 4);
    EXPECT_TRUE(b[0]);
    EXPECT_FALSE(b[3]);
}

TEST(Read, ItemOfOneElement) {
    EXPECT_EQ(zyx::tensor({{7}}).item<int>(), 7);
    EXPECT_FLOAT_EQ(zyx::tensor({1.f, 2.f, 3.f}).sum().item<float>(), 6.f);
    EXPECT_DOUBLE_EQ(zyx::full({}, 0.5, DType::f16).item<double>(), 0.5);
}

// ---- creation ---------------------------------------------------------------------------------------

TEST(Create, DtypesFromCppTypes) {
    EXPECT_EQ(zyx::tensor({1.0, 2.0}).dtype(), DType::f32);  // double literals → f32, as libtorch
    EXPECT_EQ(zyx::tensor(std::vector<double>{1, 2}, {2}, DType::f64).dtype(), DType::f64);
    EXPECT_EQ(zyx::tensor({1, 2}).dtype(), DType::i32);
    EXPECT_EQ(zyx::tensor(std::vector<int64_t>{1}).dtype(), DType::i64);
    EXPECT_EQ(zyx::tensor(std::vector<uint8_t>{1}).dtype(), DType::u8);
    EXPECT_EQ(zyx::tensor({true}).dtype(), DType::bool_);
    EXPECT_EQ(zyx::tensor({{{1.f}, {2.f}}, {{3.f}, {4.f}}}).shape(), (zyx::Shape{2, 2, 1}));
    Tensor c = zyx::tensor(std::vector<double>{1.5, -2.5}, {2}, DType::i16);
    EXPECT_EQ(c.to_vector<int>(), (std::vector<int>{1, -2}));
    float raw[] = {1, 2, 3, 4};
    EXPECT_EQ(zyx::from_bytes(raw, sizeof raw, {2, 2}, DType::f32).sum().item<float>(), 10.f);
    EXPECT_EQ(zyx::scalar_tensor(3).dtype(), DType::i32);
    EXPECT_EQ(zyx::scalar_tensor(2.5).dim(), 0u);
    EXPECT_EQ(zyx::arange(3).dtype(), DType::i32);
    EXPECT_EQ(zyx::arange(0, 1, 0.5).dtype(), DType::f32);
}

TEST(Create, ConstantsComputeNothingUntilRead) {
    zyx::sched::reset_stats();
    Tensor z = zyx::zeros({1000, 1000});
    Tensor y = (z + 1).exp().sum(1);
    EXPECT_EQ(zyx::sched::stats().kernels, 0u);
    EXPECT_FALSE(y.is_realized());
    EXPECT_EQ(y.shape(), zyx::Shape{1000});
}

TEST(Random, SeedsAreReproducibleAndDistinct) {
    zyx::Generator a(5), b(5), c(6);
    std::vector<float> va = zyx::rand({100}, DType::f32, Device::host(), a).to_vector<float>();
    std::vector<float> vb = zyx::rand({100}, DType::f32, Device::host(), b).to_vector<float>();
    std::vector<float> vc = zyx::rand({100}, DType::f32, Device::host(), c).to_vector<float>();
    EXPECT_EQ(va, vb);
    EXPECT_NE(va, vc);
    zyx::manual_seed(11);
    std::vector<float> d1 = zyx::randn({10}).to_vector<float>();
    zyx::manual_seed(11);
    EXPECT_EQ(zyx::randn({10}).to_vector<float>(), d1);
    // The same seed gives the same values on another device.
    zyx::Generator e(5);
    EXPECT_EQ(zyx::rand({100}, DType::f32, Device::interpreter(), e).to_vector<float>(), va);
}

TEST(Random, Distributions) {
    zyx::Generator g(1);
    const int n = 20000;
    for (DType t : {DType::f32, DType::bf16, DType::f16}) {
        std::vector<float> u = zyx::rand({n}, t, Device::host(), g).to_vector<float>();
        float lo = *std::min_element(u.begin(), u.end()), hi = *std::max_element(u.begin(), u.end());
        EXPECT_GE(lo, 0.f);
        EXPECT_LT(hi, 1.f);  // strictly below 1 even after rounding to the dtype
    }
    Tensor r = zyx::randn({n}, DType::f32, Device::host(), g);
    EXPECT_NEAR(r.mean().item<float>(), 0.f, 0.05f);
    EXPECT_NEAR(r.std().item<float>(), 1.f, 0.05f);
    EXPECT_EQ(r.stddev().item<float>(), r.std().item<float>());
    Tensor u = zyx::uniform({n}, -3, 5, DType::f32, Device::host(), g);
    EXPECT_NEAR(u.mean().item<float>(), 1.f, 0.1f);
    EXPECT_GE(u.min().item<float>(), -3.f);
    EXPECT_LE(u.max().item<float>(), 5.f);
    std::vector<int> ri = zyx::randint(-2, 3, {n}, DType::i32, Device::host(), g).to_vector<int>();
    std::vector<int> hits(5, 0);
    for (int v : ri) {
        ASSERT_GE(v, -2);
        ASSERT_LT(v, 3);
        ++hits[size_t(v + 2)];
    }
    for (int h : hits) EXPECT_NEAR(h, n / 5, n / 25);
}

// ---- devices ----------------------------------------------------------------------------------------

TEST(Devices, NamesAndMoves) {
    EXPECT_EQ(Device::parse("tt:3"), Device::tt(3));
    EXPECT_EQ(Device::parse("interpreter").str(), "interpreter");
    EXPECT_EQ(Device::tt(1).str(), "tt:1");
    EXPECT_EQ(Device::parse("host"), Device::host());
    Tensor x = zyx::tensor({1.f, 2.f, 3.f});
    EXPECT_EQ(x.to(Device::host()).node(), x.node());  // already there: the same tensor
    Tensor y = (x.to(Device::interpreter()) * 2).to(Device::host());
    EXPECT_EQ(y.device(), Device::host());
    EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{2, 4, 6}));
    std::vector<Device> avail = zyx::available_devices();
    EXPECT_EQ(avail[0], Device::host());
    EXPECT_EQ(avail[1], Device::interpreter());
}

// ---- realization and lifetime ------------------------------------------------------------------------

TEST(Realize, ContiguousRealizeAndGraphRelease) {
    Tensor a = zyx::tensor({1.f, 2.f});
    Tensor b = a * 3;
    EXPECT_FALSE(b.is_realized());
    EXPECT_EQ(b.node()->inputs.size(), 2u);  // the graph: a and the constant 3
    b.realize();
    EXPECT_TRUE(b.is_realized());
    EXPECT_TRUE(b.node()->inputs.empty());  // realized: a leaf holding its buffer
    // It keeps its op and a record of each former input (for autograd): id, dtype, shape and a
    // weak reference, live while someone else holds the input (a), expired otherwise (the 3).
    const zyx::graph::Node& n = *b.node();
    EXPECT_EQ(n.kind, zyx::graph::OpKind::binary);
    EXPECT_EQ(n.op, zyx::kernel::Op::mul);
    ASSERT_EQ(n.realized_inputs.size(), 2u);
    EXPECT_EQ(n.realized_inputs[0].id, a.node()->id);
    EXPECT_EQ(n.realized_inputs[0].node.lock(), a.node());
    EXPECT_EQ(n.realized_inputs[0].dtype, DType::f32);
    EXPECT_EQ(n.realized_inputs[0].shape, (zyx::Shape{2}));
    EXPECT_EQ(n.realized_inputs[1].shape, (zyx::Shape{2}));  // the 3, expanded to a's shape
    EXPECT_TRUE(n.realized_inputs[1].node.expired());
    EXPECT_TRUE(a.node()->realized_inputs.empty());  // a leaf from the start
    EXPECT_EQ(b.contiguous().node(), b.node());
    Tensor c = b.reshape({2, 1}).transpose().contiguous();  // a new node (sharing b's bytes)
    EXPECT_NE(c.node(), b.node());
    EXPECT_EQ(c.shape(), (zyx::Shape{1, 2}));
    EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{3, 6}));
}

TEST(Realize, EmptyTensorsComputeNothing) {
    zyx::sched::reset_stats();
    Tensor e = zyx::zeros({0, 5}) + 1;
    EXPECT_EQ(e.to_vector<float>().size(), 0u);
    EXPECT_EQ(zyx::sched::stats().kernels, 0u);
    EXPECT_EQ(zyx::zeros({0, 5}).sum(0).to_vector<float>(), std::vector<float>(5, 0.f));
}

TEST(Realize, ThreadsBuildAndRealizeConcurrently) {
    std::vector<std::thread> threads;
    std::vector<float> results(8);
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([t, &results] {
            Tensor x = zyx::full({16, 16}, float(t));
            Tensor y = ((x + 1) * 2).sum();
            results[size_t(t)] = y.item<float>();
        });
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < 8; ++t) EXPECT_EQ(results[size_t(t)], 256.f * 2 * float(t + 1));
}

}  // namespace
