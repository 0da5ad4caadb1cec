// More of torch.nn.functional: linear, dropout, conv1d, conv_transpose2d, adaptive pooling,
// interpolate, batch_norm, group_norm and the losses with PyTorch's options. Each is a composite
// of public ops (so it fuses, runs on every device and has a gradient); arguments are checked
// here first, with messages that name the function, the shapes and the bad value.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

std::string num(int64_t v) { return std::to_string(v); }

std::string size2d_text(Size2d s) {
    std::string out = "(";  // appended step by step: GCC 12 warns (-Wrestrict) on "(" + to_string(…)
    out += num(s.h);
    out += ", ";
    out += num(s.w);
    out += ")";
    return out;
}

void check_same_device(const char* op, const Tensor& a, const Tensor& b) {
    same_device(op, node_of(a, op), node_of(b, op));
}

// An optional per-class / per-channel tensor: undefined, or shape `want` on x's device.
void check_optional(const char* op, const char* what, const Tensor& t, const Shape& want, const Tensor& x) {
    if (!t.defined()) return;
    check_same_device(op, x, t);
    if (t.shape() != want)
        invalid(op, std::string(what) + " must have shape " + shape_str(want) + ", got " + shape_str(t.shape()));
}

const char* reduction_name(Reduction r) {
    switch (r) {
        case Reduction::none: return "none";
        case Reduction::mean: return "mean";
        case Reduction::sum: return "sum";
        case Reduction::batchmean: return "batchmean";
    }
    return "?";
}

// batchmean belongs to kl_div alone.
void no_batchmean(const char* op, Reduction r) {
    if (r == Reduction::batchmean) invalid(op, "reduction batchmean is only for kl_div (use mean, sum or none)");
}

Tensor reduce_loss(const char* op, const Tensor& l, Reduction r) {
    switch (r) {
        case Reduction::none: return l;
        case Reduction::mean: return l.mean();
        case Reduction::sum: return l.sum();
        case Reduction::batchmean: break;
    }
    no_batchmean(op, r);
    invalid(op, std::string("unknown reduction ") + reduction_name(r));
}

// x and y of a pointwise loss: same device, broadcastable, not bool; both in their float dtype.
void pointwise_operands(const char* op, const Tensor& x, const Tensor& y, Tensor* xf, Tensor* yf) {
    NodePtr a = node_of(x, op), b = node_of(y, op);
    same_device(op, a, b);
    broadcast_shapes(op, a->shape, b->shape);
    DType t = promote(a->dtype, b->dtype);
    if (t == DType::bool_)
        invalid(op,
                "not defined on bool tensors (got " + dname(a->dtype) + " " + shape_str(a->shape) + " and " +
                    dname(b->dtype) + " " + shape_str(b->shape) + ")");
    *xf = x.cast(float_of(t));
    *yf = y.cast(float_of(t));
}

// A 4-D [N, C, H, W] view of x (3-D input gets a batch axis of 1); *added says so.
Tensor as_batched4(const char* op, const Tensor& x, bool* added) {
    node_of(x, op);
    *added = x.dim() == 3;
    if (x.dim() != 3 && x.dim() != 4)
        invalid(op, "input must be [N, C, H, W] or [C, H, W], got " + shape_str(x.shape()));
    return *added ? x.unsqueeze(0) : x;
}

Tensor host_matrix(const std::vector<float>& v, int64_t rows, int64_t cols, DType t, Device d) {
    return tensor(v, Shape{rows, cols}, t, d);
}
Tensor host_mask(const std::vector<bool>& v, int64_t rows, int64_t cols, Device d) {
    return tensor(v, Shape{rows, cols}, DType::bool_, d);
}

}  // namespace

