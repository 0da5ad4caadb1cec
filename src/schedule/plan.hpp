// Internal to src/schedule: the fusion plan and the kernel builder (see scheduler.hpp for the
// rules both follow).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backend/backend.hpp"
#include "graph/graph.hpp"
#include "kernel/kernel.hpp"

namespace zyx::sched {

struct Plan {
    std::vector<graph::Node*> order;             // unrealized nodes, inputs before consumers
    std::unordered_set<const graph::Node*> cut;  // nodes that get a buffer of their own
};

// Step 1. Expects runtime_mutex held.
Plan plan_realization(const std::vector<graph::NodePtr>& targets);

// One movement op applied to a view, as the graph node stores it (OpKind + arguments).
struct Move {
    graph::OpKind kind;
    std::vector<int64_t> a, b;
    uint64_t bits = 0;  // pad: the value padding reads (raw bits of the node's dtype)
};

// Applies `m` to `v` (kernel::View's movement ops; window pushes a layer when needed).
kernel::View apply_move(const kernel::View& v, const Move& m);
// A sliding-window view, graph::OpKind::window's rule.
kernel::View view_window(const kernel::View& v, const std::vector<int64_t>& args);

// Step 2: builds the kernel that computes `root` for the device `run` (placement is decided
// before lowering: the device's DeviceInfo shapes the fusion, its pool's layout the inputs'
// Storage). `buffer_of(node)` returns the buffer a cut node will have: its own when realized,
// else the one planned for it (planning it now when it is an on-the-spot cut). Buffers are only
// identities here; they are filled at launch, and moved to `run`'s pool first when they live
// elsewhere.
class KernelBuilder {
public:
    using BufferOf = std::function<std::shared_ptr<graph::Buffer>(graph::Node*)>;
    KernelBuilder(graph::Node* root, const Plan& plan, BufferOf buffer_of, backend::Device& run);
    void build();

    kernel::Kernel kernel;
    std::vector<std::shared_ptr<graph::Buffer>> input_buffers;  // one per kernel input
    std::vector<backend::Scalar> scalars;                       // one per kernel scalar
    std::vector<std::string> fused;                             // labels, root first (ZYX_DEBUG=sched only)
    std::vector<const graph::Node*> fused_nodes;                // the nodes fused, root first
    std::vector<graph::Node*> on_the_spot_cuts;

private:
    struct Ctx {
        std::vector<Move> moves;  // applied in order to a view of the node's shape → kernel index
        bool in_reduce = false;   // inside a reduce's input (full index space)
        size_t inner = 0;         // moves[0..inner) were added inside the current reduce input
    };
    int emit(graph::Node* n, const Ctx& ctx, bool is_root);
    int emit_uncached(graph::Node* n, const Ctx& ctx, bool is_root);
    int emit_load(graph::Node* n, const Ctx& ctx);
    int emit_load_buffer(graph::Node* n, const std::shared_ptr<graph::Buffer>& buf, const Ctx& ctx);
    int emit_constant(graph::Node* n);
    int emit_arange(graph::Node* n, const Ctx& ctx);
    int emit_reduce(graph::Node* n, const Ctx& ctx);
    int cut_here(graph::Node* n, const Ctx& ctx);
    kernel::View compose(graph::Node* n, const Ctx& ctx, size_t first, size_t count) const;
    void note(const graph::Node* n);  // records n in `fused_nodes` (and its label in `fused`)

    graph::Node* root_;
    const Plan& plan_;
    BufferOf buffer_of_;
    const backend::DeviceInfo& info_;
    backend::MemoryPool& pool_;
    std::vector<int64_t> reduce_sizes_;  // sizes of the kernel's reduce axes, once a reduce is fused
    bool has_reduce_ = false;
    std::map<std::pair<const graph::Node*, std::vector<int64_t>>, int> memo_;
    std::map<std::tuple<const graph::Buffer*, uint64_t, uint64_t>, std::vector<std::pair<kernel::View, int>>> inputs_;
    std::unordered_map<const graph::Node*, int> scalar_slots_;
    std::unordered_set<const graph::Node*> fused_seen_;
};

}  // namespace zyx::sched
