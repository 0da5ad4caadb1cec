// The cross-backend op test (in the spirit of ggml's test-backend-ops): every public Tensor op,
// every dtype it takes, on every device, against a reference written here in plain loops over
// doubles — independent of zyx's graph, scheduler and kernel IR.
//
// How a line runs. A Case names the op and dtype, describes its inputs (shape, dtype, value
// range), builds the output from device tensors, and computes the expected result (shape, dtype,
// values) from the same input values. Each case runs twice per device:
//   contiguous    inputs uploaded as they are;
//   strided       every input of rank >= 1 is a non-contiguous view with the same values: rank
//                 >= 2 inputs alternate between a permuted view (data stored transposed) and a
//                 strided slice (every 2nd element of a buffer twice as long).
// All outputs of one group and device are realized in ONE zyx::realize() (one compile batch on
// the JIT host backend), then compared. On devices other than the interpreter, each result is
// also compared with the interpreter's result for the same case.
//
// Tolerance per result dtype (|got − want| <= atol + rtol·|want|; NaN must meet NaN, ±inf the
// same inf; results of 16-bit dtypes are rounded once from f32, so half an ulp plus a little):
//   f64   atol 1e-12  rtol 1e-10
//   f32   atol 1e-5   rtol 1e-5
//   f16   atol 1e-3   rtol 2e-3
//   bf16  atol 1e-2   rtol 1.6e-2
//   integers and bool: exact
// Inputs are drawn in ranges where integer ops do not overflow, so the reference can use double
// arithmetic; wrapping is tested with explicit values.
//
// Adding an op: add one line (or one loop over dtypes) to the group it belongs to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "kernel/kernel.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Shape;
using zyx::Tensor;

constexpr DType f64 = DType::f64, f32 = DType::f32, f16 = DType::f16, bf16 = DType::bf16;
constexpr DType i8 = DType::i8, i16 = DType::i16, i32 = DType::i32, i64 = DType::i64;
constexpr DType u8 = DType::u8, u32 = DType::u32, b8 = DType::bool_;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// ---- reference tensors -----------------------------------------------------------------------------

int64_t numel(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

struct Ref {
    Shape shape;
    DType dtype = f32;
    std::vector<double> v;  // row-major
};

std::vector<int64_t> unravel(int64_t flat, const Shape& s) {
    std::vector<int64_t> idx(s.size());
    for (size_t d = s.size(); d-- > 0;) {
        idx[d] = s[d] ? flat % s[d] : 0;
        flat = s[d] ? flat / s[d] : 0;
    }
    return idx;
}

int64_t ravel(const std::vector<int64_t>& idx, const Shape& s) {
    int64_t f = 0;
    for (size_t d = 0; d < s.size(); ++d) f = f * s[d] + idx[d];
    return f;
}

// Value as the dtype stores it: integers wrap, floats round (via the cast rules of core).
double as_dtype(double v, DType t) {
    if (t == b8) return v != 0 || std::isnan(v);
    if (zyx::dtype_is_int(t)) {
        uint64_t bits = zyx::kernel::bits_from_int(t, int64_t(v));
        return zyx::kernel::double_from_bits(t, bits);
    }
    return zyx::kernel::double_from_bits(t, zyx::kernel::bits_from_double(t, v));
}

Ref map(const Ref& a, DType out, const std::function<double(double)>& f) {
    Ref r{a.shape, out, {}};
    for (double x : a.v) r.v.push_back(as_dtype(f(x), out));
    return r;
}

Shape bshape(const Shape& a, const Shape& b) {
    size_t r = std::max(a.size(), b.size());
    Shape o(r);
    for (size_t i = 0; i < r; ++i) {
        int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
        o[r - 1 - i] = x == 1 ? y : x;
    }
    return o;
}

double at_broadcast(const Ref& a, const std::vector<int64_t>& idx) {
    std::vector<int64_t> ai(a.shape.size());
    size_t off = idx.size() - a.shape.size();
    for (size_t d = 0; d < a.shape.size(); ++d) ai[d] = a.shape[d] == 1 ? 0 : idx[off + d];
    return a.v[size_t(ravel(ai, a.shape))];
}

Ref zip(const Ref& a, const Ref& b, DType out, const std::function<double(double, double)>& f) {
    Ref r{bshape(a.shape, b.shape), out, {}};
    for (int64_t i = 0; i < numel(r.shape); ++i) {
        auto idx = unravel(i, r.shape);
        r.v.push_back(as_dtype(f(at_broadcast(a, idx), at_broadcast(b, idx)), out));
    }
    return r;
}

std::vector<int> norm(const std::vector<int>& axes, size_t rank) {
    std::vector<int> o;
    for (int a : axes) o.push_back(a < 0 ? a + int(rank) : a);
    std::sort(o.begin(), o.end());
    return o;
}

// Reduces `axes` (all when empty is false and axes empty means none) with `f` starting at init.
Ref reduce(const Ref& a, std::vector<int> axes, bool keepdim, DType out, double init,
           const std::function<double(double, double)>& f) {
    axes = norm(axes, a.shape.size());
    Shape ks = a.shape;
    for (int d : axes) ks[size_t(d)] = 1;
    std::vector<double> acc(size_t(numel(ks)), init);
    for (int64_t i = 0; i < numel(a.shape); ++i) {
        auto idx = unravel(i, a.shape);
        for (int d : axes) idx[size_t(d)] = 0;
        double& c = acc[size_t(ravel(idx, ks))];
        c = f(c, a.v[size_t(i)]);
    }
    Ref r{ks, out, {}};
    for (double x : acc) r.v.push_back(as_dtype(x, out));
    if (!keepdim) {
        Shape s;
        for (size_t d = 0; d < a.shape.size(); ++d)
            if (std::find(axes.begin(), axes.end(), int(d)) == axes.end()) s.push_back(a.shape[d]);
        r.shape = s;
    }
    return r;
}

std::vector<int> all_axes(const Ref& a) {
    std::vector<int> v(a.shape.size());
    std::iota(v.begin(), v.end(), 0);
    return v;
}

// Output element i reads input index src(idx) (or `pad` when src returns false).
Ref gather(const Ref& a, const Shape& out, DType t,
           const std::function<bool(const std::vector<int64_t>&, std::vector<int64_t>&)>& src, double pad = 0) {
    Ref r{out, t, {}};
    for (int64_t i = 0; i < numel(out); ++i) {
        std::vector<int64_t> from(a.shape.size());
        r.v.push_back(src(unravel(i, out), from) ? a.v[size_t(ravel(from, a.shape))] : pad);
    }
    return r;
}

Ref reshape(Ref a, const Shape& s) {
    a.shape = s;
    return a;
}

Ref permute(const Ref& a, const std::vector<int>& p) {
    Shape s;
    for (int d : p) s.push_back(a.shape[size_t(d)]);
    return gather(a, s, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
        for (size_t d = 0; d < p.size(); ++d) in[size_t(p[d])] = o[d];
        return true;
    });
}

Ref cast(Ref a, DType t) {
    for (double& x : a.v) x = as_dtype(x, t);
    a.dtype = t;
    return a;
}

double nan_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b); }
double nan_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b); }
DType float_of(DType t) { return zyx::dtype_is_float(t) ? t : f32; }
DType sum_of(DType t) { return t == b8 || (zyx::dtype_is_int(t) && zyx::dtype_size(t) < 4) ? i32 : t; }

// ---- inputs ---------------------------------------------------------------------------------------

enum class Gen { real, integer, boolean, special, positive, nonzero_int };

struct In {
    Shape shape;
    DType dtype;
    Gen gen = Gen::real;
    double lo = -3, hi = 3;
};

In R(DType t, Shape s, double lo = -3, double hi = 3) { return {std::move(s), t, Gen::real, lo, hi}; }
In I(DType t, Shape s, double lo = -9, double hi = 9) { return {std::move(s), t, Gen::integer, lo, hi}; }
In B(Shape s) { return {std::move(s), b8, Gen::boolean, 0, 1}; }
In Sp(DType t, Shape s) { return {std::move(s), t, Gen::special, 0, 0}; }
In P(DType t, Shape s, double lo = 0.1, double hi = 4) { return {std::move(s), t, Gen::positive, lo, hi}; }
In NZ(DType t, Shape s, double lo = -9, double hi = 9) { return {std::move(s), t, Gen::nonzero_int, lo, hi}; }
// Values of a dtype drawn as its kind suggests: floats real, ints integer, bool 0/1.
In V(DType t, Shape s) {
    if (t == b8) return B(std::move(s));
    if (zyx::dtype_is_int(t)) return I(t, std::move(s), zyx::dtype_is_unsigned_int(t) ? 0 : -9, 9);
    return R(t, std::move(s));
}

std::vector<double> generate(const In& in, std::mt19937_64& rng) {
    std::vector<double> v;
    const double specials[] = {kNaN, kInf, -kInf, -0.0, 0.0, 1.5, -2.5, 3.0, -1.0, 0.25};
    std::uniform_real_distribution<double> ur(in.lo, in.hi);
    std::uniform_int_distribution<int64_t> ui(int64_t(in.lo), int64_t(in.hi));
    for (int64_t i = 0; i < numel(in.shape); ++i) {
        double x = 0;
        switch (in.gen) {
            case Gen::real: case Gen::positive: x = ur(rng); break;
            case Gen::integer: x = double(ui(rng)); break;
            case Gen::nonzero_int: do x = double(ui(rng)); while (x == 0); break;
            case Gen::boolean: x = double(rng() & 1); break;
            case Gen::special: x = specials[size_t(i) % 10]; break;
        }
        v.push_back(as_dtype(x, in.dtype));
    }
    return v;
}

// ---- cases ----------------------------------------------------------------------------------------

using Ins = std::vector<Tensor>;
using Refs = std::vector<Ref>;
using OpFn = std::function<Tensor(const Ins&, Device)>;
using RefFn = std::function<Ref(const Refs&)>;

struct Case {
    std::string name;
    std::vector<In> inputs;
    OpFn op;
    RefFn ref;
    double tol_scale = 1;   // > 1 for ops whose reference differs by construction (approximations)
    double atol_floor = 0;  // absolute error an approximation is documented to have (erf: 2e-7)
};

std::string dn(DType t) { return std::string(zyx::dtype_name(t)); }

