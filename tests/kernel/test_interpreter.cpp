// The reference interpreter against hand-computed values: every op, every dtype class, and the
// edge rules of docs/ir.md (NaN, inf, wrap-around, division by zero, shifts, saturating casts).
// test_interpreter_table.cpp holds the table that covers every (op, dtype) pair.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <tuple>

#include "core/error.hpp"
#include "kernel_test_util.hpp"

using namespace zyx;
using namespace zyx::kernel;
using namespace zyx::kernel::test;

namespace {
const double nan_ = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

// Same value, NaN equal to NaN, and the sign of zero must match.
void expect_same(const std::vector<double>& got, const std::vector<double>& want, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "] got " << got[i] << " want NaN";
        } else {
            EXPECT_EQ(got[i], want[i]) << what << " [" << i << "]";
            EXPECT_EQ(std::signbit(got[i]), std::signbit(want[i])) << what << " [" << i << "] sign of zero";
        }
    }
}
void expect_near(const std::vector<double>& got, const std::vector<double>& want, double rel, const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_NEAR(got[i], want[i], rel * std::fabs(want[i]) + 1e-30) << what << " [" << i << "]";
}
std::vector<double> unary_f(Op op, DType t, std::vector<double> x) { return D(t, run_unary(op, t, F(t, x))); }
std::vector<double> binary_f(Op op, DType t, std::vector<double> x, std::vector<double> y) {
    return D(t, run_binary(op, t, F(t, x), F(t, y)));
}
std::vector<double> binary_i(Op op, DType t, std::vector<int64_t> x, std::vector<int64_t> y) {
    return D(t, run_binary(op, t, I(t, x), I(t, y)));
}
std::vector<double> pred(Op op, DType t, std::vector<double> x, std::vector<double> y) {
    return D(DType::bool_, run_binary(op, t, F(t, x), F(t, y)));
}
const DType kFloats[] = {DType::f64, DType::f32, DType::f16, DType::bf16};
}  // namespace

TEST(Interpreter, FloatUnaryExactValuesEveryFloatDtype) {
    for (DType t : kFloats) {
        SCOPED_TRACE(std::string(dtype_name(t)));
        expect_same(unary_f(Op::neg, t, {1.5, -0.0, inf, nan_}), {-1.5, 0.0, -inf, nan_}, "neg");
        expect_same(unary_f(Op::exp, t, {0, -inf, inf, nan_}), {1, 0, inf, nan_}, "exp");
        expect_same(unary_f(Op::exp2, t, {3, -1, -inf}), {8, 0.5, 0}, "exp2");
        expect_same(unary_f(Op::log, t, {1, 0, -1, inf}), {0, -inf, nan_, inf}, "log");
        expect_same(unary_f(Op::log2, t, {8, 0.25, 0}), {3, -2, -inf}, "log2");
        expect_same(unary_f(Op::sqrt, t, {4, -1, 0.25, -0.0}), {2, nan_, 0.5, -0.0}, "sqrt");
        expect_same(unary_f(Op::rsqrt, t, {4, 0, -0.0}), {0.5, inf, -inf}, "rsqrt");
        expect_same(unary_f(Op::recip, t, {4, 0, -0.0, inf}), {0.25, inf, -inf, 0}, "recip");
        expect_same(unary_f(Op::sin, t, {0, inf}), {0, nan_}, "sin");
        expect_same(unary_f(Op::cos, t, {0}), {1}, "cos");
        expect_same(unary_f(Op::tanh, t, {0, inf, -inf, nan_}), {0, 1, -1, nan_}, "tanh");
        expect_same(unary_f(Op::sigmoid, t, {0, inf, -inf}), {0.5, 1, 0}, "sigmoid");
        expect_same(unary_f(Op::erf, t, {0, inf, -inf, nan_, 6, -6}), {0, 1, -1, nan_, 1, -1}, "erf");
        expect_same(unary_f(Op::relu, t, {-2, 3, nan_, 0}), {0, 3, nan_, 0}, "relu");
        expect_same(unary_f(Op::abs, t, {-2, -0.0, -inf}), {2, 0, inf}, "abs");
        expect_same(unary_f(Op::floor, t, {-1.5, 1.5, -0.0}), {-2, 1, -0.0}, "floor");
        expect_same(unary_f(Op::ceil, t, {-1.5, 1.5}), {-1, 2}, "ceil");
        expect_same(unary_f(Op::round, t, {2.5, 3.5, -2.5, 0.4}), {2, 4, -2, 0}, "round half even");
        expect_same(unary_f(Op::sign, t, {-3, 5, 0, -0.0, nan_}), {-1, 1, 0, -0.0, nan_}, "sign");
        expect_same(D(DType::bool_, run_unary(Op::logical_not, t, F(t, {0, -0.0, 2, nan_}))), {1, 1, 0, 0}, "not");
    }
}

TEST(Interpreter, FloatTranscendentalsRoundedPerDtype) {
    // e rounded to each format: f32 2.71828174591064453125; f16 and bf16 2.71875.
    expect_near(unary_f(Op::exp, DType::f64, {1}), {2.718281828459045}, 1e-15, "exp f64");
    expect_same(unary_f(Op::exp, DType::f32, {1}), {2.71828174591064453125}, "exp f32");
    expect_same(unary_f(Op::exp, DType::f16, {1}), {2.71875}, "exp f16");
    expect_same(unary_f(Op::exp, DType::bf16, {1}), {2.71875}, "exp bf16");
    expect_near(unary_f(Op::sin, DType::f32, {1}), {0.8414709848}, 1e-7, "sin");
    expect_near(unary_f(Op::cos, DType::f32, {1}), {0.5403023059}, 1e-7, "cos");
    expect_near(unary_f(Op::tanh, DType::f32, {0.5}), {0.4621171573}, 1e-7, "tanh");
    expect_near(unary_f(Op::sigmoid, DType::f32, {1}), {0.7310585786}, 1e-7, "sigmoid");
    expect_near(unary_f(Op::erf, DType::f32, {0.5}), {0.5204998778}, 1e-7, "erf");
    // 1/3 in f16 is 0.333251953125 (nearest even of 0x3555.4…)
    expect_same(unary_f(Op::recip, DType::f16, {3}), {0.333251953125}, "recip f16");
}

