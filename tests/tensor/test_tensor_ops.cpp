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
// Every op runs on every dtype it takes (kAll, kNumeric, kInts … below). Views and broadcasting do
// not depend on the dtype, so the strided layout, all broadcasting patterns and all axis cases run
// for the dtypes of kStridedDtypes (f32, i32, bf16, bool) and the other dtypes run one contiguous
// form: each case is a kernel to compile, and the label must stay fast with a cold cache.
// Groups: unary, binary (with the number overloads), reduce, movement, nn, creation (constants,
// arange, linspace, eye, *_like, literals, to()), random (rand, randn, uniform, randint: checks of
// range, moments and seeding computed on the device, see random_group()), assign (in-place ops,
// index_put) and indexing (gather, scatter and friends; what realizes data: see index_cases()),
// scan (all/any, amax/amin, count_nonzero, max/min with indices, cumsum/cumprod, norm, and the
// orderings sort/argsort/topk/median, which realize their input: see scan_group()), names
// (PyTorch spellings, numbers on the left, floor_divide, tensor clamp bounds, empty, *_like,
// randperm, bernoulli, multinomial).
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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>

#include "kernel/kernel.hpp"
#include "schedule/scheduler.hpp"
#include "tensor_test_env.hpp"
#include "zyx/tensor.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Shape;
using zyx::Tensor;

constexpr DType f64 = DType::f64, f32 = DType::f32, f16 = DType::f16, bf16 = DType::bf16;
constexpr DType i8 = DType::i8, i16 = DType::i16, i32 = DType::i32, i64 = DType::i64;
constexpr DType u8 = DType::u8, u16 = DType::u16, u32 = DType::u32, u64 = DType::u64, b8 = DType::bool_;
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
            case Gen::real:
            case Gen::positive: x = ur(rng); break;
            case Gen::integer: x = double(ui(rng)); break;
            case Gen::nonzero_int:
                do x = double(ui(rng));
                while (x == 0);
                break;
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
    double atol_floor = 0;  // absolute error an approximation is documented to have
    bool strided = true;    // also run with non-contiguous inputs
    // The dtype a case without inputs draws its tensors in, where its result has another (the
    // random group's checks return bools): it too must have a tile format for tt:0 to owe the case.
    std::optional<DType> draws;
};

std::string dn(DType t) { return std::string(zyx::dtype_name(t)); }

// Views are dtype-independent (a view maps indices, whatever the element size), so the strided
// layout runs for cases whose first input has one of these dtypes; the others run contiguous only.
// This keeps the label fast with every dtype in the table (each case is a kernel to compile).
const std::vector<DType> kStridedDtypes = {f32, i32, bf16, b8};
bool runs_strided(DType t) {
    return std::find(kStridedDtypes.begin(), kStridedDtypes.end(), t) != kStridedDtypes.end();
}

struct Table {
    std::vector<Case> cases;
    void add(std::string name, std::vector<In> in, OpFn op, RefFn ref, double tol = 1, double atol_floor = 0) {
        bool strided = in.empty() || runs_strided(in[0].dtype);
        cases.push_back(
            {std::move(name), std::move(in), std::move(op), std::move(ref), tol, atol_floor, strided, std::nullopt});
    }
};

// Dtype lists for "every dtype the op takes".
const std::vector<DType> kFloats = {f32, f16, bf16, f64};
const std::vector<DType> kInts = {i8, i16, i32, i64, u8, u16, u32, u64};
const std::vector<DType> kIntsBool = {i8, i16, i32, i64, u8, u16, u32, u64, b8};
const std::vector<DType> kNumeric = {f32, f16, bf16, f64, i8, i16, i32, i64, u8, u16, u32, u64};  // all but bool
const std::vector<DType> kAll = {f32, f16, bf16, f64, i8, i16, i32, i64, u8, u16, u32, u64, b8};

// ---- group: unary ---------------------------------------------------------------------------------

void unary_float(Table& t, const std::string& name, const std::function<Tensor(const Tensor&)>& op,
                 const std::function<double(double)>& f, Gen gen = Gen::real, double lo = -3, double hi = 3,
                 double atol_floor = 0) {
    for (DType d : kFloats)
        t.add(
            name + " " + dn(d), {In{{2, 3}, d, gen, lo, hi}}, [op](const Ins& x, Device) { return op(x[0]); },
            [f](const Refs& r) { return map(r[0], float_of(r[0].dtype), f); }, 1, atol_floor);
    // Integer and bool inputs: computed in f32 (promotion of float-only math).
    for (DType d : kIntsBool) {
        double ilo = std::max(lo, zyx::dtype_is_unsigned_int(d) ? 0.0 : -3.0), ihi = std::min(hi, 3.0);
        In in = d == b8 ? B({4}) : In{{4}, d, Gen::integer, ilo, ihi};
        t.add(
            name + " " + dn(d) + "->f32", {in}, [op](const Ins& x, Device) { return op(x[0]); },
            [f](const Refs& r) { return map(r[0], f32, f); }, 1, atol_floor);
    }
}
// erf is the IR's erf op: libm erf for f64 (within 1 ulp, inside the f64 tolerance) and erff for the
// rest (within 5.8e-8 of erf(x) in double for every float in [-3, 3]; glibc's vector erff, which
// the host calls, within 7.5e-8), far inside the f32 tolerance: no absolute floor is needed.
constexpr double kErfError = 0;

void unary_keep(Table& t, const std::string& name, const std::vector<DType>& dtypes,
                const std::function<Tensor(const Tensor&)>& op, const std::function<double(double)>& f) {
    for (DType d : dtypes)
        t.add(
            name + " " + dn(d), {zyx::dtype_is_float(d) ? R(d, {3, 4}, -4, 4) : V(d, {3, 4})},
            [op](const Ins& x, Device) { return op(x[0]); }, [f, d](const Refs& r) { return map(r[0], d, f); });
}

Table unary_group() {
    Table t;
    using std::exp;
    unary_float(
        t, "exp", [](const Tensor& x) { return x.exp(); }, [](double v) { return std::exp(v); });
    unary_float(
        t, "exp2", [](const Tensor& x) { return x.exp2(); }, [](double v) { return std::exp2(v); });
    unary_float(
        t, "log", [](const Tensor& x) { return x.log(); }, [](double v) { return std::log(v); }, Gen::positive, 0.1, 9);
    unary_float(
        t, "log2", [](const Tensor& x) { return x.log2(); }, [](double v) { return std::log2(v); }, Gen::positive, 0.1,
        9);
    unary_float(
        t, "log10", [](const Tensor& x) { return x.log10(); }, [](double v) { return std::log10(v); }, Gen::positive,
        0.1, 9);
    unary_float(
        t, "log1p", [](const Tensor& x) { return x.log1p(); }, [](double v) { return std::log1p(v); }, Gen::real, -0.5,
        2);
    t.add(
        "log1p tiny f32", {R(f32, {4}, -1e-6, 1e-6)}, [](const Ins& x, Device) { return x[0].log1p(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::log1p(v); }); });
    unary_float(
        t, "sqrt", [](const Tensor& x) { return x.sqrt(); }, [](double v) { return std::sqrt(v); }, Gen::positive, 0,
        9);
    unary_float(
        t, "rsqrt", [](const Tensor& x) { return x.rsqrt(); }, [](double v) { return 1 / std::sqrt(v); }, Gen::positive,
        0.1, 9);
    unary_float(
        t, "reciprocal", [](const Tensor& x) { return x.reciprocal(); }, [](double v) { return 1 / v; }, Gen::positive,
        0.2, 5);
    unary_float(
        t, "sin", [](const Tensor& x) { return x.sin(); }, [](double v) { return std::sin(v); });
    unary_float(
        t, "cos", [](const Tensor& x) { return x.cos(); }, [](double v) { return std::cos(v); });
    unary_float(
        t, "tan", [](const Tensor& x) { return x.tan(); }, [](double v) { return std::tan(v); }, Gen::real, -1.2, 1.2);
    unary_float(
        t, "tanh", [](const Tensor& x) { return x.tanh(); }, [](double v) { return std::tanh(v); });
    unary_float(
        t, "sigmoid", [](const Tensor& x) { return x.sigmoid(); }, [](double v) { return 1 / (1 + std::exp(-v)); });
    unary_float(
        t, "erf", [](const Tensor& x) { return x.erf(); }, [](double v) { return std::erf(v); }, Gen::real, -3, 3,
        kErfError);
    unary_float(
        t, "gelu", [](const Tensor& x) { return x.gelu(); },
        [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }, Gen::real, -3, 3, kErfError);
    unary_float(
        t, "gelu_tanh", [](const Tensor& x) { return x.gelu(true); },
        [](double v) { return 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))); });
    unary_float(
        t, "silu", [](const Tensor& x) { return x.silu(); }, [](double v) { return v / (1 + std::exp(-v)); });
    unary_float(
        t, "softplus", [](const Tensor& x) { return x.softplus(); },
        [](double v) { return v > 20 ? v : std::log1p(std::exp(v)); }, Gen::real, -30, 30);
    unary_float(
        t, "softplus_beta2", [](const Tensor& x) { return x.softplus(2, 5); },
        [](double v) { return 2 * v > 5 ? v : std::log1p(std::exp(2 * v)) / 2; });
    unary_float(
        t, "leaky_relu", [](const Tensor& x) { return x.leaky_relu(0.1); },
        [](double v) { return v > 0 ? v : 0.1 * v; });
    // PyTorch 1.13's definitions, written out (NaN propagates through the clamps of hardtanh).
    auto clamp06 = [](double v) { return std::isnan(v) ? v : std::min(std::max(v, 0.0), 6.0); };
    auto hardsigmoid_ref = [clamp06](double v) { return clamp06(v + 3) / 6; };
    auto hardswish_ref = [clamp06](double v) { return v * clamp06(v + 3) / 6; };  // -inf · 0: NaN
    auto elu_ref = [](double alpha) { return [alpha](double v) { return v > 0 ? v : alpha * std::expm1(v); }; };
    const double selu_a = 1.6732632423543772848170429916717, selu_l = 1.0507009873554804934193349852946;
    auto selu_ref = [=](double v) { return v > 0 ? selu_l * v : selu_l * selu_a * std::expm1(v); };
    auto mish_ref = [](double v) { return v * std::tanh(std::log1p(std::exp(v))); };
    auto expm1_ref = [](double v) { return std::expm1(v); };
    unary_float(
        t, "expm1", [](const Tensor& x) { return x.expm1(); }, expm1_ref);
    // Near 0 (scaled up, so that the tolerance is relative: e^x − 1 computed naively is off by 10%).
    t.add(
        "expm1 tiny f32", {R(f32, {6}, -1e-6, 1e-6)}, [](const Ins& x, Device) { return x[0].expm1() * 1e6; },
        [=](const Refs& r) { return map(r[0], f32, [=](double v) { return expm1_ref(v) * 1e6; }); });
    t.add(
        "expm1 tiny f64", {R(f64, {6}, -1e-9, 1e-9)}, [](const Ins& x, Device) { return x[0].expm1() * 1e9; },
        [=](const Refs& r) { return map(r[0], f64, [=](double v) { return expm1_ref(v) * 1e9; }); });
    t.add(
        "elu tiny f32", {R(f32, {6}, -1e-6, 0)}, [](const Ins& x, Device) { return x[0].elu() * 1e6; },
        [=](const Refs& r) { return map(r[0], f32, [=](double v) { return elu_ref(1)(v) * 1e6; }); });
    unary_float(
        t, "hardsigmoid", [](const Tensor& x) { return x.hardsigmoid(); }, hardsigmoid_ref, Gen::real, -5, 5);
    unary_float(
        t, "hardswish", [](const Tensor& x) { return x.hardswish(); }, hardswish_ref, Gen::real, -5, 5);
    unary_float(
        t, "elu", [](const Tensor& x) { return x.elu(); }, elu_ref(1));
    unary_float(
        t, "elu_alpha0.5", [](const Tensor& x) { return x.elu(0.5); }, elu_ref(0.5));
    unary_float(
        t, "selu", [](const Tensor& x) { return x.selu(); }, selu_ref);
    unary_float(
        t, "mish", [](const Tensor& x) { return x.mish(); }, mish_ref);
    unary_float(
        t, "asin", [](const Tensor& x) { return x.asin(); }, [](double v) { return std::asin(v); }, Gen::real, -1, 1);
    unary_float(
        t, "acos", [](const Tensor& x) { return x.acos(); }, [](double v) { return std::acos(v); }, Gen::real, -1, 1);
    unary_float(
        t, "atan", [](const Tensor& x) { return x.atan(); }, [](double v) { return std::atan(v); }, Gen::real, -9, 9);
    // Hyperbolic functions: acosh on [1, 9] (integers 1..3), atanh on (-1, 1) (integers -1, 0, 1:
    // atanh(±1) = ±inf).
    struct Hyp {
        const char* name;
        std::function<Tensor(const Tensor&)> op;
        double (*f)(double);
        double lo, hi;
    };
    for (const Hyp& h : {Hyp{"sinh", [](const Tensor& x) { return x.sinh(); }, std::sinh, -3, 3},
                         Hyp{"cosh", [](const Tensor& x) { return x.cosh(); }, std::cosh, -3, 3},
                         Hyp{"asinh", [](const Tensor& x) { return x.asinh(); }, std::asinh, -9, 9},
                         Hyp{"acosh", [](const Tensor& x) { return x.acosh(); }, std::acosh, 1, 9},
                         Hyp{"atanh", [](const Tensor& x) { return x.atanh(); }, std::atanh, -1, 1}})
        for (DType d : kFloats)
            t.add(
                std::string(h.name) + " " + dn(d), {R(d, {2, 3}, h.lo, h.hi)},
                [op = h.op](const Ins& x, Device) { return op(x[0]); },
                [f = h.f](const Refs& r) { return map(r[0], float_of(r[0].dtype), f); });
    // Integer inputs compute in f32 (one line each for the two with special values at integers).
    t.add(
        "atanh i32->f32", {I(i32, {4}, -1, 1)}, [](const Ins& x, Device) { return x[0].atanh(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::atanh(v); }); });
    t.add(
        "acosh u8->f32", {I(u8, {4}, 0, 3)}, [](const Ins& x, Device) { return x[0].acosh(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::acosh(v); }); });
    // ±inf, NaN, ±0, the kinks at ±3, and values far out (overflowing exp in every float dtype).
    struct Special {
        const char* name;
        std::function<Tensor(const Tensor&)> op;
        std::function<double(double)> f;
    };
    const std::vector<Special> specials = {
        {"expm1", [](const Tensor& x) { return x.expm1(); }, expm1_ref},
        {"hardsigmoid", [](const Tensor& x) { return x.hardsigmoid(); }, hardsigmoid_ref},
        {"hardswish", [](const Tensor& x) { return x.hardswish(); }, hardswish_ref},
        {"elu", [](const Tensor& x) { return x.elu(); }, elu_ref(1)},
        {"selu", [](const Tensor& x) { return x.selu(); }, selu_ref},
        {"mish", [](const Tensor& x) { return x.mish(); }, mish_ref},
        {"relu6", [](const Tensor& x) { return x.relu6(); }, clamp06},
    };
    for (const Special& s : specials)
        for (DType d : kFloats) {
            t.add(
                std::string(s.name) + " specials " + dn(d), {Sp(d, {10})},
                [op = s.op](const Ins& x, Device) { return op(x[0]); },
                [f = s.f, d](const Refs& r) { return map(r[0], d, f); });
            t.add(
                std::string(s.name) + " large " + dn(d), {R(d, {2, 5}, -100, 100)},
                [op = s.op](const Ins& x, Device) { return op(x[0]); },
                [f = s.f, d](const Refs& r) { return map(r[0], d, f); });
        }
    // relu6 keeps the dtype (hardtanh(x, 0, 6)); values on both sides of both bounds.
    for (DType d : kNumeric)
        t.add(
            "relu6 " + dn(d), {zyx::dtype_is_float(d) ? R(d, {3, 4}, -9, 9) : V(d, {3, 4})},
            [](const Ins& x, Device) { return x[0].relu6(); }, [=](const Refs& r) { return map(r[0], d, clamp06); });

    // Unsigned values wrap (neg of 3 in u8 is 253), as PyTorch.
    unary_keep(
        t, "neg", kNumeric, [](const Tensor& x) { return -x; }, [](double v) { return -v; });
    unary_keep(
        t, "abs", kNumeric, [](const Tensor& x) { return x.abs(); }, [](double v) { return std::fabs(v); });
    unary_keep(
        t, "sign", kNumeric, [](const Tensor& x) { return x.sign(); },
        [](double v) { return v > 0 ? 1.0
                           : v < 0  ? -1.0
                                    : v; });
    unary_keep(
        t, "relu", kNumeric, [](const Tensor& x) { return x.relu(); }, [](double v) { return v < 0 ? 0 : v; });
    unary_keep(
        t, "floor", kNumeric, [](const Tensor& x) { return x.floor(); }, [](double v) { return std::floor(v); });
    unary_keep(
        t, "ceil", kNumeric, [](const Tensor& x) { return x.ceil(); }, [](double v) { return std::ceil(v); });
    unary_keep(
        t, "round", kNumeric, [](const Tensor& x) { return x.round(); }, [](double v) { return std::nearbyint(v); });
    unary_keep(
        t, "trunc", kNumeric, [](const Tensor& x) { return x.trunc(); }, [](double v) { return std::trunc(v); });
    unary_keep(
        t, "square", kNumeric, [](const Tensor& x) { return x.square(); }, [](double v) { return v * v; });
    t.add(
        "round half-even f32", {Sp(f32, {10})}, [](const Ins& x, Device) { return (x[0] + 0.5f).round(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::nearbyint(double(float(v + 0.5))); }); });
    for (DType d : kFloats) {
        t.add(
            "isnan " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].isnan(); },
            [](const Refs& r) { return map(r[0], b8, [](double v) { return double(std::isnan(v)); }); });
        t.add(
            "isinf " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].isinf(); },
            [](const Refs& r) { return map(r[0], b8, [](double v) { return double(std::isinf(v)); }); });
        t.add(
            "relu specials " + dn(d), {Sp(d, {10})}, [](const Ins& x, Device) { return x[0].relu(); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return v < 0 ? 0 : v; }); });
        t.add(
            "sign specials " + dn(d), {Sp(d, {10})}, [](const Ins& x, Device) { return x[0].sign(); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return v > 0 ? 1.0
                                                                        : v < 0  ? -1.0
                                                                                 : v; }); });
    }
    for (DType d : kFloats) {
        // The largest finite value of each float dtype, from its bit pattern.
        double big = d == f64 ? std::numeric_limits<double>::max()
            : d == f32        ? double(std::numeric_limits<float>::max())
                              : zyx::kernel::double_from_bits(d, d == f16 ? 0x7BFF : 0x7F7F);
        t.add(
            "isfinite " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].isfinite(); },
            [](const Refs& r) { return map(r[0], b8, [](double v) { return double(std::isfinite(v)); }); });
        t.add(
            "nan_to_num " + dn(d), {Sp(d, {2, 5})}, [](const Ins& x, Device) { return x[0].nan_to_num(); },
            [d, big](const Refs& r) {
                return map(r[0], d, [big](double v) {
                    return std::isnan(v) ? 0 : v == kInf ? big : v == -kInf ? -big : v;
                });
            });
        t.add(
            "nan_to_num 1.5,100,-200 " + dn(d), {Sp(d, {2, 5})},
            [](const Ins& x, Device) { return x[0].nan_to_num(1.5, 100, -200); },
            [d](const Refs& r) {
                return map(r[0], d, [](double v) {
                    return std::isnan(v) ? 1.5 : v == kInf ? 100 : v == -kInf ? -200 : v;
                });
            });
        t.add(
            "nan_to_num posinf only " + dn(d), {Sp(d, {10})},
            [](const Ins& x, Device) { return x[0].nan_to_num(-1, 7); },
            [d, big](const Refs& r) {
                return map(r[0], d, [big](double v) {
                    return std::isnan(v) ? -1 : v == kInf ? 7 : v == -kInf ? -big : v;
                });
            });
    }
    for (DType d : kIntsBool) {  // unchanged / all finite
        t.add(
            "isfinite " + dn(d), {V(d, {4})}, [](const Ins& x, Device) { return x[0].isfinite(); },
            [](const Refs& r) { return map(r[0], b8, [](double) { return 1.0; }); });
        t.add(
            "nan_to_num " + dn(d), {V(d, {4})}, [](const Ins& x, Device) { return x[0].nan_to_num(); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return v; }); });
    }
    for (DType d : kIntsBool) {  // never NaN or infinite
        t.add(
            "isnan " + dn(d), {V(d, {4})}, [](const Ins& x, Device) { return x[0].isnan(); },
            [](const Refs& r) { return map(r[0], b8, [](double) { return 0.0; }); });
        t.add(
            "isinf " + dn(d), {V(d, {4})}, [](const Ins& x, Device) { return x[0].isinf(); },
            [](const Refs& r) { return map(r[0], b8, [](double) { return 0.0; }); });
    }
    for (DType d : kAll)
        t.add(
            "logical_not " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return !x[0]; },
            [](const Refs& r) { return map(r[0], b8, [](double v) { return double(v == 0); }); });
    for (DType d : kIntsBool)
        t.add(
            "bitwise_not " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return ~x[0]; },
            [d](const Refs& r) {
                return map(r[0], d, [d](double v) { return d == b8 ? double(v == 0) : double(~int64_t(v)); });
            });
    // clamp with numbers: the numbers take the tensor's dtype (an unsigned tensor wraps -2 to its
    // maximum, as PyTorch); a bool tensor with integer bounds gives i32.
    auto bound = [](DType d, double v) { return as_dtype(v, d); };
    for (DType d : kAll) {
        DType o = d == b8 ? i32 : d;
        t.add(
            "clamp " + dn(d), {V(d, {3, 3})}, [](const Ins& x, Device) { return x[0].clamp(-2, 1); },
            [o, bound](const Refs& r) {
                return map(r[0], o, [o, bound](double v) { return std::min(std::max(v, bound(o, -2)), bound(o, 1)); });
            });
    }
    for (DType d : kNumeric) {
        t.add(
            "clamp_min " + dn(d), {V(d, {2, 4})}, [](const Ins& x, Device) { return x[0].clamp_min(2); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return std::max(v, 2.0); }); });
        t.add(
            "clamp_max " + dn(d), {V(d, {2, 4})}, [](const Ins& x, Device) { return x[0].clamp_max(5); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return std::min(v, 5.0); }); });
    }
    t.add(
        "clamp i32 by 0.5 -> f32", {I(i32, {5})}, [](const Ins& x, Device) { return x[0].clamp_max(0.5); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::min(v, 0.5); }); });
    t.add(
        "clamp_min u8 by 2.5 -> f32", {I(u8, {5}, 0, 9)}, [](const Ins& x, Device) { return x[0].clamp_min(2.5); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::max(v, 2.5); }); });

    // Casts: every dtype from f32 (value rules: truncate, saturate, NaN → 0, != 0 → true) and back.
    for (DType to : kAll)
        t.add(
            "cast f32->" + dn(to), {R(f32, {2, 4}, -200, 300)}, [to](const Ins& x, Device) { return x[0].cast(to); },
            [to](const Refs& r) {
                return map(r[0], to, [to](double v) {
                    if (!zyx::dtype_is_int(to)) return v;
                    double lo = zyx::kernel::double_from_bits(to, zyx::kernel::bits_from_double(to, -1e300));
                    double hi = zyx::kernel::double_from_bits(to, zyx::kernel::bits_from_double(to, 1e300));
                    return std::min(std::max(std::trunc(v), lo), hi);  // truncate and saturate
                });
            });
    for (DType from : kAll)
        t.add(
            "cast " + dn(from) + "->f32", {V(from, {2, 3})}, [](const Ins& x, Device) { return x[0].cast(f32); },
            [](const Refs& r) { return cast(r[0], f32); });
    // Integer to integer keeps the low bits (sign- or zero-extends when widening).
    for (DType to : kInts)
        t.add(
            "cast i32->" + dn(to), {I(i32, {2, 4}, -70000, 70000)},
            [to](const Ins& x, Device) { return x[0].cast(to); }, [to](const Refs& r) { return cast(r[0], to); });
    for (DType from : {i8, i16, u16, u64})
        t.add(
            "cast " + dn(from) + "->i64", {V(from, {5})}, [](const Ins& x, Device) { return x[0].cast(i64); },
            [](const Refs& r) { return cast(r[0], i64); });
    t.add(
        "cast f64->bf16->f16", {R(f64, {2, 3}, -100, 100)},
        [](const Ins& x, Device) { return x[0].cast(bf16).cast(f16); },
        [](const Refs& r) { return cast(cast(r[0], bf16), f16); });
    t.add(
        "cast specials f32->i32", {Sp(f32, {10})}, [](const Ins& x, Device) { return x[0].cast(i32); },
        [](const Refs& r) {
            return map(r[0], i32, [](double v) {
                return std::isnan(v) ? 0 : v == kInf ? 2147483647.0 : v == -kInf ? -2147483648.0 : std::trunc(v);
            });
        });
    // Bitcasts between every pair of equal-sized dtypes but bool: there and back is the identity,
    // and one known pattern per size.
    for (const std::vector<DType>& size_class :
         std::vector<std::vector<DType>>{{f64, i64, u64}, {f32, i32, u32}, {f16, bf16, i16, u16}, {i8, u8}})
        for (DType a : size_class)
            for (DType b : size_class)
                if (a != b)
                    t.add(
                        "bitcast " + dn(a) + "->" + dn(b) + "->" + dn(a),
                        {zyx::dtype_is_float(a) ? R(a, {2, 3}) : I(a, {2, 3}, 0, 9)},
                        [a, b](const Ins& x, Device) { return x[0].bitcast(b).bitcast(a); },
                        [](const Refs& r) { return r[0]; });
    t.add(
        "bitcast f32->i32", {R(f32, {4})}, [](const Ins& x, Device) { return x[0].bitcast(i32); },
        [](const Refs& r) {
            return map(r[0], i32, [](double v) {
                float f = float(v);
                int32_t b;
                std::memcpy(&b, &f, 4);
                return double(b);
            });
        });
    t.add(
        "bitcast i8->u8", {I(i8, {4})}, [](const Ins& x, Device) { return x[0].bitcast(u8); },
        [](const Refs& r) { return map(r[0], u8, [](double v) { return v < 0 ? v + 256 : v; }); });
    t.add(
        "bitcast bf16->i16", {R(bf16, {4})}, [](const Ins& x, Device) { return x[0].bitcast(i16); },
        [](const Refs& r) {
            return map(r[0], i16, [](double v) { return double(int16_t(zyx::kernel::bits_from_double(bf16, v))); });
        });
    t.add(
        "bitcast f64->u64", {R(f64, {3}, 0.5, 3)}, [](const Ins& x, Device) { return x[0].bitcast(u64); },
        [](const Refs& r) {
            return map(r[0], u64, [](double v) {
                uint64_t b;
                std::memcpy(&b, &v, 8);
                return double(b);
            });
        });
    // Size-1 axes, 0-d and empty tensors.
    t.add(
        "exp [1,1,5]", {R(f32, {1, 1, 5})}, [](const Ins& x, Device) { return x[0].exp(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    t.add(
        "exp 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].exp(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    t.add(
        "exp empty [0,3]", {R(f32, {0, 3})}, [](const Ins& x, Device) { return x[0].exp(); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return std::exp(v); }); });
    return t;
}

