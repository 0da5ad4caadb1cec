// PyTorch's names for things the API already does, and numbers on either side of every operator
// (issue 15, item 6): to(dtype), size(), t(), view, clone, expand_as, type_as, empty, clamp with
// tensor bounds, floor_divide (Python's //), comparisons, bitwise ops and shifts with a number on
// the left, pow / maximum / minimum with a number. All are composites of existing ops.
#include <cmath>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

// The number `s` as a 0-d tensor in the dtype the tensor-with-number rules give next to `like`,
// on its device: a tensor-with-tensor op then computes what the number overload would.
Tensor number_as_tensor(Scalar s, const Tensor& like, const char* op) {
    const NodePtr& n = node_of(like, op);
    return wrap(constant(s, promote_scalar(n->dtype, s), {}, n->device));
}

// Bitwise ops and shifts take integer (and bool for bitwise) numbers only.
void integral_number(Scalar s, const Tensor& other, const char* op) {
    if (s.kind() == Scalar::Kind::float_)
        invalid(op,
                "needs integer operands, got number " + s.str() + " with " + dname(other.dtype()) + " " +
                    shape_str(other.shape()));
}

// PyTorch's div(rounding_mode="floor") of two tensors of the float dtype t, computed from fmod
// so that (x − fmod(x, y)) / y is (nearly) an integer before rounding.
Tensor floor_div_float(const Tensor& x, const Tensor& y) {
    Tensor m = x.fmod(y);
    Tensor d = (x - m) / y;
    Tensor fix = (m != 0).logical_and((y < 0) != (m < 0));
    d = where(fix, d - 1, d);
    Tensor f = d.floor();
    f = where(d - f > 0.5, f + 1, f);
    Tensor q = x / y;
    f = where(d == 0, where(q < 0, -0.0, 0.0), f);  // a zero quotient takes the sign of x / y
    return where(y == 0, q, f);
}

// Integers: truncating division (x / 0 = 0), one less when the remainder is nonzero and its sign
// differs from the divisor's.
Tensor floor_div_int(const Tensor& x, const Tensor& y) {
    Tensor q = x.div_trunc(y);
    Tensor r = x - q * y;
    Tensor fix = (r != 0).logical_and((r < 0) != (y < 0)).logical_and(y != 0);
    return where(fix, q - 1, q);
}

Tensor floor_div(const Tensor& x, const Tensor& y) {
    const char* op = "floor_divide";
    const NodePtr& a = node_of(x, op);
    const NodePtr& b = node_of(y, op);
    same_device(op, a, b);
    broadcast_shapes(op, a->shape, b->shape);
    DType t = promote(a->dtype, b->dtype);
    if (t == DType::bool_)
        invalid(op,
                "not defined on bool operands (got " + dname(a->dtype) + " " + shape_str(a->shape) + " and " +
                    dname(b->dtype) + " " + shape_str(b->shape) + ")");
    NoGradGuard no_grad;  // piecewise constant: no gradient, as comparisons
    return composite(op, [&] {
        Tensor p = x.cast(t), q = y.cast(t);
        if (!dtype_is_float(t)) return floor_div_int(p, q);
        DType work = t == DType::f16 || t == DType::bf16 ? DType::f32 : t;
        return floor_div_float(p.cast(work), q.cast(work)).cast(t);
    });
}

}  // namespace

const Shape& Tensor::size() const { return shape(); }
Tensor Tensor::to(DType dtype) const { return cast(dtype); }
Tensor Tensor::type_as(const Tensor& other) const { return cast(node_of(other, "type_as")->dtype); }
Tensor Tensor::expand_as(const Tensor& other) const { return expand(node_of(other, "expand_as")->shape); }

Tensor Tensor::view(const Shape& shape) const {
    node_of(*this, "view");
    return composite("view", [&] { return reshape(shape); });
}

Tensor Tensor::t() const {
    const NodePtr& n = node_of(*this, "t");
    if (n->shape.size() > 2) invalid("t", "expects a tensor of at most 2 dimensions, got shape " + shape_str(n->shape));
    return n->shape.size() < 2 ? *this : transpose(0, 1);
}

Tensor Tensor::clone() const { return wrap(graph::make_contiguous(node_of(*this, "clone"))); }