struct Table {
    std::vector<Case> cases;
    void add(std::string name, std::vector<In> in, OpFn op, RefFn ref, double tol = 1, double atol_floor = 0) {
        cases.push_back({std::move(name), std::move(in), std::move(op), std::move(ref), tol, atol_floor});
    }
};

const std::vector<DType> kFloats = {f32, f16, bf16, f64};

// ---- group: unary ---------------------------------------------------------------------------------

void unary_float(Table& t, const std::string& name, const std::function<Tensor(const Tensor&)>& op,
                 const std::function<double(double)>& f, Gen gen = Gen::real, double lo = -3, double hi = 3,
                 double atol_floor = 0) {
    for (DType d : kFloats)
        t.add(name + " " + dn(d), {In{{2, 3}, d, gen, lo, hi}}, [op](const Ins& x, Device) { return op(x[0]); },
              [f](const Refs& r) { return map(r[0], float_of(r[0].dtype), f); }, 1, atol_floor);
    // Integer input: computed in f32 (promotion of float-only math).
    t.add(name + " i32->f32", {In{{4}, i32, Gen::integer, std::max(lo, -3.0), std::min(hi, 3.0)}},
          [op](const Ins& x, Device) { return op(x[0]); }, [f](const Refs& r) { return map(r[0], f32, f); }, 1,
          atol_floor);
}
// erf is computed by Abramowitz & Stegun 7.1.26 (documented |error| <= 1.5e-7 in exact arithmetic).
constexpr double kErfError = 3e-7;

void unary_keep(Table& t, const std::string& name, const std::vector<DType>& dtypes,
                const std::function<Tensor(const Tensor&)>& op, const std::function<double(double)>& f) {
    for (DType d : dtypes)
        t.add(name + " " + dn(d), {zyx::dtype_is_float(d) ? R(d, {3, 4}, -4, 4) : V(d, {3, 4})},
              [op](const Ins& x, Device) { return op(x[0]); }, [f, d](const Refs& r) { return map(r[0], d, f); });
}

