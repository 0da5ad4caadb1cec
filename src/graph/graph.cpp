// Node builders with their shape rules, buffer release and iterative node destruction.
#include "graph/graph.hpp"

#include <algorithm>
#include <atomic>

#include "backend/backend.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace zyx::graph {
namespace {

std::atomic<uint64_t> g_next_id{1};

[[noreturn]] void internal(const std::string& what) { throw Error(ErrorStatus::Internal, "graph: " + what); }

NodePtr new_node(OpKind kind, DType dtype, Shape shape, Device device) {
    if (!shape_fits(shape, dtype))
        throw Error(ErrorStatus::InvalidArgument,
                    std::string(op_kind_name(kind)) + ": shape " + shape_str(shape) + " of " +
                        std::string(dtype_name(dtype)) +
                        " does not fit in 64 bits (negative size, or more than 2^63 "
                        "bytes)");
    auto n = std::make_shared<Node>();
    n->kind = kind;
    n->dtype = dtype;
    n->shape = std::move(shape);
    n->device = device;
    n->id = g_next_id.fetch_add(1, std::memory_order_relaxed);
    return n;
}

NodePtr unary_like(OpKind kind, const NodePtr& x, Shape shape) {
    NodePtr n = new_node(kind, x->dtype, std::move(shape), x->device);
    n->inputs = {x};
    return n;
}

thread_local bool t_grad_enabled = true;

// A built node requires a gradient when gradients are recorded, it is a float, and an input
// requires one (a bitcast reinterprets bits: no gradient flows through it).
NodePtr tracked(NodePtr n) {
    if (!t_grad_enabled || !dtype_is_float(n->dtype) || n->kind == OpKind::bitcast) return n;
    for (const NodePtr& in : n->inputs)
        if (in->requires_grad) {
            n->requires_grad = true;
            break;
        }
    return n;
}

void check_rank(const NodePtr& x, size_t r, const char* what) {
    if (x->shape.size() != r)
        internal(std::string(what) + " with " + std::to_string(r) + " arguments on " + x->label());
}

}  // namespace

bool grad_enabled() { return t_grad_enabled; }
void set_grad_enabled(bool on) { t_grad_enabled = on; }

std::recursive_mutex& runtime_mutex() {
    static std::recursive_mutex* m = new std::recursive_mutex;  // never destroyed: buffers may die at exit
    return *m;
}

const char* op_kind_name(OpKind k) {
    switch (k) {
        case OpKind::buffer: return "buffer";
        case OpKind::constant: return "constant";
        case OpKind::arange: return "arange";
        case OpKind::unary: return "unary";
        case OpKind::binary: return "binary";
        case OpKind::where: return "where";
        case OpKind::cast: return "cast";
        case OpKind::bitcast: return "bitcast";
        case OpKind::reduce: return "reduce";
        case OpKind::reshape: return "reshape";
        case OpKind::permute: return "permute";
        case OpKind::expand: return "expand";
        case OpKind::pad: return "pad";
        case OpKind::shrink: return "shrink";
        case OpKind::flip: return "flip";
        case OpKind::stride: return "stride";
        case OpKind::window: return "window";
        case OpKind::contiguous: return "contiguous";
        case OpKind::copy: return "copy";
    }
    return "?";
}

bool op_kind_is_movement(OpKind k) { return k >= OpKind::reshape && k <= OpKind::window; }
bool op_kind_is_elementwise(OpKind k) { return k >= OpKind::unary && k <= OpKind::bitcast; }

int64_t shape_numel(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s) n *= d;
    return n;
}

std::string shape_str(const Shape& s) { return kernel::shape_string(s); }

int64_t shape_numel_checked(const Shape& s) {
    for (int64_t d : s)
        if (d < 0) return -1;
    for (int64_t d : s)
        if (d == 0) return 0;
    int64_t n = 1;
    for (int64_t d : s)
        if (__builtin_mul_overflow(n, d, &n)) return -1;
    return n;
}

bool shape_fits(const Shape& s, DType t) {
    int64_t n = shape_numel_checked(s), bytes;
    return n >= 0 && !__builtin_mul_overflow(n, int64_t(dtype_size(t)), &bytes);
}

int64_t Node::numel() const { return shape_numel(shape); }

std::string Node::label() const {
    std::string name = (kind == OpKind::unary || kind == OpKind::binary || kind == OpKind::reduce)
        ? std::string(kernel::op_name(op))
        : std::string(op_kind_name(kind));
    return name + "#" + std::to_string(id) + " " + std::string(dtype_name(dtype)) + " " + shape_str(shape);
}

