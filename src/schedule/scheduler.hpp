// The scheduler: turns the pending part of the tensor graph into kernels and runs them.
//
// realize(targets) works in three steps:
//   1. plan (fusion.cpp): walk the unrealized nodes the targets need and choose the "cut" nodes
//      that get a buffer of their own. Every other node is fused into the kernel of a cut node
//      that consumes it. Rules, in the order they are checked:
//        - targets, contiguous() nodes, and both ends of a device copy are cut;
//        - a reduce is cut when it sits inside another reduce's input (the IR allows one reduce
//          level per kernel) or when more than one path leads to it (it would be computed twice);
//          an elementwise node read through a view inside a reduce's input, with a reduce below
//          it, is cut instead, so the reduce below keeps its epilogue (relu(x @ w1 + b) @ w2:
//          two kernels);
//        - a non-movement node read through a pad is cut (padding must read 0, not f(0));
//        - a chain deeper than kMaxFusedDepth is cut (bounded kernel size and recursion).
//   2. lower (lower.cpp): for each cut node, in dependency order, build one kernel::Kernel: walk
//      its fused inputs, composing movement ops into the views of loads (free), turning user
//      numbers into scalar launch arguments, fusing a reduce by appending its reduced axes to
//      the index space. A few cuts are only visible there and are made on the spot:
//        - an elementwise expression that a reduce reads broadcast along a non-reduced axis
//          (a matmul operand such as relu(x) in relu(x) @ w): computing it once is cheaper than
//          once per output column, and it leaves the matmul recognisable for BLAS;
//        - a reduce whose result its consumer reads broadcast more than the device's
//          DeviceInfo::max_reduce_recompute times (each broadcast copy is a full re-evaluation
//          of the reduction; 32 on the host and the interpreter, 1 on Tenstorrent), not counting
//          the kernel's last axis on a device that computes row-invariant values once per row,
//          nor any broadcast axis when the reduce varies along the last axis on a device that
//          computes such a reduce once per distinct value before the loop
//          (DeviceInfo::hoists_broadcast_reduces: the JIT host backend). So softmax over any axis
//          is two kernels on the host at any size, three on the interpreter when the softmax
//          axis is longer than 32, and three on Tenstorrent;
//        - an arange read through a view that is not one plain strided layer;
//        - a second reduce whose reduced sizes differ from the kernel's.
//   3. execute (realize.cpp): every kernel of the realization is built first (cut nodes get
//      planned buffers that later kernels load from). Placement comes before lowering: a kernel
//      is built for its node's device; when that device's supports() says no, it is built again
//      for the host and runs there (inputs moved there, the result moved back; the reason is
//      said on `sched`). Every move between devices is explicit and logged. Kernels whose structure a device has not compiled yet are compiled
//      in ONE batch per device (one compiler run on the host JIT backend, however many kernels);
//      then the jobs launch in dependency order, and each node gets its buffer and drops its
//      inputs. A kernel that only copies a contiguous buffer is not run when the pool's layout
//      lets the node share the buffer (row-major: always; tiled: when the last two sizes agree).
//      Device copies (Tensor::to) are tensor transfers: a tiled pool tilizes on the way in and
//      untilizes on the way out. Realizing many tensors in one zyx::realize({…}) therefore costs
//      one compiler run.
//
// ZYX_DEBUG=sched logs each kernel: number, device, root node, the nodes it fused, cache hit.
// All entry points take graph::runtime_mutex().
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "kernel/kernel.hpp"

namespace zyx::sched {

// Longest chain of fused nodes before a cut.
inline constexpr int kMaxFusedDepth = 256;

// Computes every target (and whatever it needs) and gives each a buffer. Realized targets are
// skipped. On an error, nodes realized before it stay realized; the rest stay pending.
void realize(const std::vector<graph::NodePtr>& targets);

// Copies the realized node's bytes to host memory (bytes = numel · dtype size).
void read_to_host(const graph::NodePtr& node, void* dst, uint64_t bytes);

// Opens `d` if it is not open yet, so that Initialization / DeviceBusy errors surface when a
// tensor is first placed on it rather than at the next realization.
void open_device(Device d);

// Creates a buffer node on `device` holding `bytes` copied from `src`.
graph::NodePtr upload(const void* src, uint64_t bytes, DType dtype, const graph::Shape& shape, Device device);

// Counters since the start or the last reset_stats(), for tests and benchmarks.
struct Stats {
    uint64_t kernels = 0;    // kernels launched
    uint64_t compiles = 0;   // programs compiled (kernel structure not seen before on a device)
    uint64_t transfers = 0;  // buffers moved between pools
    uint64_t transfer_bytes = 0;
    uint64_t aliases = 0;                        // nodes that shared an existing buffer instead of a kernel
    uint64_t fallbacks = 0;                      // kernels run on the host because their device did not support them
    std::map<std::string, uint64_t> kernels_on;  // kernels launched per device ("host", "tt:0", …)
};
Stats stats();
void reset_stats();

// What one launched kernel did (the last 256 are kept).
struct KernelRecord {
    uint64_t number = 0;
    std::string device;              // where it ran
    std::string root;                // label of the node it computed (ZYX_DEBUG=sched only)
    std::vector<std::string> fused;  // labels of the nodes fused into it, root first (only when
                                     // ZYX_DEBUG=sched is on: building labels costs time)
    kernel::Kernel kernel;
    bool cache_hit = false;
    std::string node_device;  // the device of the node it computed ("tt:0")
    std::string fallback;     // when it ran elsewhere: why its node's device refused it
};
std::vector<KernelRecord> recent_kernels();

}  // namespace zyx::sched
