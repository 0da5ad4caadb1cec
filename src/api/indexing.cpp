// In-place ops and assignment (+=, add_, masked_fill, copy_, fill_, index_put) and indexing with
// tensors (gather, scatter, index_select, take_along_dim, embedding, advanced and bool-mask
// indexing, nonzero, masked_select). The rules are in tensor.hpp. Everything here is a composite
// of public ops: selections are a comparison of the positions with an arange (a one-hot), a
// where and a sum, so they fuse, run on any device and take their gradients from the ops they
// are made of. Only nonzero and the bool-mask forms read data (the mask) while building.
#include <numeric>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

// PyTorch's can_cast for in-place results: no floating → integer/bool, no integer → bool.
bool can_cast(DType from, DType to) {
    if (dtype_is_float(from) && !dtype_is_float(to)) return false;
    if (dtype_is_int(from) && to == DType::bool_) return false;
    return true;
}

// Whether x is a leaf whose values an optimiser may update: requires grad, built by no op.
bool grad_leaf(const NodePtr& n) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return n->requires_grad && n->tape.empty() && n->inputs.empty();
}

// Runs `build` so that an InvalidArgument from inside names `op` first (once: an error that already
// starts with "<op>: " passes unchanged).
template <class F>
Tensor named(const char* op, F&& build) {
    try {
        return build();
    } catch (const Error& e) {
        if (e.status() != ErrorStatus::InvalidArgument || e.message().rfind(std::string(op) + ": ", 0) == 0) throw;
        throw Error(ErrorStatus::InvalidArgument, std::string(op) + ": " + e.message());
    }
}

// Whether a tensor of shape `from` broadcasts to `to` without changing it (as expand).
bool broadcasts_to(const Shape& from, const Shape& to) {
    if (from.size() > to.size()) return false;
    size_t off = to.size() - from.size();
    for (size_t d = 0; d < from.size(); ++d)
        if (from[d] != 1 && from[d] != to[off + d]) return false;
    return true;
}

// InvalidArgument unless values broadcast to the indexed shape `want` of x.
void check_values(const char* op, const Shape& want, const Shape& values, const Shape& x) {
    if (!broadcasts_to(values, want))
        invalid(op,
                "values of shape " + shape_str(values) + " do not broadcast to the indexed shape " + shape_str(want) +
                    " of a tensor of shape " + shape_str(x));
}

// Rebinds `x` to `value` by the in-place rules of tensor.hpp: `build` computes the new value
// (any shape and dtype); it must come out in x's shape and cast to x's dtype.
template <class F>
Tensor& inplace(Tensor& x, const char* op, F&& build) {
    const NodePtr n = node_of(x, op);
    bool leaf = grad_leaf(n);
    if (leaf && graph::grad_enabled())
        invalid(op,
                "a leaf tensor that requires grad (" + n->label() +
                    ") is being used in an in-place operation; update it inside a NoGradGuard, or detach() it");
    Tensor r = named(op, build);
    if (r.shape() != n->shape)
        invalid(
            op,
            "output with shape " + shape_str(n->shape) + " doesn't match the broadcast shape " + shape_str(r.shape()));
    if (!can_cast(r.dtype(), n->dtype))
        invalid(op, "result type " + dname(r.dtype()) + " can't be cast to the desired output type " + dname(n->dtype));
    if (r.dtype() != n->dtype) r = r.cast(n->dtype);
    if (leaf) {
        x.assign(r);  // gradients are off: update the parameter for every handle
    } else {
        x = r;
    }
    return x;
}

void check_index_dtype(const char* op, const char* what, const Tensor& t) {
    if (!dtype_is_int(t.dtype()))
        invalid(
            op,
            std::string(what) + " must have an integer dtype, got " + dname(t.dtype()) + " " + shape_str(t.shape()));
}

void check_same_device(const char* op, const Tensor& a, const Tensor& b, const char* what) {
    if (!(a.device() == b.device()))
        invalid(op, std::string(what) + " is on " + b.device().str() + ", the tensor on " + a.device().str());
}

// bool [S..., n]: true where pos (any integer dtype, shape S) equals 0 … n − 1. A position
// outside [0, n) matches nothing.
Tensor one_hot(const Tensor& pos, int64_t n) {
    DType t = dtype_size(pos.dtype()) == 8 || pos.dtype() == DType::u32 || n > INT32_MAX ? DType::i64 : DType::i32;
    Tensor r = arange(Scalar(0), Scalar(n), Scalar(1), t, pos.device());
    return pos.unsqueeze(-1) == r;
}