TEST(Interpreter, FloatBinary) {
    for (DType t : kFloats) {
        SCOPED_TRACE(std::string(dtype_name(t)));
        expect_same(binary_f(Op::add, t, {1, inf, inf}, {2, -inf, 1}), {3, nan_, inf}, "add");
        expect_same(binary_f(Op::sub, t, {1, 0}, {3, 0}), {-2, 0}, "sub");
        expect_same(binary_f(Op::mul, t, {1.5, 0, -2}, {2, inf, 0}), {3, nan_, -0.0}, "mul");
        expect_same(binary_f(Op::div, t, {1, -1, 0, 6}, {0, 0, 0, 4}), {inf, -inf, nan_, 1.5}, "div");
        expect_same(binary_f(Op::pow, t, {2, 4, nan_, -8}, {3, 0.5, 0, 1.0 / 3}), {8, 2, 1, nan_}, "pow");
        expect_same(binary_f(Op::mod, t, {7, -7, 7, 1}, {2, 2, -2, 0}), {1, -1, 1, nan_}, "mod (sign of x)");
        expect_same(binary_f(Op::max, t, {1, nan_, 3, -inf}, {2, 1, nan_, 0}), {2, nan_, nan_, 0}, "max");
        expect_same(binary_f(Op::min, t, {1, nan_, 3}, {2, 1, nan_}), {1, nan_, nan_}, "min");
        expect_same(pred(Op::cmp_lt, t, {1, nan_, 2}, {2, 1, 2}), {1, 0, 0}, "lt");
        expect_same(pred(Op::cmp_le, t, {1, nan_, 2}, {2, 1, 2}), {1, 0, 1}, "le");
        expect_same(pred(Op::cmp_gt, t, {1, nan_, 3}, {2, 1, 2}), {0, 0, 1}, "gt");
        expect_same(pred(Op::cmp_ge, t, {2, nan_}, {2, nan_}), {1, 0}, "ge");
        expect_same(pred(Op::cmp_eq, t, {2, nan_, 0}, {2, nan_, -0.0}), {1, 0, 1}, "eq");
        expect_same(pred(Op::cmp_ne, t, {2, nan_}, {2, nan_}), {0, 1}, "ne");
        expect_same(pred(Op::logical_and, t, {0.5, 0.5, nan_}, {-0.0, 2, 1}), {0, 1, 1}, "and");
        expect_same(pred(Op::logical_or, t, {0, 0, -0.0}, {0, 3, 0}), {0, 1, 0}, "or");
        expect_same(pred(Op::logical_xor, t, {0, 0.5, nan_, -0.0, 2}, {0, -0.0, 1, 2, 3}), {0, 1, 0, 1, 0}, "xor");
    }
}

TEST(Interpreter, IntegerArithmeticWraps) {
    expect_same(binary_i(Op::add, DType::i8, {127, -128}, {1, -1}), {-128, 127}, "i8 add");
    expect_same(binary_i(Op::add, DType::u8, {255}, {1}), {0}, "u8 add");
    expect_same(binary_i(Op::add, DType::i32, {INT32_MAX}, {1}), {double(INT32_MIN)}, "i32 add");
    expect_same(binary_i(Op::sub, DType::u16, {0}, {1}), {65535}, "u16 sub");
    expect_same(binary_i(Op::mul, DType::i16, {300, -300}, {300, 300}), {24464, -24464}, "i16 mul");
    expect_same(binary_i(Op::mul, DType::u32, {65536}, {65536}), {0}, "u32 mul");
    auto r64 = run_binary(Op::add, DType::i64, I(DType::i64, {INT64_MAX}), I(DType::i64, {1}));
    EXPECT_EQ(int64_t(r64[0]), INT64_MIN);
    auto ru64 = run_binary(Op::sub, DType::u64, I(DType::u64, {0}), I(DType::u64, {1}));
    EXPECT_EQ(ru64[0], UINT64_MAX);
    auto m64 = run_binary(Op::mul, DType::i64, I(DType::i64, {INT64_MAX}), I(DType::i64, {2}));
    EXPECT_EQ(int64_t(m64[0]), -2);
    expect_same(D(DType::i8, run_unary(Op::neg, DType::i8, I(DType::i8, {-128, 5}))), {-128, -5}, "i8 neg");
    expect_same(D(DType::i32, run_unary(Op::abs, DType::i32, I(DType::i32, {INT32_MIN, -7}))), {double(INT32_MIN), 7},
                "abs");
    expect_same(D(DType::i16, run_unary(Op::sign, DType::i16, I(DType::i16, {-9, 0, 4}))), {-1, 0, 1}, "sign");
    expect_same(D(DType::u8, run_unary(Op::sign, DType::u8, I(DType::u8, {0, 200}))), {0, 1}, "sign u8");
    expect_same(D(DType::i32, run_unary(Op::relu, DType::i32, I(DType::i32, {-9, 4}))), {0, 4}, "relu");
    expect_same(D(DType::i32, run_unary(Op::floor, DType::i32, I(DType::i32, {-9}))), {-9}, "floor id");
    expect_same(D(DType::i8, run_unary(Op::bit_not, DType::i8, I(DType::i8, {0, -1}))), {-1, 0}, "bit_not");
    expect_same(D(DType::u8, run_unary(Op::bit_not, DType::u8, I(DType::u8, {0}))), {255}, "bit_not u8");
}

