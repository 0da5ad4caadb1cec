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
        invalid("matmul",
                "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + ": the batch axes " + shape_str(bx) +
                    " and " + shape_str(by) + " do not broadcast");
    }
    Shape full = batch;
    full.insert(full.end(), {M, N, K});
    // The kernel's index space [batch.., M, N, K] must fit in 64 bits (as every tensor's).
    if (!graph::shape_fits(full, t))
        invalid("matmul",
                "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + ": the product's index space " +
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
        invalid(op,
                "kernel " + size2d_str(k) + ", stride " + size2d_str(stride) + ", padding " + size2d_str(padding) +
                    ", dilation " + size2d_str(dilation) + " (kernel, stride, dilation >= 1, padding >= 0)");
    std::string what = "padding " + size2d_str(padding) + " of input " + shape_str(x->shape);
    int64_t ph = add_sizes(op, add_sizes(op, x->shape[2], padding.h, what), padding.h, what);
    int64_t pw = add_sizes(op, add_sizes(op, x->shape[3], padding.w, what), padding.w, what);
    // The window spans dilation·(k − 1) + 1 positions; compared without overflow.
    if (ph == 0 || pw == 0 || k.h - 1 > (ph - 1) / dilation.h || k.w - 1 > (pw - 1) / dilation.w)
        invalid(op,
                "kernel " + size2d_str(k) + " (dilation " + size2d_str(dilation) + ") is larger than the input " +
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
        invalid("matmul",
                "not defined on bool tensors (got " + dname(x->dtype) + " " + shape_str(x->shape) + " and " +
                    dname(y->dtype) + " " + shape_str(y->shape) + ")");
    bool x_vec = x->shape.size() == 1, y_vec = y->shape.size() == 1;
    NodePtr xm = x_vec ? graph::make_reshape(x, {1, x->shape[0]}) : x;
    NodePtr ym = y_vec ? graph::make_reshape(y, {y->shape[0], 1}) : y;
    int64_t kx = xm->shape.back(), ky = ym->shape[ym->shape.size() - 2];
    if (kx != ky)
        invalid("matmul",
                "shapes " + shape_str(x->shape) + " and " + shape_str(y->shape) + " do not match (" +
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
        invalid("dot",
                "needs two 1-D tensors of equal length, got " + shape_str(x->shape) + " and " + shape_str(y->shape));
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
        invalid("conv2d",
                "input " + shape_str(x->shape) + " and weight " + shape_str(w->shape) + " with groups " +
                    std::to_string(G) + " (need C_in = weight[1] · groups and C_out divisible by groups)");
    DType t = promote(x->dtype, w->dtype);
    if (t == DType::bool_)
        invalid("conv2d",
                "not defined on bool tensors (input " + dname(x->dtype) + " " + shape_str(x->shape) + ", weight " +
                    dname(w->dtype) + " " + shape_str(w->shape) + ")");
    NodePtr win = windows("conv2d", cast_to(x, t), {kh, kw}, o.stride, o.padding, o.dilation, 0);  // [N,C,OH,OW,kh,kw]
    int64_t OH = win->shape[2], OW = win->shape[3], Og = O / G;
    Shape full = {N, G, Og, OH, OW, Cg, kh, kw};
    if (!graph::shape_fits(full, t))
        invalid("conv2d",
                "input " + shape_str(x->shape) + " and weight " + shape_str(w->shape) + ": the index space " +
                    shape_str(full) + " has more elements than fit in 64 bits");
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
        if (b->shape != Shape{O})
            invalid("conv2d", "bias must be [" + std::to_string(O) + "], got " + shape_str(b->shape));
        DType tb = promote(t, b->dtype);
        y = bin(Op::add, cast_to(y, tb), expand_to(graph::make_reshape(cast_to(b, tb), {1, O, 1, 1}), y->shape));
    }
    return wrap(strip_batch(y, added));
}

namespace {

// Output cells of one pooled axis (PyTorch's pooling_output_shape): with ceil_mode the count
// rounds up, but a last window that would start in the right padding is dropped.
int64_t pooled_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;  // >= 0: windows() checked the kernel fits
    int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (out - 1) * s >= in + p) --out;
    return out;
}

// avg_pool2d's divisor of each output cell along one axis (PyTorch's rules): the window clipped
// to the padded input (count_include_pad) or to the input itself.
std::vector<float> pool_divisors(int64_t in, int64_t out, int64_t k, int64_t s, int64_t p, bool include_pad) {
    std::vector<float> v(static_cast<size_t>(out));
    for (int64_t i = 0; i < out; ++i) {
        int64_t a = i * s - p, b = std::min(a + k, in + p);
        if (!include_pad) a = std::max<int64_t>(a, 0), b = std::min(b, in);
        v[size_t(i)] = float(b - a);
    }
    return v;
}