// ---- linear, dropout ------------------------------------------------------------------------------

Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias) {
    const char* op = "linear";
    node_of(x, op);
    node_of(weight, op);
    check_same_device(op, x, weight);
    if (weight.dim() != 2) invalid(op, "weight must be [out_features, in_features], got " + shape_str(weight.shape()));
    if (x.dim() < 1 || x.size(-1) != weight.size(1))
        invalid(op,
                "input " + shape_str(x.shape()) + " does not end in in_features " + num(weight.size(1)) +
                    " of weight " + shape_str(weight.shape()));
    check_optional(op, "bias", bias, {weight.size(0)}, x);
    return composite(op, [&] {
        Tensor y = x.matmul(weight.transpose());
        return bias.defined() ? y + bias : y;
    });
}

Tensor dropout(const Tensor& x, double p, bool training, Generator& gen) {
    const char* op = "dropout";
    node_of(x, op);
    if (!(p >= 0 && p <= 1)) invalid(op, "probability p = " + std::to_string(p) + " is not in [0, 1]");
    if (!dtype_is_float(x.dtype())) invalid(op, "needs a floating dtype, got " + dname(x.dtype()));
    if (!training || p == 0) return x;
    return composite(op, [&] {
        Tensor keep = rand(x.shape(), DType::f32, x.device(), gen) >= p;  // never true for p = 1
        return where(keep, x * (1.0 / (1.0 - p)), 0.0).cast(x.dtype());
    });
}

// ---- convolutions ---------------------------------------------------------------------------------

Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias, Conv1dOptions o) {
    const char* op = "conv1d";
    node_of(x, op);
    node_of(weight, op);
    if (x.dim() != 2 && x.dim() != 3)
        invalid(op, "input must be [N, C_in, L] or [C_in, L], got " + shape_str(x.shape()));
    if (weight.dim() != 3) invalid(op, "weight must be [C_out, C_in/groups, K], got " + shape_str(weight.shape()));
    return composite(op, [&] {
        Conv2dOptions o2;
        o2.stride = Size2d(1, o.stride);
        o2.padding = Size2d(0, o.padding);
        o2.dilation = Size2d(1, o.dilation);
        o2.groups = o.groups;
        return conv2d(x.unsqueeze(-2), weight.unsqueeze(-2), bias, o2).squeeze(-2);
    });
}

Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias, ConvTranspose2dOptions o) {
    const char* op = "conv_transpose2d";
    bool added;
    Tensor x = as_batched4(op, input, &added);
    node_of(weight, op);
    check_same_device(op, x, weight);
    if (weight.dim() != 4) invalid(op, "weight must be [C_in, C_out/groups, KH, KW], got " + shape_str(weight.shape()));
    const int64_t C = x.size(1), G = o.groups;
    if (G < 1 || weight.size(0) != C || C % G != 0)
        invalid(op,
                "input " + shape_str(input.shape()) + " and weight " + shape_str(weight.shape()) + " with groups " +
                    num(G) + " (need weight[0] = C_in, divisible by groups)");
    const int64_t Og = weight.size(1), O = Og * G, kh = weight.size(2), kw = weight.size(3);
    const Size2d s = o.stride, p = o.padding, op_ = o.output_padding, d = o.dilation;
    if (s.h < 1 || s.w < 1 || d.h < 1 || d.w < 1 || p.h < 0 || p.w < 0 || op_.h < 0 || op_.w < 0)
        invalid(op,
                "stride " + size2d_text(s) + ", padding " + size2d_text(p) + ", output_padding " + size2d_text(op_) +
                    ", dilation " + size2d_text(d) + " (stride, dilation >= 1; paddings >= 0)");
    if (op_.h >= std::max(s.h, d.h) || op_.w >= std::max(s.w, d.w))
        invalid(op,
                "output_padding " + size2d_text(op_) + " must be smaller than stride " + size2d_text(s) +
                    " or dilation " + size2d_text(d));
    const int64_t H = x.size(2), W = x.size(3);
    const int64_t OH = (H - 1) * s.h - 2 * p.h + d.h * (kh - 1) + op_.h + 1;
    const int64_t OW = (W - 1) * s.w - 2 * p.w + d.w * (kw - 1) + op_.w + 1;
    if (OH < 1 || OW < 1)
        invalid(op,
                "input " + shape_str(input.shape()) + " with kernel " + num(kh) + "x" + num(kw) + " and padding " +
                    size2d_text(p) + " gives an empty output (" + num(OH) + "x" + num(OW) + ")");
    check_optional(op, "bias", bias, {O}, x);
    Tensor y = composite(op, [&] {
        const int64_t N = x.size(0);
        // stride − 1 zeros between neighbours: [N, C, H, 1, W, 1] padded to [N, C, H, s, W, s],
        // then the zeros after the last row and column cropped.
        Tensor z = x.reshape({N, C, H, 1, W, 1}).pad({{0, 0}, {0, 0}, {0, 0}, {0, s.h - 1}, {0, 0}, {0, s.w - 1}});
        z = z.reshape({N, C, H * s.h, W * s.w}).pad({{0, 0}, {0, 0}, {0, 1 - s.h}, {0, 1 - s.w}});
        // Full padding dilation·(k − 1) − padding on each side (negative crops), output_padding after.
        const int64_t ph = d.h * (kh - 1) - p.h, pw = d.w * (kw - 1) - p.w;
        z = z.pad({{0, 0}, {0, 0}, {ph, ph + op_.h}, {pw, pw + op_.w}});
        // weight [C_in, Og, kh, kw] → per group [G, C_in/G, Og, kh, kw] → [G, Og, C_in/G, kh, kw]
        // → [O, C_in/G, kh, kw], flipped in both spatial axes.
        Tensor w =
            weight.reshape({G, C / G, Og, kh, kw}).permute({0, 2, 1, 3, 4}).reshape({O, C / G, kh, kw}).flip({2, 3});
        Conv2dOptions c;
        c.dilation = d;
        c.groups = G;
        return conv2d(z, w, bias, c);
    });
    return added ? y.squeeze(0) : y;
}

