// Example 20: the zyx Tensor API in five steps, each checked against values computed by hand.
//
//   1. creation      literals, zeros/ones/full, arange, eye, seeded random numbers
//   2. broadcasting  [2,3] + [3] and [2,1] * [1,3], numpy's rules
//   3. matmul        a [2,3] @ b [3,2], and relu(x @ w + b) as ONE fused kernel
//   4. softmax       rows that sum to 1; the kernel list the scheduler made for it
//   5. printing      PyTorch's format
//
// Nothing computes until a value is read: each step builds a lazy graph, and to_vector(), item()
// or printing realizes it. Run with ZYX_DEBUG=sched to see every kernel and what it fused.
// Exit code 0 when every check passes, 1 otherwise.
#include <zyx/tensor.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    std::printf("  %-58s %s\n", what, ok ? "ok" : "FAILED");
    if (!ok) ++failures;
}

bool close(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
    if (got.size() != want.size()) return false;
    for (size_t i = 0; i < got.size(); ++i)
        if (!(std::fabs(got[i] - want[i]) <= tol * (1 + std::fabs(want[i])))) return false;
    return true;
}

}  // namespace

int main() {
    using zyx::Tensor;
    try {
        std::printf("1. creation\n");
        Tensor a = zyx::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});  // [2,3] f32
        check(a.shape() == zyx::Shape{2, 3} && a.dtype() == zyx::DType::f32, "literal has shape [2,3], dtype f32");
        check(close(zyx::full({2, 2}, 7).to_vector<float>(), {7, 7, 7, 7}), "full({2,2}, 7)");
        check(zyx::arange(5).to_vector<int32_t>() == std::vector<int32_t>{0, 1, 2, 3, 4}, "arange(5) is i32 0..4");
        check(close(zyx::eye(2).to_vector<float>(), {1, 0, 0, 1}), "eye(2)");
        zyx::Generator g1(42), g2(42);
        std::vector<float> r1 = zyx::randn({4}, zyx::DType::f32, zyx::Device::host(), g1).to_vector<float>();
        std::vector<float> r2 = zyx::randn({4}, zyx::DType::f32, zyx::Device::host(), g2).to_vector<float>();
        check(r1 == r2, "the same seed gives the same random tensor");

        std::printf("2. broadcasting\n");
        Tensor row = zyx::tensor({10.f, 20.f, 30.f});  // [3]
        check(close((a + row).to_vector<float>(), {11, 22, 33, 14, 25, 36}), "[2,3] + [3]");
        Tensor col = zyx::tensor({{1.f}, {2.f}});  // [2,1]
        Tensor outer = col * row.reshape({1, 3});  // [2,3]
        check(close(outer.to_vector<float>(), {10, 20, 30, 20, 40, 60}), "[2,1] * [1,3] (outer product)");

        std::printf("3. matmul\n");
        Tensor b = zyx::tensor({{1.f, 0.f}, {0.f, 1.f}, {1.f, 1.f}});  // [3,2]
        check(close(a.matmul(b).to_vector<float>(), {4, 5, 10, 11}), "[2,3] @ [3,2]");
        Tensor bias = zyx::tensor({-5.f, -20.f});
        Tensor h = (a.matmul(b) + bias).relu();  // one kernel: sum, add, relu
        check(close(h.to_vector<float>(), {0, 0, 5, 0}), "relu(a @ b + bias)");

        std::printf("4. softmax\n");
        Tensor p = a.softmax(-1);
        std::vector<float> pv = p.to_vector<float>();
        float e1 = std::exp(1.f), e2 = std::exp(2.f), e3 = std::exp(3.f), s = e1 + e2 + e3;
        check(close(pv, {e1 / s, e2 / s, e3 / s, e1 / s, e2 / s, e3 / s}, 1e-6f), "softmax of [1,2,3] (twice)");
        check(std::fabs(p.sum().item<float>() - 2.f) < 1e-5f, "both rows sum to 1");

        std::printf("5. printing\n");
        std::cout << "  " << a << "\n";
        std::string text = zyx::tensor({1, 2, 3}).to_string();
        check(text == "tensor([1, 2, 3], dtype=i32)", "tensor({1,2,3}) prints as tensor([1, 2, 3], dtype=i32)");
        check(zyx::tensor({0.5f, 1.25f}).to_string() == "tensor([0.5000, 1.2500])", "floats print with 4 decimals");
    } catch (const zyx::Error& e) {
        std::printf("zyx::Error: %s\n", e.what());
        return 1;
    }
    std::printf("%s\n", failures ? "FAILED" : "all checks passed");
    return failures ? 1 : 0;
}
