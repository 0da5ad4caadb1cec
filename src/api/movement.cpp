// Movement ops (views): reshape, permute, expand, pad, slicing, flip, squeeze, repeat, split,
// and the joins cat / stack.
#include <algorithm>
#include <cmath>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

// Slice [begin, end) step `step` of one axis, positions checked against [-n, n].
// `shown`: the shape errors name (the user's tensor, when x is an intermediate of index()).
NodePtr slice_node(const char* op, const NodePtr& x, int64_t axis, int64_t begin, int64_t end, int64_t step,
                   const Shape* shown = nullptr) {
    int64_t n = x->shape[size_t(axis)];
    const Shape& named = shown ? *shown : x->shape;
    if (step < 1)
        invalid(op,
                "step " + std::to_string(step) + " for axis " + std::to_string(axis) + " of shape " + shape_str(named) +
                    " (steps must be >= 1; use flip to reverse)");
    auto fix = [&](int64_t p, const char* what) {
        if (p == Range::kEnd) return n;
        int64_t q = p < 0 ? p + n : p;
        if (q < 0 || q > n)
            invalid(op,
                    std::string(what) + " " + std::to_string(p) + " out of bounds for axis " + std::to_string(axis) +
                        " of size " + std::to_string(n) + " in shape " + shape_str(named));
        return q;
    };
    int64_t b = fix(begin, "begin"), e = fix(end, "end");
    if (e < b) e = b;  // an empty range, as numpy
    std::vector<int64_t> lo(x->shape.size(), 0), hi = x->shape;
    lo[size_t(axis)] = b;
    hi[size_t(axis)] = e;
    NodePtr r = (b == 0 && e == n) ? x : graph::make_shrink(x, lo, hi);
    if (step == 1) return r;
    std::vector<int64_t> steps(x->shape.size(), 1);
    steps[size_t(axis)] = step;
    return graph::make_stride(r, steps);
}

}  // namespace

Tensor Tensor::reshape(const Shape& shape) const {
    NodePtr x = node_of(*this, "reshape");
    Shape s = shape;
    int infer = -1;
    int64_t known = 1;
    for (size_t d = 0; d < s.size(); ++d) {
        if (s[d] == -1) {
            if (infer >= 0) invalid("reshape", "more than one -1 in " + shape_str(shape));
            infer = int(d);
        } else if (s[d] < 0) {
            invalid("reshape", "negative size in " + shape_str(shape));
        } else if (s[d] != 0 && known != 0) {
            known = mul_sizes("reshape", known, s[d], "shape " + shape_str(shape) + " has too many elements");
        } else {
            known = 0;
        }
    }
    if (infer >= 0) {
        if (known == 0 || x->numel() % known != 0)
            invalid("reshape",
                    "cannot infer the -1 in " + shape_str(shape) + " for shape " + shape_str(x->shape) + " (" +
                        std::to_string(x->numel()) + " elements)");
        s[size_t(infer)] = x->numel() / known;
    }
    check_shape("reshape", s, x->dtype);
    if (graph::shape_numel(s) != x->numel())
        invalid("reshape",
                "cannot reshape " + shape_str(x->shape) + " (" + std::to_string(x->numel()) + " elements) to " +
                    shape_str(shape) + " (" + std::to_string(graph::shape_numel(s)) + " elements)");
    return wrap(reshape_node(x, s));
}

Tensor Tensor::flatten(int start_axis, int end_axis) const {
    NodePtr x = node_of(*this, "flatten");
    if (x->shape.empty()) return reshape({1});
    int64_t a = norm_axis("flatten", start_axis, x->shape), b = norm_axis("flatten", end_axis, x->shape);
    if (a > b)
        invalid("flatten",
                "start axis " + std::to_string(start_axis) + " after end axis " + std::to_string(end_axis) +
                    " for shape " + shape_str(x->shape));
    Shape s(x->shape.begin(), x->shape.begin() + a);
    int64_t m = 1;
    for (int64_t d = a; d <= b; ++d) m *= x->shape[size_t(d)];
    s.push_back(m);
    s.insert(s.end(), x->shape.begin() + b + 1, x->shape.end());
    return wrap(reshape_node(x, s));
}

