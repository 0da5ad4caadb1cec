// In-place ops, assignment through indexing and indexing with tensors (tensor.hpp, issue 15 items
// 1 and 2): the rebinding rule of in-place ops, their dtype and autograd rules, defined results for
// positions out of range, what realizes, and misuse errors that name the op, the shapes and the
// bad value. Values of every op × dtype × device are checked by the op table (group "indexing" of
// test_tensor_ops); gradients by tests/autograd.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::DType;
using zyx::Range;
using zyx::Tensor;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Runs `fn`; expects zyx::Error with `status`, a message starting with "<op>: " and containing
// every string in `parts`.
void expect_error(const std::string& op, const std::function<void()>& fn, const std::vector<std::string>& parts,
                  zyx::ErrorStatus status = zyx::ErrorStatus::InvalidArgument) {
    try {
        fn();
        ADD_FAILURE() << "no error; expected one from " << op;
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), status) << e.what();
        std::string m = e.message();
        if (status == zyx::ErrorStatus::InvalidArgument) {
            EXPECT_EQ(m.rfind(op + ": ", 0), 0u) << "not from " << op << ": " << m;
        }
        EXPECT_NE(m.find(op), std::string::npos) << m;
        for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
    }
}

std::vector<float> f(const Tensor& t) { return t.to_vector<float>(); }
std::vector<int32_t> ints(const Tensor& t) { return t.to_vector<int32_t>(); }
Tensor ivec(std::vector<int32_t> v) { return zyx::tensor(v); }

// ---- in-place ops --------------------------------------------------------------------------------

TEST(InPlace, RebindsOnlyThisHandle) {
    Tensor x = zyx::tensor({1.f, 2.f, 3.f});
    Tensor before = x;
    Tensor view = x.slice(0, 0, 2);
    x += 1;
    x.mul_(zyx::tensor({1.f, 2.f, 3.f}));
    EXPECT_EQ(f(x), (std::vector<float>{2, 6, 12}));
    EXPECT_EQ(f(before), (std::vector<float>{1, 2, 3}));  // the old value, for every other handle
    EXPECT_EQ(f(view), (std::vector<float>{1, 2}));
    view.zero_();  // a view does not alias its base
    EXPECT_EQ(f(view), (std::vector<float>{0, 0}));
    EXPECT_EQ(f(x), (std::vector<float>{2, 6, 12}));
    // The ops return *this, so they chain.
    Tensor y = zyx::tensor({1.f, 2.f});
    y.add_(1).mul_(2).sub_(zyx::tensor({1.f, 1.f}), 3);
    EXPECT_EQ(f(y), (std::vector<float>{1, 3}));
    // Lazy until read: nothing was computed for y's chain before to_vector.
    Tensor z = zyx::tensor({1.f}) + 1;
    z += 1;
    EXPECT_FALSE(z.is_realized());
    EXPECT_EQ(f(z), (std::vector<float>{3}));
}

TEST(InPlace, KeepsDtypeAndShapeAsPyTorch) {
    Tensor i = ivec({1, 2, 3});
    expect_error("add_", [&] { i += 0.5; }, {"result type f32 can't be cast to the desired output type i32"});
    expect_error("div_", [&] { i /= 2; }, {"result type f32 can't be cast to the desired output type i32"});
    expect_error("add_", [&] { i += zyx::tensor({1.f, 1.f, 1.f}); }, {"f32", "i32"});
    expect_error("add_", [&] { i.add_(zyx::tensor(std::vector<int32_t>{1, 1, 1}), 0.5); }, {"f32", "i32"});
    Tensor b = zyx::tensor(std::vector<bool>{true, false});
    expect_error("add_", [&] { b += ivec({1, 1}); }, {"result type i32 can't be cast to the desired output type bool"});
    expect_error("add_",
                 [&] {
                     i += zyx::zeros({2, 3}, DType::i32);
                 },
                 {"output with shape [3] doesn't match the broadcast shape [2,3]"});
    expect_error("add_", [&] { i += ivec({1, 2}); }, {"[3]", "[2]"});
    EXPECT_EQ(ints(i), (std::vector<int32_t>{1, 2, 3}));  // untouched after the errors
    // Integer into a narrower integer, and int into float: allowed, the dtype stays.
    Tensor small = zyx::tensor(std::vector<int8_t>{100, -100});
    small += zyx::tensor(std::vector<int32_t>{100, -100});
    EXPECT_EQ(small.dtype(), DType::i8);
    EXPECT_EQ(small.to_vector<int32_t>(), (std::vector<int32_t>{-56, 56}));  // wraps
    Tensor h = zyx::tensor({1.5f}).cast(DType::f16);
    h *= ivec({3});
    EXPECT_EQ(h.dtype(), DType::f16);
    EXPECT_EQ(f(h), (std::vector<float>{4.5f}));
    Tensor u = zyx::tensor({1.f});
    expect_error("add_",
                 [&] {
                     Tensor undefined;
                     undefined += u;
                 },
                 {"undefined"});
}

