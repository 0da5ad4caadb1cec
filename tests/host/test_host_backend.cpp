// The host backend: pool and allocator behaviour, compile/launch contracts and errors, and the
// special code paths (BLAS matmul with epilogue, hoisted row reduce, thread-split reduce) checked
// against the reference interpreter.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "core/error.hpp"
#include "host_test_util.hpp"
#include "random_data.hpp"

using namespace zyx;
using namespace zyx::kernel;
using namespace zyx::backend;
using namespace zyx::backend::host;
using namespace zyx::host_test;

namespace {

std::vector<uint8_t> random_f32(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2, 2);
    std::vector<uint8_t> b(n * 4);
    for (size_t i = 0; i < n; ++i) {
        float f = d(rng);
        std::memcpy(b.data() + 4 * i, &f, 4);
    }
    return b;
}

template <class F>
void expect_error(ErrorStatus s, const std::string& fragment, F&& f) {
    try {
        f();
        ADD_FAILURE() << "no error; expected " << fragment;
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), s) << e.what();
        EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    }
}

// Runs a case through both paths and expects agreement; returns the program id.
ProgramId check_case(HostPool& pool, HostDevice& dev, const Case& c) {
    ProgramId p = dev.compile(c.kernel);
    auto want = run_reference(c);
    auto got = run_host(pool, dev, p, c);
    std::string diff = compare_outputs(c, want, got);
    EXPECT_EQ(diff, "") << kernel_string(c.kernel);
    return p;
}

// out[m, n] = epilogue(sum_k A[m,k] B[k,n]) with A (or its transpose) and B (or its transpose)
Case matmul_case(DType t, int64_t batch, int64_t M, int64_t K, int64_t N, bool at, bool bt, bool relu_bias) {
    Case c;
    Kernel& k = c.kernel;
    k.shape = {batch, M, N, K};
    k.reduce_axes = 1;
    View a = at ? View::contiguous({batch, K, M}).permute({0, 2, 1}) : View::contiguous({batch, M, K});
    View b = bt ? View::contiguous({batch, N, K}) : View::contiguous({batch, K, N}).permute({0, 2, 1});
    int ia = k.add_input(t, a.reshape({batch, M, 1, K}).expand({batch, M, N, K}));
    int ib = k.add_input(t, b.reshape({batch, 1, N, K}).expand({batch, M, N, K}));
    int s = k.reduce(Op::reduce_sum, k.binary(Op::mul, k.load(ia), k.load(ib)));
    int out = s;
    if (relu_bias) {
        int bias = k.add_input(t, View::contiguous({N}).reshape({1, 1, N}).expand({batch, M, N}));
        out = k.unary(Op::relu, k.binary(Op::add, s, k.load(bias)));
    }
    k.add_output(t, View::contiguous({batch, M, N}), out);
    size_t es = dtype_size(t);
    auto fill = [&](size_t n, uint32_t seed) {
        std::vector<uint8_t> v = random_f32(n, seed);
        if (t == DType::f32) return v;
        std::vector<uint8_t> d(n * 8);
        for (size_t i = 0; i < n; ++i) {
            float f;
            std::memcpy(&f, v.data() + 4 * i, 4);
            double x = f;
            std::memcpy(d.data() + 8 * i, &x, 8);
        }
        return d;
    };
    c.buffers.push_back(fill(size_t(batch * M * K), 1));
    c.buffers.push_back(fill(size_t(batch * K * N), 2));
    if (relu_bias) c.buffers.push_back(fill(size_t(N), 3));
    c.buffers.push_back(std::vector<uint8_t>(size_t(batch * M * N) * es, 0));
    return c;
}

}  // namespace