Tensor Tensor::permute(const std::vector<int>& axes) const {
    NodePtr x = node_of(*this, "permute");
    std::string list = "[";
    for (size_t i = 0; i < axes.size(); ++i) {
        if (i) list += ',';
        list += std::to_string(axes[i]);
    }
    list += "]";
    if (axes.size() != x->shape.size())
        invalid("permute", "axes " + list + " for shape " + shape_str(x->shape) + " (need one per axis)");
    std::vector<int64_t> p;
    std::vector<bool> seen(axes.size(), false);
    for (int a : axes) {
        int64_t n = norm_axis("permute", a, x->shape);
        if (seen[size_t(n)]) invalid("permute", "axes " + list + " repeat axis " + std::to_string(a));
        seen[size_t(n)] = true;
        p.push_back(n);
    }
    return wrap(permute_node(x, p));
}

Tensor Tensor::transpose(int axis0, int axis1) const {
    NodePtr x = node_of(*this, "transpose");
    if (x->shape.empty()) {  // axes 0 / -1 of a 0-d tensor, as PyTorch
        dim_axes("transpose", {axis0}, x->shape);
        dim_axes("transpose", {axis1}, x->shape);
        return *this;
    }
    int64_t a = norm_axis("transpose", axis0, x->shape), b = norm_axis("transpose", axis1, x->shape);
    std::vector<int64_t> p(x->shape.size());
    for (size_t d = 0; d < p.size(); ++d) p[d] = int64_t(d);
    std::swap(p[size_t(a)], p[size_t(b)]);
    return wrap(permute_node(x, p));
}

Tensor Tensor::expand(const Shape& shape) const {
    NodePtr x = node_of(*this, "expand");
    if (shape.size() < x->shape.size())
        invalid("expand", "cannot expand " + shape_str(x->shape) + " to fewer axes " + shape_str(shape));
    size_t lead = shape.size() - x->shape.size();
    Shape s = shape;
    for (size_t d = 0; d < s.size(); ++d) {
        int64_t have = d < lead ? 1 : x->shape[d - lead];
        if (s[d] == -1) {
            if (d < lead)
                invalid("expand", "-1 for the new leading axis " + std::to_string(d) + " in " + shape_str(shape));
            s[d] = have;
        } else if (s[d] < 0) {
            invalid("expand", "negative size in " + shape_str(shape));
        } else if (have != s[d] && have != 1) {
            invalid("expand",
                    "cannot expand " + shape_str(x->shape) + " to " + shape_str(shape) + " (axis " + std::to_string(d) +
                        ": " + std::to_string(have) + " is not 1)");
        }
    }
    check_shape("expand", s, x->dtype);
    return wrap(expand_to(x, s));
}

