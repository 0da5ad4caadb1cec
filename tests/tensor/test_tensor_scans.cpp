// Issue 15, items 3 and 6 (label `tensor`): what the op table (test_tensor_ops.cpp, groups `scan`
// and `names`) cannot say — special values, ties and NaN in orderings, gradients of the
// selections, the realization of data-dependent ops, distributions of the new random functions,
// and misuse errors naming the op, the shapes and the bad value. References are plain loops here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;
const float kNaN = std::numeric_limits<float>::quiet_NaN();

void expect_error(const std::function<void()>& fn, std::vector<std::string> parts,
                  zyx::ErrorStatus status = zyx::ErrorStatus::InvalidArgument) {
    try {
        fn();
        ADD_FAILURE() << "no error; expected one mentioning " << parts[0];
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), status) << e.what();
        for (const std::string& p : parts)
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << "'" << p << "' not in: " << e.what();
    }
}

std::vector<float> F(const Tensor& t) { return t.to_vector<float>(); }
std::vector<int32_t> I(const Tensor& t) { return t.to_vector<int32_t>(); }

// ---- orderings --------------------------------------------------------------------------------------

TEST(Scans, SortPutsNanLastAscendingAndFirstDescendingAndIsStable) {
    Tensor x = zyx::tensor({3.f, kNaN, 1.f, 3.f, -INFINITY, kNaN, 1.f});
    auto [v, i] = x.sort();
    EXPECT_EQ(I(i), (std::vector<int32_t>{4, 2, 6, 0, 3, 1, 5}));
    std::vector<float> got = F(v);
    EXPECT_EQ(got[0], -INFINITY);
    EXPECT_EQ(got[3], 3.f);
    EXPECT_TRUE(std::isnan(got[5]) && std::isnan(got[6]));
    auto [vd, id] = x.sort(0, true);
    EXPECT_EQ(I(id), (std::vector<int32_t>{1, 5, 0, 3, 2, 6, 4}));  // equal elements keep their order
    EXPECT_EQ(I(x.argsort(-1, true)), I(id));
    EXPECT_TRUE(std::isnan(F(vd)[0]));
    EXPECT_EQ(i.dtype(), DType::i32);
    EXPECT_EQ(v.dtype(), DType::f32);
}

TEST(Scans, SortAlongAnInnerAxisAndOfWideIntegers) {
    Tensor x = zyx::tensor({{{5, 1}, {2, 7}, {9, 0}}});  // [1, 3, 2] i32
    auto [v, i] = x.sort(1, true);
    EXPECT_EQ(v.shape(), (zyx::Shape{1, 3, 2}));
    EXPECT_EQ(v.to_vector<int32_t>(), (std::vector<int32_t>{9, 7, 5, 1, 2, 0}));
    EXPECT_EQ(I(i), (std::vector<int32_t>{2, 1, 0, 0, 1, 2}));
    // 64-bit values beyond double's 53 bits sort and come back exactly.
    int64_t big = (int64_t(1) << 60) + 1;
    Tensor w = zyx::tensor(std::vector<int64_t>{big, big - 1, -big});
    EXPECT_EQ(w.sort().values.to_vector<int64_t>(), (std::vector<int64_t>{-big, big - 1, big}));
    Tensor u = zyx::tensor(std::vector<uint64_t>{UINT64_MAX, 0, UINT64_MAX - 1});
    EXPECT_EQ(u.sort().values.to_vector<uint64_t>(), (std::vector<uint64_t>{0, UINT64_MAX - 1, UINT64_MAX}));
}

TEST(Scans, OrderingsRealizeTheirInputAndKeepTheDevice) {
    Tensor x = zyx::tensor({3.f, 1.f, 2.f}) * 2;
    EXPECT_FALSE(x.is_realized());
    Tensor i = x.argsort();
    EXPECT_TRUE(x.is_realized());  // the data-dependent order needed the values
    EXPECT_EQ(I(i), (std::vector<int32_t>{1, 2, 0}));
    Tensor y = zyx::tensor(std::vector<float>{3.f, 1.f}, {2}, DType::f32, Device::interpreter());
    EXPECT_EQ(y.sort().indices.device(), Device::interpreter());
    EXPECT_EQ(y.sort().values.device(), Device::interpreter());
}