Tensor Tensor::clamp(const Tensor& min, const Tensor& max) const {
    const char* op = "clamp";
    node_of(*this, op);
    if (!min.defined() && !max.defined()) invalid(op, "needs at least one bound (min and max are both undefined)");
    return composite(op, [&] {
        Tensor r = *this;
        // x < bound is false for a NaN x, which stays; a NaN float bound is passed on.
        if (min.defined()) {
            r = where(r < min, min, r);
            if (dtype_is_float(min.dtype())) r = where(min.isnan(), min, r);
        }
        if (max.defined()) {
            r = where(r > max, max, r);
            if (dtype_is_float(max.dtype())) r = where(max.isnan(), max, r);
        }
        return r;
    });
}
Tensor Tensor::clamp_min(const Tensor& min) const {
    node_of(min, "clamp_min");
    return clamp(min, Tensor());
}
Tensor Tensor::clamp_max(const Tensor& max) const {
    node_of(max, "clamp_max");
    return clamp(Tensor(), max);
}

Tensor Tensor::floor_divide(const Tensor& y) const { return floor_div(*this, y); }
Tensor Tensor::floor_divide(Scalar y) const { return floor_div(*this, number_as_tensor(y, *this, "floor_divide")); }
Tensor floor_divide(const Tensor& x, const Tensor& y) { return floor_div(x, y); }
Tensor floor_divide(const Tensor& x, Scalar y) { return x.floor_divide(y); }
Tensor floor_divide(Scalar x, const Tensor& y) { return floor_div(number_as_tensor(x, y, "floor_divide"), y); }

// Comparisons with the number on the left are the mirrored comparison.
Tensor operator==(Scalar x, const Tensor& y) { return y.eq(x); }
Tensor operator!=(Scalar x, const Tensor& y) { return y.ne(x); }
Tensor operator<(Scalar x, const Tensor& y) { return y.gt(x); }
Tensor operator<=(Scalar x, const Tensor& y) { return y.ge(x); }
Tensor operator>(Scalar x, const Tensor& y) { return y.lt(x); }
Tensor operator>=(Scalar x, const Tensor& y) { return y.le(x); }

Tensor operator&(const Tensor& x, Scalar y) {
    integral_number(y, x, "bitwise_and");
    return x.bitwise_and(number_as_tensor(y, x, "bitwise_and"));
}
Tensor operator|(const Tensor& x, Scalar y) {
    integral_number(y, x, "bitwise_or");
    return x.bitwise_or(number_as_tensor(y, x, "bitwise_or"));
}
Tensor operator^(const Tensor& x, Scalar y) {
    integral_number(y, x, "bitwise_xor");
    return x.bitwise_xor(number_as_tensor(y, x, "bitwise_xor"));
}
Tensor operator<<(const Tensor& x, Scalar y) {
    integral_number(y, x, "shift_left");
    return x.shift_left(number_as_tensor(y, x, "shift_left"));
}
Tensor operator>>(const Tensor& x, Scalar y) {
    integral_number(y, x, "shift_right");
    return x.shift_right(number_as_tensor(y, x, "shift_right"));
}
Tensor operator&(Scalar x, const Tensor& y) { return y & x; }
Tensor operator|(Scalar x, const Tensor& y) { return y | x; }
Tensor operator^(Scalar x, const Tensor& y) { return y ^ x; }
Tensor operator<<(Scalar x, const Tensor& y) {
    integral_number(x, y, "shift_left");
    return number_as_tensor(x, y, "shift_left").shift_left(y);
}
Tensor operator>>(Scalar x, const Tensor& y) {
    integral_number(x, y, "shift_right");
    return number_as_tensor(x, y, "shift_right").shift_right(y);
}

Tensor pow(const Tensor& x, Scalar y) { return x.pow(y); }
Tensor pow(Scalar x, const Tensor& y) { return number_as_tensor(x, y, "pow").pow(y); }
Tensor maximum(const Tensor& x, Scalar y) { return x.maximum(y); }
Tensor maximum(Scalar x, const Tensor& y) { return y.maximum(x); }
Tensor minimum(const Tensor& x, Scalar y) { return x.minimum(y); }
Tensor minimum(Scalar x, const Tensor& y) { return y.minimum(x); }

}  // namespace zyx