Table unary_group() {
    Table t;
    using std::exp;
    unary_float(t, "exp", [](const Tensor& x) { return x.exp(); }, [](double v) { return std::exp(v); });
    unary_float(t, "exp2", [](const Tensor& x) { return x.exp2(); }, [](double v) { return std::exp2(v); });
    unary_float(t, "log", [](const Tensor& x) { return x.log(); }, [](double v) { return std::log(v); }, Gen::positive, 0.1, 9);
    unary_float(t, "log2", [](const Tensor& x) { return x.log2(); }, [](double v) { return std::log2(v); }, Gen::positive, 0.1, 9);
    unary_float(t, "log10", [](const Tensor& x) { return x.log10(); }, [](double v) { return std::log10(v); }, Gen::positive, 0.1, 9);
    unary_float(t, "log1p", [](const Tensor& x) { return x.log1p(); }, [](double v) { return std::log1p(v); }, Gen::real, -0.5, 2);
    t.add("log1p tiny f32", {R(f32, {4}, -1e-6, 1e-6)}, [](const Ins& x, Device) { return x[0].log1p(); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::log1p(v); }); });
    unary_float(t, "sqrt", [](const Tensor& x) { return x.sqrt(); }, [](double v) { return std::sqrt(v); }, Gen::positive, 0, 9);
    unary_float(t, "rsqrt", [](const Tensor& x) { return x.rsqrt(); }, [](double v) { return 1 / std::sqrt(v); }, Gen::positive, 0.1, 9);
    unary_float(t, "reciprocal", [](const Tensor& x) { return x.reciprocal(); }, [](double v) { return 1 / v; }, Gen::positive, 0.2, 5);
    unary_float(t, "sin", [](const Tensor& x) { return x.sin(); }, [](double v) { return std::sin(v); });
    unary_float(t, "cos", [](const Tensor& x) { return x.cos(); }, [](double v) { return std::cos(v); });
    unary_float(t, "tan", [](const Tensor& x) { return x.tan(); }, [](double v) { return std::tan(v); }, Gen::real, -1.2, 1.2);
    unary_float(t, "tanh", [](const Tensor& x) { return x.tanh(); }, [](double v) { return std::tanh(v); });
    unary_float(t, "sigmoid", [](const Tensor& x) { return x.sigmoid(); }, [](double v) { return 1 / (1 + std::exp(-v)); });
    unary_float(t, "erf", [](const Tensor& x) { return x.erf(); }, [](double v) { return std::erf(v); }, Gen::real, -3, 3,
                kErfError);
    unary_float(t, "gelu", [](const Tensor& x) { return x.gelu(); },
                [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, Gen::real, -3, 3, 3 * kErfError);
    unary_float(t, "gelu_tanh", [](const Tensor& x) { return x.gelu(true); }, [](double v) {
        return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    });
    unary_float(t, "silu", [](const Tensor& x) { return x.silu(); }, [](double v) { return v / (1 + std::exp(-v)); });
    unary_float(t, "softplus", [](const Tensor& x) { return x.softplus(); },
                [](double v) { return v > 20 ? v : std::log1p(std::exp(v)); }, Gen::real, -30, 30);
    unary_float(t, "softplus_beta2", [](const Tensor& x) { return x.softplus(2, 5); },
                [](double v) { return 2 * v > 5 ? v : std::log1p(std::exp(2 * v)) / 2; });
    unary_float(t, "leaky_relu", [](const Tensor& x) { return x.leaky_relu(0.1); },
                [](double v) { return v > 0 ? v : 0.1 * v; });

    std::vector<DType> signed_dtypes = {f32, f16, bf16, f64, i32, i8, i64};
    unary_keep(t, "neg", signed_dtypes, [](const Tensor& x) { return -x; }, [](double v) { return -v; });
    unary_keep(t, "abs", signed_dtypes, [](const Tensor& x) { return x.abs(); }, [](double v) { return std::fabs(v); });
    unary_keep(t, "sign", signed_dtypes, [](const Tensor& x) { return x.sign(); },
               [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; });
    unary_keep(t, "relu", {f32, f16, bf16, i32, i8, u8}, [](const Tensor& x) { return x.relu(); },
               [](double v) { return v < 0 ? 0 : v; });
    unary_keep(t, "floor", {f32, bf16, f64, i32}, [](const Tensor& x) { return x.floor(); }, [](double v) { return std::floor(v); });
    unary_keep(t, "ceil", {f32, bf16, f64, i32}, [](const Tensor& x) { return x.ceil(); }, [](double v) { return std::ceil(v); });
    unary_keep(t, "round", {f32, f16, i32}, [](const Tensor& x) { return x.round(); }, [](double v) { return std::nearbyint(v); });
    unary_keep(t, "trunc", {f32, f16, f64, i32}, [](const Tensor& x) { return x.trunc(); }, [](double v) { return std::trunc(v); });
    unary_keep(t, "square", {f32, bf16, i32, u8}, [](const Tensor& x) { return x.square(); }, [](double v) { return v * v; });
    t.add("round half-even f32", {Sp(f32, {10})}, [](const Ins& x, Device) { return (x[0] + 0.5f).round(); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::nearbyint(double(float(v + 0.5))); }); });
    for (DType d : {f32, bf16}) {
        t.add("isnan " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].isnan(); },
              [](const Refs& r) { return map(r[0], b8, [](double v) { return double(std::isnan(v)); }); });
        t.add("isinf " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].isinf(); },
              [](const Refs& r) { return map(r[0], b8, [](double v) { return double(std::isinf(v)); }); });
        t.add("relu specials " + dn(d), {Sp(d, {10})}, [](const Ins& x, Device) { return x[0].relu(); },
              [d](const Refs& r) { return map(r[0], d, [](double v) { return v < 0 ? 0 : v; }); });
        t.add("sign specials " + dn(d), {Sp(d, {10})}, [](const Ins& x, Device) { return x[0].sign(); },
              [d](const Refs& r) { return map(r[0], d, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; }); });
    }
    t.add("isinf i32", {I(i32, {4})}, [](const Ins& x, Device) { return x[0].isinf(); },
          [](const Refs& r) { return map(r[0], b8, [](double) { return 0.0; }); });
    for (DType d : {f32, i32, b8})
        t.add("logical_not " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return !x[0]; },
              [](const Refs& r) { return map(r[0], b8, [](double v) { return double(v == 0); }); });
    for (DType d : {i32, u8, b8})
        t.add("bitwise_not " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return ~x[0]; }, [d](const Refs& r) {
            return map(r[0], d, [d](double v) { return d == b8 ? double(v == 0) : double(~int64_t(v)); });
        });
    for (DType d : {f32, i32, bf16})
        t.add("clamp " + dn(d), {V(d, {3, 3})}, [](const Ins& x, Device) { return x[0].clamp(-2, 1); },
              [d](const Refs& r) { return map(r[0], d, [](double v) { return std::min(std::max(v, -2.0), 1.0); }); });
    t.add("clamp i32 by 0.5 -> f32", {I(i32, {5})}, [](const Ins& x, Device) { return x[0].clamp_max(0.5); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::min(v, 0.5); }); });

    // Casts: every dtype from f32 (value rules: truncate, saturate, NaN → 0, != 0 → true) and back.
    for (DType to : {f64, f16, bf16, i8, i16, i32, i64, u8, u32, b8})
        t.add("cast f32->" + dn(to), {R(f32, {2, 4}, -200, 300)}, [to](const Ins& x, Device) { return x[0].cast(to); },
              [to](const Refs& r) {
                  return map(r[0], to, [to](double v) {
                      if (!zyx::dtype_is_int(to)) return v;
                      double lo = zyx::kernel::double_from_bits(to, zyx::kernel::bits_from_double(to, -1e300));
                      double hi = zyx::kernel::double_from_bits(to, zyx::kernel::bits_from_double(to, 1e300));
                      return std::min(std::max(std::trunc(v), lo), hi);  // truncate and saturate
                  });
              });
    for (DType from : {f16, bf16, i8, u8, i32, i64, b8})
        t.add("cast " + dn(from) + "->f32", {V(from, {2, 3})}, [](const Ins& x, Device) { return x[0].cast(f32); },
              [](const Refs& r) { return cast(r[0], f32); });
    t.add("cast specials f32->i32", {Sp(f32, {10})}, [](const Ins& x, Device) { return x[0].cast(i32); },
          [](const Refs& r) { return map(r[0], i32, [](double v) { return std::isnan(v) ? 0 : v == kInf ? 2147483647.0 : v == -kInf ? -2147483648.0 : std::trunc(v); }); });
    t.add("bitcast f32->i32", {R(f32, {4})}, [](const Ins& x, Device) { return x[0].bitcast(i32); }, [](const Refs& r) {
        return map(r[0], i32, [](double v) {
            float f = float(v);
            int32_t b;
            std::memcpy(&b, &f, 4);
            return double(b);
        });
    });
    // Size-1 axes, 0-d and empty tensors.
    t.add("exp [1,1,5]", {R(f32, {1, 1, 5})}, [](const Ins& x, Device) { return x[0].exp(); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    t.add("exp 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].exp(); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    t.add("exp empty [0,3]", {R(f32, {0, 3})}, [](const Ins& x, Device) { return x[0].exp(); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    return t;
}

// ---- group: binary --------------------------------------------------------------------------------

using BinOp = std::function<Tensor(const Tensor&, const Tensor&)>;
using BinF = std::function<double(double, double)>;

// One line per dtype and per broadcasting pattern: [2,3]·[2,3], [2,3]·[3], [2,1]·[1,3].
void binary(Table& t, const std::string& name, const std::vector<DType>& dtypes, const BinOp& op, const BinF& f,
            std::function<DType(DType)> out = nullptr, Gen gen_b = Gen::real) {
    const std::vector<std::pair<Shape, Shape>> shapes = {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}};
    for (DType d : dtypes)
        for (const auto& [sa, sb] : shapes) {
            In a = V(d, sa), b = V(d, sb);
            if (gen_b == Gen::nonzero_int) b = zyx::dtype_is_float(d) ? P(d, sb, 0.5, 3) : NZ(d, sb, zyx::dtype_is_unsigned_int(d) ? 1 : -9, 9);
            if (gen_b == Gen::positive) b = zyx::dtype_is_float(d) ? P(d, sb, 0.5, 2) : I(d, sb, 0, 3);
            DType o = out ? out(d) : d;
            t.add(name + " " + dn(d) + " " + zyx::kernel::shape_string(sa) + "," + zyx::kernel::shape_string(sb), {a, b},
                  [op](const Ins& x, Device) { return op(x[0], x[1]); },
                  [f, o](const Refs& r) { return zip(r[0], r[1], o, f); });
        }
}

double py_mod(double a, double b) {
    double r = std::fmod(a, b);
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

Table binary_group() {
    Table t;
    std::vector<DType> numeric = {f32, f16, bf16, f64, i32, i8, u8, i64};
    binary(t, "add", numeric, [](const Tensor& a, const Tensor& b) { return a + b; }, [](double a, double b) { return a + b; });
    binary(t, "sub", numeric, [](const Tensor& a, const Tensor& b) { return a - b; }, [](double a, double b) { return a - b; });
    binary(t, "mul", numeric, [](const Tensor& a, const Tensor& b) { return a * b; }, [](double a, double b) { return a * b; });
    binary(t, "div", {f32, f16, bf16, f64}, [](const Tensor& a, const Tensor& b) { return a / b; },
           [](double a, double b) { return a / b; }, nullptr, Gen::nonzero_int);
    binary(t, "div i->f32", {i32, u8}, [](const Tensor& a, const Tensor& b) { return a / b; },
           [](double a, double b) { return a / b; }, [](DType) { return f32; }, Gen::nonzero_int);
    binary(t, "div_trunc", {i32, i8, f32}, [](const Tensor& a, const Tensor& b) { return a.div_trunc(b); },
           [](double a, double b) { return std::trunc(a / b); }, nullptr, Gen::nonzero_int);
    binary(t, "pow", {f32, f64, bf16}, [](const Tensor& a, const Tensor& b) { return a.abs().pow(b); },
           [](double a, double b) { return std::pow(std::fabs(a), b); });
    binary(t, "pow int", {i32, i64}, [](const Tensor& a, const Tensor& b) { return a.pow(b); },
           [](double a, double b) { return std::pow(a, b); }, nullptr, Gen::positive);
    binary(t, "maximum", {f32, bf16, i32, u8, b8}, [](const Tensor& a, const Tensor& b) { return a.maximum(b); }, nan_max);
    binary(t, "minimum", {f32, bf16, i32, u8, b8}, [](const Tensor& a, const Tensor& b) { return a.minimum(b); }, nan_min);
    binary(t, "fmod", {f32, f64, i32, i8}, [](const Tensor& a, const Tensor& b) { return a.fmod(b); },
           [](double a, double b) { return std::fmod(a, b); }, nullptr, Gen::nonzero_int);
    binary(t, "remainder", {f32, f64, i32, i8}, [](const Tensor& a, const Tensor& b) { return a.remainder(b); }, py_mod,
           nullptr, Gen::nonzero_int);
    // operator% is PyTorch's %: remainder, the sign of the divisor ((-3) % 2 == 1).
    binary(t, "operator%", {f32, i32}, [](const Tensor& a, const Tensor& b) { return a % b; }, py_mod, nullptr,
           Gen::nonzero_int);
    for (double s : {2.0, -3.0}) {
        std::string sn = std::to_string(int(s));
        t.add("i32 % " + sn, {I(i32, {2, 5})}, [s](const Ins& x, Device) { return x[0] % int(s); },
              [s](const Refs& r) { return map(r[0], i32, [s](double v) { return py_mod(v, s); }); });
        t.add("f32 % " + sn + ".5", {R(f32, {2, 5})}, [s](const Ins& x, Device) { return x[0] % (s + 0.5); },
              [s](const Refs& r) { return map(r[0], f32, [s](double v) { return py_mod(v, double(float(s + 0.5))); }); });
        t.add("i32 fmod " + sn, {I(i32, {2, 5})}, [s](const Ins& x, Device) { return x[0].fmod(int(s)); },
              [s](const Refs& r) { return map(r[0], i32, [s](double v) { return std::fmod(v, s); }); });
        t.add("f32 remainder " + sn, {R(f32, {2, 5})}, [s](const Ins& x, Device) { return x[0].remainder(s); },
              [s](const Refs& r) { return map(r[0], f32, [s](double v) { return py_mod(v, s); }); });
    }
    std::vector<DType> cmp = {f32, bf16, i32, u8, b8};
    auto to_bool = [](DType) { return b8; };
    binary(t, "eq", cmp, [](const Tensor& a, const Tensor& b) { return a == b; }, [](double a, double b) { return double(a == b); }, to_bool);
    binary(t, "ne", cmp, [](const Tensor& a, const Tensor& b) { return a != b; }, [](double a, double b) { return double(a != b); }, to_bool);
    binary(t, "lt", cmp, [](const Tensor& a, const Tensor& b) { return a < b; }, [](double a, double b) { return double(a < b); }, to_bool);
    binary(t, "le", cmp, [](const Tensor& a, const Tensor& b) { return a <= b; }, [](double a, double b) { return double(a <= b); }, to_bool);
    binary(t, "gt", cmp, [](const Tensor& a, const Tensor& b) { return a > b; }, [](double a, double b) { return double(a > b); }, to_bool);
    binary(t, "ge", cmp, [](const Tensor& a, const Tensor& b) { return a >= b; }, [](double a, double b) { return double(a >= b); }, to_bool);
    binary(t, "logical_and", {f32, i32, b8}, [](const Tensor& a, const Tensor& b) { return a.logical_and(b); },
           [](double a, double b) { return double(a != 0 && b != 0); }, to_bool);
    binary(t, "logical_or", {f32, i32, b8}, [](const Tensor& a, const Tensor& b) { return a.logical_or(b); },
           [](double a, double b) { return double(a != 0 || b != 0); }, to_bool);
    binary(t, "logical_xor", {f32, b8}, [](const Tensor& a, const Tensor& b) { return a.logical_xor(b); },
           [](double a, double b) { return double((a != 0) != (b != 0)); }, to_bool);
    auto bits = [](auto fn) { return [fn](double a, double b) { return double(fn(int64_t(a), int64_t(b))); }; };
    binary(t, "bitwise_and", {i32, u8, b8}, [](const Tensor& a, const Tensor& b) { return a & b; }, bits([](int64_t a, int64_t b) { return a & b; }));
    binary(t, "bitwise_or", {i32, u8, b8}, [](const Tensor& a, const Tensor& b) { return a | b; }, bits([](int64_t a, int64_t b) { return a | b; }));
    binary(t, "bitwise_xor", {i32, u8, b8}, [](const Tensor& a, const Tensor& b) { return a ^ b; }, bits([](int64_t a, int64_t b) { return a ^ b; }));
    binary(t, "shift_left", {i32, u32}, [](const Tensor& a, const Tensor& b) { return a << b; },
           bits([](int64_t a, int64_t b) { return a * (int64_t(1) << b); }), nullptr, Gen::positive);
    binary(t, "shift_right", {i32, u32}, [](const Tensor& a, const Tensor& b) { return a >> b; },
           bits([](int64_t a, int64_t b) { return a >= 0 ? a >> b : -((-a + (int64_t(1) << b) - 1) >> b); }), nullptr,
           Gen::positive);
    // bool arithmetic: add is or, mul is and.
    binary(t, "add bool", {b8}, [](const Tensor& a, const Tensor& b) { return a + b; },
           [](double a, double b) { return double(a != 0 || b != 0); });
    binary(t, "mul bool", {b8}, [](const Tensor& a, const Tensor& b) { return a * b; },
           [](double a, double b) { return double(a != 0 && b != 0); });

    // Promotion between tensors (result dtype is part of the check).
    struct Mix { DType a, b, out; };
    for (Mix m : {Mix{f32, i32, f32}, Mix{i8, u8, i16}, Mix{f16, bf16, f32}, Mix{b8, i32, i32}, Mix{u8, i32, i32},
                  Mix{i32, i64, i64}, Mix{f16, f64, f64}, Mix{u32, i32, i64}, Mix{b8, f16, f16}})
        t.add("promote " + dn(m.a) + "+" + dn(m.b), {V(m.a, {2, 3}), V(m.b, {3})},
              [](const Ins& x, Device) { return x[0] + x[1]; },
              [m](const Refs& r) { return zip(r[0], r[1], m.out, [](double a, double b) { return a + b; }); });
    // Promotion with numbers: the number does not lift the tensor beyond its category.
    t.add("f16 + 2.5 stays f16", {R(f16, {4})}, [](const Ins& x, Device) { return x[0] + 2.5; },
          [](const Refs& r) { return map(r[0], f16, [](double v) { return v + 2.5; }); });
    t.add("i32 * 0.5 -> f32", {I(i32, {4})}, [](const Ins& x, Device) { return x[0] * 0.5; },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return v * 0.5; }); });
    t.add("i8 + 100 stays i8 (wraps)", {I(i8, {5}, 20, 60)}, [](const Ins& x, Device) { return x[0] + 100; },
          [](const Refs& r) { return map(r[0], i8, [](double v) { return v + 100; }); });
    t.add("bool + 1 -> i32", {B({4})}, [](const Ins& x, Device) { return x[0] + 1; },
          [](const Refs& r) { return map(r[0], i32, [](double v) { return v + 1; }); });
    t.add("2 - f32", {R(f32, {2, 2})}, [](const Ins& x, Device) { return 2 - x[0]; },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return 2 - v; }); });
    t.add("1 / f32", {P(f32, {3})}, [](const Ins& x, Device) { return 1 / x[0]; },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return 1 / v; }); });
    t.add("pow f32 ^ 2", {R(f32, {3})}, [](const Ins& x, Device) { return x[0].pow(2); },
          [](const Refs& r) { return map(r[0], f32, [](double v) { return v * v; }); });
    t.add("i32 wraps on add", {I(i32, {2}, 2147483000, 2147483600)}, [](const Ins& x, Device) { return x[0] + 1000; },
          [](const Refs& r) { return map(r[0], i32, [](double v) { return v + 1000; }); });
    t.add("maximum NaN f32", {Sp(f32, {10}), R(f32, {10})}, [](const Ins& x, Device) { return x[0].maximum(x[1]); },
          [](const Refs& r) { return zip(r[0], r[1], f32, nan_max); });
    // where: bool condition, branches promoted, all three broadcast; numbers as branches.
    t.add("where f32,i32 -> f32", {B({2, 3}), R(f32, {3}), I(i32, {2, 1})},
          [](const Ins& x, Device) { return zyx::where(x[0], x[1], x[2]); }, [](const Refs& r) {
              Ref c = zip(r[0], r[1], f32, [](double c, double) { return c; });
              Ref xy = zip(r[1], r[2], f32, [](double a, double) { return a; });
              Ref yy = zip(r[1], r[2], f32, [](double, double b) { return b; });
              Ref out{c.shape, f32, {}};
              for (size_t i = 0; i < c.v.size(); ++i) out.v.push_back(c.v[i] != 0 ? xy.v[i] : yy.v[i]);
              return out;
          });
    t.add("where with numbers", {B({2, 3})}, [](const Ins& x, Device) { return zyx::where(x[0], 1.5, -2); },
          [](const Refs& r) { return map(r[0], f32, [](double c) { return c != 0 ? 1.5 : -2.0; }); });
    t.add("where bool,i8,number", {B({4}), I(i8, {4})}, [](const Ins& x, Device) { return zyx::where(x[0], x[1], 7); },
          [](const Refs& r) { return zip(r[0], r[1], i8, [](double c, double v) { return c != 0 ? v : 7.0; }); });
    // Empty and 0-d operands.
    t.add("add empty [0,3]+[3]", {R(f32, {0, 3}), R(f32, {3})}, [](const Ins& x, Device) { return x[0] + x[1]; },
          [](const Refs& r) { return zip(r[0], r[1], f32, [](double a, double b) { return a + b; }); });
    t.add("mul 0-d * [2,2]", {R(f32, {}), R(f32, {2, 2})}, [](const Ins& x, Device) { return x[0] * x[1]; },
          [](const Refs& r) { return zip(r[0], r[1], f32, [](double a, double b) { return a * b; }); });
    return t;
}

