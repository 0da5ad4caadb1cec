// matmul / dot, conv2d, pooling, layer_norm and losses, all built from the graph's primitive ops.
#include <cmath>

#include "api/internal.hpp"

namespace zyx {

using namespace api;
using kernel::Op;

namespace {

// Sum over the last axis of a product of two broadcast operands [.., M, N, K]: the canonical
// matmul form the scheduler keeps as one kernel (and the host backend hands to BLAS).
NodePtr matmul_node(const NodePtr& x, const NodePtr& y, DType t) {
    // x [bx.., M, K], y [by.., K, N]
    size_t rx = x->shape.size(), ry = y->shape.size();
    int64_t M = x->shape[rx - 2], K = x->shape[rx - 1], N = y->shape[ry - 1];
    Shape bx(x->shape.begin(), x->shape.end() - 2), by(y->shape.begin(), y->shape.end() - 2);
    Shape batch;
    try {
        batch = broadcast_shapes("matmul", bx, by);
    } catch (const Error&) {  // name the operands, not only their batch parts
        invalid("matmul", "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) +
                              ": the batch axes " + shape_str(bx) + " and " + shape_str(by) + " do not broadcast");
    }
    Shape full = batch;
    full.insert(full.end(), {M, N, K});
    // The kernel's index space [batch.., M, N, K] must fit in 64 bits (as every tensor's).
    if (!graph::shape_fits(full, t))
        invalid("matmul", "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + ": the product's index space " +
                              shape_str(full) + " has more elements than fit in 64 bits");
    Shape xs = bx;
    xs.insert(xs.end(), {M, 1, K});
    NodePtr xe = expand_to(reshape_node(cast_to(x, t), xs), full);
    std::vector<int64_t> perm;
    for (size_t d = 0; d + 2 < ry; ++d) perm.push_back(int64_t(d));
    perm.insert(perm.end(), {int64_t(ry - 1), int64_t(ry - 2)});
    Shape ys = by;
    ys.insert(ys.end(), {1, N, K});
    NodePtr ye = expand_to(reshape_node(permute_node(cast_to(y, t), perm), ys), full);
    return reduce_node(Op::reduce_sum, bin(Op::mul, xe, ye), {int64_t(full.size() - 1)}, false);
}

// A 4-D view [N, C, H, W] of x, or x with a batch axis of 1 added for 3-D input.
NodePtr as_nchw(const char* op, const NodePtr& x, bool* added) {
    *added = x->shape.size() == 3;
    if (x->shape.size() != 3 && x->shape.size() != 4)
        invalid(op, "input must be [N, C, H, W] or [C, H, W], got " + shape_str(x->shape));
    if (!*added) return x;
    Shape s = {1};
    s.insert(s.end(), x->shape.begin(), x->shape.end());
    return graph::make_reshape(x, s);
}

NodePtr strip_batch(const NodePtr& y, bool added) {
    if (!added) return y;
    return graph::make_reshape(y, Shape(y->shape.begin() + 1, y->shape.end()));
}

// "3" for a square size, "(3, 2)" otherwise (for messages).
std::string size2d_str(Size2d s) {
    if (s.h == s.w) return std::to_string(s.h);
    std::string out = "(";  // appended step by step: GCC 12 warns (-Wrestrict) on "(" + to_string(…)
    out += std::to_string(s.h);
    out += ", ";
    out += std::to_string(s.w);
    out += ")";
    return out;
}

// Windows [N, C, OH, OW, KH, KW] of x [N, C, H, W] padded by `padding` on each side of H and W,
// the padding reading `pad_bits`.
NodePtr windows(const char* op, const NodePtr& x, Size2d k, Size2d stride, Size2d padding, Size2d dilation,
                uint64_t pad_bits) {
    if (k.h < 1 || k.w < 1 || stride.h < 1 || stride.w < 1 || padding.h < 0 || padding.w < 0 || dilation.h < 1 ||
        dilation.w < 1)
        invalid(op, "kernel " + size2d_str(k) + ", stride " + size2d_str(stride) + ", padding " + size2d_str(padding) +
                        ", dilation " + size2d_str(dilation) + " (kernel, stride, dilation >= 1, padding >= 0)");
    std::string what = "padding " + size2d_str(padding) + " of input " + shape_str(x->shape);
    int64_t ph = add_sizes(op, add_sizes(op, x->shape[2], padding.h, what), padding.h, what);
    int64_t pw = add_sizes(op, add_sizes(op, x->shape[3], padding.w, what), padding.w, what);
    // The window spans dilation·(k − 1) + 1 positions; compared without overflow.
    if (ph == 0 || pw == 0 || k.h - 1 > (ph - 1) / dilation.h || k.w - 1 > (pw - 1) / dilation.w)
        invalid(op, "kernel " + size2d_str(k) + " (dilation " + size2d_str(dilation) + ") is larger than the input " +
                        shape_str(x->shape) + " padded by " + size2d_str(padding) + " ([" + std::to_string(ph) + "," +
                        std::to_string(pw) + "])");
    check_shape(op, {x->shape[0], x->shape[1], ph, pw}, x->dtype);
    NodePtr p = x;
    if (padding.h > 0 || padding.w > 0)
        p = graph::make_pad(x, {0, 0, padding.h, padding.w}, {0, 0, padding.h, padding.w}, pad_bits);
    return graph::make_window(p, 2, k.h, k.w, stride.h, stride.w, dilation.h, dilation.w);
}

// Pooling arguments: stride 0 means the kernel size; padding at most half the kernel (PyTorch's rule).
Size2d pool_stride(Size2d kernel, Size2d stride) { return (stride.h == 0 && stride.w == 0) ? kernel : stride; }
void check_pool_padding(const char* op, Size2d kernel, Size2d padding) {
    if (padding.h > kernel.h / 2 || padding.w > kernel.w / 2)
        invalid(op, "padding " + size2d_str(padding) + " exceeds half the kernel " + size2d_str(kernel));
}

}  // namespace

Tensor Tensor::matmul(const Tensor& other) const {
    NodePtr x = node_of(*this, "matmul"), y = node_of(other, "matmul");
    same_device("matmul", x, y);
    if (x->shape.empty() || y->shape.empty())
        invalid("matmul", "0-d operand (shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + ")");
    DType t = promote(x->dtype, y->dtype);
    if (t == DType::bool_)
        invalid("matmul", "not defined on bool tensors (got " + dname(x->dtype) + " " + shape_str(x->shape) + " and " +
                              dname(y->dtype) + " " + shape_str(y->shape) + ")");
    bool x_vec = x->shape.size() == 1, y_vec = y->shape.size() == 1;
    NodePtr xm = x_vec ? graph::make_reshape(x, {1, x->shape[0]}) : x;
    NodePtr ym = y_vec ? graph::make_reshape(y, {y->shape[0], 1}) : y;
    int64_t kx = xm->shape.back(), ky = ym->shape[ym->shape.size() - 2];
    if (kx != ky)
        invalid("matmul", "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + " do not match (" +
                              std::to_string(kx) + " vs " + std::to_string(ky) + ")");
    NodePtr r = matmul_node(xm, ym, t);
    Shape s = r->shape;  // [batch.., M, N]: drop the axes added for 1-D operands
    if (y_vec) s.erase(s.end() - 1);
    if (x_vec) s.erase(s.end() - (y_vec ? 1 : 2));
    return wrap(reshape_node(r, s));
}

Tensor Tensor::dot(const Tensor& other) const {
    NodePtr x = node_of(*this, "dot"), y = node_of(other, "dot");
    if (x->shape.size() != 1 || y->shape.size() != 1 || x->shape[0] != y->shape[0])
        invalid("dot", "needs two 1-D tensors of equal length, got " + shape_str(x->shape) + " and " +
                           shape_str(y->shape));
    return composite("dot", [&] { return matmul(other); });
}

Tensor matmul(const Tensor& x, const Tensor& y) { return x.matmul(y); }
Tensor dot(const Tensor& x, const Tensor& y) { return x.dot(y); }

Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, Conv2dOptions o) {
    bool added;
    NodePtr x = as_nchw("conv2d", node_of(input, "conv2d"), &added);
    NodePtr w = node_of(weight, "conv2d");
    same_device("conv2d", x, w);
    if (w->shape.size() != 4)
        invalid("conv2d", "weight must be [C_out, C_in/groups, KH, KW], got " + shape_str(w->shape));
    int64_t N = x->shape[0], C = x->shape[1], O = w->shape[0], Cg = w->shape[1], kh = w->shape[2], kw = w->shape[3];
    int64_t G = o.groups;
    if (G < 1 || C % G != 0 || O % G != 0 || Cg * G != C)
        invalid("conv2d", "input " + shape_str(x->shape) + " and weight " + shape_str(w->shape) + " with groups " +
                              std::to_string(G) + " (need C_in = weight[1] · groups and C_out divisible by groups)");
    DType t = promote(x->dtype, w->dtype);
    if (t == DType::bool_)
        invalid("conv2d", "not defined on bool tensors (input " + dname(x->dtype) + " " + shape_str(x->shape) +
                              ", weight " + dname(w->dtype) + " " + shape_str(w->shape) + ")");
    NodePtr win = windows("conv2d", cast_to(x, t), {kh, kw}, o.stride, o.padding, o.dilation, 0);  // [N,C,OH,OW,kh,kw]
    int64_t OH = win->shape[2], OW = win->shape[3], Og = O / G;
    Shape full = {N, G, Og, OH, OW, Cg, kh, kw};
    if (!graph::shape_fits(full, t))
        invalid("conv2d", "input " + shape_str(x->shape) + " and weight " + shape_str(w->shape) +
                              ": the index space " + shape_str(full) + " has more elements than fit in 64 bits");
    // input  [N, G, Cg, OH, OW, kh, kw] → [N, G, 1, OH, OW, Cg, kh, kw] → expand over Og
    NodePtr xi = graph::make_reshape(win, {N, G, Cg, OH, OW, kh, kw});
    xi = graph::make_permute(xi, {0, 1, 3, 4, 2, 5, 6});
    xi = graph::make_expand(graph::make_reshape(xi, {N, G, 1, OH, OW, Cg, kh, kw}), full);
    // weight [O, Cg, kh, kw] → [1, G, Og, 1, 1, Cg, kh, kw] → expand over N, OH, OW
    NodePtr wi = graph::make_expand(graph::make_reshape(cast_to(w, t), {1, G, Og, 1, 1, Cg, kh, kw}), full);
    NodePtr y = reduce_node(Op::reduce_sum, bin(Op::mul, xi, wi), {5, 6, 7}, false);
    y = graph::make_reshape(y, {N, O, OH, OW});
    if (bias.defined()) {
        NodePtr b = node_of(bias, "conv2d");
        same_device("conv2d", x, b);
        if (b->shape != Shape{O}) invalid("conv2d", "bias must be [" + std::to_string(O) + "], got " + shape_str(b->shape));
        DType tb = promote(t, b->dtype);
        y = bin(Op::add, cast_to(y, tb), expand_to(graph::make_reshape(cast_to(b, tb), {1, O, 1, 1}), y->shape));
    }
    return wrap(strip_batch(y, added));
}

Tensor max_pool2d(const Tensor& input, Size2d kernel_size, Size2d stride, Size2d padding, Size2d dilation) {
    bool added;
    NodePtr x = as_nchw("max_pool2d", node_of(input, "max_pool2d"), &added);
    check_pool_padding("max_pool2d", kernel_size, padding);
    // Padding reads the dtype's lowest value: -inf for floats; for integers -inf saturates to the
    // minimum by the cast rules (0 for unsigned); false for bool.
    uint64_t lowest = x->dtype == DType::bool_ ? 0 : kernel::bits_from_double(x->dtype, -INFINITY);
    NodePtr win = windows("max_pool2d", x, kernel_size, pool_stride(kernel_size, stride), padding, dilation, lowest);
    return wrap(strip_batch(reduce_node(Op::reduce_max, win, {4, 5}, false), added));
}

Tensor avg_pool2d(const Tensor& input, Size2d kernel_size, Size2d stride, Size2d padding) {
    bool added;
    NodePtr x = as_nchw("avg_pool2d", node_of(input, "avg_pool2d"), &added);
    check_pool_padding("avg_pool2d", kernel_size, padding);
    x = cast_to(x, float_of(x->dtype));
    NodePtr win = windows("avg_pool2d", x, kernel_size, pool_stride(kernel_size, stride), padding, 1, 0);
    NodePtr s = reduce_node(Op::reduce_sum, win, {4, 5}, false);
    return wrap(strip_batch(bin_lit(Op::div, s, double(kernel_size.h) * double(kernel_size.w)), added));
}

Tensor layer_norm(const Tensor& input, const Shape& normalized_shape, const Tensor& weight, const Tensor& bias,
                  double eps) {
    NodePtr x = node_of(input, "layer_norm");
    size_t k = normalized_shape.size(), r = x->shape.size();
    if (k == 0 || k > r || !std::equal(normalized_shape.begin(), normalized_shape.end(), x->shape.end() - int64_t(k)))
        invalid("layer_norm", "normalized shape " + shape_str(normalized_shape) + " is not the trailing part of " +
                                  shape_str(x->shape));
    for (const Tensor* p : {&weight, &bias}) {
        if (!p->defined()) continue;
        const char* what = p == &weight ? "weight" : "bias";
        NodePtr n = node_of(*p, "layer_norm");
        if (n->shape != normalized_shape)
            invalid("layer_norm", std::string(what) + " must have shape " + shape_str(normalized_shape) + ", got " +
                                      shape_str(n->shape));
        if (!(n->device == x->device))
            invalid("layer_norm", std::string(what) + " on " + n->device.str() + ", input on " + x->device.str() +
                                      " (move one with .to())");
    }
    std::vector<int> axes;
    for (size_t d = r - k; d < r; ++d) axes.push_back(int(d));
    return composite("layer_norm", [&] {
        Tensor xf = input.cast(float_of(x->dtype));
        Tensor centered = xf - xf.mean(axes, true);
        Tensor var = centered.square().mean(axes, true);
        Tensor y = centered * (var + eps).rsqrt();
        if (weight.defined()) y = y * weight;
        if (bias.defined()) y = y + bias;
        return y;
    });
}

Tensor cross_entropy(const Tensor& logits, const Tensor& target) {
    NodePtr l = node_of(logits, "cross_entropy"), t = node_of(target, "cross_entropy");
    same_device("cross_entropy", l, t);
    if (!dtype_is_int(t->dtype))
        invalid("cross_entropy", "target must hold class indices (an integer dtype), got " + dname(t->dtype));
    bool batched = l->shape.size() == 2;
    if (!(batched && t->shape == Shape{l->shape[0]}) && !(l->shape.size() == 1 && t->shape.empty()))
        invalid("cross_entropy", "logits " + shape_str(l->shape) + " and target " + shape_str(t->shape) +
                                     " (expected [N, C] with [N], or [C] with a 0-d target)");
    return composite("cross_entropy", [&] {
        Tensor lg = batched ? logits : logits.unsqueeze(0);
        Tensor tg = batched ? target : target.reshape({1});
        int64_t n = lg.size(0), c = lg.size(1);
        Tensor classes = arange(Scalar(0), Scalar(c), Scalar(1), DType::i32, l->device).reshape({1, c});
        Tensor hit = classes == tg.cast(DType::i32).reshape({n, 1});
        Tensor picked = where(hit, lg.log_softmax(1), 0);
        return -picked.sum() / double(n);
    });
}

Tensor mse_loss(const Tensor& input, const Tensor& target) {
    NodePtr x = node_of(input, "mse_loss"), y = node_of(target, "mse_loss");
    same_device("mse_loss", x, y);
    broadcast_shapes("mse_loss", x->shape, y->shape);  // names mse_loss and both shapes
    if (promote(x->dtype, y->dtype) == DType::bool_)
        invalid("mse_loss", "not defined on bool tensors (got bool " + shape_str(x->shape) + " and bool " +
                                shape_str(y->shape) + ")");
    return composite("mse_loss", [&] { return (input - target).square().mean(); });
}

}  // namespace zyx