// ---- group: binary --------------------------------------------------------------------------------

using BinOp = std::function<Tensor(const Tensor&, const Tensor&)>;
using BinF = std::function<double(double, double)>;

// One line per dtype and per broadcasting pattern: [2,3]·[2,3], [2,3]·[3], [2,1]·[1,3] (only the
// second pattern for dtypes outside kStridedDtypes: broadcasting is dtype-independent too).
void binary(Table& t, const std::string& name, const std::vector<DType>& dtypes, const BinOp& op, const BinF& f,
            std::function<DType(DType)> out = nullptr, Gen gen_b = Gen::real) {
    const std::vector<std::pair<Shape, Shape>> shapes = {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}};
    for (DType d : dtypes)
        for (const auto& [sa, sb] : shapes) {
            if (!runs_strided(d) && sb != Shape{3}) continue;
            In a = V(d, sa), b = V(d, sb);
            if (gen_b == Gen::nonzero_int)
                b = zyx::dtype_is_float(d) ? P(d, sb, 0.5, 3) : NZ(d, sb, zyx::dtype_is_unsigned_int(d) ? 1 : -9, 9);
            if (gen_b == Gen::positive) b = zyx::dtype_is_float(d) ? P(d, sb, 0.5, 2) : I(d, sb, 0, 3);
            DType o = out ? out(d) : d;
            t.add(
                name + " " + dn(d) + " " + zyx::kernel::shape_string(sa) + "," + zyx::kernel::shape_string(sb), {a, b},
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
    binary(
        t, "add", kNumeric, [](const Tensor& a, const Tensor& b) { return a + b; },
        [](double a, double b) { return a + b; });
    binary(
        t, "sub", kNumeric, [](const Tensor& a, const Tensor& b) { return a - b; },
        [](double a, double b) { return a - b; });
    binary(
        t, "mul", kNumeric, [](const Tensor& a, const Tensor& b) { return a * b; },
        [](double a, double b) { return a * b; });
    binary(
        t, "div", kFloats, [](const Tensor& a, const Tensor& b) { return a / b; },
        [](double a, double b) { return a / b; }, nullptr, Gen::nonzero_int);
    binary(
        t, "div ->f32", kIntsBool, [](const Tensor& a, const Tensor& b) { return a / b; },
        [](double a, double b) { return a / b; }, [](DType) { return f32; }, Gen::nonzero_int);
    binary(
        t, "div_trunc", kNumeric, [](const Tensor& a, const Tensor& b) { return a.div_trunc(b); },
        [](double a, double b) { return std::trunc(a / b); }, nullptr, Gen::nonzero_int);
    binary(
        t, "pow", kFloats, [](const Tensor& a, const Tensor& b) { return a.abs().pow(b); },
        [](double a, double b) { return std::pow(std::fabs(a), b); });
    binary(
        t, "pow int", kInts, [](const Tensor& a, const Tensor& b) { return a.pow(b); },
        [](double a, double b) { return std::pow(a, b); }, nullptr, Gen::positive);
    binary(
        t, "maximum", kAll, [](const Tensor& a, const Tensor& b) { return a.maximum(b); }, nan_max);
    binary(
        t, "minimum", kAll, [](const Tensor& a, const Tensor& b) { return a.minimum(b); }, nan_min);
    // PyTorch's logaddexp: equal infinities give themselves, else max + log1p(e^-|a-b|).
    auto logaddexp_ref = [](double a, double b) {
        if (std::isinf(a) && a == b) return a;
        return nan_max(a, b) + std::log1p(std::exp(-std::fabs(a - b)));
    };
    BinOp logaddexp_op = [](const Tensor& a, const Tensor& b) { return zyx::logaddexp(a, b); };
    binary(t, "logaddexp", kFloats, logaddexp_op, logaddexp_ref);
    binary(t, "logaddexp ->f32", {i32, u8, b8}, logaddexp_op, logaddexp_ref, [](DType) { return f32; });
    binary(
        t, "atan2", kFloats, [](const Tensor& a, const Tensor& b) { return zyx::atan2(a, b); },
        [](double a, double b) { return std::atan2(a, b); });
    for (DType d : kFloats) {  // every pair of special values ([10,1] with [10])
        t.add(
            "logaddexp specials " + dn(d), {Sp(d, {10}), Sp(d, {10})},
            [](const Ins& x, Device) {
                return zyx::logaddexp(x[0].reshape({10, 1}), x[1]);
            },
            [=](const Refs& r) {
                return zip(reshape(r[0], {10, 1}), r[1], d, logaddexp_ref);
            });
        t.add(
            "logaddexp large " + dn(d), {R(d, {2, 3}, -100, 100), R(d, {2, 3}, -100, 100)},
            [](const Ins& x, Device) { return zyx::logaddexp(x[0], x[1]); },
            [=](const Refs& r) { return zip(r[0], r[1], d, logaddexp_ref); });
    }
    // lerp as PyTorch computes it: from the nearer end depending on |weight| < 0.5.
    auto lerp_ref = [](double a, double b, double w) {
        return std::fabs(w) < 0.5 ? a + w * (b - a) : b - (b - a) * (1 - w);
    };
    for (DType d : kFloats) {
        for (double w : {0.3, 0.8, 1.0, -0.7})
            t.add(
                "lerp " + std::to_string(w) + " " + dn(d), {V(d, {2, 3}), V(d, {3})},
                [w](const Ins& x, Device) { return zyx::lerp(x[0], x[1], w); },
                [=](const Refs& r) {
                    return zip(r[0], r[1], d, [=](double a, double b) { return lerp_ref(a, b, w); });
                });
        t.add(
            "lerp tensor weight " + dn(d), {V(d, {2, 3}), V(d, {2, 3}), R(d, {3}, -1, 2)},
            [](const Ins& x, Device) { return zyx::lerp(x[0], x[1], x[2]); },
            [=](const Refs& r) {
                Ref o{r[0].shape, d, {}};
                for (int64_t i = 0; i < numel(o.shape); ++i)
                    o.v.push_back(as_dtype(
                        lerp_ref(r[0].v[size_t(i)], r[1].v[size_t(i)], at_broadcast(r[2], unravel(i, o.shape))), d));
                return o;
            });
    }
    t.add(
        "lerp i32 -> f32", {I(i32, {2, 3}), I(i32, {3})},
        [](const Ins& x, Device) { return zyx::lerp(x[0], x[1], 0.25); },
        [=](const Refs& r) { return zip(r[0], r[1], f32, [=](double a, double b) { return lerp_ref(a, b, 0.25); }); });
    t.add(
        "lerp specials f32", {Sp(f32, {10}), R(f32, {10})},
        [](const Ins& x, Device) { return zyx::lerp(x[0], x[1], 0.8); },
        [=](const Refs& r) { return zip(r[0], r[1], f32, [=](double a, double b) { return lerp_ref(a, b, 0.8); }); });
    binary(
        t, "fmod", kNumeric, [](const Tensor& a, const Tensor& b) { return a.fmod(b); },
        [](double a, double b) { return std::fmod(a, b); }, nullptr, Gen::nonzero_int);
    binary(
        t, "remainder", kNumeric, [](const Tensor& a, const Tensor& b) { return a.remainder(b); }, py_mod, nullptr,
        Gen::nonzero_int);
    // operator% is PyTorch's %: remainder, the sign of the divisor ((-3) % 2 == 1).
    binary(
        t, "operator%", {f32, i32}, [](const Tensor& a, const Tensor& b) { return a % b; }, py_mod, nullptr,
        Gen::nonzero_int);
    auto to_bool = [](DType) { return b8; };
    binary(
        t, "eq", kAll, [](const Tensor& a, const Tensor& b) { return a == b; },
        [](double a, double b) { return double(a == b); }, to_bool);
    binary(
        t, "ne", kAll, [](const Tensor& a, const Tensor& b) { return a != b; },
        [](double a, double b) { return double(a != b); }, to_bool);
    binary(
        t, "lt", kAll, [](const Tensor& a, const Tensor& b) { return a < b; },
        [](double a, double b) { return double(a < b); }, to_bool);
    binary(
        t, "le", kAll, [](const Tensor& a, const Tensor& b) { return a <= b; },
        [](double a, double b) { return double(a <= b); }, to_bool);
    binary(
        t, "gt", kAll, [](const Tensor& a, const Tensor& b) { return a > b; },
        [](double a, double b) { return double(a > b); }, to_bool);
    binary(
        t, "ge", kAll, [](const Tensor& a, const Tensor& b) { return a >= b; },
        [](double a, double b) { return double(a >= b); }, to_bool);
    binary(
        t, "logical_and", kAll, [](const Tensor& a, const Tensor& b) { return a.logical_and(b); },
        [](double a, double b) { return double(a != 0 && b != 0); }, to_bool);
    binary(
        t, "logical_or", kAll, [](const Tensor& a, const Tensor& b) { return a.logical_or(b); },
        [](double a, double b) { return double(a != 0 || b != 0); }, to_bool);
    binary(
        t, "logical_xor", kAll, [](const Tensor& a, const Tensor& b) { return a.logical_xor(b); },
        [](double a, double b) { return double((a != 0) != (b != 0)); }, to_bool);
    auto bits = [](auto fn) { return [fn](double a, double b) { return double(fn(int64_t(a), int64_t(b))); }; };
    binary(
        t, "bitwise_and", kIntsBool, [](const Tensor& a, const Tensor& b) { return a & b; },
        bits([](int64_t a, int64_t b) { return a & b; }));
    binary(
        t, "bitwise_or", kIntsBool, [](const Tensor& a, const Tensor& b) { return a | b; },
        bits([](int64_t a, int64_t b) { return a | b; }));
    binary(
        t, "bitwise_xor", kIntsBool, [](const Tensor& a, const Tensor& b) { return a ^ b; },
        bits([](int64_t a, int64_t b) { return a ^ b; }));
    binary(
        t, "shift_left", kInts, [](const Tensor& a, const Tensor& b) { return a << b; },
        bits([](int64_t a, int64_t b) { return a * (int64_t(1) << b); }), nullptr, Gen::positive);
    binary(
        t, "shift_right", kInts, [](const Tensor& a, const Tensor& b) { return a >> b; },
        bits([](int64_t a, int64_t b) { return a >= 0 ? a >> b : -((-a + (int64_t(1) << b) - 1) >> b); }), nullptr,
        Gen::positive);
    // bool arithmetic: add is or, mul is and.
    binary(
        t, "add bool", {b8}, [](const Tensor& a, const Tensor& b) { return a + b; },
        [](double a, double b) { return double(a != 0 || b != 0); });
    binary(
        t, "mul bool", {b8}, [](const Tensor& a, const Tensor& b) { return a * b; },
        [](double a, double b) { return double(a != 0 && b != 0); });

    // Promotion between tensors (result dtype is part of the check).
    struct Mix {
        DType a, b, out;
    };
    for (Mix m : {Mix{f32, i32, f32}, Mix{i8, u8, i16}, Mix{f16, bf16, f32}, Mix{b8, i32, i32}, Mix{u8, i32, i32},
                  Mix{i32, i64, i64}, Mix{f16, f64, f64}, Mix{u32, i32, i64}, Mix{b8, f16, f16}, Mix{u16, i16, i32},
                  Mix{u16, i8, i32}, Mix{u16, u32, u32}, Mix{u64, i64, i64}, Mix{u64, u8, u64}, Mix{i16, u8, i16},
                  Mix{u64, f32, f32}, Mix{b8, u16, u16}, Mix{i8, bf16, bf16}, Mix{u32, i16, i64}})
        t.add(
            "promote " + dn(m.a) + "+" + dn(m.b), {V(m.a, {2, 3}), V(m.b, {3})},
            [](const Ins& x, Device) { return x[0] + x[1]; },
            [m](const Refs& r) { return zip(r[0], r[1], m.out, [](double a, double b) { return a + b; }); });
    // Promotion with numbers: the number does not lift the tensor beyond its category.
    t.add(
        "f16 + 2.5 stays f16", {R(f16, {4})}, [](const Ins& x, Device) { return x[0] + 2.5; },
        [](const Refs& r) { return map(r[0], f16, [](double v) { return v + 2.5; }); });
    t.add(
        "i32 * 0.5 -> f32", {I(i32, {4})}, [](const Ins& x, Device) { return x[0] * 0.5; },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return v * 0.5; }); });
    t.add(
        "i8 + 100 stays i8 (wraps)", {I(i8, {5}, 20, 60)}, [](const Ins& x, Device) { return x[0] + 100; },
        [](const Refs& r) { return map(r[0], i8, [](double v) { return v + 100; }); });
    t.add(
        "bool + 1 -> i32", {B({4})}, [](const Ins& x, Device) { return x[0] + 1; },
        [](const Refs& r) { return map(r[0], i32, [](double v) { return v + 1; }); });
    t.add(
        "2 - f32", {R(f32, {2, 2})}, [](const Ins& x, Device) { return 2 - x[0]; },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return 2 - v; }); });
    t.add(
        "1 / f32", {P(f32, {3})}, [](const Ins& x, Device) { return 1 / x[0]; },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return 1 / v; }); });
    t.add(
        "pow f32 ^ 2", {R(f32, {3})}, [](const Ins& x, Device) { return x[0].pow(2); },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return v * v; }); });
    t.add(
        "i32 wraps on add", {I(i32, {2}, 2147483000, 2147483600)}, [](const Ins& x, Device) { return x[0] + 1000; },
        [](const Refs& r) { return map(r[0], i32, [](double v) { return v + 1000; }); });
    // The number overloads. A number takes the tensor's dtype unless it is of a higher category
    // (an integer number on a bool tensor → i32; a float number on an integer tensor → f32), and
    // converts by the cast rules (u8 < -1 compares with 255, as PyTorch).
    struct Num {
        double v;
        bool is_float;
    };
    auto num_dtype = [](DType d, Num n) { return n.is_float ? float_of(d) : d == b8 ? i32 : d; };
    auto number = [](Num n) { return n.is_float ? zyx::Scalar(n.v) : zyx::Scalar(int64_t(n.v)); };
    using NumOp = std::function<Tensor(const Tensor&, zyx::Scalar)>;
    struct Cmp {
        const char* name;
        NumOp op;
        BinF f;
    };
    const std::vector<Cmp> cmps = {
        {"==", [](const Tensor& x, zyx::Scalar s) { return x == s; },
         [](double a, double b) { return double(a == b); }},
        {"!=", [](const Tensor& x, zyx::Scalar s) { return x != s; },
         [](double a, double b) { return double(a != b); }},
        {"<", [](const Tensor& x, zyx::Scalar s) { return x < s; }, [](double a, double b) { return double(a < b); }},
        {"<=", [](const Tensor& x, zyx::Scalar s) { return x <= s; },
         [](double a, double b) { return double(a <= b); }},
        {">", [](const Tensor& x, zyx::Scalar s) { return x > s; }, [](double a, double b) { return double(a > b); }},
        {">=", [](const Tensor& x, zyx::Scalar s) { return x >= s; },
         [](double a, double b) { return double(a >= b); }},
        {"eq", [](const Tensor& x, zyx::Scalar s) { return x.eq(s); },
         [](double a, double b) { return double(a == b); }},
        {"lt", [](const Tensor& x, zyx::Scalar s) { return x.lt(s); },
         [](double a, double b) { return double(a < b); }},
    };
    for (DType d : kAll)
        for (Num n : {Num{2, false}, Num{-1, false}, Num{0.5, true}})
            for (const Cmp& c : cmps) {
                // Every comparison with 2 on f32, i32 and u8; == 2, < -1 (wraps for unsigned) and
                // < 0.5 (compared in f32 for integers) on every dtype.
                bool all = (d == f32 || d == u8 || d == i32) && n.v == 2;
                bool any = (std::string(c.name) == "==" && n.v == 2) || (std::string(c.name) == "<" && n.v != 2);
                if (!all && !any) continue;
                DType ct = num_dtype(d, n);
                t.add(
                    dn(d) + " " + c.name + " " + zyx::Scalar(n.v).str(), {V(d, {2, 5})},
                    [c, n, number](const Ins& x, Device) { return c.op(x[0], number(n)); },
                    [c, n, ct](const Refs& r) {
                        double s = as_dtype(n.v, ct);
                        return map(r[0], b8, [c, s, ct](double v) { return c.f(as_dtype(v, ct), s); });
                    });
            }
    // Which dtypes a number form runs on: the operators on every dtype; the other named forms on
    // f32, i32 and u8; method twins of operators (add(1) is x + 1) on f32.
    enum class On { every, three, f32_only };
    struct Arith {
        const char* name;
        NumOp op;
        BinF f;
        Num n;
        On on;
        bool nonzero_x = false;
    };
    const std::vector<Arith> ariths = {
        {"+ 3",
         [](const Tensor& x, zyx::Scalar s) { return x + s; },
         [](double a, double b) { return a + b; },
         {3, false},
         On::every},
        {"- 3",
         [](const Tensor& x, zyx::Scalar s) { return x - s; },
         [](double a, double b) { return a - b; },
         {3, false},
         On::every},
        {"* 3",
         [](const Tensor& x, zyx::Scalar s) { return x * s; },
         [](double a, double b) { return a * b; },
         {3, false},
         On::every},
        {"* 0.5",
         [](const Tensor& x, zyx::Scalar s) { return x * s; },
         [](double a, double b) { return a * b; },
         {0.5, true},
         On::every},
        {"/ 2",
         [](const Tensor& x, zyx::Scalar s) { return x / s; },
         [](double a, double b) { return a / b; },
         {2, false},
         On::every},
        {"% 3", [](const Tensor& x, zyx::Scalar s) { return x % s; }, py_mod, {3, false}, On::every},
        {"% -4", [](const Tensor& x, zyx::Scalar s) { return x % s; }, py_mod, {-4, false}, On::every},
        {"2 - x",
         [](const Tensor& x, zyx::Scalar s) { return s - x; },
         [](double a, double b) { return b - a; },
         {2, false},
         On::every},
        {"3 + x",
         [](const Tensor& x, zyx::Scalar s) { return s + x; },
         [](double a, double b) { return b + a; },
         {3, false},
         On::every},
        {"2 * x",
         [](const Tensor& x, zyx::Scalar s) { return s * x; },
         [](double a, double b) { return b * a; },
         {2, false},
         On::every},
        {"6 / x",
         [](const Tensor& x, zyx::Scalar s) { return s / x; },
         [](double a, double b) { return b / a; },
         {6, false},
         On::every,
         true},
        {"7 % x",
         [](const Tensor& x, zyx::Scalar s) { return s % x; },
         [](double a, double b) { return py_mod(b, a); },
         {7, false},
         On::every,
         true},
        {"fmod(-4)",
         [](const Tensor& x, zyx::Scalar s) { return x.fmod(s); },
         [](double a, double b) { return std::fmod(a, b); },
         {-4, false},
         On::three},
        {"maximum(2)", [](const Tensor& x, zyx::Scalar s) { return x.maximum(s); }, nan_max, {2, false}, On::three},
        {"minimum(2)", [](const Tensor& x, zyx::Scalar s) { return x.minimum(s); }, nan_min, {2, false}, On::three},
        {"maximum(2.5)", [](const Tensor& x, zyx::Scalar s) { return x.maximum(s); }, nan_max, {2.5, true}, On::three},
        {"pow(2)",
         [](const Tensor& x, zyx::Scalar s) { return x.pow(s); },
         [](double a, double b) { return std::pow(a, b); },
         {2, false},
         On::three},
        {"remainder(3)",
         [](const Tensor& x, zyx::Scalar s) { return x.remainder(s); },
         py_mod,
         {3, false},
         On::f32_only},
        {"add(1)",
         [](const Tensor& x, zyx::Scalar s) { return x.add(s); },
         [](double a, double b) { return a + b; },
         {1, false},
         On::f32_only},
        {"sub(1)",
         [](const Tensor& x, zyx::Scalar s) { return x.sub(s); },
         [](double a, double b) { return a - b; },
         {1, false},
         On::f32_only},
        {"mul(-2)",
         [](const Tensor& x, zyx::Scalar s) { return x.mul(s); },
         [](double a, double b) { return a * b; },
         {-2, false},
         On::f32_only},
        {"div(4)",
         [](const Tensor& x, zyx::Scalar s) { return x.div(s); },
         [](double a, double b) { return a / b; },
         {4, false},
         On::f32_only},
    };
    for (DType d : kNumeric)
        for (const Arith& a : ariths) {
            if (a.on == On::f32_only && d != f32) continue;
            if (a.on == On::three && d != f32 && d != i32 && d != u8) continue;
            bool divides = a.name[0] == '/' || a.name[0] == '6' || std::string(a.name).rfind("div", 0) == 0;
            DType ct = num_dtype(d, a.n), o = divides ? float_of(ct) : ct;
            In in = V(d, {2, 5});
            if (a.nonzero_x)
                in = zyx::dtype_is_float(d) ? P(d, {2, 5}, 0.5, 3)
                                            : NZ(d, {2, 5}, zyx::dtype_is_unsigned_int(d) ? 1 : -9, 9);
            t.add(
                dn(d) + " " + a.name, {in}, [a, number](const Ins& x, Device) { return a.op(x[0], number(a.n)); },
                [a, ct, o](const Refs& r) {
                    double s = as_dtype(a.n.v, ct);
                    return map(r[0], o, [a, s, ct](double v) { return a.f(as_dtype(v, ct), s); });
                });
        }
    t.add(
        "maximum NaN f32", {Sp(f32, {10}), R(f32, {10})}, [](const Ins& x, Device) { return x[0].maximum(x[1]); },
        [](const Refs& r) { return zip(r[0], r[1], f32, nan_max); });
    // where: bool condition, branches promoted, all three broadcast; numbers as branches.
    t.add(
        "where f32,i32 -> f32", {B({2, 3}), R(f32, {3}), I(i32, {2, 1})},
        [](const Ins& x, Device) { return zyx::where(x[0], x[1], x[2]); },
        [](const Refs& r) {
            Ref c = zip(r[0], r[1], f32, [](double c, double) { return c; });
            Ref xy = zip(r[1], r[2], f32, [](double a, double) { return a; });
            Ref yy = zip(r[1], r[2], f32, [](double, double b) { return b; });
            Ref out{c.shape, f32, {}};
            for (size_t i = 0; i < c.v.size(); ++i) out.v.push_back(c.v[i] != 0 ? xy.v[i] : yy.v[i]);
            return out;
        });
    t.add(
        "where with numbers", {B({2, 3})}, [](const Ins& x, Device) { return zyx::where(x[0], 1.5, -2); },
        [](const Refs& r) { return map(r[0], f32, [](double c) { return c != 0 ? 1.5 : -2.0; }); });
    t.add(
        "where bool,i8,number", {B({4}), I(i8, {4})}, [](const Ins& x, Device) { return zyx::where(x[0], x[1], 7); },
        [](const Refs& r) { return zip(r[0], r[1], i8, [](double c, double v) { return c != 0 ? v : 7.0; }); });
    // Empty and 0-d operands.
    t.add(
        "add empty [0,3]+[3]", {R(f32, {0, 3}), R(f32, {3})}, [](const Ins& x, Device) { return x[0] + x[1]; },
        [](const Refs& r) { return zip(r[0], r[1], f32, [](double a, double b) { return a + b; }); });
    t.add(
        "mul 0-d * [2,2]", {R(f32, {}), R(f32, {2, 2})}, [](const Ins& x, Device) { return x[0] * x[1]; },
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

// Every axes case for the dtypes of kStridedDtypes; two axes with keepdim for the others (axis
// handling is dtype-independent). `input` overrides the values drawn.
void reduction(Table& t, const std::string& name, const std::vector<DType>& dtypes, const RedOp& op,
               const std::function<Ref(const Ref&, const std::vector<int>&, bool)>& ref,
               const std::function<In(DType)>& input = nullptr) {
    for (DType d : dtypes)
        for (const AxesCase& a : kAxes) {
            if (!runs_strided(d) && a.axes != std::vector<int>{0, 2}) continue;
            t.add(
                name + " " + dn(d) + " " + axes_name(a), {input ? input(d) : V(d, {2, 3, 4})},
                [op, a](const Ins& x, Device) { return op(x[0], a); },
                [ref, a](const Refs& r) { return ref(r[0], a.axes.empty() ? all_axes(r[0]) : a.axes, a.keepdim); });
        }
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
    return map(s, float_of(x.dtype),
               [n, correction](double v) { return v / double(std::max<int64_t>(0, n - correction)); });
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
    reduction(
        t, "sum", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.sum() : x.sum(a.axes, a.keepdim); },
        [add](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, sum_of(x.dtype), 0, add); });
    reduction(
        t, "prod", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.prod() : x.prod(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) {
            return reduce(x, ax, k, sum_of(x.dtype), 1, [](double a, double b) { return a * b; });
        },
        [](DType d) {  // small factors: 24 of them stay exact in every result dtype
            if (d == b8) return B({2, 3, 4});
            if (zyx::dtype_is_float(d)) return R(d, {2, 3, 4}, -1.5, 1.5);
            return I(d, {2, 3, 4}, zyx::dtype_is_unsigned_int(d) ? 0 : -2, 2);
        });
    // prod of 24 elements fused with its elementwise input (x * 0.5).
    t.add(
        "prod of x * 0.5 f32", {R(f32, {2, 3, 4})}, [](const Ins& x, Device) { return (x[0] * 0.5).prod(1); },
        [](const Refs& r) {
            return reduce(map(r[0], f32, [](double v) { return v * 0.5; }), {1}, false, f32, 1,
                          [](double a, double b) { return a * b; });
        });
    reduction(
        t, "max", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.max() : x.max(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, -kInf, nan_max); });
    reduction(
        t, "min", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.min() : x.min(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, kInf, nan_min); });
    reduction(
        t, "mean", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.mean() : x.mean(a.axes, a.keepdim); },
        mean_ref);
    reduction(
        t, "var", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.var() : x.var(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) { return var_ref(x, ax, k, 1); });
    reduction(
        t, "std", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.std() : x.std(a.axes, a.keepdim, 0); },
        [](const Ref& x, const std::vector<int>& ax, bool k) {
            bool all = ax.size() == x.shape.size();
            return map(var_ref(x, ax, k, all ? 1 : 0), float_of(x.dtype), [](double v) { return std::sqrt(v); });
        });
    reduction(
        t, "logsumexp", kAll,
        [](const Tensor& x, const AxesCase& a) {
            return x.logsumexp(a.axes.empty() ? zyx::Axes({0, 1, 2}) : zyx::Axes(a.axes), a.keepdim);
        },
        [](const Ref& x, const std::vector<int>& ax, bool k) {
            Ref m = reduce(x, ax, true, f64, -kInf, nan_max);
            Ref e = zip(x, m, f64, [](double a, double b) { return std::exp(a - b); });
            Ref s = reduce(e, ax, true, f64, 0, [](double a, double b) { return a + b; });
            Ref r = zip(m, s, float_of(x.dtype), [](double a, double b) { return a + std::log(b); });
            if (k) return r;
            Shape sh;
            std::vector<int> n = norm(ax, x.shape.size());
            for (size_t d = 0; d < x.shape.size(); ++d)
                if (std::find(n.begin(), n.end(), int(d)) == n.end()) sh.push_back(x.shape[d]);
            return reshape(r, sh);
        });
    for (DType d : {f32, f16, bf16, f64})
        for (int axis : {-1, 0, 1}) {
            t.add(
                "softmax " + dn(d) + " axis " + std::to_string(axis), {R(d, {3, 4}, -5, 5)},
                [axis](const Ins& x, Device) { return x[0].softmax(axis); },
                [axis](const Refs& r) { return softmax_ref(r[0], axis, false); });
            t.add(
                "log_softmax " + dn(d) + " axis " + std::to_string(axis), {R(d, {3, 4}, -5, 5)},
                [axis](const Ins& x, Device) { return x[0].log_softmax(axis); },
                [axis](const Refs& r) { return softmax_ref(r[0], axis, true); });
        }
    t.add(
        "softmax wide f32 [2,100]", {R(f32, {2, 100}, -20, 20)}, [](const Ins& x, Device) { return x[0].softmax(1); },
        [](const Refs& r) { return softmax_ref(r[0], 1, false); });
    // Long non-last axes: on the host the consumer kernel runs with the softmax axis innermost
    // and writes its output through a permuted view.
    t.add(
        "softmax f32 [40,3] axis 0", {R(f32, {40, 3}, -5, 5)}, [](const Ins& x, Device) { return x[0].softmax(0); },
        [](const Refs& r) { return softmax_ref(r[0], 0, false); });
    t.add(
        "log_softmax f32 [2,40,3] axis 1", {R(f32, {2, 40, 3}, -5, 5)},
        [](const Ins& x, Device) { return x[0].log_softmax(1); },
        [](const Refs& r) { return softmax_ref(r[0], 1, true); });
    t.add(
        "softmax bf16 [2,40,3] axis -2", {R(bf16, {2, 40, 3}, -5, 5)},
        [](const Ins& x, Device) { return x[0].softmax(-2); },
        [](const Refs& r) { return softmax_ref(r[0], 1, false); });
    for (DType d : kIntsBool) {  // computed in f32
        t.add(
            "softmax " + dn(d) + " -> f32", {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0].softmax(1); },
            [](const Refs& r) { return softmax_ref(r[0], 1, false); });
        t.add(
            "log_softmax " + dn(d) + " -> f32", {V(d, {2, 3})},
            [](const Ins& x, Device) { return x[0].log_softmax(-1); },
            [](const Refs& r) { return softmax_ref(r[0], 1, true); });
    }
    for (DType d : {f32, i32, bf16})
        for (int axis : {0, 1, -1})
            for (bool keep : {false, true}) {
                // Integer values with ties: the first position must win.
                In in = zyx::dtype_is_float(d) ? I(d, {3, 5}, -2, 2) : I(d, {3, 5}, -2, 2);
                std::string suffix = dn(d) + " axis " + std::to_string(axis) + (keep ? " keep" : "");
                t.add(
                    "argmax " + suffix, {in}, [axis, keep](const Ins& x, Device) { return x[0].argmax(axis, keep); },
                    [axis, keep](const Refs& r) { return arg_ref(r[0], axis, keep, true); });
                t.add(
                    "argmin " + suffix, {in}, [axis, keep](const Ins& x, Device) { return x[0].argmin(axis, keep); },
                    [axis, keep](const Refs& r) { return arg_ref(r[0], axis, keep, false); });
            }
    for (DType d : kAll) {  // the other dtypes along one axis (ties: the first position wins)
        if (d == f32 || d == i32 || d == bf16) continue;
        In in = d == b8 ? B({3, 5}) : I(d, {3, 5}, zyx::dtype_is_unsigned_int(d) ? 0 : -2, 2);
        t.add(
            "argmax " + dn(d) + " axis 1", {in}, [](const Ins& x, Device) { return x[0].argmax(1); },
            [](const Refs& r) { return arg_ref(r[0], 1, false, true); });
        t.add(
            "argmin " + dn(d) + " axis 0 keep", {in}, [](const Ins& x, Device) { return x[0].argmin(0, true); },
            [](const Refs& r) { return arg_ref(r[0], 0, true, false); });
    }
    t.add(
        "argmax flat", {I(f32, {3, 4}, -3, 3)}, [](const Ins& x, Device) { return x[0].argmax(); },
        [](const Refs& r) { return arg_ref(reshape(r[0], {12}), 0, false, true); });
    t.add(
        "argmax NaN first", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].argmax(1); },
        [](const Refs& r) { return arg_ref(r[0], 1, false, true); });
    // Empty reductions: identities. Size-1 axes.
    t.add(
        "sum over empty axis", {R(f32, {2, 0})}, [](const Ins& x, Device) { return x[0].sum(1); },
        [add](const Refs& r) { return reduce(r[0], {1}, false, f32, 0, add); });
    t.add(
        "prod over empty axis", {R(f32, {0, 2})}, [](const Ins& x, Device) { return x[0].prod(0); },
        [](const Refs& r) { return reduce(r[0], {0}, false, f32, 1, [](double a, double b) { return a * b; }); });
    t.add(
        "max over empty axis", {R(f32, {3, 0})}, [](const Ins& x, Device) { return x[0].max(1); },
        [](const Refs& r) { return reduce(r[0], {1}, false, f32, -kInf, nan_max); });
    t.add(
        "sum of empty [0]", {R(i32, {0})}, [](const Ins& x, Device) { return x[0].sum(); },
        [add](const Refs& r) { return reduce(r[0], {0}, false, i32, 0, add); });
    t.add(
        "sum size-1 axes", {R(f32, {1, 4, 1})},
        [](const Ins& x, Device) {
            return x[0].sum({0, 2});
        },
        [add](const Refs& r) {
            return reduce(r[0], {0, 2}, false, f32, 0, add);
        });
    t.add(
        "sum 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].sum(); }, [](const Refs& r) { return r[0]; });
    // A 0-d tensor takes axis 0 or -1, as PyTorch (reducing its one element).
    auto same = [](const Refs& r) { return r[0]; };
    t.add(
        "sum 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].sum(0); }, same);
    t.add(
        "sum 0-d axis -1 keepdim i8 -> i32", {I(i8, {})}, [](const Ins& x, Device) { return x[0].sum(-1, true); },
        [](const Refs& r) { return cast(r[0], i32); });
    t.add(
        "prod 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].prod(0); }, same);
    t.add(
        "max 0-d axis -1", {I(i32, {})}, [](const Ins& x, Device) { return x[0].max(-1); }, same);
    t.add(
        "mean 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].mean(0); }, same);
    t.add(
        "var 0-d axis 0 (n − 1 = 0: nan)", {R(f32, {})}, [](const Ins& x, Device) { return x[0].var(0); },
        [](const Refs& r) { return map(r[0], f32, [](double) { return kNaN; }); });
    t.add(
        "std 0-d axis 0 correction 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].std(0, false, 0); },
        [](const Refs& r) { return map(r[0], f32, [](double) { return 0.0; }); });
    t.add(
        "logsumexp 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].logsumexp(0); }, same);
    t.add(
        "softmax 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].softmax(0); },
        [](const Refs& r) { return map(r[0], f32, [](double) { return 1.0; }); });
    t.add(
        "log_softmax 0-d axis -1", {R(f32, {})}, [](const Ins& x, Device) { return x[0].log_softmax(-1); },
        [](const Refs& r) { return map(r[0], f32, [](double) { return 0.0; }); });
    t.add(
        "argmax 0-d axis 0", {R(f32, {})}, [](const Ins& x, Device) { return x[0].argmax(0, true); },
        [](const Refs& r) { return map(r[0], i32, [](double) { return 0.0; }); });
    t.add(
        "max NaN propagates", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].max(1); },
        [](const Refs& r) { return reduce(r[0], {1}, false, f32, -kInf, nan_max); });
    return t;
}

// ---- group: movement ------------------------------------------------------------------------------

// Movement ops take every dtype (and only move bytes of its size).
const std::vector<DType>& kMoveDtypes = kAll;

void movement(Table& t, const std::string& name, const Shape& in_shape, const std::function<Tensor(const Tensor&)>& op,
              const std::function<Ref(const Ref&)>& ref) {
    for (DType d : kMoveDtypes)
        t.add(
            name + " " + dn(d), {V(d, in_shape)}, [op](const Ins& x, Device) { return op(x[0]); },
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
    return gather(
        a, out, a.dtype,
        [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
            in = o;
            for (size_t d = 0; d < p.size(); ++d) {
                in[d] = o[d] - p[d].first;
                if (in[d] < 0 || in[d] >= a.shape[d]) return false;
            }
            return true;
        },
        as_dtype(value, a.dtype));
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

// einsum from its definition: for every index of the output labels, the sum over every index of
// the other labels of the product of the operands at those labels. Without "->" the output is the
// labels that appear once, in alphabetical order.
Ref einsum_ref(const std::string& eq, const Refs& ops, DType out) {
    size_t arrow = eq.find("->");
    std::string lhs = eq.substr(0, arrow), outl;
    std::vector<std::string> terms(1);
    for (char ch : lhs) {
        if (ch == ',')
            terms.emplace_back();
        else
            terms.back() += ch;
    }
    std::map<char, int64_t> size, count;
    for (size_t o = 0; o < terms.size(); ++o)
        for (size_t d = 0; d < terms[o].size(); ++d) {
            size[terms[o][d]] = ops[o].shape[d];
            ++count[terms[o][d]];
        }
    if (arrow != std::string::npos) {
        outl = eq.substr(arrow + 2);
    } else {
        for (auto [ch, n] : count)
            if (n == 1) outl += ch;
    }
    std::string inner;
    for (auto [ch, n] : size)
        if (outl.find(ch) == std::string::npos) inner += ch;
    Shape os, is;
    for (char ch : outl) os.push_back(size[ch]);
    for (char ch : inner) is.push_back(size[ch]);
    Ref r{os, out, {}};
    for (int64_t i = 0; i < numel(os); ++i) {
        std::map<char, int64_t> at;
        auto oi = unravel(i, os);
        for (size_t d = 0; d < outl.size(); ++d) at[outl[d]] = oi[d];
        double s = 0;
        for (int64_t j = 0; j < numel(is); ++j) {
            auto ii = unravel(j, is);
            for (size_t d = 0; d < inner.size(); ++d) at[inner[d]] = ii[d];
            double p = 1;
            for (size_t o = 0; o < terms.size(); ++o) {
                std::vector<int64_t> idx;
                for (char ch : terms[o]) idx.push_back(at[ch]);
                p *= ops[o].v[size_t(ravel(idx, ops[o].shape))];
            }
            s += p;
        }
        r.v.push_back(as_dtype(s, out));
    }
    return r;
}

Table movement_group() {
    Table t;
    // einsum (lowered to permutes, diagonals, broadcasts, a product and a sum): the matrix
    // product forms on f32 and bf16, the others on f32.
    struct Ein {
        std::string eq;
        std::vector<Shape> shapes;
    };
    for (const Ein& e : {Ein{"ij,jk->ik", {{3, 4}, {4, 2}}}, Ein{"bij,bjk->bik", {{2, 3, 4}, {2, 4, 2}}},
                         Ein{"ii->i", {{3, 3}}}, Ein{"i,j->ij", {{3}, {4}}}, Ein{"ij,jk", {{2, 3}, {3, 4}}}})
        for (DType d : {f32, bf16}) {
            if (d == bf16 && e.eq != "bij,bjk->bik") continue;
            std::vector<In> in;
            for (const Shape& s : e.shapes) in.push_back(V(d, s));
            t.add(
                "einsum " + e.eq + " " + dn(d), in, [eq = e.eq](const Ins& x, Device) { return zyx::einsum(eq, x); },
                [eq = e.eq, d](const Refs& r) { return einsum_ref(eq, r, d); });
        }

    movement(
        t, "reshape -1", {2, 3, 4},
        [](const Tensor& x) {
            return x.reshape({4, -1});
        },
        [](const Ref& a) {
            return reshape(a, {4, 6});
        });
    movement(
        t, "flatten 1..2", {2, 3, 4}, [](const Tensor& x) { return x.flatten(1); },
        [](const Ref& a) {
            return reshape(a, {2, 12});
        });
    movement(
        t, "permute", {2, 3, 4},
        [](const Tensor& x) {
            return x.permute({2, 0, 1});
        },
        [](const Ref& a) {
            return permute(a, {2, 0, 1});
        });
    movement(
        t, "transpose", {2, 3, 4}, [](const Tensor& x) { return x.transpose(0, 2); },
        [](const Ref& a) {
            return permute(a, {2, 1, 0});
        });
    movement(
        t, "transpose then reshape", {3, 4},
        [](const Tensor& x) {
            return x.transpose().reshape({2, 6});
        },
        [](const Ref& a) {
            return reshape(permute(a, {1, 0}), {2, 6});
        });
    movement(
        t, "expand", {3, 1},
        [](const Tensor& x) {
            return x.expand({2, 3, 4});
        },
        [](const Ref& a) {
            return gather(a, {2, 3, 4}, a.dtype, [](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                in = {o[1], 0};
                return true;
            });
        });
    movement(
        t, "pad", {2, 3},
        [](const Tensor& x) {
            return x.pad({{1, 0}, {2, 1}});
        },
        [](const Ref& a) {
            return pad_ref(a, {{1, 0}, {2, 1}}, 0);
        });
    movement(
        t, "pad value 1", {2, 3},
        [](const Tensor& x) {
            return x.pad({{0, 1}, {1, 1}}, 1);
        },
        [](const Ref& a) {
            return pad_ref(a, {{0, 1}, {1, 1}}, 1);
        });
    movement(
        t, "pad negative crops", {3, 4},
        [](const Tensor& x) {
            return x.pad({{-1, 1}, {0, -2}});
        },
        [](const Ref& a) {
            Ref c = slice_ref(slice_ref(a, 0, 1, 3, 1), 1, 0, 2, 1);
            return pad_ref(c, {{0, 1}, {0, 0}}, 0);
        });
    movement(
        t, "pad twice", {2, 2},
        [](const Tensor& x) {
            return x.pad({{1, 1}}).pad({{0, 0}, {1, 0}});
        },
        [](const Ref& a) {
            return pad_ref(pad_ref(a, {{1, 1}}, 0), {{0, 0}, {1, 0}}, 0);
        });
    movement(
        t, "slice step 2", {5, 4}, [](const Tensor& x) { return x.slice(0, 1, 5, 2); },
        [](const Ref& a) { return slice_ref(a, 0, 1, 5, 2); });
    movement(
        t, "slice negative", {5, 4}, [](const Tensor& x) { return x.slice(-1, -3, -1); },
        [](const Ref& a) { return slice_ref(a, 1, 1, 3, 1); });
    movement(
        t, "slice empty", {5, 4}, [](const Tensor& x) { return x.slice(0, 3, 3); },
        [](const Ref& a) { return slice_ref(a, 0, 3, 3, 1); });
    movement(
        t, "index int+range", {4, 5},
        [](const Tensor& x) {
            return x.index({1, zyx::Range(0, 5, 2)});
        },
        [](const Ref& a) { return reshape(slice_ref(slice_ref(a, 0, 1, 2, 1), 1, 0, 5, 2), {3}); });
    movement(
        t, "operator[] -1", {3, 2}, [](const Tensor& x) { return x[-1]; },
        [](const Ref& a) { return reshape(slice_ref(a, 0, 2, 3, 1), {2}); });
    movement(
        t, "flip", {3, 4},
        [](const Tensor& x) {
            return x.flip({0, 1});
        },
        [](const Ref& a) {
            return gather(a, a.shape, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                in = {a.shape[0] - 1 - o[0], a.shape[1] - 1 - o[1]};
                return true;
            });
        });
    movement(
        t, "flip then slice", {6}, [](const Tensor& x) { return x.flip(0).slice(0, 1, 6, 2); },
        [](const Ref& a) {
            Ref f = gather(a, a.shape, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                in = {a.shape[0] - 1 - o[0]};
                return true;
            });
            return slice_ref(f, 0, 1, 6, 2);
        });
    movement(
        t, "squeeze", {1, 3, 1}, [](const Tensor& x) { return x.squeeze(); },
        [](const Ref& a) { return reshape(a, {3}); });
    movement(
        t, "squeeze axis", {1, 3, 1}, [](const Tensor& x) { return x.squeeze(-1); },
        [](const Ref& a) {
            return reshape(a, {1, 3});
        });
    movement(
        t, "squeeze axis of size 3: unchanged", {2, 3}, [](const Tensor& x) { return x.squeeze(1); },
        [](const Ref& a) { return a; });
    t.add(
        "squeeze, flip, transpose of 0-d", {R(f32, {})},
        [](const Ins& x, Device) { return x[0].squeeze(0).flip(-1).transpose(0, -1) * 2; },
        [](const Refs& r) { return map(r[0], f32, [](double v) { return 2 * v; }); });
    movement(
        t, "unsqueeze", {2, 3}, [](const Tensor& x) { return x.unsqueeze(1); },
        [](const Ref& a) {
            return reshape(a, {2, 1, 3});
        });
    movement(
        t, "unsqueeze end", {2, 3}, [](const Tensor& x) { return x.unsqueeze(-1); },
        [](const Ref& a) {
            return reshape(a, {2, 3, 1});
        });
    movement(
        t, "repeat", {2, 3},
        [](const Tensor& x) {
            return x.repeat({2, 1, 2});
        },
        [](const Ref& a) {
            return gather(a, {2, 2, 6}, a.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                in = {o[1] % 2, o[2] % 3};
                return true;
            });
        });
    movement(
        t, "split [1]", {5, 2}, [](const Tensor& x) { return x.split(2, 0)[1]; },
        [](const Ref& a) { return slice_ref(a, 0, 2, 4, 1); });
    movement(
        t, "split last short", {5, 2}, [](const Tensor& x) { return x.split(2, 0)[2]; },
        [](const Ref& a) { return slice_ref(a, 0, 4, 5, 1); });
    movement(
        t, "split sizes", {2, 6},
        [](const Tensor& x) {
            return x.split(std::vector<int64_t>{1, 3, 2}, 1)[1];
        },
        [](const Ref& a) { return slice_ref(a, 1, 1, 4, 1); });
    movement(
        t, "chunk", {7}, [](const Tensor& x) { return x.chunk(3)[2]; },
        [](const Ref& a) { return slice_ref(a, 0, 6, 7, 1); });
    for (DType d : kMoveDtypes) {
        t.add(
            "cat axis 1 " + dn(d), {V(d, {2, 3}), V(d, {2, 1}), V(d, {2, 0}), V(d, {2, 2})},
            [](const Ins& x, Device) { return zyx::cat(x, 1); }, [d](const Refs& r) { return cat_ref(r, 1, d); });
        t.add(
            "stack axis 0 " + dn(d), {V(d, {2, 3}), V(d, {2, 3})},
            [](const Ins& x, Device) { return zyx::stack(x, 0); },
            [d](const Refs& r) {
                return cat_ref({reshape(r[0], {1, 2, 3}), reshape(r[1], {1, 2, 3})}, 0, d);
            });
        t.add(
            "stack axis -1 " + dn(d), {V(d, {3}), V(d, {3})}, [](const Ins& x, Device) { return zyx::stack(x, -1); },
            [d](const Refs& r) {
                return cat_ref({reshape(r[0], {3, 1}), reshape(r[1], {3, 1})}, 1, d);
            });
    }
    t.add(
        "cat promotes i32,f32", {I(i32, {2}), R(f32, {3})}, [](const Ins& x, Device) { return zyx::cat(x); },
        [](const Refs& r) { return cat_ref(r, 0, f32); });
    t.add(
        "cat keeps -0.0", {Sp(f32, {10}), Sp(f32, {10})}, [](const Ins& x, Device) { return zyx::cat(x).sign(); },
        [](const Refs& r) {
            return map(cat_ref(r, 0, f32), f32, [](double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; });
        });
    t.add(
        "cat of computed", {R(f32, {2}), R(f32, {2})},
        [](const Ins& x, Device) {
            return zyx::cat({x[0].exp(), x[1] * 2});
        },
        [](const Refs& r) {
            return cat_ref(
                {map(r[0], f32, [](double v) { return std::exp(v); }), map(r[1], f32, [](double v) { return 2 * v; })},
                0, f32);
        });
    t.add(
        "expand of computed then sum", {R(f32, {3, 1})},
        [](const Ins& x, Device) {
            return x[0].exp().expand({3, 4}).sum(0);
        },
        [](const Refs& r) {
            Ref e = map(r[0], f64, [](double v) { return std::exp(v); });
            Ref big = gather(e, {3, 4}, f64, [](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                in = {o[0], 0};
                return true;
            });
            return reduce(big, {0}, false, f32, 0, [](double a, double b) { return a + b; });
        });
    t.add(
        "contiguous of permuted", {R(f32, {2, 3})},
        [](const Ins& x, Device) {
            return x[0].permute({1, 0}).contiguous();
        },
        [](const Refs& r) {
            return permute(r[0], {1, 0});
        });
    // tril / triu: (row i, column j) of the last two axes kept when j − i <= k (tril) or >= k (triu).
    auto triangle_ref = [](Ref a, int64_t k, bool lower) {
        size_t rk = a.shape.size();
        for (int64_t i = 0; i < numel(a.shape); ++i) {
            auto idx = unravel(i, a.shape);
            int64_t off = idx[rk - 1] - idx[rk - 2];
            if (lower ? off > k : off < k) a.v[size_t(i)] = 0;
        }
        return a;
    };
    for (DType d : kAll) {
        t.add(
            "tril " + dn(d), {V(d, {3, 4})}, [](const Ins& x, Device) { return x[0].tril(); },
            [=](const Refs& r) { return triangle_ref(r[0], 0, true); });
        t.add(
            "triu " + dn(d), {V(d, {4, 3})}, [](const Ins& x, Device) { return x[0].triu(); },
            [=](const Refs& r) { return triangle_ref(r[0], 0, false); });
    }
    for (int64_t k : {1, -1, 2, -3, 9, -9}) {
        t.add(
            "tril diagonal " + std::to_string(k) + " [2,3,4]", {R(f32, {2, 3, 4})},
            [k](const Ins& x, Device) { return zyx::tril(x[0], k); },
            [=](const Refs& r) { return triangle_ref(r[0], k, true); });
        t.add(
            "triu diagonal " + std::to_string(k) + " [2,4,3]", {R(f32, {2, 4, 3})},
            [k](const Ins& x, Device) { return zyx::triu(x[0], k); },
            [=](const Refs& r) { return triangle_ref(r[0], k, false); });
    }
    t.add(
        "tril specials f32 [2,5]", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].tril(1); },
        [=](const Refs& r) { return triangle_ref(r[0], 1, true); });
    t.add(
        "triu of computed bf16 [3,3]", {R(bf16, {3, 3})}, [](const Ins& x, Device) { return (x[0] * 2).triu(-1); },
        [=](const Refs& r) { return triangle_ref(map(r[0], bf16, [](double v) { return 2 * v; }), -1, false); });
    t.add(
        "tril empty [0,3]", {R(f32, {0, 3})}, [](const Ins& x, Device) { return x[0].tril(); },
        [=](const Refs& r) { return triangle_ref(r[0], 0, true); });
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
    int64_t N = x.shape[0], H = x.shape[2], W = x.shape[3];
    int64_t O = w.shape[0], Cg = w.shape[1], KH = w.shape[2], KW = w.shape[3], G = o.groups, Og = O / G;
    int64_t OH = (H + 2 * o.padding.h - o.dilation.h * (KH - 1) - 1) / o.stride.h + 1;
    int64_t OW = (W + 2 * o.padding.w - o.dilation.w * (KW - 1) - 1) / o.stride.w + 1;
    Ref r{{N, O, OH, OW}, x.dtype, {}};
    for (int64_t n = 0; n < N; ++n)
        for (int64_t oc = 0; oc < O; ++oc)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double s = bias ? bias->v[size_t(oc)] : 0;
                    int64_t g = oc / Og;
                    for (int64_t c = 0; c < Cg; ++c)
                        for (int64_t kh = 0; kh < KH; ++kh)
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                int64_t h = oh * o.stride.h - o.padding.h + kh * o.dilation.h;
                                int64_t ww = ow * o.stride.w - o.padding.w + kw * o.dilation.w;
                                if (h < 0 || h >= H || ww < 0 || ww >= W) continue;
                                s += x.v[size_t(ravel({n, g * Cg + c, h, ww}, x.shape))] *
                                    w.v[size_t(ravel({oc, c, kh, kw}, w.shape))];
                            }
                    r.v.push_back(as_dtype(s, x.dtype));
                }
    return r;
}

