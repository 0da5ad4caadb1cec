// Elementwise math built from other Tensor ops (PyTorch 1.13's definitions): isfinite, nan_to_num,
// expm1, relu6, hard sigmoid / swish, elu, selu, mish, logaddexp, lerp, and the index-mask
// constructions tril, triu, outer and diag. Being composites, they fuse like any chain, run on
// every device the primitives run on, and autograd differentiates them through the primitives.
// Where a branch of a `where` is not selected, its input is replaced by a harmless value first, so
// that its (zero) gradient does not meet an infinite partial derivative and turn into NaN.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
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
        unsupported("diag", "the diagonal of a matrix (2-D → 1-D) is not implemented, got shape " + shape_str(n->shape));
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