TEST(Interpreter, IntegerDivisionModAndPowRules) {
    expect_same(binary_i(Op::div, DType::i32, {7, -7, 7, 5, INT32_MIN}, {-2, 2, 0, 0, -1}),
                {-3, -3, 0, 0, double(INT32_MIN)}, "i32 div");
    expect_same(binary_i(Op::div, DType::i8, {-128}, {-1}), {-128}, "i8 MIN/-1");
    auto d64 = run_binary(Op::div, DType::i64, I(DType::i64, {INT64_MIN}), I(DType::i64, {-1}));
    EXPECT_EQ(int64_t(d64[0]), INT64_MIN);
    expect_same(binary_i(Op::div, DType::u8, {200, 9}, {7, 0}), {28, 0}, "u8 div");
    expect_same(binary_i(Op::mod, DType::i32, {-7, 7, 7, INT32_MIN}, {2, -2, 0, -1}), {-1, 1, 0, 0}, "i32 mod");
    expect_same(binary_i(Op::mod, DType::u16, {65535, 3}, {10, 0}), {5, 0}, "u16 mod");
    expect_same(binary_i(Op::pow, DType::i32, {2, 3, -1, 1, 2, 0, 2}, {10, -1, -3, -5, 40, 0, 31}),
                {1024, 0, -1, 1, 0, 1, double(INT32_MIN)}, "i32 pow");
    expect_same(binary_i(Op::pow, DType::i8, {3}, {5}), {-13}, "i8 pow wraps (243)");
    expect_same(binary_i(Op::pow, DType::u8, {2}, {8}), {0}, "u8 pow wraps");
    expect_same(binary_i(Op::max, DType::i16, {-5, 3}, {2, -9}), {2, 3}, "max");
    expect_same(binary_i(Op::min, DType::u32, {5, 3}, {2, 9}), {2, 3}, "min");
}

TEST(Interpreter, ShiftsAndBitOps) {
    expect_same(binary_i(Op::shl, DType::i32, {1, 1, 1, -1}, {3, 32, -1, 31}), {8, 0, 0, double(INT32_MIN)}, "i32 shl");
    expect_same(binary_i(Op::shl, DType::i8, {1, 1, 3}, {7, 8, 6}), {-128, 0, -64}, "i8 shl");
    expect_same(binary_i(Op::shl, DType::u8, {1, 255}, {7, 1}), {128, 254}, "u8 shl");
    expect_same(binary_i(Op::shr, DType::i32, {-8, -8, 8, 8}, {1, 40, 40, -1}), {-4, -1, 0, 0}, "i32 shr");
    expect_same(binary_i(Op::shr, DType::u32, {int64_t(0x80000000u), 5}, {31, 32}), {1, 0}, "u32 shr");
    expect_same(binary_i(Op::shr, DType::i8, {-128}, {7}), {-1}, "i8 shr arithmetic");
    auto s64 = run_binary(Op::shl, DType::u64, I(DType::u64, {1, 1}), I(DType::u64, {63, 64}));
    EXPECT_EQ(s64[0], uint64_t(1) << 63);
    EXPECT_EQ(s64[1], 0u);
    expect_same(binary_i(Op::bit_and, DType::i16, {0x0ff0}, {0x00ff}), {0x00f0}, "and");
    expect_same(binary_i(Op::bit_or, DType::u8, {0xf0}, {0x0f}), {255}, "or");
    expect_same(binary_i(Op::bit_xor, DType::i32, {5}, {-1}), {-6}, "xor");
}

TEST(Interpreter, BoolOps) {
    DType b = DType::bool_;
    auto B = [&](std::vector<int64_t> v) { return I(b, v); };
    expect_same(D(b, run_binary(Op::max, b, B({0, 0, 1}), B({0, 1, 1}))), {0, 1, 1}, "max = or");
    expect_same(D(b, run_binary(Op::min, b, B({0, 1, 1}), B({1, 0, 1}))), {0, 0, 1}, "min = and");
    expect_same(D(b, run_binary(Op::bit_xor, b, B({0, 1, 1}), B({1, 1, 0}))), {1, 0, 1}, "xor");
    expect_same(D(b, run_binary(Op::logical_xor, b, B({0, 1, 1, 0}), {1, 1, 0, 2})), {1, 0, 1, 1}, "logical_xor");
    // On integers only zero is false: 256 is true though its low byte is 0.
    expect_same(D(b, run_binary(Op::logical_xor, DType::i32, I(DType::i32, {256, 0, -1}), I(DType::i32, {0, 0, 7}))),
                {1, 0, 0}, "logical_xor i32");
    expect_same(D(b, run_binary(Op::cmp_lt, b, B({0, 1}), B({1, 0}))), {1, 0}, "false < true");
    expect_same(D(b, run_unary(Op::bit_not, b, B({0, 1}))), {1, 0}, "bit_not");
    // A bool byte other than 0/1 reads as true.
    expect_same(D(b, run_unary(Op::logical_not, b, {0, 2})), {1, 0}, "byte 2 is true");
    // where
    auto w = run_elementwise({{b, B({1, 0})}, {DType::f32, F(DType::f32, {1, 2})}, {DType::f32, F(DType::f32, {3, 4})}},
                             [](Kernel& k, const std::vector<int>& l) { return k.where(l[0], l[1], l[2]); });
    expect_same(D(DType::f32, w), {1, 4}, "where");
}

