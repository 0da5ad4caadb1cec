// The reference interpreter against a table of hand-computed values that covers every
// (op, dtype) pair op_accepts allows, every (from, to) cast pair and every bitcast pair.
//
// Each row names an op, the operand dtypes it is run on (one kernel per dtype, and per target
// dtype for cast/bitcast), the operand values and the expected results, all written here. A value
// is a number, encoded exactly into the dtype (a number the dtype cannot hold exactly fails the
// row, so no expected value is silently rounded), or raw bits B(…), masked to the dtype's width
// (B(~0ull) is "all ones": -1 or the largest unsigned value). Expected floats must match bit for
// bit (so -0.0 ≠ 0), except that an expected NaN number accepts any NaN (docs/ir.md §4: NaN sign
// and payload are unspecified; a B(…) NaN is exact, as a bitcast's canonical NaN is).
//
// EveryOpAndDtypePairHasARow enumerates the pairs from op_accepts: a new op, or a dtype an op
// newly accepts, fails it until the table has a hand-checked row for it.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>

#include "kernel_test_util.hpp"

using namespace zyx;
using namespace zyx::kernel;

namespace {

constexpr DType f64 = DType::f64, f32 = DType::f32, f16 = DType::f16, bf16 = DType::bf16;
constexpr DType i8 = DType::i8, i16 = DType::i16, i32 = DType::i32, i64 = DType::i64;
constexpr DType u8 = DType::u8, u16 = DType::u16, u32 = DType::u32, u64 = DType::u64;
constexpr DType b8 = DType::bool_;
using Types = std::vector<DType>;
const Types kFloats = {f64, f32, f16, bf16};
const Types kSigned = {i8, i16, i32, i64};
const Types kUnsigned = {u8, u16, u32, u64};
const Types kInts = {i8, i16, i32, i64, u8, u16, u32, u64};
const Types kNumeric = {f64, f32, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64};
const Types kAll = {f64, f32, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64, b8};
const Types kIntsBool = {i8, i16, i32, i64, u8, u16, u32, u64, b8};

const double nan_ = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

// A table value: a number (exact in the dtype) or raw bits.
struct V {
    bool raw = false;
    double d = 0;
    uint64_t bits = 0;
    V(double x) : d(x) {}  // NOLINT: numbers are written plainly in the table
};
V B(uint64_t bits) {
    V v(0);
    v.raw = true;
    v.bits = bits;
    return v;
}
using Vs = std::vector<V>;

struct Row {
    Op op;
    Types types;           // operand dtype (cast/bitcast: source); where: the branches' dtype
    Types to;              // cast/bitcast: target dtypes; otherwise empty
    std::vector<Vs> args;  // operands; load: {values, {pad}}; constant/scalar: {{value}}; where: cond, x, y
    Vs want;               // in the result dtype; reduces: one value per row
    int64_t cols = -1;     // reduces: the operand is want.size() rows × cols
};

uint64_t width_mask(DType t) {
    size_t n = dtype_size(t);
    return n == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * n)) - 1;
}

// Exact bits of v in dtype t; false when t cannot hold the number exactly.
bool encode(DType t, const V& v, uint64_t* out) {
    if (v.raw) {
        *out = v.bits & width_mask(t);
        return true;
    }
    double d = v.d;
    bool nan = std::isnan(d);
    if (dtype_is_float(t)) {
        if (t == f64) {
            *out = std::bit_cast<uint64_t>(d);
            return true;
        }
        float f = float(d);
        if (!nan && double(f) != d) return false;
        if (t == f32) {
            *out = std::bit_cast<uint32_t>(f);
            return true;
        }
        uint16_t h = t == f16 ? f32_to_f16(f) : f32_to_bf16(f);
        float back = t == f16 ? f16_to_f32(h) : bf16_to_f32(h);
        if (!nan && (back != f || std::signbit(back) != std::signbit(f))) return false;
        *out = h;
        return true;
    }
    if (nan || d != std::trunc(d)) return false;
    if (t == b8) {
        if (d != 0 && d != 1) return false;
        *out = uint64_t(d);
        return true;
    }
    int bits = int(8 * dtype_size(t));
    if (dtype_is_signed_int(t)) {
        double lim = std::ldexp(1.0, bits - 1);
        if (d < -lim || d >= lim) return false;
        *out = uint64_t(int64_t(d)) & width_mask(t);
    } else {
        if (d < 0 || d >= std::ldexp(1.0, bits)) return false;
        *out = uint64_t(d);
    }
    return true;
}

