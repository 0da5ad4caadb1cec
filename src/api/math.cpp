// Elementwise math built from other Tensor ops (PyTorch 1.13's definitions): isfinite, nan_to_num,
// expm1, the hyperbolic and inverse trigonometric functions, relu6, hard sigmoid / swish, elu,
// selu, mish, logaddexp, lerp, atan2, and the index-mask constructions tril, triu, outer and
// diag. Being composites, they fuse like any chain, run on
// every device the primitives run on, and autograd differentiates them through the primitives.
// Where a branch of a `where` is not selected, its input is replaced by a harmless value first, so
// that its (zero) gradient does not meet an infinite partial derivative and turn into NaN.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

// Float-only math: `out` is the result dtype (integer and bool inputs give f32), `x` the input in
// the working dtype (f32 for 16-bit floats, whose result is rounded once at the end).
struct FloatWork {
    DType out;
    Tensor x;
};
DType working_dtype(DType out) { return out == DType::f16 || out == DType::bf16 ? DType::f32 : out; }
FloatWork float_work(const Tensor& t, const char* op) {
    const NodePtr& n = node_of(t, op);
    DType out = float_of(n->dtype);
    return {out, wrap(cast_to(n, working_dtype(out)))};
}

// The largest finite value of a float dtype.
double max_finite(DType t) {
    switch (t) {
        case DType::f64: return DBL_MAX;
        case DType::f16: return 65504.0;
        case DType::bf16: return 3.3895313892515355e38;  // (2 − 2^-7) · 2^127
        default: return FLT_MAX;
    }
}

// e^x − 1 for x <= 1 in a float working dtype: with t = tanh(x/2), e^x − 1 = 2t / (1 − t). No
// cancellation (1 − t >= 0.53), so it keeps the accuracy of tanh, also near 0 where e^x − 1 would
// lose every digit; at -inf it gives -1.
Tensor expm1_small(const Tensor& x) {
    Tensor t = (x * 0.5).tanh();
    return t * 2 / (1 - t);
}

// e^x − 1: e^x − 1 itself above 1 (where rounding e^x costs at most a few ulps of the result),
// expm1_small below; that side sees 0 instead of large x, so its (unused) gradient stays finite.
Tensor expm1_of(const Tensor& x) {
    Tensor big = x > 1;
    return where(big, x.exp() - 1, expm1_small(where(big, 0, x)));
}

// scale · (x > 0 ? x : α·(e^x − 1)) in the working dtype; the e^x side only sees x <= 0.
Tensor elu_of(const Tensor& x, double alpha, double scale) {
    Tensor pos = x > 0;
    Tensor pos_side = scale == 1 ? x : x * scale;
    return where(pos, pos_side, expm1_small(where(pos, 0, x)) * (alpha * scale));
}

// Integer positions 0 … n − 1 along one axis of a [rows, cols] index grid on `device`.
Tensor positions(int64_t n, bool as_rows, Device device, DType t) {
    Tensor p = arange(0, n, 1, t, device);
    return as_rows ? p.reshape({n, 1}) : p.reshape({1, n});
}
DType position_dtype(int64_t rows, int64_t cols) {
    return rows < INT32_MAX / 2 && cols < INT32_MAX / 2 ? DType::i32 : DType::i64;
}

Tensor triangle(const Tensor& t, int64_t diagonal, bool lower, const char* op) {
    const NodePtr& n = node_of(t, op);
    size_t rank = n->shape.size();
    if (rank < 2) invalid(op, "needs a tensor of at least 2 dimensions, got shape " + shape_str(n->shape));
    return composite(op, [&] {
        int64_t rows = n->shape[rank - 2], cols = n->shape[rank - 1];
        // Beyond these bounds every element, or none, is kept: clamping keeps j − i − diagonal small.
        int64_t d = std::clamp(diagonal, -rows, cols);
        DType pt = position_dtype(rows, cols);
        Tensor offset = positions(cols, false, n->device, pt) - positions(rows, true, n->device, pt);
        Tensor keep = lower ? offset <= d : offset >= d;
        return where(keep, t, zeros({}, n->dtype, n->device));
    });
}

}  // namespace

