// Tensor basics: properties, reading values, realization, device moves, casts; the shared
// helpers of internal.hpp (checks, promotion, broadcasting).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "api/internal.hpp"
#include "schedule/scheduler.hpp"

namespace zyx {
namespace api {

void invalid(const std::string& op, const std::string& what) {
    throw Error(ErrorStatus::InvalidArgument, op + ": " + what);
}

void unsupported(const std::string& op, const std::string& what) {
    throw Error(ErrorStatus::Unsupported, "Unsupported: " + op + ": " + what);
}

const NodePtr& node_of(const Tensor& t, const char* op) {
    if (!t.defined()) invalid(op, "undefined tensor (a default-constructed zyx::Tensor)");
    return t.node();
}

std::string shape_str(const Shape& s) { return graph::shape_str(s); }
std::string dname(DType t) { return std::string(dtype_name(t)); }

void check_shape(const char* op, const Shape& s, DType t) {
    for (int64_t d : s)
        if (d < 0) invalid(op, "negative size in shape " + shape_str(s));
    if (graph::shape_numel_checked(s) < 0)
        invalid(op, "shape " + shape_str(s) + " has more elements than fit in 64 bits");
    if (!graph::shape_fits(s, t))
        invalid(op, "shape " + shape_str(s) + " of " + dname(t) + " needs more than 2^63 - 1 bytes");
}

int64_t add_sizes(const char* op, int64_t a, int64_t b, const std::string& what) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        invalid(op, what + ": " + std::to_string(a) + " + " + std::to_string(b) + " overflows 64 bits");
    return r;
}

int64_t mul_sizes(const char* op, int64_t a, int64_t b, const std::string& what) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        invalid(op, what + ": " + std::to_string(a) + " * " + std::to_string(b) + " overflows 64 bits");
    return r;
}

int64_t norm_axis(const char* op, int axis, const Shape& shape, bool extra) {
    int64_t r = int64_t(shape.size()) + (extra ? 1 : 0);
    int64_t a = axis < 0 ? axis + r : axis;
    if (a < 0 || a >= r)
        invalid(op,
                "axis " + std::to_string(axis) + " out of range for shape " + shape_str(shape) +
                    (extra ? " (insert positions " : " (axes ") + std::to_string(-r) + " to " + std::to_string(r - 1) +
                    ")");
    return a;
}

std::vector<int64_t> norm_axes(const char* op, const std::vector<int>& axes, const Shape& shape) {
    std::vector<int64_t> out;
    for (int a : axes) out.push_back(norm_axis(op, a, shape));
    std::sort(out.begin(), out.end());
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i] == out[i - 1])
            invalid(op, "axis " + std::to_string(out[i]) + " given twice for shape " + shape_str(shape));
    return out;
}

std::vector<int64_t> dim_axes(const char* op, const std::vector<int>& axes, const Shape& shape) {
    if (!shape.empty()) return norm_axes(op, axes, shape);
    for (int a : axes)
        if (a != 0 && a != -1)
            invalid(op, "axis " + std::to_string(a) + " out of range for a 0-d tensor (axes -1 to 0)");
    if (axes.size() > 1) invalid(op, "axis 0 given twice for a 0-d tensor");
    return {};
}

DType default_float() { return DType::f32; }
DType default_int() { return DType::i32; }

DType promote(DType a, DType b) {
    if (a == b) return a;
    if (a == DType::bool_) return b;
    if (b == DType::bool_) return a;
    bool fa = dtype_is_float(a), fb = dtype_is_float(b);
    if (fa != fb) return fa ? a : b;
    if (fa) return (a == DType::f64 || b == DType::f64) ? DType::f64 : DType::f32;  // f16 with bf16 → f32
    bool sa = dtype_is_signed_int(a), sb = dtype_is_signed_int(b);
    if (sa == sb) return dtype_size(a) >= dtype_size(b) ? a : b;
    DType s = sa ? a : b, u = sa ? b : a;
    if (dtype_size(s) > dtype_size(u)) return s;
    switch (dtype_size(u)) {
        case 1: return DType::i16;
        case 2: return DType::i32;
        default: return DType::i64;
    }
}

DType promote_scalar(DType t, const Scalar& s) {
    switch (s.kind()) {
        case Scalar::Kind::bool_: return t;
        case Scalar::Kind::int_: return t == DType::bool_ ? default_int() : t;
        case Scalar::Kind::float_: return dtype_is_float(t) ? t : default_float();
    }
    return t;
}

