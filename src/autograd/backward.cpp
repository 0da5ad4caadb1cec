// Gradients of the graph's node kinds, and the reverse sweep (autograd.hpp).
//
// Conventions: g is the gradient of node n (n's shape, dtype and device); x, y, z are n's inputs.
// Where PyTorch 1.13 picks a subgradient, so does this file: relu'(0) = 0, abs'(0) = 0,
// max / min of two tensors split a tie's gradient in halves, a clamp (max / min against a
// constant) passes it at its bounds, max / min over axes share it evenly among the tied elements.
#include "autograd/autograd.hpp"

#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "kernel/kernel.hpp"
#include "schedule/scheduler.hpp"

namespace zyx::autograd {

using graph::make_binary;
using graph::make_unary;
using graph::make_where;
using graph::NodePtr;
using graph::OpKind;
using graph::Shape;
using kernel::Op;

namespace {

// ---- node helpers (shapes and dtypes of `like`) -------------------------------------------------------

NodePtr lit(const NodePtr& like, double v) {
    return graph::make_constant(kernel::bits_from_double(like->dtype, v), like->dtype, like->shape, like->device,
                                false);
}
NodePtr add(const NodePtr& a, const NodePtr& b) { return make_binary(Op::add, a, b); }
NodePtr sub(const NodePtr& a, const NodePtr& b) { return make_binary(Op::sub, a, b); }
NodePtr mul(const NodePtr& a, const NodePtr& b) { return make_binary(Op::mul, a, b); }
NodePtr div(const NodePtr& a, const NodePtr& b) { return make_binary(Op::div, a, b); }
NodePtr neg(const NodePtr& a) { return make_unary(Op::neg, a); }
NodePtr scale(const NodePtr& a, double s) { return mul(a, lit(a, s)); }
NodePtr cmp(Op op, const NodePtr& a, const NodePtr& b) { return make_binary(op, a, b); }
// c ? a : 0
NodePtr keep_where(const NodePtr& c, const NodePtr& a) { return make_where(c, a, lit(a, 0)); }
// The bool mask as 1 / 0 in `like`'s dtype.
NodePtr as_number(const NodePtr& mask, const NodePtr& like) { return graph::make_cast(mask, like->dtype); }

// g of a reduced shape (size-1 reduced axes) stretched back to `shape`.
NodePtr expand(const NodePtr& g, const Shape& shape) { return g->shape == shape ? g : graph::make_expand(g, shape); }

// Along `axis`, m elements of g go to positions offset + i·step of an axis of length n; zeros
// elsewhere (offset + (m − 1)·step < n).
NodePtr scatter_strided(const NodePtr& g, size_t axis, int64_t step, int64_t offset, int64_t n) {
    NodePtr r = g;
    const int64_t m = g->shape[axis];
    const size_t rank = g->shape.size();
    if (step > 1 && m > 0) {
        Shape s1 = g->shape;
        s1.insert(s1.begin() + long(axis) + 1, 1);
        r = graph::make_reshape(r, s1);
        std::vector<int64_t> before(rank + 1, 0), after(rank + 1, 0);
        after[axis + 1] = step - 1;
        r = graph::make_pad(r, before, after, 0);
        Shape s2 = g->shape;
        s2[axis] = m * step;
        r = graph::make_reshape(r, s2);
    }
    const int64_t len = r->shape[axis];
    std::vector<int64_t> before(rank, 0), after(rank, 0);
    before[axis] = offset;
    if (offset + len <= n) {
        after[axis] = n - offset - len;
        return graph::make_pad(r, before, after, 0);
    }
    r = graph::make_pad(r, before, after, 0);
    std::vector<int64_t> begin(rank, 0), end = r->shape;
    end[axis] = n;
    return graph::make_shrink(r, begin, end);
}

// The inputs a node's gradient rule reads: `inputs` before realization, `tape` after.
const std::vector<NodePtr>& inputs_of(const graph::Node& n) { return n.inputs.empty() ? n.tape : n.inputs; }

// ---- the rules ---------------------------------------------------------------------------------------

// Gradients of n's inputs given g (undefined for an input that gets none).
std::vector<NodePtr> input_grads(const NodePtr& node, const NodePtr& g) {
    const graph::Node& n = *node;
    const std::vector<NodePtr>& in = inputs_of(n);
    std::vector<NodePtr> out(in.size());
    const NodePtr x = in.empty() ? nullptr : in[0];
    switch (n.kind) {
        case OpKind::buffer:
        case OpKind::constant:
        case OpKind::arange: return out;
        case OpKind::unary: {
            const double ln2 = std::log(2.0);
            switch (n.op) {
                case Op::neg: out[0] = neg(g); break;
                case Op::exp: out[0] = mul(g, node); break;
                case Op::exp2: out[0] = mul(g, scale(node, ln2)); break;
                case Op::log: out[0] = div(g, x); break;
                case Op::log2: out[0] = div(g, scale(x, ln2)); break;
                case Op::sqrt: out[0] = div(g, scale(node, 2)); break;
                case Op::rsqrt: out[0] = mul(g, scale(mul(node, mul(node, node)), -0.5)); break;  // −½ x^(−3/2)
                case Op::recip: out[0] = neg(mul(g, mul(node, node))); break;
                case Op::sin: out[0] = mul(g, make_unary(Op::cos, x)); break;
                case Op::cos: out[0] = neg(mul(g, make_unary(Op::sin, x))); break;
                case Op::tanh: out[0] = mul(g, sub(lit(x, 1), mul(node, node))); break;
                case Op::sigmoid: out[0] = mul(g, mul(node, sub(lit(x, 1), node))); break;
                case Op::erf:  // 2/√π · e^(−x²)
                    out[0] = mul(g, scale(make_unary(Op::exp, neg(mul(x, x))), 2.0 / std::sqrt(M_PI)));
                    break;
                case Op::relu: out[0] = keep_where(cmp(Op::cmp_gt, x, lit(x, 0)), g); break;
                case Op::abs: out[0] = mul(g, make_unary(Op::sign, x)); break;  // sign(0) = 0
                case Op::floor:
                case Op::ceil:
                case Op::round:
                case Op::sign: out[0] = lit(x, 0); break;
                default: break;  // logical_not, bit_not: bool / integer results never require a gradient
            }
            return out;
        }
        case OpKind::binary: {
            const NodePtr& y = in[1];
            switch (n.op) {
                case Op::add: out[0] = g, out[1] = g; break;
                case Op::sub: out[0] = g, out[1] = neg(g); break;
                case Op::mul: out[0] = mul(g, y), out[1] = mul(g, x); break;
                case Op::div: out[0] = div(g, y), out[1] = neg(div(mul(g, node), y)); break;
                case Op::pow: {
                    // d/dx = y·x^(y−1), 0 where y = 0; d/dy = x^y · ln x, 0 where x = 0 and y ≥ 0 (PyTorch).
                    NodePtr dx = mul(y, make_binary(Op::pow, x, sub(y, lit(y, 1))));
                    out[0] = mul(g, make_where(cmp(Op::cmp_eq, y, lit(y, 0)), lit(x, 0), dx));
                    NodePtr zero_base =
                        make_binary(Op::logical_and, cmp(Op::cmp_eq, x, lit(x, 0)), cmp(Op::cmp_ge, y, lit(y, 0)));
                    out[1] = make_where(zero_base, lit(y, 0), mul(g, mul(node, make_unary(Op::log, x))));
                    break;
                }
                case Op::max:
                case Op::min: {
                    const Op wins = n.op == Op::max ? Op::cmp_gt : Op::cmp_lt;
                    // A clamp: the other operand is a constant; the bound itself passes the gradient.
                    if (y->kind == OpKind::constant && !y->requires_grad) {
                        out[0] = keep_where(cmp(n.op == Op::max ? Op::cmp_ge : Op::cmp_le, x, y), g);
                    } else if (x->kind == OpKind::constant && !x->requires_grad) {
                        out[1] = keep_where(cmp(n.op == Op::max ? Op::cmp_ge : Op::cmp_le, y, x), g);
                    } else {  // a tie gives each half
                        NodePtr tie = scale(as_number(cmp(Op::cmp_eq, x, y), g), 0.5);
                        out[0] = mul(g, add(as_number(cmp(wins, x, y), g), tie));
                        out[1] = mul(g, add(as_number(cmp(wins, y, x), g), tie));
                    }
                    break;
                }
                case Op::mod: {  // x − trunc(x / y)·y
                    NodePtr q = div(x, y);
                    NodePtr tq =
                        make_where(cmp(Op::cmp_lt, q, lit(q, 0)), make_unary(Op::ceil, q), make_unary(Op::floor, q));
                    out[0] = g, out[1] = neg(mul(g, tq));
                    break;
                }
                default: break;  // comparisons, logical and bit ops: no float result
            }
            return out;
        }
        case OpKind::where:
            out[1] = keep_where(in[0], g);
            out[2] = make_where(in[0], lit(g, 0), g);
            return out;
        case OpKind::cast:
            if (dtype_is_float(x->dtype)) out[0] = x->dtype == g->dtype ? g : graph::make_cast(g, x->dtype);
            return out;
        case OpKind::bitcast: return out;
        case OpKind::reduce: {
            NodePtr ge = expand(g, x->shape);
            switch (n.op) {
                case Op::reduce_sum: out[0] = ge; break;
                case Op::reduce_max:
                case Op::reduce_min: {
                    // shared evenly among the elements equal to the result
                    NodePtr hit = as_number(cmp(Op::cmp_eq, x, expand(node, x->shape)), x);
                    NodePtr count = expand(graph::make_reduce(Op::reduce_sum, hit, n.a), x->shape);
                    out[0] = div(mul(ge, hit), count);
                    break;
                }
                case Op::reduce_prod: {
                    // the product of the others: out / x without zeros; with one zero, the product of
                    // the non-zero elements at the zero and 0 elsewhere; with two or more, 0.
                    NodePtr zero = cmp(Op::cmp_eq, x, lit(x, 0));
                    NodePtr zeros = expand(graph::make_reduce(Op::reduce_sum, as_number(zero, x), n.a), x->shape);
                    NodePtr nonzero_prod =
                        expand(graph::make_reduce(Op::reduce_prod, make_where(zero, lit(x, 1), x), n.a), x->shape);
                    NodePtr one_zero = make_where(make_binary(Op::logical_and, zero, cmp(Op::cmp_eq, zeros, lit(x, 1))),
                                                  nonzero_prod, lit(x, 0));
                    NodePtr others =
                        make_where(cmp(Op::cmp_eq, zeros, lit(x, 0)), div(expand(node, x->shape), x), one_zero);
                    out[0] = mul(ge, others);
                    break;
                }
                default: break;
            }
            return out;
        }
        case OpKind::reshape: out[0] = graph::make_reshape(g, x->shape); return out;
        case OpKind::permute: {
            std::vector<int64_t> inv(n.a.size());
            for (size_t d = 0; d < n.a.size(); ++d) inv[size_t(n.a[d])] = int64_t(d);
            out[0] = graph::make_permute(g, inv);
            return out;
        }
        case OpKind::expand: {
            std::vector<int64_t> axes;
            for (size_t d = 0; d < x->shape.size(); ++d)
                if (x->shape[d] != n.shape[d]) axes.push_back(int64_t(d));
            out[0] = axes.empty() ? g : graph::make_reduce(Op::reduce_sum, g, axes);
            return out;
        }
        case OpKind::pad: {
            std::vector<int64_t> end(n.a.size());
            for (size_t d = 0; d < end.size(); ++d) end[d] = n.a[d] + x->shape[d];
            out[0] = graph::make_shrink(g, n.a, end);
            return out;
        }
        case OpKind::shrink: {
            std::vector<int64_t> after(n.a.size());
            for (size_t d = 0; d < after.size(); ++d) after[d] = x->shape[d] - n.b[d];
            out[0] = graph::make_pad(g, n.a, after, 0);
            return out;
        }
        case OpKind::flip: out[0] = graph::make_flip(g, n.a); return out;
        case OpKind::stride: {
            NodePtr r = g;
            for (size_t d = 0; d < n.a.size(); ++d)
                if (n.a[d] > 1) r = scatter_strided(r, d, n.a[d], 0, x->shape[d]);
            out[0] = r;
            return out;
        }
        case OpKind::window: {
            // x[h, w] collects g[oh, ow, kh, kw] over oh·sh + kh·dh = h, ow·sw + kw·dw = w: for each
            // (kh, kw), the [OH, OW] plane scattered to rows kh·dh + oh·sh and columns kw·dw + ow·sw.
            const size_t ax = size_t(n.a[0]);
            const int64_t kh = n.a[1], kw = n.a[2], sh = n.a[3], sw = n.a[4], dh = n.a[5], dw = n.a[6];
            const int64_t H = x->shape[ax], W = x->shape[ax + 1];
            NodePtr sum;
            for (int64_t i = 0; i < kh; ++i)
                for (int64_t j = 0; j < kw; ++j) {
                    std::vector<int64_t> begin(g->shape.size(), 0), end = g->shape;
                    begin[ax + 2] = i, end[ax + 2] = i + 1;
                    begin[ax + 3] = j, end[ax + 3] = j + 1;
                    Shape plane = g->shape;
                    plane.erase(plane.begin() + long(ax) + 2, plane.begin() + long(ax) + 4);
                    NodePtr p = graph::make_reshape(graph::make_shrink(g, begin, end), plane);
                    p = scatter_strided(p, ax, sh, i * dh, H);
                    p = scatter_strided(p, ax + 1, sw, j * dw, W);
                    sum = sum ? add(sum, p) : p;
                }
            out[0] = sum ? sum : lit(x, 0);
            return out;
        }
        case OpKind::contiguous: out[0] = g; return out;
        case OpKind::copy: out[0] = graph::make_copy(g, x->device); return out;
    }
    return out;
}

// Nodes reachable from root through nodes that require a gradient, inputs before users.
std::vector<NodePtr> topological(const NodePtr& root) {
    std::vector<NodePtr> order;
    std::unordered_set<const graph::Node*> seen{root.get()};
    std::vector<std::pair<NodePtr, size_t>> stack{{root, 0}};  // node, next input to visit
    while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const std::vector<NodePtr>& in = inputs_of(*node);
        if (next < in.size()) {
            const NodePtr& child = in[next++];
            if (child->requires_grad && seen.insert(child.get()).second) stack.push_back({child, 0});
            continue;
        }
        order.push_back(node);
        stack.pop_back();
    }
    return order;
}

// Restores the thread's gradient recording on every exit.
struct GradOff {
    bool was = graph::grad_enabled();
    GradOff() { graph::set_grad_enabled(false); }
    ~GradOff() { graph::set_grad_enabled(was); }
};

}  // namespace

