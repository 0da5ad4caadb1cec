// The lazy tensor graph: what a zyx::Tensor points at.
//
// A Node is one tensor-level operation with its inputs, result shape, dtype and device. Nodes are
// immutable once built, except for realization: the scheduler (src/schedule) gives a node a
// Buffer and drops its inputs, turning it into a leaf (so realized tensors do not keep the graph
// that produced them alive).
//
// What a realized node keeps (for autograd and debugging): its op — kind, op, a, b, bits, bits2,
// which are never cleared — and, in `realized_inputs`, one record per former input: its id,
// dtype and shape, and a weak reference that still reaches the input while something else holds
// it (a user's tensor, another node) and has expired otherwise. The weak references keep no
// buffer and no graph alive (only the small allocation of a dead input's Node struct, until this
// node dies). The one exception is autograd's: a node that requires a gradient keeps its former
// inputs in `tape` (strong references: backward needs their values), so the graph behind a
// tensor stays alive exactly while something that requires a gradient depends on it.
//
// Nodes are shared through std::shared_ptr (the Tensor handle is one). Building nodes needs no
// lock; reading or changing `buffer`, `inputs` and `realized_inputs` of a node that may be
// realized happens under runtime_mutex(), which also serialises every use of memory pools and
// devices. mark_realized() is the one place that turns a node into a leaf.
//
// Contracts of the make_* functions: arguments are already checked by the API layer (src/api),
// which throws InvalidArgument with a user-facing message; a violation here is a bug in zyx and
// throws Internal.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "kernel/kernel.hpp"
#include "zyx/device.hpp"

namespace zyx::backend {
class MemoryPool;
}

namespace zyx::graph {

using Shape = std::vector<int64_t>;

// Whether nodes built on this thread record gradients (requires_grad from their inputs); off
// inside a zyx::NoGradGuard and while backward builds the gradient graph.
bool grad_enabled();
void set_grad_enabled(bool on);

// The one process-wide lock of the tensor runtime (recursive: a buffer may be released while a
// realization that holds the lock drops nodes).
std::recursive_mutex& runtime_mutex();

// What a node computes. Elementwise nodes have the shape of their inputs (the API inserts
// expands for broadcasting), movement nodes only re-index their one input.
enum class OpKind : uint8_t {
    // ---- leaves ------------------------------------------------------------------------------------
    buffer,    // values already in a memory pool (uploaded data, random numbers)
    constant,  // one value (raw bits in `bits`) at every position of `shape`
    arange,    // 1-D: start + step·i, start/step as raw bits of `dtype` in bits / bits2
    // ---- elementwise -------------------------------------------------------------------------------
    unary,    // op(x), op is a unary kernel::Op
    binary,   // op(x, y), op is a binary kernel::Op; x and y share a dtype
    where,    // x ? y : z; x bool, y and z share the result dtype
    cast,     // value conversion of x to `dtype`
    bitcast,  // bit reinterpretation of x as `dtype`
    // ---- reduce -------------------------------------------------------------------------------------
    reduce,  // op (reduce_*) over the axes in `a` (sorted); reduced axes keep size 1
    // ---- movement (views; `a`, `b` hold the arguments) ----------------------------------------------
    reshape,  // a = new shape
    permute,  // a = axes (new axis d = old axis a[d])
    expand,   // a = new shape (size-1 axes stretch; same rank)
    pad,      // a = before, b = after (>= 0); padding reads `bits` (raw, dtype)
    shrink,   // a = begin, b = end (0 <= begin <= end <= size)
    flip,     // a = axes
    stride,   // a = steps (>= 1)
    window,   // sliding 2-D windows, a = {axis, kh, kw, sh, sw, dh, dw}:
              //   [.., H, W, ..] → [.., OH, OW, KH, KW, ..], element (oh,ow,kh,kw) =
              //   x[oh·sh + kh·dh, ow·sw + kw·dw], OH = (H − dh·(kh−1) − 1)/sh + 1
    // ---- materialisation -----------------------------------------------------------------------------
    contiguous,  // the values of x in a buffer of their own
    copy,        // the values of x (on another device) on `device`
};
const char* op_kind_name(OpKind k);
bool op_kind_is_movement(OpKind k);
bool op_kind_is_elementwise(OpKind k);

// One realized tensor in a memory pool: the pool's buffer, and the tensor it stores (dtype and
// shape; the pool's layout of that tensor, backend::MemoryPool::layout, decides the bytes).
// Releases its pool buffer when the last owner lets go. A tensor with no elements has no pool
// buffer (id 0). Several nodes may share one Buffer (a reshape the layout allows to share);
// `shape` is the one the bytes were written with.
struct Buffer {
    Device device;
    backend::MemoryPool* pool = nullptr;
    uint32_t id = 0;
    uint64_t bytes = 0;  // pool->tensor_bytes(dtype, shape)
    DType dtype = DType::f32;
    std::vector<int64_t> shape;
    // Tiled pools: the padding of the tiles holds zeros (data written from the host, and copies
    // of such buffers); a kernel's result may leave anything there.
    bool zero_padding = false;