TEST(Scans, TopkAndMedian) {
    Tensor x = zyx::tensor({{4.f, 9.f, 1.f, 9.f}, {0.f, -2.f, 5.f, 3.f}});
    auto [v, i] = x.topk(2);
    EXPECT_EQ(F(v), (std::vector<float>{9, 9, 5, 3}));
    EXPECT_EQ(I(i), (std::vector<int32_t>{1, 3, 2, 3}));
    auto [s, si] = x.topk(1, 0, false);
    EXPECT_EQ(F(s), (std::vector<float>{0, -2, 1, 3}));
    EXPECT_EQ(x.topk(0).values.shape(), (zyx::Shape{2, 0}));
    // lower median: position (n − 1) / 2 of the ascending order
    EXPECT_EQ(x.median().item<float>(), 3.f);
    auto [m, mi] = x.median(1, true);
    EXPECT_EQ(m.shape(), (zyx::Shape{2, 1}));
    EXPECT_EQ(F(m), (std::vector<float>{4, 0}));
    EXPECT_EQ(I(mi), (std::vector<int32_t>{0, 0}));
    // a row with NaN gives NaN and the index of its first NaN
    auto [n, ni] = zyx::tensor({{1.f, kNaN, 2.f, kNaN}}).median(1);
    EXPECT_TRUE(std::isnan(F(n)[0]));
    EXPECT_EQ(I(ni), (std::vector<int32_t>{1}));
    EXPECT_TRUE(std::isnan(zyx::zeros({0}).median().item<float>()));
    EXPECT_EQ(zyx::tensor({7, 1, 4, 2}).median().item<int32_t>(), 2);
    EXPECT_EQ(zyx::scalar_tensor(5.f).median(0).values.item<float>(), 5.f);
}

TEST(Scans, MaxMinWithIndices) {
    Tensor x = zyx::tensor({{1.f, 7.f, 7.f}, {kNaN, 2.f, kNaN}});
    auto [v, i] = x.max_with_indices(1);
    EXPECT_EQ(F(v)[0], 7.f);
    EXPECT_TRUE(std::isnan(F(v)[1]));
    EXPECT_EQ(I(i), (std::vector<int32_t>{1, 0}));
    auto [mv, mi] = x.min_with_indices(0, true);
    EXPECT_EQ(mv.shape(), (zyx::Shape{1, 3}));
    EXPECT_EQ(I(mi), (std::vector<int32_t>{1, 1, 1}));
    auto [bv, bi] = zyx::tensor({false, true, true}).max_with_indices(0);
    EXPECT_EQ(bv.dtype(), DType::bool_);
    EXPECT_TRUE(bv.item<bool>());
    EXPECT_EQ(bi.item<int32_t>(), 1);
}

// ---- gradients ---------------------------------------------------------------------------------------

std::vector<float> grad_of(const std::vector<float>& xs, const std::function<Tensor(const Tensor&)>& f,
                           const zyx::Shape& shape = {}) {
    Tensor x = zyx::tensor(xs, shape.empty() ? zyx::Shape{int64_t(xs.size())} : shape).requires_grad_();
    Tensor y = f(x);
    std::vector<float> w(size_t(y.numel()));
    for (size_t k = 0; k < w.size(); ++k) w[k] = float(k + 1);
    (y * zyx::tensor(w, y.shape())).sum().backward();
    return F(x.grad());
}