// A zero of x's dtype, where(c, x, zero_of(x)) keeping x's dtype.
Tensor zero_of(const Tensor& x) { return full({}, 0, x.dtype(), x.device()); }

// x with axis `from` moved to position `to` (the others keep their order).
Tensor move_axis(const Tensor& x, int64_t from, int64_t to) {
    std::vector<int> order;
    for (int64_t d = 0; d < int64_t(x.dim()); ++d)
        if (d != from) order.push_back(int(d));
    order.insert(order.begin() + to, int(from));
    return x.permute(order);
}

// Pads axis d of x after its end up to `size` (value 0 / false).
Tensor pad_to(const Tensor& x, int64_t d, int64_t size) {
    if (x.size(int(d)) == size) return x;
    std::vector<std::pair<int64_t, int64_t>> p(size_t(d) + 1, {0, 0});
    p[size_t(d)] = {0, size - x.size(int(d))};
    return x.pad(p);
}

// Flat positions over the first indices.size() axes of `shape` for integer index tensors that
// broadcast together: negative positions count from the end, and a position out of range in any
// axis gives -1 (which selects nothing). Returns the flat positions in the broadcast shape.
Tensor flat_positions(const char* op, const Shape& shape, const std::vector<Tensor>& indices, Device device) {
    Shape b;
    bool wide = false;
    int64_t p = 1;
    for (size_t j = 0; j < indices.size(); ++j) {
        check_index_dtype(op, "an index tensor", indices[j]);
        if (!(indices[j].device() == device))
            invalid(op,
                    "index tensor " + std::to_string(j) + " is on " + indices[j].device().str() + ", the tensor on " +
                        device.str());
        b = broadcast_shapes(op, b, indices[j].shape());
        DType t = indices[j].dtype();
        wide = wide || dtype_size(t) == 8 || t == DType::u32;
        p *= shape[j];
    }
    wide = wide || p > INT32_MAX;
    DType lt = wide ? DType::i64 : DType::i32;
    Tensor lin, valid;
    for (size_t j = 0; j < indices.size(); ++j) {
        // Compared with numbers of the axis size, so in a dtype that holds -size … size.
        Tensor w = indices[j];
        int64_t n = shape[j];
        DType t = w.dtype();
        if (t != DType::u64 && t != DType::i64) w = w.cast(n > INT32_MAX || t == DType::u32 ? DType::i64 : DType::i32);
        Tensor ok = w < n;
        if (w.dtype() != DType::u64) {
            ok = ok & (w >= -n);
            w = where(w < 0, w + n, w);
        }
        w = where(ok, w, 0).cast(lt);
        lin = lin.defined() ? lin * n + w : w;
        valid = valid.defined() ? (valid & ok) : ok;
    }
    return where(valid, lin, -1).expand(b);
}

// The rows `lin` (flat positions over the first k axes of x, any shape B; -1 or out of range:
// zeros) of x: shape B + x.shape[k:].
Tensor select_flat(const Tensor& x, size_t k, const Tensor& lin) {
    Shape rest(x.shape().begin() + int64_t(k), x.shape().end());
    Shape flat{std::accumulate(x.shape().begin(), x.shape().begin() + int64_t(k), int64_t(1), std::multiplies<>())};
    flat.insert(flat.end(), rest.begin(), rest.end());
    Shape out = lin.shape();
    out.insert(out.end(), rest.begin(), rest.end());
    return x.reshape(flat).index_select(0, lin.flatten()).reshape(out);
}

