// Fusion and scheduling: how many kernels typical chains become (the rules of
// src/schedule/scheduler.hpp), program reuse by structure, buffer aliasing, placement, the
// `sched` debug channel, and that realized tensors let go of their graph.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/log.hpp"
#include "core/subprocess.hpp"
#include "graph/graph.hpp"
#include "schedule/devices.hpp"
#include "schedule/interpreter_device.hpp"
#include "schedule/scheduler.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;

// Kernels launched while `fn` realizes its result (inputs are realized before counting).
template <class Fn>
uint64_t kernels_for(Fn fn) {
    zyx::sched::reset_stats();
    fn();
    return zyx::sched::stats().kernels;
}

Tensor data(const zyx::Shape& s, Device d = Device::host(), uint64_t seed = 1) {
    zyx::Generator g(seed);
    Tensor t = zyx::uniform(s, -2, 2, DType::f32, d, g);
    t.realize();
    return t;
}

const zyx::sched::KernelRecord& last_kernel() {
    static std::vector<zyx::sched::KernelRecord> keep;
    keep = zyx::sched::recent_kernels();
    return keep.back();
}

TEST(Fusion, ElementwiseChainIsOneKernel) {
    Tensor a = data({8, 16}), b = data({8, 16}, Device::host(), 2), c = data({16}, Device::host(), 3);
    Tensor y;
    EXPECT_EQ(kernels_for([&] { (y = ((a * b + c).exp() - 1).relu().sqrt() * 0.5).realize(); }), 1u);
    // Check the value too: the single kernel computed the whole chain.
    float want = 0.5f *
        std::sqrt(std::max(
            0.f, std::exp(a[3].to_vector<float>()[5] * b[3].to_vector<float>()[5] + c.to_vector<float>()[5]) - 1.f));
    EXPECT_NEAR(y.to_vector<float>()[3 * 16 + 5], want, 1e-5 * (1 + want));
}

TEST(Fusion, ViewsAreFreeInsideAChain) {
    Tensor x = data({6, 4}), y = data({4, 6}, Device::host(), 2);
    EXPECT_EQ(kernels_for([&] {
                  (x.transpose() + y.flip(0)).reshape({2, 12}).slice(1, 0, 12, 3).abs().realize();
              }),
              1u);
}

TEST(Fusion, ReduceFusesItsInputAndOutput) {
    Tensor x = data({8, 32}), y = data({8, 32}, Device::host(), 2);
    EXPECT_EQ(kernels_for([&] { ((x * y).sum(1) * 2).relu().realize(); }), 1u);
    EXPECT_EQ(last_kernel().kernel.reduce_axes, 1u);
}

TEST(Fusion, MatmulBiasReluIsOneKernel) {
    Tensor x = data({16, 32}), w = data({32, 8}, Device::host(), 2), b = data({8}, Device::host(), 3);
    EXPECT_EQ(kernels_for([&] { (x.matmul(w) + b).relu().realize(); }), 1u);
    const zyx::kernel::Kernel& k = last_kernel().kernel;
    EXPECT_EQ(k.reduce_axes, 1u);
    EXPECT_EQ(k.shape, (std::vector<int64_t>{16, 8, 32}));
    EXPECT_EQ(k.inputs.size(), 3u);  // x, w, b: read through views, nothing materialised
}

TEST(Fusion, ChainedMatmulsKeepTheirEpilogues) {
    // relu(x @ w1 + b1) @ w2 + b2: the hidden layer is one kernel with its bias and relu (cut
    // where the second matmul reads it through a view), the output layer another.
    Tensor x = data({16, 40}), w1 = data({40, 24}, Device::host(), 2), b1 = data({24}, Device::host(), 3),
           w2 = data({24, 10}, Device::host(), 4), b2 = data({10}, Device::host(), 5);
    Tensor y;
    EXPECT_EQ(kernels_for([&] { (y = (x.matmul(w1) + b1).relu().matmul(w2) + b2).realize(); }), 2u);
    std::vector<float> xv = x.to_vector<float>(), w1v = w1.to_vector<float>(), b1v = b1.to_vector<float>(),
                       w2v = w2.to_vector<float>(), b2v = b2.to_vector<float>();
    float want = b2v[3];
    for (int j = 0; j < 24; ++j) {
        float h = b1v[size_t(j)];
        for (int k = 0; k < 40; ++k) h += xv[size_t(5 * 40 + k)] * w1v[size_t(k * 24 + j)];
        want += std::max(h, 0.f) * w2v[size_t(j * 10 + 3)];
    }
    EXPECT_NEAR(y.to_vector<float>()[5 * 10 + 3], want, 1e-4 * (1 + std::fabs(want)));
}

