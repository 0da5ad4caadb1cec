// Step 2 of realize(): one kernel::Kernel for one cut node (rules in scheduler.hpp).
//
// The walk carries a context: the movement ops between the current node and the kernel's index
// space, in the order they apply to a view of the node's shape. Movement nodes only add to it;
// a load composes it into the input's View. Entering a reduce's input prepends a permute that
// moves the reduced axes last and a reshape that splits them off, and extends the outer ops with
// those trailing axes, so the input is indexed by the full index space [global…, reduced…].
#include <algorithm>

#include "core/error.hpp"
#include "core/log.hpp"
#include "schedule/plan.hpp"
#include "schedule/scheduler.hpp"

namespace zyx::sched {

using graph::Node;
using graph::OpKind;
using kernel::View;

namespace {

[[noreturn]] void internal(const std::string& what) { throw Error(ErrorStatus::Internal, "scheduler: " + what); }

std::vector<int> to_int(const std::vector<int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

bool has_pad(const std::vector<Move>& moves) {
    return std::any_of(moves.begin(), moves.end(), [](const Move& m) { return m.kind == OpKind::pad; });
}

// `m` acting on a shape with `red` appended as extra trailing axes that it leaves alone.
Move extend_move(const Move& m, const std::vector<int64_t>& red) {
    Move e = m;
    size_t nred = red.size();
    auto append = [](std::vector<int64_t>& v, const std::vector<int64_t>& tail) {
        v.insert(v.end(), tail.begin(), tail.end());
    };
    std::vector<int64_t> zeros(nred, 0), ones(nred, 1);
    switch (m.kind) {
        case OpKind::reshape:
        case OpKind::expand: append(e.a, red); break;
        case OpKind::permute: {
            int64_t r = int64_t(m.a.size());
            for (size_t i = 0; i < nred; ++i) e.a.push_back(r + int64_t(i));
            break;
        }
        case OpKind::pad:
            append(e.a, zeros);
            append(e.b, zeros);
            break;
        case OpKind::shrink:
            append(e.a, zeros);
            append(e.b, red);
            break;
        case OpKind::stride: append(e.a, ones); break;
        case OpKind::flip:
        case OpKind::window: break;
        default: internal(std::string("extend of non-movement ") + graph::op_kind_name(m.kind));
    }
    return e;
}

Move move_of(const Node* n) {
    Move m;
    m.kind = n->kind;
    m.a = n->a;
    m.b = n->b;
    if (n->kind == OpKind::pad) m.bits = n->bits;
    return m;
}

}  // namespace

View view_window(const View& v, const std::vector<int64_t>& args) {
    int64_t p = args[0], kh = args[1], kw = args[2], sh = args[3], sw = args[4], dh = args[5], dw = args[6];
    View out = v;
    kernel::ViewLayer& top = out.layers.back();
    std::vector<int64_t> shape = graph::window_shape(top.shape, p, kh, kw, sh, sw, dh, dw);
    // Strides of the H and W axes: the layer's own when it has no mask (the window is then a
    // plain strided layer), else those of a row-major walk over the layer's shape in a new layer
    // on top (a mask cannot be expressed on oh·sh + kh·dh).
    bool in_place = !top.has_mask();
    std::vector<int64_t> base = in_place ? top.strides : kernel::row_major_strides(top.shape);
    std::vector<int64_t> st(base.begin(), base.begin() + p);
    int64_t h = base[size_t(p)], w = base[size_t(p) + 1];
    st.insert(st.end(), {sh * h, sw * w, dh * h, dw * w});
    st.insert(st.end(), base.begin() + p + 2, base.end());
    kernel::ViewLayer l;
    l.shape = shape;
    l.strides = st;
    if (in_place) {
        l.offset = top.offset;
        top = l;
    } else {
        out.layers.push_back(l);
    }
    return out;
}

View apply_move(const View& v, const Move& m) {
    switch (m.kind) {
        case OpKind::reshape: return v.reshape(m.a);
        case OpKind::permute: return v.permute(to_int(m.a));
        case OpKind::expand: return v.expand(m.a);
        case OpKind::pad: return v.pad(m.a, m.b);
        case OpKind::shrink: return v.shrink(m.a, m.b);
        case OpKind::flip: return v.flip(to_int(m.a));
        case OpKind::stride: return v.stride(m.a);
        case OpKind::window: return view_window(v, m.a);
        default: internal(std::string("apply_move of ") + graph::op_kind_name(m.kind));
    }
}

KernelBuilder::KernelBuilder(Node* root, const Plan& plan, BufferOf buffer_of, backend::Device& run)
    : root_(root), plan_(plan), buffer_of_(std::move(buffer_of)), info_(run.info()), pool_(run.pool()) {}

void KernelBuilder::build() {
    int value = emit(root_, Ctx{}, true);
    if (kernel.nodes[size_t(value)].dtype != root_->dtype)
        internal("kernel for " + root_->label() + " computes " +
                 std::string(dtype_name(kernel.nodes[size_t(value)].dtype)));
    kernel.shape = root_->shape;
    kernel.shape.insert(kernel.shape.end(), reduce_sizes_.begin(), reduce_sizes_.end());
    kernel.reduce_axes = uint32_t(reduce_sizes_.size());
    kernel.add_output(root_->dtype, View::contiguous(root_->shape), value);
}

void KernelBuilder::note(const Node* n) {
    if (!fused_seen_.insert(n).second) return;
    fused_nodes.push_back(n);
    if (log_enabled(LogChannel::sched)) fused.push_back(n->label());  // labels cost allocations: log only
}

View KernelBuilder::compose(Node* n, const Ctx& ctx, size_t first, size_t count) const {
    View v = View::contiguous(n->shape);
    for (size_t i = first; i < first + count; ++i) v = apply_move(v, ctx.moves[i]);
    return v;
}

int KernelBuilder::emit(Node* n, const Ctx& ctx, bool is_root) {
    std::vector<int64_t> key = {is_root, ctx.in_reduce, int64_t(ctx.inner)};
    for (const Move& m : ctx.moves) {
        key.push_back(int64_t(m.kind));
        key.push_back(int64_t(m.a.size()));
        key.insert(key.end(), m.a.begin(), m.a.end());
        key.push_back(int64_t(m.b.size()));
        key.insert(key.end(), m.b.begin(), m.b.end());
        key.push_back(int64_t(m.bits));
    }
    auto mk = std::make_pair(static_cast<const Node*>(n), std::move(key));
    auto it = memo_.find(mk);
    if (it != memo_.end()) return it->second;
    int v = emit_uncached(n, ctx, is_root);
    memo_.emplace(std::move(mk), v);
    return v;
}

int KernelBuilder::cut_here(Node* n, const Ctx& ctx) {
    if (n == root_) internal("on-the-spot cut of the kernel root " + n->label());
    on_the_spot_cuts.push_back(n);
    return emit_load(n, ctx);
}

int KernelBuilder::emit_uncached(Node* n, const Ctx& ctx, bool is_root) {
    if (!is_root && (n->buffer || plan_.cut.count(n))) return emit_load(n, ctx);
    bool padded = has_pad(ctx.moves);
    switch (n->kind) {
        case OpKind::buffer: return emit_load(n, ctx);
        case OpKind::constant:
            if (padded) return cut_here(n, ctx);
            note(n);
            return emit_constant(n);
        case OpKind::arange: return emit_arange(n, ctx);
        case OpKind::reduce: return emit_reduce(n, ctx);
        case OpKind::contiguous:
            if (!is_root) internal("contiguous node " + n->label() + " reached without being cut");
            note(n);
            return emit(n->inputs[0].get(), ctx, false);
        case OpKind::copy: internal("copy node " + n->label() + " given to the kernel builder");
        default: break;
    }
    if (graph::op_kind_is_movement(n->kind)) {
        Move m = move_of(n);
        if (m.kind == OpKind::pad)  // a load has one pad value: different values need a cut
            for (const Move& o : ctx.moves)
                if (o.kind == OpKind::pad && o.bits != m.bits) return cut_here(n, ctx);
        note(n);
        Ctx c = ctx;
        c.moves.insert(c.moves.begin(), m);
        if (c.in_reduce) ++c.inner;
        return emit(n->inputs[0].get(), c, false);
    }
    // Elementwise.
    if (!is_root && padded) return cut_here(n, ctx);
    if (!is_root && ctx.in_reduce) {
        // Read broadcast along a non-reduced axis inside the reduce: every output column would
        // compute it again (relu(x) in relu(x) @ w). Values constant along the reduced axes are
        // fine (a backend evaluates them once per output element).
        View inner = compose(n, ctx, 0, ctx.inner);
        if (inner.layers.size() == 1) {
            const kernel::ViewLayer& l = inner.layers[0];
            size_t g = l.shape.size() - reduce_sizes_.size();
            bool varies_in_reduce = false, broadcast = false;
            for (size_t d = 0; d < l.shape.size(); ++d) {
                if (d >= g && l.shape[d] > 1 && l.strides[d] != 0) varies_in_reduce = true;
                if (d < g && l.shape[d] > 1 && l.strides[d] == 0) broadcast = true;
            }
            if (varies_in_reduce && broadcast) return cut_here(n, ctx);
        }
    }
    note(n);
    std::vector<graph::NodePtr> ins = n->inputs;  // hold them: an on-the-spot cut may change the graph
    int x = emit(ins[0].get(), ctx, false);
    switch (n->kind) {
        case OpKind::unary: return kernel.unary(n->op, x);
        case OpKind::binary: return kernel.binary(n->op, x, emit(ins[1].get(), ctx, false));
        case OpKind::where: {
            int y = emit(ins[1].get(), ctx, false);
            return kernel.where(x, y, emit(ins[2].get(), ctx, false));
        }
        case OpKind::cast: return kernel.cast(x, n->dtype);
        case OpKind::bitcast: return kernel.bitcast(x, n->dtype);
        default: internal(std::string("kernel builder: unexpected node kind ") + graph::op_kind_name(n->kind));
    }
}

int KernelBuilder::emit_load(Node* n, const Ctx& ctx) {
    std::shared_ptr<graph::Buffer> buf = n->buffer ? n->buffer : buffer_of_(n);
    if (!buf) internal("no buffer planned for " + n->label());
    return emit_load_buffer(n, buf, ctx);
}

int KernelBuilder::emit_load_buffer(Node* n, const std::shared_ptr<graph::Buffer>& buf, const Ctx& ctx) {
    // An empty buffer is never read (its view has a 0-sized axis, so the kernel's output or
    // reduce range is empty); a constant keeps the kernel free of a buffer that does not exist.
    if (buf->bytes == 0) return kernel.constant_bits(n->dtype, 0);
    View v = compose(n, ctx, 0, ctx.moves.size());
    uint64_t pad = 0;
    for (const Move& m : ctx.moves)
        if (m.kind == OpKind::pad) pad = m.bits;
    auto& same = inputs_[{buf.get(), uint64_t(n->dtype), pad}];
    for (const auto& [view, index] : same)
        if (view == v) return kernel.load(index);
    kernel::Storage storage;
    if (pool_.layout(buf->dtype) == backend::Layout::tiled) {
        const std::vector<int64_t>& bs = buf->shape;
        storage.tiled = true;
        storage.rows = bs.size() >= 2 ? bs[bs.size() - 2] : 1;
        storage.cols = bs.empty() ? 1 : bs.back();
        storage.zero_padding = buf->zero_padding;
    }
    int index = kernel.add_input(n->dtype, v, pad, storage);
    same.push_back({v, index});
    input_buffers.push_back(buf);
    return kernel.load(index);
}

int KernelBuilder::emit_constant(Node* n) {
    if (!n->launch_scalar) return kernel.constant_bits(n->dtype, n->bits);
    auto it = scalar_slots_.find(n);
    int slot;
    if (it != scalar_slots_.end()) {
        slot = it->second;
    } else {
        slot = kernel.add_scalar(n->dtype);
        scalars.push_back(backend::Scalar{n->dtype, n->bits});
        scalar_slots_.emplace(n, slot);
    }
    return kernel.scalar(slot);
}

int KernelBuilder::emit_arange(Node* n, const Ctx& ctx) {
    // value = start + step · position, where position is the element of a contiguous [count]
    // buffer that the composed view reads: offset + Σ index(d) · stride(d).
    View v = compose(n, ctx, 0, ctx.moves.size());
    if (v.layers.size() != 1 || v.layers[0].has_mask()) return cut_here(n, ctx);
    note(n);
    const kernel::ViewLayer& l = v.layers[0];
    int64_t reach = l.offset < 0 ? -l.offset : l.offset;
    for (size_t d = 0; d < l.shape.size(); ++d) reach += (l.strides[d] < 0 ? -l.strides[d] : l.strides[d]) * l.shape[d];
    DType it = reach < (int64_t(1) << 31) ? DType::i32 : DType::i64;
    int pos = -1;
    for (size_t d = 0; d < l.shape.size(); ++d) {
        if (l.strides[d] == 0 || l.shape[d] == 1) continue;
        int t = kernel.index(int(d), it);
        if (l.strides[d] != 1) t = kernel.binary(kernel::Op::mul, t, kernel.constant_int(it, l.strides[d]));
        pos = pos < 0 ? t : kernel.binary(kernel::Op::add, pos, t);
    }
    if (pos < 0 || l.offset != 0) {
        int c = kernel.constant_int(it, l.offset);
        pos = pos < 0 ? c : kernel.binary(kernel::Op::add, pos, c);
    }
    DType t = n->dtype;
    if (dtype_is_float(t)) {  // start/step are f64 bits; compute in f32 (f64 for f64), then round
        DType acc = t == DType::f64 ? DType::f64 : DType::f32;
        int x = kernel.cast(pos, acc);
        int step = kernel.constant(acc, kernel::double_from_bits(DType::f64, n->bits2));
        int start = kernel.constant(acc, kernel::double_from_bits(DType::f64, n->bits));
        int val = kernel.binary(kernel::Op::add, kernel.binary(kernel::Op::mul, x, step), start);
        return acc == t ? val : kernel.cast(val, t);
    }
    // Integers: start/step are i64 bits; the arithmetic wraps in the result dtype.
    int x = it == t ? pos : kernel.cast(pos, t);
    int step = kernel.constant_int(t, int64_t(n->bits2));
    int start = kernel.constant_int(t, int64_t(n->bits));
    return kernel.binary(kernel::Op::add, kernel.binary(kernel::Op::mul, x, step), start);
}

int KernelBuilder::emit_reduce(Node* n, const Ctx& ctx) {
    bool is_root = n == root_;
    if (!is_root && (ctx.in_reduce || has_pad(ctx.moves))) return cut_here(n, ctx);
    if (!is_root) {
        // Fused into its consumer, the reduce is evaluated at every element of the consumer's
        // index space: each broadcast axis multiplies the work. A device that hoists broadcast
        // reduces (the JIT host backend) computes a reduce read broadcast along the last axis
        // once per row (the other broadcast axes still multiply), and one that varies along the
        // last axis once per distinct value (before its main loop: softmax over axis 0).
        View v = compose(n, ctx, 0, ctx.moves.size());
        double factor = 1;
        const bool hoists = info_.hoists_broadcast_reduces;
        if (v.layers.size() == 1) {
            const kernel::ViewLayer& l = v.layers[0];
            const size_t last = l.shape.size() - 1;
            bool varies_last = !l.shape.empty() && l.strides[last] != 0 && l.shape[last] > 1;
            if (!(varies_last && hoists))
                for (size_t d = 0; d < l.shape.size(); ++d)
                    if (l.strides[d] == 0 && l.shape[d] > 1 && !(d == last && hoists)) factor *= double(l.shape[d]);
        } else {
            factor = double(v.numel()) / double(std::max<int64_t>(1, n->numel()));
        }
        if (factor > info_.max_reduce_recompute) return cut_here(n, ctx);
    }
    Node* x = n->inputs[0].get();
    std::vector<int64_t> red, perm;
    for (size_t d = 0; d < x->shape.size(); ++d)
        if (!std::binary_search(n->a.begin(), n->a.end(), int64_t(d))) perm.push_back(int64_t(d));
    for (int64_t a : n->a) {
        perm.push_back(a);
        red.push_back(x->shape[size_t(a)]);
    }
    if (has_reduce_ && red != reduce_sizes_) {
        if (is_root) internal("root reduce " + n->label() + " after another reduce");
        return cut_here(n, ctx);
    }
    has_reduce_ = true;
    reduce_sizes_ = red;
    note(n);
    Ctx c;
    c.in_reduce = true;
    Move p{OpKind::permute, perm, {}, 0};
    std::vector<int64_t> split = n->shape;  // the reduce's output shape (reduced axes are 1) + red
    split.insert(split.end(), red.begin(), red.end());
    Move r{OpKind::reshape, split, {}, 0};
    c.moves = {p, r};
    for (const Move& m : ctx.moves) c.moves.push_back(extend_move(m, red));
    c.inner = 2;
    graph::NodePtr hold = n->inputs[0];
    int v = emit(x, c, false);
    return kernel.reduce(n->op, v);
}

}  // namespace zyx::sched