Tensor Tensor::isfinite() const {
    const NodePtr& n = node_of(*this, "isfinite");
    if (!dtype_is_float(n->dtype)) return eq(*this);  // all true
    return abs().lt(INFINITY);                        // false for ±inf and NaN
}

Tensor Tensor::nan_to_num(double nan, std::optional<double> posinf, std::optional<double> neginf) const {
    const NodePtr& n = node_of(*this, "nan_to_num");
    if (!dtype_is_float(n->dtype)) return *this;
    double hi = posinf.value_or(max_finite(n->dtype)), lo = neginf.value_or(-max_finite(n->dtype));
    return composite("nan_to_num", [&] {
        Tensor r = where(isnan(), nan, *this);
        r = where(eq(INFINITY), hi, r);
        return where(eq(-INFINITY), lo, r);
    });
}

Tensor Tensor::expm1() const {
    FloatWork w = float_work(*this, "expm1");
    return composite("expm1", [&] { return expm1_of(w.x).cast(w.out); });
}

// Hyperbolic functions, computed so that no branch overflows or cancels where the function
// itself does not, and so that the branch a where() leaves out sees harmless inputs (its gradient
// is multiplied by 0, and 0 · inf would be NaN).
namespace {
constexpr double kLn2 = 0.69314718055994530942;
// e^(a/2) · e^(a/2) / 2 for a >= 0: e^a / 2 without overflowing before the result does.
Tensor half_exp(const Tensor& a) {
    Tensor h = (a * 0.5).exp();
    return h * (h * 0.5);
}
}  // namespace

Tensor Tensor::sinh() const {
    FloatWork w = float_work(*this, "sinh");
    return composite("sinh", [&] {
        Tensor a = w.x.abs(), small = a <= 20;
        Tensor as = where(small, a, 0), ab = where(small, 0, a);
        Tensor v = where(small, (expm1_of(as) - expm1_of(-as)) * 0.5, half_exp(ab));  // e^−a is below an ulp past 20
        return (w.x.sign() * v).cast(w.out);
    });
}

Tensor Tensor::cosh() const {
    FloatWork w = float_work(*this, "cosh");
    return composite("cosh", [&] {
        Tensor h = (w.x.abs() * 0.5).exp();
        return (h * (h * 0.5) + 0.5 / (h * h)).cast(w.out);
    });
}

Tensor Tensor::asinh() const {
    FloatWork w = float_work(*this, "asinh");
    return composite("asinh", [&] {
        Tensor a = w.x.abs(), big = a > 1e10;  // there a² would overflow; asinh(a) = log(2a) to f32 precision
        Tensor as = where(big, 1, a), ab = where(big, a, 1);
        Tensor v = where(big, ab.log() + kLn2, (as + as * as / (1 + (1 + as * as).sqrt())).log1p());
        return (w.x.sign() * v).cast(w.out);
    });
}

Tensor Tensor::acosh() const {
    FloatWork w = float_work(*this, "acosh");
    return composite("acosh", [&] {
        Tensor big = w.x > 1e10;  // acosh(x) = log(2x) there; below 1 the square root gives NaN
        Tensor xs = where(big, 2, w.x), xb = where(big, w.x, 2);
        Tensor t = xs - 1;
        return where(big, xb.log() + kLn2, (t + (t * (xs + 1)).sqrt()).log1p()).cast(w.out);
    });
}

Tensor Tensor::atanh() const {
    FloatWork w = float_work(*this, "atanh");
    // ½·log1p(2x / (1 − x)): accurate near 0; ±1 give ±inf, |x| > 1 NaN.
    return composite("atanh", [&] { return ((w.x * 2 / (1 - w.x)).log1p() * 0.5).cast(w.out); });
}

