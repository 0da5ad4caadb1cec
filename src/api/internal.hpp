// Internal to src/api: argument checks with user-facing messages, promotion, broadcasting and
// small node helpers shared by the Tensor implementation files.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "graph/graph.hpp"
#include "zyx/tensor.hpp"

namespace zyx::api {

using graph::NodePtr;

// InvalidArgument "<op>: <what>".
[[noreturn]] void invalid(const std::string& op, const std::string& what);
[[noreturn]] void unsupported(const std::string& op, const std::string& what);

// Runs `build`, a public op made of other public ops (mse_loss of sub and mean, …), so that an
// InvalidArgument an inner op throws names the op the user called: "<op>: <inner message>".
// Composite ops check their arguments themselves first; this is the net under those checks.
template <class F>
Tensor composite(const char* op, F&& build) {
    try {
        return build();
    } catch (const Error& e) {
        if (e.status() != ErrorStatus::InvalidArgument) throw;
        throw Error(ErrorStatus::InvalidArgument, std::string(op) + ": " + e.message());
    }
}

// The node of a defined tensor; InvalidArgument naming `op` for an undefined one.
const NodePtr& node_of(const Tensor& t, const char* op);
inline Tensor wrap(NodePtr n) { return Tensor(std::move(n)); }

std::string shape_str(const Shape& s);
std::string dname(DType t);

// InvalidArgument "<op>: …" naming the shape when it has a negative size or a tensor of it would
// not fit in 64 bits (numel · dtype size above 2^63 − 1: counts, byte sizes and offsets must not
// overflow). Every op whose result can be larger than its inputs checks its result shape.
void check_shape(const char* op, const Shape& s, DType t);
// a + b and a · b of sizes; InvalidArgument "<op>: <what> … overflows" when the result does not fit.
int64_t add_sizes(const char* op, int64_t a, int64_t b, const std::string& what);
int64_t mul_sizes(const char* op, int64_t a, int64_t b, const std::string& what);

// Axis in [0, rank) from a possibly negative one; InvalidArgument naming the shape otherwise.
// `extra` allows one position past the end (unsqueeze).
int64_t norm_axis(const char* op, int axis, const Shape& shape, bool extra = false);
// Sorted, checked for duplicates.
std::vector<int64_t> norm_axes(const char* op, const std::vector<int>& axes, const Shape& shape);
// norm_axes for ops that take a dimension of a 0-d tensor as PyTorch does: a 0-d tensor accepts
// axis 0 or -1 (once), which names no axis (the result is empty). Same as norm_axes otherwise.
std::vector<int64_t> dim_axes(const char* op, const std::vector<int>& axes, const Shape& shape);

// ---- promotion (rules in tensor.hpp) --------------------------------------------------------------
DType promote(DType a, DType b);
DType promote_scalar(DType t, const Scalar& s);
DType default_float();  // f32
DType default_int();    // i32
// The dtype float-only math computes `t` in: t itself for floats, f32 otherwise.
inline DType float_of(DType t) { return dtype_is_float(t) ? t : DType::f32; }

// ---- node helpers ----------------------------------------------------------------------------------
NodePtr cast_to(const NodePtr& x, DType t);  // x itself when already t
// numpy broadcast of two shapes; InvalidArgument "<op>: shapes A and B do not broadcast (…)".
Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);
// x reshaped (size-1 axes in front) and expanded to `shape` (assumed broadcast-compatible).
NodePtr expand_to(const NodePtr& x, const Shape& shape);
// A constant of `shape` filled with `s` converted to `t`; launch_scalar: a kernel argument
// (user numbers) rather than a literal in the kernel.
NodePtr constant(const Scalar& s, DType t, const Shape& shape, Device device, bool launch_scalar = true);
NodePtr constant_bits(uint64_t bits, DType t, const Shape& shape, Device device);
// Raw bits of `s` converted to `t` by the cast rules.
uint64_t scalar_bits(const Scalar& s, DType t);
// InvalidArgument when the devices differ.
void same_device(const char* op, const NodePtr& a, const NodePtr& b);

// Elementwise helpers on nodes of equal shape (no checks beyond the graph's).
NodePtr un(kernel::Op op, const NodePtr& x);
NodePtr bin(kernel::Op op, const NodePtr& x, const NodePtr& y);
// x op (number), the number as a literal in x's dtype (formula constants like 0.5 in gelu).
NodePtr bin_lit(kernel::Op op, const NodePtr& x, double v);

// ---- reductions and movement on nodes (checked axes) ---------------------------------------------
NodePtr reduce_node(kernel::Op op, const NodePtr& x, const std::vector<int64_t>& axes, bool keepdim);
NodePtr reshape_node(const NodePtr& x, const Shape& shape);
NodePtr permute_node(const NodePtr& x, const std::vector<int64_t>& axes);

}  // namespace zyx::api
