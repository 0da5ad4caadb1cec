// Analyses of the kernel IR that every code generator needs: common subexpressions, which nodes
// are needed and how often they are used, which axes of the index space a node depends on, the
// identities of reductions, the bytes a view reaches. They read a kernel and change nothing;
// unless said otherwise they assume a kernel that validates (kernel.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernel/kernel.hpp"

namespace zyx::kernel {

// Common subexpressions: every node is rewired to the first identical node (same op, dtype,
// operands, arg and value); outputs follow. Nodes stay in place (duplicates become unused), so
// node numbers, levels and the topological order are those of `k`.
Kernel merge_common_subexpressions(const Kernel& k);

// Nodes reachable from the outputs (through reduce operands): result[i] is true when node i
// contributes to some output.
std::vector<bool> needed_nodes(const Kernel& k);

// For each node, how many needed nodes use it as an operand, plus one per output that stores it.
// Every operand slot counts: mul(x, x) uses x twice. A node no needed node reads has 0.
std::vector<uint32_t> use_counts(const Kernel& k);

// For each node, bit d set when its value can change along axis d of k.shape (the full index
// space: global axes then reduce axes). A load depends on the axes along which its input's view
// moves (view_varying_axes); `index` on its axis; a reduce on the global axes its operand depends
// on (never on reduce axes); other nodes on the union of their operands. k.shape.size() <= 64
// (throws zyx::Error(InvalidArgument) otherwise).
std::vector<uint64_t> node_axes(const Kernel& k);

// Bit d set when the element a view reads (its offset or its validity) can change along index
// axis d: a size>1 axis with a non-zero stride in the top layer, or one that a mask or a lower
// layer makes matter (be conservative: for stacked or masked views every size>1 axis of the top
// layer whose stride is non-zero or which is masked counts). Lower layers only see the position
// the top layer yields, so an axis the top layer neither walks nor masks never counts. A size-1
// axis never counts (its index is always 0). v.rank() <= 64.
uint64_t view_varying_axes(const View& v);

// The combine op of a reduce (reduce_sum → add, reduce_prod → mul, reduce_max → max,
// reduce_min → min): acc = combine(acc, x) at every reduce step. Throws zyx::Error(Internal)
// for an op that is not a reduce.
Op reduce_combine_op(Op reduce);

// The identity of a reduce in dtype t as raw bits of t (stored form, as Node::value: a 16-bit
// float's identity is its 16-bit pattern): 0 for reduce_sum, 1 for reduce_prod, -inf / lowest
// for reduce_max, +inf / highest for reduce_min; bool: false for max, true for min. These are
// the values an empty reduction gives and the interpreter starts from. Throws zyx::Error(Internal)
// for an op that is not a reduce.
uint64_t reduce_identity_bits(Op reduce, DType t);

// Bytes a buffer must have to back `view` of elements of `dtype` (0 when nothing is reachable).
// Throws zyx::Error(InvalidArgument) when the view reaches below element 0; `who` names the
// view in the message.
uint64_t view_required_bytes(const View& view, DType dtype, const std::string& who);

}  // namespace zyx::kernel
