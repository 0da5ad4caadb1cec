// Host backend benchmarks (f32). Prints one line per case: "<name> <median ms>". The kernels are
// written directly in the IR, shaped as the scheduler will produce them:
//   gelu_1m, gelu_16m   fused gelu(x*a + b) (tanh form), one kernel
//   softmax_1024        rows of a 1024×1024 matrix: a max kernel, then exp/sum/divide fused
//   sum_16m             sum of 16M elements into one value
//   matmul_256/512/1024 square matmul (BLAS path)
// bench/host/run runs this and PyTorch side by side and prints the ratios.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "backend/host/host_backend.hpp"

using namespace zyx;
using namespace zyx::kernel;
using namespace zyx::backend;
using namespace zyx::backend::host;

namespace {

// Median wall time of fn() in ms, after one warm-up call, over at least 5 calls and ~0.5 s.
double median_ms(const std::function<void()>& fn) {
    fn();
    std::vector<double> t;
    auto start = std::chrono::steady_clock::now();
    while (t.size() < 5 ||
           (t.size() < 200 && std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500))) {
        auto a = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

BufferId random_buffer(HostPool& pool, size_t n, uint32_t seed) {
    std::vector<float> v(n);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    for (float& x : v) x = d(rng);
    BufferId id = pool.allocate(n * 4);
    pool.host_to_pool(v.data(), n * 4, id, {});
    return id;
}

Kernel gelu_kernel(int64_t n) {
    Kernel k;
    k.shape = {n};
    int x = k.load(k.add_input(DType::f32, View::contiguous({n})));
    int a = k.scalar(k.add_scalar(DType::f32)), b = k.scalar(k.add_scalar(DType::f32));
    auto c = [&](double v) { return k.constant(DType::f32, v); };
    // gelu(y) = 0.5·y·(1 + tanh(z)) with z = √(2/π)·(y + 0.044715·y³), written as the identical
    // y·sigmoid(2z): one exp instead of a tanh (what the scheduler should emit for gelu).
    int y = k.binary(Op::add, k.binary(Op::mul, x, a), b);
    int y3 = k.binary(Op::mul, k.binary(Op::mul, y, y), y);
    int z2 =
        k.binary(Op::mul, c(2.0 * std::sqrt(2.0 / M_PI)), k.binary(Op::add, y, k.binary(Op::mul, c(0.044715), y3)));
    int g = k.binary(Op::mul, y, k.unary(Op::sigmoid, z2));
    k.add_output(DType::f32, View::contiguous({n}), g);
    return k;
}

void bench_gelu(HostPool& pool, HostDevice& dev, int64_t n, const char* name) {
    ProgramId p = dev.compile(gelu_kernel(n));
    BufferId x = random_buffer(pool, size_t(n), 1), y = pool.allocate(uint64_t(n) * 4);
    Scalar s[2] = {{DType::f32, bits_from_double(DType::f32, 1.5)}, {DType::f32, bits_from_double(DType::f32, -0.25)}};
    BufferId args[] = {x, y};
    std::printf("%s %.4f\n", name, median_ms([&] { dev.launch(p, args, s, {}); }));
    pool.release(x);
    pool.release(y);
}

void bench_softmax(HostPool& pool, HostDevice& dev, int64_t R, int64_t C) {
    View xv = View::contiguous({R, C});
    Kernel mk;  // m[r] = max_c x[r, c]
    mk.shape = {R, C};
    mk.reduce_axes = 1;
    mk.add_output(DType::f32, View::contiguous({R}), mk.reduce(Op::reduce_max, mk.load(mk.add_input(DType::f32, xv))));
    Kernel sk;  // out[r, c] = exp(x[r,c] - m[r]) / sum_k exp(x[r,k] - m[r])
    sk.shape = {R, C, C};
    sk.reduce_axes = 1;
    int xr = sk.add_input(DType::f32, xv.reshape({R, 1, C}).expand({R, C, C}));
    int xo = sk.add_input(DType::f32, xv);
    int m = sk.add_input(DType::f32, View::contiguous({R}).reshape({R, 1}).expand({R, C}));
    int den = sk.reduce(Op::reduce_sum, sk.unary(Op::exp, sk.binary(Op::sub, sk.load(xr), sk.load(m))));
    int num = sk.unary(Op::exp, sk.binary(Op::sub, sk.load(xo), sk.load(m)));
    sk.add_output(DType::f32, View::contiguous({R, C}), sk.binary(Op::div, num, den));
    ProgramId pm = dev.compile(mk), ps = dev.compile(sk);
    BufferId x = random_buffer(pool, size_t(R * C), 2), mb = pool.allocate(uint64_t(R) * 4),
             out = pool.allocate(uint64_t(R * C) * 4);
    BufferId am[] = {x, mb}, as[] = {x, x, mb, out};
    std::printf("softmax_%lld %.4f\n", (long long)C, median_ms([&] {
                    dev.launch(pm, am, {}, {});
                    dev.launch(ps, as, {}, {});
                }));
    for (BufferId b : {x, mb, out}) pool.release(b);
}

void bench_sum(HostPool& pool, HostDevice& dev, int64_t n) {
    Kernel k;
    k.shape = {n};
    k.reduce_axes = 1;
    k.add_output(DType::f32, View::contiguous({}),
                 k.reduce(Op::reduce_sum, k.load(k.add_input(DType::f32, View::contiguous({n})))));
    ProgramId p = dev.compile(k);
    BufferId x = random_buffer(pool, size_t(n), 3), y = pool.allocate(4);
    BufferId args[] = {x, y};
    std::printf("sum_16m %.4f\n", median_ms([&] { dev.launch(p, args, {}, {}); }));
    pool.release(x);
    pool.release(y);
}

void bench_matmul(HostPool& pool, HostDevice& dev, int64_t n) {
    Kernel k;
    k.shape = {n, n, n};
    k.reduce_axes = 1;
    int a = k.add_input(DType::f32, View::contiguous({n, n}).reshape({n, 1, n}).expand({n, n, n}));
    int b = k.add_input(DType::f32, View::contiguous({n, n}).permute({1, 0}).reshape({1, n, n}).expand({n, n, n}));
    k.add_output(DType::f32, View::contiguous({n, n}),
                 k.reduce(Op::reduce_sum, k.binary(Op::mul, k.load(a), k.load(b))));
    ProgramId p = dev.compile(k);
    if (!dev.program_uses_blas(p)) std::fprintf(stderr, "matmul_%lld does not take the BLAS path\n", (long long)n);
    BufferId x = random_buffer(pool, size_t(n * n), 4), w = random_buffer(pool, size_t(n * n), 5),
             y = pool.allocate(uint64_t(n * n) * 4);
    BufferId args[] = {x, w, y};
    double ms = median_ms([&] { dev.launch(p, args, {}, {}); });
    std::printf("matmul_%lld %.4f\n", (long long)n, ms);
    for (BufferId id : {x, w, y}) pool.release(id);
}

}  // namespace

int main(int argc, char** argv) {
    std::string only = argc > 1 ? argv[1] : "";
    HostPool pool;
    HostDevice dev(pool);
    auto want = [&](const char* name) { return only.empty() || only == name; };
    if (want("gelu")) {
        bench_gelu(pool, dev, 1 << 20, "gelu_1m");
        bench_gelu(pool, dev, 1 << 24, "gelu_16m");
    }
    if (want("softmax")) bench_softmax(pool, dev, 1024, 1024);
    if (want("sum")) bench_sum(pool, dev, 1 << 24);
    if (want("matmul"))
        for (int64_t n : {256, 512, 1024}) bench_matmul(pool, dev, n);
    return 0;
}