TEST(HostPool, AllocateCopyReleaseAndErrors) {
    HostPool pool;
    BufferId a = pool.allocate(100);
    std::vector<uint8_t> src(100), dst(100);
    for (size_t i = 0; i < 100; ++i) src[i] = uint8_t(i * 7);
    pool.host_to_pool(src.data(), 100, a, {});
    pool.pool_to_host(a, dst.data(), 100, {});
    EXPECT_EQ(src, dst);
    expect_error(ErrorStatus::MemoryAllocation, "0 bytes", [&] { pool.allocate(0); });
    expect_error(ErrorStatus::MemoryAllocation, "exceeds", [&] { pool.allocate(uint64_t(1) << 62); });
    expect_error(ErrorStatus::MemoryCopyH2P, "buffer " + std::to_string(a) + " of 100 bytes",
                 [&] { pool.host_to_pool(src.data(), 101, a, {}); });
    expect_error(ErrorStatus::MemoryCopyP2H, "unknown buffer 999", [&] { pool.pool_to_host(999, dst.data(), 1, {}); });
    expect_error(ErrorStatus::MemoryDeallocation, "unknown buffer 998", [&] { pool.release(998); });
    // Reference counting: retained once, the buffer survives one release.
    pool.retain(a);
    pool.release(a);
    pool.pool_to_host(a, dst.data(), 100, {});
    EXPECT_EQ(src, dst);
    pool.release(a);
    EXPECT_EQ(pool.host_address(a), nullptr);
    EXPECT_EQ(pool.live_buffers(), 0u);
    // pool_to_pool between host pools
    HostPool other;
    BufferId x = other.allocate(100), y = pool.allocate(100);
    other.host_to_pool(src.data(), 100, x, {});
    pool.pool_to_pool(other, x, y, 100, {});
    pool.pool_to_host(y, dst.data(), 100, {});
    EXPECT_EQ(src, dst);
}

TEST(HostAllocator, ReusesFreedBlocksBySizeClass) {
    EXPECT_EQ(HostAllocator::size_class(1), 64u);
    EXPECT_EQ(HostAllocator::size_class(1024), 1024u);
    EXPECT_EQ(HostAllocator::size_class(1025), 1280u);
    EXPECT_EQ(HostAllocator::size_class(1800), 1792u + 256u);
    HostAllocator al;
    void* p = al.alloc(1 << 20);
    al.free(p, 1 << 20);
    EXPECT_EQ(al.cached_bytes(), uint64_t(1) << 20);
    void* q = al.alloc((1 << 20) - 100);  // same class: the cached block comes back
    EXPECT_EQ(p, q);
    EXPECT_EQ(al.reuse_count(), 1u);
    EXPECT_EQ(al.system_count(), 1u);
    al.free(q, (1 << 20) - 100);
    HostAllocator tiny(1000);  // cache limit: a big block goes back to the system
    void* r = tiny.alloc(4096);
    tiny.free(r, 4096);
    EXPECT_EQ(tiny.cached_bytes(), 0u);
}

namespace {
long resident_kib() {
    std::ifstream f("/proc/self/status");
    std::string key;
    while (f >> key) {
        if (key == "VmRSS:") {
            long kib = 0;
            f >> kib;
            return kib;
        }
        f.ignore(1 << 12, '\n');
    }
    return -1;
}
}  // namespace

// docs/ir.md §6 promises at most 25 % slack. Blocks of 2 MiB and more were rounded up to 2 MiB
// multiples for huge pages, so 2 MiB + 4 KiB took 4 MiB of memory (audit of issue 4, gap 6). The
// size class, the bytes taken from the system, and the resident memory of touched blocks.
TEST(HostAllocator, BlocksStayWithin25PercentOfTheRequest) {
    const uint64_t MiB = 1 << 20;
    for (uint64_t b : {uint64_t(65), uint64_t(1000), uint64_t(4097), MiB + 1, 2 * MiB - 1, 2 * MiB, 2 * MiB + 1,
                       2 * MiB + 4096, 3 * MiB + 5, 4 * MiB + 1, 5 * MiB + 1, 7 * MiB, 9 * MiB + 1, 33 * MiB + 1}) {
        SCOPED_TRACE(b);
        EXPECT_GE(HostAllocator::size_class(b), b);
        EXPECT_LE(double(HostAllocator::size_class(b)), 1.25 * double(b));
        EXPECT_GE(HostAllocator::system_bytes(b), HostAllocator::size_class(b));
        EXPECT_LE(double(HostAllocator::system_bytes(b)), 1.25 * double(b) + 4096);
    }
    // Eight touched blocks of 2 MiB + 4 KiB: resident memory grows by about what was asked (the
    // first 2 MiB of each may be one huge page, the rest is 4 KiB pages), not by 4 MiB each.
    HostAllocator al;
    const uint64_t ask = 2 * MiB + 4096;
    std::vector<void*> blocks;
    long before = resident_kib();
    for (int i = 0; i < 8; ++i) {
        blocks.push_back(al.alloc(ask));
        ASSERT_NE(blocks.back(), nullptr);
        std::memset(blocks.back(), 1, ask);
    }
    long grown = resident_kib() - before;
    EXPECT_LE(double(grown), 1.25 * 8 * double(ask) / 1024) << "resident memory grew " << grown << " KiB";
    EXPECT_GE(double(grown), 0.9 * 8 * double(ask) / 1024) << "the blocks were touched";
    for (void* p : blocks) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (2 * MiB), 0u) << "2 MiB-aligned (huge pages)";
        al.free(p, ask);
    }
    void* again = al.alloc(ask);  // the class is cached: the block comes back
    EXPECT_EQ(al.reuse_count(), 1u);
    al.free(again, ask);
}