TEST(Scans, GradientsOfSelectionsGoToTheSelectedElements) {
    // max with indices: to the returned index only (amax shares it among ties)
    EXPECT_EQ(grad_of({3, 1, 3}, [](const Tensor& x) { return x.max_with_indices(0).values; }),
              (std::vector<float>{1, 0, 0}));
    EXPECT_EQ(grad_of({3, 1, 3}, [](const Tensor& x) { return x.amax(0); }), (std::vector<float>{0.5f, 0, 0.5f}));
    // sort: output rank r (weight r + 1) sends its gradient to its source element
    EXPECT_EQ(grad_of({2, 0, 1}, [](const Tensor& x) { return x.sort().values; }), (std::vector<float>{3, 1, 2}));
    EXPECT_EQ(grad_of({2, 0, 1, 5}, [](const Tensor& x) { return x.topk(2).values; }),
              (std::vector<float>{2, 0, 0, 1}));
    EXPECT_EQ(grad_of({4, 0, 1, 3, 2, 7}, [](const Tensor& x) { return x.median(1).values; }, {2, 3}),
              (std::vector<float>{0, 0, 1, 2, 0, 0}));  // medians 1 (index 2) and 3 (index 0)
    // cumsum: element i receives the weights of outputs i … n − 1; cumprod: products of the others
    EXPECT_EQ(grad_of({1, 2, 3}, [](const Tensor& x) { return x.cumsum(0); }), (std::vector<float>{6, 5, 3}));
    EXPECT_EQ(grad_of({2, 0, 3}, [](const Tensor& x) { return x.cumprod(0); }),
              (std::vector<float>{1, 2 * 2 + 3 * 2 * 3, 0}));
    // norm 2 at zero: 0 (no NaN), as PyTorch; inf norm: the largest |x|
    EXPECT_EQ(grad_of({0, 0}, [](const Tensor& x) { return x.norm(); }), (std::vector<float>{0, 0}));
    EXPECT_EQ(grad_of({3, -4}, [](const Tensor& x) { return x.norm(); }), (std::vector<float>{0.6f, -0.8f}));
    EXPECT_EQ(grad_of({1, -5, 2}, [](const Tensor& x) { return x.norm(INFINITY); }), (std::vector<float>{0, -1, 0}));
    // clamp with tensor bounds passes the gradient at the bounds; clone passes it through
    Tensor lo = zyx::tensor({0.f, 0.f, 0.f}), hi = zyx::tensor({1.f, 1.f, 1.f});
    EXPECT_EQ(grad_of({-1, 0, 1}, [&](const Tensor& x) { return x.clamp(lo, hi); }), (std::vector<float>{0, 2, 3}));
    EXPECT_EQ(grad_of({-1, 0.5f}, [](const Tensor& x) { return x.clone(); }), (std::vector<float>{1, 2}));
    // floor_divide records no gradient
    EXPECT_FALSE(zyx::tensor({1.f}).requires_grad_().floor_divide(2).requires_grad());
}

// ---- scans and norms: special values ------------------------------------------------------------------

TEST(Scans, CumsumCumprodSpecialValues) {
    EXPECT_EQ(zyx::tensor({true, true, false, true}).cumsum(0).to_vector<int32_t>(),
              (std::vector<int32_t>{1, 2, 2, 3}));
    EXPECT_EQ(zyx::tensor({true, true}).cumsum(0).dtype(), DType::i32);
    // integers wrap exactly as a running sum would
    Tensor big = zyx::tensor(std::vector<int32_t>{INT32_MAX, 1, 1});
    EXPECT_EQ(big.cumsum(0).to_vector<int32_t>(), (std::vector<int32_t>{INT32_MAX, INT32_MIN, INT32_MIN + 1}));
    std::vector<float> c = F(zyx::tensor({1.f, INFINITY, -INFINITY, 2.f}).cumsum(0));
    EXPECT_EQ(c[1], INFINITY);
    EXPECT_TRUE(std::isnan(c[2]) && std::isnan(c[3]));
    EXPECT_EQ(F(zyx::tensor({2.f, 0.f, kNaN}).cumprod(0))[1], 0.f);
    // a long axis against a sequential loop (the scan takes log2 steps)
    std::vector<int32_t> v(1000);
    for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(i % 7) - 3;
    std::vector<int32_t> want(v.size());
    std::partial_sum(v.begin(), v.end(), want.begin());
    EXPECT_EQ(zyx::tensor(v).cumsum(-1).to_vector<int32_t>(), want);
    EXPECT_EQ(zyx::scalar_tensor(4).cumprod(0).item<int32_t>(), 4);
    EXPECT_EQ(zyx::zeros({2, 0}).cumsum(1).shape(), (zyx::Shape{2, 0}));
}

TEST(Scans, NormsOfEveryP) {
    Tensor x = zyx::tensor({{3.f, -4.f}, {0.f, 1.f}});
    EXPECT_FLOAT_EQ(x.norm().item<float>(), std::sqrt(26.f));
    EXPECT_FLOAT_EQ(x.norm("fro").item<float>(), std::sqrt(26.f));
    EXPECT_EQ(F(x.norm(1, 1)), (std::vector<float>{7, 1}));
    EXPECT_EQ(F(x.norm(INFINITY, 0, true)), (std::vector<float>{3, 4}));
    EXPECT_EQ(x.norm(INFINITY, 0, true).shape(), (zyx::Shape{1, 2}));
    EXPECT_EQ(F(x.norm(-INFINITY, 1)), (std::vector<float>{3, 0}));
    EXPECT_EQ(x.norm(0).item<float>(), 3.f);
    EXPECT_NEAR(x.norm(3).item<float>(), std::cbrt(27.f + 64.f + 1.f), 1e-5);
    EXPECT_NEAR(x.norm(0.5, 1).to_vector<float>()[0], std::pow(std::sqrt(3.f) + 2.f, 2.f), 1e-4);
    EXPECT_EQ(zyx::tensor({3, 4}).norm().dtype(), DType::f32);  // integers compute in f32
    EXPECT_TRUE(std::isnan(zyx::tensor({kNaN, 1.f}).norm().item<float>()));
    EXPECT_EQ(zyx::tensor({INFINITY, 1.f}).norm().item<float>(), INFINITY);
}

