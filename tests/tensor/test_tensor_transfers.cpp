// Moves between devices inside one realization: a tensor made on the host, moved to a device,
// cast and multiplied there, moved back and cast again, all realized by one read. Every kernel of
// such a chain reads buffers that earlier jobs of the same realization produce (planned buffers),
// so a job that hands its result over in any other buffer than the one it planned breaks the
// kernels after it (issue 16: "unknown buffer 0").
//
// The family: every dtype of the op table's matmul lines, on every device, with a shape small
// enough for plain loops and one large enough for the host's BLAS path (f32/f64), each checked
// against a reference computed here in doubles. All chains of one device are realized together
// (one compile batch on the host JIT), and each chain alone once more.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernel/kernel.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Shape;
using zyx::Tensor;

bool available(Device d) {
    if (d.kind() != Device::Kind::tt) return true;
    for (Device a : zyx::available_devices())
        if (a == d) return true;
    return false;
}

// `v` stored as dtype t (the cast rules: floats round, integers wrap).
double as_dtype(double v, DType t) {
    if (zyx::dtype_is_int(t)) return zyx::kernel::double_from_bits(t, zyx::kernel::bits_from_int(t, int64_t(v)));
    return zyx::kernel::double_from_bits(t, zyx::kernel::bits_from_double(t, v));
}

// |got - want| allowed for a result of dtype t after a K-term sum rounded once to t.
double tolerance(DType t, double want) {
    switch (t) {
        case DType::f64: return 1e-12 + 1e-10 * std::fabs(want);
        case DType::f32: return 1e-4 + 1e-5 * std::fabs(want);
        case DType::f16: return 1e-3 + 2e-3 * std::fabs(want);
        case DType::bf16: return 1e-2 + 1.6e-2 * std::fabs(want);
        default: return 0;  // integers: exact (wrapping sums agree whatever the order)
    }
}

const DType kMatmulDtypes[] = {DType::f32, DType::f16, DType::bf16, DType::f64, DType::i8,  DType::i16,
                               DType::i32, DType::i64, DType::u8,   DType::u16, DType::u32, DType::u64};

struct Chain {
    DType d;
    int64_t m, k, n;
    std::vector<float> a, b;
    Tensor xd, out;  // the operand as moved and cast; the result back on the host as f32
    std::string where;
};

Chain make_chain(DType d, int64_t m, int64_t k, int64_t n, Device dev) {
    Chain c{d, m, k, n, std::vector<float>(size_t(m * k)), std::vector<float>(size_t(k * n)), {}, {}, {}};
    // Small integers (scaled for floats) as f32 on the host: every dtype holds them exactly.
    std::mt19937 rng(uint32_t(m * 131 + n));
    std::uniform_int_distribution<int> pick(zyx::dtype_is_unsigned_int(d) ? 0 : -3, 3);
    for (float& x : c.a) x = float(pick(rng)) * (zyx::dtype_is_float(d) ? 0.75f : 1.f);
    for (float& x : c.b) x = float(pick(rng)) * (zyx::dtype_is_float(d) ? 0.5f : 1.f);
    Tensor x = zyx::tensor(c.a, {m, k}).realize(), w = zyx::tensor(c.b, {k, n}).realize();
    c.xd = x.to(dev).cast(d);
    Tensor wd = w.to(dev).cast(d);
    c.out = c.xd.matmul(wd).to(Device::host()).cast(DType::f32);
    c.where = std::string(zyx::dtype_name(d)) + " [" + std::to_string(m) + "," + std::to_string(k) + "]@[" +
        std::to_string(k) + "," + std::to_string(n) + "] on " + dev.str();
    return c;
}

void check_chain(const Chain& c) {
    std::vector<float> got = c.out.to_vector<float>();
    ASSERT_EQ(got.size(), size_t(c.m * c.n)) << c.where;
    for (int64_t i = 0; i < c.m; ++i)
        for (int64_t j = 0; j < c.n; ++j) {
            double acc = 0;
            for (int64_t q = 0; q < c.k; ++q)
                acc += double(c.a[size_t(i * c.k + q)]) * double(c.b[size_t(q * c.n + j)]);
            double want = as_dtype(acc, c.d), g = got[size_t(i * c.n + j)];
            ASSERT_LE(std::fabs(g - want), tolerance(c.d, want)) << c.where << " element (" << i << "," << j << ")";
        }
    // The moved and cast operand is still usable afterwards (nothing was released early).
    EXPECT_EQ(c.xd.to(Device::host()).cast(DType::f32).to_vector<float>()[0], float(as_dtype(c.a[0], c.d))) << c.where;
}

class MatmulAcrossDevices : public ::testing::TestWithParam<std::string> {};

TEST_P(MatmulAcrossDevices, CastMatmulAndMoveBackInOneRealization) {
    Device dev = Device::parse(GetParam());
    if (!available(dev)) GTEST_SKIP() << GetParam() << " is not available in this build or configuration";
    std::vector<Chain> chains;
    std::vector<Tensor> outs;
    for (DType d : kMatmulDtypes)
        for (auto [m, k, n] : {std::tuple<int64_t, int64_t, int64_t>{4, 8, 3}, {37, 50, 70}}) {
            chains.push_back(make_chain(d, m, k, n, dev));
            outs.push_back(chains.back().out);
        }
    zyx::realize(outs);
    for (const Chain& c : chains) check_chain(c);
    // Each chain realized alone (its own schedule) for the dtypes of the report.
    for (DType d : {DType::bf16, DType::f32}) check_chain(make_chain(d, 37, 50, 70, dev));
}

INSTANTIATE_TEST_SUITE_P(Transfers, MatmulAcrossDevices,
                         ::testing::Values(std::string("interpreter"), std::string("host"), std::string("tt:0")),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string s = info.param;
                             for (char& c : s)
                                 if (c == ':') c = '_';
                             return s;
                         });

// A result moved back twice and read twice: both moves and every read see the same values.
TEST(Transfers, ResultMovedBackTwiceAndReadTwice) {
    for (const char* dn : {"interpreter", "host", "tt:0"}) {
        Device dev = Device::parse(dn);
        if (!available(dev)) continue;
        Tensor x = zyx::arange(0, 12, 1, DType::f32).reshape({3, 4}).to(dev);
        Tensor y = (x.cast(DType::bf16) * 2).sum(1);
        Tensor h1 = y.to(Device::host()), h2 = y.to(Device::host());
        zyx::realize({h1, h2});
        std::vector<float> want = {12, 44, 76};
        EXPECT_EQ(h1.cast(DType::f32).to_vector<float>(), want) << dn;
        EXPECT_EQ(h2.cast(DType::f32).to_vector<float>(), want) << dn;
        EXPECT_EQ(y.cast(DType::f32).to_vector<float>(), want) << dn;
    }
}

}  // namespace