Node::~Node() {
    std::vector<NodePtr> stack = std::move(inputs);
    for (NodePtr& t : tape) stack.push_back(std::move(t));
    if (grad) stack.push_back(std::move(grad));
    while (!stack.empty()) {
        NodePtr n = std::move(stack.back());
        stack.pop_back();
        if (n && n.use_count() == 1) {  // we hold the last reference: unhook its inputs first
            for (NodePtr& i : n->inputs) stack.push_back(std::move(i));
            for (NodePtr& t : n->tape) stack.push_back(std::move(t));
            if (n->grad) stack.push_back(std::move(n->grad));
            n->inputs.clear();
            n->tape.clear();
        }
    }
}

Buffer::~Buffer() {
    if (!pool || id == 0) return;
    std::lock_guard<std::recursive_mutex> lock(runtime_mutex());
    try {
        pool->release(id);
    } catch (const Error& e) {  // a destructor must not throw; the pool reported a bug
        ZYX_LOG(mem) << "release of buffer " << id << " on " << device.str() << " failed: " << e.what();
    }
}

void mark_realized(Node& n, std::shared_ptr<Buffer> buffer) {
    n.buffer = std::move(buffer);
    n.realized_inputs.reserve(n.inputs.size());
    for (const NodePtr& in : n.inputs) n.realized_inputs.push_back(InputRecord{in, in->id, in->dtype, in->shape});
    if (n.requires_grad) n.tape = n.inputs;  // backward needs them (and their values)
    n.inputs.clear();                        // the graph behind it may be freed (Node's destructor is iterative)
}

NodePtr make_buffer(std::shared_ptr<Buffer> buffer, DType dtype, const Shape& shape) {
    NodePtr n = new_node(OpKind::buffer, dtype, shape, buffer->device);
    n->buffer = std::move(buffer);
    return n;
}

NodePtr make_constant(uint64_t bits, DType dtype, const Shape& shape, Device device, bool launch_scalar) {
    NodePtr n = new_node(OpKind::constant, dtype, shape, device);
    n->bits = bits;
    n->launch_scalar = launch_scalar;
    return n;
}

NodePtr make_arange(uint64_t start_bits, uint64_t step_bits, DType dtype, int64_t count, Device device) {
    NodePtr n = new_node(OpKind::arange, dtype, {count}, device);
    n->bits = start_bits;
    n->bits2 = step_bits;
    return n;
}

NodePtr make_unary(kernel::Op op, const NodePtr& x) {
    if (!kernel::op_is_unary(op)) internal("make_unary with " + std::string(kernel::op_name(op)));
    NodePtr n = unary_like(OpKind::unary, x, x->shape);
    n->op = op;
    if (op == kernel::Op::logical_not) n->dtype = DType::bool_;
    return tracked(std::move(n));
}

NodePtr make_binary(kernel::Op op, const NodePtr& x, const NodePtr& y) {
    if (!kernel::op_is_binary(op)) internal("make_binary with " + std::string(kernel::op_name(op)));
    if (x->shape != y->shape || x->dtype != y->dtype || !(x->device == y->device))
        internal(std::string(kernel::op_name(op)) + " of " + x->label() + " and " + y->label());
    NodePtr n = unary_like(OpKind::binary, x, x->shape);
    n->inputs.push_back(y);
    n->op = op;
    if (kernel::op_gives_bool(op)) n->dtype = DType::bool_;  // comparisons, logical_and/or/xor
    return tracked(std::move(n));
}

NodePtr make_where(const NodePtr& c, const NodePtr& x, const NodePtr& y) {
    if (c->dtype != DType::bool_ || x->dtype != y->dtype || c->shape != x->shape || x->shape != y->shape)
        internal("where of " + c->label() + ", " + x->label() + ", " + y->label());
    NodePtr n = new_node(OpKind::where, x->dtype, x->shape, x->device);
    n->inputs = {c, x, y};
    return tracked(std::move(n));
}

NodePtr make_cast(const NodePtr& x, DType dtype) {
    NodePtr n = unary_like(OpKind::cast, x, x->shape);
    n->dtype = dtype;
    return tracked(std::move(n));
}

NodePtr make_bitcast(const NodePtr& x, DType dtype) {
    if (dtype_size(dtype) != dtype_size(x->dtype)) internal("bitcast of " + x->label());
    NodePtr n = unary_like(OpKind::bitcast, x, x->shape);
    n->dtype = dtype;
    return n;
}

NodePtr make_reduce(kernel::Op op, const NodePtr& x, std::vector<int64_t> axes) {
    if (!kernel::op_is_reduce(op)) internal("make_reduce with " + std::string(kernel::op_name(op)));
    std::sort(axes.begin(), axes.end());
    Shape s = x->shape;
    for (size_t i = 0; i < axes.size(); ++i) {
        if (axes[i] < 0 || size_t(axes[i]) >= s.size() || (i && axes[i] == axes[i - 1]))
            internal("reduce axes on " + x->label());
        s[size_t(axes[i])] = 1;
    }
    NodePtr n = unary_like(OpKind::reduce, x, s);
    n->op = op;
    n->a = std::move(axes);
    return tracked(std::move(n));
}