// ---- group: reduce --------------------------------------------------------------------------------

struct AxesCase {
    std::vector<int> axes;  // empty: the no-argument form (all axes)
    bool keepdim;
};
const std::vector<AxesCase> kAxes = {{{}, false}, {{1}, false}, {{0}, true}, {{-1, 0}, false}, {{0, 2}, true}};

std::string axes_name(const AxesCase& a) {
    std::string s = "(";
    for (int x : a.axes) s += std::to_string(x) + ",";
    return s + (a.keepdim ? "keep)" : ")");
}

using RedOp = std::function<Tensor(const Tensor&, const AxesCase&)>;

void reduction(Table& t, const std::string& name, const std::vector<DType>& dtypes, const RedOp& op,
               const std::function<Ref(const Ref&, const std::vector<int>&, bool)>& ref) {
    for (DType d : dtypes)
        for (const AxesCase& a : kAxes)
            t.add(name + " " + dn(d) + " " + axes_name(a), {V(d, {2, 3, 4})},
                  [op, a](const Ins& x, Device) { return op(x[0], a); }, [ref, a](const Refs& r) {
                      return ref(r[0], a.axes.empty() ? all_axes(r[0]) : a.axes, a.keepdim);
                  });
}

Ref mean_ref(const Ref& x, const std::vector<int>& axes, bool keep) {
    Ref s = reduce(x, axes, keep, f64, 0, [](double a, double b) { return a + b; });
    int64_t n = 1;
    for (int a : norm(axes, x.shape.size())) n *= x.shape[size_t(a)];
    return map(s, float_of(x.dtype), [n](double v) { return v / double(n); });
}

Ref var_ref(const Ref& x, const std::vector<int>& axes, bool keep, int correction) {
    std::vector<int> ax = norm(axes, x.shape.size());
    Ref m = mean_ref(cast(x, f64), ax, true);
    Ref d = zip(x, m, f64, [](double a, double b) { return (a - b) * (a - b); });
    Ref s = reduce(d, ax, keep, f64, 0, [](double a, double b) { return a + b; });
    int64_t n = 1;
    for (int a : ax) n *= x.shape[size_t(a)];
    return map(s, float_of(x.dtype), [n, correction](double v) { return v / double(std::max<int64_t>(0, n - correction)); });
}

Ref softmax_ref(const Ref& x, int axis, bool log) {
    Ref xf = cast(x, f64);
    Ref m = reduce(xf, {axis}, true, f64, -kInf, nan_max);
    Ref e = zip(xf, m, f64, [](double a, double b) { return std::exp(a - b); });
    Ref s = reduce(e, {axis}, true, f64, 0, [](double a, double b) { return a + b; });
    if (!log) return zip(e, s, float_of(x.dtype), [](double a, double b) { return a / b; });
    Ref ls = zip(m, s, f64, [](double a, double b) { return a + std::log(b); });
    return zip(xf, ls, float_of(x.dtype), [](double a, double b) { return a - b; });
}

Ref arg_ref(const Ref& x, int axis, bool keep, bool is_max) {
    int a = axis < 0 ? axis + int(x.shape.size()) : axis;
    Shape ks = x.shape;
    ks[size_t(a)] = 1;
    Ref r{ks, i32, {}};
    for (int64_t i = 0; i < numel(ks); ++i) {
        auto idx = unravel(i, ks);
        double best = 0;
        int64_t pos = -1;
        for (int64_t k = 0; k < x.shape[size_t(a)]; ++k) {
            idx[size_t(a)] = k;
            double v = x.v[size_t(ravel(idx, x.shape))];
            if (pos < 0 || std::isnan(v) || (!std::isnan(best) && (is_max ? v > best : v < best))) {
                if (pos >= 0 && std::isnan(best)) continue;
                best = v;
                pos = k;
            }
        }
        r.v.push_back(double(pos));
    }
    if (!keep) {
        Shape s = x.shape;
        s.erase(s.begin() + a);
        r.shape = s;
    }
    return r;
}