// ---- adaptive pooling, interpolate ----------------------------------------------------------------

namespace {

// PyTorch's adaptive bins of `in` cells into `out`: cell i covers [floor(i·in/out), ceil((i+1)·in/out)).
void adaptive_bins(int64_t in, int64_t out, std::vector<bool>* mask, std::vector<float>* count) {
    mask->assign(size_t(out * in), false);
    count->assign(size_t(out), 0);
    for (int64_t i = 0; i < out; ++i) {
        const int64_t a = (i * in) / out, b = ((i + 1) * in + out - 1) / out;
        for (int64_t j = a; j < b; ++j) (*mask)[size_t(i * in + j)] = true;
        (*count)[size_t(i)] = float(b - a);
    }
}

Tensor adaptive_pool(const char* op, const Tensor& input, Size2d out, bool average) {
    bool added;
    Tensor x = as_batched4(op, input, &added);
    if (out.h < 1 || out.w < 1) invalid(op, "output size " + size2d_text(out) + " must be at least 1x1");
    const int64_t H = x.size(2), W = x.size(3);
    if (H < 1 || W < 1) invalid(op, "input " + shape_str(input.shape()) + " has an empty spatial axis");
    if (!average && x.dtype() == DType::bool_) invalid(op, "not defined on bool tensors");
    std::vector<bool> mh, mw;
    std::vector<float> ch, cw;
    adaptive_bins(H, out.h, &mh, &ch);
    adaptive_bins(W, out.w, &mw, &cw);
    Tensor y = composite(op, [&] {
        const Device dev = x.device();
        Tensor mask_w = host_mask(mw, out.w, W, dev), mask_h = host_mask(mh, out.h, H, dev);
        if (average) {
            Tensor xf = x.cast(float_of(x.dtype()));
            Tensor cols = where(mask_w.reshape({1, 1, 1, out.w, W}), xf.unsqueeze(3), 0).sum({4});    // [N, C, H, OW]
            Tensor rows = where(mask_h.reshape({1, 1, out.h, H, 1}), cols.unsqueeze(2), 0).sum({3});  // [N, C, OH, OW]
            Tensor div = tensor(ch, Shape{out.h, 1}, xf.dtype(), dev) * tensor(cw, Shape{1, out.w}, xf.dtype(), dev);
            return rows / div;
        }
        // Cells outside a bin read the dtype's lowest value (−inf for floats; −inf saturates to an
        // integer dtype's minimum by the cast rules), as max_pool2d's padding.
        Tensor lowest = tensor(std::vector<double>{-INFINITY}, Shape{}, x.dtype(), dev);
        Tensor cols = where(mask_w.reshape({1, 1, 1, out.w, W}), x.unsqueeze(3), lowest).max({4});
        return where(mask_h.reshape({1, 1, out.h, H, 1}), cols.unsqueeze(2), lowest).max({3});
    });
    return added ? y.squeeze(0) : y;
}

// Interpolation weights of one axis: out × in, at most two nonzero per row.
void interp_weights(const std::string& mode, bool align_corners, int64_t in, int64_t out, std::optional<double> scale,
                    std::vector<float>* w, std::vector<bool>* m) {
    w->assign(size_t(out * in), 0.0f);
    m->assign(size_t(out * in), false);
    auto set = [&](int64_t i, int64_t j, double v) {
        (*w)[size_t(i * in + j)] += float(v);
        (*m)[size_t(i * in + j)] = true;
    };
    for (int64_t i = 0; i < out; ++i) {
        if (mode == "nearest") {
            const double r = scale ? 1.0 / *scale : double(in) / double(out);
            set(i, std::min(int64_t(std::floor(double(i) * r)), in - 1), 1.0);
            continue;
        }
        double src;
        if (align_corners) {
            src = out > 1 ? double(i) * double(in - 1) / double(out - 1) : 0.0;
        } else {
            const double r = scale ? 1.0 / *scale : double(in) / double(out);
            src = std::max((double(i) + 0.5) * r - 0.5, 0.0);
        }
        const int64_t i0 = std::min(int64_t(std::floor(src)), in - 1), i1 = std::min(i0 + 1, in - 1);
        const double l1 = src - double(i0);
        set(i, i0, 1.0 - l1);
        if (l1 > 0) set(i, i1, l1);
    }
}

}  // namespace