    Buffer() = default;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();
};

struct Node;
using NodePtr = std::shared_ptr<Node>;

// One former input of a realized node (see the top of this file).
struct InputRecord {
    std::weak_ptr<Node> node;  // the input itself while it is alive elsewhere
    uint64_t id = 0;           // its Node::id
    DType dtype = DType::f32;
    Shape shape;
};

struct Node {
    OpKind kind = OpKind::buffer;
    kernel::Op op = kernel::Op::constant;  // unary / binary / reduce
    DType dtype = DType::f32;
    Shape shape;
    Device device;
    std::vector<NodePtr> inputs;
    std::vector<int64_t> a, b;   // movement and reduce arguments (see OpKind)
    uint64_t bits = 0;           // constant value / arange start / pad value (raw bits of dtype)
    uint64_t bits2 = 0;          // arange step
    bool launch_scalar = false;  // constant: pass as a kernel scalar argument (user values)
    uint64_t id = 0;             // unique, increasing; names the node in logs

    // Set once the node is realized; then `inputs` is empty and `realized_inputs` describes them
    // (a node that was a leaf from the start has no records).
    std::shared_ptr<Buffer> buffer;
    std::vector<InputRecord> realized_inputs;

    // ---- gradients (src/autograd) ----
    // Whether backward propagates into this node: set on a leaf by Tensor::requires_grad_, and
    // by every builder on a float node with an input that requires it while grad_enabled().
    bool requires_grad = false;
    // The former inputs of a realized node that requires a gradient (mark_realized keeps them:
    // backward needs the values). Empty otherwise, so nothing else outlives realization.
    std::vector<NodePtr> tape;
    // The accumulated gradient of a leaf that requires one (undefined until backward reaches it).
    NodePtr grad;

    int64_t numel() const;
    // "add#12 f32 [2,3]" for logs and messages.
    std::string label() const;

    Node() = default;
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;
    // Iterative: a chain of a million lazy ops must not overflow the stack when it dies.
    ~Node();
};

// Gives `n` its buffer and turns it into a leaf: its inputs become `realized_inputs` records
// (and, when it requires a gradient, its `tape`). Expects runtime_mutex() held.
void mark_realized(Node& n, std::shared_ptr<Buffer> buffer);

// Product of the sizes. Every node's shape passed shape_fits() when the node was built, so this
// cannot overflow for a node's shape.
int64_t shape_numel(const Shape& s);
std::string shape_str(const Shape& s);  // "[2,3]"
// The number of elements of `s` (0 when any size is 0), or -1 when a size is negative or the
// product does not fit in int64_t.
int64_t shape_numel_checked(const Shape& s);
// Whether a tensor of `s` and `t` can exist: sizes >= 0, and numel · dtype size fits in int64_t
// (so element counts, byte sizes and view offsets never overflow). Every node is checked when it
// is built: a shape that does not fit throws InvalidArgument naming the node's op and shape (the
// API layer checks first, naming the user's op; this is the net under it).
bool shape_fits(const Shape& s, DType t);

// ---- builders (shapes and dtypes follow OpKind; arguments are trusted) -----------------------------
NodePtr make_buffer(std::shared_ptr<Buffer> buffer, DType dtype, const Shape& shape);
NodePtr make_constant(uint64_t bits, DType dtype, const Shape& shape, Device device, bool launch_scalar);
NodePtr make_arange(uint64_t start_bits, uint64_t step_bits, DType dtype, int64_t n, Device device);
NodePtr make_unary(kernel::Op op, const NodePtr& x);
NodePtr make_binary(kernel::Op op, const NodePtr& x, const NodePtr& y);
NodePtr make_where(const NodePtr& c, const NodePtr& x, const NodePtr& y);
NodePtr make_cast(const NodePtr& x, DType dtype);
NodePtr make_bitcast(const NodePtr& x, DType dtype);
NodePtr make_reduce(kernel::Op op, const NodePtr& x, std::vector<int64_t> axes);
NodePtr make_reshape(const NodePtr& x, const Shape& shape);
NodePtr make_permute(const NodePtr& x, const std::vector<int64_t>& axes);
NodePtr make_expand(const NodePtr& x, const Shape& shape);
NodePtr make_pad(const NodePtr& x, const std::vector<int64_t>& before, const std::vector<int64_t>& after,
                 uint64_t value_bits);
NodePtr make_shrink(const NodePtr& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& end);
NodePtr make_flip(const NodePtr& x, const std::vector<int64_t>& axes);
NodePtr make_stride(const NodePtr& x, const std::vector<int64_t>& steps);
NodePtr make_window(const NodePtr& x, int64_t axis, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                    int64_t dw);
NodePtr make_contiguous(const NodePtr& x);
NodePtr make_copy(const NodePtr& x, Device device);

// Output shape of a window node (same rule as OpKind::window).
Shape window_shape(const Shape& in, int64_t axis, int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                   int64_t dw);

}  // namespace zyx::graph