TEST(InPlace, LeafThatRequiresGrad) {
    Tensor w = zyx::tensor({1.f, 2.f}).requires_grad_();
    Tensor alias = w;
    expect_error("add_", [&] { w += 1; }, {"a leaf tensor that requires grad", "in-place operation", "NoGradGuard"});
    expect_error("zero_", [&] { w.zero_(); }, {"leaf"});
    expect_error("index_put_", [&] { w.index_put_({0}, 5); }, {"leaf"});
    // Inside a NoGradGuard (an optimiser step) the parameter is updated for every handle and stays a
    // leaf that requires grad.
    (w * w).sum().backward();
    {
        zyx::NoGradGuard off;
        w.sub_(w.grad(), 0.5);
        w.index_put_({1}, 10);
    }
    EXPECT_EQ(f(w), (std::vector<float>{0, 10}));
    EXPECT_EQ(f(alias), (std::vector<float>{0, 10}));
    EXPECT_TRUE(w.requires_grad());
    w.zero_grad();
    (w * 3).sum().backward();
    EXPECT_EQ(f(w.grad()), (std::vector<float>{3, 3}));
}

TEST(InPlace, GradientsFlowThroughTheNewNode) {
    Tensor x = zyx::tensor({1.f, -2.f, 3.f}).requires_grad_();
    Tensor a = x * 2;
    a += x;                                                                 // 3x
    a.mul_(zyx::tensor({1.f, 2.f, 3.f}));                                   // 3x · c
    a.masked_fill_(zyx::tensor(std::vector<bool>{false, true, false}), 7);  // position 1 cut off
    a.index_put_({Range(2)}, a.index({Range(2)}) * 2);                      // position 2 doubled
    a.sum().backward();
    EXPECT_EQ(f(x.grad()), (std::vector<float>{3, 0, 18}));
    EXPECT_EQ(f(a), (std::vector<float>{3, 7, 54}));
}

TEST(InPlace, MaskedFillCopyFill) {
    Tensor x = zyx::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    Tensor m = zyx::tensor(std::vector<bool>{true, false, true});
    EXPECT_EQ(f(x.masked_fill(m, kNaN).isnan()), (std::vector<float>{1, 0, 1, 1, 0, 1}));
    EXPECT_EQ(f(x.masked_fill(m, zyx::scalar_tensor(-kInf))), (std::vector<float>{-kInf, 2, -kInf, -kInf, 5, -kInf}));
    Tensor i = ivec({1, 2, 3});
    EXPECT_EQ(ints(i.masked_fill(m, 2.7)), (std::vector<int32_t>{2, 2, 2}));  // the value takes x's dtype
    expect_error("masked_fill", [&] { x.masked_fill(ivec({1, 0, 1}), 0); }, {"mask must be bool", "i32", "[3]"});
    expect_error("masked_fill", [&] { x.masked_fill(m, zyx::tensor({1.f, 2.f})); }, {"0-d", "[2]"});
    expect_error("masked_fill",
                 [&] {
                     x.masked_fill(zyx::tensor(std::vector<bool>{true, false}), 0);
                 },
                 {"[2,3]", "[2]"});
    Tensor x2 = x;
    expect_error("masked_fill_",
                 [&] {
                     x2.masked_fill_(zyx::zeros({3, 2, 3}, DType::bool_), 0);
                 },
                 {"output with shape [2,3]", "[3,2,3]"});
    // copy_: broadcast, any cast, across devices.
    Tensor c = zyx::zeros({2, 3}, DType::i32);
    c.copy_(zyx::tensor({-1.9f, 2.5f, 300.f}));
    EXPECT_EQ(ints(c), (std::vector<int32_t>{-1, 2, 300, -1, 2, 300}));
    Tensor d = zyx::zeros({2}, DType::f32, zyx::Device::interpreter());
    d.copy_(zyx::tensor({1.f, 2.f}));
    EXPECT_EQ(d.device(), zyx::Device::interpreter());
    EXPECT_EQ(f(d), (std::vector<float>{1, 2}));
    expect_error("copy_", [&] { c.copy_(zyx::zeros({3, 3})); }, {"src of shape [3,3]", "[2,3]"});
    // fill_ / zero_.
    Tensor e = zyx::zeros({2, 2}, DType::u8);
    e.fill_(7);
    EXPECT_EQ(e.to_vector<int32_t>(), (std::vector<int32_t>{7, 7, 7, 7}));
    e.fill_(zyx::scalar_tensor(3));
    EXPECT_EQ(e.to_vector<int32_t>(), (std::vector<int32_t>{3, 3, 3, 3}));
    e.zero_();
    EXPECT_EQ(e.to_vector<int32_t>(), (std::vector<int32_t>{0, 0, 0, 0}));
    EXPECT_EQ(e.dtype(), DType::u8);
    expect_error("fill_", [&] { e.fill_(zyx::zeros({2})); }, {"0-d", "[2]"});
}