TEST(Interpreter, CastRules) {
    expect_same(
        D(DType::i32, run_cast(DType::f32, DType::i32, F(DType::f32, {3.9, -3.9, 1e10, -1e10, nan_, inf, -inf}))),
        {3, -3, double(INT32_MAX), double(INT32_MIN), 0, double(INT32_MAX), double(INT32_MIN)}, "f32->i32");
    expect_same(D(DType::u8, run_cast(DType::f32, DType::u8, F(DType::f32, {-5, 300, 255.9, -0.5}))), {0, 255, 255, 0},
                "f32->u8");
    expect_same(D(DType::i8, run_cast(DType::f16, DType::i8, F(DType::f16, {200.5, -129}))), {127, -128}, "f16->i8");
    auto c64 = run_cast(DType::f64, DType::i64, F(DType::f64, {1e19, -1e19, 9223372036854775807.0}));
    EXPECT_EQ(int64_t(c64[0]), INT64_MAX);
    EXPECT_EQ(int64_t(c64[1]), INT64_MIN);
    EXPECT_EQ(int64_t(c64[2]), INT64_MAX);  // the double is 2^63, out of range
    auto cu = run_cast(DType::f64, DType::u64, F(DType::f64, {1.8e19, 2e19, -1}));
    EXPECT_EQ(cu[0], 18000000000000000000ull);
    EXPECT_EQ(cu[1], UINT64_MAX);
    EXPECT_EQ(cu[2], 0u);
    expect_same(D(DType::i8, run_cast(DType::i32, DType::i8, I(DType::i32, {300, -129, 128}))), {44, 127, -128},
                "i32->i8 wraps");
    expect_same(D(DType::i8, run_cast(DType::u8, DType::i8, I(DType::u8, {200}))), {-56}, "u8->i8");
    expect_same(D(DType::u16, run_cast(DType::i8, DType::u16, I(DType::i8, {-1}))), {65535}, "i8->u16 sign-extends");
    expect_same(D(DType::f32, run_cast(DType::i64, DType::f32, I(DType::i64, {16777217}))), {16777216},
                "i64->f32 nearest");
    expect_same(D(DType::f16, run_cast(DType::f32, DType::f16, F(DType::f32, {65520, 65519, 1.0 / 3}))),
                {inf, 65504, 0.333251953125}, "f32->f16");
    expect_same(D(DType::bf16, run_cast(DType::f32, DType::bf16, F(DType::f32, {1.00390625, 1.01171875}))),
                {1.0, 1.015625}, "f32->bf16 ties to even");
    expect_same(D(DType::f16, run_cast(DType::i32, DType::f16, I(DType::i32, {70000, 2049}))), {inf, 2048}, "i32->f16");
    expect_same(D(DType::bool_, run_cast(DType::f32, DType::bool_, F(DType::f32, {0.1, nan_, -0.0, 0}))), {1, 1, 0, 0},
                "->bool");
    expect_same(D(DType::bool_, run_cast(DType::i64, DType::bool_, I(DType::i64, {256, 0}))), {1, 0}, "i64->bool");
    expect_same(D(DType::f32, run_cast(DType::bool_, DType::f32, I(DType::bool_, {1, 0}))), {1, 0}, "bool->f32");
    expect_same(D(DType::f16, run_cast(DType::bf16, DType::f16, F(DType::bf16, {1e5, 3.140625}))), {inf, 3.140625},
                "bf16->f16");
}

TEST(Interpreter, Bitcast) {
    auto r = run_elementwise({{DType::f32, F(DType::f32, {1.0, -0.0})}},
                             [](Kernel& k, const std::vector<int>& l) { return k.bitcast(l[0], DType::i32); });
    EXPECT_EQ(r[0], 0x3f800000u);
    EXPECT_EQ(uint32_t(r[1]), 0x80000000u);
    auto h = run_elementwise({{DType::i16, {0x3c00, 0x7c00}}},
                             [](Kernel& k, const std::vector<int>& l) { return k.bitcast(l[0], DType::f16); });
    expect_same(D(DType::f16, h), {1.0, inf}, "i16->f16");
    auto back = run_elementwise({{DType::bf16, F(DType::bf16, {-2.0})}},
                                [](Kernel& k, const std::vector<int>& l) { return k.bitcast(l[0], DType::u16); });
    EXPECT_EQ(back[0], 0xc000u);
}