TEST(Fusion, MatmulOperandBroadcastInTheReduceIsComputedOnce) {
    // relu(x) would otherwise be recomputed for every output column; it gets its own kernel and
    // the matmul kernel reads plain buffers (the shape BLAS recognises).
    Tensor x = data({16, 32}), w = data({32, 8}, Device::host(), 2);
    EXPECT_EQ(kernels_for([&] { x.relu().matmul(w).realize(); }), 2u);
    const zyx::kernel::Kernel& k = last_kernel().kernel;
    for (const zyx::kernel::Node& n : k.nodes) EXPECT_NE(n.op, zyx::kernel::Op::relu);
}

TEST(Fusion, SoftmaxIsTwoKernelsOnTheHost) {
    // max, then one kernel computing exp(x − max) / sum(exp(x − max)). Fused there, the sum is
    // read broadcast along the softmax axis; the JIT host backend computes such row-invariant
    // values once per row of the kernel's last axis, so any width fuses. A device that does not
    // (the interpreter) re-evaluates the sum per element and takes the fused form only up to
    // DeviceInfo::max_reduce_recompute (32) elements along the axis.
    bool hoists = zyx::sched::device_slot(Device::host()).backend->info().hoists_broadcast_reduces;
    EXPECT_EQ(kernels_for([&] { data({64, 10}).softmax(-1).realize(); }), 2u);
    EXPECT_EQ(kernels_for([&] { data({8, 1000}).softmax(1).realize(); }), hoists ? 2u : 3u);
    EXPECT_EQ(kernels_for([&] { data({8, 1000}).log_softmax(1).realize(); }), hoists ? 2u : 3u);
    // Over any other axis the host computes the sum (which varies along the kernel's last axis)
    // once per distinct value before the consumer's loop, so it is two kernels for every axis.
    // All cases in one realization (one compile batch); two kernels each means 4 per case.
    struct Case {
        zyx::Shape shape;
        int axis;
    };
    const std::vector<Case> cases = {Case{{100, 8}, 0},  Case{{4, 100, 8}, 1},  Case{{4, 100, 8}, 0},
                                     Case{{100, 8}, -2}, Case{{4, 100, 8}, -1}, Case{{40, 40}, 0}};
    std::vector<Tensor> outs, sums, diffs;
    for (const Case& c : cases) {
        Tensor x = (data)(c.shape);  // parenthesised: not std::data by argument lookup
        Tensor y = x.softmax(c.axis), z = x.log_softmax(c.axis);
        outs.insert(outs.end(), {y, z});
        // The values: every slice along the axis sums to 1, and log_softmax is log(softmax).
        sums.push_back(y.sum(c.axis).min());
        sums.push_back(y.sum(c.axis).max());
        diffs.push_back((z.exp() - y).abs().max());
    }
    uint64_t n = kernels_for([&] { zyx::realize(outs); });
    if (hoists)
        EXPECT_EQ(n, 4 * cases.size());
    else
        EXPECT_LE(n, 6 * cases.size());
    std::vector<Tensor> checks = sums;
    checks.insert(checks.end(), diffs.begin(), diffs.end());
    zyx::realize(checks);  // one compile batch for the checks too
    for (size_t i = 0; i < cases.size(); ++i) {
        std::string what = zyx::kernel::shape_string(cases[i].shape) + " axis " + std::to_string(cases[i].axis);
        EXPECT_NEAR(sums[2 * i].item<float>(), 1.f, 1e-5) << what;
        EXPECT_NEAR(sums[2 * i + 1].item<float>(), 1.f, 1e-5) << what;
        EXPECT_LT(diffs[i].item<float>(), 1e-6) << what;
    }
    if (hoists) {  // the consumer keeps the root's index space and a contiguous output
        data({100, 8}).softmax(0).realize();
        const zyx::kernel::Kernel& k = last_kernel().kernel;
        EXPECT_EQ(k.shape, (std::vector<int64_t>{100, 8, 100}));
        EXPECT_EQ(k.outputs[0].view.layers[0].strides, (std::vector<int64_t>{8, 1}));
    }
    // The interpreter: narrow rows fuse, wide rows take three kernels (max; sum of exp; divide).
    EXPECT_EQ(kernels_for([&] { data({8, 10}, Device::interpreter()).softmax(1).realize(); }), 2u);
    EXPECT_EQ(kernels_for([&] { data({8, 100}, Device::interpreter()).softmax(1).realize(); }), 3u);
}