// ---- assignment through indexing -------------------------------------------------------------------

TEST(IndexPut, SlicesIntegersAndTensors) {
    Tensor x = zyx::zeros({3, 4}, DType::i32);
    x.index_put_({Range(0, 3, 2), Range(1, 3)}, ivec({5, 6}));  // x[0:3:2, 1:3] = [5, 6]
    x.index_put_({1, -1}, 9);                                   // x[1, -1] = 9
    EXPECT_EQ(ints(x), (std::vector<int32_t>{0, 5, 6, 0, 0, 0, 0, 9, 0, 5, 6, 0}));
    x.index_put_({Range(0, 0)}, 4);                         // an empty selection changes nothing
    x.index_put_({Range(1, 2)}, ivec({1, 1, 1, 1}), true);  // accumulate onto a row
    EXPECT_EQ(ints(x), (std::vector<int32_t>{0, 5, 6, 0, 1, 1, 1, 10, 0, 5, 6, 0}));
    // Integer tensors: duplicates add up with accumulate, and (defined here) without it too;
    // negative positions count from the end; out of range writes nowhere.
    Tensor y = zyx::zeros({4}, DType::i32);
    Tensor idx = ivec({0, 0, -1, 7, -5});
    EXPECT_EQ(ints(y.index_put({idx}, ivec({1, 2, 3, 4, 5}), true)), (std::vector<int32_t>{3, 0, 0, 3}));
    Tensor z = ivec({9, 9, 9, 9});
    EXPECT_EQ(ints(z.index_put({idx}, ivec({1, 2, 3, 4, 5}))), (std::vector<int32_t>{3, 9, 9, 3}));
    EXPECT_EQ(ints(z), (std::vector<int32_t>{9, 9, 9, 9}));  // index_put (no underscore) is out of place
    // A bool mask (realizes it).
    Tensor w = zyx::tensor({1.f, -2.f, 3.f, -4.f});
    Tensor neg = w < 0;
    w.index_put_({neg}, 0);
    EXPECT_TRUE(neg.is_realized());
    EXPECT_EQ(f(w), (std::vector<float>{1, 0, 3, 0}));
}

TEST(IndexPut, Errors) {
    Tensor x = zyx::zeros({3, 4});
    expect_error("index_put_", [&] { x.index_put_({Range(0, 2)}, zyx::zeros({3})); },
                 {"values of shape [3] do not broadcast to the indexed shape [2,4]", "[3,4]"});
    expect_error("index_put_", [&] { x.index_put_({5}, 1); }, {"position 5 out of range for axis 0 of size 3"});
    expect_error("index_put_", [&] { x.index_put_({0, 0, 0}, 1); }, {"3 indices", "[3,4]"});
    expect_error("index_put", [&] { x.index_put({zyx::tensor({0.f})}, zyx::zeros({4})); },
                 {"index tensor must have an integer dtype, got f32 [1]"});
    expect_error("index_put",
                 [&] {
                     x.index_put({ivec({0, 1})}, zyx::zeros({3, 4}));
                 },
                 {"values of shape [3,4] do not broadcast to the indexed shape [2,4]"});
    expect_error("index_put",
                 [&] {
                     x.index_put({ivec({0}), ivec({0}), ivec({0})}, zyx::zeros({1}));
                 },
                 {"3 axes", "[3,4]"});
    expect_error("index_put",
                 [&] {
                     x.index_put({ivec({0, 1}), ivec({0, 1, 2})}, zyx::zeros({1}));
                 },
                 {"shapes [2] and [3] do not broadcast"});
    expect_error(
        "index_put",
        [&] {
            x.index_put({1, ivec({0})}, zyx::zeros({1}));
        },
        {"integer position 1"}, zyx::ErrorStatus::Unsupported);
    Tensor m = zyx::ones({3}, DType::bool_);
    expect_error(
        "index_put",
        [&] {
            x.index_put({m, ivec({0})}, zyx::zeros({1}));
        },
        {"bool mask together"}, zyx::ErrorStatus::Unsupported);
    expect_error("index_put_", [&] { x.index_put_({zyx::ones({4}, DType::bool_)}, 1); },
                 {"the shape of the mask [4] at axis 0 does not match the shape of the indexed tensor [3,4]"});
    expect_error("index_put_", [&] { x.index_put_({ivec({0}), zyx::zeros({1})}, 1); }, {"integer dtype, got f32"});
    EXPECT_EQ(f(x), std::vector<float>(12, 0.f));
}