TEST(Scans, AllAnyCountNonzero) {
    Tensor x = zyx::tensor({{0.f, kNaN}, {-0.f, 2.f}});
    EXPECT_EQ(x.all(1).to_vector<bool>(), (std::vector<bool>{false, false}));
    EXPECT_EQ(x.any(0, true).to_vector<bool>(), (std::vector<bool>{false, true}));
    EXPECT_TRUE(x.any().item<bool>());
    EXPECT_FALSE(x.all().item<bool>());
    EXPECT_EQ(x.count_nonzero().item<int32_t>(), 2);  // NaN counts, -0 does not
    EXPECT_EQ(x.count_nonzero(0).to_vector<int32_t>(), (std::vector<int32_t>{0, 2}));
    EXPECT_TRUE(zyx::zeros({0}).all().item<bool>());
    EXPECT_FALSE(zyx::zeros({0}).any().item<bool>());
    EXPECT_EQ(x.all().dtype(), DType::bool_);
}

// ---- item 6 -------------------------------------------------------------------------------------------

TEST(Names, FloorDivideIsPythons) {
    // integers: floor toward -inf, x // 0 = 0
    Tensor a = zyx::tensor({7, -7, 7, -7, 5, 0, -3});
    Tensor b = zyx::tensor({2, 2, -2, -2, 0, 3, 0});
    EXPECT_EQ(I(a.floor_divide(b)), (std::vector<int32_t>{3, -4, -4, 3, 0, 0, 0}));
    EXPECT_EQ(I(zyx::floor_divide(-7, zyx::tensor({2, -2}))), (std::vector<int32_t>{-4, 3}));
    EXPECT_EQ(I(zyx::tensor({-1, 9}).floor_divide(4)), (std::vector<int32_t>{-1, 2}));
    EXPECT_EQ(zyx::tensor(std::vector<int>{200}, {1}, DType::u8).floor_divide(7).to_vector<int32_t>(),
              (std::vector<int32_t>{28}));
    // floats as Python: 1 // 0.1 == 9, -0.5 // 1 == -1, x // 0 == ±inf / nan, 0.5 // -1 == -1
    std::vector<float> f = F(zyx::tensor({1.f, -0.5f, 1.f, -1.f, 0.f, 0.5f, 3.f})
                                 .floor_divide(zyx::tensor({0.1f, 1.f, 0.f, 0.f, 0.f, -1.f, 1.5f})));
    EXPECT_EQ(f[0], 9.f);
    EXPECT_EQ(f[1], -1.f);
    EXPECT_EQ(f[2], INFINITY);
    EXPECT_EQ(f[3], -INFINITY);
    EXPECT_TRUE(std::isnan(f[4]));
    EXPECT_EQ(f[5], -1.f);
    EXPECT_EQ(f[6], 2.f);
    std::vector<float> z = F(zyx::tensor({0.5f, -0.5f}).floor_divide(2));
    EXPECT_EQ(z[0], 0.f);
    EXPECT_FALSE(std::signbit(z[0]));
    EXPECT_EQ(z[1], -1.f);
}

