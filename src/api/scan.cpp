// Reductions, scans and orderings of issue 15 (item 3): all, any, amax, amin, count_nonzero,
// max/min with indices, cumsum, cumprod, norm, sort, argsort, topk, median.
// The reductions and scans are composites of lazy ops (they fuse, run on every device and get
// their gradients from the primitives). The orderings depend on the data: they realize their
// input, compute the permutation on the host with a stable sort, and upload i32 indices; their
// values are either uploaded too or, when a gradient is wanted, selected lazily from the input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

// sum/prod/cumsum/cumprod accumulate bool and 8/16-bit integers in i32 (as sum, see reduce.cpp).
DType accumulate_dtype(DType t) {
    if (t == DType::bool_ || (dtype_is_int(t) && dtype_size(t) < 4)) return DType::i32;
    return t;
}
DType working_dtype(DType t) { return t == DType::f16 || t == DType::bf16 ? DType::f32 : t; }

std::string axis_text(int axis, const Shape& s) { return "axis " + std::to_string(axis) + " of shape " + shape_str(s); }

// x[…, idx[…, j, …], …] along `axis` (idx has x's shape except along axis; integer dtype):
// a lazy one-hot selection, Σ_n where(idx == n, x, 0), so it runs on every device and passes
// the gradient to the selected elements only. O(k·n) work per row.
Tensor take_along(const Tensor& x, const Tensor& idx, int64_t axis) {
    int64_t n = x.shape()[size_t(axis)];
    Shape pos_shape(x.dim() + 1, 1);
    pos_shape[size_t(axis) + 1] = n;
    Tensor pos = arange(0, n, 1, idx.dtype(), x.device()).reshape(pos_shape);
    Tensor hit = idx.unsqueeze(int(axis) + 1) == pos;
    Tensor picked = where(hit, x.unsqueeze(int(axis)), 0);
    return picked.sum(int(axis) + 1).cast(x.dtype());
}

ValuesIndices with_indices(const Tensor& t, int axis, bool keepdim, bool is_max, const char* op) {
    const NodePtr& x = node_of(t, op);
    if (x->shape.empty()) {
        dim_axes(op, {axis}, x->shape);
        return {t, zeros({}, DType::i32, x->device)};
    }
    int64_t a = norm_axis(op, axis, x->shape);
    if (x->shape[size_t(a)] == 0) invalid(op, axis_text(axis, x->shape) + " is empty (no extreme to take)");
    ValuesIndices r;
    r.indices = is_max ? t.argmax(int(a), true) : t.argmin(int(a), true);
    r.values = composite(op, [&] { return take_along(t, r.indices, a); });
    if (!keepdim) {
        r.values = r.values.squeeze(int(a));
        r.indices = r.indices.squeeze(int(a));
    }
    return r;
}

// Hillis–Steele scan: after the step of shift s, element i combines elements (i − 2s, i]; the
// shifted operand is a pad of `identity` in front and a crop at the end.
Tensor scan(const Tensor& t, int axis, bool is_prod, const char* op) {
    const NodePtr& x = node_of(t, op);
    DType out = accumulate_dtype(x->dtype);
    if (x->shape.empty()) {
        dim_axes(op, {axis}, x->shape);
        return t.cast(out);
    }
    int64_t a = norm_axis(op, axis, x->shape);
    int64_t n = x->shape[size_t(a)];
    return composite(op, [&] {
        Tensor y = t.cast(working_dtype(out));
        for (int64_t s = 1; s < n; s *= 2) {
            std::vector<std::pair<int64_t, int64_t>> pads(size_t(a) + 1, {0, 0});
            pads[size_t(a)] = {s, -s};
            Tensor shifted = y.pad(pads, is_prod ? 1 : 0);
            y = is_prod ? y * shifted : y + shifted;
        }
        return y.cast(out);
    });
}

// ---- norms ---------------------------------------------------------------------------------------