Tensor pool2d(const char* op, const Tensor& input, Size2d k, const Pool2dOptions& o, bool max) {
    bool added;
    NodePtr x = as_nchw(op, node_of(input, op), &added);
    check_pool_padding(op, k, o.padding);
    const Size2d s = pool_stride(k, o.stride), p = o.padding, d = o.dilation;
    if (!max && (d.h != 1 || d.w != 1)) invalid(op, "has no dilation (got " + size2d_str(d) + ")");
    if (o.divisor_override < 0)
        invalid(op, "divisor_override " + std::to_string(o.divisor_override) + " must be positive");
    if (!max) x = cast_to(x, float_of(x->dtype));
    // Padding reads the dtype's lowest value for max (-inf for floats; for integers -inf
    // saturates to the minimum by the cast rules, 0 for unsigned; false for bool), 0 for avg.
    const uint64_t pad = !max || x->dtype == DType::bool_ ? 0 : kernel::bits_from_double(x->dtype, -INFINITY);
    NodePtr win = windows(op, x, k, s, p, d, pad);  // checks the arguments, floor-mode windows
    const int64_t H = x->shape[2], W = x->shape[3];
    const int64_t OH = pooled_size(H, k.h, s.h, p.h, d.h, o.ceil_mode),
                  OW = pooled_size(W, k.w, s.w, p.w, d.w, o.ceil_mode);
    if (OH != win->shape[2] || OW != win->shape[3]) {
        // ceil_mode's extra window: more padding on the right, read as the padding value (avg
        // divisors below never count it).
        const int64_t eh = std::max<int64_t>(0, (OH - 1) * s.h + d.h * (k.h - 1) + 1 - (H + 2 * p.h));
        const int64_t ew = std::max<int64_t>(0, (OW - 1) * s.w + d.w * (k.w - 1) + 1 - (W + 2 * p.w));
        NodePtr padded = graph::make_pad(x, {0, 0, p.h, p.w}, {0, 0, p.h + eh, p.w + ew}, pad);
        win = graph::make_window(padded, 2, k.h, k.w, s.h, s.w, d.h, d.w);
        if (win->shape[2] != OH || win->shape[3] != OW)
            win = graph::make_shrink(win, {0, 0, 0, 0, 0, 0}, {win->shape[0], win->shape[1], OH, OW, k.h, k.w});
    }
    if (max) return wrap(strip_batch(reduce_node(Op::reduce_max, win, {4, 5}, false), added));
    NodePtr sum = reduce_node(Op::reduce_sum, win, {4, 5}, false);
    Tensor y = wrap(sum);
    if (o.divisor_override > 0) {
        y = y / double(o.divisor_override);
    } else if (!o.ceil_mode && o.count_include_pad) {
        y = y / (double(k.h) * double(k.w));
    } else {
        std::vector<float> dh = pool_divisors(H, OH, k.h, s.h, p.h, o.count_include_pad);
        std::vector<float> dw = pool_divisors(W, OW, k.w, s.w, p.w, o.count_include_pad);
        y = y / (tensor(dh, Shape{OH, 1}, x->dtype, x->device) * tensor(dw, Shape{1, OW}, x->dtype, x->device));
    }
    return added ? y.squeeze(0) : y;
}

}  // namespace

Tensor max_pool2d(const Tensor& input, Size2d kernel_size, Size2d stride, Size2d padding, Size2d dilation) {
    Pool2dOptions o;
    o.stride = stride, o.padding = padding, o.dilation = dilation;
    return pool2d("max_pool2d", input, kernel_size, o, true);
}

Tensor avg_pool2d(const Tensor& input, Size2d kernel_size, Size2d stride, Size2d padding) {
    Pool2dOptions o;
    o.stride = stride, o.padding = padding;
    return pool2d("avg_pool2d", input, kernel_size, o, false);
}

Tensor max_pool2d(const Tensor& input, Size2d kernel_size, const Pool2dOptions& options) {
    return pool2d("max_pool2d", input, kernel_size, options, true);
}

Tensor avg_pool2d(const Tensor& input, Size2d kernel_size, const Pool2dOptions& options) {
    return pool2d("avg_pool2d", input, kernel_size, options, false);
}

Tensor layer_norm(const Tensor& input, const Shape& normalized_shape, const Tensor& weight, const Tensor& bias,
                  double eps) {
    NodePtr x = node_of(input, "layer_norm");
    size_t k = normalized_shape.size(), r = x->shape.size();
    if (k == 0 || k > r || !std::equal(normalized_shape.begin(), normalized_shape.end(), x->shape.end() - int64_t(k)))
        invalid(
            "layer_norm",
            "normalized shape " + shape_str(normalized_shape) + " is not the trailing part of " + shape_str(x->shape));
    for (const Tensor* p : {&weight, &bias}) {
        if (!p->defined()) continue;
        const char* what = p == &weight ? "weight" : "bias";
        NodePtr n = node_of(*p, "layer_norm");
        if (n->shape != normalized_shape)
            invalid(
                "layer_norm",
                std::string(what) + " must have shape " + shape_str(normalized_shape) + ", got " + shape_str(n->shape));
        if (!(n->device == x->device))
            invalid("layer_norm",
                    std::string(what) + " on " + n->device.str() + ", input on " + x->device.str() +
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

// PyTorch's defaults (ignore_index −100, mean over the targets kept): nn_functional.cpp.
Tensor cross_entropy(const Tensor& logits, const Tensor& target) {
    return cross_entropy(logits, target, CrossEntropyOptions{});
}

Tensor mse_loss(const Tensor& input, const Tensor& target) {
    NodePtr x = node_of(input, "mse_loss"), y = node_of(target, "mse_loss");
    same_device("mse_loss", x, y);
    broadcast_shapes("mse_loss", x->shape, y->shape);  // names mse_loss and both shapes
    if (promote(x->dtype, y->dtype) == DType::bool_)
        invalid(
            "mse_loss",
            "not defined on bool tensors (got bool " + shape_str(x->shape) + " and bool " + shape_str(y->shape) + ")");
    return composite("mse_loss", [&] { return (input - target).square().mean(); });
}

}  // namespace zyx