// docs/ir.md §4: a bitcast of a load, constant, scalar or bitcast reinterprets the stored bits
// exactly, NaNs of any sign, payload and quietness included (PyTorch's view(dtype)); a 16-bit
// float is read as its raw 16-bit pattern, not through the f32 carrier (which would quiet an
// sNaN). Only a NaN computed by an op reads as the canonical quiet NaN of its dtype (f64
// 0x7ff8000000000000, f32 0x7fc00000, f16 0x7e00, bf16 0x7fc0): compile-time folding (GCC folds
// 0·inf to 0x7fc00000) and run time (x86 gives 0xffc00000) make different ones.
TEST(Interpreter, BitcastOfStoredBitsIsExact) {
    auto bitcast = [](DType from, DType to, std::vector<uint64_t> bits) {
        return run_elementwise({{from, bits}},
                               [to](Kernel& k, const std::vector<int>& l) { return k.bitcast(l[0], to); });
    };
    // loaded NaNs: negative, payload, signalling — their bits unchanged
    EXPECT_EQ(bitcast(DType::f32, DType::i32, {0xffc00000u, 0x7fc12345u, 0x7f800001u, 0xff812345u, 0xbf800000u}),
              (std::vector<uint64_t>{0xffc00000u, 0x7fc12345u, 0x7f800001u, 0xff812345u, 0xbf800000u}));
    EXPECT_EQ(bitcast(DType::f64, DType::i64, {0xfff8000000000123ull, 0x7ff0000000000001ull}),
              (std::vector<uint64_t>{0xfff8000000000123ull, 0x7ff0000000000001ull}));
    EXPECT_EQ(bitcast(DType::f16, DType::u16, {0x7c01, 0xfe3f, 0x7e00, 0x3c00, 0xfc01}),
              (std::vector<uint64_t>{0x7c01, 0xfe3f, 0x7e00, 0x3c00, 0xfc01}));
    EXPECT_EQ(bitcast(DType::f16, DType::i16, {0xfc01}), (std::vector<uint64_t>{0xfc01}));
    EXPECT_EQ(bitcast(DType::bf16, DType::u16, {0xffc1, 0x7f81}), (std::vector<uint64_t>{0xffc1, 0x7f81}));
    EXPECT_EQ(bitcast(DType::bf16, DType::i16, {0xff81}), (std::vector<uint64_t>{0xff81}));
    // between the 16-bit floats the pattern is kept (0xfe01 is a finite bf16)
    EXPECT_EQ(bitcast(DType::f16, DType::bf16, {0xfe01}), (std::vector<uint64_t>{0xfe01}));

    // integer → float → integer round trips through every float dtype of the same size, every bit
    // pattern kept: ordinary values and patterns that are NaNs of the float dtype
    struct Trip {
        DType i, f;
        std::vector<uint64_t> bits;
    };
    const Trip trips[] = {
        {DType::i32, DType::f32, {0xfffffff9u /* -7 */, 0xffc00001u, 0x7f800001u, 0x7fc12345u, 0xffffffffu, 1u}},
        {DType::u32, DType::f32, {0xffc00001u, 0x7f800000u, 0x00000001u}},
        {DType::i64, DType::f64, {0xfffffffffffffffeull /* -2 */, 0x7ff0000000000001ull, 0xfff8000000000042ull}},
        {DType::u64, DType::f64, {0xffffffffffffffffull, 0x7ff8000000000000ull}},
        {DType::i16, DType::f16, {0xfff9, 0x7c01, 0xfc01, 0x7e3f, 0xfe00, 0x7dff, 0x0001}},
        {DType::u16, DType::f16, {0xffff, 0x7d00}},
        {DType::i16, DType::bf16, {0xfff9, 0x7f81, 0xff81, 0x7fc5, 0xffc0, 0x0001}},
        {DType::u16, DType::bf16, {0xffff, 0x7fbf}},
    };
    for (const Trip& t : trips) {
        auto back = run_elementwise({{t.i, t.bits}}, [&](Kernel& k, const std::vector<int>& l) {
            return k.bitcast(k.bitcast(l[0], t.f), t.i);
        });
        EXPECT_EQ(back, t.bits) << dtype_name(t.i) << " through " << dtype_name(t.f);
        // three reinterpretations in a row (through the other 16-bit float) are still one
        if (dtype_size(t.i) == 2) {
            DType other = t.f == DType::f16 ? DType::bf16 : DType::f16;
            auto three = run_elementwise({{t.i, t.bits}}, [&](Kernel& k, const std::vector<int>& l) {
                return k.bitcast(k.bitcast(k.bitcast(l[0], t.f), other), t.i);
            });
            EXPECT_EQ(three, t.bits) << dtype_name(t.i) << " through " << dtype_name(t.f) << " and "
                                     << dtype_name(other);
        }
    }
    // constants and scalars are given by bits: exact too
    auto konst = run_elementwise({{DType::u16, {0}}}, [](Kernel& k, const std::vector<int>&) {
        return k.bitcast(k.constant_bits(DType::f16, 0xfc01), DType::u16);
    });
    EXPECT_EQ(konst[0], 0xfc01u);
}

TEST(Interpreter, BitcastOfAComputedNaNGivesTheCanonicalQuietNaN) {
    // a NaN computed at run time (0·inf on x86 is 0xffc00000)
    auto prod = run_elementwise(
        {{DType::f32, F(DType::f32, {0, -0.0})}, {DType::f32, F(DType::f32, {inf, inf})}},
        [](Kernel& k, const std::vector<int>& l) { return k.bitcast(k.binary(Op::mul, l[0], l[1]), DType::u32); });
    EXPECT_EQ(prod, (std::vector<uint64_t>{0x7fc00000u, 0x7fc00000u}));
    // a cast is computed: an f16 sNaN cast to f32, a loaded -NaN passed through neg or where
    auto wide = run_elementwise({{DType::f16, {0x7c01}}}, [](Kernel& k, const std::vector<int>& l) {
        return k.bitcast(k.cast(l[0], DType::f32), DType::i32);
    });
    EXPECT_EQ(wide[0], 0x7fc00000u);
    auto neg = run_elementwise({{DType::f64, {0x7ff8000000000123ull}}}, [](Kernel& k, const std::vector<int>& l) {
        return k.bitcast(k.unary(Op::neg, l[0]), DType::u64);
    });
    EXPECT_EQ(neg[0], 0x7ff8000000000000ull);
    for (auto [f, i, want] :
         {std::tuple{DType::f16, DType::i16, uint64_t(0x7e00)}, {DType::bf16, DType::u16, uint64_t(0x7fc0)}}) {
        auto half = run_elementwise(
            {{f, {0xfc01 | (f == DType::bf16 ? 0x0380u : 0u)}}},
            [&](Kernel& k, const std::vector<int>& l) { return k.bitcast(k.binary(Op::add, l[0], l[0]), i); });
        EXPECT_EQ(half[0], want) << dtype_name(f);
        // a chain of bitcasts starting at a computed value canonicalises once, at its root
        auto chain = run_elementwise({{f, {0xfc01 | (f == DType::bf16 ? 0x0380u : 0u)}}},
                                     [&](Kernel& k, const std::vector<int>& l) {
                                         return k.bitcast(k.bitcast(k.bitcast(k.binary(Op::add, l[0], l[0]), i), f), i);
                                     });
        EXPECT_EQ(chain[0], want) << dtype_name(f) << " chain";
    }
    // an integer computed value keeps its bits through a float dtype
    auto isum = run_elementwise({{DType::i32, {0xfffffff8u}}}, [](Kernel& k, const std::vector<int>& l) {
        return k.bitcast(k.bitcast(k.binary(Op::add, l[0], k.constant(DType::i32, 1.0)), DType::f32), DType::i32);
    });
    EXPECT_EQ(isum[0], 0xfffffff9u);
    // integer bits → f16 sNaN → stored as f16: some NaN (a store's NaN bits are unspecified)
    auto stored = run_elementwise({{DType::u16, {0x7c01, 0xfc01}}},
                                  [](Kernel& k, const std::vector<int>& l) { return k.bitcast(l[0], DType::f16); });
    EXPECT_TRUE(std::isnan(double_from_bits(DType::f16, stored[0]))) << std::hex << stored[0];
    EXPECT_TRUE(std::isnan(double_from_bits(DType::f16, stored[1]))) << std::hex << stored[1];
}