// x with the rows at flat positions `lin` (shape B, over the first k axes) replaced by (or with
// accumulate, increased by) `values`, which broadcast to B + x.shape[k:].
Tensor put_flat(const char* op, const Tensor& x, size_t k, const Tensor& lin, const Tensor& values, bool accumulate) {
    Shape rest(x.shape().begin() + int64_t(k), x.shape().end());
    Shape want = lin.shape();
    want.insert(want.end(), rest.begin(), rest.end());
    check_same_device(op, x, values, "the values tensor");
    check_values(op, want, values.shape(), x.shape());
    int64_t p = std::accumulate(x.shape().begin(), x.shape().begin() + int64_t(k), int64_t(1), std::multiplies<>());
    int64_t m = lin.numel();
    Shape vs{1, m}, hs{p, m}, xs{p};
    vs.insert(vs.end(), rest.begin(), rest.end());
    xs.insert(xs.end(), rest.begin(), rest.end());
    for (size_t d = 0; d < rest.size(); ++d) hs.push_back(1);
    Tensor v = values.cast(x.dtype()).expand(want).reshape(vs);
    Tensor hot = one_hot(lin.flatten(), p).transpose(0, 1).reshape(hs);  // [p, m, 1…]
    Tensor add = where(hot, v, zero_of(v)).sum(1).cast(x.dtype());       // [p, rest…]
    Tensor xf = x.reshape(xs);
    Tensor r;
    if (accumulate) {
        r = xf + add;
    } else {
        Tensor hit = hot.cast(DType::i32).sum(1) > 0;
        r = where(hit, add, xf);
    }
    return r.cast(x.dtype()).reshape(x.shape());
}

// The flat positions (row-major over mask's shape) where a bool mask is true: realizes it.
Tensor mask_positions(const Tensor& mask, Device device) {
    std::vector<bool> m = mask.to_vector<bool>();
    std::vector<int64_t> pos;
    for (size_t i = 0; i < m.size(); ++i)
        if (m[i]) pos.push_back(int64_t(i));
    DType t = mask.numel() > INT32_MAX ? DType::i64 : DType::i32;
    return tensor(pos, Shape{int64_t(pos.size())}, t, device);
}

// A bool mask used as the one index of x (x[mask]): checks its shape against x's first axes
// (the caller has checked that x has as many).
void check_mask(const char* op, const Tensor& x, const Tensor& mask) {
    const Shape& xs = x.shape();
    const Shape& ms = mask.shape();
    for (size_t d = 0; d < ms.size(); ++d)
        if (ms[d] != xs[d])
            invalid(op,
                    "the shape of the mask " + shape_str(ms) + " at axis " + std::to_string(d) +
                        " does not match the shape of the indexed tensor " + shape_str(xs));
}

// An index list with tensor entries, split into what numpy does with it: the ranges (a view of
// x, every axis kept), and the tensor entries over axes [first, first + axes) of that view,
// turned into flat positions `lin` (shape B) over those axes moved to the front (`front`).
struct Advanced {
    std::vector<Index> basic;  // the list with every tensor entry replaced by whole-axis Ranges
    size_t first = 0, axes = 0;
    Tensor front;            // x.index(basic) with axes [first, first + axes) moved to the front
    std::vector<int> order;  // front = x.index(basic).permute(order)
    Tensor lin;
};

Advanced advanced(const char* op, const Tensor& x, const std::vector<Index>& indices) {
    Advanced a;
    size_t count = 0, first = indices.size(), last = 0;
    std::vector<Tensor> ts;
    for (size_t j = 0; j < indices.size(); ++j) {
        if (!indices[j].is_tensor) continue;
        if (!indices[j].tensor) invalid(op, "index entry " + std::to_string(j) + " is an undefined tensor");
        first = std::min(first, j);
        last = j;
        ++count;
        ts.push_back(Tensor(indices[j].tensor));
    }
    if (last - first + 1 != count)
        unsupported(op,
                    "tensor entries that are not consecutive (entries " + std::to_string(first) + " to " +
                        std::to_string(last) + " hold " + std::to_string(count) + " tensors)");
    bool mask = false;
    for (const Tensor& t : ts) mask = mask || t.dtype() == DType::bool_;
    if (mask && count != 1) unsupported(op, "a bool mask together with other tensor entries");
    for (size_t j = 0; j < indices.size(); ++j)
        if (!indices[j].is_tensor && !indices[j].is_range)
            unsupported(op,
                        "the integer position " + std::to_string(indices[j].position) + " at entry " +
                            std::to_string(j) + " together with tensor entries (use a Range of length 1, or a tensor)");
    size_t k = mask ? ts[0].dim() : count;
    if (indices.size() - count + k > x.dim())
        invalid(op,
                "indices for " + std::to_string(indices.size() - count + k) + " axes given for a tensor of shape " +
                    shape_str(x.shape()));
    for (size_t j = 0; j < indices.size(); ++j) {
        if (j == first)
            for (size_t q = 0; q < k; ++q) a.basic.push_back(Range());
        else if (!indices[j].is_tensor)
            a.basic.push_back(indices[j]);
    }
    a.first = first;
    a.axes = k;
    Tensor region = x.index(a.basic);
    for (size_t d = first; d < first + k; ++d) a.order.push_back(int(d));
    for (size_t d = 0; d < region.dim(); ++d)
        if (d < first || d >= first + k) a.order.push_back(int(d));
    a.front = region.permute(a.order);
    if (mask) {
        check_mask(op, a.front, ts[0]);
        check_same_device(op, x, ts[0], "the mask");
        a.lin = mask_positions(ts[0], x.device());
    } else {
        a.lin = flat_positions(op, a.front.shape(), ts, x.device());
    }
    return a;
}

