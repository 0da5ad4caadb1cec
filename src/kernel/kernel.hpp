// The kernel IR: what one fused kernel computes, independent of the device that runs it.
//
// A kernel is an expression DAG evaluated at every point of an index space.
//
//   index space   shape = [global axes …, reduce axes …]; the last `reduce_axes` axes are reduced.
//   inputs        each one a buffer (passed at launch) read through a View
//   scalars       values passed by value at launch (so x*0.5 and x*0.7 share one program)
//   nodes         the expression DAG, topologically ordered (operands come first)
//   outputs       each one a buffer written through a View with the value of one node
//
// Worked example, a matmul with a relu epilogue: C[m,n] = relu(sum_k A[m,k] * B[k,n]), M×K×N:
//
//   Kernel k;
//   k.shape = {M, N, K};  k.reduce_axes = 1;                         // global (m,n), reduce k
//   int a = k.add_input(DType::f32, View::contiguous({M, K}).reshape({M, 1, K}).expand({M, N, K}));
//   int b = k.add_input(DType::f32, View::contiguous({K, N}).permute({1, 0}).reshape({1, N, K})
//                                        .expand({M, N, K}));
//   int prod = k.binary(Op::mul, k.load(a), k.load(b));              // evaluated at (m,n,k)
//   int sum  = k.reduce(Op::reduce_sum, prod);                       // evaluated at (m,n)
//   k.add_output(DType::f32, View::contiguous({M, N}), k.unary(Op::relu, sum));
//
// Levels. A node is evaluated either once per global index (level 0) or once per full index
// (level 1, "inside the reduce"). Loads of an input whose view has rank = global rank, scalars,
// constants and reduce results are level 0; loads whose view has the full rank, and `index` of a
// reduce axis, are level 1; any other node takes the highest level of its operands. A reduce's
// operand may be level 1 or 0 and must not contain another reduce (one reduce level per kernel);
// every reduce reduces over all reduce axes; outputs must be level 0. To reduce over axis 0 of a
// tensor, permute its view so the reduced axes come last.
//
// Structure, not buffers. A Kernel names inputs and outputs by position, never by buffer, so two
// kernels doing the same work on different buffers compare equal and hash equal (kernel_hash), and
// a backend compiles them once. Constants are part of the structure; scalars are not.
//
// Semantics (every rounding, overflow and NaN rule) are defined by the reference interpreter
// (interpreter.hpp) and written down in docs/ir.md. In short: 16-bit floats are carried as f32
// inside a kernel and rounded to nearest even when stored or cast; integers wrap; integer division
// and remainder by zero give 0; float→int casts truncate and saturate, NaN → 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/dtype.hpp"