Tensor adaptive_avg_pool2d(const Tensor& x, Size2d output_size) {
    return adaptive_pool("adaptive_avg_pool2d", x, output_size, true);
}
Tensor adaptive_max_pool2d(const Tensor& x, Size2d output_size) {
    return adaptive_pool("adaptive_max_pool2d", x, output_size, false);
}

Tensor interpolate(const Tensor& input, const InterpolateOptions& o) {
    const char* op = "interpolate";
    bool added;
    Tensor x = as_batched4(op, input, &added);
    if (o.mode != "nearest" && o.mode != "bilinear")
        invalid(op, "mode '" + o.mode + "' (supported: nearest, bilinear)");
    if (o.size.has_value() == o.scale_factor.has_value()) invalid(op, "give exactly one of size and scale_factor");
    if (o.align_corners && o.mode == "nearest") invalid(op, "align_corners is only for bilinear (as PyTorch)");
    const int64_t H = x.size(2), W = x.size(3);
    int64_t OH, OW;
    std::optional<double> sh, sw;
    if (o.size) {
        OH = o.size->h, OW = o.size->w;
    } else {
        sh = o.scale_factor->first, sw = o.scale_factor->second;
        if (!(*sh > 0) || !(*sw > 0) || !std::isfinite(*sh) || !std::isfinite(*sw))
            invalid(
                op,
                "scale_factor (" + std::to_string(*sh) + ", " + std::to_string(*sw) + ") must be positive and finite");
        OH = int64_t(std::floor(double(H) * *sh)), OW = int64_t(std::floor(double(W) * *sw));
    }
    if (OH < 1 || OW < 1 || H < 1 || W < 1)
        invalid(op,
                "input " + shape_str(input.shape()) + " to an output of " + num(OH) + "x" + num(OW) +
                    " (both must be non-empty)");
    if (o.mode == "bilinear" && !dtype_is_float(x.dtype()))
        invalid(op, "bilinear needs a floating dtype, got " + dname(x.dtype()));
    std::vector<float> wh, ww;
    std::vector<bool> mh, mw;
    interp_weights(o.mode, o.align_corners, H, OH, sh, &wh, &mh);
    interp_weights(o.mode, o.align_corners, W, OW, sw, &ww, &mw);
    Tensor y = composite(op, [&] {
        const Device dev = x.device();
        Tensor mask_w = host_mask(mw, OW, W, dev), mask_h = host_mask(mh, OH, H, dev);
        if (o.mode == "nearest") {  // a selection: exact for every dtype (−0.0 reads as +0.0)
            Tensor cols = where(mask_w.reshape({1, 1, 1, OW, W}), x.unsqueeze(3), 0).sum({4});
            return where(mask_h.reshape({1, 1, OH, H, 1}), cols.unsqueeze(2), 0).sum({3}).cast(x.dtype());
        }
        Tensor weight_w = host_matrix(ww, OW, W, x.dtype(), dev), weight_h = host_matrix(wh, OH, H, x.dtype(), dev);
        Tensor cols =
            where(mask_w.reshape({1, 1, 1, OW, W}), x.unsqueeze(3) * weight_w.reshape({1, 1, 1, OW, W}), 0).sum({4});
        return where(mask_h.reshape({1, 1, OH, H, 1}), cols.unsqueeze(2) * weight_h.reshape({1, 1, OH, H, 1}), 0)
            .sum({3});
    });
    return added ? y.squeeze(0) : y;
}