Table reduce_group() {
    Table t;
    auto add = [](double a, double b) { return a + b; };
    reduction(t, "sum", {f32, f16, bf16, f64, i32, i8, u8, b8},
              [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.sum() : x.sum(a.axes, a.keepdim); },
              [add](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, sum_of(x.dtype), 0, add); });
    reduction(t, "prod", {f32, i32},
              [](const Tensor& x, const AxesCase& a) {
                  Tensor y = x.dtype() == f32 ? x * 0.5 : x.clamp(-2, 2);  // keep products small
                  return a.axes.empty() ? y.prod() : y.prod(a.axes, a.keepdim);
              },
              [](const Ref& x, const std::vector<int>& ax, bool k) {
                  Ref y = map(x, x.dtype, [&](double v) { return x.dtype == f32 ? v * 0.5 : std::min(std::max(v, -2.0), 2.0); });
                  return reduce(y, ax, k, x.dtype, 1, [](double a, double b) { return a * b; });
              });
    reduction(t, "max", {f32, bf16, i32, u8, b8},
              [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.max() : x.max(a.axes, a.keepdim); },
              [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, -kInf, nan_max); });
    reduction(t, "min", {f32, bf16, i32, i8},
              [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.min() : x.min(a.axes, a.keepdim); },
              [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, kInf, nan_min); });
    reduction(t, "mean", {f32, f16, bf16, i32},
              [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.mean() : x.mean(a.axes, a.keepdim); },
              mean_ref);
    reduction(t, "var", {f32, bf16, i32},
              [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.var() : x.var(a.axes, a.keepdim); },
              [](const Ref& x, const std::vector<int>& ax, bool k) { return var_ref(x, ax, k, 1); });
    reduction(t, "std", {f32, f16},
              [](const Tensor& x, const AxesCase& a) {
                  return a.axes.empty() ? x.std() : x.std(a.axes, a.keepdim, 0);
              },
              [](const Ref& x, const std::vector<int>& ax, bool k) {
                  bool all = ax.size() == x.shape.size();
                  return map(var_ref(x, ax, k, all ? 1 : 0), float_of(x.dtype), [](double v) { return std::sqrt(v); });
              });
    reduction(t, "logsumexp", {f32, bf16},
              [](const Tensor& x, const AxesCase& a) {
                  return x.logsumexp(a.axes.empty() ? zyx::Axes({0, 1, 2}) : zyx::Axes(a.axes), a.keepdim);
              },
              [](const Ref& x, const std::vector<int>& ax, bool k) {
                  Ref m = reduce(x, ax, true, f64, -kInf, nan_max);
                  Ref e = zip(x, m, f64, [](double a, double b) { return std::exp(a - b); });
                  Ref s = reduce(e, ax, true, f64, 0, [](double a, double b) { return a + b; });
                  Ref r = zip(m, s, x.dtype, [](double a, double b) { return a + std::log(b); });
                  if (k) return r;
                  Shape sh;
                  std::vector<int> n = norm(ax, x.shape.size());
                  for (size_t d = 0; d < x.shape.size(); ++d)
                      if (std::find(n.begin(), n.end(), int(d)) == n.end()) sh.push_back(x.shape[d]);
                  return reshape(r, sh);
              });
    for (DType d : {f32, f16, bf16, f64})
        for (int axis : {-1, 0, 1}) {
            t.add("softmax " + dn(d) + " axis " + std::to_string(axis), {R(d, {3, 4}, -5, 5)},
                  [axis](const Ins& x, Device) { return x[0].softmax(axis); },
                  [axis](const Refs& r) { return softmax_ref(r[0], axis, false); });
            t.add("log_softmax " + dn(d) + " axis " + std::to_string(axis), {R(d, {3, 4}, -5, 5)},
                  [axis](const Ins& x, Device) { return x[0].log_softmax(axis); },
                  [axis](const Refs& r) { return softmax_ref(r[0], axis, true); });
        }
    t.add("softmax wide f32 [2,100]", {R(f32, {2, 100}, -20, 20)}, [](const Ins& x, Device) { return x[0].softmax(1); },
          [](const Refs& r) { return softmax_ref(r[0], 1, false); });
    // Long non-last axes: on the host the consumer kernel runs with the softmax axis innermost
    // and writes its output through a permuted view.
    t.add("softmax f32 [40,3] axis 0", {R(f32, {40, 3}, -5, 5)}, [](const Ins& x, Device) { return x[0].softmax(0); },
          [](const Refs& r) { return softmax_ref(r[0], 0, false); });
    t.add("log_softmax f32 [2,40,3] axis 1", {R(f32, {2, 40, 3}, -5, 5)},
          [](const Ins& x, Device) { return x[0].log_softmax(1); }, [](const Refs& r) { return softmax_ref(r[0], 1, true); });
    t.add("softmax bf16 [2,40,3] axis -2", {R(bf16, {2, 40, 3}, -5, 5)},
          [](const Ins& x, Device) { return x[0].softmax(-2); }, [](const Refs& r) { return softmax_ref(r[0], 1, false); });
    t.add("softmax i32 -> f32", {I(i32, {2, 3})}, [](const Ins& x, Device) { return x[0].softmax(1); },
          [](const Refs& r) { return softmax_ref(r[0], 1, false); });
    for (DType d : {f32, i32, bf16})
        for (int axis : {0, 1, -1})
            for (bool keep : {false, true}) {
                // Integer values with ties: the first position must win.
                In in = zyx::dtype_is_float(d) ? I(d, {3, 5}, -2, 2) : I(d, {3, 5}, -2, 2);
                std::string suffix = dn(d) + " axis " + std::to_string(axis) + (keep ? " keep" : "");
                t.add("argmax " + suffix, {in}, [axis, keep](const Ins& x, Device) { return x[0].argmax(axis, keep); },
                      [axis, keep](const Refs& r) { return arg_ref(r[0], axis, keep, true); });
                t.add("argmin " + suffix, {in}, [axis, keep](const Ins& x, Device) { return x[0].argmin(axis, keep); },
                      [axis, keep](const Refs& r) { return arg_ref(r[0], axis, keep, false); });
            }
    t.add("argmax flat", {I(f32, {3, 4}, -3, 3)}, [](const Ins& x, Device) { return x[0].argmax(); },
          [](const Refs& r) { return arg_ref(reshape(r[0], {12}), 0, false, true); });
    t.add("argmax NaN first", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].argmax(1); },
          [](const Refs& r) { return arg_ref(r[0], 1, false, true); });
    // Empty reductions: identities. Size-1 axes.
    t.add("sum over empty axis", {R(f32, {2, 0})}, [](const Ins& x, Device) { return x[0].sum(1); },
          [add](const Refs& r) { return reduce(r[0], {1}, false, f32, 0, add); });
    t.add("prod over empty axis", {R(f32, {0, 2})}, [](const Ins& x, Device) { return x[0].prod(0); },
          [](const Refs& r) { return reduce(r[0], {0}, false, f32, 1, [](double a, double b) { return a * b; }); });
    t.add("max over empty axis", {R(f32, {3, 0})}, [](const Ins& x, Device) { return x[0].max(1); },
          [](const Refs& r) { return reduce(r[0], {1}, false, f32, -kInf, nan_max); });
    t.add("sum of empty [0]", {R(i32, {0})}, [](const Ins& x, Device) { return x[0].sum(); },
          [add](const Refs& r) { return reduce(r[0], {0}, false, i32, 0, add); });
    t.add("sum size-1 axes", {R(f32, {1, 4, 1})}, [](const Ins& x, Device) { return x[0].sum({0, 2}); },
          [add](const Refs& r) { return reduce(r[0], {0, 2}, false, f32, 0, add); });
    t.add("sum 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].sum(); },
          [](const Refs& r) { return r[0]; });
    t.add("max NaN propagates", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].max(1); },
          [](const Refs& r) { return reduce(r[0], {1}, false, f32, -kInf, nan_max); });
    return t;
}

// ---- group: movement ------------------------------------------------------------------------------

const std::vector<DType> kMoveDtypes = {f32, i32, b8, bf16};

void movement(Table& t, const std::string& name, const Shape& in_shape, const std::function<Tensor(const Tensor&)>& op,
              const std::function<Ref(const Ref&)>& ref) {
    for (DType d : kMoveDtypes)
        t.add(name + " " + dn(d), {V(d, in_shape)}, [op](const Ins& x, Device) { return op(x[0]); },
              [ref](const Refs& r) { return ref(r[0]); });
}

// Slice reference: [b, e) step s of one axis (b, e already normalised).
Ref slice_ref(const Ref& a, int axis, int64_t b, int64_t e, int64_t s) {
    Shape out = a.shape;
    out[size_t(axis)] = e > b ? (e - b + s - 1) / s : 0;
    return gather(a, out, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
        in = o;
        in[size_t(axis)] = b + o[size_t(axis)] * s;
        return true;
    });
}

Ref pad_ref(const Ref& a, const std::vector<std::pair<int64_t, int64_t>>& p, double value) {
    Shape out = a.shape;
    for (size_t d = 0; d < p.size(); ++d) out[d] += p[d].first + p[d].second;
    return gather(a, out, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
        in = o;
        for (size_t d = 0; d < p.size(); ++d) {
            in[d] = o[d] - p[d].first;
            if (in[d] < 0 || in[d] >= a.shape[d]) return false;
        }
        return true;
    }, as_dtype(value, a.dtype));
}

Ref cat_ref(const Refs& parts, int axis, DType t) {
    Shape out = parts[0].shape;
    out[size_t(axis)] = 0;
    for (const Ref& p : parts) out[size_t(axis)] += p.shape[size_t(axis)];
    Ref r{out, t, {}};
    for (int64_t i = 0; i < numel(out); ++i) {
        auto idx = unravel(i, out);
        int64_t k = idx[size_t(axis)];
        for (const Ref& p : parts) {
            if (k < p.shape[size_t(axis)]) {
                idx[size_t(axis)] = k;
                r.v.push_back(as_dtype(p.v[size_t(ravel(idx, p.shape))], t));
                break;
            }
            k -= p.shape[size_t(axis)];
        }
    }
    return r;
}