Tensor Tensor::pad(const std::vector<std::pair<int64_t, int64_t>>& before_after, double value) const {
    NodePtr x = node_of(*this, "pad");
    size_t r = x->shape.size();
    if (before_after.size() > r)
        invalid("pad", std::to_string(before_after.size()) + " (before, after) pairs for shape " + shape_str(x->shape));
    std::vector<int64_t> lo(r, 0), hi = x->shape, before(r, 0), after(r, 0);
    bool crop = false, grow = false;
    for (size_t d = 0; d < before_after.size(); ++d) {
        auto [b, a] = before_after[d];
        std::string what = "pad (" + std::to_string(b) + ", " + std::to_string(a) + ") of axis " + std::to_string(d) +
            " of shape " + shape_str(x->shape);
        if (b == INT64_MIN || a == INT64_MIN) invalid("pad", what + " crops more than any axis holds");
        if (b < 0) {
            lo[d] = -b;
            crop = true;
        } else if (b > 0) {
            before[d] = b;
            grow = true;
        }
        if (a < 0) {
            hi[d] = x->shape[d] + a;
            crop = true;
        } else if (a > 0) {
            after[d] = a;
            grow = true;
        }
        // The padded size, checked for overflow (sizes before the crop: the crop only lowers it).
        add_sizes("pad", add_sizes("pad", x->shape[d], before[d], what), after[d], what);
        if (lo[d] > hi[d])
            invalid("pad",
                    "cropping (" + std::to_string(b) + ", " + std::to_string(a) + ") removes more than axis " +
                        std::to_string(d) + " of shape " + shape_str(x->shape) + " holds");
    }
    Shape out = x->shape;
    for (size_t d = 0; d < r; ++d) out[d] = hi[d] - lo[d] + before[d] + after[d];
    check_shape("pad", out, x->dtype);
    NodePtr n = crop ? graph::make_shrink(x, lo, hi) : x;
    if (grow) {
        if (x->dtype == DType::bool_ && value != 0 && value != 1)
            invalid("pad", "value " + std::to_string(value) + " for a bool tensor");
        n = graph::make_pad(n, before, after, kernel::bits_from_double(x->dtype, value));
    }
    return wrap(n);
}

Tensor Tensor::slice(int axis, int64_t begin, int64_t end, int64_t step) const {
    NodePtr x = node_of(*this, "slice");
    return wrap(slice_node("slice", x, norm_axis("slice", axis, x->shape), begin, end, step));
}

// Indexing with tensor entries (advanced indexing), in indexing.cpp.
Tensor index_with_tensors(const Tensor& x, const std::vector<Index>& indices);

Tensor Tensor::index(const std::vector<Index>& indices) const {
    NodePtr x = node_of(*this, "index");
    for (const Index& ix : indices)
        if (ix.is_tensor) return index_with_tensors(*this, indices);
    if (indices.size() > x->shape.size())
        invalid("index", std::to_string(indices.size()) + " indices for shape " + shape_str(x->shape));
    Shape keep;
    NodePtr n = x;
    for (size_t d = 0; d < indices.size(); ++d) {
        const Index& ix = indices[d];
        int64_t size = x->shape[d];
        if (ix.is_range) {
            n = slice_node("index", n, int64_t(d), ix.range.begin, ix.range.end, ix.range.step, &x->shape);
            keep.push_back(n->shape[d]);
        } else {
            int64_t p = ix.position < 0 ? ix.position + size : ix.position;
            if (p < 0 || p >= size)
                invalid("index",
                        "position " + std::to_string(ix.position) + " out of range for axis " + std::to_string(d) +
                            " of size " + std::to_string(size) + " in shape " + shape_str(x->shape));
            n = slice_node("index", n, int64_t(d), p, p + 1, 1);
        }
    }
    keep.insert(keep.end(), n->shape.begin() + int64_t(indices.size()), n->shape.end());
    return wrap(reshape_node(n, keep));
}

Tensor Tensor::operator[](int64_t i) const {
    if (dim() == 0) invalid("operator[]", "a 0-d tensor has no axis to index");
    return index({Index(i)});
}

Tensor Tensor::flip(Axes axes) const {
    NodePtr x = node_of(*this, "flip");
    std::vector<int64_t> a = dim_axes("flip", axes.list(), x->shape);
    if (a.empty()) return *this;
    return wrap(graph::make_flip(x, a));
}

Tensor Tensor::squeeze() const {
    NodePtr x = node_of(*this, "squeeze");
    Shape s;
    for (int64_t d : x->shape)
        if (d != 1) s.push_back(d);
    return wrap(reshape_node(x, s));
}

Tensor Tensor::squeeze(int axis) const {
    NodePtr x = node_of(*this, "squeeze");
    if (dim_axes("squeeze", {axis}, x->shape).empty()) return *this;  // 0-d: axis 0 or -1
    int64_t a = norm_axis("squeeze", axis, x->shape);
    if (x->shape[size_t(a)] != 1) return *this;  // as PyTorch: an axis of another size stays
    Shape s = x->shape;
    s.erase(s.begin() + a);
    return wrap(reshape_node(x, s));
}