// ---- normalisation --------------------------------------------------------------------------------

Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight,
                  const Tensor& bias, bool training, double momentum, double eps) {
    const char* op = "batch_norm";
    node_of(x, op);
    if (x.dim() < 2) invalid(op, "input must be [N, C, …], got " + shape_str(x.shape()));
    if (!dtype_is_float(x.dtype())) invalid(op, "needs a floating dtype, got " + dname(x.dtype()));
    const int64_t C = x.size(1);
    for (auto [t, what] : {std::pair{&running_mean, "running_mean"},
                           {&running_var, "running_var"},
                           {&weight, "weight"},
                           {&bias, "bias"}})
        check_optional(op, what, *t, {C}, x);
    if (!training && (!running_mean.defined() || !running_var.defined()))
        invalid(op, "evaluation (training = false) needs running_mean and running_var");
    std::vector<int> axes = {0};
    for (int d = 2; d < int(x.dim()); ++d) axes.push_back(d);
    const int64_t n = x.numel() / std::max<int64_t>(C, 1);
    if (training && n <= 1)
        invalid(op, "training needs more than 1 value per channel, got input " + shape_str(x.shape()));
    Shape per_channel(x.dim(), 1);
    per_channel[1] = C;
    return composite(op, [&] {
        Tensor mean, var;
        if (training) {
            mean = x.mean(axes, true);
            var = (x - mean).square().mean(axes, true);  // biased, for normalising
            NoGradGuard off;
            if (running_mean.defined())
                running_mean.assign(
                    (running_mean * (1 - momentum) + mean.reshape({C}).detach() * momentum).cast(running_mean.dtype()));
            if (running_var.defined()) {
                Tensor unbiased = var.reshape({C}).detach() * (double(n) / double(n - 1));
                running_var.assign((running_var * (1 - momentum) + unbiased * momentum).cast(running_var.dtype()));
            }
        } else {
            mean = running_mean.reshape(per_channel);
            var = running_var.reshape(per_channel);
        }
        Tensor y = (x - mean) * (var + eps).rsqrt();
        if (weight.defined()) y = y * weight.reshape(per_channel);
        if (bias.defined()) y = y + bias.reshape(per_channel);
        return y.cast(x.dtype());
    });
}