Ref pool_ref(const Ref& x, zyx::Size2d k, zyx::Size2d stride, zyx::Size2d pad, bool is_max) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    int64_t OH = (H + 2 * pad.h - k.h) / stride.h + 1, OW = (W + 2 * pad.w - k.w) / stride.w + 1;
    Ref r{{N, C, OH, OW}, float_of(x.dtype), {}};
    if (is_max) r.dtype = x.dtype;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    double acc = is_max ? -kInf : 0;
                    for (int64_t kh = 0; kh < k.h; ++kh)
                        for (int64_t kw = 0; kw < k.w; ++kw) {
                            int64_t h = oh * stride.h - pad.h + kh, w = ow * stride.w - pad.w + kw;
                            double v = (h < 0 || h >= H || w < 0 || w >= W) ? (is_max ? -kInf : 0)
                                                                            : x.v[size_t(ravel({n, c, h, w}, x.shape))];
                            acc = is_max ? nan_max(acc, v) : acc + v;
                        }
                    r.v.push_back(as_dtype(is_max ? acc : acc / double(k.h * k.w), r.dtype));
                }
    return r;
}

std::string size2d_name(zyx::Size2d s) {
    return s.h == s.w ? std::to_string(s.h) : "(" + std::to_string(s.h) + "," + std::to_string(s.w) + ")";
}