TEST(Fusion, LogSumExpArgmaxVarLayerNorm) {
    Tensor x = data({16, 64});
    EXPECT_EQ(kernels_for([&] { x.logsumexp(1).realize(); }), 2u);
    EXPECT_EQ(kernels_for([&] { x.argmax(1).realize(); }), 2u);
    EXPECT_EQ(kernels_for([&] { x.var(1).realize(); }), 2u);
    Tensor small = data({16, 8});
    EXPECT_EQ(kernels_for([&] { zyx::layer_norm(small, {8}).realize(); }), 2u);
    if (zyx::sched::device_slot(Device::host()).backend->info().hoists_broadcast_reduces) {
        Tensor wide = data({4, 768});  // the variance is read broadcast along the last axis only
        EXPECT_EQ(kernels_for([&] { zyx::layer_norm(wide, {768}).realize(); }), 2u);
    }
}

TEST(Fusion, Conv2dWithBiasAndReluIsOneKernel) {
    Tensor x = data({2, 3, 8, 8}), w = data({4, 3, 3, 3}, Device::host(), 2), b = data({4}, Device::host(), 3);
    zyx::Conv2dOptions o;
    o.padding = 1;
    EXPECT_EQ(kernels_for([&] { zyx::conv2d(x, w, b, o).relu().realize(); }), 1u);
    EXPECT_EQ(kernels_for([&] { zyx::max_pool2d(x, 2).realize(); }), 1u);
}

TEST(Fusion, CatOfBuffersIsOneKernel) {
    Tensor a = data({3, 4}), b = data({3, 2}, Device::host(), 2), c = data({3, 5}, Device::host(), 3);
    EXPECT_EQ(kernels_for([&] { zyx::cat({a, b, c}, 1).realize(); }), 1u);
}

TEST(Fusion, ReduceReadByTwoConsumersIsComputedOnce) {
    Tensor x = data({8, 16});
    Tensor s = x.sum(1);
    Tensor u = s + 1, v = s * 2;
    EXPECT_EQ(kernels_for([&] { zyx::realize({u, v}); }), 3u);             // the sum, then u and v read its buffer
    EXPECT_TRUE(s.node()->inputs.empty() || s.node()->inputs[0]->buffer);  // s views the realized sum
}

TEST(Fusion, ContiguousReshapeSharesTheBuffer) {
    Tensor x = data({4, 6});
    zyx::sched::reset_stats();
    Tensor r = x.reshape({2, 12}).contiguous();
    r.realize();
    EXPECT_EQ(zyx::sched::stats().kernels, 0u);
    EXPECT_EQ(zyx::sched::stats().aliases, 1u);
    EXPECT_EQ(r.node()->buffer.get(), x.node()->buffer.get());
    // A permuted view is not contiguous: it needs a copy kernel.
    EXPECT_EQ(kernels_for([&] { x.transpose().contiguous().realize(); }), 1u);
}