uint64_t scalar_bits(const Scalar& s, DType t) {
    return s.kind() == Scalar::Kind::float_ ? kernel::bits_from_double(t, s.as_double())
                                            : kernel::bits_from_int(t, s.as_int());
}

NodePtr cast_to(const NodePtr& x, DType t) { return x->dtype == t ? x : graph::make_cast(x, t); }

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
    size_t r = std::max(a.size(), b.size());
    Shape out(r);
    for (size_t i = 0; i < r; ++i) {  // i counts from the right
        int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
        int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (x != y && x != 1 && y != 1)
            invalid(op,
                    "shapes " + shape_str(a) + " and " + shape_str(b) + " do not broadcast (axis -" +
                        std::to_string(i + 1) + ": " + std::to_string(x) + " vs " + std::to_string(y) + ")");
        out[r - 1 - i] = x == 1 ? y : x;
    }
    if (graph::shape_numel_checked(out) < 0)
        invalid(op,
                "shapes " + shape_str(a) + " and " + shape_str(b) + " broadcast to " + shape_str(out) +
                    ", which has more elements than fit in 64 bits");
    return out;
}

NodePtr expand_to(const NodePtr& x, const Shape& shape) {
    if (x->shape == shape) return x;
    NodePtr n = x;
    if (n->shape.size() < shape.size()) {
        Shape s(shape.size() - n->shape.size(), 1);
        s.insert(s.end(), n->shape.begin(), n->shape.end());
        n = graph::make_reshape(n, s);
    }
    return n->shape == shape ? n : graph::make_expand(n, shape);
}

NodePtr constant(const Scalar& s, DType t, const Shape& shape, Device device, bool launch_scalar) {
    return graph::make_constant(scalar_bits(s, t), t, shape, device, launch_scalar);
}

NodePtr constant_bits(uint64_t bits, DType t, const Shape& shape, Device device) {
    return graph::make_constant(bits, t, shape, device, false);
}

void same_device(const char* op, const NodePtr& a, const NodePtr& b) {
    if (!(a->device == b->device))
        invalid(
            op,
            "tensors on different devices (" + a->device.str() + " and " + b->device.str() + "); move one with .to()");
}

NodePtr un(kernel::Op op, const NodePtr& x) { return graph::make_unary(op, x); }
NodePtr bin(kernel::Op op, const NodePtr& x, const NodePtr& y) { return graph::make_binary(op, x, y); }
NodePtr bin_lit(kernel::Op op, const NodePtr& x, double v) {
    return graph::make_binary(
        op, x, graph::make_constant(kernel::bits_from_double(x->dtype, v), x->dtype, x->shape, x->device, false));
}

NodePtr reshape_node(const NodePtr& x, const Shape& shape) {
    return x->shape == shape ? x : graph::make_reshape(x, shape);
}

NodePtr permute_node(const NodePtr& x, const std::vector<int64_t>& axes) {
    for (size_t d = 0; d < axes.size(); ++d)
        if (axes[d] != int64_t(d)) return graph::make_permute(x, axes);
    return x;
}

NodePtr reduce_node(kernel::Op op, const NodePtr& x, const std::vector<int64_t>& axes, bool keepdim) {
    if (axes.empty()) return x;
    NodePtr r = graph::make_reduce(op, x, axes);
    if (keepdim) return r;
    Shape s;
    for (size_t d = 0; d < x->shape.size(); ++d)
        if (!std::binary_search(axes.begin(), axes.end(), int64_t(d))) s.push_back(x->shape[d]);
    return graph::make_reshape(r, s);
}

}  // namespace api

using namespace api;

std::string Scalar::str() const {
    switch (kind_) {
        case Kind::bool_: return i_ ? "true" : "false";
        case Kind::int_: return std::to_string(i_);
        case Kind::float_: {
            std::ostringstream os;
            os << f_;
            return os.str();
        }
    }
    return "?";
}

const Shape& Tensor::shape() const { return node_of(*this, "shape")->shape; }
size_t Tensor::dim() const { return node_of(*this, "dim")->shape.size(); }
int64_t Tensor::size(int axis) const {
    const Shape& s = node_of(*this, "size")->shape;
    return s[size_t(norm_axis("size", axis, s))];
}
int64_t Tensor::numel() const { return node_of(*this, "numel")->numel(); }
DType Tensor::dtype() const { return node_of(*this, "dtype")->dtype; }
Device Tensor::device() const { return node_of(*this, "device")->device; }
bool Tensor::is_realized() const {
    const NodePtr& n = node_of(*this, "is_realized");
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return n->buffer != nullptr;
}