// The shape x.index(indices) has, for an Advanced: B in place of the indexed axes.
Shape advanced_shape(const Advanced& a) {
    const Shape& fs = a.front.shape();
    Shape s(fs.begin() + int64_t(a.axes), fs.begin() + int64_t(a.axes + a.first));
    s.insert(s.end(), a.lin.shape().begin(), a.lin.shape().end());
    s.insert(s.end(), fs.begin() + int64_t(a.axes + a.first), fs.end());
    return s;
}

// Permutation that moves axes [from, from + n) of a rank-r tensor to position `to` (of the others).
std::vector<int> move_block(size_t r, size_t from, size_t n, size_t to) {
    std::vector<int> rest, order;
    for (size_t d = 0; d < r; ++d)
        if (d < from || d >= from + n) rest.push_back(int(d));
    order.assign(rest.begin(), rest.begin() + int64_t(to));
    for (size_t d = from; d < from + n; ++d) order.push_back(int(d));
    order.insert(order.end(), rest.begin() + int64_t(to), rest.end());
    return order;
}

// The checks shared by gather and scatter: an integer index of x's rank and device, no larger
// than x on the axes other than dim. Returns dim as an axis in [0, rank).
int64_t gather_axis(const char* op, const Tensor& x, int dim, const Tensor& index) {
    node_of(x, op);
    node_of(index, op);
    check_index_dtype(op, "index", index);
    check_same_device(op, x, index, "index");
    int64_t d = norm_axis(op, dim, x.shape());
    if (index.dim() != x.dim())
        invalid(op,
                "index " + shape_str(index.shape()) + " and the tensor " + shape_str(x.shape()) +
                    " must have the same number of dimensions");
    for (size_t a = 0; a < x.dim(); ++a)
        if (int64_t(a) != d && index.shape()[a] > x.shape()[a])
            invalid(op,
                    "index " + shape_str(index.shape()) + " is larger than the tensor " + shape_str(x.shape()) +
                        " at axis " + std::to_string(a) + " (only axis " + std::to_string(d) + " may differ)");
    return d;
}

// x cut to the sizes `s` (from position 0) on every axis but `skip` (-1: none skipped).
Tensor shrink_to(const Tensor& x, const Shape& s, int64_t skip) {
    Tensor r = x;
    for (size_t a = 0; a < s.size(); ++a)
        if (int64_t(a) != skip && r.shape()[a] != s[a]) r = r.slice(int(a), 0, s[a]);
    return r;
}

enum class Scatter { replace, add };

Tensor scatter_impl(const char* op, const Tensor& x, int dim, const Tensor& index, const Tensor& src, Scatter mode) {
    int64_t d = gather_axis(op, x, dim, index);
    node_of(src, op);
    check_same_device(op, x, src, "src");
    if (src.dim() != x.dim())
        invalid(op,
                "src " + shape_str(src.shape()) + " and the tensor " + shape_str(x.shape()) +
                    " must have the same number of dimensions");
    for (size_t a = 0; a < x.dim(); ++a)
        if (index.shape()[a] > src.shape()[a])
            invalid(op,
                    "index " + shape_str(index.shape()) + " is larger than src " + shape_str(src.shape()) +
                        " at axis " + std::to_string(a));
    return named(op, [&] {
        const Shape& is = index.shape();
        int64_t n = x.size(int(d)), r = int64_t(x.dim());
        Tensor s = shrink_to(src, is, -1).cast(x.dtype());
        Tensor hot = one_hot(index, n);                                    // [I…, n]
        Tensor add = where(hot, s.unsqueeze(-1), zero_of(s)).sum(int(d));  // [I without d…, n]
        add = move_axis(add.cast(x.dtype()), r - 1, d);                    // I with I[d] = n
        Tensor hit;
        if (mode == Scatter::replace) hit = move_axis(hot.cast(DType::i32).sum(int(d)) > 0, r - 1, d);
        for (int64_t a = 0; a < r; ++a) {
            if (a == d) continue;
            add = pad_to(add, a, x.size(int(a)));
            if (hit.defined()) hit = pad_to(hit, a, x.size(int(a)));
        }
        if (mode == Scatter::add) return (x + add).cast(x.dtype());
        return where(hit, add, x);
    });
}

