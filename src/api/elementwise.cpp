// Elementwise ops: unary math, activations, binary ops with broadcasting and promotion, where.
#include <cmath>
#include <optional>

#include "api/internal.hpp"

namespace zyx {

using namespace api;
using kernel::Op;

namespace {

// ---- unary ---------------------------------------------------------------------------------------

// Float-only math: integer and bool inputs compute in f32.
Tensor float_unary(const Tensor& t, Op op, const char* name) {
    NodePtr x = node_of(t, name);
    return wrap(un(op, cast_to(x, float_of(x->dtype))));
}

// Ops that keep the dtype and are meaningless on bool (neg, abs, …).
Tensor numeric_unary(const Tensor& t, Op op, const char* name) {
    NodePtr x = node_of(t, name);
    if (x->dtype == DType::bool_) invalid(name, "not defined on bool tensors (shape " + shape_str(x->shape) + ")");
    return wrap(un(op, x));
}

// ---- binary --------------------------------------------------------------------------------------

// One side of a binary op: a tensor node or a number.
struct Operand {
    NodePtr node;
    std::optional<Scalar> number;
};

enum class Rule {
    arith,    // add, sub, mul: promote; bool: add/mul become or/and, sub refused
    divide,   // true division: integer results become f32
    numeric,  // promote; bool refused (pow, fmod, div_trunc)
    any,      // promote; every dtype (maximum, minimum)
    compare,  // promote; result bool
    logical,  // operands promote; result bool
    bitwise,  // integers and bool
    shift,    // integers
};

struct Prepared {
    NodePtr x, y;
    DType t;
};

Prepared prepare(const char* name, const Operand& a, const Operand& b, Rule rule) {
    DType t;
    Shape shape;
    Device device;
    if (a.node && b.node) {
        same_device(name, a.node, b.node);
        t = promote(a.node->dtype, b.node->dtype);
        shape = broadcast_shapes(name, a.node->shape, b.node->shape);
        device = a.node->device;
    } else {
        const NodePtr& n = a.node ? a.node : b.node;
        t = promote_scalar(n->dtype, a.node ? *b.number : *a.number);
        shape = n->shape;
        device = n->device;
    }
    auto describe = [&]() {
        std::string s = "got ";
        s += a.node ? dname(a.node->dtype) + " " + shape_str(a.node->shape) : "number " + a.number->str();
        s += " and ";
        s += b.node ? dname(b.node->dtype) + " " + shape_str(b.node->shape) : "number " + b.number->str();
        return s;
    };
    switch (rule) {
        case Rule::divide:
            if (!dtype_is_float(t)) t = default_float();
            break;
        case Rule::numeric:
            if (t == DType::bool_) invalid(name, "not defined on bool operands (" + describe() + ")");
            break;
        case Rule::bitwise:
            if (dtype_is_float(t)) invalid(name, "needs integer or bool operands (" + describe() + ")");
            break;
        case Rule::shift:
            if (!dtype_is_int(t)) invalid(name, "needs integer operands (" + describe() + ")");
            break;
        default: break;
    }
    check_shape(name, shape, t);
    auto make = [&](const Operand& o) {
        if (o.node) return expand_to(cast_to(o.node, t), shape);
        return constant(*o.number, t, shape, device);
    };
    return {make(a), make(b), t};
}

Tensor binary(const char* name, Op op, const Operand& a, const Operand& b, Rule rule) {
    Prepared p = prepare(name, a, b, rule);
    if (rule == Rule::arith && p.t == DType::bool_) {
        if (op == Op::add)
            op = Op::logical_or;
        else if (op == Op::mul)
            op = Op::logical_and;
        else
            invalid(name, "not defined on bool operands (use logical_xor, or cast to an integer dtype)");
    }
    return wrap(bin(op, p.x, p.y));
}

Operand T(const Tensor& t, const char* name) { return Operand{node_of(t, name), std::nullopt}; }
Operand S(Scalar s) { return Operand{nullptr, s}; }

NodePtr lit(const NodePtr& like, double v) {
    return graph::make_constant(kernel::bits_from_double(like->dtype, v), like->dtype, like->shape, like->device,
                                false);
}

// log(1 + x) accurate near 0 (Goldberg): with u = 1 + x rounded, log(u) · x / (u − 1).
NodePtr log1p_node(const NodePtr& x) {
    NodePtr u = bin_lit(Op::add, x, 1.0);
    NodePtr one = lit(x, 1.0);
    NodePtr exact = bin(Op::cmp_eq, u, one);
    NodePtr inf = bin(Op::cmp_eq, u, lit(x, INFINITY));
    NodePtr scaled = bin(Op::div, bin(Op::mul, un(Op::log, u), x), bin(Op::sub, u, one));
    return graph::make_where(exact, x, graph::make_where(inf, u, scaled));
}

// Composite float math with literal constants runs in f32 for 16-bit floats (PyTorch's "opmath"),
// so constants such as gelu's 1/√2 are not rounded to bf16; the result is rounded once.
struct OpMath {
    DType out;
    NodePtr x;
};
OpMath opmath(const Tensor& t, const char* name) {
    NodePtr x = node_of(t, name);
    DType out = float_of(x->dtype);
    DType compute = (out == DType::f16 || out == DType::bf16) ? DType::f32 : out;
    return {out, cast_to(x, compute)};
}
Tensor opmath_result(const OpMath& m, const NodePtr& r) { return wrap(cast_to(r, m.out)); }

// Python's % (PyTorch's remainder): the remainder takes the sign of the divisor. Built from the
// IR's mod (C fmod, sign of the dividend): a nonzero remainder whose sign differs from the
// divisor's moves by one divisor (PyTorch's CPU kernel does the same).
Tensor remainder_of(const Operand& a, const Operand& b) {
    Prepared p = prepare("remainder", a, b, Rule::numeric);
    NodePtr r = bin(Op::mod, p.x, p.y);
    NodePtr zero = lit(r, 0.0);
    NodePtr fix = bin(Op::logical_and, bin(Op::cmp_ne, r, zero),
                      bin(Op::cmp_ne, bin(Op::cmp_lt, r, zero), bin(Op::cmp_lt, p.y, zero)));
    return wrap(graph::make_where(fix, bin(Op::add, r, p.y), r));
}

}  // namespace

// ---- unary methods ----------------------------------------------------------------------------------

Tensor Tensor::neg() const { return numeric_unary(*this, Op::neg, "neg"); }
Tensor Tensor::exp() const { return float_unary(*this, Op::exp, "exp"); }
Tensor Tensor::exp2() const { return float_unary(*this, Op::exp2, "exp2"); }
Tensor Tensor::log() const { return float_unary(*this, Op::log, "log"); }
Tensor Tensor::log2() const { return float_unary(*this, Op::log2, "log2"); }
Tensor Tensor::log10() const {
    OpMath m = opmath(*this, "log10");
    return opmath_result(m, bin_lit(Op::mul, un(Op::log2, m.x), 0.30102999566398119521));
}
Tensor Tensor::log1p() const {
    OpMath m = opmath(*this, "log1p");
    return opmath_result(m, log1p_node(m.x));
}
Tensor Tensor::sqrt() const { return float_unary(*this, Op::sqrt, "sqrt"); }
Tensor Tensor::rsqrt() const { return float_unary(*this, Op::rsqrt, "rsqrt"); }
Tensor Tensor::reciprocal() const { return float_unary(*this, Op::recip, "reciprocal"); }
Tensor Tensor::square() const {
    NodePtr x = node_of(*this, "square");
    if (x->dtype == DType::bool_) invalid("square", "not defined on bool tensors (shape " + shape_str(x->shape) + ")");
    return wrap(bin(Op::mul, x, x));
}
Tensor Tensor::sin() const { return float_unary(*this, Op::sin, "sin"); }
Tensor Tensor::cos() const { return float_unary(*this, Op::cos, "cos"); }
Tensor Tensor::tan() const {
    NodePtr x = node_of(*this, "tan");
    x = cast_to(x, float_of(x->dtype));
    return wrap(bin(Op::div, un(Op::sin, x), un(Op::cos, x)));
}
Tensor Tensor::tanh() const { return float_unary(*this, Op::tanh, "tanh"); }
Tensor Tensor::sigmoid() const { return float_unary(*this, Op::sigmoid, "sigmoid"); }
Tensor Tensor::erf() const { return float_unary(*this, Op::erf, "erf"); }
Tensor Tensor::abs() const { return numeric_unary(*this, Op::abs, "abs"); }
Tensor Tensor::sign() const { return numeric_unary(*this, Op::sign, "sign"); }
Tensor Tensor::floor() const { return numeric_unary(*this, Op::floor, "floor"); }
Tensor Tensor::ceil() const { return numeric_unary(*this, Op::ceil, "ceil"); }
Tensor Tensor::round() const { return numeric_unary(*this, Op::round, "round"); }
Tensor Tensor::trunc() const {
    NodePtr x = node_of(*this, "trunc");
    if (x->dtype == DType::bool_) invalid("trunc", "not defined on bool tensors (shape " + shape_str(x->shape) + ")");
    if (!dtype_is_float(x->dtype)) return *this;
    return wrap(graph::make_where(bin(Op::cmp_lt, x, lit(x, 0.0)), un(Op::ceil, x), un(Op::floor, x)));
}
Tensor Tensor::isnan() const {
    NodePtr x = node_of(*this, "isnan");
    return wrap(bin(Op::cmp_ne, x, x));
}
Tensor Tensor::isinf() const {
    NodePtr x = node_of(*this, "isinf");
    if (!dtype_is_float(x->dtype)) return wrap(bin(Op::cmp_ne, x, x));  // all false
    return wrap(bin(Op::cmp_eq, un(Op::abs, x), lit(x, INFINITY)));
}
Tensor Tensor::logical_not() const { return wrap(un(Op::logical_not, node_of(*this, "logical_not"))); }
Tensor Tensor::bitwise_not() const {
    NodePtr x = node_of(*this, "bitwise_not");
    if (dtype_is_float(x->dtype)) invalid("bitwise_not", "needs an integer or bool tensor, got " + dname(x->dtype));
    return wrap(un(Op::bit_not, x));
}

Tensor Tensor::relu() const { return numeric_unary(*this, Op::relu, "relu"); }
Tensor Tensor::leaky_relu(double negative_slope) const {
    OpMath m = opmath(*this, "leaky_relu");
    NodePtr x = m.x;
    NodePtr slope =
        graph::make_constant(kernel::bits_from_double(x->dtype, negative_slope), x->dtype, x->shape, x->device, true);
    return opmath_result(m, graph::make_where(bin(Op::cmp_gt, x, lit(x, 0.0)), x, bin(Op::mul, x, slope)));
}
Tensor Tensor::gelu(bool approximate) const {
    OpMath m = opmath(*this, "gelu");
    NodePtr x = m.x;
    NodePtr inner;
    if (approximate) {  // tanh(√(2/π)·(x + 0.044715·x³))
        NodePtr x3 = bin(Op::mul, bin(Op::mul, x, x), x);
        inner = un(Op::tanh, bin_lit(Op::mul, bin(Op::add, x, bin_lit(Op::mul, x3, 0.044715)), 0.7978845608028654));
    } else {  // erf(x / √2)
        inner = un(Op::erf, bin_lit(Op::mul, x, 0.7071067811865476));
    }
    return opmath_result(m, bin(Op::mul, bin_lit(Op::mul, x, 0.5), bin_lit(Op::add, inner, 1.0)));
}
Tensor Tensor::silu() const {
    OpMath m = opmath(*this, "silu");
    return opmath_result(m, bin(Op::mul, m.x, un(Op::sigmoid, m.x)));
}
Tensor Tensor::softplus(double beta, double threshold) const {
    if (beta == 0) invalid("softplus", "beta must not be 0");
    OpMath m = opmath(*this, "softplus");
    NodePtr x = m.x;
    NodePtr bx = bin_lit(Op::mul, x, beta);
    NodePtr soft = bin_lit(Op::mul, log1p_node(un(Op::exp, bx)), 1.0 / beta);
    return opmath_result(m, graph::make_where(bin(Op::cmp_gt, bx, lit(x, threshold)), x, soft));
}
Tensor Tensor::clamp(Scalar min, Scalar max) const {
    Tensor lo = binary("clamp", Op::max, T(*this, "clamp"), S(min), Rule::any);
    return binary("clamp", Op::min, T(lo, "clamp"), S(max), Rule::any);
}
Tensor Tensor::clamp_min(Scalar min) const {
    return binary("clamp_min", Op::max, T(*this, "clamp_min"), S(min), Rule::any);
}
Tensor Tensor::clamp_max(Scalar max) const {
    return binary("clamp_max", Op::min, T(*this, "clamp_max"), S(max), Rule::any);
}

// ---- binary methods --------------------------------------------------------------------------------

Tensor Tensor::add(const Tensor& y) const { return binary("add", Op::add, T(*this, "add"), T(y, "add"), Rule::arith); }
Tensor Tensor::sub(const Tensor& y) const { return binary("sub", Op::sub, T(*this, "sub"), T(y, "sub"), Rule::arith); }
Tensor Tensor::mul(const Tensor& y) const { return binary("mul", Op::mul, T(*this, "mul"), T(y, "mul"), Rule::arith); }
Tensor Tensor::div(const Tensor& y) const { return binary("div", Op::div, T(*this, "div"), T(y, "div"), Rule::divide); }
Tensor Tensor::div_trunc(const Tensor& y) const {
    Prepared p = prepare("div_trunc", T(*this, "div_trunc"), T(y, "div_trunc"), Rule::numeric);
    NodePtr q = bin(Op::div, p.x, p.y);
    if (dtype_is_float(p.t)) return wrap(q).trunc();
    return wrap(q);
}
Tensor Tensor::pow(const Tensor& y) const {
    return binary("pow", Op::pow, T(*this, "pow"), T(y, "pow"), Rule::numeric);
}
Tensor Tensor::maximum(const Tensor& y) const {
    return binary("maximum", Op::max, T(*this, "maximum"), T(y, "maximum"), Rule::any);
}
Tensor Tensor::minimum(const Tensor& y) const {
    return binary("minimum", Op::min, T(*this, "minimum"), T(y, "minimum"), Rule::any);
}
Tensor Tensor::fmod(const Tensor& y) const {
    return binary("fmod", Op::mod, T(*this, "fmod"), T(y, "fmod"), Rule::numeric);
}
Tensor Tensor::remainder(const Tensor& y) const { return remainder_of(T(*this, "remainder"), T(y, "remainder")); }
Tensor Tensor::eq(const Tensor& y) const { return binary("eq", Op::cmp_eq, T(*this, "eq"), T(y, "eq"), Rule::compare); }
Tensor Tensor::ne(const Tensor& y) const { return binary("ne", Op::cmp_ne, T(*this, "ne"), T(y, "ne"), Rule::compare); }
Tensor Tensor::lt(const Tensor& y) const { return binary("lt", Op::cmp_lt, T(*this, "lt"), T(y, "lt"), Rule::compare); }
Tensor Tensor::le(const Tensor& y) const { return binary("le", Op::cmp_le, T(*this, "le"), T(y, "le"), Rule::compare); }
Tensor Tensor::gt(const Tensor& y) const { return binary("gt", Op::cmp_gt, T(*this, "gt"), T(y, "gt"), Rule::compare); }
Tensor Tensor::ge(const Tensor& y) const { return binary("ge", Op::cmp_ge, T(*this, "ge"), T(y, "ge"), Rule::compare); }
Tensor Tensor::logical_and(const Tensor& y) const {
    return binary("logical_and", Op::logical_and, T(*this, "logical_and"), T(y, "logical_and"), Rule::logical);
}
Tensor Tensor::logical_or(const Tensor& y) const {
    return binary("logical_or", Op::logical_or, T(*this, "logical_or"), T(y, "logical_or"), Rule::logical);
}
Tensor Tensor::logical_xor(const Tensor& y) const {
    Tensor a = cast(DType::bool_), b = y.cast(DType::bool_);
    return binary("logical_xor", Op::logical_xor, T(a, "logical_xor"), T(b, "logical_xor"), Rule::compare);
}
Tensor Tensor::bitwise_and(const Tensor& y) const {
    return binary("bitwise_and", Op::bit_and, T(*this, "bitwise_and"), T(y, "bitwise_and"), Rule::bitwise);
}
Tensor Tensor::bitwise_or(const Tensor& y) const {
    return binary("bitwise_or", Op::bit_or, T(*this, "bitwise_or"), T(y, "bitwise_or"), Rule::bitwise);
}
Tensor Tensor::bitwise_xor(const Tensor& y) const {
    return binary("bitwise_xor", Op::bit_xor, T(*this, "bitwise_xor"), T(y, "bitwise_xor"), Rule::bitwise);
}
Tensor Tensor::shift_left(const Tensor& y) const {
    return binary("shift_left", Op::shl, T(*this, "shift_left"), T(y, "shift_left"), Rule::shift);
}
Tensor Tensor::shift_right(const Tensor& y) const {
    return binary("shift_right", Op::shr, T(*this, "shift_right"), T(y, "shift_right"), Rule::shift);
}

Tensor Tensor::add(Scalar y) const { return binary("add", Op::add, T(*this, "add"), S(y), Rule::arith); }
Tensor Tensor::sub(Scalar y) const { return binary("sub", Op::sub, T(*this, "sub"), S(y), Rule::arith); }
Tensor Tensor::mul(Scalar y) const { return binary("mul", Op::mul, T(*this, "mul"), S(y), Rule::arith); }
Tensor Tensor::div(Scalar y) const { return binary("div", Op::div, T(*this, "div"), S(y), Rule::divide); }
Tensor Tensor::pow(Scalar y) const {
    const NodePtr& x = node_of(*this, "pow");
    // As PyTorch and NumPy: an integer result cannot hold x^-n (it would be truncated to 0).
    if (y.kind() != Scalar::Kind::float_ && y.as_double() < 0 && !dtype_is_float(promote_scalar(x->dtype, y)))
        invalid("pow",
                "integers to negative integer powers are not allowed (" + dname(x->dtype) + " tensor to the power " +
                    y.str() + "); use a float exponent or cast the tensor to a float dtype");
    return binary("pow", Op::pow, T(*this, "pow"), S(y), Rule::numeric);
}
Tensor Tensor::maximum(Scalar y) const { return binary("maximum", Op::max, T(*this, "maximum"), S(y), Rule::any); }
Tensor Tensor::minimum(Scalar y) const { return binary("minimum", Op::min, T(*this, "minimum"), S(y), Rule::any); }
Tensor Tensor::fmod(Scalar y) const { return binary("fmod", Op::mod, T(*this, "fmod"), S(y), Rule::numeric); }
Tensor Tensor::remainder(Scalar y) const { return remainder_of(T(*this, "remainder"), S(y)); }
Tensor Tensor::eq(Scalar y) const { return binary("eq", Op::cmp_eq, T(*this, "eq"), S(y), Rule::compare); }
Tensor Tensor::ne(Scalar y) const { return binary("ne", Op::cmp_ne, T(*this, "ne"), S(y), Rule::compare); }
Tensor Tensor::lt(Scalar y) const { return binary("lt", Op::cmp_lt, T(*this, "lt"), S(y), Rule::compare); }
Tensor Tensor::le(Scalar y) const { return binary("le", Op::cmp_le, T(*this, "le"), S(y), Rule::compare); }
Tensor Tensor::gt(Scalar y) const { return binary("gt", Op::cmp_gt, T(*this, "gt"), S(y), Rule::compare); }
Tensor Tensor::ge(Scalar y) const { return binary("ge", Op::cmp_ge, T(*this, "ge"), S(y), Rule::compare); }

// ---- operators and free functions ------------------------------------------------------------------

Tensor operator+(const Tensor& x, const Tensor& y) { return x.add(y); }
Tensor operator-(const Tensor& x, const Tensor& y) { return x.sub(y); }
Tensor operator*(const Tensor& x, const Tensor& y) { return x.mul(y); }
Tensor operator/(const Tensor& x, const Tensor& y) { return x.div(y); }
Tensor operator%(const Tensor& x, const Tensor& y) { return x.remainder(y); }
Tensor operator&(const Tensor& x, const Tensor& y) { return x.bitwise_and(y); }
Tensor operator|(const Tensor& x, const Tensor& y) { return x.bitwise_or(y); }
Tensor operator^(const Tensor& x, const Tensor& y) { return x.bitwise_xor(y); }
Tensor operator<<(const Tensor& x, const Tensor& y) { return x.shift_left(y); }
Tensor operator>>(const Tensor& x, const Tensor& y) { return x.shift_right(y); }
Tensor operator==(const Tensor& x, const Tensor& y) { return x.eq(y); }
Tensor operator!=(const Tensor& x, const Tensor& y) { return x.ne(y); }
Tensor operator<(const Tensor& x, const Tensor& y) { return x.lt(y); }
Tensor operator<=(const Tensor& x, const Tensor& y) { return x.le(y); }
Tensor operator>(const Tensor& x, const Tensor& y) { return x.gt(y); }
Tensor operator>=(const Tensor& x, const Tensor& y) { return x.ge(y); }
Tensor operator+(const Tensor& x, Scalar y) { return x.add(y); }
Tensor operator-(const Tensor& x, Scalar y) { return x.sub(y); }
Tensor operator*(const Tensor& x, Scalar y) { return x.mul(y); }
Tensor operator/(const Tensor& x, Scalar y) { return x.div(y); }
Tensor operator%(const Tensor& x, Scalar y) { return x.remainder(y); }
Tensor operator==(const Tensor& x, Scalar y) { return x.eq(y); }
Tensor operator!=(const Tensor& x, Scalar y) { return x.ne(y); }
Tensor operator<(const Tensor& x, Scalar y) { return x.lt(y); }
Tensor operator<=(const Tensor& x, Scalar y) { return x.le(y); }
Tensor operator>(const Tensor& x, Scalar y) { return x.gt(y); }
Tensor operator>=(const Tensor& x, Scalar y) { return x.ge(y); }
Tensor operator+(Scalar x, const Tensor& y) { return binary("add", Op::add, S(x), T(y, "add"), Rule::arith); }
Tensor operator-(Scalar x, const Tensor& y) { return binary("sub", Op::sub, S(x), T(y, "sub"), Rule::arith); }
Tensor operator*(Scalar x, const Tensor& y) { return binary("mul", Op::mul, S(x), T(y, "mul"), Rule::arith); }
Tensor operator/(Scalar x, const Tensor& y) { return binary("div", Op::div, S(x), T(y, "div"), Rule::divide); }
Tensor operator%(Scalar x, const Tensor& y) { return remainder_of(S(x), T(y, "remainder")); }
Tensor operator-(const Tensor& x) { return x.neg(); }
Tensor operator~(const Tensor& x) { return x.bitwise_not(); }
Tensor operator!(const Tensor& x) { return x.logical_not(); }

Tensor maximum(const Tensor& x, const Tensor& y) { return x.maximum(y); }
Tensor minimum(const Tensor& x, const Tensor& y) { return x.minimum(y); }
Tensor pow(const Tensor& x, const Tensor& y) { return x.pow(y); }

namespace {

Tensor where_impl(const Tensor& cond, const Operand& a, const Operand& b) {
    NodePtr c = node_of(cond, "where");
    if (c->dtype != DType::bool_)
        invalid("where",
                "condition must be bool, got " + dname(c->dtype) + " " + shape_str(c->shape) +
                    " (compare it, e.g. x != 0)");
    Shape shape = c->shape;
    DType t;
    if (a.node && b.node) {
        same_device("where", a.node, b.node);
        t = promote(a.node->dtype, b.node->dtype);
    } else if (a.node || b.node) {
        const NodePtr& n = a.node ? a.node : b.node;
        t = promote_scalar(n->dtype, a.node ? *b.number : *a.number);
    } else {
        auto kind_dtype = [](const Scalar& s) {
            return s.kind() == Scalar::Kind::float_ ? DType::f32
                : s.kind() == Scalar::Kind::int_    ? DType::i32
                                                    : DType::bool_;
        };
        t = promote(kind_dtype(*a.number), kind_dtype(*b.number));
    }
    for (const Operand* o : {&a, &b})
        if (o->node) {
            same_device("where", c, o->node);
            shape = broadcast_shapes("where", shape, o->node->shape);
        }
    auto make = [&](const Operand& o) {
        if (o.node) return expand_to(cast_to(o.node, t), shape);
        return constant(*o.number, t, shape, c->device);
    };
    return wrap(graph::make_where(expand_to(c, shape), make(a), make(b)));
}

}  // namespace

Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y) {
    return where_impl(cond, T(x, "where"), T(y, "where"));
}
Tensor where(const Tensor& cond, const Tensor& x, Scalar y) { return where_impl(cond, T(x, "where"), S(y)); }
Tensor where(const Tensor& cond, Scalar x, const Tensor& y) { return where_impl(cond, S(x), T(y, "where")); }
Tensor where(const Tensor& cond, Scalar x, Scalar y) { return where_impl(cond, S(x), S(y)); }

}  // namespace zyx
