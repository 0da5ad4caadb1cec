// Reductions: sum, mean, prod, max, min, var, std, argmax/argmin, softmax family.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "api/internal.hpp"

namespace zyx {

using namespace api;
using kernel::Op;

namespace {

std::vector<int> all_axes(const NodePtr& x) {
    std::vector<int> a(x->shape.size());
    std::iota(a.begin(), a.end(), 0);
    return a;
}

// Elements combined into one result.
int64_t reduced_count(const NodePtr& x, const std::vector<int64_t>& axes) {
    int64_t n = 1;
    for (int64_t a : axes) n *= x->shape[size_t(a)];
    return n;
}

// sum/prod accumulate bool and 8/16-bit integers in i32.
DType sum_dtype(DType t) {
    if (t == DType::bool_ || ((dtype_is_int(t)) && dtype_size(t) < 4)) return DType::i32;
    return t;
}

// Float dtype of the result, and the dtype it is computed in (f32 for 16-bit floats: one rounding
// at the end, as PyTorch's opmath).
DType out_dtype(const NodePtr& x) { return float_of(x->dtype); }
NodePtr to_opmath(const NodePtr& x) {
    DType out = out_dtype(x);
    return cast_to(x, (out == DType::f16 || out == DType::bf16) ? DType::f32 : out);
}

NodePtr lit(const NodePtr& like, double v) {
    return graph::make_constant(kernel::bits_from_double(like->dtype, v), like->dtype, like->shape, like->device,
                                false);
}

Tensor reduce_op(const Tensor& t, Op op, const std::vector<int>& axes_in, bool keepdim, const char* name) {
    NodePtr x = node_of(t, name);
    std::vector<int64_t> axes = dim_axes(name, axes_in, x->shape);
    if (op == Op::reduce_sum || op == Op::reduce_prod) x = cast_to(x, sum_dtype(x->dtype));
    return wrap(reduce_node(op, x, axes, keepdim));
}

// Mean over `axes` in the float dtype of x (keepdim form when keepdim).
NodePtr mean_node(const NodePtr& x, const std::vector<int64_t>& axes, bool keepdim) {
    NodePtr s = reduce_node(Op::reduce_sum, x, axes, keepdim);
    return bin_lit(Op::div, s, double(reduced_count(x, axes)));
}

NodePtr var_node(const NodePtr& xf, const std::vector<int64_t>& axes, bool keepdim, int correction) {
    NodePtr m = expand_to(mean_node(xf, axes, true), xf->shape);
    NodePtr d = bin(Op::sub, xf, m);
    NodePtr ss = reduce_node(Op::reduce_sum, bin(Op::mul, d, d), axes, keepdim);
    double divisor = std::max<double>(0, double(reduced_count(xf, axes) - correction));
    return bin_lit(Op::div, ss, divisor);
}

// logsumexp in keepdim form; x is float.
NodePtr logsumexp_node(const NodePtr& x, const std::vector<int64_t>& axes) {
    NodePtr m = reduce_node(Op::reduce_max, x, axes, true);
    // An infinite maximum (all -inf, or some +inf) would turn x − m into NaN: shift by 0 then.
    NodePtr finite_m = graph::make_where(bin(Op::cmp_eq, un(Op::abs, m), lit(m, INFINITY)), lit(m, 0.0), m);
    NodePtr e = un(Op::exp, bin(Op::sub, x, expand_to(finite_m, x->shape)));
    return bin(Op::add, un(Op::log, reduce_node(Op::reduce_sum, e, axes, true)), finite_m);
}

Tensor arg_op(const Tensor& t, int axis, bool keepdim, bool is_max, const char* name) {
    NodePtr x = node_of(t, name);
    if (x->shape.empty()) {  // a 0-d tensor: its one element is at position 0 (axis 0 or -1, as PyTorch)
        dim_axes(name, {axis}, x->shape);
        return wrap(graph::make_constant(0, DType::i32, {}, x->device, false));
    }
    int64_t a = norm_axis(name, axis, x->shape);
    int64_t n = x->shape[size_t(a)];
    if (n == 0) invalid(name, "axis " + std::to_string(axis) + " of shape " + shape_str(x->shape) + " is empty");
    // The first position holding the extreme value (or a NaN): min over where(hit, position, n).
    NodePtr m = expand_to(reduce_node(is_max ? Op::reduce_max : Op::reduce_min, x, {a}, true), x->shape);
    NodePtr hit = bin(Op::cmp_eq, x, m);
    if (dtype_is_float(x->dtype)) hit = bin(Op::logical_or, hit, bin(Op::cmp_ne, x, x));
    Shape pos_shape(x->shape.size(), 1);
    pos_shape[size_t(a)] = n;
    NodePtr pos = graph::make_arange(kernel::bits_from_int(DType::i64, 0), kernel::bits_from_int(DType::i64, 1),
                                     DType::i32, n, x->device);
    pos = expand_to(graph::make_reshape(pos, pos_shape), x->shape);
    NodePtr none = graph::make_constant(kernel::bits_from_int(DType::i32, n), DType::i32, x->shape, x->device, false);
    return wrap(reduce_node(Op::reduce_min, graph::make_where(hit, pos, none), {a}, keepdim));
}

}  // namespace

Tensor Tensor::sum() const { return reduce_op(*this, Op::reduce_sum, all_axes(node_of(*this, "sum")), false, "sum"); }
Tensor Tensor::sum(Axes axes, bool keepdim) const {
    return reduce_op(*this, Op::reduce_sum, axes.list(), keepdim, "sum");
}
Tensor Tensor::prod() const {
    return reduce_op(*this, Op::reduce_prod, all_axes(node_of(*this, "prod")), false, "prod");
}
Tensor Tensor::prod(Axes axes, bool keepdim) const {
    return reduce_op(*this, Op::reduce_prod, axes.list(), keepdim, "prod");
}
Tensor Tensor::max() const { return reduce_op(*this, Op::reduce_max, all_axes(node_of(*this, "max")), false, "max"); }
Tensor Tensor::max(Axes axes, bool keepdim) const {
    return reduce_op(*this, Op::reduce_max, axes.list(), keepdim, "max");
}
Tensor Tensor::min() const { return reduce_op(*this, Op::reduce_min, all_axes(node_of(*this, "min")), false, "min"); }
Tensor Tensor::min(Axes axes, bool keepdim) const {
    return reduce_op(*this, Op::reduce_min, axes.list(), keepdim, "min");
}

Tensor Tensor::mean() const { return mean(all_axes(node_of(*this, "mean")), false); }
Tensor Tensor::mean(Axes axes, bool keepdim) const {
    NodePtr x = node_of(*this, "mean");
    std::vector<int64_t> a = dim_axes("mean", axes.list(), x->shape);
    return wrap(cast_to(mean_node(to_opmath(x), a, keepdim), out_dtype(x)));
}

Tensor Tensor::var() const { return var(all_axes(node_of(*this, "var")), false, 1); }
Tensor Tensor::var(Axes axes, bool keepdim, int correction) const {
    NodePtr x = node_of(*this, "var");
    std::vector<int64_t> a = dim_axes("var", axes.list(), x->shape);
    return wrap(cast_to(var_node(to_opmath(x), a, keepdim, correction), out_dtype(x)));
}
namespace {
Tensor std_op(const Tensor& t, const Axes* axes, bool keepdim, int correction, const char* name) {
    NodePtr x = node_of(t, name);
    std::vector<int64_t> a = dim_axes(name, axes ? axes->list() : all_axes(x), x->shape);
    return wrap(cast_to(un(Op::sqrt, var_node(to_opmath(x), a, keepdim, correction)), out_dtype(x)));
}
}  // namespace

Tensor Tensor::std() const { return std_op(*this, nullptr, false, 1, "std"); }
Tensor Tensor::std(Axes axes, bool keepdim, int correction) const {
    return std_op(*this, &axes, keepdim, correction, "std");
}
Tensor Tensor::stddev() const { return std_op(*this, nullptr, false, 1, "stddev"); }
Tensor Tensor::stddev(Axes axes, bool keepdim, int correction) const {
    return std_op(*this, &axes, keepdim, correction, "stddev");
}

Tensor Tensor::argmax() const { return reshape({-1}).argmax(0, false); }
Tensor Tensor::argmax(int axis, bool keepdim) const { return arg_op(*this, axis, keepdim, true, "argmax"); }
Tensor Tensor::argmin() const { return reshape({-1}).argmin(0, false); }
Tensor Tensor::argmin(int axis, bool keepdim) const { return arg_op(*this, axis, keepdim, false, "argmin"); }

Tensor Tensor::softmax(int axis) const {
    NodePtr x = node_of(*this, "softmax");
    if (x->shape.empty()) {  // axis 0 or -1 of a 0-d tensor: the softmax of one element
        dim_axes("softmax", {axis}, x->shape);
        return reshape({1}).softmax(0).reshape({});
    }
    int64_t a = norm_axis("softmax", axis, x->shape);
    DType out = out_dtype(x);
    x = to_opmath(x);
    NodePtr m = expand_to(reduce_node(Op::reduce_max, x, {a}, true), x->shape);
    NodePtr e = un(Op::exp, bin(Op::sub, x, m));
    NodePtr s = expand_to(reduce_node(Op::reduce_sum, e, {a}, true), x->shape);
    return wrap(cast_to(bin(Op::div, e, s), out));
}

Tensor Tensor::log_softmax(int axis) const {
    NodePtr x = node_of(*this, "log_softmax");
    if (x->shape.empty()) {
        dim_axes("log_softmax", {axis}, x->shape);
        return reshape({1}).log_softmax(0).reshape({});
    }
    int64_t a = norm_axis("log_softmax", axis, x->shape);
    DType out = out_dtype(x);
    x = to_opmath(x);
    return wrap(cast_to(bin(Op::sub, x, expand_to(logsumexp_node(x, {a}), x->shape)), out));
}

Tensor Tensor::logsumexp(Axes axes, bool keepdim) const {
    NodePtr x = node_of(*this, "logsumexp");
    std::vector<int64_t> a = dim_axes("logsumexp", axes.list(), x->shape);
    DType out = out_dtype(x);
    if (a.empty()) return wrap(cast_to(x, out));
    x = to_opmath(x);
    NodePtr r = cast_to(logsumexp_node(x, a), out);
    if (keepdim) return wrap(r);
    Shape s;
    for (size_t d = 0; d < x->shape.size(); ++d)
        if (!std::binary_search(a.begin(), a.end(), int64_t(d))) s.push_back(x->shape[d]);
    return wrap(reshape_node(r, s));
}

}  // namespace zyx