Tensor norm_of(const Tensor& t, double p, const std::vector<int>* axes, bool keepdim) {
    const char* op = "norm";
    const NodePtr& x = node_of(t, op);
    if (std::isnan(p)) invalid(op, "p is nan (shape " + shape_str(x->shape) + ")");
    if (axes) dim_axes(op, *axes, x->shape);
    DType out = float_of(x->dtype);
    auto reduce = [&](const Tensor& v, bool is_max, bool is_min) {
        if (!axes) return is_max ? v.max() : is_min ? v.min() : v.sum();
        Axes ax(*axes);
        return is_max ? v.max(ax, keepdim) : is_min ? v.min(ax, keepdim) : v.sum(ax, keepdim);
    };
    return composite(op, [&] {
        Tensor v = t.cast(working_dtype(out));
        Tensor r;
        if (std::isinf(p)) {
            r = reduce(v.abs(), p > 0, p < 0);
        } else if (p == 0) {
            r = reduce((v != 0).cast(v.dtype()), false, false);
        } else if (p == 1) {
            r = reduce(v.abs(), false, false);
        } else if (p == 2) {
            // sqrt of a zero sum gives 0 with gradient 0 (sqrt' is not evaluated there).
            Tensor s = reduce(v * v, false, false);
            Tensor zero = s == 0;
            r = where(zero, 0, where(zero, 1, s).sqrt());
        } else {
            r = reduce(v.abs().pow(p), false, false).pow(1 / p);
        }
        return r.cast(out);
    });
}

double norm_p(const std::string& p, const Tensor& t) {
    if (p == "fro") return 2;
    if (p == "nuc")
        unsupported("norm",
                    "the nuclear norm (p = \"nuc\") needs singular values (shape " + shape_str(t.shape()) + ")");
    invalid("norm", "unknown p \"" + p + "\" (a number, \"fro\" or \"nuc\")");
}

// ---- orderings (host) ----------------------------------------------------------------------------

// The layout of a tensor around one axis: `outer` rows of `n` elements `inner` apart.
struct AxisLayout {
    int64_t outer = 1, n = 1, inner = 1;
    int64_t at(int64_t o, int64_t j, int64_t i) const { return (o * n + j) * inner + i; }
};

// Which ranks of a row's stable order to keep: all, the first k, or the lower median (the row's
// first NaN when it holds one).
struct Pick {
    enum class Kind { all, first_k, median } kind = Kind::all;
    int64_t k = 0;
};

template <class K>
bool is_nan(K v) {
    if constexpr (std::is_floating_point_v<K>)
        return std::isnan(v);
    else
        return false;
}

// The kept positions along the axis, `keep` per row in rank order, laid out as the result.
template <class K>
std::vector<int64_t> order_rows(const std::vector<K>& v, const AxisLayout& L, bool descending, const Pick& pick,
                                int64_t keep) {
    std::vector<int64_t> out(size_t(L.outer * keep * L.inner));
    std::vector<int64_t> perm(size_t(L.n));
    std::vector<K> row(size_t(L.n));
    auto less = [](K a, K b) {  // NaN above every number
        if (is_nan(a)) return false;
        if (is_nan(b)) return true;
        return a < b;
    };
    for (int64_t o = 0; o < L.outer; ++o)
        for (int64_t i = 0; i < L.inner; ++i) {
            for (int64_t j = 0; j < L.n; ++j) row[size_t(j)] = v[size_t(L.at(o, j, i))];
            std::iota(perm.begin(), perm.end(), int64_t(0));
            if (descending)
                std::stable_sort(perm.begin(), perm.end(),
                                 [&](int64_t p, int64_t q) { return less(row[size_t(q)], row[size_t(p)]); });
            else
                std::stable_sort(perm.begin(), perm.end(),
                                 [&](int64_t p, int64_t q) { return less(row[size_t(p)], row[size_t(q)]); });
            for (int64_t r = 0; r < keep; ++r) {
                int64_t rank = r;
                if (pick.kind == Pick::Kind::median) {
                    int64_t numbers = 0;
                    for (K x : row) numbers += !is_nan(x);
                    rank = numbers < L.n ? numbers : (L.n - 1) / 2;  // a NaN row: its first NaN
                }
                out[size_t((o * keep + r) * L.inner + i)] = perm[size_t(rank)];
            }
        }
    return out;
}