Tensor group_norm(const Tensor& x, int64_t G, const Tensor& weight, const Tensor& bias, double eps) {
    const char* op = "group_norm";
    node_of(x, op);
    if (x.dim() < 2) invalid(op, "input must be [N, C, …], got " + shape_str(x.shape()));
    const int64_t N = x.size(0), C = x.size(1);
    if (G < 1 || C % G != 0)
        invalid(op, "num_groups " + num(G) + " does not divide the " + num(C) + " channels of " + shape_str(x.shape()));
    check_optional(op, "weight", weight, {C}, x);
    check_optional(op, "bias", bias, {C}, x);
    Shape per_channel(x.dim(), 1);
    per_channel[1] = C;
    return composite(op, [&] {
        Tensor xf = x.cast(float_of(x.dtype()));
        Tensor g = xf.reshape({N, G, -1});
        Tensor centered = g - g.mean({2}, true);
        Tensor y = (centered * (centered.square().mean({2}, true) + eps).rsqrt()).reshape(x.shape());
        if (weight.defined()) y = y * weight.reshape(per_channel);
        if (bias.defined()) y = y + bias.reshape(per_channel);
        return y;
    });
}

// ---- losses ---------------------------------------------------------------------------------------

namespace {

// The class axis moved last: [N, C, d1, …] → [N, d1, …, C]; [N, C] and [C] as they are.
Tensor classes_last(const Tensor& t) {
    if (t.dim() <= 2) return t;
    std::vector<int> perm = {0};
    for (int d = 2; d < int(t.dim()); ++d) perm.push_back(d);
    perm.push_back(1);
    return t.permute(perm);
}

// log_probs and target of nll_loss / cross_entropy: the shapes that go together.
void check_class_target(const char* op, const Tensor& input, const Tensor& target) {
    Shape want;  // the target's shape for class indices
    if (input.dim() == 1) {
        want = {};
    } else if (input.dim() >= 2) {
        want = input.shape();
        want.erase(want.begin() + 1);
    } else {
        invalid(op, "input must be [C], [N, C] or [N, C, d1, …], got " + shape_str(input.shape()));
    }
    if (!dtype_is_int(target.dtype()))
        invalid(op,
                "target must hold class indices (an integer dtype) of shape " + shape_str(want) +
                    " or class probabilities of the input's shape " + shape_str(input.shape()) + ", got " +
                    dname(target.dtype()) + " " + shape_str(target.shape()));
    if (target.shape() != want)
        invalid(op,
                "input " + shape_str(input.shape()) + " needs a target of shape " + shape_str(want) + ", got " +
                    shape_str(target.shape()));
}

struct Picked {
    Tensor loss;    // −weight[t]·log_p[t] per sample (0 where ignored), samples' shape
    Tensor weight;  // weight[t] per sample (0 where ignored or out of range)
    Tensor valid;   // target != ignore_index
};

Picked pick(const Tensor& log_probs, const Tensor& target, const Tensor& weight, int64_t ignore_index) {
    Tensor lp = classes_last(log_probs);
    const int64_t C = lp.size(-1);
    // Compared in i32 (a dtype every device computes): class counts are far below 2^31, and an
    // ignore_index beyond i32 matches no target.
    Tensor t32 = target.cast(DType::i32);
    Tensor hit = arange(Scalar(0), Scalar(C), Scalar(1), DType::i32, lp.device()) == t32.unsqueeze(-1);  // [.., C]
    const bool fits = ignore_index >= INT32_MIN && ignore_index <= INT32_MAX;
    Tensor valid = fits ? t32 != Scalar(ignore_index) : full(t32.shape(), true, DType::bool_, lp.device());
    // weight[t], or 1 when t is a class (hit has at most one true per sample)
    Tensor w = weight.defined() ? where(hit, weight.cast(lp.dtype()), 0).sum({-1}) : hit.cast(lp.dtype()).sum({-1});
    w = where(valid, w, 0);
    Tensor picked = where(hit, lp, 0).sum({-1});
    return {where(valid, -w * picked, 0), w, valid};
}

}  // namespace