// conv_transpose2d from its definition (the adjoint of conv2d): input cell (ih, iw) of channel
// g·Cg + c adds x·w[g·Cg + c, oc, kh, kw] to output cell (ih·s − p + kh·d, iw·s − p + kw·d) of
// channel g·Og + oc.
Ref conv_t_ref(const Ref& x, const Ref& w, const Ref* bias, const zyx::ConvTranspose2dOptions& o) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    int64_t Og = w.shape[1], KH = w.shape[2], KW = w.shape[3], G = o.groups, Cg = C / G, O = Og * G;
    int64_t OH = (H - 1) * o.stride.h - 2 * o.padding.h + o.dilation.h * (KH - 1) + o.output_padding.h + 1;
    int64_t OW = (W - 1) * o.stride.w - 2 * o.padding.w + o.dilation.w * (KW - 1) + o.output_padding.w + 1;
    Shape os = {N, O, OH, OW};
    std::vector<double> acc(size_t(numel(os)), 0);
    for (int64_t n = 0; n < N; ++n)
        for (int64_t oc = 0; oc < O; ++oc)
            for (int64_t i = 0; i < OH * OW; ++i)
                acc[size_t(ravel({n, oc, i / OW, i % OW}, os))] = bias ? bias->v[size_t(oc)] : 0;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t ic = 0; ic < C; ++ic)
            for (int64_t ih = 0; ih < H; ++ih)
                for (int64_t iw = 0; iw < W; ++iw)
                    for (int64_t oc = 0; oc < Og; ++oc)
                        for (int64_t kh = 0; kh < KH; ++kh)
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                int64_t h = ih * o.stride.h - o.padding.h + kh * o.dilation.h;
                                int64_t ww = iw * o.stride.w - o.padding.w + kw * o.dilation.w;
                                if (h < 0 || h >= OH || ww < 0 || ww >= OW) continue;
                                acc[size_t(ravel({n, (ic / Cg) * Og + oc, h, ww}, os))] +=
                                    x.v[size_t(ravel({n, ic, ih, iw}, x.shape))] *
                                    w.v[size_t(ravel({ic, oc, kh, kw}, w.shape))];
                            }
    Ref r{os, x.dtype, {}};
    for (double v : acc) r.v.push_back(as_dtype(v, x.dtype));
    return r;
}

// Pooling with PyTorch's options: output size floor (or ceil, dropping a last window that starts
// in the right padding) of (H + 2p − d(k − 1) − 1) / s, plus 1. avg: the window [start, min(start
// + k, H + p)) counted whole with count_include_pad, else only its cells inside the input.
Ref pool_opt_ref(const Ref& x, zyx::Size2d k, const zyx::Pool2dOptions& o, bool is_max) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    auto osize = [&](int64_t n, int64_t kk, int64_t s, int64_t p, int64_t d) {
        int64_t num = n + 2 * p - d * (kk - 1) - 1;
        int64_t out = (o.ceil_mode ? (num + s - 1) / s : num / s) + 1;
        if (o.ceil_mode && (out - 1) * s >= n + p) --out;
        return out;
    };
    int64_t sh = o.stride.h ? o.stride.h : k.h, sw = o.stride.w ? o.stride.w : k.w;
    int64_t OH = osize(H, k.h, sh, o.padding.h, o.dilation.h), OW = osize(W, k.w, sw, o.padding.w, o.dilation.w);
    Ref r{{N, C, OH, OW}, is_max ? x.dtype : float_of(x.dtype), {}};
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    int64_t hs = oh * sh - o.padding.h, ws = ow * sw - o.padding.w;
                    auto at = [&](int64_t h, int64_t w) { return x.v[size_t(ravel({n, c, h, w}, x.shape))]; };
                    double acc;
                    if (is_max) {
                        acc = -kInf;
                        for (int64_t kh = 0; kh < k.h; ++kh)
                            for (int64_t kw = 0; kw < k.w; ++kw) {
                                int64_t h = hs + kh * o.dilation.h, w = ws + kw * o.dilation.w;
                                if (h >= 0 && h < H && w >= 0 && w < W) acc = nan_max(acc, at(h, w));
                            }
                    } else {
                        int64_t he = std::min(hs + k.h, H + o.padding.h), we = std::min(ws + k.w, W + o.padding.w);
                        int64_t whole = (he - hs) * (we - ws);
                        hs = std::max<int64_t>(hs, 0), ws = std::max<int64_t>(ws, 0);
                        he = std::min(he, H), we = std::min(we, W);
                        acc = 0;
                        for (int64_t h = hs; h < he; ++h)
                            for (int64_t w = ws; w < we; ++w) acc += at(h, w);
                        int64_t div = o.divisor_override > 0 ? o.divisor_override
                            : o.count_include_pad            ? whole
                                                             : (he - hs) * (we - ws);
                        acc /= double(div);
                    }
                    r.v.push_back(as_dtype(acc, r.dtype));
                }
    return r;
}

// Adaptive pooling: output cell i covers rows floor(i·H/OH) .. ceil((i + 1)·H/OH) − 1.
Ref adaptive_ref(const Ref& x, int64_t OH, int64_t OW, bool is_max) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    Ref r{{N, C, OH, OW}, is_max ? x.dtype : float_of(x.dtype), {}};
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    int64_t hs = oh * H / OH, he = ((oh + 1) * H + OH - 1) / OH;
                    int64_t ws = ow * W / OW, we = ((ow + 1) * W + OW - 1) / OW;
                    double acc = is_max ? -kInf : 0;
                    for (int64_t h = hs; h < he; ++h)
                        for (int64_t w = ws; w < we; ++w) {
                            double v = x.v[size_t(ravel({n, c, h, w}, x.shape))];
                            acc = is_max ? nan_max(acc, v) : acc + v;
                        }
                    r.v.push_back(as_dtype(is_max ? acc : acc / double((he - hs) * (we - ws)), r.dtype));
                }
    return r;
}

// interpolate: mode 0 nearest (source floor(i·H/OH), or floor(i / scale)), 1 bilinear with
// align_corners false (source (i + ½)·H/OH − ½ clamped at 0), 2 bilinear with align_corners true
// (source i·(H − 1)/(OH − 1)).
Ref interp_ref(const Ref& x, int64_t OH, int64_t OW, int mode, double scale = 0) {
    int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
    Ref r{{N, C, OH, OW}, mode == 0 ? x.dtype : float_of(x.dtype), {}};
    auto src = [&](int64_t i, int64_t in, int64_t out) {
        if (mode == 1) return std::max(0.0, (double(i) + 0.5) * double(in) / double(out) - 0.5);
        return out > 1 ? double(i) * double(in - 1) / double(out - 1) : 0.0;
    };
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t oh = 0; oh < OH; ++oh)
                for (int64_t ow = 0; ow < OW; ++ow) {
                    auto at = [&](int64_t h, int64_t w) { return x.v[size_t(ravel({n, c, h, w}, x.shape))]; };
                    if (mode == 0) {
                        int64_t h = scale > 0 ? int64_t(std::floor(double(oh) / scale)) : oh * H / OH;
                        int64_t w = scale > 0 ? int64_t(std::floor(double(ow) / scale)) : ow * W / OW;
                        r.v.push_back(at(std::min(h, H - 1), std::min(w, W - 1)));
                        continue;
                    }
                    double sh = src(oh, H, OH), sw = src(ow, W, OW);
                    int64_t h0 = int64_t(std::floor(sh)), w0 = int64_t(std::floor(sw));
                    int64_t h1 = std::min(h0 + 1, H - 1), w1 = std::min(w0 + 1, W - 1);
                    double lh = sh - double(h0), lw = sw - double(w0);
                    double v = (1 - lh) * ((1 - lw) * at(h0, w0) + lw * at(h0, w1)) +
                        lh * ((1 - lw) * at(h1, w0) + lw * at(h1, w1));
                    r.v.push_back(as_dtype(v, r.dtype));
                }
    return r;
}

// Normalisation of x [N, C, S…] over the cells with the same key (channel for batch_norm, group
// for group_norm): (x − mean)/sqrt(var + eps)·w[c] + b[c] with given statistics (mean, var per
// key, when `given`) or the batch's (biased variance).
Ref norm_ref(const Ref& x, int64_t keys, const std::function<int64_t(int64_t c)>& key_of, const Ref* mean,
             const Ref* var, const Ref* w, const Ref* b, double eps) {
    int64_t N = x.shape[0], C = x.shape[1], S = numel(x.shape) / (N * C);
    std::vector<double> m(size_t(keys), 0), v(size_t(keys), 0), cnt(size_t(keys), 0);
    for (int64_t i = 0; i < numel(x.shape); ++i) {
        int64_t k = key_of(i / S % C);
        m[size_t(k)] += x.v[size_t(i)], cnt[size_t(k)] += 1;
    }
    for (int64_t k = 0; k < keys; ++k) m[size_t(k)] /= cnt[size_t(k)];
    for (int64_t i = 0; i < numel(x.shape); ++i) {
        int64_t k = key_of(i / S % C);
        v[size_t(k)] += (x.v[size_t(i)] - m[size_t(k)]) * (x.v[size_t(i)] - m[size_t(k)]) / cnt[size_t(k)];
    }
    Ref r{x.shape, float_of(x.dtype), {}};
    for (int64_t i = 0; i < numel(x.shape); ++i) {
        int64_t c = i / S % C, k = key_of(c);
        double mu = mean ? mean->v[size_t(k)] : m[size_t(k)], s2 = var ? var->v[size_t(k)] : v[size_t(k)];
        double y = (x.v[size_t(i)] - mu) / std::sqrt(s2 + eps);
        if (w) y *= w->v[size_t(c)];
        if (b) y += b->v[size_t(c)];
        r.v.push_back(as_dtype(y, r.dtype));
    }
    return r;
}

// A loss per element (or sample) reduced: none keeps `shape`, sum adds, mean divides the sum by
// `divisor` (the count when 0), batchmean by the batch size.
Ref reduce_loss(const std::vector<double>& per, const Shape& shape, zyx::Reduction red, DType out, double divisor = 0,
                int64_t batch = 1) {
    if (red == zyx::Reduction::none) {
        Ref r{shape, out, {}};
        for (double v : per) r.v.push_back(as_dtype(v, out));
        return r;
    }
    double s = 0;
    for (double v : per) s += v;
    if (red == zyx::Reduction::mean) s /= divisor > 0 ? divisor : double(per.size());
    if (red == zyx::Reduction::batchmean) s /= double(batch);
    return Ref{{}, out, {as_dtype(s, out)}};
}

std::string reduction_name(zyx::Reduction r) {
    return r == zyx::Reduction::none ? "none"
        : r == zyx::Reduction::sum   ? "sum"
        : r == zyx::Reduction::mean  ? "mean"
                                     : "batchmean";
}

// nll of log-probabilities lp [N, C] (f64 values), targets t [N], PyTorch's weighting and
// ignore_index, with label smoothing eps (the smoothing term −Σ_c w[c]·lp[n, c]·eps/C).
Ref nll_ref(const Ref& lp, const Ref& t, const Ref* w, int64_t ignore, zyx::Reduction red, double eps, DType out) {
    int64_t N = lp.shape[0], C = lp.shape[1];
    std::vector<double> per;
    double wsum = 0;
    for (int64_t n = 0; n < N; ++n) {
        int64_t k = int64_t(t.v[size_t(n)]);
        if (k == ignore) {
            per.push_back(0);
            continue;
        }
        double wk = w ? w->v[size_t(k)] : 1, smooth = 0;
        for (int64_t c = 0; c < C; ++c) smooth -= (w ? w->v[size_t(c)] : 1) * lp.v[size_t(n * C + c)];
        per.push_back((1 - eps) * -wk * lp.v[size_t(n * C + k)] + eps / double(C) * smooth);
        wsum += wk;
    }
    return reduce_loss(per, {N}, red, out, wsum);
}