namespace zyx::kernel {

// Largest rank of any view layer or index space (validate() enforces it).
inline constexpr size_t kMaxRank = 32;

// Every operation of the IR, once. "x", "y", "z" are operands src[0], src[1], src[2].
// (Laid out by hand: one op per line, its comment in a column.)
// clang-format off
enum class Op : uint8_t {
    // ---- leaves ----------------------------------------------------------------------------------
    load,         // element of input `arg` at the current index, read through that input's view
    constant,     // the literal in `value` (raw bits of the node's dtype)
    scalar,       // scalar launch argument number `arg` (dtype = kernel.scalars[arg])
    index,        // the current position along axis `arg` of the index space, as an integer dtype
    // ---- unary (result dtype = operand dtype unless noted) ---------------------------------------
    neg,          // -x (integers wrap: -MIN = MIN)
    exp,          // e^x                               float only
    exp2,         // 2^x                               float only
    log,          // natural log; log(0) = -inf, log(<0) = NaN   float only
    log2,         // base-2 log                        float only
    sqrt,         // square root; sqrt(<0) = NaN       float only
    rsqrt,        // 1 / sqrt(x)                       float only
    recip,        // 1 / x                             float only
    sin,          // sine (radians)                    float only
    cos,          // cosine (radians)                  float only
    tanh,         // hyperbolic tangent                float only
    sigmoid,      // 1 / (1 + e^-x)                    float only
    erf,          // error function; erf(±inf) = ±1    float only
    relu,         // x < 0 ? 0 : x  (NaN stays NaN; identity on unsigned)
    abs,          // |x| (integers wrap: abs(MIN) = MIN)
    floor,        // round toward -inf (identity on integers)
    ceil,         // round toward +inf (identity on integers)
    round,        // round half to even (identity on integers)
    sign,         // 1, -1, or x itself when x is 0, -0 or NaN
    logical_not,  // x == 0, result bool; any dtype
    bit_not,      // ~x; integers and bool (on bool: logical not)
    // ---- binary (operands share one dtype; result has it unless noted) --------------------------
    add,          // x + y (integers wrap)
    sub,          // x - y (integers wrap)
    mul,          // x * y (integers wrap)
    div,          // x / y; integers truncate toward 0, x/0 = 0, MIN/-1 = MIN
    pow,          // x^y; floats as C pow; integers by repeated multiplication (wrap), y<0 → 0 unless |x|=1
    max,          // larger of x, y; NaN if either is NaN; on bool: or
    min,          // smaller of x, y; NaN if either is NaN; on bool: and
    mod,          // remainder with the sign of x (C fmod / %); integers: x%0 = 0
    cmp_lt,       // x < y,  result bool (IEEE: false when either is NaN)
    cmp_le,       // x <= y, result bool
    cmp_gt,       // x > y,  result bool
    cmp_ge,       // x >= y, result bool
    cmp_eq,       // x == y, result bool
    cmp_ne,       // x != y, result bool (true when either is NaN)
    logical_and,  // (x != 0) && (y != 0), result bool; any dtype
    logical_or,   // (x != 0) || (y != 0), result bool; any dtype
    logical_xor,  // (x != 0) != (y != 0), result bool; any dtype
    bit_and,      // x & y; integers and bool
    bit_or,       // x | y; integers and bool
    bit_xor,      // x ^ y; integers and bool
    shl,          // x << y; integers; y < 0 or y >= bit width gives 0
    shr,          // x >> y, arithmetic for signed; y < 0 or >= width gives 0 (or -1 for negative x)
    // ---- ternary ---------------------------------------------------------------------------------
    where,        // x ? y : z; x is bool, y and z share the result dtype
    // ---- conversions -----------------------------------------------------------------------------
    cast,         // value conversion to the node's dtype (rules in docs/ir.md)
    bitcast,      // reinterpret the bits as the node's dtype (same size, not bool): exactly the
                  // stored bits of a load/constant/scalar/bitcast operand; a NaN computed by any
                  // other op reads as its dtype's canonical quiet NaN (canonical_nan_bits)
    // ---- reduce (over every reduce axis of the kernel; result is level 0) ------------------------
    reduce_sum,   // sum; empty = 0; 16-bit floats accumulate in f32
    reduce_prod,  // product; empty = 1
    reduce_max,   // maximum, NaN if any is NaN; empty = -inf / lowest integer / false
    reduce_min,   // minimum, NaN if any is NaN; empty = +inf / highest integer / true
};
// clang-format on
inline constexpr int kNumOps = int(Op::reduce_min) + 1;

// "add", "reduce_sum", …
std::string_view op_name(Op op);
// Number of operands: 0 for leaves, 1 unary/cast/reduce, 2 binary, 3 where.
int op_arity(Op op);
bool op_is_unary(Op op);       // neg … bit_not
bool op_is_binary(Op op);      // add … shr
bool op_is_comparison(Op op);  // cmp_* (result bool)
bool op_is_reduce(Op op);      // reduce_*
// Result is bool whatever the operand dtype: comparisons, logical_not/and/or/xor.
bool op_gives_bool(Op op);
// Whether `op` accepts operands of dtype `t` (the dtype rules of the comments above).
bool op_accepts(Op op, DType t);

// ---- views ------------------------------------------------------------------------------------

// One strided layer of a view: index i (rank = shape.size()) is valid when every
// mask_begin[d] <= i[d] < mask_end[d] (no mask = all valid) and then addresses element
// offset + Σ i[d]*strides[d].
struct ViewLayer {
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;     // in elements; 0 broadcasts, negative walks backwards
    int64_t offset = 0;               // element addressed by index (0, …, 0)
    std::vector<int64_t> mask_begin;  // empty, or one entry per axis
    std::vector<int64_t> mask_end;
    bool operator==(const ViewLayer&) const = default;
    bool has_mask() const { return !mask_begin.empty(); }
};

// How a kernel index reaches an element of a buffer: a short stack of strided layers.
// layers.back() is indexed by the kernel. When there is more than one layer, the element number
// it yields is a row-major position in the shape of the layer below, which is unravelled and
// looked up there, down to layers[0], which addresses the buffer. A second layer only appears
// when a reshape cannot be expressed with strides (e.g. merging axes of a permuted or padded
// view); every other movement op edits the top layer and costs nothing. An index that falls
// outside any layer's mask reads the input's pad value.
//
// Movement ops return a new view and throw zyx::Error(InvalidArgument) naming the shapes when
// the arguments do not fit.
struct View {
    std::vector<ViewLayer> layers;