Table movement_group() {
    Table t;
    movement(t, "reshape -1", {2, 3, 4}, [](const Tensor& x) { return x.reshape({4, -1}); },
             [](const Ref& a) { return reshape(a, {4, 6}); });
    movement(t, "flatten 1..2", {2, 3, 4}, [](const Tensor& x) { return x.flatten(1); },
             [](const Ref& a) { return reshape(a, {2, 12}); });
    movement(t, "permute", {2, 3, 4}, [](const Tensor& x) { return x.permute({2, 0, 1}); },
             [](const Ref& a) { return permute(a, {2, 0, 1}); });
    movement(t, "transpose", {2, 3, 4}, [](const Tensor& x) { return x.transpose(0, 2); },
             [](const Ref& a) { return permute(a, {2, 1, 0}); });
    movement(t, "transpose then reshape", {3, 4}, [](const Tensor& x) { return x.transpose().reshape({2, 6}); },
             [](const Ref& a) { return reshape(permute(a, {1, 0}), {2, 6}); });
    movement(t, "expand", {3, 1}, [](const Tensor& x) { return x.expand({2, 3, 4}); }, [](const Ref& a) {
        return gather(a, {2, 3, 4}, a.dtype, [](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
            in = {o[1], 0};
            return true;
        });
    });
    movement(t, "pad", {2, 3}, [](const Tensor& x) { return x.pad({{1, 0}, {2, 1}}); },
             [](const Ref& a) { return pad_ref(a, {{1, 0}, {2, 1}}, 0); });
    movement(t, "pad value 1", {2, 3}, [](const Tensor& x) { return x.pad({{0, 1}, {1, 1}}, 1); },
             [](const Ref& a) { return pad_ref(a, {{0, 1}, {1, 1}}, 1); });
    movement(t, "pad negative crops", {3, 4}, [](const Tensor& x) { return x.pad({{-1, 1}, {0, -2}}); }, [](const Ref& a) {
        Ref c = slice_ref(slice_ref(a, 0, 1, 3, 1), 1, 0, 2, 1);
        return pad_ref(c, {{0, 1}, {0, 0}}, 0);
    });
    movement(t, "pad twice", {2, 2}, [](const Tensor& x) { return x.pad({{1, 1}}).pad({{0, 0}, {1, 0}}); },
             [](const Ref& a) { return pad_ref(pad_ref(a, {{1, 1}}, 0), {{0, 0}, {1, 0}}, 0); });
    movement(t, "slice step 2", {5, 4}, [](const Tensor& x) { return x.slice(0, 1, 5, 2); },
             [](const Ref& a) { return slice_ref(a, 0, 1, 5, 2); });
    movement(t, "slice negative", {5, 4}, [](const Tensor& x) { return x.slice(-1, -3, -1); },
             [](const Ref& a) { return slice_ref(a, 1, 1, 3, 1); });
    movement(t, "slice empty", {5, 4}, [](const Tensor& x) { return x.slice(0, 3, 3); },
             [](const Ref& a) { return slice_ref(a, 0, 3, 3, 1); });
    movement(t, "index int+range", {4, 5}, [](const Tensor& x) { return x.index({1, zyx::Range(0, 5, 2)}); },
             [](const Ref& a) { return reshape(slice_ref(slice_ref(a, 0, 1, 2, 1), 1, 0, 5, 2), {3}); });
    movement(t, "operator[] -1", {3, 2}, [](const Tensor& x) { return x[-1]; },
             [](const Ref& a) { return reshape(slice_ref(a, 0, 2, 3, 1), {2}); });
    movement(t, "flip", {3, 4}, [](const Tensor& x) { return x.flip({0, 1}); }, [](const Ref& a) {
        return gather(a, a.shape, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
            in = {a.shape[0] - 1 - o[0], a.shape[1] - 1 - o[1]};
            return true;
        });
    });
    movement(t, "flip then slice", {6}, [](const Tensor& x) { return x.flip(0).slice(0, 1, 6, 2); },
             [](const Ref& a) {
                 Ref f = gather(a, a.shape, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                     in = {a.shape[0] - 1 - o[0]};
                     return true;
                 });
                 return slice_ref(f, 0, 1, 6, 2);
             });
    movement(t, "squeeze", {1, 3, 1}, [](const Tensor& x) { return x.squeeze(); }, [](const Ref& a) { return reshape(a, {3}); });
    movement(t, "squeeze axis", {1, 3, 1}, [](const Tensor& x) { return x.squeeze(-1); },
             [](const Ref& a) { return reshape(a, {1, 3}); });
    movement(t, "unsqueeze", {2, 3}, [](const Tensor& x) { return x.unsqueeze(1); },
             [](const Ref& a) { return reshape(a, {2, 1, 3}); });
    movement(t, "unsqueeze end", {2, 3}, [](const Tensor& x) { return x.unsqueeze(-1); },
             [](const Ref& a) { return reshape(a, {2, 3, 1}); });
    movement(t, "repeat", {2, 3}, [](const Tensor& x) { return x.repeat({2, 1, 2}); }, [](const Ref& a) {
        return gather(a, {2, 2, 6}, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
            in = {o[1] % 2, o[2] % 3};
            return true;
        });
    });
    movement(t, "split [1]", {5, 2}, [](const Tensor& x) { return x.split(2, 0)[1]; },
             [](const Ref& a) { return slice_ref(a, 0, 2, 4, 1); });
    movement(t, "split last short", {5, 2}, [](const Tensor& x) { return x.split(2, 0)[2]; },
             [](const Ref& a) { return slice_ref(a, 0, 4, 5, 1); });
    movement(t, "split sizes", {2, 6}, [](const Tensor& x) { return x.split(std::vector<int64_t>{1, 3, 2}, 1)[1]; },
             [](const Ref& a) { return slice_ref(a, 1, 1, 4, 1); });
    movement(t, "chunk", {7}, [](const Tensor& x) { return x.chunk(3)[2]; }, [](const Ref& a) { return slice_ref(a, 0, 6, 7, 1); });
    for (DType d : kMoveDtypes) {
        t.add("cat axis 1 " + dn(d), {V(d, {2, 3}), V(d, {2, 1}), V(d, {2, 0}), V(d, {2, 2})},
              [](const Ins& x, Device) { return zyx::cat(x, 1); }, [d](const Refs& r) { return cat_ref(r, 1, d); });
        t.add("stack axis 0 " + dn(d), {V(d, {2, 3}), V(d, {2, 3})}, [](const Ins& x, Device) { return zyx::stack(x, 0); },
              [d](const Refs& r) { return cat_ref({reshape(r[0], {1, 2, 3}), reshape(r[1], {1, 2, 3})}, 0, d); });
        t.add("stack axis -1 " + dn(d), {V(d, {3}), V(d, {3})}, [](const Ins& x, Device) { return zyx::stack(x, -1); },
              [d](const Refs& r) { return cat_ref({reshape(r[0], {3, 1}), reshape(r[1], {3, 1})}, 1, d); });
    }
    t.add("cat promotes i32,f32", {I(i32, {2}), R(f32, {3})}, [](const Ins& x, Device) { return zyx::cat(x); },
          [](const Refs& r) { return cat_ref(r, 0, f32); });
    t.add("cat keeps -0.0", {Sp(f32, {10}), Sp(f32, {10})}, [](const Ins& x, Device) { return zyx::cat(x).sign(); },
          [](const Refs& r) { return map(cat_ref(r, 0, f32), f32, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; }); });
    t.add("cat of computed", {R(f32, {2}), R(f32, {2})}, [](const Ins& x, Device) { return zyx::cat({x[0].exp(), x[1] * 2}); },
          [](const Refs& r) {
              return cat_ref({map(r[0], f32, [](double v) { return std::exp(v); }), map(r[1], f32, [](double v) { return 2 * v; })}, 0, f32);
          });
    t.add("expand of computed then sum", {R(f32, {3, 1})},
          [](const Ins& x, Device) { return x[0].exp().expand({3, 4}).sum(0); }, [](const Refs& r) {
              Ref e = map(r[0], f64, [](double v) { return std::exp(v); });
              Ref big = gather(e, {3, 4}, f64, [](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                  in = {o[0], 0};
                  return true;
              });
              return reduce(big, {0}, false, f32, 0, [](double a, double b) { return a + b; });
          });
    t.add("contiguous of permuted", {R(f32, {2, 3})}, [](const Ins& x, Device) { return x[0].permute({1, 0}).contiguous(); },
          [](const Refs& r) { return permute(r[0], {1, 0}); });
    return t;
}

// ---- group: nn and creation ------------------------------------------------------------------------

Ref matmul_ref(const Ref& a, const Ref& b, DType t) {
    // a [..., M, K] @ b [..., K, N] (both at least 2-D here), batch broadcast.
    size_t ra = a.shape.size(), rb = b.shape.size();
    int64_t M = a.shape[ra - 2], K = a.shape[ra - 1], N = b.shape[rb - 1];
    Shape ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
    Shape batch = bshape(ba, bb);
    Shape out = batch;
    out.insert(out.end(), {M, N});
    Ref r{out, t, {}};
    for (int64_t i = 0; i < numel(out); ++i) {
        auto idx = unravel(i, out);
        std::vector<int64_t> bi(idx.begin(), idx.end() - 2);
        double s = 0;
        for (int64_t k = 0; k < K; ++k) {
            std::vector<int64_t> ia = bi, ib = bi;
            ia.insert(ia.end(), {idx[idx.size() - 2], k});
            ib.insert(ib.end(), {k, idx.back()});
            Shape sa = batch, sb = batch;
            sa.insert(sa.end(), {M, K});
            sb.insert(sb.end(), {K, N});
            s += at_broadcast(a, ia) * at_broadcast(b, ib);
        }
        r.v.push_back(as_dtype(s, t));
    }
    return r;
}

Ref conv_ref(const Ref& x, const Ref& w, const Ref* bias, zyx::Conv2dOptions o) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    int64_t O = w.shape[0], Cg = w.shape[1], k = w.shape[2], G = o.groups, Og = O / G;
    int64_t OH = (H + 2 * o.padding - o.dilation * (k - 1) - 1) / o.stride + 1;
    int64_t OW = (W + 2 * o.padding - o.dilation * (k - 1) - 1) / o.stride + 1;
    (void)C;
    Ref r{{N, O, OH, OW}, x.dtype, {}};
    for (int64_t n = 0; n < N; ++n)
        for (int64_t oc = 0; oc < O; ++oc)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double s = bias ? bias->v[size_t(oc)] : 0;
                    int64_t g = oc / Og;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t kh = 0; kh < k; ++kh)
                            for (int64_t kw = 0; kw < k; ++kw) {
                                int64_t h = oh * o.stride - o.padding + kh * o.dilation;
                                int64_t ww = ow * o.stride - o.padding + kw * o.dilation;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                s += x.v[size_t(ravel({n, g * Cg + c, h, ww}, x.shape))] *
                                     w.v[size_t(ravel({oc, c, kh, kw}, w.shape))];
                            }
                    r.v.push_back(as_dtype(s, x.dtype));
                }
    return r;
}

Ref pool_ref(const Ref& x, int64_t k, int64_t stride, int64_t pad, bool is_max) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    int64_t OH = (H + 2 * pad - k) / stride + 1, OW = (W + 2 * pad - k) / stride + 1;
    Ref r{{N, C, OH, OW}, float_of(x.dtype), {}};
    if (is_max) r.dtype = x.dtype;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double acc = is_max ? -kInf : 0;
                    for (int64_t kh = 0; kh < k; ++kh)
                        for (int64_t kw = 0; kw < k; ++kw) {
                            int64_t h = oh * stride - pad + kh, w = ow * stride - pad + kw;
                            double v = (h < 0 || h >= H || w < 0 || w >= W) ? (is_max ? -kInf : 0)
                                                                            : x.v[size_t(ravel({n, c, h, w}, x.shape))];
                            acc = is_max ? nan_max(acc, v) : acc + v;
                        }
                    r.v.push_back(as_dtype(is_max ? acc : acc / double(k * k), r.dtype));
                }
    return r;
}