Tensor Tensor::unsqueeze(int axis) const {
    NodePtr x = node_of(*this, "unsqueeze");
    int64_t a = norm_axis("unsqueeze", axis, x->shape, true);
    Shape s = x->shape;
    s.insert(s.begin() + a, 1);
    return wrap(reshape_node(x, s));
}

Tensor Tensor::repeat(const Shape& repeats) const {
    NodePtr x = node_of(*this, "repeat");
    if (repeats.size() < x->shape.size())
        invalid("repeat",
                std::to_string(repeats.size()) + " repeat counts for shape " + shape_str(x->shape) +
                    " (need at least one per axis)");
    for (int64_t r : repeats)
        if (r < 0) invalid("repeat", "negative count in " + shape_str(repeats));
    Shape base(repeats.size() - x->shape.size(), 1);
    base.insert(base.end(), x->shape.begin(), x->shape.end());
    // [1, s0, 1, s1, …] → expand [r0, s0, r1, s1, …] → merge pairs [r0·s0, r1·s1, …]
    Shape spread, grown, merged;
    for (size_t d = 0; d < base.size(); ++d) {
        spread.insert(spread.end(), {1, base[d]});
        grown.insert(grown.end(), {repeats[d], base[d]});
        merged.push_back(mul_sizes(
            "repeat", repeats[d], base[d],
            "repeats " + shape_str(repeats) + " of shape " + shape_str(x->shape) + ", axis " + std::to_string(d)));
    }
    check_shape("repeat", merged, x->dtype);
    NodePtr n = graph::make_expand(reshape_node(x, spread), grown);
    return wrap(reshape_node(n, merged));
}

std::vector<Tensor> Tensor::split(int64_t size, int axis) const {
    NodePtr x = node_of(*this, "split");
    if (x->shape.empty()) invalid("split", "a 0-d tensor has no axis to split (unsqueeze it first)");
    int64_t a = norm_axis("split", axis, x->shape);
    if (size < 1) invalid("split", "piece size " + std::to_string(size) + " (must be >= 1)");
    int64_t n = x->shape[size_t(a)];
    std::vector<int64_t> sizes;
    for (int64_t b = 0; b < n; b += size) sizes.push_back(std::min(size, n - b));
    if (sizes.empty()) sizes.push_back(0);
    return split(sizes, axis);
}

std::vector<Tensor> Tensor::split(const std::vector<int64_t>& sizes, int axis) const {
    NodePtr x = node_of(*this, "split");
    if (x->shape.empty()) invalid("split", "a 0-d tensor has no axis to split (unsqueeze it first)");
    int64_t a = norm_axis("split", axis, x->shape);
    int64_t total = 0;
    for (int64_t s : sizes) {
        if (s < 0) invalid("split", "negative piece size in " + shape_str(sizes));
        total = add_sizes("split", total, s, "piece sizes " + shape_str(sizes));
    }
    if (total != x->shape[size_t(a)])
        invalid("split",
                "piece sizes " + shape_str(sizes) + " add up to " + std::to_string(total) + ", axis " +
                    std::to_string(axis) + " of shape " + shape_str(x->shape) + " has " +
                    std::to_string(x->shape[size_t(a)]));
    std::vector<Tensor> out;
    int64_t b = 0;
    for (int64_t s : sizes) {
        out.push_back(wrap(slice_node("split", x, a, b, b + s, 1)));
        b += s;
    }
    return out;
}