TEST(Names, NumbersOnTheLeft) {
    Tensor x = zyx::tensor({1, 2, 3});
    EXPECT_EQ((1 < x).to_vector<bool>(), (std::vector<bool>{false, true, true}));
    EXPECT_EQ((2 >= x).to_vector<bool>(), (std::vector<bool>{true, true, false}));
    EXPECT_EQ((2 == x).to_vector<bool>(), (std::vector<bool>{false, true, false}));
    EXPECT_EQ((2 != x).to_vector<bool>(), (std::vector<bool>{true, false, true}));
    EXPECT_EQ(I(2 - x), (std::vector<int32_t>{1, 0, -1}));
    EXPECT_EQ(I(zyx::pow(2, x)), (std::vector<int32_t>{2, 4, 8}));
    EXPECT_EQ(F(zyx::pow(2.0, x)), (std::vector<float>{2, 4, 8}));
    EXPECT_EQ(I(1 << x), (std::vector<int32_t>{2, 4, 8}));
    EXPECT_EQ(I(16 >> x), (std::vector<int32_t>{8, 4, 2}));
    EXPECT_EQ(I(6 & x), (std::vector<int32_t>{0, 2, 2}));
    EXPECT_EQ(I(x | 4), (std::vector<int32_t>{5, 6, 7}));
    EXPECT_EQ(I(5 ^ x), (std::vector<int32_t>{4, 7, 6}));
    EXPECT_EQ((zyx::tensor({int8_t(1)}) << 3).dtype(), DType::i8);  // the number keeps the tensor's dtype
    EXPECT_EQ((true & zyx::tensor({true, false})).to_vector<bool>(), (std::vector<bool>{true, false}));
    EXPECT_EQ(I(zyx::maximum(2, x)), (std::vector<int32_t>{2, 2, 3}));
    EXPECT_EQ(I(zyx::minimum(x, 2)), (std::vector<int32_t>{1, 2, 2}));
    EXPECT_TRUE(std::isnan(F(zyx::maximum(zyx::tensor({kNaN}), 1.0))[0]));
}