// The fill of index_put_ with basic indices: `t` (in the shape of x.index(indices) with the
// dropped axes back as size 1) placed at the selected positions of x's shape; 0 elsewhere.
Tensor place(const Tensor& t, const Shape& xs, const std::vector<Index>& indices) {
    Tensor r = t;
    for (size_t d = 0; d < indices.size(); ++d) {
        int64_t n = xs[d], b = 0, s = 1, k = r.size(int(d));
        if (indices[d].is_range) {
            const Range& g = indices[d].range;
            b = g.begin == Range::kEnd ? n : g.begin < 0 ? g.begin + n : g.begin;
            s = g.step;
        } else {
            b = indices[d].position < 0 ? indices[d].position + n : indices[d].position;
        }
        if (k == 0) continue;  // nothing selected: the caller returns x unchanged
        std::vector<std::pair<int64_t, int64_t>> p(d + 2, {0, 0});
        if (s > 1) {  // k elements s apart: each padded to s, merged, cropped below
            Shape merged = r.shape();
            merged[d] = k * s;
            p[d + 1] = {0, s - 1};
            r = r.unsqueeze(int(d) + 1).pad(p).reshape(merged);
            p[d + 1] = {0, 0};
        }
        p.resize(d + 1);
        p[d] = {b, n - b - r.size(int(d))};
        r = r.pad(p);
    }
    return r;
}

}  // namespace

// ---- in-place arithmetic ---------------------------------------------------------------------------

Tensor& Tensor::operator+=(const Tensor& y) { return add_(y); }
Tensor& Tensor::operator-=(const Tensor& y) { return sub_(y); }
Tensor& Tensor::operator*=(const Tensor& y) { return mul_(y); }
Tensor& Tensor::operator/=(const Tensor& y) { return div_(y); }
Tensor& Tensor::operator+=(Scalar y) { return add_(y); }
Tensor& Tensor::operator-=(Scalar y) { return sub_(y); }
Tensor& Tensor::operator*=(Scalar y) { return mul_(y); }
Tensor& Tensor::operator/=(Scalar y) { return div_(y); }

Tensor& Tensor::add_(const Tensor& y, Scalar alpha) {
    return inplace(*this, "add_",
                   [&] { return add(alpha.as_double() == 1 && alpha.kind() != Scalar::Kind::float_ ? y : y * alpha); });
}
Tensor& Tensor::add_(Scalar y, Scalar alpha) {
    if (alpha.kind() == Scalar::Kind::float_ || y.kind() == Scalar::Kind::float_)
        return inplace(*this, "add_", [&] { return add(Scalar(y.as_double() * alpha.as_double())); });
    return inplace(*this, "add_", [&] { return add(Scalar(y.as_int() * alpha.as_int())); });
}
Tensor& Tensor::sub_(const Tensor& y, Scalar alpha) {
    return inplace(*this, "sub_",
                   [&] { return sub(alpha.as_double() == 1 && alpha.kind() != Scalar::Kind::float_ ? y : y * alpha); });
}
Tensor& Tensor::sub_(Scalar y, Scalar alpha) {
    if (alpha.kind() == Scalar::Kind::float_ || y.kind() == Scalar::Kind::float_)
        return inplace(*this, "sub_", [&] { return sub(Scalar(y.as_double() * alpha.as_double())); });
    return inplace(*this, "sub_", [&] { return sub(Scalar(y.as_int() * alpha.as_int())); });
}
Tensor& Tensor::mul_(const Tensor& y) {
    return inplace(*this, "mul_", [&] { return mul(y); });
}
Tensor& Tensor::mul_(Scalar y) {
    return inplace(*this, "mul_", [&] { return mul(y); });
}
Tensor& Tensor::div_(const Tensor& y) {
    return inplace(*this, "div_", [&] { return div(y); });
}
Tensor& Tensor::div_(Scalar y) {
    return inplace(*this, "div_", [&] { return div(y); });
}