TEST(HostDevice, ElementwiseAgreesAndEqualKernelsShareOneProgram) {
    HostPool pool;
    HostDevice dev(pool);
    Case c;
    Kernel& k = c.kernel;
    int64_t n = 1000;
    k.shape = {n};
    int x = k.load(k.add_input(DType::f32, View::contiguous({n})));
    int s = k.scalar(k.add_scalar(DType::f32));
    k.add_output(DType::f32, View::contiguous({n}), k.unary(Op::tanh, k.binary(Op::mul, x, s)));
    c.buffers = {random_f32(size_t(n), 7), std::vector<uint8_t>(size_t(n) * 4)};
    c.scalars = {bits_from_double(DType::f32, 1.5)};
    ProgramId p1 = check_case(pool, dev, c);
    ProgramId p2 = dev.compile(c.kernel);
    EXPECT_NE(p1, p2);
    EXPECT_EQ(dev.compiled_kernels(), 1u) << "equal structure compiles once";
    EXPECT_TRUE(dev.supports(c.kernel));
    dev.release(p1);
    auto got = run_host(pool, dev, p2, c);  // the other program still works
    EXPECT_EQ(compare_outputs(c, run_reference(c), got), "");
    EXPECT_EQ(pool.live_buffers(), 0u);
}

// erf through glibc's vector erff/erf (libmvec) against the interpreter's scalar libm, in every
// float dtype: specials (signed zeros, infinities, NaNs, subnormals, the largest finite value, the
// saturated tails), a sweep over [-6, 6] and random values; 1003 elements, so the vector loop
// has a tail. erf(±0) = ±0, erf(±inf) = ±1 and erf(NaN) = NaN exactly on both sides.
TEST(HostDevice, ErfAgreesWithTheInterpreterInEveryFloatDtype) {
    HostPool pool;
    HostDevice dev(pool);
    std::mt19937_64 rng(11);
    const int64_t n = 1003;
    for (DType t : {DType::f32, DType::f64, DType::bf16, DType::f16}) {
        SCOPED_TRACE(std::string(dtype_name(t)));
        const double tiny = t == DType::f64 ? 4.9406564584124654e-324
            : t == DType::f32               ? 1.4012984643e-45
            : t == DType::f16               ? 5.9604644775390625e-8
                                            : 9.18354961579912e-41;
        const double big = t == DType::f64 ? 1.7976931348623157e308
            : t == DType::f32              ? 3.4028234663852886e38
            : t == DType::f16              ? 65504
                                           : 3.3895313892515355e38;
        const std::vector<double> specials = {0,   -0.0, INFINITY, -INFINITY, NAN, -NAN, tiny, -tiny,
                                              big, -big, 6,        -6,        3.5, -3.5, 1e-3, -1e-3};
        std::vector<uint64_t> bits;
        for (double v : specials) bits.push_back(bits_from_double(t, v));
        for (int v = 2; v <= 4; ++v) bits.push_back(host_test::nan_bits(t, v));  // NaNs with payloads
        for (int64_t i = 0; int64_t(bits.size()) < n / 2; ++i)
            bits.push_back(bits_from_double(t, -6 + 0.03 * double(i)));
        while (int64_t(bits.size()) < n) bits.push_back(host_test::random_bits(t, rng));
        Case c;
        Kernel& k = c.kernel;
        k.shape = {n};
        int x = k.load(k.add_input(t, View::contiguous({n})));
        k.add_output(t, View::contiguous({n}), k.unary(Op::erf, x));
        size_t sz = dtype_size(t);
        std::vector<uint8_t> in(size_t(n) * sz);
        for (size_t i = 0; i < bits.size(); ++i) std::memcpy(in.data() + i * sz, &bits[i], sz);
        c.buffers = {in, std::vector<uint8_t>(size_t(n) * sz, 0xab)};
        ProgramId p = dev.compile(c.kernel);
        auto want = run_reference(c);
        auto got = run_host(pool, dev, p, c);
        EXPECT_EQ(compare_outputs(c, want, got), "");
        auto value = [&](const std::vector<uint8_t>& b, size_t i) {
            uint64_t v = 0;
            std::memcpy(&v, b.data() + i * sz, sz);
            return double_from_bits(t, v);
        };
        const double exact[] = {0, -0.0, 1, -1, NAN, NAN};  // erf of the first six specials
        for (size_t i = 0; i < std::size(exact); ++i)
            for (const auto* side : {&want, &got}) {
                double v = value((*side)[1], i);
                const char* who = side == &want ? "interpreter" : "host";
                if (std::isnan(exact[i])) {
                    EXPECT_TRUE(std::isnan(v)) << who << ": erf(" << specials[i] << ") = " << v;
                } else {
                    EXPECT_EQ(v, exact[i]) << who << ": erf(" << specials[i] << ")";
                    EXPECT_EQ(std::signbit(v), std::signbit(exact[i])) << who << ": erf(" << specials[i] << ")";
                }
            }
        for (size_t i = 8; i < 12; ++i)  // erf(±big) and erf(±6) saturate to ±1
            EXPECT_EQ(value(got[1], i), specials[i] < 0 ? -1.0 : 1.0) << "host: erf(" << specials[i] << ")";
        dev.release(p);
    }
    EXPECT_EQ(pool.live_buffers(), 0u);
}