namespace {
// out[i] = reduce over j of x[i, j], x given as a rows×cols matrix of bits.
std::vector<uint64_t> run_reduce(Op op, DType t, int64_t rows, int64_t cols, const std::vector<uint64_t>& x) {
    Kernel k;
    k.shape = {rows, cols};
    k.reduce_axes = 1;
    int in = k.add_input(t, View::contiguous({rows, cols}));
    int r = k.reduce(op, k.load(in));
    k.add_output(t, View::contiguous({rows}), r);
    auto xb = pack(t, x);
    std::vector<uint8_t> out(size_t(rows) * dtype_size(t) + 1);
    std::vector<BufferRef> refs{{xb.data(), xb.size()}, {out.data(), out.size()}};
    interpret(k, refs, {});
    return unpack(t, out, size_t(rows));
}
}  // namespace

TEST(Interpreter, ReduceIdentitiesOnEmptyAxes) {
    expect_same(D(DType::f32, run_reduce(Op::reduce_sum, DType::f32, 2, 0, {})), {0, 0}, "sum");
    expect_same(D(DType::f32, run_reduce(Op::reduce_prod, DType::f32, 1, 0, {})), {1}, "prod");
    expect_same(D(DType::f16, run_reduce(Op::reduce_max, DType::f16, 1, 0, {})), {-inf}, "max f16");
    expect_same(D(DType::f64, run_reduce(Op::reduce_min, DType::f64, 1, 0, {})), {inf}, "min f64");
    expect_same(D(DType::i32, run_reduce(Op::reduce_max, DType::i32, 1, 0, {})), {double(INT32_MIN)}, "max i32");
    expect_same(D(DType::u8, run_reduce(Op::reduce_min, DType::u8, 1, 0, {})), {255}, "min u8");
    expect_same(D(DType::bool_, run_reduce(Op::reduce_max, DType::bool_, 1, 0, {})), {0}, "max bool");
    expect_same(D(DType::bool_, run_reduce(Op::reduce_min, DType::bool_, 1, 0, {})), {1}, "min bool");
}

TEST(Interpreter, ReduceValues) {
    expect_same(D(DType::f32, run_reduce(Op::reduce_sum, DType::f32, 2, 3, F(DType::f32, {1, 2, 3, 4, 5, 6}))), {6, 15},
                "sum");
    expect_same(D(DType::i8, run_reduce(Op::reduce_sum, DType::i8, 1, 2, I(DType::i8, {100, 100}))), {-56},
                "i8 sum wraps");
    expect_same(D(DType::i32, run_reduce(Op::reduce_prod, DType::i32, 1, 3, I(DType::i32, {-2, 3, 4}))), {-24}, "prod");
    expect_same(D(DType::f32, run_reduce(Op::reduce_max, DType::f32, 2, 3, F(DType::f32, {1, nan_, 3, -1, -5, -2}))),
                {nan_, -1}, "max NaN");
    expect_same(D(DType::f32, run_reduce(Op::reduce_min, DType::f32, 1, 3, F(DType::f32, {2, 3, nan_}))), {nan_},
                "min NaN");
    // f16 accumulates in f32: 4096 ones sum to 4096 (an f16 accumulator would stop at 2048).
    std::vector<uint64_t> ones(4096, bits_from_double(DType::f16, 1.0));
    expect_same(D(DType::f16, run_reduce(Op::reduce_sum, DType::f16, 1, 4096, ones)), {4096}, "f16 sum in f32");
    std::vector<uint64_t> bones(4096, bits_from_double(DType::bf16, 1.0));
    expect_same(D(DType::bf16, run_reduce(Op::reduce_sum, DType::bf16, 1, 4096, bones)), {4096}, "bf16 sum in f32");
    expect_same(D(DType::bool_, run_reduce(Op::reduce_max, DType::bool_, 2, 2, I(DType::bool_, {0, 1, 0, 0}))), {1, 0},
                "any");
}