// ---- masked_fill, copy_, fill_ ---------------------------------------------------------------------

Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
    const NodePtr& x = node_of(*this, "masked_fill");
    const NodePtr& m = node_of(mask, "masked_fill");
    const NodePtr& v = node_of(value, "masked_fill");
    if (m->dtype != DType::bool_)
        invalid("masked_fill", "the mask must be bool, got " + dname(m->dtype) + " " + shape_str(m->shape));
    if (!v->shape.empty()) invalid("masked_fill", "the value must be a 0-d tensor, got shape " + shape_str(v->shape));
    check_same_device("masked_fill", *this, mask, "the mask");
    check_same_device("masked_fill", *this, value, "the value");
    broadcast_shapes("masked_fill", x->shape, m->shape);
    return where(mask, value.cast(x->dtype), *this);
}
Tensor Tensor::masked_fill(const Tensor& mask, Scalar value) const {
    const NodePtr& x = node_of(*this, "masked_fill");
    return masked_fill(mask, full({}, value, x->dtype, x->device));
}
Tensor& Tensor::masked_fill_(const Tensor& mask, Scalar value) {
    return inplace(*this, "masked_fill_", [&] { return masked_fill(mask, value); });
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Tensor& value) {
    return inplace(*this, "masked_fill_", [&] { return masked_fill(mask, value); });
}

Tensor& Tensor::copy_(const Tensor& src) {
    const NodePtr& s = node_of(src, "copy_");
    const Shape xs = shape();
    if (!broadcasts_to(s->shape, xs))
        invalid("copy_",
                "src of shape " + shape_str(s->shape) + " does not broadcast to the tensor's shape " + shape_str(xs));
    DType t = dtype();
    Device dev = device();
    return inplace(*this, "copy_", [&] { return src.to(dev).cast(t).expand(xs); });
}

Tensor& Tensor::fill_(Scalar value) {
    Shape xs = shape();
    DType t = dtype();
    Device dev = device();
    return inplace(*this, "fill_", [&] { return full(xs, value, t, dev); });
}
Tensor& Tensor::zero_() {
    Shape xs = shape();
    DType t = dtype();
    Device dev = device();
    return inplace(*this, "zero_", [&] { return full(xs, 0, t, dev); });
}
Tensor& Tensor::fill_(const Tensor& value) {
    const NodePtr& v = node_of(value, "fill_");
    if (!v->shape.empty()) invalid("fill_", "the value must be a 0-d tensor, got shape " + shape_str(v->shape));
    Shape xs = shape();
    DType t = dtype();
    Device dev = device();
    return inplace(*this, "fill_", [&] { return value.to(dev).cast(t).expand(xs); });
}

// ---- index_put ---------------------------------------------------------------------------------------

namespace {

// index_put with ranges and integers only: values (already checked to broadcast) placed over the
// selected region by pads, then a where.
Tensor basic_put(const char* op, const Tensor& x, const std::vector<Index>& indices, const Tensor& values,
                 bool accumulate) {
    Tensor region = x.index(indices);
    const Shape& rs = region.shape();
    check_values(op, rs, values.shape(), x.shape());
    if (region.numel() == 0) return x;
    Shape full_shape = x.shape();  // the region with the dropped axes back as size 1
    size_t rd = 0;
    for (size_t d = 0; d < indices.size(); ++d) full_shape[d] = indices[d].is_range ? rs[rd++] : 1;
    Tensor v = values.cast(x.dtype()).expand(rs);
    if (accumulate) v = (region + v).cast(x.dtype());
    Tensor vals = place(v.reshape(full_shape), x.shape(), indices);
    Tensor mask = place(full(full_shape, true, DType::bool_, x.device()), x.shape(), indices);
    return where(mask, vals, x);
}

Tensor index_put_impl(const char* op, const Tensor& x, const std::vector<Index>& indices, const Tensor& values,
                      bool accumulate) {
    node_of(x, op);
    node_of(values, op);
    check_same_device(op, x, values, "the values tensor");
    bool tensors = false;
    for (const Index& ix : indices) tensors = tensors || ix.is_tensor;
    if (!tensors) return named(op, [&] { return basic_put(op, x, indices, values, accumulate); });
    Advanced a = advanced(op, x, indices);
    Shape want = advanced_shape(a);
    check_values(op, want, values.shape(), x.shape());
    return named(op, [&] {
        size_t nb = a.lin.dim();
        Tensor v = values.expand(want).permute(move_block(want.size(), a.first, nb, 0));  // B first
        Tensor put = put_flat(op, a.front, a.axes, a.lin, v, accumulate);
        std::vector<int> back(a.order.size());
        for (size_t d = 0; d < a.order.size(); ++d) back[size_t(a.order[d])] = int(d);
        return basic_put(op, x, a.basic, put.permute(back), false);
    });
}

}  // namespace