NodePtr make_reshape(const NodePtr& x, const Shape& shape) {
    if (shape_numel(shape) != x->numel()) internal("reshape of " + x->label() + " to " + shape_str(shape));
    NodePtr n = unary_like(OpKind::reshape, x, shape);
    n->a = shape;
    return tracked(std::move(n));
}

NodePtr make_permute(const NodePtr& x, const std::vector<int64_t>& axes) {
    check_rank(x, axes.size(), "permute");
    Shape s(axes.size());
    for (size_t d = 0; d < axes.size(); ++d) s[d] = x->shape[size_t(axes[d])];
    NodePtr n = unary_like(OpKind::permute, x, s);
    n->a = axes;
    return tracked(std::move(n));
}

NodePtr make_expand(const NodePtr& x, const Shape& shape) {
    check_rank(x, shape.size(), "expand");
    for (size_t d = 0; d < shape.size(); ++d)
        if (x->shape[d] != shape[d] && x->shape[d] != 1)
            internal("expand of " + x->label() + " to " + shape_str(shape));
    NodePtr n = unary_like(OpKind::expand, x, shape);
    n->a = shape;
    return tracked(std::move(n));
}

NodePtr make_pad(const NodePtr& x, const std::vector<int64_t>& before, const std::vector<int64_t>& after,
                 uint64_t value_bits) {
    check_rank(x, before.size(), "pad");
    check_rank(x, after.size(), "pad");
    Shape s = x->shape;
    for (size_t d = 0; d < s.size(); ++d) {
        if (before[d] < 0 || after[d] < 0) internal("negative pad of " + x->label());
        s[d] += before[d] + after[d];
    }
    NodePtr n = unary_like(OpKind::pad, x, s);
    n->a = before;
    n->b = after;
    n->bits = value_bits;
    return tracked(std::move(n));
}

NodePtr make_shrink(const NodePtr& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& end) {
    check_rank(x, begin.size(), "shrink");
    check_rank(x, end.size(), "shrink");
    Shape s = x->shape;
    for (size_t d = 0; d < s.size(); ++d) {
        if (begin[d] < 0 || end[d] < begin[d] || end[d] > s[d]) internal("shrink bounds on " + x->label());
        s[d] = end[d] - begin[d];
    }
    NodePtr n = unary_like(OpKind::shrink, x, s);
    n->a = begin;
    n->b = end;
    return tracked(std::move(n));
}

NodePtr make_flip(const NodePtr& x, const std::vector<int64_t>& axes) {
    for (int64_t a : axes)
        if (a < 0 || size_t(a) >= x->shape.size()) internal("flip axis on " + x->label());
    NodePtr n = unary_like(OpKind::flip, x, x->shape);
    n->a = axes;
    return tracked(std::move(n));
}

NodePtr make_stride(const NodePtr& x, const std::vector<int64_t>& steps) {
    check_rank(x, steps.size(), "stride");
    Shape s = x->shape;
    for (size_t d = 0; d < s.size(); ++d) {
        if (steps[d] < 1) internal("stride step on " + x->label());
        s[d] = s[d] == 0 ? 0 : (s[d] - 1) / steps[d] + 1;  // ceil(s / step) without overflow
    }
    NodePtr n = unary_like(OpKind::stride, x, s);
    n->a = steps;
    return tracked(std::move(n));
}

Shape window_shape(const Shape& in, int64_t axis, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                   int64_t dw) {
    auto out_len = [](int64_t n, int64_t k, int64_t s, int64_t d) {
        if (n == 0 || k - 1 > (n - 1) / d) return int64_t(0);  // the window is longer than the axis
        int64_t span = d * (k - 1) + 1;                        // <= n: no overflow
        return (n - span) / s + 1;
    };
    Shape s(in.begin(), in.begin() + axis);
    s.push_back(out_len(in[size_t(axis)], kh, sh, dh));
    s.push_back(out_len(in[size_t(axis) + 1], kw, sw, dw));
    s.push_back(kh);
    s.push_back(kw);
    s.insert(s.end(), in.begin() + axis + 2, in.end());
    return s;
}

NodePtr make_window(const NodePtr& x, int64_t axis, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                    int64_t dw) {
    if (axis < 0 || size_t(axis) + 2 > x->shape.size() || kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1)
        internal("window arguments on " + x->label());
    NodePtr n = unary_like(OpKind::window, x, window_shape(x->shape, axis, kh, kw, sh, sw, dh, dw));
    n->a = {axis, kh, kw, sh, sw, dh, dw};
    return tracked(std::move(n));
}

NodePtr make_contiguous(const NodePtr& x) { return tracked(unary_like(OpKind::contiguous, x, x->shape)); }

NodePtr make_copy(const NodePtr& x, Device device) {
    NodePtr n = unary_like(OpKind::copy, x, x->shape);
    n->device = device;
    return tracked(std::move(n));
}

}  // namespace zyx::graph