// Inverse trigonometric functions, all from one arctangent of a nonnegative argument a:
//   a <= tan(π/8):             atan(a) = P(a)
//   tan(π/8) < a <= tan(3π/8): atan(a) = π/4 + P((a − 1)/(a + 1))
//   a > tan(3π/8):             atan(a) = π/2 + P(−1/a)
// so that P only sees |r| <= tan(π/8). P(r) = r + r·z·Q(z), z = r², where Q interpolates
// (atan(√z) − √z)/(z·√z) at the Chebyshev points of [0, 0.41422²] (computed in 113-bit floats):
// degree 5 for f32 working precision (relative error of P 8.5e-11, far below an f32 ulp) and 11
// for f64 (1.8e-19). The multiples of π/4 are added as a rounded part and the rest (hi + (p + lo)).
//
// Gradients are PyTorch's closed forms rather than the derivative of this construction (which
// would be a polynomial's derivative, and whose backward kernel would hold every Horner step at
// once): the value is built without recording a gradient, and the closed form is attached by
// with_slope below.
namespace {
constexpr double kTanPi8 = 0.41421356237309505, kTan3Pi8 = 2.4142135623730951;
constexpr double kAtanQ32[] = {-0.333333343, 0.199999779, -0.142841503, 0.110713616, -0.0862465203, 0.0504807606};
constexpr double kAtanQ64[] = {-0.33333333333333331,  0.19999999999999804,   -0.14285714285659812,
                               0.11111111105153937,   -0.090909087534257429, 0.076922963728598082,
                               -0.066664248467217385, 0.058789285492297193,  -0.052304509666811966,
                               0.045515781496647055,  -0.034570174391823104, 0.016285327322755495};

// m·π/4 as hi + lo: hi rounded to the working dtype, lo the rest (rounded when used).
struct PiPart {
    double hi, lo;
};
PiPart quarter_pi(int m, DType wt) {
    const long double v = 0.785398163397448309615660845819875721L * m;
    double hi = wt == DType::f64 ? double(v) : double(float(v));
    return {hi, double(v - hi)};
}

// P(r) in the working dtype wt (f32 or f64).
Tensor atan_poly(const Tensor& r, DType wt) {
    const double* q = wt == DType::f64 ? kAtanQ64 : kAtanQ32;
    size_t n = wt == DType::f64 ? std::size(kAtanQ64) : std::size(kAtanQ32);
    Tensor z = r * r;
    Tensor s = z * q[n - 1] + q[n - 2];
    for (size_t i = n - 2; i-- > 0;) s = s * z + q[i];
    return r + r * (z * s);
}

// atan(a) for a >= 0 or NaN; `unit`: a <= 1 is known (the third branch is left out).
Tensor atan_nonneg(const Tensor& a, DType wt, bool unit) {
    Tensor small = a <= kTanPi8;
    Tensor big = unit ? Tensor() : a > kTan3Pi8;
    Tensor am = where(unit ? small : small.logical_or(big), 1, a);
    Tensor r = where(small, a, (am - 1) / (am + 1));
    if (!unit) r = where(big, -1 / where(big, a, 1), r);
    Tensor p = atan_poly(r, wt);
    PiPart q1 = quarter_pi(1, wt), q2 = quarter_pi(2, wt);
    Tensor v = where(small, p, (p + q1.lo) + q1.hi);
    return unit ? v : where(big, (p + q2.lo) + q2.hi, v);
}

// atan(t) for any t; `unit`: |t| <= 1 is known. Odd, −0 kept.
Tensor atan_signed(const Tensor& t, DType wt, bool unit) {
    Tensor v = atan_nonneg(t.abs(), wt, unit);
    return where(t == 0, t, where(t < 0, -v, v));
}

// asin(x) = 2·atan(tan(asin(x)/2)), tan(θ/2) = x / (1 + √(1 − x²)) in [−1, 1]: finite at ±1
// (π/2 there), NaN outside [−1, 1] from the square root. Below 2^-12 (2^-27 in f64) asin(x)
// rounds to x itself; taking x there also keeps x / 2 out of the denormals, which a device that
// flushes them would turn into 0.
Tensor asin_of(const Tensor& x, DType wt) {
    Tensor t = x / (1 + ((1 - x) * (1 + x)).sqrt());
    return where(x.abs() < (wt == DType::f64 ? 0x1p-27 : 0x1p-12), x, atan_signed(t, wt, true) * 2);
}

// acos(x) = 2·atan(√((1 − x)/(1 + x))): 1 − x is exact near 1 and 1 + x near −1, so neither end
// cancels; −1 gives 2·atan(inf) = π, outside [−1, 1] the square root gives NaN.
Tensor acos_of(const Tensor& x, DType wt) { return atan_nonneg(((1 - x) / (1 + x)).sqrt(), wt, false) * 2; }

// Whether the sign bit of t is set (t < 0, −0, −inf; not NaN): 1/−0 is −inf.
Tensor sign_bit(const Tensor& t) { return (t < 0).logical_or(t.reciprocal() < 0); }

// atan2(y, x): a = atan(min(|x|, |y|) / max(|x|, |y|)) in [0, π/4], placed in its octant by the
// comparison and the sign bits (−0 included), then given the sign of y.
Tensor atan2_of(const Tensor& y, const Tensor& x, DType wt) {
    Tensor ny = sign_bit(y), nx = sign_bit(x);
    Tensor ay = y.abs(), ax = x.abs();
    Tensor swap = ay > ax;  // false when either is NaN
    Tensor num = where(swap, ax, ay), den = where(swap, ay, ax);
    // num <= den; 0 / 0 (both zeros) is 0 and inf / inf is 1.
    Tensor both_inf = (num == INFINITY).logical_and(den == INFINITY);
    Tensor r = where(both_inf, 1, num / where(den == 0, 1, den));
    Tensor a = atan_nonneg(r, wt, true);
    PiPart h = quarter_pi(2, wt), p = quarter_pi(4, wt);
    // swap: π/2 − a (x >= 0) or π/2 + a (x < 0); else a or π − a.
    Tensor v = where(swap, where(nx, (a + h.lo) + h.hi, (h.lo - a) + h.hi), where(nx, (p.lo - a) + p.hi, a));
    return where(ny, -v, v);
}

// Whether the op being built must record a gradient to x.
bool needs_grad(const Tensor& x) { return graph::grad_enabled() && x.requires_grad(); }

// `f`, built without gradient, given the gradient g·slope with respect to x: f − t with
// t = (x₀ − x)·slope, x₀ a copy of x that records no gradient, and t replaced by 0 where it is not
// 0 (x infinite or NaN, slope NaN), so the value is f's: t is ±0 and +0 wherever f is −0 (the
// slopes are >= 0 there). An infinite slope becomes ± the largest finite value (0·inf is NaN);
// a NaN slope stays, so the gradient is NaN where PyTorch's is.
Tensor with_slope(const Tensor& f, const Tensor& x, const Tensor& slope) {
    Tensor x0, s;
    {
        NoGradGuard off;
        x0 = x * 1;
        double big = max_finite(x.dtype());
        s = slope.clamp(-big, big);
    }
    Tensor t = (x0 - x) * s;
    Tensor ok;
    {
        NoGradGuard off;
        ok = t == 0;
    }
    return f - where(ok, t, 0);
}

// f() built without gradient and, when x needs one, given the gradient slope()·g (with_slope).
template <class F, class S>
Tensor with_closed_form(const Tensor& x, F f, S slope) {
    const bool grad = needs_grad(x);
    Tensor v, s;
    {
        NoGradGuard off;
        v = f();
        if (grad) s = slope();
    }
    return grad ? with_slope(v, x, s) : v;
}

// The number s as a 0-d tensor next to `like` (the tensor-with-number dtype rules).
Tensor number_next_to(Scalar s, const Tensor& like, const char* op) {
    const NodePtr& n = node_of(like, op);
    return wrap(constant(s, promote_scalar(n->dtype, s), {}, n->device));
}
}  // namespace