Tensor index_with_tensors(const Tensor& x, const std::vector<Index>& indices) {
    Advanced a = advanced("index", x, indices);
    return named("index", [&] {
        Tensor r = select_flat(a.front, a.axes, a.lin);  // B + the other axes
        return r.permute(move_block(r.dim(), 0, a.lin.dim(), a.first));
    });
}

Index::Index(const Tensor& t) : is_tensor(true), tensor(t.node()) {}

Tensor Tensor::index_put(const std::vector<Index>& indices, const Tensor& values, bool accumulate) const {
    return index_put_impl("index_put", *this, indices, values, accumulate);
}
Tensor& Tensor::index_put_(const std::vector<Index>& indices, const Tensor& values, bool accumulate) {
    node_of(*this, "index_put_");
    Tensor r = index_put_impl("index_put_", *this, indices, values, accumulate);  // a mask realizes once
    return inplace(*this, "index_put_", [&] { return r; });
}
Tensor& Tensor::index_put_(const std::vector<Index>& indices, Scalar value) {
    const NodePtr& x = node_of(*this, "index_put_");
    return index_put_(indices, full({}, value, x->dtype, x->device));
}

// ---- indexing with tensors ---------------------------------------------------------------------------

Tensor Tensor::gather(int dim, const Tensor& index) const {
    int64_t d = gather_axis("gather", *this, dim, index);
    return named("gather", [&] {
        int64_t n = size(int(d)), r = int64_t(this->dim());
        Tensor xs = move_axis(shrink_to(*this, index.shape(), d), d, r - 1).unsqueeze(int(d));  // [I, I[d] = 1…, n]
        return where(one_hot(index, n), xs, zero_of(xs)).sum(-1).cast(dtype());
    });
}

Tensor Tensor::scatter(int dim, const Tensor& index, const Tensor& src) const {
    return scatter_impl("scatter", *this, dim, index, src, Scatter::replace);
}
Tensor Tensor::scatter(int dim, const Tensor& index, Scalar value) const {
    const NodePtr& x = node_of(*this, "scatter");
    const NodePtr& i = node_of(index, "scatter");
    return scatter_impl("scatter", *this, dim, index, full(i->shape, value, x->dtype, x->device), Scatter::replace);
}
Tensor Tensor::scatter_add(int dim, const Tensor& index, const Tensor& src) const {
    return scatter_impl("scatter_add", *this, dim, index, src, Scatter::add);
}
Tensor& Tensor::scatter_(int dim, const Tensor& index, const Tensor& src) {
    return inplace(*this, "scatter_",
                   [&] { return scatter_impl("scatter_", *this, dim, index, src, Scatter::replace); });
}
Tensor& Tensor::scatter_(int dim, const Tensor& index, Scalar value) {
    const NodePtr& x = node_of(*this, "scatter_");
    const NodePtr& i = node_of(index, "scatter_");
    Tensor src = full(i->shape, value, x->dtype, x->device);
    return inplace(*this, "scatter_",
                   [&] { return scatter_impl("scatter_", *this, dim, index, src, Scatter::replace); });
}
Tensor& Tensor::scatter_add_(int dim, const Tensor& index, const Tensor& src) {
    return inplace(*this, "scatter_add_",
                   [&] { return scatter_impl("scatter_add_", *this, dim, index, src, Scatter::add); });
}