    // Row-major view of a buffer holding exactly `shape`.
    static View contiguous(const std::vector<int64_t>& shape);

    const std::vector<int64_t>& shape() const { return layers.back().shape; }
    size_t rank() const { return layers.back().shape.size(); }
    int64_t numel() const;
    // One layer, no mask, offset 0, row-major strides.
    bool is_contiguous() const;

    View reshape(const std::vector<int64_t>& new_shape) const;
    View permute(const std::vector<int>& axes) const;          // new axis d = old axis axes[d]
    View expand(const std::vector<int64_t>& new_shape) const;  // size-1 axes broadcast
    View pad(const std::vector<int64_t>& before, const std::vector<int64_t>& after) const;
    View shrink(const std::vector<int64_t>& begin, const std::vector<int64_t>& end) const;  // [begin, end)
    View flip(const std::vector<int>& axes) const;
    View stride(const std::vector<int64_t>& steps) const;  // every steps[d]-th element, steps >= 1

    // The element offset the index `idx` (rank() entries) reads, or false when it is padding.
    bool element(const int64_t* idx, int64_t* offset) const;
    // Smallest and largest element offset any index may touch; false when none can (empty view).
    // Conservative for stacked views: every index of layers[0] that its mask lets through counts.
    bool offset_range(int64_t* lo, int64_t* hi) const;
    // Smallest and largest position layers[layer] yields over the indices of its shape that its
    // mask lets through; false when it has none. INT64_MIN/MAX when the positions overflow.
    bool layer_range(size_t layer, int64_t* lo, int64_t* hi) const;

    bool operator==(const View&) const = default;
};

// Strides (in elements) of a row-major array of `shape`: the last axis has stride 1.
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape);

// "[4,8]" or "[4,8]/s(8,1)+0" style text for messages and logs.
std::string shape_string(const std::vector<int64_t>& shape);
std::string view_string(const View& v);

// ---- the kernel -------------------------------------------------------------------------------

struct Node {
    Op op = Op::constant;
    DType dtype = DType::f32;       // result dtype
    int32_t src[3] = {-1, -1, -1};  // operand node numbers (smaller than this node's)
    uint32_t arg = 0;               // load: input number; scalar: scalar number; index: axis
    uint64_t value = 0;             // constant: raw little-endian bits in the low bytes
    bool operator==(const Node&) const = default;
};

// How the buffer behind an input stores its elements on the device that runs the kernel
// (backend::Layout). A view addresses an element by its row-major position in the buffer's
// tensor whatever the storage; a tiled device also needs the last two sizes of that tensor to
// find the element's 32×32 tile. Row-major devices (the interpreter, the host) ignore it.
struct Storage {
    bool tiled = false;
    int64_t rows = 1;           // tiled: the buffer tensor's second-to-last size (1 when its rank < 2)
    int64_t cols = 1;           // tiled: its last size (1 when its rank is 0)
    bool zero_padding = false;  // tiled: the padding of its tiles holds zeros (uploaded data)
    bool operator==(const Storage&) const = default;
};