TEST(HostDevice, LaunchErrorsNameTheArgumentAndLeaveTheDeviceUsable) {
    HostPool pool;
    HostDevice dev(pool);
    Kernel k;
    k.shape = {4};
    int x = k.load(k.add_input(DType::f32, View::contiguous({4})));
    k.add_scalar(DType::i32);
    k.add_output(DType::f32, View::contiguous({4}), k.unary(Op::neg, x));
    ProgramId p = dev.compile(k);
    BufferId in = pool.allocate(16), out = pool.allocate(16), small = pool.allocate(8);
    Scalar s{DType::i32, 0};
    std::vector<BufferId> args{in, out};
    expect_error(ErrorStatus::KernelLaunch, "unknown program 77", [&] { dev.launch(77, args, {&s, 1}, {}); });
    expect_error(ErrorStatus::KernelLaunch, "takes 2 buffers, got 1", [&] { dev.launch(p, {&in, 1}, {&s, 1}, {}); });
    expect_error(ErrorStatus::KernelLaunch, "takes 1 scalars, got 0", [&] { dev.launch(p, args, {}, {}); });
    Scalar bad{DType::f32, 0};
    expect_error(ErrorStatus::KernelLaunch, "scalar 0 must be i32, got f32", [&] {
        dev.launch(p, args, {&bad, 1}, {});
    });
    std::vector<BufferId> too_small{small, out};
    expect_error(ErrorStatus::KernelLaunch,
                 "input 0: buffer " + std::to_string(small) + " has 8 bytes, the view needs 16", [&] {
                     dev.launch(p, too_small, {&s, 1}, {});
                 });
    std::vector<BufferId> alias{in, in};
    expect_error(ErrorStatus::KernelLaunch, "output 0: buffer " + std::to_string(in) + " is also argument 0", [&] {
        dev.launch(p, alias, {&s, 1}, {});
    });
    std::vector<BufferId> unknown{in, 12345};
    expect_error(ErrorStatus::KernelLaunch, "output 0: unknown buffer 12345", [&] {
        dev.launch(p, unknown, {&s, 1}, {});
    });
    expect_error(ErrorStatus::KernelLaunch, "release of unknown program 55", [&] { dev.release(55); });
    Kernel broken = k;
    broken.nodes[1].src[0] = 9;
    EXPECT_FALSE(dev.supports(broken));
    expect_error(ErrorStatus::InvalidArgument, "node %1", [&] { dev.compile(broken); });
    // Still works.
    float data[4] = {1, -2, 3, -4}, res[4];
    pool.host_to_pool(data, 16, in, {});
    dev.launch(p, args, {&s, 1}, {});
    pool.pool_to_host(out, res, 16, {});
    EXPECT_EQ(res[1], 2.0f);
    EXPECT_EQ(res[3], 4.0f);
}