TEST(Names, PytorchSpellings) {
    Tensor x = zyx::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
    EXPECT_EQ(x.size(), (zyx::Shape{2, 3}));
    EXPECT_EQ(x.t().shape(), (zyx::Shape{3, 2}));
    EXPECT_EQ(F(x.t()), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(zyx::tensor({1.f, 2.f}).t().shape(), (zyx::Shape{2}));
    EXPECT_EQ(x.view({3, 2}).shape(), (zyx::Shape{3, 2}));
    EXPECT_EQ(x.to(DType::i32).dtype(), DType::i32);
    EXPECT_EQ(x.type_as(zyx::tensor({true})).dtype(), DType::bool_);
    EXPECT_EQ(zyx::tensor({1.f, 2.f, 3.f}).expand_as(x).shape(), (zyx::Shape{2, 3}));
    EXPECT_EQ(F(zyx::empty({2, 2})), (std::vector<float>{0, 0, 0, 0}));
    EXPECT_EQ(zyx::empty_like(x).shape(), x.shape());
    // clone: a buffer of its own, even of a realized tensor
    Tensor p = zyx::tensor({1.f, 2.f});
    p.realize();
    Tensor c = p.clone();
    c.realize();
    p.assign(zyx::tensor({9.f, 9.f}));
    EXPECT_EQ(F(c), (std::vector<float>{1, 2}));
    // clamp with tensor bounds: broadcasting, NaN, min > max gives max, one-sided forms
    Tensor v = zyx::tensor({-5.f, 0.5f, 5.f, kNaN});
    std::vector<float> r = F(v.clamp(zyx::tensor({0.f}), zyx::tensor({1.f})));
    EXPECT_EQ(r[0], 0.f);
    EXPECT_EQ(r[1], 0.5f);
    EXPECT_EQ(r[2], 1.f);
    EXPECT_TRUE(std::isnan(r[3]));
    EXPECT_EQ(F(zyx::tensor({0.f}).clamp(zyx::tensor({2.f}), zyx::tensor({1.f}))), (std::vector<float>{1}));
    EXPECT_EQ(I(zyx::tensor({-3, 3}).clamp_min(zyx::tensor({0, 5}))), (std::vector<int32_t>{0, 5}));
    EXPECT_EQ(I(zyx::tensor({-3, 3}).clamp_max(zyx::tensor({0}))), (std::vector<int32_t>{-3, 0}));
    EXPECT_TRUE(std::isnan(F(zyx::tensor({1.f}).clamp_min(zyx::tensor({kNaN})))[0]));
}

// ---- random ---------------------------------------------------------------------------------------------

TEST(Names, RandpermIsASeededPermutation) {
    zyx::Generator g(3), h(3);
    std::vector<int32_t> p = I(zyx::randperm(50, DType::i32, Device::host(), g));
    std::vector<int32_t> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int32_t> want(50);
    std::iota(want.begin(), want.end(), 0);
    EXPECT_EQ(sorted, want);
    EXPECT_NE(p, want);
    EXPECT_EQ(I(zyx::randperm(50, DType::i32, Device::host(), h)), p);
    EXPECT_EQ(zyx::randperm(0).shape(), (zyx::Shape{0}));
    // each value lands in each place equally often: position 0 over many draws
    std::vector<int> count(4, 0);
    for (int k = 0; k < 4000; ++k) ++count[size_t(I(zyx::randperm(4, DType::i32, Device::host(), g))[0])];
    for (int c : count) EXPECT_NEAR(c, 1000, 120);  // 6 standard errors
}

TEST(Names, BernoulliAndLikes) {
    zyx::Generator g(11);
    Tensor p = zyx::full({4000}, 0.3);
    Tensor b = zyx::bernoulli(p, g);
    EXPECT_EQ(b.dtype(), DType::f32);
    EXPECT_FALSE(b.requires_grad());
    EXPECT_NEAR(b.mean().item<float>(), 0.3, 0.05);
    EXPECT_EQ(((b == 0).logical_or(b == 1)).all().item<bool>(), true);
    EXPECT_EQ(zyx::bernoulli(zyx::tensor({0.f, 1.f}), g).to_vector<float>(), (std::vector<float>{0, 1}));
    Tensor x = zyx::zeros({3, 5}, DType::bf16);
    EXPECT_EQ(zyx::rand_like(x, g).shape(), x.shape());
    EXPECT_EQ(zyx::randn_like(x, g).dtype(), DType::bf16);
    Tensor ri = zyx::randint_like(zyx::zeros({1000}, DType::i16), -2, 3, g);
    EXPECT_EQ(ri.dtype(), DType::i16);
    EXPECT_TRUE(((ri >= -2).logical_and(ri < 3)).all().item<bool>());
    EXPECT_TRUE(((zyx::randint_like(x, 4, g) >= 0)).all().item<bool>());
}

TEST(Names, MultinomialFrequenciesAndWithoutReplacement) {
    zyx::Generator g(5);
    Tensor w = zyx::tensor({1.f, 0.f, 3.f});  // need not sum to 1
    std::vector<int32_t> s = I(zyx::multinomial(w, 4000, true, g));
    int c0 = int(std::count(s.begin(), s.end(), 0)), c1 = int(std::count(s.begin(), s.end(), 1));
    EXPECT_EQ(c1, 0);            // a zero weight is never drawn
    EXPECT_NEAR(c0, 1000, 170);  // 6 standard errors of 4000 · 1/4
    Tensor rows = zyx::tensor({{0.f, 5.f, 1.f, 1.f}, {1.f, 1.f, 1.f, 1.f}});
    for (int k = 0; k < 50; ++k) {
        std::vector<int32_t> d = I(zyx::multinomial(rows, 3, false, g));
        ASSERT_EQ(d.size(), 6u);
        for (int r = 0; r < 2; ++r) {
            std::vector<int32_t> row(d.begin() + r * 3, d.begin() + r * 3 + 3);
            std::sort(row.begin(), row.end());
            EXPECT_TRUE(std::adjacent_find(row.begin(), row.end()) == row.end());  // no repeats
            if (r == 0) {
                EXPECT_EQ(row, (std::vector<int32_t>{1, 2, 3}));  // the zero weight is never drawn
            }
        }
    }
    // without replacement the heavy category comes first most often
    int first = 0;
    for (int k = 0; k < 400; ++k) first += I(zyx::multinomial(rows[0], 1, false, g))[0] == 1;
    EXPECT_NEAR(first, 400 * 5.0 / 7, 60);
    EXPECT_EQ(zyx::multinomial(rows, 2, true, g).shape(), (zyx::Shape{2, 2}));
}

// ---- misuse ----------------------------------------------------------------------------------------------

TEST(Scans, ErrorsNameTheOpTheShapeAndTheValue) {
    Tensor x = zyx::zeros({2, 3});
    expect_error([&] { x.max_with_indices(2); }, {"max_with_indices", "2", "[2,3]"});
    expect_error([&] { zyx::zeros({2, 0}).min_with_indices(1); }, {"min_with_indices", "axis 1", "[2,0]", "empty"});
    expect_error([&] { x.cumsum(-3); }, {"cumsum", "-3", "[2,3]"});
    expect_error([&] { x.cumprod(5); }, {"cumprod", "5", "[2,3]"});
    expect_error([&] { x.norm(NAN); }, {"norm", "nan", "[2,3]"});
    expect_error([&] { x.norm("max"); }, {"norm", "\"max\""});
    expect_error([&] { x.norm("nuc"); }, {"norm", "nuc", "[2,3]"}, zyx::ErrorStatus::Unsupported);
    expect_error([&] { x.norm(2, 4); }, {"norm", "4", "[2,3]"});
    expect_error([&] { x.sort(2); }, {"sort", "2", "[2,3]"});
    expect_error([&] { x.argsort(-4); }, {"argsort", "-4", "[2,3]"});
    expect_error([&] { x.topk(4); }, {"topk", "k 4", "[0, 3]", "[2,3]"});
    expect_error([&] { x.topk(-1, 0); }, {"topk", "k -1", "[0, 2]"});
    expect_error([&] { zyx::zeros({0}, DType::i32).median(); }, {"median", "i32", "[0]"});
    expect_error([&] { zyx::zeros({3, 0}).median(1); }, {"median", "axis 1", "[3,0]", "empty"});
    expect_error([&] { x.all(7); }, {"all", "7", "[2,3]"});
    expect_error([&] { x.any(-9, true); }, {"any", "-9", "[2,3]"});
    expect_error([&] { x.amax(3); }, {"amax", "3", "[2,3]"});
    expect_error([&] { x.count_nonzero({0, 0}); }, {"count_nonzero", "[2,3]"});
    expect_error([&] { Tensor().sort(); }, {"sort"});
}

TEST(Names, ErrorsNameTheOpTheShapeAndTheValue) {
    expect_error([] { zyx::zeros({2, 3, 4}).t(); }, {"t:", "[2,3,4]"});
    expect_error([] { zyx::zeros({2, 3}).view({4, 2}); }, {"view", "[2,3]"});
    expect_error([] { zyx::zeros({2}).expand_as(zyx::zeros({3})); }, {"expand", "[2]", "[3]"});
    expect_error([] { zyx::tensor({true}).floor_divide(zyx::tensor({true})); }, {"floor_divide", "bool", "[1]"});
    expect_error([] { zyx::floor_divide(zyx::zeros({2}), zyx::zeros({3})); }, {"floor_divide", "[2]", "[3]"});
    expect_error([] { (void)(zyx::tensor({1, 2}) & 1.5); }, {"bitwise_and", "1.5", "i32", "[2]"});
    expect_error([] { (void)(2.5 << zyx::tensor({1, 2})); }, {"shift_left", "2.5", "[2]"});
    expect_error([] { (void)(1 >> zyx::tensor({1.f})); }, {"shift_right", "f32"});
    expect_error([] { zyx::zeros({2}).clamp(Tensor(), Tensor()); }, {"clamp", "bound"});
    expect_error([] { zyx::zeros({2}).clamp(zyx::zeros({3}), Tensor()); }, {"clamp", "[2]", "[3]"});
    expect_error([] { zyx::randperm(-2); }, {"randperm", "-2"});
    expect_error([] { zyx::randperm(300, DType::u8); }, {"randperm", "300", "u8"});
    expect_error([] { zyx::bernoulli(zyx::tensor({0.5f, 1.5f})); }, {"bernoulli", "1.5", "element 1", "[2]"});
    expect_error([] { zyx::bernoulli(zyx::tensor({1})); }, {"bernoulli", "i32", "[1]"});
    expect_error([] { zyx::multinomial(zyx::zeros({2, 2, 2}), 1); }, {"multinomial", "[2,2,2]"});
    expect_error([] { zyx::multinomial(zyx::tensor({1.f, 1.f}), 3); }, {"multinomial", "3", "2 categories", "[2]"});
    expect_error([] { zyx::multinomial(zyx::tensor({1.f, 0.f}), 2); }, {"multinomial", "1 nonzero", "[2]"});
    expect_error([] { zyx::multinomial(zyx::tensor({1.f, -1.f}), 1); }, {"multinomial", "-1", "category 1"});
    expect_error([] { zyx::multinomial(zyx::tensor({0.f, 0.f}), 1, true); }, {"multinomial", "summing to 0"});
    expect_error([] { zyx::multinomial(zyx::tensor({1.f}), 0); }, {"multinomial", "num_samples 0"});
}

}  // namespace