TEST(Fusion, KernelsAreKeyedByStructureAndNumbersAreArguments) {
    Tensor a = data({32, 32}), b = data({32, 32}, Device::host(), 2);
    (a * 0.25f + 1).exp().realize();  // warm: compiles the program
    zyx::sched::reset_stats();
    Tensor ya = (a * 0.5f + 2).exp(), yb = (b * 0.7f + -3).exp();
    ya.realize();
    yb.realize();
    EXPECT_EQ(zyx::sched::stats().kernels, 2u);
    EXPECT_EQ(zyx::sched::stats().compiles, 0u);  // same structure: x * s0 + s1, then exp
    EXPECT_TRUE(zyx::sched::recent_kernels().back().cache_hit);
    EXPECT_NEAR(yb.to_vector<float>()[7], std::exp(b.to_vector<float>()[7] * 0.7f - 3), 1e-5);
}

TEST(Fusion, ManyTensorsRealizedTogetherCompileInOneBatch) {
    Tensor x = data({5, 7});
    std::vector<Tensor> outs = {x.sin() * 3.f, x.cos().sum(0), x.tanh().max(1), (x + 11).log()};
    zyx::sched::reset_stats();
    zyx::realize(outs);
    EXPECT_EQ(zyx::sched::stats().kernels, 4u);
    for (const Tensor& t : outs) EXPECT_TRUE(t.is_realized());
}

TEST(Fusion, LongChainsAreCutAndDoNotOverflowTheStack) {
    Tensor x = data({4});
    Tensor y = x;
    const int n = 20000;
    for (int i = 0; i < n; ++i) y = y + 1.f;
    uint64_t k = kernels_for([&] { y.realize(); });
    EXPECT_GE(k, uint64_t(n / zyx::sched::kMaxFusedDepth));
    EXPECT_LE(k, uint64_t(n / zyx::sched::kMaxFusedDepth) + 2);
    EXPECT_NEAR(y.to_vector<float>()[2], x.to_vector<float>()[2] + n, 1e-2);
    // A lazy chain that is never realized is freed without recursion too.
    Tensor z = x;
    for (int i = 0; i < 200000; ++i) z = z * 1.f;
    z = Tensor();
}

TEST(Fusion, RealizedTensorsLetGoOfTheirGraph) {
    auto& pool = dynamic_cast<zyx::sched::InterpreterPool&>(*zyx::sched::device_slot(Device::interpreter()).pool);
    Tensor x = data({64}, Device::interpreter());
    size_t before = pool.live_buffers();
    for (int i = 0; i < 50; ++i) {
        x = (x * 0.5f).sum().expand({64}) + x;  // two kernels per step
        x.realize();
        EXPECT_TRUE(x.node()->inputs.empty());
    }
    EXPECT_LE(pool.live_buffers(), before + 1);  // only the current x is alive
}

TEST(Fusion, SchedChannelListsKernelsWithWhatTheyFused) {
    Tensor x = data({4, 5});
    char path[] = "/tmp/zyx_sched_log_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    setenv("ZYX_DEBUG", "sched", 1);
    zyx::log_reload_from_env();
    x.softmax(1).realize();
    unsetenv("ZYX_DEBUG");
    zyx::log_reload_from_env();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path);
    std::string s = text.str();
    EXPECT_NE(s.find("kernel"), std::string::npos) << s;
    EXPECT_NE(s.find("fused [reduce_max"), std::string::npos) << s;
    EXPECT_NE(s.find("exp#"), std::string::npos) << s;
    EXPECT_NE(s.find("reducing the last 1"), std::string::npos) << s;
}