Tensor nll_loss(const Tensor& log_probs, const Tensor& target, const NllLossOptions& o) {
    const char* op = "nll_loss";
    node_of(log_probs, op);
    node_of(target, op);
    check_same_device(op, log_probs, target);
    check_class_target(op, log_probs, target);
    if (log_probs.dtype() == DType::bool_)
        invalid(op, "log_probs must be numbers, got bool " + shape_str(log_probs.shape()));
    check_optional(op, "weight", o.weight, {log_probs.size(log_probs.dim() == 1 ? 0 : 1)}, log_probs);
    no_batchmean(op, o.reduction);
    return composite(op, [&] {
        Picked p = pick(log_probs.cast(float_of(log_probs.dtype())), target, o.weight, o.ignore_index);
        if (o.reduction == Reduction::mean) return p.loss.sum() / p.weight.sum();
        return reduce_loss(op, p.loss, o.reduction);
    });
}

Tensor cross_entropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& o) {
    const char* op = "cross_entropy";
    node_of(logits, op);
    node_of(target, op);
    check_same_device(op, logits, target);
    if (logits.dim() < 1) invalid(op, "logits must be [C], [N, C] or [N, C, d1, …], got " + shape_str(logits.shape()));
    const int axis = logits.dim() == 1 ? 0 : 1;
    const int64_t C = logits.size(axis);
    // Floating targets of the logits' shape are class probabilities; anything else must be indices.
    const bool soft = dtype_is_float(target.dtype()) && target.shape() == logits.shape();
    if (!soft) check_class_target(op, logits, target);
    if (logits.dtype() == DType::bool_) invalid(op, "logits must be numbers, got bool " + shape_str(logits.shape()));
    check_optional(op, "weight", o.weight, {C}, logits);
    if (!(o.label_smoothing >= 0 && o.label_smoothing <= 1))
        invalid(op, "label_smoothing " + std::to_string(o.label_smoothing) + " is not in [0, 1]");
    no_batchmean(op, o.reduction);
    const double eps = o.label_smoothing;
    Shape wshape(logits.dim(), 1);  // weight along the class axis
    wshape[size_t(axis)] = C;
    return composite(op, [&] {
        Tensor lp = logits.cast(float_of(logits.dtype())).log_softmax(axis);  // integers compute in f32
        if (soft) {
            Tensor t = eps > 0 ? target * (1 - eps) + eps / double(C) : target;
            Tensor term = lp * t;
            if (o.weight.defined()) term = term * o.weight.reshape(wshape);
            Tensor l = -term.sum({axis});
            if (o.reduction == Reduction::mean) return l.sum() / double(std::max<int64_t>(1, logits.numel() / C));
            return reduce_loss(op, l, o.reduction);
        }
        Picked p = pick(lp, target, o.weight, o.ignore_index);
        Tensor nll =
            o.reduction == Reduction::mean ? p.loss.sum() / p.weight.sum() : reduce_loss(op, p.loss, o.reduction);
        if (eps == 0) return nll;
        Tensor smooth = -(o.weight.defined() ? lp * o.weight.reshape(wshape) : lp).sum({axis});
        smooth = where(p.valid, smooth, 0);
        Tensor ret;
        if (o.reduction == Reduction::mean)
            ret = smooth.sum() / (o.weight.defined() ? p.weight.sum() : p.valid.sum().cast(lp.dtype()));
        else
            ret = reduce_loss(op, smooth, o.reduction);
        return nll * (1 - eps) + ret * (eps / double(C));
    });
}