// The uploaded values: the kept elements in rank order, in x's dtype.
template <class K>
Tensor upload_values(const std::vector<K>& v, const std::vector<int64_t>& positions, const AxisLayout& L, int64_t keep,
                     const Shape& shape, DType dtype, Device device) {
    std::vector<K> vals(positions.size());
    for (int64_t o = 0; o < L.outer; ++o)
        for (int64_t r = 0; r < keep; ++r)
            for (int64_t i = 0; i < L.inner; ++i) {
                size_t at = size_t((o * keep + r) * L.inner + i);
                vals[at] = v[size_t(L.at(o, positions[at], i))];
            }
    return tensor(vals, shape, dtype, device);
}

// Orders `t` along `axis` and keeps the ranks `pick` chooses; the result keeps the axis (of
// length `keep`).
ValuesIndices order_along(const Tensor& t, int axis, bool descending, const Pick& pick, const char* op) {
    const NodePtr& x = node_of(t, op);
    if (x->shape.empty()) {
        dim_axes(op, {axis}, x->shape);
        Pick p = pick;
        if (p.kind == Pick::Kind::first_k && p.k > 1)
            invalid(op, "k " + std::to_string(p.k) + " is larger than the 1 element of a 0-d tensor");
        ValuesIndices r = order_along(t.reshape({1}), 0, descending, p, op);
        if (p.kind == Pick::Kind::first_k && p.k == 0) return r;
        return {r.values.reshape({}), r.indices.reshape({})};
    }
    int64_t a = norm_axis(op, axis, x->shape);
    AxisLayout L;
    for (size_t d = 0; d < x->shape.size(); ++d) {
        if (int64_t(d) < a)
            L.outer *= x->shape[d];
        else if (int64_t(d) > a)
            L.inner *= x->shape[d];
    }
    L.n = x->shape[size_t(a)];
    if (L.n > INT32_MAX) unsupported(op, axis_text(axis, x->shape) + " is longer than the i32 indices allow");
    int64_t keep = pick.kind == Pick::Kind::all ? L.n : pick.kind == Pick::Kind::first_k ? pick.k : 1;
    if (pick.kind == Pick::Kind::median && L.n == 0) invalid(op, axis_text(axis, x->shape) + " is empty (no median)");
    Shape out_shape = x->shape;
    out_shape[size_t(a)] = keep;
    std::vector<int64_t> positions;
    Tensor uploaded;
    bool grad = t.requires_grad();
    if (dtype_is_float(x->dtype)) {
        std::vector<double> v = t.to_vector<double>();
        positions = order_rows(v, L, descending, pick, keep);
        if (!grad) uploaded = upload_values(v, positions, L, keep, out_shape, x->dtype, x->device);
    } else if (x->dtype == DType::u64) {
        std::vector<uint64_t> v = t.to_vector<uint64_t>();
        positions = order_rows(v, L, descending, pick, keep);
        uploaded = upload_values(v, positions, L, keep, out_shape, x->dtype, x->device);
    } else {
        std::vector<int64_t> v = t.to_vector<int64_t>();
        positions = order_rows(v, L, descending, pick, keep);
        uploaded = upload_values(v, positions, L, keep, out_shape, x->dtype, x->device);
    }
    std::vector<int32_t> idx(positions.begin(), positions.end());
    ValuesIndices r;
    r.indices = tensor(idx, out_shape, DType::i32, x->device);
    r.values = grad ? composite(op, [&] { return take_along(t, r.indices, a); }) : uploaded;
    return r;
}

}  // namespace