// A view reaching below its buffer (a negative offset, a negative stride from 0) is not a valid
// kernel: supports() says no and compile() refuses it before any compiler runs (ZYX_CXX points
// at a compiler that always fails, so reaching it would throw KernelCompilation instead).
TEST(HostDevice, ViewsReachingBelowTheirBufferAreRefusedBeforeCompiling) {
    HostPool pool;
    HostDevice dev(pool);
    Kernel in;
    in.shape = {4};
    View v = View::contiguous({4});
    v.layers[0].offset = -2;
    in.add_output(DType::f32, View::contiguous({4}), in.load(in.add_input(DType::f32, v)));
    Kernel out;
    out.shape = {4};
    View ov = View::contiguous({4});
    ov.layers[0].strides = {-1};
    out.add_output(DType::f32, ov, out.constant(DType::f32, 1));
    EXPECT_FALSE(dev.supports(in));
    EXPECT_FALSE(dev.supports(out));
    const char* old = std::getenv("ZYX_CXX");
    std::string saved = old ? old : "";
    setenv("ZYX_CXX", "/bin/false", 1);
    expect_error(ErrorStatus::InvalidArgument, "input 0 view [4]/s[1]+-2 reaches element -2", [&] { dev.compile(in); });
    expect_error(ErrorStatus::InvalidArgument, "output 0 view [4]/s[-1] reaches element -3", [&] { dev.compile(out); });
    const Kernel* both[] = {&in, &out};
    expect_error(ErrorStatus::InvalidArgument, "reaches element", [&] { dev.compile_batch(both); });
    if (old)
        setenv("ZYX_CXX", saved.c_str(), 1);
    else
        unsetenv("ZYX_CXX");
    EXPECT_EQ(dev.compiled_kernels(), 0u);
}

TEST(HostDevice, MatmulTakesBlasWithEpilogue) {
    HostPool pool;
    HostDevice dev(pool);
    struct Shape {
        DType t;
        int64_t b, m, k, n;
        bool at, bt, epi;
    };
    for (Shape s :
         {Shape{DType::f32, 1, 33, 17, 9, false, false, false}, Shape{DType::f32, 2, 8, 16, 5, true, false, true},
          Shape{DType::f32, 1, 7, 9, 11, false, true, true}, Shape{DType::f64, 3, 4, 5, 6, true, true, true},
          Shape{DType::f32, 1, 1, 64, 1, false, false, true}}) {
        SCOPED_TRACE(testing::Message() << dtype_name(s.t) << " b" << s.b << " m" << s.m << " k" << s.k << " n" << s.n
                                        << " at" << s.at << " bt" << s.bt);
        Case c = matmul_case(s.t, s.b, s.m, s.k, s.n, s.at, s.bt, s.epi);
        ProgramId p = check_case(pool, dev, c);
        EXPECT_TRUE(dev.program_uses_blas(p));
    }
    {  // a weight shared by every batch (stride 0 on the batch axis), bias + relu epilogue
        SCOPED_TRACE("shared weight");
        Case c = matmul_case(DType::f32, 3, 5, 7, 4, false, false, true);
        c.kernel.inputs[1].view = View::contiguous({7, 4}).permute({1, 0}).reshape({1, 1, 4, 7}).expand({3, 5, 4, 7});
        c.buffers[1].resize(7 * 4 * 4);
        ProgramId p = check_case(pool, dev, c);
        EXPECT_TRUE(dev.program_uses_blas(p));
    }
    // Integers have no BLAS: the loop path computes the same thing.
    Case c = matmul_case(DType::f32, 1, 4, 4, 4, false, false, false);
    c.kernel.inputs[0].view = c.kernel.inputs[0].view.flip({3});  // a negative stride along k
    ProgramId p = check_case(pool, dev, c);
    EXPECT_FALSE(dev.program_uses_blas(p));
}