std::vector<Tensor> Tensor::chunk(int64_t chunks, int axis) const {
    NodePtr x = node_of(*this, "chunk");
    if (chunks < 1) invalid("chunk", "chunk count " + std::to_string(chunks) + " (must be >= 1)");
    if (x->shape.empty()) invalid("chunk", "a 0-d tensor has no axis to split (unsqueeze it first)");
    int64_t n = x->shape[size_t(norm_axis("chunk", axis, x->shape))];
    return split(n == 0 ? 1 : (n - 1) / chunks + 1, axis);  // ceil(n / chunks) without overflow
}

Tensor cat(const std::vector<Tensor>& tensors, int axis) {
    if (tensors.empty()) invalid("cat", "no tensors to join");
    NodePtr first = node_of(tensors[0], "cat");
    for (size_t i = 0; i < tensors.size(); ++i)
        if (node_of(tensors[i], "cat")->shape.empty())
            invalid("cat",
                    "tensor " + std::to_string(i) +
                        " is 0-d: a 0-d tensor has no axis to join along (unsqueeze it, or use stack)");
    int64_t a = norm_axis("cat", axis, first->shape);
    DType t = first->dtype;
    int64_t total = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
        NodePtr x = node_of(tensors[i], "cat");
        same_device("cat", first, x);
        bool ok = x->shape.size() == first->shape.size();
        for (size_t d = 0; ok && d < x->shape.size(); ++d) ok = d == size_t(a) || x->shape[d] == first->shape[d];
        if (!ok)
            invalid("cat",
                    "tensor " + std::to_string(i) + " has shape " + shape_str(x->shape) + ", tensor 0 has " +
                        shape_str(first->shape) + " (only axis " + std::to_string(a) + " may differ)");
        t = promote(t, x->dtype);
        total = add_sizes("cat", total, x->shape[size_t(a)], "the joined length of axis " + std::to_string(a));
    }
    Shape joined = first->shape;
    joined[size_t(a)] = total;
    check_shape("cat", joined, t);
    if (tensors.size() == 1) return tensors[0].cast(t);
    // Each piece padded to the full length (zeros elsewhere; -0.0 for floats, so x + (-0.0) = x
    // exactly, even for x = -0.0), then added: one kernel of masked loads.
    uint64_t zero = dtype_is_float(t) ? kernel::bits_from_double(t, -0.0) : 0;
    kernel::Op join = t == DType::bool_ ? kernel::Op::bit_or : kernel::Op::add;
    NodePtr acc;
    int64_t offset = 0;
    for (const Tensor& tt : tensors) {
        NodePtr x = cast_to(tt.node(), t);
        int64_t n = x->shape[size_t(a)];
        if (n == 0) continue;
        std::vector<int64_t> before(x->shape.size(), 0), after(x->shape.size(), 0);
        before[size_t(a)] = offset;
        after[size_t(a)] = total - offset - n;
        offset += n;
        NodePtr p = (offset - n == 0 && after[size_t(a)] == 0) ? x : graph::make_pad(x, before, after, zero);
        acc = acc ? bin(join, acc, p) : p;
    }
    if (!acc) {  // every piece empty along the axis
        Shape s = first->shape;
        s[size_t(a)] = 0;
        return wrap(graph::make_constant(0, t, s, first->device, false));
    }
    return wrap(acc);
}

Tensor stack(const std::vector<Tensor>& tensors, int axis) {
    if (tensors.empty()) invalid("stack", "no tensors to join");
    NodePtr first = node_of(tensors[0], "stack");
    int64_t a = norm_axis("stack", axis, first->shape, true);
    std::vector<Tensor> parts;
    for (size_t i = 0; i < tensors.size(); ++i) {
        NodePtr x = node_of(tensors[i], "stack");
        if (x->shape != first->shape)
            invalid("stack",
                    "tensor " + std::to_string(i) + " has shape " + shape_str(x->shape) + ", tensor 0 has " +
                        shape_str(first->shape) + " (all must be equal)");
        same_device("stack", first, x);
        parts.push_back(tensors[i].unsqueeze(int(a)));
    }
    return composite("stack", [&] { return cat(parts, int(a)); });
}

}  // namespace zyx