bool is_nan_bits(DType t, uint64_t b) {
    switch (t) {
        case DType::f64: return std::isnan(std::bit_cast<double>(b));
        case DType::f32: return std::isnan(std::bit_cast<float>(uint32_t(b)));
        case DType::f16: return (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
        case DType::bf16: return (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0;
        default: return false;
    }
}

DType result_dtype(const Row& r, DType t, DType to) {
    if (r.op == Op::cast || r.op == Op::bitcast) return to;
    if (op_gives_bool(r.op)) return b8;
    return t;
}

std::string value_string(const V& v) {
    std::ostringstream os;
    if (v.raw)
        os << "B(0x" << std::hex << v.bits << ")";
    else
        os << v.d;
    return os.str();
}

// Runs row r on operand dtype t (target `to` for conversions) through the interpreter; "" when
// every output element is as written in the row, else what went wrong.
std::string run_row(const Row& r, DType t, DType to = b8) {
    std::ostringstream who;
    who << op_name(r.op) << " on " << dtype_name(t);
    if (r.op == Op::cast || r.op == Op::bitcast) who << " to " << dtype_name(to);
    DType rt = result_dtype(r, t, to);
    const int64_t n = int64_t(r.want.size());
    auto enc = [&](DType dt, const V& v, std::string* err) {
        uint64_t b = 0;
        if (!encode(dt, v, &b) && err->empty())
            *err = value_string(v) + " is not exact in " + std::string(dtype_name(dt));
        return b;
    };
    std::string err;
    auto column = [&](DType dt, const Vs& vs) {
        std::vector<uint64_t> bits;
        for (const V& v : vs) bits.push_back(enc(dt, v, &err));
        return bits;
    };
    Kernel k;
    std::vector<std::vector<uint8_t>> store;
    std::vector<uint64_t> scalars;
    int node = -1;
    auto input = [&](DType dt, const Vs& vs, const View& view, uint64_t pad = 0) {
        store.push_back(test::pack(dt, column(dt, vs)));
        return k.load(k.add_input(dt, view, pad));
    };
    size_t want_args = r.op == Op::load ? 2 : op_arity(r.op);
    if (r.op == Op::constant || r.op == Op::scalar) want_args = 1;
    if (r.args.size() != want_args) return who.str() + ": the row has " + std::to_string(r.args.size()) + " operands";
    for (size_t a = 0; a < r.args.size(); ++a) {
        size_t expect = r.op == Op::load                 ? (a == 0 ? size_t(n) - 1 : 1)
            : r.op == Op::constant || r.op == Op::scalar ? 1
            : op_is_reduce(r.op)                         ? size_t(n * std::max<int64_t>(r.cols, 0))
                                                         : size_t(n);
        if (r.args[a].size() != expect) return who.str() + ": operand " + std::to_string(a) + " has the wrong length";
    }
    if (op_is_reduce(r.op)) {
        k.shape = {n, r.cols};
        k.reduce_axes = 1;
        node = k.reduce(r.op, input(t, r.args[0], View::contiguous({n, r.cols})));
    } else {
        k.shape = {n};
        View v = View::contiguous({n});
        switch (r.op) {
            case Op::load:
                node = input(t, r.args[0], View::contiguous({n - 1}).pad({0}, {1}), enc(t, r.args[1][0], &err));
                break;
            case Op::constant: node = k.constant_bits(t, enc(t, r.args[0][0], &err)); break;
            case Op::scalar:
                node = k.scalar(k.add_scalar(t));
                scalars.push_back(enc(t, r.args[0][0], &err));
                break;
            case Op::index: node = k.index(0, t); break;
            case Op::where: {
                int c = input(b8, r.args[0], v);
                int x = input(t, r.args[1], v);
                node = k.where(c, x, input(t, r.args[2], v));
                break;
            }
            case Op::cast: node = k.cast(input(t, r.args[0], v), to); break;
            case Op::bitcast: node = k.bitcast(input(t, r.args[0], v), to); break;
            default:
                if (op_arity(r.op) == 1)
                    node = k.unary(r.op, input(t, r.args[0], v));
                else
                    node = k.binary(r.op, input(t, r.args[0], v), input(t, r.args[1], v));
        }
    }
    if (!err.empty()) return who.str() + ": " + err;
    k.add_output(rt, View::contiguous({n}), node);
    store.push_back(std::vector<uint8_t>(size_t(n) * dtype_size(rt) + 1, 0xa5));
    std::vector<BufferRef> refs;
    for (auto& s : store) refs.push_back({s.data(), s.size()});
    try {
        interpret(k, refs, scalars);
    } catch (const std::exception& e) { return who.str() + ": " + e.what(); }
    std::vector<uint64_t> got = test::unpack(rt, store.back(), size_t(n));
    for (int64_t i = 0; i < n; ++i) {
        const V& w = r.want[size_t(i)];
        uint64_t wb = enc(rt, w, &err);
        if (!err.empty()) return who.str() + ": expected " + err;
        bool ok =
            (!w.raw && dtype_is_float(rt) && std::isnan(w.d)) ? is_nan_bits(rt, got[size_t(i)]) : got[size_t(i)] == wb;
        if (!ok) {
            std::ostringstream os;
            os << who.str() << " element " << i << ": want " << value_string(w) << " (bits 0x" << std::hex << wb
               << "), got bits 0x" << got[size_t(i)];
            return os.str();
        }
    }
    return "";
}

// ---- the table --------------------------------------------------------------------------------

const Row kTable[] = {
    // ---- leaves: load (the last element is the padding value), constant, scalar, index ----------
    {Op::load, kNumeric, {}, {{3, 0, 100}, {7}}, {3, 0, 100, 7}},
    {Op::load, kFloats, {}, {{-0.0, inf, -1.5}, {-inf}}, {-0.0, inf, -1.5, -inf}},
    {Op::load, kSigned, {}, {{-1, -128, 127}, {-7}}, {-1, -128, 127, -7}},
    {Op::load, kUnsigned, {}, {{B(~0ull), 255}, {B(~0ull)}}, {B(~0ull), 255, B(~0ull)}},
    {Op::load, {b8}, {}, {{1, 0, B(2)}, {B(2)}}, {1, 0, 1, 1}},  // any non-zero byte is true, stored as 1
    {Op::constant, kNumeric, {}, {{100}}, {100, 100}},
    {Op::constant, kFloats, {}, {{-0.0}}, {-0.0, -0.0}},
    {Op::constant, {f16}, {}, {{B(0x0001)}}, {B(0x0001), B(0x0001)}},  // the smallest subnormal
    {Op::constant, kSigned, {}, {{-100}}, {-100, -100}},
    {Op::constant, kUnsigned, {}, {{B(~0ull)}}, {B(~0ull), B(~0ull)}},
    {Op::constant, {b8}, {}, {{1}}, {1, 1}},
    {Op::constant, {b8}, {}, {{B(2)}}, {1, 1}},
    {Op::scalar, kNumeric, {}, {{5}}, {5, 5}},
    {Op::scalar, kFloats, {}, {{-inf}}, {-inf, -inf}},
    {Op::scalar, kSigned, {}, {{-128}}, {-128, -128}},
    {Op::scalar, kUnsigned, {}, {{B(~0ull)}}, {B(~0ull), B(~0ull)}},
    {Op::scalar, {b8}, {}, {{B(0x80)}}, {1, 1}},
    {Op::index, kInts, {}, {}, {0, 1, 2, 3}},

    // ---- float-only unary ops ----------------------------------------------------------------
    {Op::exp, kFloats, {}, {{0, -inf, inf, nan_}}, {1, 0, inf, nan_}},
    {Op::exp2, kFloats, {}, {{3, -1, -inf, 0}}, {8, 0.5, 0, 1}},
    {Op::log, kFloats, {}, {{1, 0, -1, inf, -0.0}}, {0, -inf, nan_, inf, -inf}},
    {Op::log2, kFloats, {}, {{8, 0.25, 1, 0}}, {3, -2, 0, -inf}},
    {Op::sqrt, kFloats, {}, {{4, -1, 0.25, -0.0, inf}}, {2, nan_, 0.5, -0.0, inf}},
    {Op::rsqrt, kFloats, {}, {{4, 0, -0.0, 0.25, inf}}, {0.5, inf, -inf, 2, 0}},
    {Op::recip, kFloats, {}, {{4, 0, -0.0, inf, -0.5}}, {0.25, inf, -inf, 0, -2}},
    {Op::sin, kFloats, {}, {{0, -0.0, inf, nan_}}, {0, -0.0, nan_, nan_}},
    {Op::cos, kFloats, {}, {{0, -0.0, inf}}, {1, 1, nan_}},
    {Op::tanh, kFloats, {}, {{0, -0.0, inf, -inf, nan_}}, {0, -0.0, 1, -1, nan_}},
    {Op::sigmoid, kFloats, {}, {{0, inf, -inf}}, {0.5, 1, 0}},
    {Op::erf, kFloats, {}, {{0, -0.0, inf, -inf, nan_, 6, -6}}, {0, -0.0, 1, -1, nan_, 1, -1}},  // 1 - erf(6) < 3e-17
    // erf to 19 digits (mpmath at 200 bits; A&S table 7.1 to 10): erf(0.25) = 0.2763263901682369330,
    // erf(0.5) = 0.5204998778130465377, erf(0.75) = 0.7111556336535151316, erf(1) = 0.8427007929497148693,
    // erf(1.5) = 0.9661051464753107271, erf(2) = 0.9953222650189527342, erf(3) = 0.9999779095030014146;
    // each rounded to nearest in the row's dtype, each at least 0.17 ulp from a rounding midpoint.
    {Op::erf,
     {f64},
     {},
     {{0.5, 1, -1.5, 2}},
     {0.5204998778130465, 0.8427007929497149, -0.9661051464753108, 0.9953222650189527}},
    {Op::erf,
     {f32},
     {},
     {{0.5, 1, -1.5, -0.25}},
     {0.5204998850822449, 0.8427007794380188, -0.9661051630973816, -0.27632638812065125}},
    {Op::erf, {f16}, {}, {{0.5, 1, -0.25, 3}}, {0.5205078125, 0.8427734375, -0.2763671875, 1}},
    {Op::erf, {bf16}, {}, {{0.5, -1.5, 2, 0.75}}, {0.51953125, -0.96484375, 0.99609375, 0.7109375}},

    // ---- numeric unary ops ---------------------------------------------------------------------
    {Op::neg, kFloats, {}, {{1.5, -0.0, 0, inf, nan_}}, {-1.5, 0, -0.0, -inf, nan_}},
    {Op::neg, kSigned, {}, {{5, -7, 0, 127}}, {-5, 7, 0, -127}},
    {Op::neg, {i8}, {}, {{-128}}, {-128}},  // -MIN = MIN
    {Op::neg, {i16}, {}, {{-32768}}, {-32768}},
    {Op::neg, {i32}, {}, {{-2147483648.0}}, {-2147483648.0}},
    {Op::neg, {i64}, {}, {{B(0x8000000000000000ull)}}, {B(0x8000000000000000ull)}},
    {Op::neg, {u8}, {}, {{1, 0, 200}}, {255, 0, 56}},
    {Op::neg, {u16}, {}, {{1, 0}}, {65535, 0}},
    {Op::neg, {u32}, {}, {{1}}, {4294967295.0}},
    {Op::neg, {u64}, {}, {{1}}, {B(~0ull)}},
    {Op::relu, kFloats, {}, {{-2, 3, nan_, -0.0, -inf}}, {0, 3, nan_, -0.0, 0}},
    {Op::relu, kSigned, {}, {{-9, 4, 0, -128}}, {0, 4, 0, 0}},
    {Op::relu, kUnsigned, {}, {{200, 0, B(~0ull)}}, {200, 0, B(~0ull)}},  // identity, high bit too
    {Op::abs, kFloats, {}, {{-2, -0.0, -inf, nan_, 3}}, {2, 0, inf, nan_, 3}},
    {Op::abs, kSigned, {}, {{-7, 7, 0}}, {7, 7, 0}},
    {Op::abs, {i8}, {}, {{-128}}, {-128}},  // abs(MIN) = MIN
    {Op::abs, {i16}, {}, {{-32768}}, {-32768}},
    {Op::abs, {i32}, {}, {{-2147483648.0}}, {-2147483648.0}},
    {Op::abs, {i64}, {}, {{B(0x8000000000000000ull)}}, {B(0x8000000000000000ull)}},
    {Op::abs, kUnsigned, {}, {{200, 0, B(~0ull)}}, {200, 0, B(~0ull)}},
    {Op::floor, kFloats, {}, {{-1.5, 1.5, -0.0, -0.5, inf}}, {-2, 1, -0.0, -1, inf}},
    {Op::floor, kInts, {}, {{7, 0, 100, B(~0ull)}}, {7, 0, 100, B(~0ull)}},  // identity
    {Op::ceil, kFloats, {}, {{-1.5, 1.5, -0.5, 0.25, -inf}}, {-1, 2, -0.0, 1, -inf}},
    {Op::ceil, kInts, {}, {{7, 0, 100, B(~0ull)}}, {7, 0, 100, B(~0ull)}},
    {Op::round, kFloats, {}, {{2.5, 3.5, -2.5, 0.375, -0.375, 1.5}}, {2, 4, -2, 0, -0.0, 2}},  // half to even
    {Op::round, kInts, {}, {{7, 0, 100, B(~0ull)}}, {7, 0, 100, B(~0ull)}},
    {Op::sign, kFloats, {}, {{-3, 5, 0, -0.0, nan_, -inf}}, {-1, 1, 0, -0.0, nan_, -1}},
    {Op::sign, kSigned, {}, {{-9, 0, 4, B(~0ull)}}, {-1, 0, 1, -1}},
    {Op::sign, {i64}, {}, {{B(0x8000000000000000ull)}}, {-1}},
    {Op::sign, kUnsigned, {}, {{0, 200, B(~0ull)}}, {0, 1, 1}},  // the high bit is not a sign
    {Op::logical_not, kFloats, {}, {{0, -0.0, 2, nan_, -inf}}, {1, 1, 0, 0, 0}},
    {Op::logical_not, kInts, {}, {{0, 5, B(~0ull)}}, {1, 0, 0}},
    {Op::logical_not, {i16, i32, i64, u16, u32, u64}, {}, {{256}}, {0}},  // only 0 is false (low byte 0)
    {Op::logical_not, {b8}, {}, {{0, 1, B(2)}}, {1, 0, 0}},
    {Op::bit_not, kSigned, {}, {{0, -1, 5}}, {-1, 0, -6}},
    {Op::bit_not, kUnsigned, {}, {{0, B(~0ull)}}, {B(~0ull), 0}},
    {Op::bit_not, {u8}, {}, {{0xf0}}, {0x0f}},
    {Op::bit_not, {b8}, {}, {{0, 1, B(2)}}, {1, 0, 0}},

    // ---- arithmetic ----------------------------------------------------------------------------
    {Op::add, kFloats, {}, {{1, inf, inf, -0.0, 1.5}, {2, -inf, 1, 0, 0.25}}, {3, nan_, inf, 0, 1.75}},
    {Op::add, kInts, {}, {{1, 100}, {2, 27}}, {3, 127}},
    {Op::add, kSigned, {}, {{-5, 100}, {3, -101}}, {-2, -1}},
    {Op::add, {i8}, {}, {{127, -128}, {1, -1}}, {-128, 127}},  // wraps
    {Op::add, {i16}, {}, {{32767}, {1}}, {-32768}},
    {Op::add, {i32}, {}, {{2147483647}, {1}}, {-2147483648.0}},
    {Op::add, {i64}, {}, {{B(0x7fffffffffffffffull)}, {1}}, {B(0x8000000000000000ull)}},
    {Op::add, kUnsigned, {}, {{B(~0ull)}, {1}}, {0}},
    {Op::sub, kFloats, {}, {{1, 0, inf, 0}, {3, 0, inf, -0.0}}, {-2, 0, nan_, 0}},
    {Op::sub, kInts, {}, {{5, 100}, {3, 100}}, {2, 0}},
    {Op::sub, kSigned, {}, {{-100}, {28}}, {-128}},
    {Op::sub, kUnsigned, {}, {{0}, {1}}, {B(~0ull)}},  // wraps to the largest value
    {Op::sub, {i8}, {}, {{-128}, {1}}, {127}},         // wraps
    {Op::sub, {i64}, {}, {{B(0x8000000000000000ull)}, {1}}, {B(0x7fffffffffffffffull)}},
    {Op::mul, kFloats, {}, {{1.5, 0, -2, -0.0}, {2, inf, 0, -3}}, {3, nan_, -0.0, 0}},
    {Op::mul, kInts, {}, {{3, 0, 11}, {5, 7, 11}}, {15, 0, 121}},
    {Op::mul, kSigned, {}, {{-3}, {5}}, {-15}},
    {Op::mul, {i8}, {}, {{16}, {8}}, {-128}},
    {Op::mul, {u8}, {}, {{16}, {17}}, {16}},  // 272 mod 256
    {Op::mul, {i16}, {}, {{300, -300}, {300, 300}}, {24464, -24464}},
    {Op::mul, {u16}, {}, {{256}, {256}}, {0}},
    {Op::mul, {i32}, {}, {{65536}, {32768}}, {-2147483648.0}},
    {Op::mul, {u32}, {}, {{65536}, {65536}}, {0}},
    {Op::mul, {i64}, {}, {{B(0x7fffffffffffffffull)}, {2}}, {-2}},
    {Op::mul, {u64}, {}, {{B(0x8000000000000000ull)}, {2}}, {0}},
    {Op::div, kFloats, {}, {{1, -1, 0, 6, 1}, {0, 0, 0, 4, -inf}}, {inf, -inf, nan_, 1.5, -0.0}},
    {Op::div, kInts, {}, {{7, 7, 0, 100}, {2, 0, 5, 100}}, {3, 0, 0, 1}},  // x / 0 = 0
    {Op::div, kSigned, {}, {{-7, 7, -7}, {2, -2, -2}}, {-3, -3, 3}},       // toward zero
    {Op::div, {i8}, {}, {{-128}, {-1}}, {-128}},                           // MIN / -1 = MIN
    {Op::div, {i16}, {}, {{-32768}, {-1}}, {-32768}},
    {Op::div, {i32}, {}, {{-2147483648.0}, {-1}}, {-2147483648.0}},
    {Op::div, {i64}, {}, {{B(0x8000000000000000ull)}, {-1}}, {B(0x8000000000000000ull)}},
    {Op::div, {u8}, {}, {{200}, {7}}, {28}},
    {Op::div, {u64}, {}, {{B(0x8000000000000000ull)}, {2}}, {B(0x4000000000000000ull)}},
    {Op::pow, kFloats, {}, {{2, 4, nan_, -8, 0, 2}, {3, 0.5, 0, 0.5, -1, -1}}, {8, 2, 1, nan_, inf, 0.5}},
    {Op::pow, kInts, {}, {{2, 3, 0, 1, 5}, {3, 2, 0, 100, 1}}, {8, 9, 1, 1, 5}},
    {Op::pow, kSigned, {}, {{2, -1, -1, 1, -2}, {-1, 3, -4, -5, 3}}, {0, -1, 1, 1, -8}},
    {Op::pow, {i8}, {}, {{3}, {5}}, {-13}},  // 243 wraps
    {Op::pow, {u8}, {}, {{2}, {8}}, {0}},
    {Op::pow, {i16}, {}, {{2}, {15}}, {-32768}},
    {Op::pow, {u16}, {}, {{3}, {11}}, {46075}},  // 177147 mod 65536
    {Op::pow, {i32}, {}, {{2}, {31}}, {-2147483648.0}},
    {Op::pow, {u32}, {}, {{10}, {10}}, {1410065408}},  // 10^10 mod 2^32
    {Op::pow, {i64}, {}, {{-2}, {63}}, {B(0x8000000000000000ull)}},
    {Op::pow, {u64}, {}, {{2}, {64}}, {0}},
    {Op::mod, kFloats, {}, {{7, -7, 7, 1, 5.5, inf}, {2, 2, -2, 0, inf, 2}}, {1, -1, 1, nan_, 5.5, nan_}},
    {Op::mod, kInts, {}, {{7, 9, 100}, {2, 0, 7}}, {1, 0, 2}},  // x % 0 = 0
    {Op::mod, kSigned, {}, {{-7, 7}, {2, -2}}, {-1, 1}},        // sign of x
    {Op::mod, {i8}, {}, {{-128}, {-1}}, {0}},                   // MIN % -1 = 0
    {Op::mod, {i16}, {}, {{-32768}, {-1}}, {0}},
    {Op::mod, {i32}, {}, {{-2147483648.0}, {-1}}, {0}},
    {Op::mod, {i64}, {}, {{B(0x8000000000000000ull)}, {-1}}, {0}},
    {Op::mod, {u16}, {}, {{65535}, {10}}, {5}},
    {Op::mod, {u64}, {}, {{B(~0ull)}, {B(0x8000000000000000ull)}}, {B(0x7fffffffffffffffull)}},
    {Op::max, kFloats, {}, {{1, nan_, 3, -inf, -0.0}, {2, 1, nan_, 0, 0}}, {2, nan_, nan_, 0, 0}},
    {Op::max, kInts, {}, {{5, 3, 0}, {2, 9, 0}}, {5, 9, 0}},
    {Op::max, kSigned, {}, {{-5, -1}, {-9, 1}}, {-5, 1}},
    {Op::max, kUnsigned, {}, {{B(~0ull), 1}, {1, 200}}, {B(~0ull), 200}},  // unsigned: the high bit is big
    {Op::max, {b8}, {}, {{0, 0, 1, 1}, {0, 1, 0, 1}}, {0, 1, 1, 1}},       // or
    {Op::min, kFloats, {}, {{1, nan_, 3, -inf, 0}, {2, 1, nan_, 0, -0.0}}, {1, nan_, nan_, -inf, -0.0}},
    {Op::min, kInts, {}, {{5, 3, 0}, {2, 9, 0}}, {2, 3, 0}},
    {Op::min, kSigned, {}, {{-5, -1}, {-9, 1}}, {-9, -1}},
    {Op::min, kUnsigned, {}, {{B(~0ull), 1}, {1, 200}}, {1, 1}},
    {Op::min, {b8}, {}, {{0, 0, 1, 1}, {0, 1, 0, 1}}, {0, 0, 0, 1}},  // and

    // ---- comparisons: one pattern for every dtype (false < true for bool), then the edges ------
    {Op::cmp_lt, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {1, 0, 0}},
    {Op::cmp_le, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {1, 1, 0}},
    {Op::cmp_gt, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {0, 0, 1}},
    {Op::cmp_ge, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {0, 1, 1}},
    {Op::cmp_eq, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {0, 1, 0}},
    {Op::cmp_ne, kAll, {}, {{0, 1, 1}, {1, 1, 0}}, {1, 0, 1}},
    // all ones: the largest unsigned value, -1 when signed
    {Op::cmp_lt, kUnsigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {0, 1}},
    {Op::cmp_le, kUnsigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {0, 1}},
    {Op::cmp_gt, kUnsigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {1, 0}},
    {Op::cmp_ge, kUnsigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {1, 0}},
    {Op::cmp_lt, kSigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {1, 0}},
    {Op::cmp_gt, kSigned, {}, {{B(~0ull), 1}, {1, B(~0ull)}}, {0, 1}},
    {Op::cmp_lt, {u8}, {}, {{200, 100}, {100, 200}}, {0, 1}},
    {Op::cmp_gt, {i8}, {}, {{-56, 100}, {100, -56}}, {0, 1}},
    {Op::cmp_le, {u64}, {}, {{B(0x8000000000000000ull)}, {1}}, {0}},
    {Op::cmp_ge, {i64}, {}, {{B(0x8000000000000000ull)}, {1}}, {0}},
    // NaN: every comparison but ne is false; -0 == 0
    {Op::cmp_lt, kFloats, {}, {{nan_, 1, nan_, -0.0, -inf}, {1, nan_, nan_, 0, inf}}, {0, 0, 0, 0, 1}},
    {Op::cmp_le, kFloats, {}, {{nan_, 1, nan_, -0.0, -inf}, {1, nan_, nan_, 0, inf}}, {0, 0, 0, 1, 1}},
    {Op::cmp_gt, kFloats, {}, {{nan_, 1, nan_, -0.0, inf}, {1, nan_, nan_, 0, -inf}}, {0, 0, 0, 0, 1}},
    {Op::cmp_ge, kFloats, {}, {{nan_, 1, nan_, -0.0, inf}, {1, nan_, nan_, 0, -inf}}, {0, 0, 0, 1, 1}},
    {Op::cmp_eq, kFloats, {}, {{nan_, 1, nan_, -0.0}, {1, nan_, nan_, 0}}, {0, 0, 0, 1}},
    {Op::cmp_ne, kFloats, {}, {{nan_, 1, nan_, -0.0}, {1, nan_, nan_, 0}}, {1, 1, 1, 0}},
    {Op::cmp_eq, {b8}, {}, {{B(2)}, {1}}, {1}},  // both true

    // ---- logical ops: non-zero (NaN too) is true --------------------------------------------
    {Op::logical_and, kAll, {}, {{0, 0, 1, 1}, {0, 1, 0, 1}}, {0, 0, 0, 1}},
    {Op::logical_or, kAll, {}, {{0, 0, 1, 1}, {0, 1, 0, 1}}, {0, 1, 1, 1}},
    {Op::logical_xor, kAll, {}, {{0, 0, 1, 1}, {0, 1, 0, 1}}, {0, 1, 1, 0}},
    {Op::logical_and, kFloats, {}, {{nan_, -0.0, 0.5}, {1, 1, -inf}}, {1, 0, 1}},
    {Op::logical_or, kFloats, {}, {{nan_, -0.0, 0}, {0, -0.0, 0.5}}, {1, 0, 1}},
    {Op::logical_xor, kFloats, {}, {{nan_, -0.0, 0.5}, {1, 1, -inf}}, {0, 1, 0}},
    {Op::logical_and, kInts, {}, {{B(~0ull), 7}, {2, 0}}, {1, 0}},
    {Op::logical_or, kInts, {}, {{B(~0ull), 0}, {0, 0}}, {1, 0}},
    {Op::logical_xor, kInts, {}, {{B(~0ull), 7}, {2, 0}}, {0, 1}},
    {Op::logical_and, {i16, i32, i64, u16, u32, u64}, {}, {{256}, {1}}, {1}},  // low byte 0, still true
    {Op::logical_or, {i16, i32, i64, u16, u32, u64}, {}, {{256}, {0}}, {1}},
    {Op::logical_xor, {i16, i32, i64, u16, u32, u64}, {}, {{256}, {0}}, {1}},
    {Op::logical_and, {b8}, {}, {{B(2)}, {1}}, {1}},
    {Op::logical_xor, {b8}, {}, {{B(2)}, {1}}, {0}},

    // ---- bit ops -------------------------------------------------------------------------------
    {Op::bit_and, kInts, {}, {{12, 0}, {10, 5}}, {8, 0}},
    {Op::bit_or, kInts, {}, {{12, 0}, {10, 5}}, {14, 5}},
    {Op::bit_xor, kInts, {}, {{12, 0}, {10, 5}}, {6, 5}},
    {Op::bit_and, kSigned, {}, {{-1, -16}, {5, 7}}, {5, 0}},
    {Op::bit_or, kSigned, {}, {{-1, -16}, {5, 7}}, {-1, -9}},
    {Op::bit_xor, kSigned, {}, {{-1, -16}, {5, 7}}, {-6, -9}},
    {Op::bit_and, kUnsigned, {}, {{B(~0ull)}, {1}}, {1}},
    {Op::bit_or, kUnsigned, {}, {{B(~0ull)}, {0}}, {B(~0ull)}},
    {Op::bit_xor, kUnsigned, {}, {{B(~0ull)}, {1}}, {B(~1ull)}},
    {Op::bit_and, {b8}, {}, {{0, 0, 1, 1, B(2)}, {0, 1, 0, 1, 1}}, {0, 0, 0, 1, 1}},
    {Op::bit_or, {b8}, {}, {{0, 0, 1, 1, B(2)}, {0, 1, 0, 1, 0}}, {0, 1, 1, 1, 1}},
    {Op::bit_xor, {b8}, {}, {{0, 0, 1, 1, B(2)}, {0, 1, 0, 1, 1}}, {0, 1, 1, 0, 0}},

    // ---- shifts: an amount < 0 or >= the width gives 0 (-1 for a negative signed shr) ---------
    {Op::shl, kInts, {}, {{1, 3, 1, 5}, {3, 2, 64, 0}}, {8, 12, 0, 5}},
    {Op::shl, kSigned, {}, {{1, -1}, {-1, 1}}, {0, -2}},
    {Op::shl, {i8}, {}, {{1, 1, 3}, {7, 8, 6}}, {-128, 0, -64}},
    {Op::shl, {u8}, {}, {{1, 255}, {7, 1}}, {128, 254}},
    {Op::shl, {i16}, {}, {{1, 1}, {15, 16}}, {-32768, 0}},
    {Op::shl, {u16}, {}, {{1, 1}, {15, 16}}, {32768, 0}},
    {Op::shl, {i32}, {}, {{1, 1}, {31, 32}}, {-2147483648.0, 0}},
    {Op::shl, {u32}, {}, {{1, 1}, {31, 32}}, {2147483648.0, 0}},
    {Op::shl, {i64}, {}, {{1, 1}, {63, 64}}, {B(0x8000000000000000ull), 0}},
    {Op::shl, {u64}, {}, {{1, 1}, {63, 64}}, {B(0x8000000000000000ull), 0}},
    {Op::shr, kInts, {}, {{12, 1, 100}, {2, 64, 0}}, {3, 0, 100}},
    {Op::shr, kSigned, {}, {{-8, -8, -8, 8}, {1, 64, -1, -1}}, {-4, -1, -1, 0}},  // arithmetic
    {Op::shr, kSigned, {}, {{B(~0ull)}, {1}}, {-1}},
    {Op::shr, {u8}, {}, {{255}, {1}}, {127}},  // logical on unsigned
    {Op::shr, {u16}, {}, {{65535}, {1}}, {32767}},
    {Op::shr, {u32}, {}, {{4294967295.0}, {1}}, {2147483647}},
    {Op::shr, {u64}, {}, {{B(~0ull)}, {1}}, {B(0x7fffffffffffffffull)}},
    {Op::shr, {i8}, {}, {{-128}, {7}}, {-1}},
    {Op::shr, {u8}, {}, {{200, 128}, {3, 7}}, {25, 1}},
    {Op::shr, {u16}, {}, {{65535}, {16}}, {0}},
    {Op::shr, {u32}, {}, {{2147483648.0}, {31}}, {1}},
    {Op::shr, {i64}, {}, {{B(0x8000000000000000ull)}, {63}}, {-1}},
    {Op::shr, {u64}, {}, {{B(0x8000000000000000ull)}, {63}}, {1}},

    // ---- where: x ? y : z (a bool byte other than 0/1 is true) ----------------------------------
    {Op::where, kNumeric, {}, {{1, 0, B(2)}, {3, 3, 3}, {5, 5, 5}}, {3, 5, 3}},
    {Op::where, kFloats, {}, {{1, 0}, {nan_, 1}, {2, -0.0}}, {nan_, -0.0}},
    {Op::where, kSigned, {}, {{0, 1}, {-1, -128}, {-7, 0}}, {-7, -128}},
    {Op::where, kUnsigned, {}, {{1, 0}, {B(~0ull), 0}, {0, B(~0ull)}}, {B(~0ull), B(~0ull)}},
    {Op::where, {b8}, {}, {{1, 0, 0, B(2)}, {1, 1, 0, 0}, {0, 0, 1, 1}}, {1, 0, 1, 0}},

    // ---- cast: every (from, to) pair with exact small values, then the rules -----------------
    {Op::cast, kNumeric, kNumeric, {{0, 1, 100}}, {0, 1, 100}},
    {Op::cast, kInts, {b8}, {{0, 5, B(~0ull)}}, {0, 1, 1}},
    {Op::cast, {i16, i32, i64, u16, u32, u64}, {b8}, {{256}}, {1}},            // x != 0, not the low byte
    {Op::cast, kFloats, {b8}, {{0, -0.0, 0.5, nan_, -inf}}, {0, 0, 1, 1, 1}},  // NaN is true
    {Op::cast, {b8}, kAll, {{0, 1, B(2)}}, {0, 1, 1}},
    {Op::cast, kFloats, kFloats, {{-0.0, -inf, nan_, 2.5}}, {-0.0, -inf, nan_, 2.5}},
    {Op::cast, kSigned, kSigned, {{-1, -128}}, {-1, -128}},
    {Op::cast, kSigned, kFloats, {{-1, -128}}, {-1, -128}},
    {Op::cast, kFloats, kSigned, {{-1, -128}}, {-1, -128}},
    // float → integer: truncate toward 0, saturate, NaN → 0
    {Op::cast, kFloats, kSigned, {{2.75, -2.75, -0.5, nan_, 0.5}}, {2, -2, 0, 0, 0}},
    {Op::cast, kFloats, kUnsigned, {{2.75, -2.75, -0.5, nan_, -inf}}, {2, 0, 0, 0, 0}},
    {Op::cast, kFloats, {i8}, {{200, -200, 127.5, inf}}, {127, -128, 127, 127}},
    {Op::cast, kFloats, {u8}, {{300, 256, -inf, inf}}, {255, 255, 0, 255}},
    {Op::cast, {f64, f32, f16}, {u8}, {{255.5}}, {255}},
    {Op::cast, kFloats, {i16}, {{40960, -40960, inf}}, {32767, -32768, 32767}},
    {Op::cast, {f64, f32, bf16}, {u16}, {{131072, -1, inf}}, {65535, 0, 65535}},
    {Op::cast, {f16}, {u16}, {{65504, -1, inf}}, {65504, 0, 65535}},
    {Op::cast, {f64, f32}, {u16}, {{65535.5}}, {65535}},
    {Op::cast, kFloats, {i32}, {{-inf, inf}}, {-2147483648.0, 2147483647}},
    {Op::cast, kFloats, {i64}, {{-inf, inf}}, {B(0x8000000000000000ull), B(0x7fffffffffffffffull)}},
    {Op::cast,
     {f32},
     {i32},
     {{3.75, -3.75, 1e10, -1e10, 2147483648.0}},
     {3, -3, 2147483647, -2147483648.0, 2147483647}},
    {Op::cast, {f32}, {u32}, {{4294967296.0, 4294967040.0}}, {4294967295.0, 4294967040.0}},
    {Op::cast, {f64}, {i32}, {{-2147483648.75, 2147483647.5, 2147483648.0}}, {-2147483648.0, 2147483647, 2147483647}},
    {Op::cast,
     {f64},
     {i64},
     {{9223372036854775808.0, -9223372036854775808.0, -1e300}},
     {B(0x7fffffffffffffffull), B(0x8000000000000000ull), B(0x8000000000000000ull)}},
    {Op::cast, {f64}, {u64}, {{18446744073709551616.0, 1.8e19, -1}}, {B(~0ull), B(18000000000000000000ull), 0}},
    {Op::cast, kFloats, {u32, u64}, {{inf}}, {B(~0ull)}},
    // integer → integer: low bits kept; sign-extended from signed, zero-extended from unsigned
    {Op::cast, {i8}, kUnsigned, {{-1, -128}}, {B(~0ull), B(~0x7full)}},
    {Op::cast, {u8}, {i8}, {{200, 255}}, {-56, -1}},
    {Op::cast, {u8}, {i16, i32, i64, u16, u32, u64}, {{200, 255}}, {200, 255}},
    {Op::cast, {i16}, {i8}, {{300, -129, 128}}, {44, 127, -128}},
    {Op::cast, {i16}, {u8}, {{300, -1}}, {44, 255}},
    {Op::cast, {i16}, {u16, u32, u64}, {{-1, -32768}}, {B(~0ull), B(~0x7fffull)}},
    {Op::cast, {i16}, {i32, i64}, {{-32768}}, {-32768}},
    {Op::cast, {u16}, {i8}, {{0xff80}}, {-128}},
    {Op::cast, {u16}, {i16}, {{65535}}, {-1}},
    {Op::cast, {u16}, {u8}, {{0x1234}}, {0x34}},
    {Op::cast, {u16}, {i32, i64, u32, u64}, {{65535}}, {65535}},
    {Op::cast, {i32}, {i8}, {{300, -129, 128}}, {44, 127, -128}},
    {Op::cast, {i32}, {i16}, {{70000}}, {4464}},
    {Op::cast, {i32}, kUnsigned, {{-1}}, {B(~0ull)}},
    {Op::cast, {i32}, {i64}, {{-2147483648.0}}, {-2147483648.0}},
    {Op::cast, {u32}, {i8, i16}, {{4294967295.0}}, {-1}},
    {Op::cast, {u32}, {i32}, {{2147483648.0}}, {-2147483648.0}},
    {Op::cast, {u32}, {i64, u64}, {{4294967295.0}}, {4294967295.0}},
    {Op::cast, {u32}, {u8, u16}, {{0x12345678}}, {B(0x12345678)}},
    {Op::cast, {i64}, {i8, i16, i32}, {{B(0x8000000000000001ull), -1}}, {1, -1}},
    {Op::cast, {i64}, kUnsigned, {{-1}}, {B(~0ull)}},
    {Op::cast, {u64}, kSigned, {{B(~0ull)}}, {-1}},
    {Op::cast, {u64}, {i32}, {{B(0x8000000000000005ull)}}, {5}},
    {Op::cast, {u64}, {u8, u16, u32}, {{B(~0ull)}}, {B(~0ull)}},
    // integer → float: nearest, ties to even; 16-bit floats through f32
    {Op::cast, {i64}, {f32}, {{16777217, 16777219}}, {16777216, 16777220}},
    {Op::cast, {i64}, {f64}, {{B(9007199254740993ull)}}, {9007199254740992.0}},
    {Op::cast, {u64}, {f32, f64, bf16}, {{B(~0ull)}}, {18446744073709551616.0}},
    {Op::cast, {u64}, {f16}, {{B(~0ull)}}, {inf}},
    {Op::cast, {i32}, {f16}, {{70000, 2049, 2051, -65520}}, {inf, 2048, 2052, -inf}},
    {Op::cast, {i16}, {bf16}, {{257, 259, -32767}}, {256, 260, -32768}},
    {Op::cast, {u8}, {bf16}, {{255}}, {255}},
    {Op::cast, {u32}, {f32}, {{4294967295.0}}, {4294967296.0}},
    {Op::cast, {i32}, {f32}, {{2147483647}}, {2147483648.0}},
    {Op::cast, {u32}, {f64}, {{4294967295.0}}, {4294967295.0}},
    // float → float: nearest even; f64 → 16-bit rounds twice (through f32)
    {Op::cast, {f32}, {f16}, {{65520, 65519, B(0x3eaaaaab)}}, {inf, 65504, B(0x3555)}},
    {Op::cast, {f64}, {f16}, {{65519.99, 1.00048828125 + 0x1p-30}}, {65504, 1}},
    {Op::cast, {f64}, {f32}, {{1e300, -1e300, 1 + 0x1p-30}}, {inf, -inf, 1}},
    {Op::cast, {f32}, {bf16}, {{1.00390625, 1.01171875}}, {1, 1.015625}},
    {Op::cast, {bf16}, {f16}, {{131072, 3.140625}}, {inf, 3.140625}},
    {Op::cast, {f16}, {bf16}, {{B(0x3555)}}, {B(0x3eab)}},
    {Op::cast, {f16}, {f64, f32}, {{B(0x0001)}}, {0x1p-24}},

    // ---- bitcast: every same-size pair keeps the bits, loaded NaNs of any sign, payload and ----
    // ---- quietness included (a NaN computed by an op reads canonical: test_interpreter.cpp) ----
    {Op::bitcast,
     {f64, i64, u64},
     {f64, i64, u64},
     {{B(0xc000000000000000ull), B(0x3ff0000000000000ull), B(1)}},
     {B(0xc000000000000000ull), B(0x3ff0000000000000ull), B(1)}},
    {Op::bitcast,
     {f32, i32, u32},
     {f32, i32, u32},
     {{B(0xbf800000u), B(1), B(0x7f800000u)}},
     {B(0xbf800000u), B(1), B(0x7f800000u)}},
    {Op::bitcast,
     {f16, bf16, i16, u16},
     {f16, bf16, i16, u16},
     {{B(0xc000), B(1), B(0x7c00)}},
     {B(0xc000), B(1), B(0x7c00)}},
    {Op::bitcast, {i8, u8}, {i8, u8}, {{B(0x80), B(0xff), B(1)}}, {B(0x80), B(0xff), B(1)}},
    {Op::bitcast,
     {f64},
     {i64, u64},
     {{B(0xfff8000000000123ull), B(0x7ff0000000000001ull)}},
     {B(0xfff8000000000123ull), B(0x7ff0000000000001ull)}},
    {Op::bitcast, {f32}, {i32, u32}, {{B(0xffc00000u), B(0x7f800001u)}}, {B(0xffc00000u), B(0x7f800001u)}},
    {Op::bitcast, {f16}, {i16, u16, bf16}, {{B(0x7c01), B(0xfe3f)}}, {B(0x7c01), B(0xfe3f)}},
    {Op::bitcast, {bf16}, {i16, u16}, {{B(0xffc1), B(0x7f81)}}, {B(0xffc1), B(0x7f81)}},
    {Op::bitcast, {i32}, {f32}, {{B(0xffc00001u)}}, {nan_}},
    {Op::bitcast, {i16}, {f16}, {{B(0x7c01)}}, {nan_}},

    // ---- reduces: rows × cols, one result per row ---------------------------------------------
    {Op::reduce_sum, kNumeric, {}, {{1, 2, 3, 4, 5, 6}}, {6, 15}, 3},
    {Op::reduce_sum, kNumeric, {}, {{}}, {0, 0}, 0},                         // empty: 0
    {Op::reduce_sum, kFloats, {}, {{inf, -inf, -0.0, -0.0}}, {nan_, 0}, 2},  // starts from +0
    {Op::reduce_sum, kSigned, {}, {{-5, 3, -100}}, {-102}, 3},
    {Op::reduce_sum, {i8}, {}, {{100, 100}}, {-56}, 2},  // wraps
    {Op::reduce_sum, {u8}, {}, {{200, 100}}, {44}, 2},
    {Op::reduce_sum, kUnsigned, {}, {{B(~0ull), 2}}, {1}, 2},
    {Op::reduce_sum, {f16}, {}, {{2048, 1, 1}}, {2050}, 3},  // f32 accumulator (f16 would stop at 2048)
    {Op::reduce_sum, {bf16}, {}, {{256, 1, 1}}, {258}, 3},
    {Op::reduce_prod, kNumeric, {}, {{1, 2, 3, 4, 5, 6}}, {6, 120}, 3},
    {Op::reduce_prod, kNumeric, {}, {{}}, {1, 1}, 0},  // empty: 1
    {Op::reduce_prod, kFloats, {}, {{0, inf, -0.0, 2}}, {nan_, -0.0}, 2},
    {Op::reduce_prod, kSigned, {}, {{-2, 3, 4}}, {-24}, 3},
    {Op::reduce_prod, {i8}, {}, {{16, 8}}, {-128}, 2},
    {Op::reduce_prod, {u8}, {}, {{16, 17}}, {16}, 2},
    {Op::reduce_prod, kUnsigned, {}, {{B(~0ull), B(~0ull)}}, {1}, 2},  // (-1)² mod 2^n
    {Op::reduce_max, kNumeric, {}, {{3, 7, 5, 100, 0, 2}}, {7, 100}, 3},
    {Op::reduce_max, kSigned, {}, {{-5, -3, -9}}, {-3}, 3},
    {Op::reduce_max, kUnsigned, {}, {{1, B(~0ull), 0}}, {B(~0ull)}, 3},
    {Op::reduce_max, kFloats, {}, {{1, nan_, 3, -inf, -inf, -inf}}, {nan_, -inf}, 3},
    {Op::reduce_max, {b8}, {}, {{0, 1, 0, 0, 0, 0}}, {1, 0}, 3},
    {Op::reduce_max, kFloats, {}, {{}}, {-inf}, 0},  // empty: lowest
    {Op::reduce_max, {i8}, {}, {{}}, {-128}, 0},
    {Op::reduce_max, {i16}, {}, {{}}, {-32768}, 0},
    {Op::reduce_max, {i32}, {}, {{}}, {-2147483648.0}, 0},
    {Op::reduce_max, {i64}, {}, {{}}, {B(0x8000000000000000ull)}, 0},
    {Op::reduce_max, kUnsigned, {}, {{}}, {0}, 0},
    {Op::reduce_max, {b8}, {}, {{}}, {0}, 0},
    {Op::reduce_min, kNumeric, {}, {{3, 7, 5, 100, 0, 2}}, {3, 0}, 3},
    {Op::reduce_min, kSigned, {}, {{-5, -3, -9}}, {-9}, 3},
    {Op::reduce_min, kUnsigned, {}, {{B(~0ull), 1, 200}}, {1}, 3},
    {Op::reduce_min, kFloats, {}, {{1, nan_, 3, inf, inf, inf}}, {nan_, inf}, 3},
    {Op::reduce_min, {b8}, {}, {{1, 1, 0, 1, 1, 1}}, {0, 1}, 3},
    {Op::reduce_min, kFloats, {}, {{}}, {inf}, 0},  // empty: highest
    {Op::reduce_min, {i8}, {}, {{}}, {127}, 0},
    {Op::reduce_min, {i16}, {}, {{}}, {32767}, 0},
    {Op::reduce_min, {i32}, {}, {{}}, {2147483647}, 0},
    {Op::reduce_min, {i64}, {}, {{}}, {B(0x7fffffffffffffffull)}, 0},
    {Op::reduce_min, kUnsigned, {}, {{}}, {B(~0ull)}, 0},
    {Op::reduce_min, {b8}, {}, {{}}, {1}, 0},
};

// (op, operand dtype, target dtype or -1) of every run the table makes.
using Pair = std::tuple<int, int, int>;
std::set<Pair> table_pairs() {
    std::set<Pair> s;
    for (const Row& r : kTable)
        for (DType t : r.types) {
            if (r.to.empty()) s.insert({int(r.op), int(t), -1});
            for (DType to : r.to) s.insert({int(r.op), int(t), int(to)});
        }
    return s;
}

}  // namespace

TEST(InterpreterTable, EveryRowGivesItsHandComputedValues) {
    size_t runs = 0, failures = 0;
    for (size_t i = 0; i < std::size(kTable); ++i) {
        const Row& r = kTable[i];
        for (DType t : r.types) {
            Types tos = r.to.empty() ? Types{b8} : r.to;
            for (DType to : tos) {
                std::string why = run_row(r, t, to);
                ++runs;
                if (!why.empty() && ++failures <= 40) ADD_FAILURE() << "table row " << i << ": " << why;
            }
        }
    }
    EXPECT_EQ(failures, 0u) << "of " << runs << " runs";
    // The check itself can fail: a wrong expected value, an inexact one, a wrong operand count.
    EXPECT_NE(run_row(Row{Op::add, {i32}, {}, {{1}, {2}}, {4}}, i32), "");
    EXPECT_NE(run_row(Row{Op::add, {f16}, {}, {{1}, {2}}, {3.0001}}, f16), "");
    EXPECT_NE(run_row(Row{Op::add, {i32}, {}, {{1}}, {2}}, i32), "");
    EXPECT_NE(run_row(Row{Op::cmp_eq, {f32}, {}, {{0}, {-0.0}}, {0}}, f32), "") << "-0 == 0 is true";
}

// Every (op, dtype) pair op_accepts allows has a hand-checked row: for cast every (from, to)
// pair, for bitcast every pair of same-size non-bool dtypes, for the other ops every dtype the
// op accepts as its operand (where: its branches; load, constant, scalar: the value).
TEST(InterpreterTable, EveryOpAndDtypePairHasARow) {
    std::set<Pair> have = table_pairs();
    std::vector<std::string> missing;
    size_t needed = 0;
    for (int o = 0; o < kNumOps; ++o) {
        Op op = Op(o);
        for (DType t : kAll) {
            std::vector<int> tos;
            if (op == Op::cast) {
                for (DType to : kAll) tos.push_back(int(to));
            } else if (op == Op::bitcast) {
                for (DType to : kAll)
                    if (op_accepts(op, t) && op_accepts(op, to) && dtype_size(t) == dtype_size(to))
                        tos.push_back(int(to));
            } else if (op_accepts(op, t)) {
                tos.push_back(-1);
            }
            for (int to : tos) {
                ++needed;
                if (!have.count({o, int(t), to}))
                    missing.push_back(std::string(op_name(op)) + " " + std::string(dtype_name(t)) +
                                      (to >= 0 ? " -> " + std::string(dtype_name(DType(to))) : ""));
            }
        }
    }
    std::string list;
    for (const std::string& m : missing) list += "\n  " + m;
    EXPECT_TRUE(missing.empty()) << missing.size() << " of " << needed << " pairs have no row in kTable:" << list;
    EXPECT_GT(needed, 700u) << "the enumeration itself";
}