Table nn_group() {
    Table t;
    using zyx::Reduction;
    // ---- linear, dropout (deterministic forms), conv1d, conv_transpose2d
    for (DType d : {f32, bf16}) {
        double tol = d == bf16 ? 2 : 1;
        t.add(
            "linear bias " + dn(d), {R(d, {2, 3, 4}), R(d, {5, 4}, -1, 1), R(d, {5})},
            [](const Ins& x, Device) { return zyx::linear(x[0], x[1], x[2]); },
            [d](const Refs& r) {
                Ref y{{2, 3, 5}, d, {}};
                for (int64_t i = 0; i < 6; ++i)
                    for (int64_t o = 0; o < 5; ++o) {
                        double s = r[2].v[size_t(o)];
                        for (int64_t k = 0; k < 4; ++k) s += r[0].v[size_t(i * 4 + k)] * r[1].v[size_t(o * 4 + k)];
                        y.v.push_back(as_dtype(s, d));
                    }
                return y;
            },
            tol);
        if (d == f32)
            t.add(
                "dropout eval p0.5 " + dn(d), {R(d, {3, 4})},
                [](const Ins& x, Device) { return zyx::dropout(x[0], 0.5, false) * 2; },
                [d](const Refs& r) { return map(r[0], d, [](double v) { return 2 * v; }); });
        if (d == f32)
            t.add(
                "conv1d s2 p1 bias " + dn(d), {R(d, {2, 3, 7}), R(d, {4, 3, 3}, -1, 1), R(d, {4})},
                [](const Ins& x, Device) {
                    return zyx::conv1d(x[0], x[1], x[2], {2, 1, 1, 1});
                },
                [](const Refs& r) {
                    Ref y = conv_ref(reshape(r[0], {2, 3, 1, 7}), reshape(r[1], {4, 3, 1, 3}), &r[2],
                                     {{1, 2}, {0, 1}, 1, 1});
                    return reshape(y, {2, 4, 4});
                },
                tol);
        for (int64_t g : {1, 2}) {
            if (d == bf16 && g == 2) continue;
            zyx::ConvTranspose2dOptions o{2, 1, 1, g, 1};
            t.add(
                "conv_transpose2d s2 p1 op1 g" + std::to_string(g) + " " + dn(d),
                {R(d, {1, 4, 3, 3}), R(d, {4, g == 1 ? 3 : 2, 3, 3}, -1, 1), R(d, {g == 1 ? 3 : 4})},
                [o](const Ins& x, Device) { return zyx::conv_transpose2d(x[0], x[1], x[2], o); },
                [o](const Refs& r) { return conv_t_ref(r[0], r[1], &r[2], o); }, tol);
        }
    }
    t.add(
        "linear no bias f32 1-D", {R(f32, {4}), R(f32, {3, 4})},
        [](const Ins& x, Device) { return zyx::linear(x[0], x[1]); },
        [](const Refs& r) {
            return reshape(matmul_ref(r[1], reshape(r[0], {4, 1}), f32), {3});
        });
    // ---- pooling with options, adaptive pooling, interpolate
    struct PoolOpt {
        std::string name;
        zyx::Size2d k;
        zyx::Pool2dOptions o;
        bool is_max;
        bool bf;
    };
    auto popt = [](int64_t s, int64_t p, int64_t dil, bool ceil, bool incl, int64_t div) {
        zyx::Pool2dOptions o;
        o.stride = s, o.padding = p, o.dilation = dil, o.ceil_mode = ceil, o.count_include_pad = incl,
        o.divisor_override = div;
        return o;
    };
    for (const PoolOpt& p :
         {PoolOpt{"max_pool2d k3 s2 p1 ceil", 3, popt(2, 1, 1, true, true, 0), true, false},
          PoolOpt{"max_pool2d k2 s1 d2", 2, popt(1, 0, 2, false, true, 0), true, false},
          PoolOpt{"avg_pool2d k3 s2 p1 ceil no-pad-count", 3, popt(2, 1, 1, true, false, 0), false, false},
          PoolOpt{"avg_pool2d k2 p1 divisor 3", 2, popt(0, 1, 1, false, true, 3), false, false}})
        for (DType d : {f32, bf16}) {
            if (d == bf16 && !p.bf) continue;
            t.add(
                p.name + " " + dn(d), {R(d, {1, 2, 5, 6})},
                [p](const Ins& x, Device) {
                    return p.is_max ? zyx::max_pool2d(x[0], p.k, p.o) : zyx::avg_pool2d(x[0], p.k, p.o);
                },
                [p](const Refs& r) { return pool_opt_ref(r[0], p.k, p.o, p.is_max); });
        }
    for (DType d : {f32, bf16}) {
        if (d == f32)
            t.add(
                "adaptive_avg_pool2d (3,4) " + dn(d), {R(d, {1, 2, 5, 7})},
                [](const Ins& x, Device) {
                    return zyx::adaptive_avg_pool2d(x[0], {3, 4});
                },
                [](const Refs& r) { return adaptive_ref(r[0], 3, 4, false); });
        if (d == f32)
            t.add(
                "adaptive_max_pool2d (3,4) " + dn(d), {R(d, {1, 2, 5, 7})},
                [](const Ins& x, Device) {
                    return zyx::adaptive_max_pool2d(x[0], {3, 4});
                },
                [](const Refs& r) { return adaptive_ref(r[0], 3, 4, true); });
        for (int mode : {0, 1, 2}) {
            if (d == bf16 && mode != 1) continue;
            zyx::InterpolateOptions o;
            o.size = zyx::Size2d(5, 7);
            o.mode = mode == 0 ? "nearest" : "bilinear";
            o.align_corners = mode == 2;
            std::string name = mode == 0 ? "interpolate nearest "
                : mode == 1              ? "interpolate bilinear "
                                         : "interpolate bilinear align_corners ";
            t.add(
                name + "(5,7) " + dn(d), {R(d, {1, 2, 3, 4})},
                [o](const Ins& x, Device) { return zyx::interpolate(x[0], o); },
                [mode](const Refs& r) { return interp_ref(r[0], 5, 7, mode); }, d == bf16 ? 2 : 1);
        }
    }
    // ---- batch_norm (eval with running statistics; training: the batch's), group_norm
    for (DType d : {f32, bf16}) {
        double tol = d == bf16 ? 2 : 1;
        t.add(
            "batch_norm eval " + dn(d), {R(d, {2, 3, 2, 2}), R(d, {3}, -1, 1), P(d, {3}, 0.5, 2), R(d, {3}), R(d, {3})},
            [](const Ins& x, Device) { return zyx::batch_norm(x[0], x[1], x[2], x[3], x[4], false); },
            [](const Refs& r) {
                return norm_ref(
                    r[0], 3, [](int64_t c) { return c; }, &r[1], &r[2], &r[3], &r[4], 1e-5);
            },
            tol);
        if (d == f32)
            t.add(
                "batch_norm training " + dn(d), {R(d, {2, 3, 2, 2}), R(d, {3}), R(d, {3})},
                [](const Ins& x, Device) { return zyx::batch_norm(x[0], Tensor(), Tensor(), x[1], x[2], true); },
                [](const Refs& r) {
                    return norm_ref(
                        r[0], 3, [](int64_t c) { return c; }, nullptr, nullptr, &r[1], &r[2], 1e-5);
                },
                tol);
        if (d == f32)
            t.add(
                "group_norm 2 groups " + dn(d), {R(d, {2, 4, 3}), R(d, {4}), R(d, {4})},
                [](const Ins& x, Device) { return zyx::group_norm(x[0], 2, x[1], x[2]); },
                [](const Refs& r) {
                    // Per sample and group: the key is n·2 + c / 2; norm_ref keys by channel only, so
                    // run it per sample.
                    Ref out{r[0].shape, r[0].dtype == bf16 ? bf16 : f32, {}};
                    for (int64_t n = 0; n < 2; ++n) {
                        Ref xn{{1, 4, 3},
                               r[0].dtype,
                               std::vector<double>(r[0].v.begin() + n * 12, r[0].v.begin() + (n + 1) * 12)};
                        Ref y = norm_ref(
                            xn, 2, [](int64_t c) { return c / 2; }, nullptr, nullptr, &r[1], &r[2], 1e-5);
                        out.v.insert(out.v.end(), y.v.begin(), y.v.end());
                    }
                    return out;
                },
                tol);
    }
    // ---- losses with options. Log-probabilities / logits [4, 5], class targets i32 [4] (one is
    // ignore_index 2 with this seed or not: the reference follows the data).
    for (DType d : {f32, bf16}) {
        double tol = d == bf16 ? 2 : 1;
        t.add(
            "nll_loss weight ignore_index 2 mean " + dn(d), {R(d, {4, 5}, -3, 0), I(i32, {4}, 0, 4), P(d, {5}, 0.5, 2)},
            [](const Ins& x, Device) {
                return zyx::nll_loss(x[0], x[1], {x[2], 2, Reduction::mean});
            },
            [d](const Refs& r) { return nll_ref(r[0], r[1], &r[2], 2, Reduction::mean, 0, d); }, tol);
        if (d == f32)
            t.add(
                "cross_entropy weight ignore_index 1 mean " + dn(d),
                {R(d, {4, 5}), I(i32, {4}, 0, 4), P(d, {5}, 0.5, 2)},
                [](const Ins& x, Device) {
                    return zyx::cross_entropy(x[0], x[1], {x[2], 1, Reduction::mean, 0});
                },
                [d](const Refs& r) {
                    return nll_ref(softmax_ref(cast(r[0], f64), 1, true), r[1], &r[2], 1, Reduction::mean, 0, d);
                },
                tol);
        if (d == f32)
            t.add(
                "binary_cross_entropy mean " + dn(d), {R(d, {3, 4}, 0.02, 0.98), R(d, {3, 4}, 0, 1)},
                [](const Ins& x, Device) { return zyx::binary_cross_entropy(x[0], x[1]); },
                [d](const Refs& r) {
                    std::vector<double> per;
                    for (size_t i = 0; i < r[0].v.size(); ++i) {
                        double p = r[0].v[i], y = r[1].v[i];
                        per.push_back(
                            -(y * std::max(std::log(p), -100.0) + (1 - y) * std::max(std::log(1 - p), -100.0)));
                    }
                    return reduce_loss(per, {3, 4}, Reduction::mean, d);
                },
                tol);
        if (d == f32)
            t.add(
                "binary_cross_entropy_with_logits weight pos_weight mean " + dn(d),
                {R(d, {3, 4}, -4, 4), R(d, {3, 4}, 0, 1), P(d, {4}, 0.5, 2), P(d, {4}, 0.5, 3)},
                [](const Ins& x, Device) { return zyx::binary_cross_entropy_with_logits(x[0], x[1], x[2], x[3]); },
                [d](const Refs& r) {
                    std::vector<double> per;
                    for (size_t i = 0; i < r[0].v.size(); ++i) {
                        double x = r[0].v[i], y = r[1].v[i], w = r[2].v[i % 4], pw = r[3].v[i % 4];
                        double s = 1 / (1 + std::exp(-x));  // the definition: −w·(pw·y·log σ + (1 − y)·log(1 − σ))
                        per.push_back(-w * (pw * y * std::log(s) + (1 - y) * std::log(1 - s)));
                    }
                    return reduce_loss(per, {3, 4}, Reduction::mean, d);
                },
                tol);
        if (d == f32)
            t.add(
                "kl_div batchmean " + dn(d), {R(d, {3, 4}, -3, 0), P(d, {3, 4}, 0.01, 1)},
                [](const Ins& x, Device) { return zyx::kl_div(x[0], x[1], Reduction::batchmean); },
                [d](const Refs& r) {
                    std::vector<double> per;
                    for (size_t i = 0; i < r[0].v.size(); ++i)
                        per.push_back(r[1].v[i] * (std::log(r[1].v[i]) - r[0].v[i]));
                    return reduce_loss(per, {3, 4}, Reduction::batchmean, d, 0, 3);
                },
                tol);
    }
    // Reductions none and sum, and the other options, on f32.
    for (Reduction red : {Reduction::none, Reduction::sum}) {
        std::string rn = reduction_name(red);
        if (red == Reduction::none)
            t.add(
                "nll_loss " + rn + " f32", {R(f32, {4, 5}, -3, 0), I(i32, {4}, 0, 4)},
                [red](const Ins& x, Device) {
                    return zyx::nll_loss(x[0], x[1], {Tensor(), 3, red});
                },
                [red](const Refs& r) { return nll_ref(r[0], r[1], nullptr, 3, red, 0, f32); });
        if (red == Reduction::sum)
            t.add(
                "cross_entropy weight label_smoothing 0.1 " + rn + " f32",
                {R(f32, {4, 5}), I(i32, {4}, 0, 4), P(f32, {5}, 0.5, 2)},
                [red](const Ins& x, Device) {
                    return zyx::cross_entropy(x[0], x[1], {x[2], 0, red, 0.1});
                },
                [red](const Refs& r) {
                    return nll_ref(softmax_ref(cast(r[0], f64), 1, true), r[1], &r[2], 0, red, 0.1, f32);
                });
        // Without a weight, on tt:0 this needs more DST tiles than a core has: the scheduler splits it.
        if (red == Reduction::sum)
            t.add(
                "cross_entropy label_smoothing 0.1 mean f32", {R(f32, {4, 5}), I(i32, {4}, 0, 4)},
                [](const Ins& x, Device) {
                    return zyx::cross_entropy(x[0], x[1], {Tensor(), -100, Reduction::mean, 0.1});
                },
                [](const Refs& r) {
                    return nll_ref(softmax_ref(cast(r[0], f64), 1, true), r[1], nullptr, -100, Reduction::mean, 0.1,
                                   f32);
                });
        auto elementwise = [red](const std::string& name,
                                 std::function<Tensor(const Tensor&, const Tensor&, Reduction)> op,
                                 std::function<double(double, double)> f, std::vector<In> in) {
            return Case{name + " " + reduction_name(red) + " f32",
                        std::move(in),
                        [op, red](const Ins& x, Device) { return op(x[0], x[1], red); },
                        [f, red](const Refs& r) {
                            std::vector<double> per;
                            for (size_t i = 0; i < r[0].v.size(); ++i) per.push_back(f(r[0].v[i], r[1].v[i]));
                            return reduce_loss(per, r[0].shape, red, f32);
                        },
                        1,
                        0,
                        true,
                        std::nullopt};
        };
        if (red == Reduction::none)
            t.cases.push_back(elementwise(
                "mse_loss", [](const Tensor& a, const Tensor& b, Reduction r) { return zyx::mse_loss(a, b, r); },
                [](double a, double b) { return (a - b) * (a - b); }, {R(f32, {3, 4}), R(f32, {3, 4})}));
        if (red == Reduction::sum)
            t.cases.push_back(elementwise(
                "l1_loss", [](const Tensor& a, const Tensor& b, Reduction r) { return zyx::l1_loss(a, b, r); },
                [](double a, double b) { return std::fabs(a - b); }, {R(f32, {3, 4}), R(f32, {3, 4})}));
        if (red == Reduction::none)
            t.cases.push_back(elementwise(
                "smooth_l1_loss beta 0.5",
                [](const Tensor& a, const Tensor& b, Reduction r) { return zyx::smooth_l1_loss(a, b, r, 0.5); },
                [](double a, double b) {
                    double ad = std::fabs(a - b);
                    return ad < 0.5 ? 0.5 * ad * ad / 0.5 : ad - 0.25;
                },
                {R(f32, {3, 4}, -1, 1), R(f32, {3, 4}, -1, 1)}));
        if (red == Reduction::sum)
            t.cases.push_back(elementwise(
                "kl_div log_target",
                [](const Tensor& a, const Tensor& b, Reduction r) { return zyx::kl_div(a, b, r, true); },
                [](double x, double lt) { return std::exp(lt) * (lt - x); },
                {R(f32, {3, 4}, -3, 0), R(f32, {3, 4}, -3, 0)}));
        if (red == Reduction::none)
            t.cases.push_back(elementwise(
                "binary_cross_entropy",
                [](const Tensor& a, const Tensor& b, Reduction r) {
                    return zyx::binary_cross_entropy(a, b, Tensor(), r);
                },
                [](double p, double y) {
                    return -(y * std::max(std::log(p), -100.0) + (1 - y) * std::max(std::log(1 - p), -100.0));
                },
                {R(f32, {3, 4}, 0, 1), R(f32, {3, 4}, 0, 1)}));
    }
    for (DType d : {f32}) {  // the mean of the element losses (mse_loss's mean is the line below)
        t.add(
            "l1_loss mean " + dn(d), {R(d, {3, 4}), R(d, {3, 4})},
            [](const Ins& x, Device) { return zyx::l1_loss(x[0], x[1]); },
            [d](const Refs& r) {
                std::vector<double> per;
                for (size_t i = 0; i < r[0].v.size(); ++i) per.push_back(std::fabs(r[0].v[i] - r[1].v[i]));
                return reduce_loss(per, {3, 4}, Reduction::mean, d);
            },
            d == bf16 ? 2 : 1);
        t.add(
            "smooth_l1_loss mean " + dn(d), {R(d, {3, 4}, -2, 2), R(d, {3, 4}, -2, 2)},
            [](const Ins& x, Device) { return zyx::smooth_l1_loss(x[0], x[1]); },
            [d](const Refs& r) {
                std::vector<double> per;
                for (size_t i = 0; i < r[0].v.size(); ++i) {
                    double ad = std::fabs(r[0].v[i] - r[1].v[i]);
                    per.push_back(ad < 1 ? 0.5 * ad * ad : ad - 0.5);
                }
                return reduce_loss(per, {3, 4}, Reduction::mean, d);
            },
            d == bf16 ? 2 : 1);
    }
    t.add(
        "cross_entropy probabilities label_smoothing 0.1 f32", {R(f32, {3, 4}), P(f32, {3, 4}, 0, 1)},
        [](const Ins& x, Device) {
            return zyx::cross_entropy(x[0], x[1], {Tensor(), -100, Reduction::mean, 0.1});
        },
        [](const Refs& r) {
            Ref lp = softmax_ref(cast(r[0], f64), 1, true);
            std::vector<double> per;
            for (int64_t n = 0; n < 3; ++n) {
                double s = 0;
                for (int64_t c = 0; c < 4; ++c)
                    s -= (r[1].v[size_t(n * 4 + c)] * 0.9 + 0.1 / 4) * lp.v[size_t(n * 4 + c)];
                per.push_back(s);
            }
            return reduce_loss(per, {3}, Reduction::mean, f32);
        });

    struct MM {
        Shape a, b;
    };
    for (DType d : kNumeric)  // every shape on f32, f16, bf16, i32; two on the other dtypes
        for (MM m : {MM{{3, 4}, {4, 5}}, MM{{2, 1, 3, 4}, {3, 4, 2}}, MM{{1, 4}, {4, 1}}, MM{{2, 0}, {0, 3}}}) {
            bool all = d == f32 || d == f16 || d == bf16 || d == i32;
            if (!all && m.a.size() != 4 && m.a != Shape{3, 4}) continue;
            t.add(
                "matmul " + dn(d) + " " + zyx::kernel::shape_string(m.a) + "@" + zyx::kernel::shape_string(m.b),
                {V(d, m.a), V(d, m.b)}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
                [d](const Refs& r) { return matmul_ref(r[0], r[1], d); });
        }
    t.add(
        "matmul 1-D @ 2-D", {R(f32, {4}), R(f32, {4, 3})}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
        [](const Refs& r) {
            return reshape(matmul_ref(reshape(r[0], {1, 4}), r[1], f32), {3});
        });
    t.add(
        "matmul 2-D @ 1-D", {R(f32, {2, 4}), R(f32, {4})}, [](const Ins& x, Device) { return x[0].matmul(x[1]); },
        [](const Refs& r) {
            return reshape(matmul_ref(r[0], reshape(r[1], {4, 1}), f32), {2});
        });
    t.add(
        "matmul i8 x f32 -> f32", {I(i8, {2, 3}), R(f32, {3, 2})},
        [](const Ins& x, Device) { return zyx::matmul(x[0], x[1]); },
        [](const Refs& r) { return matmul_ref(r[0], r[1], f32); });
    t.add(
        "dot", {R(f32, {5}), R(f32, {5})}, [](const Ins& x, Device) { return zyx::dot(x[0], x[1]); },
        [](const Refs& r) {
            return reshape(matmul_ref(reshape(r[0], {1, 5}), reshape(r[1], {5, 1}), f32), {});
        });
    // outer: x[i]·y[j]; diag: x on the k-th diagonal of a square of side n + |k|, 0 elsewhere.
    auto times = [](double a, double b) { return a * b; };
    for (DType d : {f32, bf16, f64, i32, u8, b8})
        t.add(
            "outer " + dn(d), {V(d, {4}), V(d, {3})}, [](const Ins& x, Device) { return zyx::outer(x[0], x[1]); },
            [=](const Refs& r) {
                return zip(reshape(r[0], {4, 1}), r[1], d, times);
            });
    t.add(
        "outer i32 x f32 -> f32", {I(i32, {3}), R(f32, {2})},
        [](const Ins& x, Device) { return zyx::outer(x[0], x[1]); },
        [=](const Refs& r) {
            return zip(reshape(r[0], {3, 1}), r[1], f32, times);
        });
    t.add(
        "outer specials f32", {Sp(f32, {10}), Sp(f32, {10})},
        [](const Ins& x, Device) { return zyx::outer(x[0], x[1]); },
        [=](const Refs& r) {
            return zip(reshape(r[0], {10, 1}), r[1], f32, times);
        });
    auto diag_ref = [](const Ref& a, int64_t k) {
        int64_t n = a.shape[0], side = n + (k < 0 ? -k : k);
        Ref o{{side, side}, a.dtype, {}};
        for (int64_t i = 0; i < side; ++i)
            for (int64_t j = 0; j < side; ++j) o.v.push_back(j - i == k ? a.v[size_t(k >= 0 ? i : j)] : 0);
        return o;
    };
    for (int64_t k : {0, 1, -2})
        for (DType d : {f32, bf16, i32, b8})
            t.add(
                "diag " + std::to_string(k) + " " + dn(d), {V(d, {3})},
                [k](const Ins& x, Device) { return zyx::diag(x[0], k); },
                [=](const Refs& r) { return diag_ref(r[0], k); });
    t.add(
        "diag specials f64", {Sp(f64, {10})}, [](const Ins& x, Device) { return zyx::diag(x[0]); },
        [=](const Refs& r) { return diag_ref(r[0], 0); });
    t.add(
        "relu(x @ w + b)", {R(f32, {3, 4}), R(f32, {4, 5}), R(f32, {5})},
        [](const Ins& x, Device) { return (x[0].matmul(x[1]) + x[2]).relu(); },
        [](const Refs& r) {
            return map(zip(matmul_ref(r[0], r[1], f64), r[2], f64, [](double a, double b) { return a + b; }), f32,
                       [](double v) { return v < 0 ? 0 : v; });
        });
    t.add(
        "relu(x) @ w", {R(f32, {3, 4}), R(f32, {4, 2})}, [](const Ins& x, Device) { return x[0].relu().matmul(x[1]); },
        [](const Refs& r) { return matmul_ref(map(r[0], f64, [](double v) { return v < 0 ? 0 : v; }), r[1], f32); });

    struct Conv {
        Shape x, w;
        zyx::Conv2dOptions o;
        bool bias;
    };
    // Square and non-square kernels; one number or (h, w) for stride, padding and dilation.
    for (Conv c : {Conv{{2, 3, 5, 5}, {4, 3, 3, 3}, {}, true}, Conv{{1, 2, 6, 6}, {2, 2, 3, 3}, {2, 1, 1, 1}, false},
                   Conv{{1, 4, 7, 7}, {4, 2, 2, 2}, {1, 0, 2, 2}, true}, Conv{{1, 1, 4, 4}, {1, 1, 1, 1}, {}, false},
                   Conv{{1, 2, 6, 7}, {3, 2, 3, 1}, {{2, 1}, {1, 0}, 1, 1}, true},
                   Conv{{2, 2, 7, 6}, {2, 1, 2, 3}, {1, {0, 2}, {2, 1}, 2}, false}})
        for (DType d : {f32, bf16}) {
            std::string name = "conv2d " + dn(d) + " x" + zyx::kernel::shape_string(c.x) + " w" +
                zyx::kernel::shape_string(c.w) + " s" + size2d_name(c.o.stride) + " p" + size2d_name(c.o.padding) +
                " d" + size2d_name(c.o.dilation) + " g" + std::to_string(c.o.groups);
            std::vector<In> in = {R(d, c.x), R(d, c.w, -1, 1)};
            if (c.bias) in.push_back(R(d, {c.w[0]}));
            t.add(
                name, in, [c](const Ins& x, Device) { return zyx::conv2d(x[0], x[1], c.bias ? x[2] : Tensor(), c.o); },
                [c](const Refs& r) { return conv_ref(r[0], r[1], c.bias ? &r[2] : nullptr, c.o); }, d == bf16 ? 2 : 1);
        }
    for (DType d : kNumeric) {  // every other dtype on one configuration (integers exact, wrapping)
        if (d == f32 || d == bf16) continue;
        Conv c{{1, 2, 5, 5}, {3, 2, 3, 3}, {1, 1, 1, 1}, true};
        bool fl = zyx::dtype_is_float(d);
        std::vector<In> in = {V(d, c.x), fl ? R(d, c.w, -1, 1) : V(d, c.w), V(d, {3})};
        t.add(
            "conv2d " + dn(d) + " x[1,2,5,5] w[3,2,3,3] p1 bias", in,
            [c](const Ins& x, Device) { return zyx::conv2d(x[0], x[1], x[2], c.o); },
            [c](const Refs& r) { return conv_ref(r[0], r[1], &r[2], c.o); }, d == f16 ? 2 : 1);
    }
    for (DType d : kAll) {
        t.add(
            "max_pool2d k2 " + dn(d), {V(d, {1, 2, 4, 5})},
            [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 2); },
            [](const Refs& r) { return pool_ref(r[0], 2, 2, 0, true); });
        t.add(
            "max_pool2d k3 s1 p1 " + dn(d), {V(d, {2, 1, 4, 4})},
            [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 3, 1, 1); },
            [](const Refs& r) { return pool_ref(r[0], 3, 1, 1, true); });
    }
    for (DType d : kAll)
        t.add(
            "avg_pool2d k2 s1 p1 " + dn(d), {V(d, {1, 2, 4, 4})},
            [](const Ins& x, Device) { return zyx::avg_pool2d(x[0], 2, 1, 1); },
            [](const Refs& r) { return pool_ref(r[0], 2, 1, 1, false); });
    // (h, w) kernels, strides and paddings.
    for (DType d : {f32, i32}) {
        t.add(
            "max_pool2d k(2,3) s(1,2) p(1,0) " + dn(d), {V(d, {1, 2, 5, 7})},
            [](const Ins& x, Device) {
                return zyx::max_pool2d(x[0], {2, 3}, {1, 2}, {1, 0});
            },
            [](const Refs& r) {
                return pool_ref(r[0], {2, 3}, {1, 2}, {1, 0}, true);
            });
        t.add(
            "avg_pool2d k(3,2) p(1,1) " + dn(d), {V(d, {2, 1, 5, 4})},
            [](const Ins& x, Device) {
                return zyx::avg_pool2d(x[0], {3, 2}, 0, {1, 1});
            },
            [](const Refs& r) {
                return pool_ref(r[0], {3, 2}, {3, 2}, {1, 1}, false);
            });
    }
    t.add(
        "max_pool2d 3-D input", {R(f32, {2, 4, 4})}, [](const Ins& x, Device) { return zyx::max_pool2d(x[0], 2); },
        [](const Refs& r) {
            return reshape(pool_ref(reshape(r[0], {1, 2, 4, 4}), 2, 2, 0, true), {2, 2, 2});
        });
    for (DType d : kAll)  // any dtype: computed in its float dtype (f32 for integers and bool)
        t.add(
            "layer_norm " + dn(d), {V(d, {2, 3, 4}), V(d, {4}), V(d, {4})},
            [](const Ins& x, Device) { return zyx::layer_norm(x[0], {4}, x[1], x[2]); },
            [d](const Refs& r) {
                Ref xf = cast(r[0], f64);
                Ref m = mean_ref(xf, {2}, true);
                Ref c = zip(xf, m, f64, [](double a, double b) { return a - b; });
                Ref v = mean_ref(map(c, f64, [](double a) { return a * a; }), {2}, true);
                Ref y = zip(c, v, f64, [](double a, double b) { return a / std::sqrt(b + 1e-5); });
                y = zip(y, r[1], f64, [](double a, double b) { return a * b; });
                return zip(y, r[2], float_of(d), [](double a, double b) { return a + b; });
            },
            d == bf16 || d == f16 ? 2 : 1);
    t.add(
        "layer_norm over 2 axes", {R(f32, {2, 3, 4})},
        [](const Ins& x, Device) {
            return zyx::layer_norm(x[0], {3, 4});
        },
        [](const Refs& r) {
            Ref m = mean_ref(r[0], {1, 2}, true);
            Ref c = zip(r[0], m, f64, [](double a, double b) { return a - b; });
            Ref v = mean_ref(map(c, f64, [](double a) { return a * a; }), {1, 2}, true);
            return zip(c, v, f32, [](double a, double b) { return a / std::sqrt(b + 1e-5); });
        });
    // Logits of any float dtype (integers compute in f32), targets of any integer dtype.
    auto ce_ref = [](const Refs& r, DType out) {
        Ref l = softmax_ref(r[0], 1, true);
        double s = 0;
        for (int64_t n = 0; n < 4; ++n) s -= l.v[size_t(n * 5 + int64_t(r[1].v[size_t(n)]))];
        return Ref{{}, out, {as_dtype(s / 4, out)}};
    };
    for (DType lt : {f32, f16, bf16, f64, i32})
        for (DType tt : kInts) {
            if (lt != f32 && tt != i32) continue;  // every target dtype with f32 logits
            t.add(
                "cross_entropy " + dn(lt) + " logits, " + dn(tt) + " target", {V(lt, {4, 5}), I(tt, {4}, 0, 4)},
                [](const Ins& x, Device) { return zyx::cross_entropy(x[0], x[1]); },
                [ce_ref, lt](const Refs& r) { return ce_ref(r, float_of(lt)); }, lt == bf16 || lt == f16 ? 2 : 1);
        }
    t.add(
        "cross_entropy 1-D", {R(f32, {6}), I(i64, {}, 0, 5)},
        [](const Ins& x, Device) { return zyx::cross_entropy(x[0], x[1]); },
        [](const Refs& r) {
            Ref l = softmax_ref(reshape(r[0], {1, 6}), 1, true);
            return Ref{{}, f32, {as_dtype(-l.v[size_t(r[1].v[0])], f32)}};
        });
    for (DType d : kNumeric)  // (x − y)² in the operands' dtype (unsigned differences wrap), mean in its float dtype
        t.add(
            "mse_loss " + dn(d), {V(d, {3, 4}), V(d, {4})},
            [](const Ins& x, Device) { return zyx::mse_loss(x[0], x[1]); },
            [d](const Refs& r) {
                // (a − b)² rounded once; for integers it equals the wrapped difference squared
                // modulo 2^bits, without the reference leaving exact double arithmetic.
                Ref sq = zip(r[0], r[1], d, [](double a, double b) { return (a - b) * (a - b); });
                return mean_ref(sq, {0, 1}, false);
            },
            d == bf16 || d == f16 ? 2 : 1);
    return t;
}

// ---- group: creation ---------------------------------------------------------------------------------