// Gradients (PyTorch's): asin′ = 1/√(1 − x²), acos′ = −1/√(1 − x²), atan′ = 1/(1 + x²); at ±1
// the first two are ± the largest finite value (PyTorch: ±inf).
Tensor Tensor::asin() const {
    FloatWork w = float_work(*this, "asin");
    DType wt = working_dtype(w.out);
    const Tensor& x = w.x;
    return composite("asin", [&] {
        auto f = [&] { return asin_of(x, wt); };
        return with_closed_form(x, f, [&] { return ((1 - x) * (1 + x)).rsqrt(); }).cast(w.out);
    });
}

Tensor Tensor::acos() const {
    FloatWork w = float_work(*this, "acos");
    DType wt = working_dtype(w.out);
    const Tensor& x = w.x;
    return composite("acos", [&] {
        auto f = [&] { return acos_of(x, wt); };
        return with_closed_form(x, f, [&] { return -((1 - x) * (1 + x)).rsqrt(); }).cast(w.out);
    });
}

Tensor Tensor::atan() const {
    FloatWork w = float_work(*this, "atan");
    DType wt = working_dtype(w.out);
    const Tensor& x = w.x;
    return composite("atan", [&] {
        auto f = [&] { return atan_signed(x, wt, false); };
        return with_closed_form(x, f, [&] { return 1 / (1 + x * x); }).cast(w.out);
    });
}