struct Input {
    DType dtype = DType::f32;
    View view;               // rank = global rank (level 0) or full rank (read inside the reduce)
    uint64_t pad_value = 0;  // raw bits read where the view is masked out (default 0)
    Storage storage;         // how the device that runs the kernel stores the buffer
    bool operator==(const Input&) const = default;
};

struct Output {
    DType dtype = DType::f32;
    View view;          // one layer, no mask, shape = global shape, no two indices on one element
    int32_t node = -1;  // the level-0 node whose value is stored; its dtype must equal `dtype`
    bool operator==(const Output&) const = default;
};

struct Kernel {
    std::vector<int64_t> shape;   // the index space: global axes, then the reduce axes
    uint32_t reduce_axes = 0;     // how many trailing axes of `shape` are reduced
    std::vector<Input> inputs;    // buffer arguments 0 … inputs.size()-1
    std::vector<DType> scalars;   // scalar arguments
    std::vector<Node> nodes;      // topologically ordered
    std::vector<Output> outputs;  // buffer arguments inputs.size() … after the inputs

    size_t global_rank() const { return shape.size() - reduce_axes; }
    std::vector<int64_t> global_shape() const;
    int64_t global_numel() const;
    int64_t reduce_numel() const;

    // Builders: append a node and return its number. Result dtypes follow the op's rule; the
    // operands are checked by validate(), not here.
    int add_input(DType dtype, const View& view, uint64_t pad_value = 0, Storage storage = {});
    int add_scalar(DType dtype);
    int add_output(DType dtype, const View& view, int node);
    int load(int input);
    int constant(DType dtype, double v);       // v converted to dtype as a cast would
    int constant_int(DType dtype, int64_t v);  // exact for 64-bit integers
    int constant_bits(DType dtype, uint64_t bits);
    int scalar(int slot);
    int index(int axis, DType dtype = DType::i64);
    int unary(Op op, int x);
    int binary(Op op, int x, int y);
    int where(int cond, int x, int y);
    int cast(int x, DType to);
    int bitcast(int x, DType to);
    int reduce(Op op, int x);
    int push(const Node& n);

    bool operator==(const Kernel&) const = default;
};

// Throws zyx::Error(InvalidArgument) naming the node, input or output at fault when `k` breaks a
// rule of this header (dtypes, ranks, levels, one reduce level, output views) or when a view
// reaches outside its buffer: below element 0, or (stacked views) a position outside the shape
// of the layer below. So a kernel that validates can be compiled and run by any backend.
void validate(const Kernel& k);

// Level of every node (0 = per global index, 1 = per full index); assumes a valid kernel.
std::vector<uint8_t> node_levels(const Kernel& k);

// Structural hash: equal kernels hash equal (buffers are not part of a kernel).
uint64_t kernel_hash(const Kernel& k);
struct KernelHash {
    size_t operator()(const Kernel& k) const { return size_t(kernel_hash(k)); }
};

// Readable multi-line listing for ZYX_LOG(ir) and failure messages.
std::string kernel_string(const Kernel& k);

// ---- scalar values as raw bits ----------------------------------------------------------------

// `v` converted to `t` under the cast rules, as raw bits (for constants and scalars).
uint64_t bits_from_double(DType t, double v);
uint64_t bits_from_int(DType t, int64_t v);
// The value held in raw bits of dtype `t`, as a double (exact for every dtype but 64-bit ints).
double double_from_bits(DType t, uint64_t bits);
// The canonical quiet NaN of float dtype `t`: 0x7ff8000000000000 (f64), 0x7fc00000 (f32), 0x7e00
// (f16), 0x7fc0 (bf16). A bitcast of a computed value (not a load, constant, scalar or bitcast)
// reads every NaN as this; NaN sign and payload are otherwise unspecified (docs/ir.md §4).
uint64_t canonical_nan_bits(DType t);

}  // namespace zyx::kernel
