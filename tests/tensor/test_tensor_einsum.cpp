// einsum and the hyperbolic functions (issue 15, item 5) against plain-loop references, on the
// host and on tt:0; einsum's errors name the equation and the bad label or operand.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "tensor_test_env.hpp"
#include "tensor_test_values.hpp"
#include "zyx/tensor.hpp"

namespace {

using namespace zyx;
using zyx::test::expect_near;
using zyx::test::values;

std::vector<Device> devices() {
    std::vector<Device> ds = {Device::host()};
    for (Device d : zyx::available_devices())
        if (d == Device::tt(0)) ds.push_back(d);
    return ds;
}

TEST(Einsum, CommonEquationsAgreeWithLoops) {
    const int64_t B = 2, I = 3, J = 4, K = 5;
    auto a = values(B * I * J, 1), b = values(B * J * K, 2), m = values(J * J, 3), v = values(J, 4), w = values(J, 5);
    std::vector<double> bmm(size_t(B * I * K), 0), trace_want = {0}, diag_want, dot_want = {0}, outer_want, t_want;
    for (int64_t n = 0; n < B; ++n)
        for (int64_t i = 0; i < I; ++i)
            for (int64_t k = 0; k < K; ++k)
                for (int64_t j = 0; j < J; ++j)
                    bmm[size_t((n * I + i) * K + k)] += a[size_t((n * I + i) * J + j)] * b[size_t((n * J + j) * K + k)];
    for (int64_t j = 0; j < J; ++j) {
        trace_want[0] += m[size_t(j * J + j)];
        diag_want.push_back(m[size_t(j * J + j)]);
        dot_want[0] += v[size_t(j)] * w[size_t(j)];
        for (int64_t q = 0; q < J; ++q) outer_want.push_back(v[size_t(j)] * w[size_t(q)]);
    }
    for (int64_t q = 0; q < J; ++q)
        for (int64_t j = 0; j < J; ++j) t_want.push_back(m[size_t(j * J + q)]);
    for (Device d : devices()) {
        SCOPED_TRACE(d.str());
        Tensor ta = tensor(a, {B, I, J}).to(d), tb = tensor(b, {B, J, K}).to(d), tm = tensor(m, {J, J}).to(d);
        Tensor tv = tensor(v, {J}).to(d), tw = tensor(w, {J}).to(d);
        expect_near(einsum("bij,bjk->bik", {ta, tb}), {B, I, K}, bmm);
        // implicit output: the labels that appear once, sorted ("ik"; b is summed as numpy does)
        std::vector<double> summed(size_t(I * K), 0);
        for (int64_t n = 0; n < B; ++n)
            for (int64_t e = 0; e < I * K; ++e) summed[size_t(e)] += bmm[size_t(n * I * K + e)];
        expect_near(einsum("bij, bjk", {ta, tb}), {I, K}, summed);
        expect_near(einsum("ii", {tm}), {}, trace_want);
        expect_near(einsum("ii->i", {tm}), {J}, diag_want);
        expect_near(einsum("i,i->", {tv, tw}), {}, dot_want);
        expect_near(einsum("i,j->ij", {tv, tw}), {J, J}, outer_want);
        expect_near(einsum("ij->ji", {tm}), {J, J}, t_want);
    }
}

TEST(Einsum, GradientAndErrors) {
    Tensor x = tensor(values(12, 6), {3, 4}).requires_grad_();
    Tensor y = tensor(values(20, 7), {4, 5});
    einsum("ij,jk->ik", {x, y}).sum().backward();
    expect_near(x.grad(), {3, 4}, y.sum({1}).reshape({1, 4}).expand({3, 4}).cast(DType::f64).to_vector<double>());
    auto expect_error = [](const std::function<void()>& f, const std::vector<std::string>& frags) {
        try {
            f();
            ADD_FAILURE() << "no error";
        } catch (const Error& e) {
            for (const auto& s : frags)
                EXPECT_NE(e.message().find(s), std::string::npos) << e.message() << " lacks " << s;
        }
    };
    expect_error([&] { einsum("ij,jk->ik", {x}); }, {"einsum", "'ij,jk->ik'", "2 operands, got 1"});
    expect_error([&] { einsum("ij,kj->ik", {x, y}); }, {"einsum", "label 'j' has size 4 and size 5"});
    expect_error([&] { einsum("ijk->i", {x}); }, {"einsum", "operand 0 has 2 axes [3,4]", "'ijk'"});
    expect_error([&] { einsum("ij->iz", {x}); }, {"einsum", "output label 'z' is in no operand"});
    expect_error([&] { einsum("i1->i", {x}); }, {"einsum", "'1' is not a label"});
    expect_error([&] { einsum("...j->j", {x}); }, {"einsum", "ellipsis"});
}

TEST(Hyperbolic, AgainstTheC_Library) {
    std::vector<double> xs = {-100, -89, -21, -20, -3, -1, -0.5, -1e-4, 0, 1e-4, 0.5, 1, 3, 20, 21, 89, 100, 1e12, NAN};
    std::vector<double> ys = {-1.5, -1, -0.999, -0.5, -1e-5, 0, 1e-5, 0.5, 0.999, 1, 1.5, 2, NAN};
    std::vector<double> zs = {0.5, 1, 1 + 1e-6, 1.5, 10, 1e5, 1e12, 1e30, NAN};
    struct Case {
        const char* name;
        std::function<Tensor(const Tensor&)> f;
        double (*ref)(double);
        const std::vector<double>& in;
    };
    const std::vector<Case> cases = {
        {"sinh", [](const Tensor& t) { return t.sinh(); }, std::sinh, xs},
        {"cosh", [](const Tensor& t) { return t.cosh(); }, std::cosh, xs},
        {"asinh", [](const Tensor& t) { return t.asinh(); }, std::asinh, xs},
        {"atanh", [](const Tensor& t) { return t.atanh(); }, std::atanh, ys},
        {"acosh", [](const Tensor& t) { return t.acosh(); }, std::acosh, zs},
    };
    for (Device d : devices())
        for (const Case& c : cases) {
            SCOPED_TRACE(std::string(c.name) + " on " + d.str());
            std::vector<double> want;
            for (double v : c.in) {
                double r = c.ref(double(float(v)));
                want.push_back(std::fabs(r) > 3.4028234663852886e38 ? std::copysign(INFINITY, r) : r);
            }
            expect_near(c.f(tensor(c.in, {int64_t(c.in.size())}).to(d)), {int64_t(c.in.size())}, want, 4e-6);
        }
    // integers compute in f32; the gradient of sinh is cosh
    EXPECT_EQ(tensor(std::vector<int32_t>{1, 2}).sinh().dtype(), DType::f32);
    Tensor x = tensor(std::vector<double>{-2, 0.5, 3}, {3}).requires_grad_();
    x.sinh().sum().backward();
    expect_near(x.grad(), {3}, {std::cosh(-2.0), std::cosh(0.5), std::cosh(3.0)});
}

}  // namespace