TEST(Fusion, TenstorrentTensorsRunOnTheChip) {
    bool have_tt = false;
    for (Device d : zyx::available_devices()) have_tt |= d == Device::tt(0);
    if (!have_tt) GTEST_SKIP() << "tt:0 is not available in this build or configuration";
    Tensor a = zyx::tensor({1.f, 2.f, 3.f}).to(Device::tt(0));
    a.realize();
    Tensor b = (a * 2 + 1).exp();
    EXPECT_EQ(b.device(), Device::tt(0));
    zyx::sched::reset_stats();
    b.realize();
    zyx::sched::Stats s = zyx::sched::stats();
    EXPECT_EQ(s.fallbacks, 0u);
    EXPECT_EQ(s.transfers, 0u);  // the bytes stay on the device
    EXPECT_EQ(s.kernels_on["tt:0"], 1u);
    EXPECT_EQ(last_kernel().device, "tt:0");
    std::vector<float> v = b.to_vector<float>();
    EXPECT_NEAR(v[2], std::exp(7.f), 1e-2);
    EXPECT_EQ(b.to(Device::host()).to_vector<float>(), v);
    EXPECT_EQ(a.to_string(), "tensor([1., 2., 3.], device='tt:0')");
    // A kernel the code generator refuses (an i32 pow with a tensor exponent: the tile engine has
    // no integer pow) runs on the host: its input moves tt:0 → host, its result back, and
    // the record says why.
    Tensor c = zyx::tensor(std::vector<int32_t>{4, 5}, {2}, DType::i32, Device::tt(0));
    c.realize();
    zyx::sched::reset_stats();
    Tensor d = c.pow(c).realize();
    s = zyx::sched::stats();
    EXPECT_EQ(s.fallbacks, 1u);
    EXPECT_EQ(s.transfers, 2u);
    EXPECT_EQ(s.kernels_on["host"], 1u);
    EXPECT_EQ(last_kernel().node_device, "tt:0");
    EXPECT_NE(last_kernel().fallback.find("pow"), std::string::npos) << last_kernel().fallback;
    EXPECT_EQ(d.to_vector<int32_t>(), (std::vector<int32_t>{256, 3125}));
}

TEST(Fusion, UnavailableDeviceSaysSoWhenUsed) {
    bool have_tt = false;
    for (Device d : zyx::available_devices()) have_tt |= d == Device::tt(7);
    if (have_tt) GTEST_SKIP() << "tt:7 exists here";
    try {
        zyx::zeros({2}, DType::f32, Device::tt(7));
        FAIL() << "expected an Initialization error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Initialization) << e.what();
        EXPECT_NE(std::string(e.what()).find("tt:7"), std::string::npos) << e.what();
    }
    // Everything else keeps working.
    EXPECT_EQ(zyx::ones({2}).sum().item<float>(), 2.f);
}

// Runs in a child process (started by the next test) whose ZYX_TT_RUNTIME names no executable:
// asking for tt:0 is a clear Initialization error naming the device; the host keeps working.
TEST(Fusion, MissingRuntimeChild) {
    if (!std::getenv("ZYX_TENSOR_TEST_CHILD"))
        GTEST_SKIP() << "runs as a child of MissingRuntimeIsAnInitializationError";
    try {
        zyx::tensor({1.f, 2.f}).to(Device::tt(0));
        FAIL() << "expected an Initialization error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Initialization) << e.what();
        EXPECT_NE(std::string(e.what()).find("cannot open tt:0"), std::string::npos) << e.what();
        std::printf("child saw: %s\n", e.what());
    }
    EXPECT_EQ((zyx::tensor({1.f, 2.f}) * 3).sum().item<float>(), 9.f);
}

TEST(Fusion, MissingRuntimeIsAnInitializationError) {
    if (std::getenv("ZYX_TENSOR_TEST_CHILD")) GTEST_SKIP();
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    ASSERT_GT(n, 0);
    self[n] = 0;
    setenv("ZYX_TENSOR_TEST_CHILD", "1", 1);
    setenv("ZYX_TT_RUNTIME", "/nonexistent/zyx-tt-runtime", 1);
    zyx::SubprocessResult r = zyx::subprocess_run({self, "--gtest_filter=Fusion.MissingRuntimeChild"});
    unsetenv("ZYX_TENSOR_TEST_CHILD");
    unsetenv("ZYX_TT_RUNTIME");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("child saw: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("1 test"), std::string::npos) << r.output;
}

}  // namespace