// ---- indexing with tensors -------------------------------------------------------------------------

TEST(Indexing, OutOfRangePositionsHaveDefinedResults) {
    Tensor x = zyx::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    // gather / index_select / take_along_dim / embedding read 0; negative positions are out of range.
    EXPECT_EQ(f(x.gather(1, zyx::tensor({{2, 3}, {-1, 0}}))), (std::vector<float>{3, 0, 0, 4}));
    EXPECT_EQ(f(x.index_select(0, ivec({1, 2, -1}))), (std::vector<float>{4, 5, 6, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(f(x.take_along_dim(ivec({5, 6}))), (std::vector<float>{6, 0}));
    EXPECT_EQ(f(zyx::embedding(ivec({1, 3}), x)), (std::vector<float>{4, 5, 6, 0, 0, 0}));
    // scatter / scatter_add write nowhere.
    Tensor idx = zyx::tensor({{0, 3, -1}});
    EXPECT_EQ(f(x.scatter(0, idx, zyx::full({1, 3}, 9.f))), (std::vector<float>{9, 2, 3, 4, 5, 6}));
    EXPECT_EQ(f(x.scatter_add(0, idx, zyx::full({1, 3}, 9.f))), (std::vector<float>{10, 2, 3, 4, 5, 6}));
    // Advanced indexing (as numpy): negative positions wrap once, further out reads 0.
    EXPECT_EQ(f(x.index({ivec({-1, -3, 2}), ivec({-1, 0, 0})})), (std::vector<float>{6, 0, 0}));
    // Narrow index dtypes against long axes: the range check does not wrap the axis size.
    Tensor r = zyx::arange(300);
    EXPECT_EQ(ints(r.index({zyx::tensor(std::vector<uint8_t>{255, 0})})), (std::vector<int32_t>{255, 0}));
    EXPECT_EQ(ints(r.slice(0, 0, 200).index({zyx::tensor(std::vector<int8_t>{-100, 127})})),
              (std::vector<int32_t>{100, 127}));
    EXPECT_EQ(ints(r.slice(0, 0, 200).index({zyx::tensor(std::vector<int16_t>{-250, 200, -200})})),
              (std::vector<int32_t>{0, 0, 0}));
    EXPECT_EQ(ints(r.gather(0, zyx::tensor(std::vector<uint8_t>{255}))), (std::vector<int32_t>{255}));
    EXPECT_EQ(ints(r.index({zyx::tensor(std::vector<uint64_t>{299, uint64_t(1) << 63})})),
              (std::vector<int32_t>{299, 0}));
    // Repeated positions in scatter (replace): their values add up (PyTorch leaves it undefined).
    EXPECT_EQ(f(zyx::zeros({3}).scatter(0, ivec({1, 1, 2}), zyx::tensor({1.f, 2.f, 4.f}))),
              (std::vector<float>{0, 3, 4}));
    // Special values are carried (not multiplied by a one-hot).
    Tensor s = zyx::tensor({kNaN, kInf, -kInf, 1.f});
    std::vector<float> g = f(s.gather(0, ivec({1, 2, 3, 3})));
    EXPECT_EQ(g, (std::vector<float>{kInf, -kInf, 1, 1}));
    EXPECT_TRUE(std::isnan(f(s.index_select(0, ivec({0})))[0]));
}

TEST(Indexing, ShapesOfAdvancedIndexing) {
    Tensor x = zyx::arange(24).reshape({2, 3, 4});
    EXPECT_EQ(x.index({ivec({1, 0})}).shape(), (zyx::Shape{2, 3, 4}));
    EXPECT_EQ(x.index({zyx::tensor({{0}, {1}}), ivec({0, 2})}).shape(), (zyx::Shape{2, 2, 4}));
    Tensor mid = x.index({Range(), ivec({2, 0}), Range(1, 3)});  // B takes the place of axis 1
    EXPECT_EQ(mid.shape(), (zyx::Shape{2, 2, 2}));
    EXPECT_EQ(ints(mid), (std::vector<int32_t>{9, 10, 1, 2, 21, 22, 13, 14}));
    Tensor last = x.index({Range(), Range(), zyx::tensor({{3, 0}})});
    EXPECT_EQ(last.shape(), (zyx::Shape{2, 3, 1, 2}));
    EXPECT_EQ(ints(last).front(), 3);
    Tensor mask = zyx::tensor({{true, false, true}, {false, false, true}});
    EXPECT_EQ(x.index({mask}).shape(), (zyx::Shape{3, 4}));
    EXPECT_EQ(ints(x.index({mask}).index({Range(), 0})), (std::vector<int32_t>{0, 8, 20}));
    // Empty selections.
    Tensor none = zyx::zeros({2, 3}, DType::bool_);
    EXPECT_EQ(x.index({none}).shape(), (zyx::Shape{0, 4}));
    EXPECT_EQ(x.masked_select(none.unsqueeze(-1)).shape(), (zyx::Shape{0}));
    EXPECT_EQ(none.nonzero().shape(), (zyx::Shape{0, 2}));
    EXPECT_EQ(x.gather(0, zyx::zeros({0, 3, 4}, DType::i32)).shape(), (zyx::Shape{0, 3, 4}));
    EXPECT_EQ(x.index_select(2, zyx::zeros({0}, DType::i64)).shape(), (zyx::Shape{2, 3, 0}));
    EXPECT_EQ(f(zyx::scalar_tensor(5.f).index_select(-1, ivec({0, 1, 0}))), (std::vector<float>{5, 0, 5}));
    expect_error("index_select", [&] { zyx::scalar_tensor(5.f).index_select(1, ivec({0})); }, {"axis 1"});
    // nonzero of a 0-d tensor: one row of no columns when non-zero.
    EXPECT_EQ(zyx::scalar_tensor(kNaN).nonzero().shape(), (zyx::Shape{1, 0}));
    EXPECT_EQ(zyx::scalar_tensor(0).nonzero().shape(), (zyx::Shape{0, 0}));
}

// Data-dependent shapes realize what they must and nothing else.
TEST(Indexing, WhatRealizes) {
    Tensor a = zyx::tensor({1.f, -2.f, 3.f});
    Tensor x = a * 10;  // lazy
    Tensor m = a > 0;   // lazy
    Tensor sel = x.masked_select(m);
    EXPECT_TRUE(m.is_realized());
    EXPECT_FALSE(x.is_realized());
    EXPECT_FALSE(sel.is_realized());
    EXPECT_EQ(f(sel), (std::vector<float>{10, 30}));
    Tensor y = a * 2, m2 = a < 0;
    Tensor picked = y.index({m2});
    EXPECT_TRUE(m2.is_realized());
    EXPECT_FALSE(y.is_realized());
    EXPECT_EQ(f(picked), (std::vector<float>{-4}));
    Tensor n = a - 1;
    Tensor nz = n.nonzero();
    EXPECT_TRUE(n.is_realized());
    EXPECT_EQ(nz.dtype(), DType::i32);
    EXPECT_EQ(ints(nz), (std::vector<int32_t>{1, 2}));
    // Integer-tensor forms stay lazy, indices included.
    Tensor i = ivec({2, 0}) + 0, v = a + 0;
    Tensor g = v.gather(0, i), s = v.scatter(0, i, v.index_select(0, i)), t = v.index({i}),
           p = v.index_put({i}, v.index({i}));
    EXPECT_FALSE(i.is_realized());
    EXPECT_FALSE(v.is_realized());
    zyx::realize({g, s, t, p});
    EXPECT_EQ(f(g), (std::vector<float>{3, 1}));
    EXPECT_EQ(f(s), (std::vector<float>{1, -2, 3}));
}

TEST(Indexing, Errors) {
    Tensor x = zyx::zeros({2, 3});
    Tensor i2 = zyx::zeros({2, 2}, DType::i32);
    expect_error("gather", [&] { x.gather(1, ivec({0})); },
                 {"index [1] and the tensor [2,3] must have the same number of dimensions"});
    expect_error("gather",
                 [&] {
                     x.gather(1, zyx::zeros({3, 1}, DType::i32));
                 },
                 {"index [3,1] is larger than the tensor [2,3] at axis 0"});
    expect_error("gather",
                 [&] {
                     x.gather(1, zyx::zeros({2, 2}));
                 },
                 {"index must have an integer dtype, got f32 [2,2]"});
    expect_error("gather", [&] { x.gather(2, i2); }, {"axis 2", "[2,3]"});
    expect_error("gather", [&] { x.gather(1, i2.to(zyx::Device::interpreter())); }, {"interpreter", "host"});
    expect_error("scatter",
                 [&] {
                     x.scatter(1, i2, zyx::zeros({2, 1}));
                 },
                 {"index [2,2] is larger than src [2,1] at axis 1"});
    expect_error("scatter", [&] { x.scatter(1, i2, zyx::zeros({2})); }, {"src [2] and the tensor [2,3]"});
    expect_error("scatter_add",
                 [&] {
                     x.scatter_add(0, zyx::zeros({2, 4}, DType::i32), zyx::zeros({2, 4}));
                 },
                 {"index [2,4] is larger than the tensor [2,3] at axis 1"});
    expect_error(
        "scatter_add",
        [&] {
            x.scatter_add(0, i2, zyx::zeros({2, 2}, DType::bool_).cast(DType::f32).to(zyx::Device::interpreter()));
        },
        {"src is on interpreter"});
    Tensor xs = x;
    expect_error("scatter_", [&] { xs.scatter_(0, zyx::zeros({2, 2}, DType::bool_), 1); }, {"integer dtype, got bool"});
    expect_error("index_select", [&] { x.index_select(0, i2); }, {"index must be 1-D or 0-d, got shape [2,2]"});
    expect_error("index_select", [&] { x.index_select(-3, ivec({0})); }, {"axis -3", "[2,3]"});
    expect_error("take_along_dim", [&] { x.take_along_dim(ivec({0}), 0); },
                 {"indices [1] and the tensor [2,3] must have the same number of dimensions"});
    expect_error("take_along_dim",
                 [&] {
                     x.take_along_dim(zyx::zeros({3, 1}, DType::i32), 1);
                 },
                 {"do not broadcast at axis 0 (3 vs 2)"});
    expect_error("take_along_dim", [&] { x.take_along_dim(zyx::zeros({1}, DType::f16)); }, {"integer dtype, got f16"});
    expect_error("embedding", [&] { zyx::embedding(ivec({0}), zyx::zeros({4})); },
                 {"weight must be 2-D [num_embeddings, embedding_dim], got shape [4]"});
    expect_error("embedding", [&] { zyx::embedding(zyx::zeros({2}), x); },
                 {"input must have an integer dtype, got f32 [2]"});
    expect_error("index", [&] { x.index({zyx::ones({3}, DType::bool_)}); },
                 {"the shape of the mask [3] at axis 0 does not match the shape of the indexed tensor [2,3]"});
    expect_error("index",
                 [&] {
                     x.index({zyx::ones({2, 3, 1}, DType::bool_)});
                 },
                 {"indices for 3 axes given for a tensor of shape [2,3]"});
    expect_error(
        "index",
        [&] {
            x.index({ivec({0}), 0});
        },
        {"integer position 0"}, zyx::ErrorStatus::Unsupported);
    expect_error(
        "index",
        [&] {
            x.index({ivec({0}), Range(), ivec({0})});
        },
        {"not consecutive"}, zyx::ErrorStatus::Unsupported);
    expect_error("index", [&] { x.index({Tensor()}); }, {"undefined tensor"});
    expect_error("masked_select", [&] { x.masked_select(ivec({1, 0, 1})); }, {"mask must be bool, got i32 [3]"});
    expect_error("masked_select", [&] { x.masked_select(zyx::ones({4}, DType::bool_)); },
                 {"shapes [2,3] and [4] do not broadcast"});
    expect_error("nonzero", [&] { Tensor().nonzero(); }, {"undefined"});
    // Everything still works after the errors.
    EXPECT_EQ(f(x.gather(1, i2)), (std::vector<float>{0, 0, 0, 0}));
}

}  // namespace