// Gradients (PyTorch's): ∂/∂y = x/(x² + y²), ∂/∂x = −y/(x² + y²); NaN at (0, 0), as PyTorch.
Tensor atan2(const Tensor& y, const Tensor& x) {
    const NodePtr& a = node_of(y, "atan2");
    const NodePtr& b = node_of(x, "atan2");
    same_device("atan2", a, b);
    broadcast_shapes("atan2", a->shape, b->shape);
    DType out = float_of(promote(a->dtype, b->dtype));
    DType wt = working_dtype(out);
    return composite("atan2", [&] {
        Tensor p = wrap(cast_to(a, wt)), q = wrap(cast_to(b, wt));
        auto r2 = [&] { return p * p + q * q; };
        Tensor v = with_closed_form(
            p, [&] { return atan2_of(p, q, wt); }, [&] { return q / r2(); });
        return with_closed_form(
                   q, [&] { return v; }, [&] { return -p / r2(); })
            .cast(out);
    });
}
Tensor atan2(const Tensor& y, Scalar x) { return atan2(y, number_next_to(x, y, "atan2")); }
Tensor atan2(Scalar y, const Tensor& x) { return atan2(number_next_to(y, x, "atan2"), x); }
Tensor Tensor::atan2(const Tensor& other) const { return zyx::atan2(*this, other); }
Tensor Tensor::atan2(Scalar other) const { return zyx::atan2(*this, other); }

Tensor Tensor::relu6() const {
    const NodePtr& n = node_of(*this, "relu6");
    if (n->dtype == DType::bool_) invalid("relu6", "not defined on bool tensors (shape " + shape_str(n->shape) + ")");
    // At x = 0 and x = 6 the gradient is 0, as PyTorch's hardtanh gives; NaN stays NaN.
    return composite("relu6", [&] { return where(ge(6), 6, relu()); });
}

Tensor Tensor::hardsigmoid() const {
    FloatWork w = float_work(*this, "hardsigmoid");
    return composite("hardsigmoid", [&] {
        const Tensor& x = w.x;
        return where(x <= -3, 0, where(x >= 3, 1, (x + 3) / 6)).cast(w.out);
    });
}

Tensor Tensor::hardswish() const {
    FloatWork w = float_work(*this, "hardswish");
    return composite("hardswish", [&] {
        const Tensor& x = w.x;
        // x · 0 below -3 keeps PyTorch's hardswish(-inf) = NaN; the middle piece's slope reaches
        // -0.5 at -3 and 1.5 at 3, PyTorch's gradients at the kinks.
        return where(x < -3, x * 0, where(x <= 3, x * (x + 3) / 6, x)).cast(w.out);
    });
}

Tensor Tensor::elu(double alpha) const {
    FloatWork w = float_work(*this, "elu");
    return composite("elu", [&] { return elu_of(w.x, alpha, 1).cast(w.out); });
}

Tensor Tensor::selu() const {
    FloatWork w = float_work(*this, "selu");
    return composite("selu", [&] {
        return elu_of(w.x, 1.6732632423543772848170429916717, 1.0507009873554804934193349852946).cast(w.out);
    });
}

Tensor Tensor::mish() const {
    FloatWork w = float_work(*this, "mish");
    return composite("mish", [&] { return (w.x * w.x.softplus().tanh()).cast(w.out); });
}

Tensor Tensor::tril(int64_t diagonal) const { return triangle(*this, diagonal, true, "tril"); }
Tensor Tensor::triu(int64_t diagonal) const { return triangle(*this, diagonal, false, "triu"); }

Tensor tril(const Tensor& x, int64_t diagonal) { return x.tril(diagonal); }
Tensor triu(const Tensor& x, int64_t diagonal) { return x.triu(diagonal); }

