// Step 1 of realize(): which pending nodes get a buffer (the rules are listed in scheduler.hpp).
#include <algorithm>
#include <unordered_map>

#include "schedule/plan.hpp"
#include "schedule/scheduler.hpp"

namespace zyx::sched {
namespace {

using graph::Node;
using graph::OpKind;

// Pending (unrealized) nodes reachable from the targets, inputs before consumers. Iterative, so
// long lazy chains do not overflow the stack.
std::vector<Node*> topo_order(const std::vector<graph::NodePtr>& targets) {
    std::vector<Node*> order;
    std::unordered_map<const Node*, uint8_t> state;  // 1 = on the stack, 2 = done
    std::vector<std::pair<Node*, size_t>> stack;
    for (const graph::NodePtr& t : targets) {
        if (!t || t->buffer || state[t.get()]) continue;
        stack.push_back({t.get(), 0});
        state[t.get()] = 1;
        while (!stack.empty()) {
            auto& [n, next] = stack.back();
            if (next < n->inputs.size()) {
                Node* in = n->inputs[next++].get();
                if (!in->buffer && !state[in]) {
                    state[in] = 1;
                    stack.push_back({in, 0});
                }
                continue;
            }
            state[n] = 2;
            order.push_back(n);
            stack.pop_back();
        }
    }
    return order;
}

}  // namespace

Plan plan_realization(const std::vector<graph::NodePtr>& targets) {
    Plan plan;
    plan.order = topo_order(targets);

    struct Info {
        double paths = 0;               // paths to kernel roots through fused nodes (saturates)
        bool in_reduce = false;         // read inside some fused reduce's input
        bool under_pad = false;         // read through a pad (via movement ops only)
        bool forced = false;            // must be cut (input of a device copy)
        bool viewed_in_reduce = false;  // read through a movement op inside a reduce's input
        int depth = 0;                  // longest fused chain below, in the second pass
    };
    std::unordered_map<const Node*, Info> info;
    for (const graph::NodePtr& t : targets)
        if (t && !t->buffer) plan.cut.insert(t.get());

    // Inputs before consumers: which nodes have a reduce below them that only they read (through
    // nodes that only one node reads), among the pending nodes.
    std::unordered_map<const Node*, int> consumers;
    for (Node* n : plan.order)
        for (const graph::NodePtr& ip : n->inputs)
            if (!ip->buffer) ++consumers[ip.get()];
    std::unordered_map<const Node*, bool> reduce_below;
    for (Node* n : plan.order) {
        bool below = false;
        for (const graph::NodePtr& ip : n->inputs)
            if (!ip->buffer && consumers[ip.get()] == 1)
                below = below || ip->kind == OpKind::reduce || reduce_below[ip.get()];
        reduce_below[n] = below;
    }

    // Consumers before producers: every consumer of a node is decided before the node itself.
    for (auto it = plan.order.rbegin(); it != plan.order.rend(); ++it) {
        Node* n = *it;
        Info& me = info[n];
        bool cut = plan.cut.count(n) || me.forced || n->kind == OpKind::contiguous || n->kind == OpKind::copy;
        if (!cut) {
            if (n->kind == OpKind::reduce)
                cut = me.in_reduce || me.paths > 1 || me.under_pad;
            else if (!graph::op_kind_is_movement(n->kind))
                // An elementwise result of a reduce read through a view inside another reduce
                // (a matmul's epilogue feeding the next matmul) is cut here, so the reduce below
                // keeps its epilogue in one kernel instead of being cut itself.
                cut = me.under_pad || (me.in_reduce && me.viewed_in_reduce && reduce_below[n]);
        }
        if (cut) plan.cut.insert(n);
        // What n's inputs inherit: a cut node is the root of its own kernel.
        double paths = cut ? 1 : me.paths;
        bool in_reduce = cut ? false : me.in_reduce;
        bool under_pad = cut ? false : me.under_pad;
        for (const graph::NodePtr& ip : n->inputs) {
            if (ip->buffer) continue;
            Info& in = info[ip.get()];
            in.paths = std::min(in.paths + paths, 1e18);
            in.in_reduce |= in_reduce || n->kind == OpKind::reduce;
            in.under_pad |= n->kind == OpKind::pad || (under_pad && graph::op_kind_is_movement(n->kind));
            in.forced |= n->kind == OpKind::copy;
            in.viewed_in_reduce |= in_reduce && graph::op_kind_is_movement(n->kind);
        }
    }

    // Inputs before consumers: bound the depth of fused chains.
    for (Node* n : plan.order) {
        if (plan.cut.count(n)) continue;
        int depth = 0;
        for (const graph::NodePtr& ip : n->inputs)
            if (!ip->buffer && !plan.cut.count(ip.get())) depth = std::max(depth, info[ip.get()].depth);
        if (depth + 1 > kMaxFusedDepth) {
            plan.cut.insert(n);
            depth = -1;
        }
        info[n].depth = depth + 1;
    }
    return plan;
}

}  // namespace zyx::sched