Table creation_group() {
    Table t;
    // Creation on the device (no inputs).
    auto none = std::vector<In>{};
    auto fill_ref = [](Shape s, DType t, std::function<double(int64_t)> f) {
        Ref r{s, t, {}};
        for (int64_t i = 0; i < numel(s); ++i) r.v.push_back(as_dtype(f(i), t));
        return r;
    };
    for (DType d : kAll) {
        t.add(
            "zeros " + dn(d), none,
            [d](const Ins&, Device dev) {
                return zyx::zeros({2, 3}, d, dev);
            },
            [fill_ref, d](const Refs&) {
                return fill_ref({2, 3}, d, [](int64_t) { return 0; });
            });
        t.add(
            "ones " + dn(d), none, [d](const Ins&, Device dev) { return zyx::ones({3}, d, dev); },
            [fill_ref, d](const Refs&) { return fill_ref({3}, d, [](int64_t) { return 1; }); });
        t.add(
            "full " + dn(d), none,
            [d](const Ins&, Device dev) {
                return zyx::full({2, 2}, 7, d, dev);
            },
            [fill_ref, d](const Refs&) {
                return fill_ref({2, 2}, d, [](int64_t) { return 7; });
            });
        t.add(
            "eye 3x4 " + dn(d), none, [d](const Ins&, Device dev) { return zyx::eye(3, 4, d, dev); },
            [fill_ref, d](const Refs&) {
                return fill_ref({3, 4}, d, [](int64_t i) { return double(i / 4 == i % 4); });
            });
        // *_like: shape, dtype and device of the argument.
        t.add(
            "zeros_like " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return zyx::zeros_like(x[0]); },
            [fill_ref, d](const Refs&) {
                return fill_ref({2, 3}, d, [](int64_t) { return 0; });
            });
        t.add(
            "ones_like " + dn(d), {V(d, {3})}, [](const Ins& x, Device) { return zyx::ones_like(x[0]); },
            [fill_ref, d](const Refs&) { return fill_ref({3}, d, [](int64_t) { return 1; }); });
        t.add(
            "full_like 3 " + dn(d), {V(d, {2, 2})}, [](const Ins& x, Device) { return zyx::full_like(x[0], 3); },
            [fill_ref, d](const Refs&) {
                return fill_ref({2, 2}, d, [](int64_t) { return 3; });
            });
        t.add(
            "scalar_tensor 4 " + dn(d), none, [d](const Ins&, Device dev) { return zyx::scalar_tensor(4, d, dev); },
            [fill_ref, d](const Refs&) { return fill_ref({}, d, [](int64_t) { return 4; }); });
        // tensor(values, shape, dtype, device): C++ doubles converted by the cast rules
        // (truncate and saturate for integers, != 0 for bool).
        t.add(
            "tensor(doubles) " + dn(d), none,
            [d](const Ins&, Device dev) {
                return zyx::tensor(std::vector<double>{1.5, -2.5, 300.75, 0, 7, -0.5}, {2, 3}, d, dev);
            },
            [fill_ref, d](const Refs&) {
                const double v[] = {1.5, -2.5, 300.75, 0, 7, -0.5};
                return fill_ref({2, 3}, d, [d, &v](int64_t i) {
                    if (!zyx::dtype_is_int(d)) return v[i];
                    double lo = zyx::kernel::double_from_bits(d, zyx::kernel::bits_from_double(d, -1e300));
                    double hi = zyx::kernel::double_from_bits(d, zyx::kernel::bits_from_double(d, 1e300));
                    return std::min(std::max(std::trunc(v[i]), lo), hi);
                });
            });
        // to(): values moved between devices unchanged (interpreter <-> the device under test).
        t.add(
            "to() and back " + dn(d), {V(d, {2, 3})},
            [](const Ins& x, Device dev) {
                Device other = dev == Device::interpreter() ? Device::host() : Device::interpreter();
                Tensor there = x[0].to(other);
                if (!(there.device() == other)) throw std::runtime_error("to(): tensor not on " + other.str());
                Tensor back = (there + there).to(dev);  // computed there, read back here
                if (!(back.device() == dev)) throw std::runtime_error("to(): tensor not back on " + dev.str());
                return back;
            },
            [d](const Refs& r) { return map(r[0], d, [d](double v) { return d == b8 ? double(v != 0) : v + v; }); });
    }
    t.add(
        "full 0-d f32", none, [](const Ins&, Device dev) { return zyx::full({}, 2.5, f32, dev); },
        [fill_ref](const Refs&) { return fill_ref({}, f32, [](int64_t) { return 2.5; }); });
    t.add(
        "zeros empty", none,
        [](const Ins&, Device dev) {
            return zyx::zeros({0, 4}, f32, dev);
        },
        [fill_ref](const Refs&) {
            return fill_ref({0, 4}, f32, [](int64_t) { return 0; });
        });
    t.add(
        "scalar_tensor * 2", none, [](const Ins&, Device dev) { return zyx::scalar_tensor(4, i16, dev) * 2; },
        [fill_ref](const Refs&) { return fill_ref({}, i16, [](int64_t) { return 8; }); });
    // Literals (made on the host, then moved).
    t.add(
        "tensor literal 1-D float", none,
        [](const Ins&, Device dev) {
            return zyx::tensor({1.5f, -2.f, 3.25f}).to(dev);
        },
        [fill_ref](const Refs&) {
            return fill_ref({3}, f32, [](int64_t i) { return std::vector<double>{1.5, -2, 3.25}[size_t(i)]; });
        });
    t.add(
        "tensor literal 1-D double -> f32", none,
        [](const Ins&, Device dev) {
            return zyx::tensor({0.1, 2.5}).to(dev);
        },
        [fill_ref](const Refs&) { return fill_ref({2}, f32, [](int64_t i) { return i ? 2.5 : 0.1; }); });
    t.add(
        "tensor literal 2-D int", none,
        [](const Ins&, Device dev) {
            return zyx::tensor({{1, -2, 3}, {4, 5, -6}}).to(dev);
        },
        [fill_ref](const Refs&) {
            return fill_ref({2, 3}, i32, [](int64_t i) { return std::vector<double>{1, -2, 3, 4, 5, -6}[size_t(i)]; });
        });
    t.add(
        "tensor literal 3-D bool", none,
        [](const Ins&, Device dev) {
            return zyx::tensor({{{true, false}}, {{false, true}}}).to(dev);
        },
        [fill_ref](const Refs&) {
            return fill_ref({2, 1, 2}, b8, [](int64_t i) { return double(i == 0 || i == 3); });
        });
    t.add(
        "tensor vector<int64_t>", none,
        [](const Ins&, Device dev) {
            return zyx::tensor(std::vector<int64_t>{int64_t(1) << 40, -3}).to(dev);
        },
        [fill_ref](const Refs&) { return fill_ref({2}, i64, [](int64_t i) { return i ? -3.0 : std::ldexp(1, 40); }); });
    t.add(
        "tensor vector<uint8_t>", none,
        [](const Ins&, Device dev) {
            return zyx::tensor(std::vector<uint8_t>{0, 255}).to(dev);
        },
        [fill_ref](const Refs&) { return fill_ref({2}, u8, [](int64_t i) { return i ? 255.0 : 0.0; }); });
    t.add(
        "tensor vector<uint16_t>", none,
        [](const Ins&, Device dev) {
            return zyx::tensor(std::vector<uint16_t>{65535, 1}).to(dev);
        },
        [fill_ref](const Refs&) { return fill_ref({2}, u16, [](int64_t i) { return i ? 1.0 : 65535.0; }); });
    t.add(
        "tensor vector<uint64_t>", none,
        [](const Ins&, Device dev) {
            return zyx::tensor(std::vector<uint64_t>{uint64_t(1) << 63, 5}).to(dev);
        },
        [](const Refs&) {
            return Ref{{2}, u64, {std::ldexp(1, 63), 5.0}};
        });  // (2^63 is beyond as_dtype's int64)
    t.add(
        "tensor vector<int16_t>, shape", none,
        [](const Ins&, Device dev) {
            return zyx::tensor(std::vector<int16_t>{-300, 2, 3, 4}, {2, 2}).to(dev);
        },
        [fill_ref](const Refs&) {
            return fill_ref({2, 2}, i16, [](int64_t i) { return i ? double(i + 1) : -300.0; });
        });
    // arange over every dtype but bool; negative steps for the signed ones; fractional steps for floats.
    for (DType d : kNumeric) {
        t.add(
            "arange 2..11 by 3 " + dn(d), none, [d](const Ins&, Device dev) { return zyx::arange(2, 11, 3, d, dev); },
            [fill_ref, d](const Refs&) { return fill_ref({3}, d, [](int64_t i) { return 2 + 3 * double(i); }); });
        if (!zyx::dtype_is_unsigned_int(d))
            t.add(
                "arange 5..-2 by -2 " + dn(d), none,
                [d](const Ins&, Device dev) { return zyx::arange(5, -2, -2, d, dev); },
                [fill_ref, d](const Refs&) { return fill_ref({4}, d, [](int64_t i) { return 5 - 2 * double(i); }); });
        if (zyx::dtype_is_float(d))
            t.add(
                "arange 0..1 by 0.25 " + dn(d), none,
                [d](const Ins&, Device dev) { return zyx::arange(0, 1, 0.25, d, dev); },
                [fill_ref, d](const Refs&) { return fill_ref({4}, d, [](int64_t i) { return 0.25 * double(i); }); });
        // linspace: floats exact at both ends; integers truncate (0, 2.5, 5, 7.5, 10 → 0, 2, 5, 7, 10).
        if (zyx::dtype_is_float(d))
            t.add(
                "linspace " + dn(d), none, [d](const Ins&, Device dev) { return zyx::linspace(-1, 2, 7, d, dev); },
                [fill_ref, d](const Refs&) {
                    return fill_ref({7}, d, [](int64_t i) { return -1 + 0.5 * double(i); });
                });
        else
            t.add(
                "linspace " + dn(d), none, [d](const Ins&, Device dev) { return zyx::linspace(0, 10, 5, d, dev); },
                [fill_ref, d](const Refs&) {
                    return fill_ref({5}, d, [](int64_t i) { return std::trunc(2.5 * double(i)); });
                });
    }
    t.add(
        "arange empty", none, [](const Ins&, Device dev) { return zyx::arange(3, 3, 1, i32, dev); },
        [fill_ref](const Refs&) { return fill_ref({0}, i32, [](int64_t) { return 0; }); });
    t.add(
        "arange reshaped, transposed", none,
        [](const Ins&, Device dev) {
            return zyx::arange(0, 6, 1, f32, dev).reshape({2, 3}).transpose();
        },
        [fill_ref](const Refs&) {
            return fill_ref({3, 2}, f32, [](int64_t i) { return double((i % 2) * 3 + i / 2); });
        });
    t.add(
        "arange padded", none,
        [](const Ins&, Device dev) {
            return zyx::arange(1, 4, 1, i32, dev).pad({{1, 1}});
        },
        [fill_ref](const Refs&) {
            return fill_ref({5}, i32, [](int64_t i) { return i >= 1 && i <= 3 ? double(i) : 0.0; });
        });
    t.add(
        "linspace 1 step", none, [](const Ins&, Device dev) { return zyx::linspace(3, 9, 1, f32, dev); },
        [fill_ref](const Refs&) { return fill_ref({1}, f32, [](int64_t) { return 3; }); });
    return t;
}

// ---- group: random ---------------------------------------------------------------------------------
//
// Random tensors have no reference values: each line computes checks on the device and returns
// them as a bool vector that must be all true (the reference). Checked: the range; the mean and
// spread against the distribution's (bounds of 6+ standard errors, so a correct generator fails
// with probability < 1e-8); the same seed gives the same tensor (also on the interpreter: values
// are drawn on the host, so a seed gives the same tensor on every device); another seed gives
// another tensor.

Tensor all_of(const std::vector<Tensor>& checks) {
    std::vector<Tensor> flat;
    for (const Tensor& c : checks) flat.push_back(c.reshape({-1}));
    return zyx::cat(flat);
}
// In f32 (the tolerances are far wider than its rounding), so the checks of a tile dtype run on tt:0.
Tensor near(const Tensor& x, double want, double tol) { return (x.cast(f32) - want).abs() <= tol; }

Table random_group() {
    Table t;
    auto all_true = [](int64_t n) {
        return [n](const Refs&) { return Ref{{n}, b8, std::vector<double>(size_t(n), 1)}; };
    };
    const Shape shape = {64, 64};  // 4096 values
    const double n = 4096;
    // Shared checks of one draw x against a second draw with the same seed (same), one with
    // another seed (other), and the same seed drawn on the interpreter (there).
    auto draws = [](const Tensor& x, const Tensor& same, const Tensor& other, const Tensor& there, Device dev) {
        return std::vector<Tensor>{(x == same), (x == there.to(dev)), (x != other).sum() > int32_t(4096 / 2),
                                   x.isnan().logical_not()};
    };
    const int64_t kDrawChecks = 4096 * 2 + 1 + 4096;
    for (DType d : kFloats) {
        t.add(
            "rand " + dn(d), {},
            [=](const Ins&, Device dev) {
                auto make = [&](uint64_t seed, Device on) {
                    zyx::Generator g(seed);
                    return zyx::rand(shape, d, on, g);
                };
                Tensor x = make(5, dev);
                std::vector<Tensor> c = draws(x, make(5, dev), make(6, dev), make(5, Device::interpreter()), dev);
                c.push_back((x >= 0).logical_and(x < 1));  // [0, 1), also after rounding to the dtype
                c.push_back(near(x.mean(), 0.5, 0.03));
                c.push_back(near(x.var(), 1.0 / 12, 0.01));
                return all_of(c);
            },
            all_true(kDrawChecks + 4096 + 2));
        t.cases.back().draws = d;
        t.add(
            "randn " + dn(d), {},
            [=](const Ins&, Device dev) {
                auto make = [&](uint64_t seed, Device on) {
                    zyx::Generator g(seed);
                    return zyx::randn(shape, d, on, g);
                };
                Tensor x = make(7, dev);
                std::vector<Tensor> c = draws(x, make(7, dev), make(8, dev), make(7, Device::interpreter()), dev);
                c.push_back(x.abs() < 7);
                c.push_back(near(x.mean(), 0, 0.1));
                c.push_back(near(x.std(), 1, 0.1));
                c.push_back(x.gt(1).sum() > int64_t(0.13 * n));  // P(z > 1) = 0.159
                return all_of(c);
            },
            all_true(kDrawChecks + 4096 + 3));
        t.cases.back().draws = d;
        t.add(
            "uniform(-3, 5) " + dn(d), {},
            [=](const Ins&, Device dev) {
                auto make = [&](uint64_t seed, Device on) {
                    zyx::Generator g(seed);
                    return zyx::uniform(shape, -3, 5, d, on, g);
                };
                Tensor x = make(9, dev);
                std::vector<Tensor> c = draws(x, make(9, dev), make(10, dev), make(9, Device::interpreter()), dev);
                c.push_back((x >= -3).logical_and(x <= 5));  // 5 only by rounding to a 16-bit dtype
                c.push_back(near(x.mean(), 1, 0.25));
                c.push_back(near(x.var(), 64.0 / 12, 0.6));
                return all_of(c);
            },
            all_true(kDrawChecks + 4096 + 2));
        t.cases.back().draws = d;
    }
    // randint: every integer dtype (and floats, bool): values in [low, high), each one drawn.
    for (DType d : kAll) {
        int64_t lo = d == b8 ? 0 : zyx::dtype_is_unsigned_int(d) ? 3 : -5, hi = d == b8 ? 2 : lo + 12;
        t.add(
            "randint [" + std::to_string(lo) + ", " + std::to_string(hi) + ") " + dn(d), {},
            [=](const Ins&, Device dev) {
                auto make = [&](uint64_t seed, Device on) {
                    zyx::Generator g(seed);
                    return zyx::randint(lo, hi, shape, d, on, g);
                };
                Tensor x = make(11, dev);
                std::vector<Tensor> c = draws(x, make(11, dev), make(12, dev), make(11, Device::interpreter()), dev);
                if (d == b8) c[2] = (x != make(12, dev)).sum() > int32_t(4096 / 4);  // two values only
                Tensor xi = x.cast(f32);  // exact for these small ranges; checks on the chip
                c.push_back((xi >= lo).logical_and(xi < hi));
                Tensor values = zyx::arange(lo, hi, 1, f32, dev);
                c.push_back((xi.reshape({-1, 1}) == values).sum(0) > int32_t(n / double(hi - lo) / 2));
                c.push_back(near(xi.mean(), double(lo + hi - 1) / 2, 0.3));
                return all_of(c);
            },
            all_true(kDrawChecks + 4096 + (hi - lo) + 1));
        t.cases.back().draws = d;
    }
    // Wide ranges: 64-bit values beyond 2^32.
    for (DType d : {i64, u64}) {
        t.add(
            "randint [0, 2^40) " + dn(d), {},
            [=](const Ins&, Device dev) {
                zyx::Generator g(13);
                Tensor x = zyx::randint(0, int64_t(1) << 40, {1000}, d, dev, g).cast(f64);
                return all_of({x >= 0, x<std::ldexp(1, 40), x.max()> std::ldexp(1, 39), x.min() < std::ldexp(1, 39)});
            },
            all_true(2002));
        t.cases.back().draws = d;
    }
    return t;
}

// ---- group: indexing -------------------------------------------------------------------------------
// In-place ops and assignment (+=, add_ …, masked_fill, copy_, fill_, zero_, index_put) and indexing
// with tensors (gather, scatter, scatter_add, index_select, take_along_dim, embedding, index with
// integer tensors or a bool mask, masked_select, nonzero). Index tensors are drawn from one below 0
// to one past the end of their axis, so out-of-range positions (defined: read 0, write nowhere) and
// repeated positions (written: their sum) occur. What realizes while a case is built (the result's
// shape depends on data): index with a bool mask, index_put with a bool mask and masked_select
// realize the mask; nonzero realizes its input. Everything else stays lazy until the batch.

double at(const Ref& a, const std::vector<int64_t>& idx) { return a.v[size_t(ravel(idx, a.shape))]; }

// out[p] = x[p with p[dim] = idx[p]] (0 when out of range).
Ref gather_ref(const Ref& x, int dim, const Ref& idx) {
    Ref r{idx.shape, x.dtype, {}};
    for (int64_t i = 0; i < numel(idx.shape); ++i) {
        auto p = unravel(i, idx.shape);
        int64_t k = int64_t(idx.v[size_t(i)]);
        p[size_t(dim)] = k;
        r.v.push_back(k < 0 || k >= x.shape[size_t(dim)] ? 0 : at(x, p));
    }
    return r;
}

// x with src[p] summed into x-position (p with p[dim] = idx[p]); add: onto x, else replacing it.
Ref scatter_ref(const Ref& x, int dim, const Ref& idx, const Ref& src, bool add) {
    std::vector<double> sum(x.v.size(), 0);
    std::vector<bool> hit(x.v.size(), false);
    for (int64_t i = 0; i < numel(idx.shape); ++i) {
        auto p = unravel(i, idx.shape);
        double s = at(src, p);
        int64_t k = int64_t(idx.v[size_t(i)]);
        if (k < 0 || k >= x.shape[size_t(dim)]) continue;
        p[size_t(dim)] = k;
        size_t f = size_t(ravel(p, x.shape));
        sum[f] += s;
        hit[f] = true;
    }
    Ref r{x.shape, x.dtype, {}};
    for (size_t f = 0; f < x.v.size(); ++f)
        r.v.push_back(as_dtype(add ? x.v[f] + sum[f] : hit[f] ? sum[f] : x.v[f], x.dtype));
    return r;
}

Ref index_select_ref(const Ref& x, int dim, const Ref& idx) {
    Shape s = x.shape;
    s[size_t(dim)] = numel(idx.shape);
    return gather(x, s, x.dtype, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
        in = o;
        int64_t k = int64_t(idx.v[size_t(o[size_t(dim)])]);
        in[size_t(dim)] = k;
        return k >= 0 && k < x.shape[size_t(dim)];
    });
}

// Flat positions over the first idx.size() axes of `shape` (numpy advanced indexing: negative
// positions wrap once; out of range: -1), in the broadcast shape of the indices.
std::vector<int64_t> flat_ref(const Shape& shape, const Refs& idx, Shape& b) {
    b = {};
    for (const Ref& r : idx) b = bshape(b, r.shape);
    std::vector<int64_t> lin;
    for (int64_t i = 0; i < numel(b); ++i) {
        auto p = unravel(i, b);
        int64_t f = 0;
        bool ok = true;
        for (size_t j = 0; j < idx.size(); ++j) {
            int64_t k = int64_t(at_broadcast(idx[j], p));
            if (k < 0) k += shape[j];
            ok = ok && k >= 0 && k < shape[j];
            f = f * shape[j] + k;
        }
        lin.push_back(ok ? f : -1);
    }
    return lin;
}

// Rows `lin` over the first k axes of x (zeros for -1): shape lead + x.shape[k:].
Ref rows_ref(const Ref& x, size_t k, const std::vector<int64_t>& lin, Shape lead) {
    int64_t block = 1;
    for (size_t d = k; d < x.shape.size(); ++d) block *= x.shape[d];
    lead.insert(lead.end(), x.shape.begin() + int64_t(k), x.shape.end());
    Ref r{lead, x.dtype, {}};
    for (int64_t f : lin)
        for (int64_t e = 0; e < block; ++e) r.v.push_back(f < 0 ? 0 : x.v[size_t(f * block + e)]);
    return r;
}

// index_put with flat positions `lin` (shape b) and values broadcast to b + x.shape[k:].
Ref put_ref(const Ref& x, size_t k, const std::vector<int64_t>& lin, const Shape& b, const Ref& vals, bool accumulate) {
    int64_t block = 1;
    for (size_t d = k; d < x.shape.size(); ++d) block *= x.shape[d];
    Shape full = b;
    full.insert(full.end(), x.shape.begin() + int64_t(k), x.shape.end());
    std::vector<double> sum(x.v.size(), 0);
    std::vector<bool> hit(x.v.size(), false);
    for (size_t m = 0; m < lin.size(); ++m) {
        if (lin[m] < 0) continue;
        for (int64_t e = 0; e < block; ++e) {
            size_t f = size_t(lin[m] * block + e);
            sum[f] += at_broadcast(vals, unravel(int64_t(m) * block + e, full));
            hit[f] = true;
        }
    }
    Ref r{x.shape, x.dtype, {}};
    for (size_t f = 0; f < x.v.size(); ++f)
        r.v.push_back(as_dtype(accumulate ? x.v[f] + sum[f] : hit[f] ? sum[f] : x.v[f], x.dtype));
    return r;
}

std::vector<int64_t> true_positions(const Ref& m) {
    std::vector<int64_t> p;
    for (size_t i = 0; i < m.v.size(); ++i)
        if (m.v[i] != 0) p.push_back(int64_t(i));
    return p;
}

Ref expand_ref(const Ref& a, const Shape& s) {
    Ref r{s, a.dtype, {}};
    for (int64_t i = 0; i < numel(s); ++i) r.v.push_back(at_broadcast(a, unravel(i, s)));
    return r;
}

// x.index_put_(basic indices, v): a position selected by every index (int: equal; Range(b, e, s):
// in [b, e) and s apart) takes v at its position within the region (v broadcast to the region).
struct Sel {
    bool range;
    int64_t b, e, s;
};
Ref put_basic_ref(const Ref& x, const std::vector<Sel>& sel, const Ref& v) {
    Shape region;
    for (size_t d = 0; d < x.shape.size(); ++d) {
        if (d >= sel.size())
            region.push_back(x.shape[d]);
        else if (sel[d].range)
            region.push_back(std::max<int64_t>(0, (sel[d].e - sel[d].b + sel[d].s - 1) / sel[d].s));
    }
    Ref r = x;
    for (int64_t i = 0; i < numel(x.shape); ++i) {
        auto p = unravel(i, x.shape);
        std::vector<int64_t> q;
        bool in = true;
        for (size_t d = 0; d < p.size(); ++d) {
            if (d >= sel.size()) {
                q.push_back(p[d]);
                continue;
            }
            const Sel& s = sel[d];
            if (!s.range) {
                in = in && p[d] == s.b;
                continue;
            }
            in = in && p[d] >= s.b && p[d] < s.e && (p[d] - s.b) % s.s == 0;
            q.push_back((p[d] - s.b) / s.s);
        }
        if (in) r.v[size_t(i)] = as_dtype(at_broadcast(v, q), x.dtype);
    }
    return r;
}