Tensor logaddexp(const Tensor& x, const Tensor& y) {
    const NodePtr& a = node_of(x, "logaddexp");
    const NodePtr& b = node_of(y, "logaddexp");
    same_device("logaddexp", a, b);
    broadcast_shapes("logaddexp", a->shape, b->shape);
    DType out = float_of(promote(a->dtype, b->dtype));
    return composite("logaddexp", [&] {
        Tensor p = wrap(cast_to(a, working_dtype(out))), q = wrap(cast_to(b, working_dtype(out)));
        Tensor r = maximum(p, q) + (-(p - q).abs()).exp().log1p();  // NaN if either is NaN
        return where(p.isinf().logical_and(p == q), p, r).cast(out);
    });
}

Tensor lerp(const Tensor& start, const Tensor& end, double weight) {
    const NodePtr& a = node_of(start, "lerp");
    const NodePtr& b = node_of(end, "lerp");
    same_device("lerp", a, b);
    broadcast_shapes("lerp", a->shape, b->shape);
    DType out = float_of(promote(a->dtype, b->dtype));
    DType wt = working_dtype(out);
    return composite("lerp", [&] {
        Tensor s = wrap(cast_to(a, wt)), e = wrap(cast_to(b, wt));
        // The weight and 1 − weight as PyTorch forms them: in the working precision.
        double w = wt == DType::f32 ? double(float(weight)) : weight;
        double rest = wt == DType::f32 ? double(1.0f - float(weight)) : 1.0 - weight;
        Tensor r = std::fabs(w) < 0.5 ? s + (e - s) * w : e - (e - s) * rest;
        return r.cast(out);
    });
}

Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight) {
    const NodePtr& a = node_of(start, "lerp");
    const NodePtr& b = node_of(end, "lerp");
    const NodePtr& c = node_of(weight, "lerp");
    same_device("lerp", a, b);
    same_device("lerp", a, c);
    broadcast_shapes("lerp", broadcast_shapes("lerp", a->shape, b->shape), c->shape);
    DType out = float_of(promote(promote(a->dtype, b->dtype), c->dtype));
    DType wt = working_dtype(out);
    return composite("lerp", [&] {
        Tensor s = wrap(cast_to(a, wt)), e = wrap(cast_to(b, wt)), w = wrap(cast_to(c, wt));
        Tensor d = e - s;
        return where(w.abs() < 0.5, s + d * w, e - d * (1 - w)).cast(out);
    });
}

Tensor outer(const Tensor& x, const Tensor& y) {
    const NodePtr& a = node_of(x, "outer");
    const NodePtr& b = node_of(y, "outer");
    if (a->shape.size() != 1 || b->shape.size() != 1)
        invalid("outer", "needs two 1-D tensors, got shapes " + shape_str(a->shape) + " and " + shape_str(b->shape));
    same_device("outer", a, b);
    check_shape("outer", {a->shape[0], b->shape[0]}, promote(a->dtype, b->dtype));
    return composite("outer", [&] { return x.reshape({a->shape[0], 1}) * y.reshape({1, b->shape[0]}); });
}

Tensor diag(const Tensor& x, int64_t diagonal) {
    const NodePtr& n = node_of(x, "diag");
    if (n->shape.size() == 2)
        unsupported("diag",
                    "the diagonal of a matrix (2-D → 1-D) is not implemented, got shape " + shape_str(n->shape));
    if (n->shape.size() != 1) invalid("diag", "needs a 1-D tensor, got shape " + shape_str(n->shape));
    if (diagonal == INT64_MIN) invalid("diag", "diagonal " + std::to_string(diagonal) + " is out of range");
    int64_t len = n->shape[0], k = diagonal < 0 ? -diagonal : diagonal;
    int64_t side = add_sizes("diag", len, k, "side n + |diagonal|");
    check_shape("diag", {side, side}, n->dtype);
    return composite("diag", [&] {
        // Row i holds x[i] at column i + diagonal (diagonal >= 0); column j holds x[j] at row
        // j − diagonal (diagonal < 0). x padded to the side fills the rest of that line unused.
        Tensor v = k ? x.pad({{0, k}}) : x;
        Tensor line = diagonal >= 0 ? v.reshape({side, 1}) : v.reshape({1, side});
        DType pt = position_dtype(side, side);
        Tensor offset = positions(side, false, n->device, pt) - positions(side, true, n->device, pt);
        return where(offset == diagonal, line, zeros({}, n->dtype, n->device));
    });
}

}  // namespace zyx