TEST(HostDevice, SoftmaxInTwoKernels) {
    HostPool pool;
    HostDevice dev(pool);
    int64_t R = 37, C = 300;
    View x = View::contiguous({R, C});
    Case mx;  // m[r] = max_c x[r, c]
    mx.kernel.shape = {R, C};
    mx.kernel.reduce_axes = 1;
    int l = mx.kernel.load(mx.kernel.add_input(DType::f32, x));
    mx.kernel.add_output(DType::f32, View::contiguous({R}), mx.kernel.reduce(Op::reduce_max, l));
    mx.buffers = {random_f32(size_t(R * C), 11), std::vector<uint8_t>(size_t(R) * 4)};
    check_case(pool, dev, mx);
    auto m = run_reference(mx)[1];
    Case sm;  // out[r, c] = exp(x[r,c] - m[r]) / sum_k exp(x[r,k] - m[r])
    Kernel& k = sm.kernel;
    k.shape = {R, C, C};
    k.reduce_axes = 1;
    int xr = k.add_input(DType::f32, x.reshape({R, 1, C}).expand({R, C, C}));
    int xo = k.add_input(DType::f32, x);
    int mm = k.add_input(DType::f32, View::contiguous({R}).reshape({R, 1}).expand({R, C}));
    int den = k.reduce(Op::reduce_sum, k.unary(Op::exp, k.binary(Op::sub, k.load(xr), k.load(mm))));
    int num = k.unary(Op::exp, k.binary(Op::sub, k.load(xo), k.load(mm)));
    k.add_output(DType::f32, View::contiguous({R, C}), k.binary(Op::div, num, den));
    sm.buffers = {mx.buffers[0], mx.buffers[0], m, std::vector<uint8_t>(size_t(R * C) * 4)};
    check_case(pool, dev, sm);  // two buffers with equal contents: the plain inner loop
    sm.same_as = {-1, 0, -1, -1};
    check_case(pool, dev, sm);  // one buffer read through both views: exp(x - m) comes from the row cache
}

TEST(HostDevice, BigReduceIntoFewOutputsIsSplitAcrossThreads) {
    HostPool pool;
    HostDevice dev(pool);
    for (Op op : {Op::reduce_sum, Op::reduce_max, Op::reduce_min}) {
        Case c;
        int64_t n = 1 << 17;
        c.kernel.shape = {2, n};
        c.kernel.reduce_axes = 1;
        int l = c.kernel.load(c.kernel.add_input(DType::f32, View::contiguous({2, n})));
        c.kernel.add_output(DType::f32, View::contiguous({2}), c.kernel.reduce(op, l));
        c.buffers = {random_f32(size_t(2 * n), 5), std::vector<uint8_t>(8)};
        if (op == Op::reduce_max) {  // a NaN in row 1 must come out as NaN
            float nan = NAN;
            std::memcpy(c.buffers[0].data() + 4 * (n + 12345), &nan, 4);
        }
        check_case(pool, dev, c);
    }
    // Every dtype and reduce op through the thread-split path, over a padded, flipped view and
    // an expression with an index of the reduce axis.
    std::mt19937_64 rng(3);
    std::vector<Case> cases;
    for (DType t : {DType::f64, DType::f32, DType::f16, DType::bf16, DType::i8, DType::i32, DType::u16, DType::u64,
                    DType::bool_}) {
        for (Op op : {Op::reduce_sum, Op::reduce_prod, Op::reduce_max, Op::reduce_min}) {
            if (!op_accepts(op, t)) continue;
            Case c;
            Kernel& k = c.kernel;
            int64_t n = 40000;
            k.shape = {3, n};
            k.reduce_axes = 1;
            View v = View::contiguous({3, n - 7}).pad({0, 3}, {0, 4}).flip({1});
            int x = k.load(k.add_input(t, v, random_bits(t, rng)));
            int idx = k.cast(k.index(1, DType::i32), t);
            int body = t == DType::bool_ ? k.binary(Op::bit_xor, x, idx)
                : op == Op::reduce_prod  ? x
                                         : k.binary(Op::max, x, k.binary(Op::mul, idx, x));
            k.add_output(t, View::contiguous({3}), k.reduce(op, body));
            c.buffers = {random_buffer(t, size_t(3 * (n - 7)), rng), std::vector<uint8_t>(3 * dtype_size(t) + 1)};
            cases.push_back(c);
        }
    }
    std::vector<const Kernel*> ks;
    for (const Case& c : cases) ks.push_back(&c.kernel);
    std::vector<ProgramId> ids = dev.compile_batch(ks);
    for (size_t i = 0; i < cases.size(); ++i) {
        SCOPED_TRACE(kernel_string(cases[i].kernel));
        EXPECT_EQ(compare_outputs(cases[i], run_reference(cases[i]), run_host(pool, dev, ids[i], cases[i])), "");
    }
    // An integer sum that wraps, over everything (rank-0 output).
    Case c;
    int64_t n = 1 << 16;
    c.kernel.shape = {n};
    c.kernel.reduce_axes = 1;
    int l = c.kernel.load(c.kernel.add_input(DType::i8, View::contiguous({n})));
    c.kernel.add_output(DType::i8, View::contiguous({}), c.kernel.reduce(Op::reduce_sum, l));
    c.buffers = {random_f32(size_t(n) / 4, 9), std::vector<uint8_t>(1)};
    check_case(pool, dev, c);
}