Tensor Tensor::index_select(int dim, const Tensor& index) const {
    const NodePtr& x = node_of(*this, "index_select");
    const NodePtr& i = node_of(index, "index_select");
    check_index_dtype("index_select", "index", index);
    check_same_device("index_select", *this, index, "index");
    if (i->shape.size() > 1) invalid("index_select", "index must be 1-D or 0-d, got shape " + shape_str(i->shape));
    if (x->shape.empty()) {  // a 0-d tensor (dim 0 or -1): its one element at position 0
        dim_axes("index_select", {dim}, x->shape);
        return named("index_select", [&] { return reshape({1}).index_select(0, index); });
    }
    int64_t d = norm_axis("index_select", dim, x->shape);
    return named("index_select", [&] {
        int64_t n = x->shape[size_t(d)], l = index.numel(), r = int64_t(x->shape.size());
        Shape hs{l, n};
        for (int64_t a = d + 1; a < r; ++a) hs.push_back(1);
        Tensor hot = one_hot(index.reshape({l}), n).reshape(hs);  // [l, n, 1…] against x [… 1, n, …]
        Tensor xs = unsqueeze(int(d));
        return where(hot, xs, zero_of(xs)).sum(int(d) + 1).cast(x->dtype);
    });
}

Tensor Tensor::take_along_dim(const Tensor& indices, std::optional<int> dim) const {
    const NodePtr& x = node_of(*this, "take_along_dim");
    const NodePtr& i = node_of(indices, "take_along_dim");
    check_index_dtype("take_along_dim", "indices", indices);
    check_same_device("take_along_dim", *this, indices, "indices");
    if (!dim) return named("take_along_dim", [&] { return flatten().gather(0, indices.flatten()); });
    if (i->shape.size() != x->shape.size())
        invalid("take_along_dim",
                "indices " + shape_str(i->shape) + " and the tensor " + shape_str(x->shape) +
                    " must have the same number of dimensions");
    int64_t d = norm_axis("take_along_dim", *dim, x->shape);
    Shape xs = x->shape, is = i->shape;
    for (size_t a = 0; a < xs.size(); ++a) {
        if (int64_t(a) == d) continue;
        if (xs[a] != is[a] && xs[a] != 1 && is[a] != 1)
            invalid("take_along_dim",
                    "indices " + shape_str(is) + " and the tensor " + shape_str(xs) + " do not broadcast at axis " +
                        std::to_string(a) + " (" + std::to_string(is[a]) + " vs " + std::to_string(xs[a]) + ")");
        xs[a] = is[a] = std::max(xs[a], is[a]);
        if (x->shape[a] == 0 || i->shape[a] == 0) xs[a] = is[a] = 0;
    }
    return named("take_along_dim", [&] { return expand(xs).gather(int(d), indices.expand(is)); });
}

Tensor embedding(const Tensor& input, const Tensor& weight) {
    const NodePtr& i = node_of(input, "embedding");
    const NodePtr& w = node_of(weight, "embedding");
    check_index_dtype("embedding", "input", input);
    if (w->shape.size() != 2)
        invalid("embedding", "weight must be 2-D [num_embeddings, embedding_dim], got shape " + shape_str(w->shape));
    check_same_device("embedding", weight, input, "input");
    Shape out = i->shape;
    out.push_back(w->shape[1]);
    return named("embedding", [&] { return weight.index_select(0, input.flatten()).reshape(out); });
}

Tensor Tensor::nonzero() const {
    const NodePtr& x = node_of(*this, "nonzero");
    std::vector<bool> v = to_vector<bool>();  // realizes x
    size_t r = x->shape.size();
    std::vector<int64_t> rows;
    int64_t count = 0;
    for (size_t f = 0; f < v.size(); ++f) {
        if (!v[f]) continue;
        ++count;
        size_t at = rows.size();
        rows.resize(at + r);
        int64_t rest = int64_t(f);
        for (size_t d = r; d-- > 0;) {
            rows[at + d] = rest % x->shape[d];
            rest /= x->shape[d];
        }
    }
    return tensor(rows, Shape{count, int64_t(r)}, DType::i32, x->device);
}

Tensor Tensor::masked_select(const Tensor& mask) const {
    const NodePtr& x = node_of(*this, "masked_select");
    const NodePtr& m = node_of(mask, "masked_select");
    if (m->dtype != DType::bool_)
        invalid("masked_select", "the mask must be bool, got " + dname(m->dtype) + " " + shape_str(m->shape));
    check_same_device("masked_select", *this, mask, "the mask");
    Shape b = broadcast_shapes("masked_select", x->shape, m->shape);
    Tensor pos = mask_positions(mask.expand(b), x->device);
    return named("masked_select", [&] { return expand(b).reshape({graph::shape_numel(b)}).index_select(0, pos); });
}

}  // namespace zyx