// A reduce of a level-0 operand (constant, scalar, level-0 load) folds it once per reduced
// index, over every reduce axis: out[i] = sum over [5,13] of -6 = -390 ≡ 0x7a in i8 (the host
// backend once summed 13 elements only; random-kernel seed 2, kernel 54).
TEST(Interpreter, ReduceOfLevel0OperandCoversEveryReduceAxis) {
    for (int kind = 0; kind < 3; ++kind) {
        Kernel k;
        k.shape = {2, 5, 13};
        k.reduce_axes = 2;
        std::vector<std::vector<uint8_t>> store;
        std::vector<uint64_t> scalars;
        int x;
        if (kind == 0) {
            x = k.constant_int(DType::i8, -6);
        } else if (kind == 1) {
            x = k.scalar(k.add_scalar(DType::i8));
            scalars.push_back(bits_from_int(DType::i8, -6));
        } else {
            x = k.load(k.add_input(DType::i8, View::contiguous({2})));
            store.push_back(pack(DType::i8, I(DType::i8, {-6, -6})));
        }
        int sum = k.reduce(Op::reduce_sum, x);
        int prod = k.reduce(Op::reduce_prod, k.binary(Op::add, k.cast(x, DType::i32), k.constant_int(DType::i32, 9)));
        k.add_output(DType::i8, View::contiguous({2}), sum);
        k.add_output(DType::i32, View::contiguous({2}), prod);
        store.push_back(std::vector<uint8_t>(3, 0));
        store.push_back(std::vector<uint8_t>(9, 0));
        std::vector<BufferRef> refs;
        for (auto& s : store) refs.push_back({s.data(), s.size()});
        interpret(k, refs, scalars);
        size_t o = store.size() - 2;
        EXPECT_EQ(unpack(DType::i8, store[o], 2), (std::vector<uint64_t>{0x7a, 0x7a})) << "kind " << kind;
        // product of 65 threes: 3^65 mod 2^32
        EXPECT_EQ(unpack(DType::i32, store[o + 1], 2), (std::vector<uint64_t>{0x6c7c3703, 0x6c7c3703}))
            << "kind " << kind;
    }
}

TEST(Interpreter, MatmulWithEpilogue) {
    // A = [[1,2,3],[4,5,6]] (2×3), B = [[1,-1],[0,2],[-1,0]] (3×2); A@B = [[-2,3],[-2,6]]; relu.
    int64_t M = 2, K = 3, N = 2;
    Kernel k;
    k.shape = {M, N, K};
    k.reduce_axes = 1;
    int a = k.add_input(DType::f32, View::contiguous({M, K}).reshape({M, 1, K}).expand({M, N, K}));
    int b = k.add_input(DType::f32, View::contiguous({K, N}).permute({1, 0}).reshape({1, N, K}).expand({M, N, K}));
    int sum = k.reduce(Op::reduce_sum, k.binary(Op::mul, k.load(a), k.load(b)));
    k.add_output(DType::f32, View::contiguous({M, N}), k.unary(Op::relu, sum));
    ASSERT_EQ(k.inputs[1].view.layers.size(), 1u) << "reshape of a permuted view that only adds a unit axis is free";
    auto ab = pack(DType::f32, F(DType::f32, {1, 2, 3, 4, 5, 6}));
    auto bb = pack(DType::f32, F(DType::f32, {1, -1, 0, 2, -1, 0}));
    std::vector<uint8_t> out(16);
    std::vector<BufferRef> refs{{ab.data(), ab.size()}, {bb.data(), bb.size()}, {out.data(), out.size()}};
    interpret(k, refs, {});
    expect_same(D(DType::f32, unpack(DType::f32, out, 4)), {0, 3, 0, 6}, "relu(A@B)");
}

TEST(Interpreter, SoftmaxShapedKernelMixesLevels) {
    // out[i,j] = exp(x[i,j] - m[i]) / sum_k exp(x[i,k] - m[i]) with m passed in (level-0 load
    // inside the reduce, level-1 loads of the same buffer through a second view).
    Kernel k;
    k.shape = {2, 2, 2};
    k.reduce_axes = 1;
    View x = View::contiguous({2, 2});
    int xr = k.add_input(DType::f32, x.reshape({2, 1, 2}).expand({2, 2, 2}));  // x[i,k]
    int xo = k.add_input(DType::f32, x);                                       // x[i,j]
    int m = k.add_input(DType::f32, View::contiguous({2}).reshape({2, 1}).expand({2, 2}));
    int den = k.reduce(Op::reduce_sum, k.unary(Op::exp, k.binary(Op::sub, k.load(xr), k.load(m))));
    int num = k.unary(Op::exp, k.binary(Op::sub, k.load(xo), k.load(m)));
    k.add_output(DType::f32, View::contiguous({2, 2}), k.binary(Op::div, num, den));
    auto xb = pack(DType::f32, F(DType::f32, {0, 0, 1, 3}));
    auto mb = pack(DType::f32, F(DType::f32, {0, 3}));
    std::vector<uint8_t> out(16);
    std::vector<BufferRef> refs{
        {xb.data(), xb.size()}, {xb.data(), xb.size()}, {mb.data(), mb.size()}, {out.data(), out.size()}};
    interpret(k, refs, {});
    double e = std::exp(-2.0);
    expect_near(D(DType::f32, unpack(DType::f32, out, 4)), {0.5, 0.5, e / (1 + e), 1 / (1 + e)}, 1e-6, "softmax");
}