void backward(const NodePtr& root, const NodePtr& seed) {
    if (!root->requires_grad) throw Error(ErrorStatus::Internal, "autograd: backward from " + root->label());
    GradOff off;
    std::vector<NodePtr> order;
    {
        std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());  // inputs / tape of realized nodes
        order = topological(root);
    }
    std::unordered_map<const graph::Node*, NodePtr> grads{{root.get(), seed}};
    std::vector<NodePtr> leaves;
    for (size_t k = order.size(); k-- > 0;) {
        const NodePtr& node = order[k];
        auto it = grads.find(node.get());
        if (it == grads.end()) continue;  // nothing flows here (e.g. only through a non-float path)
        NodePtr g = std::move(it->second);
        grads.erase(it);
        std::vector<NodePtr> in;
        {
            std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
            in = inputs_of(*node);
        }
        if (in.empty()) {  // a leaf
            std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
            if (g->dtype != node->dtype) g = graph::make_cast(g, node->dtype);
            node->grad = node->grad ? add(node->grad, g) : g;
            leaves.push_back(node);
            continue;
        }
        std::vector<NodePtr> gi = input_grads(node, g);
        for (size_t i = 0; i < in.size(); ++i) {
            if (!gi[i] || !in[i]->requires_grad) continue;
            NodePtr& acc = grads[in[i].get()];
            acc = acc ? add(acc, gi[i]) : gi[i];
        }
    }
    std::vector<NodePtr> targets;
    for (const NodePtr& leaf : leaves) targets.push_back(leaf->grad);
    sched::realize(targets);
}

}  // namespace zyx::autograd