Tensor binary_cross_entropy(const Tensor& p, const Tensor& y, const Tensor& weight, Reduction r) {
    const char* op = "binary_cross_entropy";
    Tensor pf, yf;
    pointwise_operands(op, p, y, &pf, &yf);
    if (p.shape() != y.shape())
        invalid(op, "target " + shape_str(y.shape()) + " must have the input's shape " + shape_str(p.shape()));
    if (weight.defined()) {
        check_same_device(op, p, weight);
        broadcast_shapes(op, weight.shape(), p.shape());
    }
    no_batchmean(op, r);
    return composite(op, [&] {
        Tensor l = -(yf * pf.log().clamp_min(-100) + (1 - yf) * (1 - pf).log().clamp_min(-100));
        if (weight.defined()) l = l * weight;
        return reduce_loss(op, l, r);
    });
}

Tensor binary_cross_entropy_with_logits(const Tensor& x, const Tensor& y, const Tensor& weight,
                                        const Tensor& pos_weight, Reduction r) {
    const char* op = "binary_cross_entropy_with_logits";
    Tensor xf, yf;
    pointwise_operands(op, x, y, &xf, &yf);
    if (x.shape() != y.shape())
        invalid(op, "target " + shape_str(y.shape()) + " must have the input's shape " + shape_str(x.shape()));
    for (const Tensor* t : {&weight, &pos_weight})
        if (t->defined()) {
            check_same_device(op, x, *t);
            broadcast_shapes(op, t->shape(), x.shape());
        }
    no_batchmean(op, r);
    return composite(op, [&] {
        Tensor soft = (-xf.abs()).exp().log1p() + (-xf).clamp_min(0);  // log(1 + e^−x), stably
        Tensor coef = pos_weight.defined() ? 1 + (pos_weight - 1) * yf : Tensor();
        Tensor l = (1 - yf) * xf + (coef.defined() ? coef * soft : soft);
        if (weight.defined()) l = l * weight;
        return reduce_loss(op, l, r);
    });
}

// As mse_loss(x, y): the square in the operands' dtype, the mean in its float dtype.
Tensor mse_loss(const Tensor& x, const Tensor& y, Reduction r) {
    Tensor xf, yf;
    pointwise_operands("mse_loss", x, y, &xf, &yf);  // the checks
    return composite("mse_loss", [&] { return reduce_loss("mse_loss", (x - y).square(), r); });
}

Tensor l1_loss(const Tensor& x, const Tensor& y, Reduction r) {
    Tensor xf, yf;
    pointwise_operands("l1_loss", x, y, &xf, &yf);
    return composite("l1_loss", [&] { return reduce_loss("l1_loss", (xf - yf).abs(), r); });
}

Tensor smooth_l1_loss(const Tensor& x, const Tensor& y, Reduction r, double beta) {
    const char* op = "smooth_l1_loss";
    Tensor xf, yf;
    pointwise_operands(op, x, y, &xf, &yf);
    if (!(beta >= 0)) invalid(op, "beta " + std::to_string(beta) + " must be >= 0");
    return composite(op, [&] {
        Tensor d = (xf - yf).abs();
        Tensor l = beta == 0 ? d : where(d < beta, d.square() * (0.5 / beta), d - 0.5 * beta);
        return reduce_loss(op, l, r);
    });
}

Tensor kl_div(const Tensor& x, const Tensor& target, Reduction r, bool log_target) {
    const char* op = "kl_div";
    Tensor xf, tf;
    pointwise_operands(op, x, target, &xf, &tf);
    if (r == Reduction::batchmean && x.dim() == 0) invalid(op, "batchmean needs a batch axis, got a 0-d input");
    return composite(op, [&] {
        Tensor l = log_target ? tf.exp() * (tf - xf) : where(tf == 0, 0, tf * tf.log()) - tf * xf;
        if (r == Reduction::batchmean) return l.sum() / double(x.size(0));
        return reduce_loss(op, l, r);
    });
}

}  // namespace zyx