Table index_cases() {
    Table t;
    // In-place arithmetic: the result keeps x's dtype (here the same as y's, and mixed below).
    for (DType d : kNumeric) {
        t.add(
            "+= " + dn(d), {V(d, {2, 3}), V(d, {3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                a += x[1];
                return a;
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a + b; }); });
        t.add(
            "-= " + dn(d), {V(d, {2, 3}), V(d, {2, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                a -= x[1];
                return a;
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a - b; }); });
        t.add(
            "*= " + dn(d), {V(d, {2, 3}), V(d, {2, 1})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                a *= x[1];
                return a;
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a * b; }); });
        t.add(
            "add_ alpha " + dn(d), {V(d, {2, 3}), V(d, {2, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.add_(x[1], 2);
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a + 2 * b; }); });
        t.add(
            "sub_ number " + dn(d), {V(d, {4})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.sub_(3);
            },
            [d](const Refs& r) { return map(r[0], d, [](double a) { return a - 3; }); });
        t.add(
            "mul_ number " + dn(d), {V(d, {4})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.mul_(2);
            },
            [d](const Refs& r) { return map(r[0], d, [](double a) { return a * 2; }); });
    }
    for (DType d : kFloats) {
        t.add(
            "/= " + dn(d), {R(d, {2, 3}), P(d, {2, 3}, 0.5, 4)},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                a /= x[1];
                return a;
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a / b; }); });
        t.add(
            "div_ number " + dn(d), {Sp(d, {10})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.div_(4);
            },
            [d](const Refs& r) { return map(r[0], d, [](double a) { return a / 4; }); });
        t.add(
            "+= i32 into " + dn(d), {R(d, {2, 3}), I(i32, {2, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                a += x[1];
                return a;
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double b) { return a + b; }); });
    }
    t.add(
        "+= i8 into i32", {I(i32, {4}), I(i8, {4})},
        [](const Ins& x, Device) {
            Tensor a = x[0];
            a += x[1];
            return a;
        },
        [](const Refs& r) { return zip(r[0], r[1], i32, [](double a, double b) { return a + b; }); });
    t.add(
        "+= i32 into i8 (wraps)", {I(i8, {4}, 100, 120), I(i32, {4}, 100, 120)},
        [](const Ins& x, Device) {
            Tensor a = x[0];
            a += x[1];
            return a;
        },
        [](const Refs& r) { return zip(r[0], r[1], i8, [](double a, double b) { return a + b; }); });
    t.add(
        "+= bool", {B({6}), B({6})},
        [](const Ins& x, Device) {
            Tensor a = x[0];
            a += x[1];
            return a;
        },
        [](const Refs& r) { return zip(r[0], r[1], b8, [](double a, double b) { return a + b; }); });

    for (DType d : kAll) {
        // masked_fill / masked_fill_: a number and a 0-d tensor; the mask broadcasts.
        t.add(
            "masked_fill " + dn(d), {V(d, {2, 3}), B({3})},
            [](const Ins& x, Device) { return x[0].masked_fill(x[1], 1); },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double a, double m) { return m != 0 ? 1 : a; }); });
        t.add(
            "masked_fill_ 0-d " + dn(d), {V(d, {2, 3}), B({2, 3}), V(d, {})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.masked_fill_(x[1], x[2]);
            },
            [d](const Refs& r) {
                double v = r[2].v[0];
                return zip(r[0], r[1], d, [v](double a, double m) { return m != 0 ? v : a; });
            });
        // copy_ from f32 (cast by the cast rules) broadcast over the rows; fill_, zero_.
        t.add(
            "copy_ f32 into " + dn(d), {V(d, {2, 3}), R(f32, {3}, -5, 5)},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.copy_(x[1]);
            },
            [d](const Refs& r) {
                return zip(r[0], r[1], d, [d](double, double b) {  // float → int truncates and saturates
                    if (!zyx::dtype_is_int(d)) return b;
                    double lo = zyx::kernel::double_from_bits(d, zyx::kernel::bits_from_double(d, -1e300));
                    double hi = zyx::kernel::double_from_bits(d, zyx::kernel::bits_from_double(d, 1e300));
                    return std::min(std::max(std::trunc(b), lo), hi);
                });
            });
        t.add(
            "fill_ " + dn(d), {V(d, {2, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.fill_(1);
            },
            [d](const Refs& r) { return map(r[0], d, [](double) { return 1; }); });
        t.add(
            "fill_ 0-d " + dn(d), {V(d, {2, 3}), V(d, {})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.fill_(x[1]);
            },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double, double b) { return b; }); });
        t.add(
            "zero_ " + dn(d), {V(d, {2, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.zero_();
            },
            [d](const Refs& r) { return map(r[0], d, [](double) { return 0; }); });
        // index_put_ with the slice spelling: x[1:4:2, 2] = v ; x[-1] = number.
        t.add(
            "index_put_ slices " + dn(d), {V(d, {5, 4}), V(d, {2})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({zyx::Range(1, 4, 2), 2}, x[1]);
            },
            [](const Refs& r) {
                return put_basic_ref(r[0], {{true, 1, 4, 2}, {false, 2, 3, 1}}, r[1]);
            });
        t.add(
            "index_put_ row " + dn(d), {V(d, {3, 4})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({-1}, 1);
            },
            [d](const Refs& r) {
                return put_basic_ref(r[0], {{false, 2, 3, 1}}, Ref{{}, d, {1}});
            });
        t.add(
            "index_put_ step 3 broadcast " + dn(d), {V(d, {2, 7, 3}), V(d, {3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({zyx::Range(), zyx::Range(-6, zyx::Range::kEnd, 3)}, x[1]);
            },
            [](const Refs& r) {
                return put_basic_ref(r[0], {{true, 0, 2, 1}, {true, 1, 7, 3}}, r[1]);
            });
        // index_put with integer tensors (two axes, broadcast indices), replace and accumulate.
        t.add(
            "index_put " + dn(d), {V(d, {3, 4, 2}), I(i32, {3}, -4, 3), I(i64, {2, 1}, -5, 4), V(d, {2, 3, 2})},
            [](const Ins& x, Device) {
                return x[0].index_put({x[1], x[2]}, x[3]);
            },
            [](const Refs& r) {
                Shape b;
                auto lin = flat_ref(r[0].shape, {r[1], r[2]}, b);
                return put_ref(r[0], 2, lin, b, r[3], false);
            });
        t.add(
            "index_put_ accumulate " + dn(d), {V(d, {4, 3}), I(u8, {6}, 0, 4), V(d, {3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({x[1]}, x[2], true);
            },
            [](const Refs& r) {
                Shape b;
                auto lin = flat_ref(r[0].shape, {r[1]}, b);
                return put_ref(r[0], 1, lin, b, r[2], true);
            });
        // index_put_ with a bool mask (realizes the mask).
        t.add(
            "index_put_ mask " + dn(d), {V(d, {3, 4}), B({3, 4}), V(d, {})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({x[1]}, x[2]);
            },
            [](const Refs& r) {
                std::vector<int64_t> lin = true_positions(r[1]);
                return put_ref(r[0], 2, lin, Shape{int64_t(lin.size())}, r[2], false);
            });
        // gather / scatter / scatter_add / index_select / take_along_dim / embedding.
        t.add(
            "gather dim 1 " + dn(d), {V(d, {3, 4}), I(i32, {2, 5}, -1, 4)},
            [](const Ins& x, Device) { return x[0].gather(1, x[1]); },
            [](const Refs& r) { return gather_ref(r[0], 1, r[1]); });
        t.add(
            "gather dim 0 " + dn(d), {V(d, {3, 4, 2}), I(i64, {5, 2, 2}, -1, 3)},
            [](const Ins& x, Device) { return x[0].gather(0, x[1]); },
            [](const Refs& r) { return gather_ref(r[0], 0, r[1]); });
        t.add(
            "scatter " + dn(d), {V(d, {3, 5}), I(i32, {2, 4}, -1, 5), V(d, {2, 5})},
            [](const Ins& x, Device) { return x[0].scatter(1, x[1], x[2]); },
            [](const Refs& r) { return scatter_ref(r[0], 1, r[1], r[2], false); });
        t.add(
            "scatter number " + dn(d), {V(d, {4, 3}), I(i32, {2, 3}, 0, 4)},
            [](const Ins& x, Device) { return x[0].scatter(0, x[1], 1); },
            [d](const Refs& r) {
                return scatter_ref(r[0], 0, r[1], Ref{r[1].shape, d, std::vector<double>(6, 1)}, false);
            });
        t.add(
            "scatter_add_ " + dn(d), {V(d, {4, 3}), I(i32, {5, 3}, -1, 4), V(d, {5, 3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.scatter_add_(0, x[1], x[2]);
            },
            [](const Refs& r) { return scatter_ref(r[0], 0, r[1], r[2], true); });
        t.add(
            "index_select " + dn(d), {V(d, {3, 4, 2}), I(i32, {5}, -1, 4)},
            [](const Ins& x, Device) { return x[0].index_select(1, x[1]); },
            [](const Refs& r) { return index_select_ref(r[0], 1, r[1]); });
        t.add(
            "take_along_dim " + dn(d), {V(d, {3, 4}), I(i32, {3, 2}, 0, 3)},
            [](const Ins& x, Device) { return x[0].take_along_dim(x[1], -1); },
            [](const Refs& r) { return gather_ref(r[0], 1, r[1]); });
        t.add(
            "take_along_dim broadcast " + dn(d), {V(d, {1, 4}), I(i32, {3, 2}, 0, 3)},
            [](const Ins& x, Device) { return x[0].take_along_dim(x[1], 1); },
            [](const Refs& r) {
                return gather_ref(expand_ref(r[0], {3, 4}), 1, r[1]);
            });
        t.add(
            "take_along_dim flat " + dn(d), {V(d, {3, 4}), I(i32, {2, 3}, 0, 11)},
            [](const Ins& x, Device) { return x[0].take_along_dim(x[1]); },
            [](const Refs& r) { return gather_ref(reshape(r[0], {12}), 0, reshape(r[1], {6})); });
        t.add(
            "embedding " + dn(d), {I(i32, {2, 3}, 0, 4), V(d, {5, 2})},
            [](const Ins& x, Device) { return zyx::embedding(x[0], x[1]); },
            [](const Refs& r) {
                return reshape(index_select_ref(r[1], 0, reshape(r[0], {6})), {2, 3, 2});
            });
        // Advanced indexing: integer tensors (negative positions wrap, out of range reads 0), a
        // bool mask (realizes it), masked_select (realizes the mask), nonzero (realizes x).
        t.add(
            "index tensors " + dn(d), {V(d, {3, 4, 2}), I(i32, {2, 3}, -4, 3), I(i32, {3}, -5, 4)},
            [](const Ins& x, Device) {
                return x[0].index({x[1], x[2]});
            },
            [](const Refs& r) {
                Shape b;
                auto lin = flat_ref(r[0].shape, {r[1], r[2]}, b);
                return rows_ref(r[0], 2, lin, b);
            });
        t.add(
            "index mask " + dn(d), {V(d, {3, 4, 2}), B({3, 4})},
            [](const Ins& x, Device) { return x[0].index({x[1]}); },
            [](const Refs& r) {
                auto lin = true_positions(r[1]);
                return rows_ref(r[0], 2, lin, Shape{int64_t(lin.size())});
            });
        t.add(
            "masked_select " + dn(d), {V(d, {2, 3}), B({2, 1, 3})},
            [](const Ins& x, Device) { return x[0].masked_select(x[1]); },
            [](const Refs& r) {
                Shape b = bshape(r[0].shape, r[1].shape);
                Ref xe = expand_ref(r[0], b);
                auto lin = true_positions(expand_ref(r[1], b));
                return rows_ref(reshape(xe, {numel(b)}), 1, lin, Shape{int64_t(lin.size())});
            });
        t.add(
            "nonzero " + dn(d), {V(d, {3, 4})}, [](const Ins& x, Device) { return x[0].nonzero(); },
            [](const Refs& r) {
                Ref o{{0, 2}, i32, {}};
                for (int64_t f : true_positions(r[0])) {
                    o.v.push_back(double(f / 4));
                    o.v.push_back(double(f % 4));
                    o.shape[0]++;
                }
                return o;
            });
    }
    // Tensor entries mixed with ranges: B takes the place of the axis the tensor indexes.
    for (DType d : kStridedDtypes) {
        t.add(
            "index range+tensor " + dn(d), {V(d, {3, 4, 2}), I(i32, {2, 2}, -5, 4)},
            [](const Ins& x, Device) {
                return x[0].index({zyx::Range(0, 3, 2), x[1]});
            },
            [d](const Refs& r) {
                return gather(r[0], {2, 2, 2, 2}, d, [&](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                    int64_t w = int64_t(r[1].v[size_t(o[1] * 2 + o[2])]);
                    if (w < 0) w += 4;
                    in = {o[0] * 2, w, o[3]};
                    return w >= 0 && w < 4;
                });
            });
        t.add(
            "index_put_ range+tensor " + dn(d), {V(d, {3, 4}), I(i32, {3}, -5, 4), V(d, {3})},
            [](const Ins& x, Device) {
                Tensor a = x[0];
                return a.index_put_({zyx::Range(1), x[1]}, x[2]);
            },
            [d](const Refs& r) {
                std::vector<double> sum(12, 0);
                std::vector<bool> hit(12, false);
                for (int64_t row = 1; row < 3; ++row)
                    for (size_t b = 0; b < 3; ++b) {
                        int64_t w = int64_t(r[1].v[b]);
                        if (w < 0) w += 4;
                        if (w < 0 || w >= 4) continue;
                        sum[size_t(row * 4 + w)] += r[2].v[b];
                        hit[size_t(row * 4 + w)] = true;
                    }
                Ref o = r[0];
                for (size_t f = 0; f < 12; ++f)
                    if (hit[f]) o.v[f] = as_dtype(sum[f], d);
                return o;
            });
    }
    // Special values travel through selections (NaN, ±inf; a gathered -0 reads +0, tensor.hpp).
    for (DType d : kFloats) {
        t.add(
            "gather specials " + dn(d), {Sp(d, {2, 5}), I(i32, {2, 5}, 0, 4)},
            [](const Ins& x, Device) { return x[0].gather(1, x[1]); },
            [](const Refs& r) {
                return map(gather_ref(r[0], 1, r[1]), r[0].dtype, [](double v) { return v == 0 ? 0.0 : v; });
            });
        t.add(
            "index_put specials " + dn(d), {Sp(d, {10}), I(i32, {3}, 0, 9), Sp(d, {3})},
            [](const Ins& x, Device) { return x[0].index_put({x[1]}, x[2]); },
            [](const Refs& r) {
                Shape b;
                auto lin = flat_ref(r[0].shape, {r[1]}, b);
                // the sum of a position's values: +0 for -0.0 written alone
                Ref o = put_ref(r[0], 1, lin, b, r[2], false);
                for (size_t i = 0; i < o.v.size(); ++i)
                    if (o.v[i] == 0 && std::find(lin.begin(), lin.end(), int64_t(i)) != lin.end()) o.v[i] = 0.0;
                return o;
            });
        t.add(
            "masked_fill specials " + dn(d), {Sp(d, {10}), B({10})},
            [](const Ins& x, Device) { return x[0].masked_fill(x[1], -kInf); },
            [](const Refs& r) {
                return zip(r[0], r[1], r[0].dtype, [](double a, double m) { return m != 0 ? -kInf : a; });
            });
    }
    return t;
}

// Item 1 (in-place ops and assignment) and item 2 (selections) run as two groups, "assign" and
// "indexing", so that each tt:0 column stays well inside its ctest timeout with a cold kernel
// cache; the strided layout runs for f32 inputs only (views do not depend on the dtype).
bool is_assignment(const std::string& name) {
    for (const char* p : {"+=", "-=", "*=", "/=", "add_", "sub_", "mul_", "div_", "masked_fill", "copy_", "fill_",
                          "zero_", "index_put"})
        if (name.rfind(p, 0) == 0) return true;
    return false;
}
Table index_cases_of(bool assignment) {
    Table all = index_cases(), t;
    for (Case& c : all.cases) {
        if (is_assignment(c.name) != assignment) continue;
        c.strided = c.strided && !c.inputs.empty() && c.inputs[0].dtype == f32;
        t.cases.push_back(c);
    }
    return t;
}
Table assign_group() { return index_cases_of(true); }
Table indexing_group() { return index_cases_of(false); }

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
    std::string error;           // thrown while building
    bool device_dtypes = false;  // every tensor of the case has a tile format (tt: must run on the chip)
};

// ---- the Tenstorrent column: which kernels may run on the host -------------------------------------
// On tt:0 every kernel of a case whose tensors all have a tile format (f32, bf16, bool, i32) must run
// on the emulated chip; a kernel the code generator refuses runs on the host, and the case then fails
// unless it stands here with the reason (a substring of the case label, the reason). Cases with a
// dtype that has no tile format on the chip (f64, f16, 8-, 16- and 64-bit integers, u32) are stored
// row-major on the device and computed on the host by design (docs/tenstorrent.md).
struct HostAllowed {
    const char* label;
    const char* reason;
};
const std::vector<HostAllowed> kTtHostAllowList = {
    {"pow int i32",
     "i32 pow with a tensor exponent: the tile engine has no integer pow (a constant exponent is unrolled)"},
    {"i32 pow(",
     "i32 pow with a launch-scalar exponent: the tile engine has no integer pow (a constant exponent is unrolled)"},
    {"pow(2, x) i32", "a number to the power of an i32 tensor: the tile engine has no integer pow"},
    {"linspace i32", "linspace computes in f64, which has no tile format"},
    {"bitcast bf16->", "the intermediate dtype (f16, i16, u16) has no tile format"},
    {"bitcast f32->u32", "u32 has no tile format"},
};
bool tile_dtype(DType t) { return t == f32 || t == bf16 || t == b8 || t == i32; }
const HostAllowed* tt_host_allowed(const std::string& label) {
    for (const HostAllowed& a : kTtHostAllowList)
        if (label.find(a.label) != std::string::npos) return &a;
    return nullptr;
}
uint64_t last_kernel_number() {
    std::vector<zyx::sched::KernelRecord> r = zyx::sched::recent_kernels();
    return r.empty() ? 0 : r.back().number;
}

std::string describe_values(const std::vector<double>& v, size_t around) {
    std::ostringstream os;
    size_t b = around > 3 ? around - 3 : 0;
    for (size_t i = b; i < v.size() && i < b + 8; ++i)
        os << (i == around ? "[" : "") << v[i] << (i == around ? "]" : "") << " ";
    return os.str();
}

// Checks one result against the reference; returns "" or a description of the mismatch.
std::string check(const Result& r, const std::vector<double>& got) {
    std::ostringstream os;
    if (r.out.shape() != r.want.shape)
        return "shape " + zyx::kernel::shape_string(r.out.shape()) + ", expected " +
            zyx::kernel::shape_string(r.want.shape);
    if (r.out.dtype() != r.want.dtype) return "dtype " + dn(r.out.dtype()) + ", expected " + dn(r.want.dtype);
    for (size_t i = 0; i < got.size(); ++i)
        if (!same_value(got[i], r.want.v[i], r.want.dtype, r.tol_scale, r.atol_floor)) {
            os << "element " << i << ": got " << got[i] << ", expected " << r.want.v[i]
               << " (got: " << describe_values(got, i) << "; expected: " << describe_values(r.want.v, i) << ")";
            return os.str();
        }
    return "";
}

// ---- group: scan (issue 15 item 3: all, any, amax, amin, count_nonzero, max/min with indices,
// cumsum, cumprod, norm, sort, argsort, topk, median) ---------------------------------------------
// sort, argsort, topk and median REALIZE their input when the case is built (the order depends on
// the data); their indices (and values, unless the input requires a gradient) are uploaded, so
// they run no kernel of their own. The "(grad)" lines take the lazy one-hot selection of values
// that a gradient needs, which runs on the device.

bool truthy(double v) { return v != 0; }  // NaN != 0 is true: NaN counts as nonzero

// Values and indices of a stable order along `axis` (NaN above every number), keeping `keep`
// ranks (k >= 0: the first k; k = -1: all; median: the lower median, or a row's first NaN).
struct OrderRef {
    Ref values, indices;
};
OrderRef order_ref(const Ref& x, int axis, bool desc, int64_t k, bool median) {
    int a = axis < 0 ? axis + int(x.shape.size()) : axis;
    int64_t n = x.shape[size_t(a)];
    int64_t keep = median ? 1 : k < 0 ? n : k;
    Shape os = x.shape;
    os[size_t(a)] = keep;
    OrderRef r{{os, x.dtype, std::vector<double>(size_t(numel(os)))},
               {os, i32, std::vector<double>(size_t(numel(os)))}};
    auto less = [](double p, double q) { return std::isnan(p) ? false : std::isnan(q) ? true : p < q; };
    for (int64_t i = 0; i < numel(os); ++i) {
        auto idx = unravel(i, os);
        if (idx[size_t(a)] != 0) continue;
        std::vector<double> row;
        for (int64_t j = 0; j < n; ++j) {
            idx[size_t(a)] = j;
            row.push_back(x.v[size_t(ravel(idx, x.shape))]);
        }
        std::vector<int64_t> perm(static_cast<size_t>(n));
        std::iota(perm.begin(), perm.end(), 0);
        std::stable_sort(perm.begin(), perm.end(), [&](int64_t p, int64_t q) {
            return desc ? less(row[size_t(q)], row[size_t(p)]) : less(row[size_t(p)], row[size_t(q)]);
        });
        int64_t numbers = 0;
        for (double v : row) numbers += !std::isnan(v);
        for (int64_t rr = 0; rr < keep; ++rr) {
            int64_t rank = median ? (numbers < n ? numbers : (n - 1) / 2) : rr;
            idx[size_t(a)] = rr;
            size_t at = size_t(ravel(idx, os));
            r.values.v[at] = row[size_t(perm[size_t(rank)])];
            r.indices.v[at] = double(perm[size_t(rank)]);
        }
    }
    return r;
}
Ref drop_axis(Ref r, int axis) {
    r.shape.erase(r.shape.begin() + (axis < 0 ? axis + int(r.shape.size()) : axis));
    return r;
}

// Running sum / product along `axis` in double, stored in `out`.
Ref scan_ref(const Ref& x, int axis, bool prod, DType out) {
    int a = axis < 0 ? axis + int(x.shape.size()) : axis;
    Ref r{x.shape, out, std::vector<double>(x.v.size())};
    for (int64_t i = 0; i < numel(x.shape); ++i) {
        auto idx = unravel(i, x.shape);
        double acc = prod ? 1 : 0;
        int64_t upto = idx[size_t(a)];
        for (int64_t j = 0; j <= upto; ++j) {
            idx[size_t(a)] = j;
            double v = x.v[size_t(ravel(idx, x.shape))];
            acc = prod ? acc * v : acc + v;
        }
        r.v[size_t(i)] = as_dtype(acc, out);
    }
    return r;
}

Ref norm_ref(const Ref& x, double p, const std::vector<int>& axes, bool keep) {
    DType out = float_of(x.dtype);
    auto sum = [](double a, double b) { return a + b; };
    Ref ax = map(x, f64, [](double v) { return std::fabs(v); });
    if (std::isinf(p)) return cast(reduce(ax, axes, keep, f64, p > 0 ? -kInf : kInf, p > 0 ? nan_max : nan_min), out);
    if (p == 0)
        return cast(reduce(map(x, f64, [](double v) { return double(truthy(v)); }), axes, keep, f64, 0, sum), out);
    Ref s = reduce(map(ax, f64, [p](double v) { return std::pow(v, p); }), axes, keep, f64, 0, sum);
    return map(s, out, [p](double v) { return std::pow(v, 1 / p); });
}

Table scan_group() {
    Table t;
    reduction(
        t, "all", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.all() : x.all(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) {
            return reduce(x, ax, k, b8, 1, [](double p, double v) { return double(p != 0 && truthy(v)); });
        });
    reduction(
        t, "any", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.any() : x.any(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) {
            return reduce(x, ax, k, b8, 0, [](double p, double v) { return double(p != 0 || truthy(v)); });
        });
    reduction(
        t, "amax", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.amax() : x.amax(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, -kInf, nan_max); });
    reduction(
        t, "amin", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.amin() : x.amin(a.axes, a.keepdim); },
        [](const Ref& x, const std::vector<int>& ax, bool k) { return reduce(x, ax, k, x.dtype, kInf, nan_min); });
    // count_nonzero has no keepdim (as PyTorch): the keepdim cases reduce without it.
    reduction(
        t, "count_nonzero", kAll,
        [](const Tensor& x, const AxesCase& a) { return a.axes.empty() ? x.count_nonzero() : x.count_nonzero(a.axes); },
        [](const Ref& x, const std::vector<int>& ax, bool) {
            return reduce(x, ax, false, i32, 0, [](double p, double v) { return p + double(truthy(v)); });
        });
    t.add(
        "all/any/count_nonzero special values", {Sp(f32, {2, 5})},
        [](const Ins& x, Device) {
            return zyx::stack({x[0].all(1).cast(i32), x[0].any(1).cast(i32), x[0].count_nonzero(1)});
        },
        [](const Refs& r) {
            Ref a = reduce(r[0], {1}, false, i32, 1, [](double p, double v) { return double(p != 0 && truthy(v)); });
            Ref b = reduce(r[0], {1}, false, i32, 0, [](double p, double v) { return double(p != 0 || truthy(v)); });
            Ref c = reduce(r[0], {1}, false, i32, 0, [](double p, double v) { return p + double(truthy(v)); });
            Ref s{{3, 2}, i32, a.v};
            s.v.insert(s.v.end(), b.v.begin(), b.v.end());
            s.v.insert(s.v.end(), c.v.begin(), c.v.end());
            return s;
        });
    // max / min with indices (ties: the first index; NaN wins).
    for (DType d : kAll) {
        In in = d == b8 ? B({3, 5}) : zyx::dtype_is_float(d) ? I(d, {3, 5}, -2, 2) : V(d, {3, 5});
        std::vector<std::pair<int, bool>> axes = runs_strided(d)
            ? std::vector<std::pair<int, bool>>{{1, false}, {0, true}, {-1, true}}
            : std::vector<std::pair<int, bool>>{{1, false}};
        for (auto [axis, keep] : axes) {
            std::string sfx = dn(d) + " axis " + std::to_string(axis) + (keep ? " keep" : "");
            for (bool is_max : {true, false}) {
                std::string name = is_max ? "max_with_indices " : "min_with_indices ";
                auto get = [=](const Tensor& x) {
                    return is_max ? x.max_with_indices(axis, keep) : x.min_with_indices(axis, keep);
                };
                t.add(
                    name + "values " + sfx, {in}, [=](const Ins& x, Device) { return get(x[0]).values; },
                    [=](const Refs& r) {
                        return reduce(r[0], {axis}, keep, r[0].dtype, is_max ? -kInf : kInf,
                                      is_max ? nan_max : nan_min);
                    });
                t.add(
                    name + "indices " + sfx, {in}, [=](const Ins& x, Device) { return get(x[0]).indices; },
                    [=](const Refs& r) { return arg_ref(r[0], axis, keep, is_max); });
            }
        }
    }
    t.add(
        "max_with_indices NaN", {Sp(f32, {2, 5})},
        [](const Ins& x, Device) { return x[0].max_with_indices(1).indices; },
        [](const Refs& r) { return arg_ref(r[0], 1, false, true); });
    // cumsum / cumprod: bool and 8/16-bit integers accumulate in i32.
    for (DType d : kAll) {
        std::vector<int> axes = runs_strided(d) ? std::vector<int>{0, 1, -1} : std::vector<int>{-1};
        for (int axis : axes) {
            std::string sfx = dn(d) + " axis " + std::to_string(axis);
            t.add(
                "cumsum " + sfx, {V(d, {2, 3, 5})}, [axis](const Ins& x, Device) { return x[0].cumsum(axis); },
                [axis](const Refs& r) { return scan_ref(r[0], axis, false, sum_of(r[0].dtype)); });
            In small = d == b8           ? B({2, 3, 5})
                : zyx::dtype_is_float(d) ? R(d, {2, 3, 5}, -1.5, 1.5)
                                         : I(d, {2, 3, 5}, zyx::dtype_is_unsigned_int(d) ? 0 : -2, 2);
            t.add(
                "cumprod " + sfx, {small}, [axis](const Ins& x, Device) { return x[0].cumprod(axis); },
                [axis](const Refs& r) { return scan_ref(r[0], axis, true, sum_of(r[0].dtype)); });
        }
    }
    t.add(
        "cumsum long axis f32 [3,70]", {R(f32, {3, 70})}, [](const Ins& x, Device) { return x[0].cumsum(1); },
        [](const Refs& r) { return scan_ref(r[0], 1, false, f32); }, 4);
    t.add(
        "cumsum long axis i32 [70,2] axis 0", {I(i32, {70, 2})}, [](const Ins& x, Device) { return x[0].cumsum(0); },
        [](const Refs& r) { return scan_ref(r[0], 0, false, i32); });
    t.add(
        "cumsum special values", {Sp(f32, {10})}, [](const Ins& x, Device) { return x[0].cumsum(0); },
        [](const Refs& r) { return scan_ref(r[0], 0, false, f32); });
    t.add(
        "cumsum 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].cumsum(0); },
        [](const Refs& r) { return r[0]; });
    // norm: p = 2, 1, inf, -inf, 0 and 3, over all elements and over axes.
    for (DType d : kAll) {
        std::vector<double> ps =
            runs_strided(d) ? std::vector<double>{2, 1, kInf, -kInf, 0, 3} : std::vector<double>{2, kInf};
        for (double p : ps) {
            std::string sfx = dn(d) + " p " + (std::isinf(p) ? (p > 0 ? "inf" : "-inf") : std::to_string(int(p)));
            t.add(
                "norm " + sfx, {V(d, {2, 3, 4})}, [p](const Ins& x, Device) { return x[0].norm(p); },
                [p](const Refs& r) { return norm_ref(r[0], p, all_axes(r[0]), false); });
            t.add(
                "norm axes " + sfx, {V(d, {2, 3, 4})},
                [p](const Ins& x, Device) {
                    return x[0].norm(p, {0, 2}, true);
                },
                [p](const Refs& r) {
                    return norm_ref(r[0], p, {0, 2}, true);
                });
        }
    }
    t.add(
        "norm fro f32 axis 1", {R(f32, {3, 4})}, [](const Ins& x, Device) { return x[0].norm("fro", 1); },
        [](const Refs& r) { return norm_ref(r[0], 2, {1}, false); });
    t.add(
        "norm special values", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].norm(2, 1); },
        [](const Refs& r) { return norm_ref(r[0], 2, {1}, false); });
    // Orderings: integer-valued inputs with ties (the stable order is checked through the indices).
    for (DType d : kAll) {
        In in = d == b8 ? B({3, 5}) : I(d, {3, 5}, zyx::dtype_is_unsigned_int(d) ? 0 : -3, 3);
        std::vector<int> axes = runs_strided(d) ? std::vector<int>{-1, 0} : std::vector<int>{-1};
        for (int axis : axes)
            for (bool desc : {false, true}) {
                std::string sfx = dn(d) + " axis " + std::to_string(axis) + (desc ? " descending" : "");
                t.add(
                    "sort values " + sfx, {in}, [=](const Ins& x, Device) { return x[0].sort(axis, desc).values; },
                    [=](const Refs& r) { return order_ref(r[0], axis, desc, -1, false).values; });
                t.add(
                    "sort indices " + sfx, {in}, [=](const Ins& x, Device) { return x[0].sort(axis, desc).indices; },
                    [=](const Refs& r) { return order_ref(r[0], axis, desc, -1, false).indices; });
                t.add(
                    "argsort " + sfx, {in}, [=](const Ins& x, Device) { return x[0].argsort(axis, desc); },
                    [=](const Refs& r) { return order_ref(r[0], axis, desc, -1, false).indices; });
                t.add(
                    "topk 2 values " + sfx, {in},
                    [=](const Ins& x, Device) { return x[0].topk(2, axis, !desc).values; },
                    [=](const Refs& r) { return order_ref(r[0], axis, !desc, 2, false).values; });
                t.add(
                    "topk 2 indices " + sfx, {in},
                    [=](const Ins& x, Device) { return x[0].topk(2, axis, !desc).indices; },
                    [=](const Refs& r) { return order_ref(r[0], axis, !desc, 2, false).indices; });
            }
        t.add(
            "median " + dn(d), {in}, [](const Ins& x, Device) { return x[0].median(); },
            [](const Refs& r) { return reshape(order_ref(reshape(r[0], {15}), 0, false, 1, true).values, {}); });
        t.add(
            "median axis 1 values " + dn(d), {in}, [](const Ins& x, Device) { return x[0].median(1).values; },
            [](const Refs& r) { return drop_axis(order_ref(r[0], 1, false, 1, true).values, 1); });
        t.add(
            "median axis 0 keep indices " + dn(d), {in},
            [](const Ins& x, Device) { return x[0].median(0, true).indices; },
            [](const Refs& r) { return order_ref(r[0], 0, false, 1, true).indices; });
    }
    t.add(
        "sort special values", {Sp(f32, {2, 5})}, [](const Ins& x, Device) { return x[0].sort(1).values; },
        [](const Refs& r) { return order_ref(r[0], 1, false, -1, false).values; });
    t.add(
        "argsort special values descending", {Sp(f32, {2, 5})},
        [](const Ins& x, Device) { return x[0].argsort(1, true); },
        [](const Refs& r) { return order_ref(r[0], 1, true, -1, false).indices; });
    t.add(
        "median special values", {Sp(f32, {5, 2})}, [](const Ins& x, Device) { return x[0].median(0).values; },
        [](const Refs& r) { return drop_axis(order_ref(r[0], 0, false, 1, true).values, 0); });
    // A gradient-requiring input: values are selected on the device from the input.
    for (DType d : {f32, bf16, f64}) {
        t.add(
            "sort values (grad) " + dn(d), {I(d, {3, 5}, -3, 3)},
            [](const Ins& x, Device) { return x[0].detach().requires_grad_().sort(1, true).values.detach(); },
            [](const Refs& r) { return order_ref(r[0], 1, true, -1, false).values; });
        t.add(
            "topk values (grad) " + dn(d), {R(d, {4, 3})},
            [](const Ins& x, Device) { return x[0].detach().requires_grad_().topk(2, 0).values.detach(); },
            [](const Refs& r) { return order_ref(r[0], 0, true, 2, false).values; });
        t.add(
            "median values (grad) " + dn(d), {R(d, {3, 5})},
            [](const Ins& x, Device) { return x[0].detach().requires_grad_().median(1).values.detach(); },
            [](const Refs& r) { return drop_axis(order_ref(r[0], 1, false, 1, true).values, 1); });
    }
    t.add(
        "sort 0-d", {R(f32, {})}, [](const Ins& x, Device) { return x[0].sort(0).values; },
        [](const Refs& r) { return r[0]; });
    return t;
}

// ---- group: names (issue 15 item 6: PyTorch spellings, numbers on either side, floor_divide,
// clamp with tensor bounds, empty, *_like, randperm, bernoulli, multinomial) ---------------------

double py_floordiv(double a, double b, DType t) {
    if (zyx::dtype_is_float(t)) {
        if (b == 0) return a / b;
        double m = std::fmod(a, b), d = (a - m) / b;
        if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
        if (d == 0) return std::copysign(0.0, a / b);
        double f = std::floor(d);
        return d - f > 0.5 ? f + 1 : f;
    }
    if (b == 0) return 0;
    return std::floor(a / b);
}

Table names_group() {
    Table t;
    auto same = [](const Refs& r) { return r[0]; };
    for (DType d : kNumeric) {
        In num = zyx::dtype_is_int(d) ? NZ(d, {2, 3}, zyx::dtype_is_unsigned_int(d) ? 1 : -4, 4) : R(d, {2, 3});
        t.add(
            "floor_divide " + dn(d), {V(d, {2, 3}), num}, [](const Ins& x, Device) { return x[0].floor_divide(x[1]); },
            [d](const Refs& r) {
                return zip(r[0], r[1], d, [d](double a, double b) { return py_floordiv(a, b, d); });
            });
        t.add(
            "floor_divide by 3 " + dn(d), {V(d, {2, 3})},
            [](const Ins& x, Device) { return zyx::floor_divide(x[0], 3); },
            [d](const Refs& r) { return map(r[0], d, [d](double a) { return py_floordiv(a, 3, d); }); });
        t.add(
            "7 floor_divide " + dn(d), {num}, [](const Ins& x, Device) { return zyx::floor_divide(7, x[0]); },
            [d](const Refs& r) { return map(r[0], d, [d](double b) { return py_floordiv(7, b, d); }); });
        if (zyx::dtype_is_int(d))
            t.add(
                "floor_divide by 0 " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0].floor_divide(0); },
                [d](const Refs& r) { return map(r[0], d, [](double) { return 0.0; }); });
    }
    t.add(
        "floor_divide special values f32", {Sp(f32, {10}), R(f32, {2, 1}, -2, 2)},
        [](const Ins& x, Device) { return x[0].floor_divide(x[1]); },
        [](const Refs& r) { return zip(r[0], r[1], f32, [](double a, double b) { return py_floordiv(a, b, f32); }); });
    // A number on the left of every comparison and operator.
    for (DType d : kAll) {
        using Cmp = std::function<Tensor(const Tensor&)>;
        std::vector<std::tuple<std::string, Cmp, std::function<bool(double)>>> cmps = {
            {"1 < x", [](const Tensor& x) { return 1 < x; }, [](double v) { return 1 < v; }},
            {"1 <= x", [](const Tensor& x) { return 1 <= x; }, [](double v) { return 1 <= v; }},
            {"1 > x", [](const Tensor& x) { return 1 > x; }, [](double v) { return 1 > v; }},
            {"1 >= x", [](const Tensor& x) { return 1 >= x; }, [](double v) { return 1 >= v; }},
            {"1 == x", [](const Tensor& x) { return 1 == x; }, [](double v) { return 1 == v; }},
            {"1 != x", [](const Tensor& x) { return 1 != x; }, [](double v) { return 1 != v; }},
        };
        for (auto& [name, op, f] : cmps) {
            if (!runs_strided(d) && name != "1 < x") continue;
            t.add(
                name + " " + dn(d), {V(d, {2, 3})}, [op](const Ins& x, Device) { return op(x[0]); },
                [f](const Refs& r) { return map(r[0], b8, [f](double v) { return double(f(v)); }); });
        }
        t.add(
            "maximum(2, x) " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return zyx::maximum(2, x[0]); },
            [d](const Refs& r) { return map(r[0], d == b8 ? i32 : d, [](double v) { return nan_max(2, v); }); });
        t.add(
            "minimum(x, 1) " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return zyx::minimum(x[0], 1); },
            [d](const Refs& r) { return map(r[0], d == b8 ? i32 : d, [](double v) { return nan_min(v, 1); }); });
        t.add(
            "clone " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0].clone(); }, same);
        t.add(
            "empty " + dn(d), {},
            [d](const Ins&, Device dev) {
                return zyx::empty({2, 3}, d, dev);
            },
            [d](const Refs&) {
                return Ref{{2, 3}, d, std::vector<double>(6, 0)};
            });
        t.add(
            "to(dtype) f32 -> " + dn(d), {R(f32, {2, 3}, 0, 9)}, [d](const Ins& x, Device) { return x[0].to(d); },
            [d](const Refs& r) { return cast(r[0], d); });
        t.add(
            "type_as " + dn(d), {V(i32, {2, 3}), V(d, {1})}, [](const Ins& x, Device) { return x[0].type_as(x[1]); },
            [d](const Refs& r) { return cast(r[0], d); });
    }
    for (DType d : kIntsBool) {
        DType out = d == b8 ? i32 : d;  // bool with an integer number: the default integer
        t.add(
            "6 & x " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return 6 & x[0]; },
            [out](const Refs& r) { return map(r[0], out, [](double v) { return double(6 & int64_t(v)); }); });
        t.add(
            "x | 4 " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0] | 4; },
            [out](const Refs& r) { return map(r[0], out, [](double v) { return double(int64_t(v) | 4); }); });
        t.add(
            "5 ^ x " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return 5 ^ x[0]; },
            [out](const Refs& r) { return map(r[0], out, [](double v) { return double(5 ^ int64_t(v)); }); });
    }
    t.add(
        "true & x bool", {B({2, 3})}, [](const Ins& x, Device) { return true & x[0]; }, same);
    for (DType d : kInts) {
        t.add(
            "1 << x " + dn(d), {I(d, {2, 3}, 0, 6)}, [](const Ins& x, Device) { return 1 << x[0]; },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return double(int64_t(1) << int64_t(v)); }); });
        t.add(
            "x >> 1 " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0] >> 1; },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return std::floor(v / 2); }); });
        t.add(
            "64 >> x " + dn(d), {I(d, {2, 3}, 0, 6)}, [](const Ins& x, Device) { return 64 >> x[0]; },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return double(int64_t(64) >> int64_t(v)); }); });
        t.add(
            "x << 2 " + dn(d), {I(d, {2, 3}, 0, 9)}, [](const Ins& x, Device) { return x[0] << 2; },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return v * 4; }); });
        t.add(
            "pow(2, x) " + dn(d), {I(d, {2, 3}, 0, 5)}, [](const Ins& x, Device) { return zyx::pow(2, x[0]); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return std::pow(2, v); }); });
    }
    for (DType d : kFloats) {
        t.add(
            "pow(2, x) " + dn(d), {R(d, {2, 3})}, [](const Ins& x, Device) { return zyx::pow(2, x[0]); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return std::pow(2, v); }); }, 2);
        t.add(
            "pow(x, 2) " + dn(d), {R(d, {2, 3})}, [](const Ins& x, Device) { return zyx::pow(x[0], 2); },
            [d](const Refs& r) { return map(r[0], d, [](double v) { return v * v; }); });
    }
    // clamp with tensor bounds (broadcast): below min → min, then above max → max; NaN stays.
    for (DType d : kNumeric) {
        bool strided = runs_strided(d);
        t.add(
            "clamp(tensor, tensor) " + dn(d), {V(d, {2, 3}), V(d, {3}), V(d, {2, 1})},
            [](const Ins& x, Device) { return x[0].clamp(x[1], x[2]); },
            [d](const Refs& r) {
                Ref lo = zip(r[0], r[1], d, [](double v, double l) {
                    return std::isnan(v) || std::isnan(l) ? kNaN : v < l ? l : v;
                });
                return zip(lo, r[2], d, [](double v, double h) {
                    return std::isnan(v) || std::isnan(h) ? kNaN : v > h ? h : v;
                });
            });
        if (!strided) continue;
        t.add(
            "clamp_min(tensor) " + dn(d), {V(d, {2, 3}), V(d, {2, 3})},
            [](const Ins& x, Device) { return x[0].clamp_min(x[1]); },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double v, double l) { return v < l ? l : v; }); });
        t.add(
            "clamp_max(tensor) " + dn(d), {V(d, {2, 3}), V(d, {})},
            [](const Ins& x, Device) { return x[0].clamp_max(x[1]); },
            [d](const Refs& r) { return zip(r[0], r[1], d, [](double v, double h) { return v > h ? h : v; }); });
    }
    t.add(
        "clamp(tensor, tensor) special values", {Sp(f32, {10}), R(f32, {1}, -1, 0), R(f32, {1}, 0, 1)},
        [](const Ins& x, Device) { return x[0].clamp(x[1], x[2]); },
        [](const Refs& r) {
            Ref lo = zip(r[0], r[1], f32, [](double v, double l) { return std::isnan(v) ? kNaN : v < l ? l : v; });
            return zip(lo, r[2], f32, [](double v, double h) { return std::isnan(v) ? kNaN : v > h ? h : v; });
        });
    // Views under PyTorch's names (dtype-independent: the strided dtypes).
    for (DType d : kStridedDtypes) {
        t.add(
            "t " + dn(d), {V(d, {2, 3})}, [](const Ins& x, Device) { return x[0].t(); },
            [](const Refs& r) {
                return permute(r[0], {1, 0});
            });
        t.add(
            "t 1-d " + dn(d), {V(d, {3})}, [](const Ins& x, Device) { return x[0].t(); }, same);
        t.add(
            "view " + dn(d), {V(d, {2, 3})},
            [](const Ins& x, Device) {
                return x[0].view({3, 2});
            },
            [](const Refs& r) {
                return reshape(r[0], {3, 2});
            });
        t.add(
            "expand_as " + dn(d), {V(d, {3, 1}), V(d, {2, 3, 4})},
            [](const Ins& x, Device) { return x[0].expand_as(x[1]); },
            [](const Refs& r) {
                return gather(r[0], {2, 3, 4}, r[0].dtype, [](const std::vector<int64_t>& o, std::vector<int64_t>& in) {
                    in = {o[1], 0};
                    return true;
                });
            });
    }
    // Random: checks computed on the device must all be true (see the random group).
    auto all_true = [](int64_t n) {
        return [n](const Refs&) { return Ref{{n}, b8, std::vector<double>(size_t(n), 1)}; };
    };
    t.add(
        "randperm i32", {},
        [](const Ins&, Device dev) {
            zyx::Generator g(9), h(9);
            Tensor p = zyx::randperm(100, i32, dev, g);
            Tensor sorted = p.sort().values;
            return all_of({sorted == zyx::arange(0, 100, 1, i32, dev), p == zyx::randperm(100, i32, dev, h),
                           (p != zyx::arange(0, 100, 1, i32, dev)).any()});
        },
        all_true(201));
    t.cases.back().draws = i32;
    for (DType d : kFloats) {
        t.add(
            "bernoulli " + dn(d), {},
            [d](const Ins&, Device dev) {
                zyx::Generator g(4);
                Tensor b = zyx::bernoulli(zyx::full({64, 64}, 0.25, d, dev), g);
                return all_of({(b == 0).logical_or(b == 1), near(b.mean(), 0.25, 0.05)});
            },
            all_true(4097));
        t.cases.back().draws = d;
        t.add(
            "rand_like / randn_like " + dn(d), {V(d, {64, 64})},
            [](const Ins& x, Device) {
                zyx::Generator g(2);
                Tensor u = zyx::rand_like(x[0], g), n = zyx::randn_like(x[0], g);
                return all_of({(u >= 0).logical_and(u < 1), near(u.mean(), 0.5, 0.03), near(n.mean(), 0, 0.1)});
            },
            all_true(4098));
    }
    for (DType d : {i32, i8, u8, f32}) {
        t.add(
            "randint_like " + dn(d), {V(d, {64, 64})},
            [](const Ins& x, Device) {
                zyx::Generator g(3);
                Tensor r = zyx::randint_like(x[0], 1, 5, g);
                return all_of({(r >= 1).logical_and(r < 5), near(r.mean(), 2.5, 0.1)});
            },
            all_true(4097));
    }
    for (bool replacement : {true, false}) {
        t.add(
            std::string("multinomial ") + (replacement ? "with" : "without") + " replacement", {},
            [replacement](const Ins&, Device dev) {
                zyx::Generator g(8);
                Tensor w = zyx::tensor(std::vector<float>{1, 0, 3, 4}, {1, 4}, f32, dev).expand({2000, 4}).contiguous();
                Tensor s = zyx::multinomial(w, 2, replacement, g);
                Tensor first = s.slice(1, 0, 1);
                std::vector<Tensor> c = {(s >= 0).logical_and(s < 4), s != 1,
                                         near((first == 2).cast(f32).mean(), 3.0 / 8, 0.07)};
                if (!replacement) c.push_back(s.slice(1, 0, 1) != s.slice(1, 1, 2));
                return all_of(c);
            },
            all_true(replacement ? 8001 : 10001));
        t.cases.back().draws = f32;
    }
    return t;
}