Table nn_group() {
    Table t;
    struct MM { Shape a, b; };
    for (DType d : {f32, f16, bf16, i32})
        for (MM m : {MM{{3, 4}, {4, 5}}, MM{{2, 1, 3, 4}, {3, 4, 2}}, MM{{1, 4}, {4, 1}}, MM{{2, 0}, {0, 3}}})
            t.add("matmul " + dn(d) + " " + zyx::kernel::shape_string(m.a) + "@" + zyx::kernel::shape_string(m.b),
                  {V(d, m.a), V(d, m.b)}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
                  [d](const Refs& r) { return matmul_ref(r[0], r[1], d); });
    t.add("matmul 1-D @ 2-D", {R(f32, {4}), R(f32, {4, 3})}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
          [](const Refs& r) { return reshape(matmul_ref(reshape(r[0], {1, 4}), r[1], f32), {3}); });
    t.add("matmul 2-D @ 1-D", {R(f32, {2, 4}), R(f32, {4})}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
          [](const Refs& r) { return reshape(matmul_ref(r[0], reshape(r[1], {4, 1}), f32), {2}); });
    t.add("matmul i8 x f32 -> f32", {I(i8, {2, 3}), R(f32, {3, 2})}, [](const Ins& x, Device) { return zyx::matmul(x[0], x[1]); },
          [](const Refs& r) { return matmul_ref(r[0], r[1], f32); });
    t.add("dot", {R(f32, {5}), R(f32, {5})}, [](const Ins& x, Device) { return zyx::dot(x[0], x[1]); },
          [](const Refs& r) { return reshape(matmul_ref(reshape(r[0], {1, 5}), reshape(r[1], {5, 1}), f32), {}); });
    t.add("relu(x @ w + b)", {R(f32, {3, 4}), R(f32, {4, 5}), R(f32, {5})},
          [](const Ins& x, Device) { return (x[0].matmul(x[1]) + x[2]).relu(); }, [](const Refs& r) {
              return map(zip(matmul_ref(r[0], r[1], f64), r[2], f64, [](double a, double b) { return a + b; }), f32,
                         [](double v) { return v < 0 ? 0 : v; });
          });
    t.add("relu(x) @ w", {R(f32, {3, 4}), R(f32, {4, 2})}, [](const Ins& x, Device) { return x[0].relu().matmul(x[1]); },
          [](const Refs& r) { return matmul_ref(map(r[0], f64, [](double v) { return v < 0 ? 0 : v; }), r[1], f32); });

    struct Conv { Shape x, w; zyx::Conv2dOptions o; bool bias; };
    for (Conv c : {Conv{{2, 3, 5, 5}, {4, 3, 3, 3}, {}, true}, Conv{{1, 2, 6, 6}, {2, 2, 3, 3}, {2, 1, 1, 1}, false},
                   Conv{{1, 4, 7, 7}, {4, 2, 2, 2}, {1, 0, 2, 2}, true}, Conv{{1, 1, 4, 4}, {1, 1, 1, 1}, {}, false}})
        for (DType d : {f32, bf16}) {
            std::string name = "conv2d " + dn(d) + " x" + zyx::kernel::shape_string(c.x) + " w" +
                               zyx::kernel::shape_string(c.w) + " s" + std::to_string(c.o.stride) + " p" +
                               std::to_string(c.o.padding) + " d" + std::to_string(c.o.dilation) + " g" +
                               std::to_string(c.o.groups);
            std::vector<In> in = {R(d, c.x), R(d, c.w, -1, 1)};
            if (c.bias) in.push_back(R(d, {c.w[0]}));
            t.add(name, in, [c](const Ins& x, Device) { return zyx::conv2d(x[0], x[1], c.bias ? x[2] : Tensor(), c.o); },
                  [c](const Refs& r) { return conv_ref(r[0], r[1], c.bias ? &r[2] : nullptr, c.o); },
                  d == bf16 ? 2 : 1);
        }
    for (DType d : {f32, bf16, i32}) {
        t.add("max_pool2d k2 " + dn(d), {V(d, {1, 2, 4, 5})}, [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 2); },
              [](const Refs& r) { return pool_ref(r[0], 2, 2, 0, true); });
        t.add("max_pool2d k3 s1 p1 " + dn(d), {V(d, {2, 1, 4, 4})},
              [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 3, 1, 1); },
              [](const Refs& r) { return pool_ref(r[0], 3, 1, 1, true); });
    }
    for (DType d : {f32, bf16})
        t.add("avg_pool2d k2 s1 p1 " + dn(d), {R(d, {1, 2, 4, 4})},
              [](const Ins& x, Device) { return zyx::avg_pool2d(x[0], 2, 1, 1); },
              [](const Refs& r) { return pool_ref(r[0], 2, 1, 1, false); });
    t.add("max_pool2d 3-D input", {R(f32, {2, 4, 4})}, [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 2); },
          [](const Refs& r) { return reshape(pool_ref(reshape(r[0], {1, 2, 4, 4}), 2, 2, 0, true), {2, 2, 2}); });
    for (DType d : {f32, bf16})
        t.add("layer_norm " + dn(d), {R(d, {2, 3, 4}), R(d, {4}), R(d, {4})},
              [](const Ins& x, Device) { return zyx::layer_norm(x[0], {4}, x[1], x[2]); }, [d](const Refs& r) {
                  Ref xf = cast(r[0], f64);
                  Ref m = mean_ref(xf, {2}, true);
                  Ref c = zip(xf, m, f64, [](double a, double b) { return a - b; });
                  Ref v = mean_ref(map(c, f64, [](double a) { return a * a; }), {2}, true);
                  Ref y = zip(c, v, f64, [](double a, double b) { return a / std::sqrt(b + 1e-5); });
                  y = zip(y, r[1], f64, [](double a, double b) { return a * b; });
                  return zip(y, r[2], d, [](double a, double b) { return a + b; });
              }, d == bf16 ? 2 : 1);
    t.add("layer_norm over 2 axes", {R(f32, {2, 3, 4})}, [](const Ins& x, Device) { return zyx::layer_norm(x[0], {3, 4}); },
          [](const Refs& r) {
              Ref m = mean_ref(r[0], {1, 2}, true);
              Ref c = zip(r[0], m, f64, [](double a, double b) { return a - b; });
              Ref v = mean_ref(map(c, f64, [](double a) { return a * a; }), {1, 2}, true);
              return zip(c, v, f32, [](double a, double b) { return a / std::sqrt(b + 1e-5); });
          });
    t.add("cross_entropy", {R(f32, {4, 5}, -3, 3), I(i32, {4}, 0, 4)},
          [](const Ins& x, Device) { return zyx::cross_entropy(x[0], x[1]); }, [](const Refs& r) {
              Ref l = softmax_ref(r[0], 1, true);
              double s = 0;
              for (int64_t n = 0; n < 4; ++n) s -= l.v[size_t(n * 5 + int64_t(r[1].v[size_t(n)]))];
              return Ref{{}, f32, {as_dtype(s / 4, f32)}};
          });
    t.add("cross_entropy 1-D", {R(f32, {6}), I(i64, {}, 0, 5)},
          [](const Ins& x, Device) { return zyx::cross_entropy(x[0], x[1]); }, [](const Refs& r) {
              Ref l = softmax_ref(reshape(r[0], {1, 6}), 1, true);
              return Ref{{}, f32, {as_dtype(-l.v[size_t(r[1].v[0])], f32)}};
          });
    t.add("mse_loss", {R(f32, {3, 4}), R(f32, {4})}, [](const Ins& x, Device) { return zyx::mse_loss(x[0], x[1]); },
          [](const Refs& r) {
              Ref d = zip(r[0], r[1], f64, [](double a, double b) { return (a - b) * (a - b); });
              return cast(mean_ref(d, {0, 1}, false), f32);
          });

    // Creation on the device (no inputs).
    auto none = std::vector<In>{};
    auto fill_ref = [](Shape s, DType t, std::function<double(int64_t)> f) {
        Ref r{s, t, {}};
        for (int64_t i = 0; i < numel(s); ++i) r.v.push_back(as_dtype(f(i), t));
        return r;
    };
    for (DType d : {f32, i32, b8, bf16, u8}) {
        t.add("zeros " + dn(d), none, [d](const Ins&, Device dev) { return zyx::zeros({2, 3}, d, dev); },
              [fill_ref, d](const Refs&) { return fill_ref({2, 3}, d, [](int64_t) { return 0; }); });
        t.add("ones " + dn(d), none, [d](const Ins&, Device dev) { return zyx::ones({3}, d, dev); },
              [fill_ref, d](const Refs&) { return fill_ref({3}, d, [](int64_t) { return 1; }); });
        t.add("full " + dn(d), none, [d](const Ins&, Device dev) { return zyx::full({2, 2}, 7, d, dev); },
              [fill_ref, d](const Refs&) { return fill_ref({2, 2}, d, [](int64_t) { return 7; }); });
    }
    t.add("full 0-d f32", none, [](const Ins&, Device dev) { return zyx::full({}, 2.5, f32, dev); },
          [fill_ref](const Refs&) { return fill_ref({}, f32, [](int64_t) { return 2.5; }); });
    t.add("zeros empty", none, [](const Ins&, Device dev) { return zyx::zeros({0, 4}, f32, dev); },
          [fill_ref](const Refs&) { return fill_ref({0, 4}, f32, [](int64_t) { return 0; }); });
    t.add("arange int", none, [](const Ins&, Device dev) { return zyx::arange(2, 11, 3, i32, dev); },
          [fill_ref](const Refs&) { return fill_ref({3}, i32, [](int64_t i) { return 2 + 3 * i; }); });
    t.add("arange negative step", none, [](const Ins&, Device dev) { return zyx::arange(5, -2, -2, i64, dev); },
          [fill_ref](const Refs&) { return fill_ref({4}, i64, [](int64_t i) { return 5 - 2 * i; }); });
    t.add("arange float", none, [](const Ins&, Device dev) { return zyx::arange(0, 1, 0.25, f32, dev); },
          [fill_ref](const Refs&) { return fill_ref({4}, f32, [](int64_t i) { return 0.25 * double(i); }); });
    t.add("arange empty", none, [](const Ins&, Device dev) { return zyx::arange(3, 3, 1, i32, dev); },
          [fill_ref](const Refs&) { return fill_ref({0}, i32, [](int64_t) { return 0; }); });
    t.add("arange reshaped, transposed", none,
          [](const Ins&, Device dev) { return zyx::arange(0, 6, 1, f32, dev).reshape({2, 3}).transpose(); },
          [fill_ref](const Refs&) { return fill_ref({3, 2}, f32, [](int64_t i) { return double((i % 2) * 3 + i / 2); }); });
    t.add("arange padded", none, [](const Ins&, Device dev) { return zyx::arange(1, 4, 1, i32, dev).pad({{1, 1}}); },
          [fill_ref](const Refs&) { return fill_ref({5}, i32, [](int64_t i) { return i >= 1 && i <= 3 ? double(i) : 0.0; }); });
    for (DType d : {f32, f64, bf16})
        t.add("linspace " + dn(d), none, [d](const Ins&, Device dev) { return zyx::linspace(-1, 2, 7, d, dev); },
              [fill_ref, d](const Refs&) { return fill_ref({7}, d, [](int64_t i) { return -1 + 0.5 * double(i); }); });
    t.add("linspace i32", none, [](const Ins&, Device dev) { return zyx::linspace(0, 10, 5, i32, dev); },
          [fill_ref](const Refs&) { return fill_ref({5}, i32, [](int64_t i) { return 2.5 * double(i); }); });
    t.add("linspace 1 step", none, [](const Ins&, Device dev) { return zyx::linspace(3, 9, 1, f32, dev); },
          [fill_ref](const Refs&) { return fill_ref({1}, f32, [](int64_t) { return 3; }); });
    for (DType d : {f32, i32, b8})
        t.add("eye 3x4 " + dn(d), none, [d](const Ins&, Device dev) { return zyx::eye(3, 4, d, dev); },
              [fill_ref, d](const Refs&) { return fill_ref({3, 4}, d, [](int64_t i) { return double(i / 4 == i % 4); }); });
    t.add("zeros_like + full_like", {R(bf16, {2, 2})},
          [](const Ins& x, Device) { return zyx::zeros_like(x[0]) + zyx::full_like(x[0], 3); },
          [fill_ref](const Refs&) { return fill_ref({2, 2}, bf16, [](int64_t) { return 3; }); });
    t.add("scalar_tensor", none, [](const Ins&, Device dev) { return zyx::scalar_tensor(4, i16, dev) * 2; },
          [fill_ref](const Refs&) { return fill_ref({}, i16, [](int64_t) { return 8; }); });
    return t;
}

