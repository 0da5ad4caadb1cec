// Views: movement ops edit the top layer's shape/strides/offset/mask; a reshape that strides
// cannot express pushes a new row-major layer on top.
#include <algorithm>
#include <sstream>

#include "core/error.hpp"
#include "kernel/kernel.hpp"

namespace zyx::kernel {
namespace {

[[noreturn]] void bad(const std::string& what, const View& v) {
    throw Error(ErrorStatus::InvalidArgument, what + " on view " + view_string(v));
}

int64_t product(const std::vector<int64_t>& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

// The mask of `l` made explicit (full box when there is none).
void explicit_mask(ViewLayer& l) {
    if (l.has_mask()) return;
    l.mask_begin.assign(l.shape.size(), 0);
    l.mask_end = l.shape;
}

// Drops a mask that covers the whole shape.
void normalise_mask(ViewLayer& l) {
    if (!l.has_mask()) return;
    for (size_t d = 0; d < l.shape.size(); ++d)
        if (l.mask_begin[d] != 0 || l.mask_end[d] != l.shape[d]) return;
    l.mask_begin.clear();
    l.mask_end.clear();
}

// Reshape of one unmasked layer without a new layer, when the axes that are merged are laid out
// contiguously relative to each other (numpy's no-copy reshape rule). Size-1 axes are free.
bool reshape_in_place(const ViewLayer& l, const std::vector<int64_t>& new_shape, ViewLayer* out) {
    std::vector<int64_t> os, ost;  // old axes without size 1
    for (size_t d = 0; d < l.shape.size(); ++d)
        if (l.shape[d] != 1) {
            os.push_back(l.shape[d]);
            ost.push_back(l.strides[d]);
        }
    std::vector<size_t> nidx;  // positions of new axes that are not size 1
    for (size_t d = 0; d < new_shape.size(); ++d)
        if (new_shape[d] != 1) nidx.push_back(d);
    std::vector<int64_t> nst(new_shape.size(), 0);
    size_t i = 0, j = 0;
    while (i < os.size() && j < nidx.size()) {
        size_t i0 = i, j0 = j;
        int64_t op = os[i], np = new_shape[nidx[j]];
        while (op != np) {
            if (op < np)
                op *= os[++i];
            else
                np *= new_shape[nidx[++j]];
        }
        for (size_t k = i0; k < i; ++k)
            if (ost[k] != ost[k + 1] * os[k + 1]) return false;  // group not mergeable
        int64_t s = ost[i];
        for (size_t k = j + 1; k-- > j0;) {
            nst[nidx[k]] = s;
            s *= new_shape[nidx[k]];
        }
        ++i;
        ++j;
    }
    if (i != os.size() || j != nidx.size()) return false;
    out->shape = new_shape;
    out->strides = nst;
    out->offset = l.offset;
    out->mask_begin.clear();
    out->mask_end.clear();
    return true;
}

// Reshape that only inserts or removes size-1 axes; keeps the mask.
bool reshape_unit_axes(const ViewLayer& l, const std::vector<int64_t>& new_shape, ViewLayer* out) {
    std::vector<size_t> old_axes;
    for (size_t d = 0; d < l.shape.size(); ++d)
        if (l.shape[d] != 1) old_axes.push_back(d);
    std::vector<size_t> new_axes;
    for (size_t d = 0; d < new_shape.size(); ++d)
        if (new_shape[d] != 1) new_axes.push_back(d);
    if (old_axes.size() != new_axes.size()) return false;
    for (size_t k = 0; k < old_axes.size(); ++k)
        if (l.shape[old_axes[k]] != new_shape[new_axes[k]]) return false;
    // A removed size-1 axis must be valid at index 0, else every element would turn into padding.
    if (l.has_mask())
        for (size_t d = 0; d < l.shape.size(); ++d)
            if (l.shape[d] == 1 && !(l.mask_begin[d] <= 0 && l.mask_end[d] >= 1)) return false;
    ViewLayer n;
    n.shape = new_shape;
    n.strides.assign(new_shape.size(), 0);
    n.offset = l.offset;
    if (l.has_mask()) {
        n.mask_begin.assign(new_shape.size(), 0);
        n.mask_end.assign(new_shape.begin(), new_shape.end());
    }
    for (size_t k = 0; k < old_axes.size(); ++k) {
        n.strides[new_axes[k]] = l.strides[old_axes[k]];
        if (l.has_mask()) {
            n.mask_begin[new_axes[k]] = l.mask_begin[old_axes[k]];
            n.mask_end[new_axes[k]] = l.mask_end[old_axes[k]];
        }
    }
    *out = n;
    return true;
}

}  // namespace

View View::contiguous(const std::vector<int64_t>& shape) {
    if (shape.size() > kMaxRank)
        throw Error(ErrorStatus::InvalidArgument,
                    "shape " + shape_string(shape) + " has more than " + std::to_string(kMaxRank) + " axes");
    for (int64_t d : shape)
        if (d < 0) throw Error(ErrorStatus::InvalidArgument, "negative axis size in shape " + shape_string(shape));
    View v;
    ViewLayer l;
    l.shape = shape;
    l.strides = row_major_strides(shape);
    v.layers.push_back(l);
    return v;
}

int64_t View::numel() const { return product(shape()); }

bool View::is_contiguous() const {
    if (layers.size() != 1) return false;
    const ViewLayer& l = layers[0];
    if (l.has_mask() || l.offset != 0) return false;
    std::vector<int64_t> rm = row_major_strides(l.shape);
    for (size_t d = 0; d < l.shape.size(); ++d)
        if (l.shape[d] != 1 && l.strides[d] != rm[d]) return false;
    return true;
}

View View::reshape(const std::vector<int64_t>& new_shape) const {
    if (new_shape.size() > kMaxRank) bad("reshape to " + shape_string(new_shape) + " (too many axes)", *this);
    for (int64_t d : new_shape)
        if (d < 0) bad("reshape to " + shape_string(new_shape), *this);
    if (product(new_shape) != numel()) bad("reshape to " + shape_string(new_shape) + " (element count differs)", *this);
    if (numel() == 0) return contiguous(new_shape);  // nothing can be read: any layout will do
    View v = *this;
    ViewLayer& top = v.layers.back();
    ViewLayer n;
    if (reshape_unit_axes(top, new_shape, &n) || (!top.has_mask() && reshape_in_place(top, new_shape, &n))) {
        top = n;
        return v;
    }
    v.layers.push_back(contiguous(new_shape).layers[0]);
    return v;
}

View View::permute(const std::vector<int>& axes) const {
    size_t r = rank();
    std::vector<bool> seen(r, false);
    if (axes.size() != r) bad("permute with " + std::to_string(axes.size()) + " axes", *this);
    for (int a : axes) {
        if (a < 0 || size_t(a) >= r || seen[a]) bad("permute with a bad axis list", *this);
        seen[a] = true;
    }
    View v = *this;
    const ViewLayer& o = layers.back();
    ViewLayer& t = v.layers.back();
    for (size_t d = 0; d < r; ++d) {
        t.shape[d] = o.shape[axes[d]];
        t.strides[d] = o.strides[axes[d]];
        if (o.has_mask()) {
            t.mask_begin[d] = o.mask_begin[axes[d]];
            t.mask_end[d] = o.mask_end[axes[d]];
        }
    }
    return v;
}

View View::expand(const std::vector<int64_t>& new_shape) const {
    if (new_shape.size() != rank()) bad("expand to " + shape_string(new_shape), *this);
    View v = *this;
    ViewLayer& t = v.layers.back();
    for (size_t d = 0; d < rank(); ++d) {
        if (t.shape[d] == new_shape[d]) continue;
        if (t.shape[d] != 1 || new_shape[d] < 0) bad("expand to " + shape_string(new_shape), *this);
        t.shape[d] = new_shape[d];
        t.strides[d] = 0;
        if (t.has_mask()) {
            bool valid = t.mask_begin[d] <= 0 && t.mask_end[d] >= 1;
            t.mask_begin[d] = 0;
            t.mask_end[d] = valid ? new_shape[d] : 0;
        }
    }
    normalise_mask(t);
    return v;
}

View View::pad(const std::vector<int64_t>& before, const std::vector<int64_t>& after) const {
    if (before.size() != rank() || after.size() != rank()) bad("pad with wrong rank", *this);
    View v = *this;
    ViewLayer& t = v.layers.back();
    explicit_mask(t);
    for (size_t d = 0; d < rank(); ++d) {
        if (before[d] < 0 || after[d] < 0)
            bad("pad by " + shape_string(before) + "/" + shape_string(after) + " (negative; use shrink)", *this);
        t.offset -= before[d] * t.strides[d];
        t.shape[d] += before[d] + after[d];
        t.mask_begin[d] += before[d];
        t.mask_end[d] += before[d];
    }
    normalise_mask(t);
    return v;
}

View View::shrink(const std::vector<int64_t>& begin, const std::vector<int64_t>& end) const {
    if (begin.size() != rank() || end.size() != rank()) bad("shrink with wrong rank", *this);
    View v = *this;
    ViewLayer& t = v.layers.back();
    for (size_t d = 0; d < rank(); ++d)
        if (begin[d] < 0 || end[d] < begin[d] || end[d] > t.shape[d])
            bad("shrink to [" + shape_string(begin) + ", " + shape_string(end) + ")", *this);
    bool masked = t.has_mask();
    for (size_t d = 0; d < rank(); ++d) {
        t.offset += begin[d] * t.strides[d];
        t.shape[d] = end[d] - begin[d];
        if (masked) {
            t.mask_begin[d] = std::clamp<int64_t>(t.mask_begin[d] - begin[d], 0, t.shape[d]);
            t.mask_end[d] = std::clamp<int64_t>(t.mask_end[d] - begin[d], 0, t.shape[d]);
            if (t.mask_end[d] < t.mask_begin[d]) t.mask_end[d] = t.mask_begin[d];
        }
    }
    normalise_mask(t);
    return v;
}

View View::flip(const std::vector<int>& axes) const {
    View v = *this;
    ViewLayer& t = v.layers.back();
    for (int a : axes) {
        if (a < 0 || size_t(a) >= rank()) bad("flip of axis " + std::to_string(a), *this);
        if (t.shape[a] == 0) continue;
        t.offset += (t.shape[a] - 1) * t.strides[a];
        t.strides[a] = -t.strides[a];
        if (t.has_mask()) {
            int64_t b = t.mask_begin[a], e = t.mask_end[a];
            t.mask_begin[a] = t.shape[a] - e;
            t.mask_end[a] = t.shape[a] - b;
        }
    }
    return v;
}

View View::stride(const std::vector<int64_t>& steps) const {
    if (steps.size() != rank()) bad("stride with wrong rank", *this);
    View v = *this;
    ViewLayer& t = v.layers.back();
    for (size_t d = 0; d < rank(); ++d) {
        int64_t s = steps[d];
        if (s < 1) bad("stride by " + shape_string(steps) + " (steps must be >= 1; flip first)", *this);
        auto ceil_div = [s](int64_t x) { return (x + s - 1) / s; };
        t.shape[d] = ceil_div(t.shape[d]);
        t.strides[d] *= s;
        if (t.has_mask()) {
            t.mask_begin[d] = ceil_div(t.mask_begin[d]);
            t.mask_end[d] = std::max(t.mask_begin[d], ceil_div(t.mask_end[d]));
        }
    }
    normalise_mask(t);
    return v;
}

bool View::element(const int64_t* idx, int64_t* offset) const {
    int64_t cur[kMaxRank];
    size_t r = rank();
    for (size_t d = 0; d < r; ++d) cur[d] = idx[d];
    for (size_t li = layers.size(); li-- > 0;) {
        const ViewLayer& l = layers[li];
        int64_t off = l.offset;
        for (size_t d = 0; d < l.shape.size(); ++d) {
            if (l.has_mask() && (cur[d] < l.mask_begin[d] || cur[d] >= l.mask_end[d])) return false;
            off += cur[d] * l.strides[d];
        }
        if (li == 0) {
            *offset = off;
            return true;
        }
        const std::vector<int64_t>& below = layers[li - 1].shape;  // unravel row-major
        for (size_t d = below.size(); d-- > 0;) {
            cur[d] = below[d] ? off % below[d] : 0;
            off = below[d] ? off / below[d] : 0;
        }
    }
    return false;
}

bool View::layer_range(size_t layer, int64_t* lo, int64_t* hi) const {
    const ViewLayer& l = layers.at(layer);
    int64_t a = l.offset, b = l.offset;
    bool overflow = false;
    for (size_t d = 0; d < l.shape.size(); ++d) {
        // Indices are in [0, shape) and, with a mask, in [mask_begin, mask_end).
        int64_t first = l.has_mask() ? std::max<int64_t>(l.mask_begin[d], 0) : 0;
        int64_t last = (l.has_mask() ? std::min(l.mask_end[d], l.shape[d]) : l.shape[d]) - 1;
        if (last < first) return false;  // no index of this layer is read
        int64_t x, y;
        overflow |= __builtin_mul_overflow(first, l.strides[d], &x);
        overflow |= __builtin_mul_overflow(last, l.strides[d], &y);
        overflow |= __builtin_add_overflow(a, std::min(x, y), &a);
        overflow |= __builtin_add_overflow(b, std::max(x, y), &b);
    }
    if (overflow) {
        a = INT64_MIN;
        b = INT64_MAX;
    }
    *lo = a;
    *hi = b;
    return true;
}

bool View::offset_range(int64_t* lo, int64_t* hi) const {
    if (numel() == 0) return false;
    return layer_range(0, lo, hi);
}

std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(shape[i]);
    }
    s += ']';
    return s;
}

std::string view_string(const View& v) {
    std::ostringstream os;
    for (size_t li = 0; li < v.layers.size(); ++li) {
        const ViewLayer& l = v.layers[li];
        if (li) os << " <- ";
        os << shape_string(l.shape) << "/s" << shape_string(l.strides);
        if (l.offset) os << "+" << l.offset;
        if (l.has_mask()) os << " mask " << shape_string(l.mask_begin) << ".." << shape_string(l.mask_end);
    }
    return os.str();
}

std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
    std::vector<int64_t> st(shape.size());
    int64_t s = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        st[d] = s;
        s *= shape[d];
    }
    return st;
}

}  // namespace zyx::kernel