// Row-cache fuzz: out[r, c] = g(f(x[r, c]), reduce_k f(x[r, k])) for random elementwise chains f
// in several dtypes, run with x passed once (cached inner loop) and as two equal buffers (plain).
TEST(HostDevice, RowCacheOnRandomChains) {
    std::mt19937_64 rng(77);
    HostPool pool;
    HostDevice dev(pool);
    std::vector<Case> cases;
    const Op unary_f[] = {Op::exp, Op::neg, Op::abs, Op::sqrt, Op::tanh, Op::sigmoid, Op::floor};
    const Op unary_i[] = {Op::neg, Op::abs, Op::bit_not, Op::sign};
    const Op binary_any[] = {Op::add, Op::sub, Op::mul, Op::max, Op::min};
    for (int c = 0; c < 24; ++c) {
        DType t = c % 3 == 0 ? DType::f32 : c % 3 == 1 ? DType::i32 : DType::f16;
        int64_t R = 3 + c % 4, C = 5 + c;
        Case cs;
        Kernel& k = cs.kernel;
        k.shape = {R, C, C};
        k.reduce_axes = 1;
        View x = View::contiguous({R, C});
        int xr = k.add_input(t, x.reshape({R, 1, C}).expand({R, C, C}));
        int xo = k.add_input(t, x);
        int m = k.load(k.add_input(t, View::contiguous({R}).reshape({R, 1}).expand({R, C})));
        // The same random chain twice: once over x[r, k], once over x[r, c].
        std::vector<std::pair<Op, int>> chain;
        for (int s = 0; s < 3; ++s) chain.push_back({rng() % 2 ? Op::neg : Op::add, int(rng() % 7)});
        auto build = [&](int leaf) {
            int v = leaf;
            for (auto [kind, pick] : chain) {
                if (kind == Op::add)
                    v = k.binary(binary_any[pick % 5], v, m);
                else
                    v = k.unary(dtype_is_float(t) ? unary_f[pick % 7] : unary_i[pick % 4], v);
            }
            return v;
        };
        int body = build(k.load(xr));
        Op rop = c % 2 ? Op::reduce_sum : Op::reduce_max;
        int red = k.reduce(rop, body);
        int elem = build(k.load(xo));
        k.add_output(t, View::contiguous({R, C}), k.binary(c % 4 < 2 ? Op::sub : Op::max, elem, red));
        std::vector<uint8_t> xb = random_buffer(t, size_t(R * C), rng);
        cs.buffers = {xb, xb, random_buffer(t, size_t(R), rng),
                      std::vector<uint8_t>(size_t(R * C) * dtype_size(t) + 1)};
        cases.push_back(cs);
    }
    std::vector<const Kernel*> ks;
    for (const Case& c : cases) ks.push_back(&c.kernel);
    std::vector<ProgramId> ids = dev.compile_batch(ks);
    for (size_t i = 0; i < cases.size(); ++i) {
        Case c = cases[i];
        SCOPED_TRACE(kernel_string(c.kernel));
        EXPECT_EQ(compare_outputs(c, run_reference(c), run_host(pool, dev, ids[i], c)), "");
        c.same_as = {-1, 0, -1, -1};
        EXPECT_EQ(compare_outputs(c, run_reference(c), run_host(pool, dev, ids[i], c)), "") << "aliased";
    }
}