// ---- the runner ------------------------------------------------------------------------------------

struct Tol {
    double atol, rtol;
};
Tol tolerance(DType t) {
    switch (t) {
        case DType::f64: return {1e-12, 1e-10};
        case DType::f32: return {1e-5, 1e-5};
        case DType::f16: return {1e-3, 2e-3};
        case DType::bf16: return {1e-2, 1.6e-2};
        default: return {0, 0};
    }
}

bool same_value(double got, double want, DType t, double scale, double atol_floor) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    Tol tol = tolerance(t);
    return std::fabs(got - want) <= scale * (std::max(tol.atol, atol_floor) + tol.rtol * std::fabs(want));
}

// Host bytes of values in dtype t.
std::vector<uint8_t> to_bytes(const std::vector<double>& v, DType t) {
    size_t sz = zyx::dtype_size(t);
    std::vector<uint8_t> out(v.size() * sz);
    for (size_t i = 0; i < v.size(); ++i) {
        uint64_t b = zyx::dtype_is_float(t) ? zyx::kernel::bits_from_double(t, v[i])
                                            : zyx::kernel::bits_from_int(t, int64_t(v[i]));
        std::memcpy(out.data() + i * sz, &b, sz);
    }
    return out;
}

// A device tensor holding `v` (shape s), as a contiguous buffer or through a non-contiguous view.
Tensor make_input(const std::vector<double>& v, const Shape& s, DType t, Device dev, int layout, std::mt19937_64& rng) {
    if (layout == 0 || s.empty()) {
        std::vector<uint8_t> b = to_bytes(v, t);
        return zyx::from_bytes(b.data(), b.size(), s, t, dev);
    }
    if (layout == 1 && s.size() >= 2) {  // stored transposed (axes reversed), viewed back
        Shape rs(s.rbegin(), s.rend());
        std::vector<double> tv(v.size());
        for (int64_t i = 0; i < numel(s); ++i) {
            auto idx = unravel(i, s);
            std::vector<int64_t> ridx(idx.rbegin(), idx.rend());
            tv[size_t(ravel(ridx, rs))] = v[size_t(i)];
        }
        std::vector<uint8_t> b = to_bytes(tv, t);
        std::vector<int> perm(s.size());
        for (size_t d = 0; d < s.size(); ++d) perm[d] = int(s.size() - 1 - d);
        return zyx::from_bytes(b.data(), b.size(), rs, t, dev).permute(perm);
    }
    // Every second element of a buffer twice as long along the last axis (odd ones are junk).
    Shape ws = s;
    ws.back() *= 2;
    std::vector<double> wv(size_t(numel(ws)));
    std::uniform_int_distribution<int> junk(0, 1);
    for (int64_t i = 0; i < numel(ws); ++i) {
        auto idx = unravel(i, ws);
        int64_t last = idx.back();
        if (last % 2 == 0) {
            idx.back() = last / 2;
            wv[size_t(i)] = v[size_t(ravel(idx, s))];
        } else {
            wv[size_t(i)] = junk(rng);
        }
    }
    std::vector<uint8_t> b = to_bytes(wv, t);
    return zyx::from_bytes(b.data(), b.size(), ws, t, dev).slice(-1, 0, ws.back(), 2);
}

struct Result {
    std::string label;
    Tensor out;
    Ref want;
    double tol_scale;
    double atol_floor;
    std::string error;  // thrown while building
};

std::string describe_values(const std::vector<double>& v, size_t around) {
    std::ostringstream os;
    size_t b = around > 3 ? around - 3 : 0;
    for (size_t i = b; i < v.size() && i < b + 8; ++i) os << (i == around ? "[" : "") << v[i] << (i == around ? "]" : "") << " ";
    return os.str();
}

// Checks one result against the reference; returns "" or a description of the mismatch.
std::string check(const Result& r, const std::vector<double>& got) {
    std::ostringstream os;
    if (r.out.shape() != r.want.shape)
        return "shape " + zyx::kernel::shape_string(r.out.shape()) + ", expected " + zyx::kernel::shape_string(r.want.shape);
    if (r.out.dtype() != r.want.dtype) return "dtype " + dn(r.out.dtype()) + ", expected " + dn(r.want.dtype);
    for (size_t i = 0; i < got.size(); ++i)
        if (!same_value(got[i], r.want.v[i], r.want.dtype, r.tol_scale, r.atol_floor)) {
            os << "element " << i << ": got " << got[i] << ", expected " << r.want.v[i] << " (got: "
               << describe_values(got, i) << "; expected: " << describe_values(r.want.v, i) << ")";
            return os.str();
        }
    return "";
}

const std::vector<std::string> kGroupNames = {"unary", "binary", "reduce", "movement", "nn"};
Table make_group(const std::string& g) {
    if (g == "unary") return unary_group();
    if (g == "binary") return binary_group();
    if (g == "reduce") return reduce_group();
    if (g == "movement") return movement_group();
    return nn_group();
}

bool device_available(Device d) {
    if (d.kind() != Device::Kind::tt) return true;  // host and interpreter always exist
    for (Device a : zyx::available_devices())
        if (a == d) return true;
    return false;
}

class OpTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(OpTest, AgainstReference) {
    auto [device_name, group] = GetParam();
    Device dev = Device::parse(device_name);
    if (!device_available(dev)) GTEST_SKIP() << device_name << " is not available in this build or configuration";
    Table table = make_group(group);
    ASSERT_FALSE(table.cases.empty());

    // Build every case (both layouts), on `dev` and, for comparison, on the interpreter.
    std::vector<Result> runs, interp;
    bool compare_interp = !(dev == Device::interpreter());
    for (size_t ci = 0; ci < table.cases.size(); ++ci) {
        const Case& c = table.cases[ci];
        for (int layout = 0; layout < 2; ++layout) {
            std::mt19937_64 rng(1000 + ci);
            Refs refs;
            for (const In& in : c.inputs) refs.push_back(Ref{in.shape, in.dtype, generate(in, rng)});
            std::string label = c.name + (layout ? " [strided inputs]" : "");
            bool has_view = false;
            for (const In& in : c.inputs) has_view |= !in.shape.empty();
            if (layout == 1 && !has_view) continue;
            Result r{label, Tensor(), c.ref(refs), c.tol_scale, c.atol_floor, ""};
            Result ri = r;
            try {
                for (int pass = 0; pass < (compare_interp ? 2 : 1); ++pass) {
                    Device d = pass == 0 ? dev : Device::interpreter();
                    Ins ins;
                    std::mt19937_64 junk(7);
                    for (size_t i = 0; i < c.inputs.size(); ++i) {
                        // Rank >= 2 inputs alternate between transposed storage and strided slices.
                        int lay = layout == 0 ? 0 : (c.inputs[i].shape.size() >= 2 && i % 2 == 0 ? 1 : 2);
                        ins.push_back(make_input(refs[i].v, c.inputs[i].shape, c.inputs[i].dtype, d, lay, junk));
                    }
                    (pass == 0 ? r : ri).out = c.op(ins, d);
                }
            } catch (const std::exception& e) {
                r.error = e.what();
            }
            runs.push_back(r);
            if (compare_interp) interp.push_back(ri);
        }
    }
    std::vector<Tensor> outs;
    for (const Result& r : runs)
        if (r.error.empty()) outs.push_back(r.out);
    for (const Result& r : interp)
        if (r.out.defined()) outs.push_back(r.out);
    try {
        zyx::realize(outs);  // one schedule, one compile batch per device
    } catch (const std::exception& e) {
        ADD_FAILURE() << "realizing the " << group << " group on " << device_name << " in one batch failed: " << e.what()
                      << " (the cases are now run one by one)";
    }
    int checked = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        const Result& r = runs[i];
        if (!r.error.empty()) {
            ADD_FAILURE() << r.label << " on " << device_name << ": threw while building: " << r.error;
            continue;
        }
        try {
            std::vector<double> got = r.out.to_vector<double>();
            std::string bad = check(r, got);
            EXPECT_EQ(bad, "") << r.label << " on " << device_name;
            if (compare_interp && bad.empty()) {
                Result vs = r;
                vs.want = Ref{r.want.shape, r.want.dtype, interp[i].out.to_vector<double>()};
                std::string diff = check(vs, got);
                EXPECT_EQ(diff, "") << r.label << " on " << device_name << " differs from the interpreter";
            }
            ++checked;
        } catch (const std::exception& e) {
            ADD_FAILURE() << r.label << " on " << device_name << ": " << e.what();
        }
    }
    std::printf("%s on %s: %d results checked\n", group.c_str(), device_name.c_str(), checked);
}

std::string param_name(const ::testing::TestParamInfo<OpTest::ParamType>& info) {
    std::string d = std::get<0>(info.param);
    for (char& c : d)
        if (c == ':') c = '_';
    return d + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpTest,
                         ::testing::Combine(::testing::Values(std::string("interpreter"), std::string("host"),
                                                              std::string("tt:0")),
                                            ::testing::ValuesIn(kGroupNames)),
                         param_name);

}  // namespace