const std::vector<std::string> kGroupNames = {"unary",  "binary", "reduce",   "movement", "nn",   "creation",
                                              "random", "assign", "indexing", "scan",     "names"};
Table make_group(const std::string& g) {
    if (g == "unary") return unary_group();
    if (g == "binary") return binary_group();
    if (g == "reduce") return reduce_group();
    if (g == "movement") return movement_group();
    if (g == "creation") return creation_group();
    if (g == "random") return random_group();
    if (g == "assign") return assign_group();
    if (g == "indexing") return indexing_group();
    if (g == "scan") return scan_group();
    if (g == "names") return names_group();
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
            if (layout == 1 && (!has_view || !c.strided)) continue;
            Result r{label, Tensor(), c.ref(refs), c.tol_scale, c.atol_floor, "", false};
            r.device_dtypes = tile_dtype(r.want.dtype);
            for (const In& in : c.inputs) r.device_dtypes = r.device_dtypes && tile_dtype(in.dtype);
            if (c.draws) r.device_dtypes = r.device_dtypes && tile_dtype(*c.draws);
            // tt:0 owes the cases whose tensors all have a tile format; any other case would run
            // its kernels on the host, which the host column checks (and test_tt_tensors checks
            // that such kernels are placed there). Skipping them keeps the tt:0 column's cold
            // kernel cache affordable.
            if (dev.kind() == Device::Kind::tt && !r.device_dtypes) continue;
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
            } catch (const std::exception& e) { r.error = e.what(); }
            runs.push_back(r);
            if (compare_interp) interp.push_back(ri);
        }
    }
    // On a Tenstorrent device the cases that must run on the chip are realized one by one, so the
    // kernels each one placed on the host are known; everything else goes in one batch.
    const bool tt = dev.kind() == Device::Kind::tt;
    std::vector<Tensor> outs;
    for (const Result& r : runs)
        if (r.error.empty() && !(tt && r.device_dtypes)) outs.push_back(r.out);
    for (const Result& r : interp)
        if (r.out.defined()) outs.push_back(r.out);
    try {
        zyx::realize(outs);  // one schedule, one compile batch per device
    } catch (const std::exception& e) {
        ADD_FAILURE() << "realizing the " << group << " group on " << device_name
                      << " in one batch failed: " << e.what() << " (the cases are now run one by one)";
    }
    std::vector<std::string> on_host(runs.size());  // tt: why kernels of the case ran on the host
    if (tt)
        for (size_t i = 0; i < runs.size(); ++i) {
            if (!runs[i].error.empty() || !runs[i].device_dtypes) continue;
            uint64_t before = last_kernel_number();
            try {
                runs[i].out.realize();
            } catch (const std::exception&) {
                continue;  // reported below with the values
            }
            for (const zyx::sched::KernelRecord& rec : zyx::sched::recent_kernels())
                if (rec.number > before && rec.device != rec.node_device)
                    on_host[i] += (on_host[i].empty() ? "" : "; ") + rec.fallback;
        }
    int ran_on_host = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (on_host[i].empty()) continue;
        ++ran_on_host;
        if (!tt_host_allowed(runs[i].label))
            ADD_FAILURE() << runs[i].label << " on " << device_name << " ran kernels on the host: " << on_host[i];
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
        } catch (const std::exception& e) { ADD_FAILURE() << r.label << " on " << device_name << ": " << e.what(); }
    }
    std::printf("%s on %s: %d results checked", group.c_str(), device_name.c_str(), checked);
    if (tt) std::printf(", %d cases of tile dtypes with kernels on the host (allow-listed)", ran_on_host);
    std::printf("\n");
}

std::string param_name(const ::testing::TestParamInfo<OpTest::ParamType>& info) {
    std::string d = std::get<0>(info.param);
    for (char& c : d)
        if (c == ':') c = '_';
    return d + "_" + std::get<1>(info.param);
}

// test_tensor_ops (label tensor) runs the interpreter and host columns, test_tt_ops (label tt)
// the same table on tt:0, the emulated chip.
#ifdef ZYX_OPS_TT_COLUMN
const std::vector<std::string> kDevices = {"tt:0"};
#else
const std::vector<std::string> kDevices = {"interpreter", "host"};
#endif

INSTANTIATE_TEST_SUITE_P(AllOps, OpTest,
                         ::testing::Combine(::testing::ValuesIn(kDevices), ::testing::ValuesIn(kGroupNames)),
                         param_name);

}  // namespace