void Tensor::check_room(const char* op, size_t count) const {
    int64_t n = numel();
    if (count < size_t(n))
        throw Error(
            ErrorStatus::InvalidArgument,
            std::string(op) + ": room for " + std::to_string(count) + " elements, the tensor has " + std::to_string(n));
}

void Tensor::read_values(DType as, void* dst, size_t bytes) const {
    const NodePtr& n = node_of(*this, "to_vector");
    if (as == n->dtype) {
        sched::read_to_host(n, dst, bytes);
        return;
    }
    // Read the tensor's own bytes and convert on the host by the cast rules (no kernel).
    size_t count = size_t(n->numel()), from = dtype_size(n->dtype), to = dtype_size(as);
    std::vector<uint8_t> raw(count * from);
    sched::read_to_host(n, raw.data(), raw.size());
    uint8_t* out = static_cast<uint8_t*>(dst);
    for (size_t i = 0; i < count && (i + 1) * to <= bytes; ++i) {
        uint64_t v = 0, r;
        std::memcpy(&v, raw.data() + i * from, from);
        if (dtype_is_float(n->dtype)) {
            r = kernel::bits_from_double(as, kernel::double_from_bits(n->dtype, v));
        } else if (n->dtype == DType::u64) {
            r = dtype_is_float(as) ? kernel::bits_from_double(as, double(v)) : kernel::bits_from_int(as, int64_t(v));
        } else {
            int64_t iv;  // sign- or zero-extended from the element width
            switch (n->dtype) {
                case DType::i8: iv = int8_t(v); break;
                case DType::i16: iv = int16_t(v); break;
                case DType::i32: iv = int32_t(v); break;
                default: iv = int64_t(v); break;  // i64 and every unsigned / bool (zero-extended)
            }
            r = kernel::bits_from_int(as, iv);
        }
        std::memcpy(out + i * to, &r, to);
    }
}

void Tensor::check_defined(const char* op) const { node_of(*this, op); }

void Tensor::check_item() const {
    const NodePtr& n = node_of(*this, "item");
    if (n->numel() != 1)
        invalid("item",
                "tensor of shape " + shape_str(n->shape) + " has " + std::to_string(n->numel()) + " elements, not 1");
}

const Tensor& Tensor::realize() const {
    sched::realize({node_of(*this, "realize")});
    return *this;
}

RuntimeStats runtime_stats() {
    sched::Stats s = sched::stats();
    RuntimeStats r;
    r.kernels = s.kernels, r.compiles = s.compiles, r.transfers = s.transfers, r.fallbacks = s.fallbacks;
    r.kernels_on = s.kernels_on;
    if (s.fallbacks)
        for (const sched::KernelRecord& k : sched::recent_kernels())
            if (!k.fallback.empty()) r.last_fallback = k.fallback;
    return r;
}

void reset_runtime_stats() { sched::reset_stats(); }

void realize(const std::vector<Tensor>& tensors) {
    std::vector<NodePtr> nodes;
    for (const Tensor& t : tensors) nodes.push_back(node_of(t, "realize"));
    sched::realize(nodes);
}

Tensor Tensor::contiguous() const {
    const NodePtr& n = node_of(*this, "contiguous");
    {
        std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
        if (n->buffer) return *this;
    }
    return wrap(graph::make_contiguous(n));
}

Tensor Tensor::to(Device device) const {
    const NodePtr& n = node_of(*this, "to");
    if (n->device == device) return *this;
    sched::open_device(device);
    return wrap(graph::make_copy(n, device));
}

Tensor Tensor::cast(DType dtype) const { return wrap(cast_to(node_of(*this, "cast"), dtype)); }

Tensor Tensor::bitcast(DType dtype) const {
    const NodePtr& n = node_of(*this, "bitcast");
    if (n->dtype == dtype) return *this;
    if (dtype_size(n->dtype) != dtype_size(dtype) || n->dtype == DType::bool_ || dtype == DType::bool_)
        invalid("bitcast",
                "cannot reinterpret " + dname(n->dtype) + " as " + dname(dtype) +
                    " (sizes must match and neither may be bool)");
    return wrap(graph::make_bitcast(n, dtype));
}

}  // namespace zyx