Tensor Tensor::all() const {
    node_of(*this, "all");
    return ne(0).min();
}
Tensor Tensor::all(Axes axes, bool keepdim) const {
    node_of(*this, "all");
    return composite("all", [&] { return ne(0).min(axes, keepdim); });
}
Tensor Tensor::any() const {
    node_of(*this, "any");
    return ne(0).max();
}
Tensor Tensor::any(Axes axes, bool keepdim) const {
    node_of(*this, "any");
    return composite("any", [&] { return ne(0).max(axes, keepdim); });
}

Tensor Tensor::amax() const {
    node_of(*this, "amax");
    return max();
}
Tensor Tensor::amax(Axes axes, bool keepdim) const {
    node_of(*this, "amax");
    return composite("amax", [&] { return max(axes, keepdim); });
}
Tensor Tensor::amin() const {
    node_of(*this, "amin");
    return min();
}
Tensor Tensor::amin(Axes axes, bool keepdim) const {
    node_of(*this, "amin");
    return composite("amin", [&] { return min(axes, keepdim); });
}

Tensor Tensor::count_nonzero() const {
    node_of(*this, "count_nonzero");
    return ne(0).sum();
}
Tensor Tensor::count_nonzero(Axes axes) const {
    node_of(*this, "count_nonzero");
    return composite("count_nonzero", [&] { return ne(0).sum(axes); });
}

ValuesIndices Tensor::max_with_indices(int axis, bool keepdim) const {
    return with_indices(*this, axis, keepdim, true, "max_with_indices");
}
ValuesIndices Tensor::min_with_indices(int axis, bool keepdim) const {
    return with_indices(*this, axis, keepdim, false, "min_with_indices");
}

Tensor Tensor::cumsum(int axis) const { return scan(*this, axis, false, "cumsum"); }
Tensor Tensor::cumprod(int axis) const { return scan(*this, axis, true, "cumprod"); }

Tensor Tensor::norm(double p) const { return norm_of(*this, p, nullptr, false); }
Tensor Tensor::norm(double p, Axes axes, bool keepdim) const { return norm_of(*this, p, &axes.list(), keepdim); }
Tensor Tensor::norm(const std::string& p) const { return norm_of(*this, norm_p(p, *this), nullptr, false); }
Tensor Tensor::norm(const std::string& p, Axes axes, bool keepdim) const {
    return norm_of(*this, norm_p(p, *this), &axes.list(), keepdim);
}

ValuesIndices Tensor::sort(int axis, bool descending) const { return order_along(*this, axis, descending, {}, "sort"); }
Tensor Tensor::argsort(int axis, bool descending) const {
    return order_along(*this, axis, descending, {}, "argsort").indices;
}

ValuesIndices Tensor::topk(int64_t k, int axis, bool largest, bool /*sorted: always sorted*/) const {
    const NodePtr& x = node_of(*this, "topk");
    int64_t size = 1;
    if (!x->shape.empty()) size = x->shape[size_t(norm_axis("topk", axis, x->shape))];
    if (k < 0 || k > size)
        invalid("topk",
                "k " + std::to_string(k) + " out of range [0, " + std::to_string(size) + "] for " +
                    axis_text(axis, x->shape));
    return order_along(*this, axis, largest, {Pick::Kind::first_k, k}, "topk");
}

Tensor Tensor::median() const {
    const NodePtr& x = node_of(*this, "median");
    if (graph::shape_numel(x->shape) == 0) {
        if (!dtype_is_float(x->dtype))
            invalid("median", "of an empty " + dname(x->dtype) + " tensor " + shape_str(x->shape));
        return full({}, NAN, x->dtype, x->device);
    }
    return order_along(reshape({-1}), 0, false, {Pick::Kind::median, 1}, "median").values.reshape({});
}

ValuesIndices Tensor::median(int axis, bool keepdim) const {
    const NodePtr& x = node_of(*this, "median");
    ValuesIndices r = order_along(*this, axis, false, {Pick::Kind::median, 1}, "median");
    if (!keepdim && !x->shape.empty()) {
        int a = int(norm_axis("median", axis, x->shape));
        r.values = r.values.squeeze(a);
        r.indices = r.indices.squeeze(a);
    }
    return r;
}

}  // namespace zyx