TEST(Interpreter, IndexScalarAndPadValue) {
    // out[i, j] = (i*10 + j) * s + x_padded[i, j], x = [1,2] padded to 2×3 with 7.
    Kernel k;
    k.shape = {2, 3};
    int s = k.add_scalar(DType::i32);
    int x = k.add_input(DType::i32, View::contiguous({2}).reshape({1, 2}).pad({0, 1}, {1, 0}),
                        bits_from_int(DType::i32, 7));
    int idx = k.binary(Op::add, k.binary(Op::mul, k.index(0, DType::i32), k.constant_int(DType::i32, 10)),
                       k.index(1, DType::i32));
    k.add_output(DType::i32, View::contiguous({2, 3}),
                 k.binary(Op::add, k.binary(Op::mul, idx, k.scalar(s)), k.load(x)));
    auto xb = pack(DType::i32, I(DType::i32, {1, 2}));
    std::vector<uint8_t> out(24);
    std::vector<BufferRef> refs{{xb.data(), xb.size()}, {out.data(), out.size()}};
    uint64_t sv = bits_from_int(DType::i32, 2);
    interpret(k, refs, std::span<const uint64_t>(&sv, 1));
    expect_same(D(DType::i32, unpack(DType::i32, out, 6)), {7, 3, 6, 27, 29, 31}, "index/scalar/pad");
}

TEST(Interpreter, RejectsBadArguments) {
    Kernel k;
    k.shape = {4};
    int x = k.add_input(DType::f32, View::contiguous({4}));
    k.add_output(DType::f32, View::contiguous({4}), k.load(x));
    std::vector<uint8_t> small(8), out(16);
    std::vector<BufferRef> refs{{small.data(), small.size()}, {out.data(), out.size()}};
    try {
        interpret(k, refs, {});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
        EXPECT_NE(e.message().find("input 0"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("16 bytes"), std::string::npos) << e.message();
    }
    std::vector<BufferRef> one{{out.data(), out.size()}};
    EXPECT_THROW(interpret(k, one, {}), Error);
    // The kernel still runs with good arguments after an error.
    std::vector<uint8_t> in = pack(DType::f32, F(DType::f32, {1, 2, 3, 4}));
    std::vector<BufferRef> good{{in.data(), in.size()}, {out.data(), out.size()}};
    interpret(k, good, {});
    expect_same(D(DType::f32, unpack(DType::f32, out, 4)), {1, 2, 3, 4}, "copy");
}

// The integer rules in every integer dtype, with expected bits derived from the dtype's width.
TEST(Interpreter, IntegerRulesInEveryIntegerDtype) {
    for (DType t : {DType::i8, DType::i16, DType::i32, DType::i64, DType::u8, DType::u16, DType::u32, DType::u64}) {
        SCOPED_TRACE(std::string(dtype_name(t)));
        unsigned bits = unsigned(8 * dtype_size(t));
        uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;  // every bit of the width
        bool sign = dtype_is_signed_int(t);
        uint64_t max = sign ? all >> 1 : all, min = sign ? (all >> 1) + 1 : 0, one = 1, zero = 0;
        uint64_t minus_one = all, two = 2, seven = 7;
        auto bin = [&](Op op, uint64_t a, uint64_t b) { return run_binary(op, t, {a}, {b})[0]; };
        auto un = [&](Op op, uint64_t a) { return run_unary(op, t, {a})[0]; };
        EXPECT_EQ(bin(Op::add, max, one), min) << "max + 1 wraps to min";
        EXPECT_EQ(bin(Op::sub, min, one), max) << "min - 1 wraps to max";
        EXPECT_EQ(bin(Op::mul, max, two), all - 1) << "max * 2 keeps the low bits";
        EXPECT_EQ(bin(Op::div, seven, zero), zero) << "x / 0 = 0";
        EXPECT_EQ(bin(Op::mod, seven, zero), zero) << "x % 0 = 0";
        EXPECT_EQ(bin(Op::div, seven, two), 3u);
        EXPECT_EQ(bin(Op::mod, seven, two), 1u);
        EXPECT_EQ(bin(Op::shl, one, uint64_t(bits)), zero) << "shift by the width";
        EXPECT_EQ(bin(Op::shl, one, uint64_t(bits - 1)), uint64_t(1) << (bits - 1));
        EXPECT_EQ(bin(Op::shr, all, uint64_t(bits)), sign ? all : zero) << "shr by the width";
        EXPECT_EQ(bin(Op::shr, all, one), sign ? all : all >> 1) << "arithmetic only when signed";
        EXPECT_EQ(bin(Op::pow, two, uint64_t(bits)), zero) << "2^width wraps to 0";
        EXPECT_EQ(bin(Op::max, min, max), max);
        EXPECT_EQ(bin(Op::min, min, max), min);
        EXPECT_EQ(un(Op::neg, one), all) << "-1";
        EXPECT_EQ(un(Op::bit_not, zero), all);
        EXPECT_EQ(un(Op::abs, min), min) << "abs(min) = min (0 for unsigned)";
        if (sign) {
            EXPECT_EQ(bin(Op::div, min, minus_one), min) << "min / -1 = min";
            EXPECT_EQ(bin(Op::mod, min, minus_one), zero) << "min % -1 = 0";
            EXPECT_EQ(un(Op::neg, min), min);
            EXPECT_EQ(bin(Op::shl, one, minus_one), zero) << "negative shift";
        }
        // Casts into t from f64: truncation, saturation, NaN → 0.
        auto from_f64 = [&](double v) { return run_cast(DType::f64, t, {bits_from_double(DType::f64, v)})[0]; };
        EXPECT_EQ(from_f64(1e30), max);
        EXPECT_EQ(from_f64(-1e30), min);
        EXPECT_EQ(from_f64(nan_), zero);
        EXPECT_EQ(from_f64(7.9), seven);
        EXPECT_EQ(from_f64(-7.9), sign ? (all - 6) : zero);
        // From i64 -1: all bits set (wrap), and to bool: true.
        EXPECT_EQ(run_cast(DType::i64, t, {~uint64_t(0)})[0], all);
        EXPECT_EQ(run_cast(t, DType::bool_, {min == 0 ? max : min})[0], 1u);
    }
}
