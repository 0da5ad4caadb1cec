// zyx::Tensor — lazy tensors whose work is fused into kernels and run on the host CPU or on a
// Tenstorrent device.
//
// ---- A worked example ----------------------------------------------------------------------------
//
//   #include <zyx/tensor.hpp>
//   #include <iostream>
//
//   int main() {
//       using zyx::Tensor;
//       Tensor x = zyx::tensor({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});   // shape [2,3], f32
//       Tensor w = zyx::randn({3, 4}, zyx::DType::f32);                 // seeded generator
//       Tensor b = zyx::zeros({4});
//
//       Tensor h = (x.matmul(w) + b).relu();      // nothing has been computed yet
//       Tensor p = h.softmax(-1);                 // still nothing
//
//       std::cout << p << "\n";                   // now: the graph is cut into fused kernels,
//                                                 // compiled (cached on disk), run, and printed
//                                                 // tensor([[0.1234, …]])
//       std::vector<float> v = p.to_vector<float>();
//       float total = p.sum().item<float>();      // reuses p's buffer: it is realized now
//   }
//
// ---- The model -------------------------------------------------------------------------------------
//
// A Tensor is a cheap, copyable, reference-counted handle to a node of a lazy graph. Each node
// knows its op and its inputs. Operations only add nodes; work happens when a value is needed:
//   - reading it: to_vector<T>(), item<T>(), printing;
//   - realize() (or zyx::realize({a, b, …}) for several tensors at once, sharing their work);
//   - contiguous(), which asks for a buffer of its own at the next realization.
// A realized tensor holds a buffer on its device and lets go of the graph that produced it, so a
// loop `x = f(x); x.realize();` does not grow memory; its node keeps its op and a record of each
// input (id, dtype, shape, weak reference: see src/graph/graph.hpp).
//
// The scheduler cuts the graph into kernels of the kernel IR (src/kernel/kernel.hpp):
//   - elementwise chains fuse into their consumer (one kernel for `(a * b + c).exp()`);
//   - elementwise work fuses into a reduce's input and output (`(x * y).sum(1).relu()`: one);
//   - a matmul is a sum over a product of two broadcast views and stays one kernel with its
//     elementwise epilogue (`relu(x.matmul(w) + b)`: one kernel);
//   - movement ops (reshape, permute, expand, pad, slicing, flip, …) are views: free;
//   - it cuts where fusing would recompute too much (an expression broadcast into a reduce, a
//     reduce read by several consumers or re-evaluated more than 32× by its consumer), where the
//     IR's one-reduce-level rule forces it (a reduce of a reduce), and where a device's
//     supports() says no. softmax over any axis is two kernels on the host (max; exp / sum).
// Kernels are keyed by structure, so the same work on other buffers reuses a compiled program;
// numbers written in the program (x * 0.5) are launch arguments, so x * 0.7 reuses it too.
// ZYX_DEBUG=sched prints every kernel with the ops it fused and the device it ran on.
//
// ---- Dtypes and promotion ----------------------------------------------------------------------------
//
// DType (core/dtype.hpp): f64 f32 f16 bf16, i8 i16 i32 i64, u8 u16 u32 u64, bool_.
// Defaults: floating values and float results default to f32; integer ones to i32 (not i64 as in
// PyTorch: Tenstorrent hardware has 32-bit integers). C++ `double` data also becomes f32 unless a
// dtype is given, as in libtorch.
//
// Two tensors (PyTorch's rules): the result has the "larger" dtype by category, bool < integer <
// floating, and within a category:
//   - floats: f64 > f32 > {f16, bf16}; f16 with bf16 gives f32;
//   - integers of one signedness: the wider one; signed with unsigned: the signed one if it is
//     wider, else the signed type twice the unsigned width (u8+i8 → i16, u32+i32 → i64;
//     u64 with any signed type → i64, which may wrap).
// A tensor with a Scalar (a C++ number): the number does not promote the tensor beyond its
// category: f16 tensor + 2.5 → f16; i8 tensor + 1000 → i8 (wraps); i32 tensor + 0.5 → f32
// (default float); bool tensor + 1 → i32 (default integer).
// Op-specific results: comparisons and logical ops give bool; `/` is true division (integer
// operands give f32); on two bools `+` is or, `*` is and, `-` is an error (as PyTorch); float-only math (exp, log, sqrt, sin, …, softmax, mean, var) computes
// integer and bool inputs in f32; sum/prod of bool, i8, i16, u8, u16 give i32; argmax/argmin
// give i32. 16-bit floats compute in f32 inside a kernel and round to nearest-even when stored.
// Integers wrap; integer division by zero gives 0 (defined, never a trap).
//
// ---- Shapes, broadcasting, axes ----------------------------------------------------------------------
//
// Shape is a std::vector<int64_t>; `{}` is a 0-d tensor (one element). Binary ops broadcast as
// numpy: shapes are aligned at the right, size-1 axes stretch. Negative axes count from the end
// (-1 = last). As in PyTorch, a 0-d tensor takes axis 0 or -1 in reductions (sum(0) …, var,
// logsumexp, argmax), softmax, log_softmax, flip, squeeze and transpose: it names no axis.
// Sizes of 0 are allowed everywhere (empty tensors compute nothing; sum of an empty axis is 0,
// prod 1, max -inf or the lowest integer, min +inf or the highest; argmax of an empty axis is an
// error). Every tensor's element count times its dtype size must fit in int64_t (2^63 − 1 bytes);
// an op whose result would not (zeros({1 << 32, 1 << 32}), expand, repeat, pad, cat,
// broadcasting, matmul …) throws InvalidArgument naming the op and the shape.
//
// ---- Errors ----------------------------------------------------------------------------------------------
//
// Every misuse throws zyx::Error (core/error.hpp) with status InvalidArgument and a message that
// names the op, the shapes, dtypes or values involved, e.g.
//   "add: shapes [2,3] and [4] do not broadcast (axis -1: 3 vs 4)"
//   "sum: axis 2 out of range for shape [2,3]"
//   "slice: range [0, 5) out of bounds for axis 0 of size 3 in shape [3,4]"
// Operations that zyx does not implement throw status Unsupported ("Unsupported: …").
// Failures while running (a device that cannot be opened, a compile error) carry their own
// status. After any error every other tensor is intact and usable.
//
// ---- Threads -------------------------------------------------------------------------------------------
//
// Building graphs is thread-safe; realizations are serialised by one process-wide lock.
//
// ---- Linking -------------------------------------------------------------------------------------------
//
// CMake target `zyx` (defined in src/api/CMakeLists.txt): target_link_libraries(app PRIVATE zyx).
// Installed (docs/install.md): find_package(zyx CONFIG) and zyx::zyx, or `pkg-config zyx`.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "zyx/device.hpp"

namespace zyx {

namespace graph {
struct Node;
}

using Shape = std::vector<int64_t>;

// The DType that holds a C++ type's values: float→f32, double→f64, int32_t→i32, bool→bool_, …
template <class T>
constexpr DType dtype_of() {
    static_assert(std::is_arithmetic_v<T>, "dtype_of<T>: T must be a C++ number type or bool");
    if constexpr (std::is_same_v<T, bool>) return DType::bool_;
    else if constexpr (std::is_same_v<T, float>) return DType::f32;
    else if constexpr (std::is_floating_point_v<T>) return DType::f64;
    else if constexpr (std::is_signed_v<T>)
        return sizeof(T) == 1 ? DType::i8 : sizeof(T) == 2 ? DType::i16 : sizeof(T) == 4 ? DType::i32 : DType::i64;
    else return sizeof(T) == 1 ? DType::u8 : sizeof(T) == 2 ? DType::u16 : sizeof(T) == 4 ? DType::u32 : DType::u64;
}

// A C++ number given where a tensor is expected (x + 1, x * 0.5f, where(c, x, 0)). It keeps
// its category (bool, integer, floating) for the promotion rules above.
class Scalar {
public:
    enum class Kind : uint8_t { bool_, int_, float_ };
    template <class T>
        requires std::is_arithmetic_v<T>
    Scalar(T v) {  // NOLINT: implicit by design
        if constexpr (std::is_same_v<T, bool>) { kind_ = Kind::bool_; i_ = v; f_ = v; }
        else if constexpr (std::is_integral_v<T>) { kind_ = Kind::int_; i_ = int64_t(v); f_ = double(v); }
        else { kind_ = Kind::float_; f_ = double(v); i_ = 0; }
    }
    Kind kind() const { return kind_; }
    double as_double() const { return f_; }
    int64_t as_int() const { return i_; }
    // "2.5", "3", "true"
    std::string str() const;

private:
    Kind kind_;
    int64_t i_;
    double f_;
};

// A list of axes: `1`, `{0, 2}`, or a std::vector<int>. Negative axes count from the end.
class Axes {
public:
    Axes(int axis) : list_{axis} {}  // NOLINT: implicit by design
    Axes(std::initializer_list<int> axes) : list_(axes) {}
    Axes(std::vector<int> axes) : list_(std::move(axes)) {}
    const std::vector<int>& list() const { return list_; }

private:
    std::vector<int> list_;
};

// One entry of Tensor::index(): an integer (selects one position and drops the axis) or a
// half-open range [begin, end) with a step >= 1. Negative positions count from the end;
// `Range()` is the whole axis; `Range(2)` is [2, end).
struct Range {
    static constexpr int64_t kEnd = INT64_MAX;  // "up to the end of the axis"
    int64_t begin = 0, end = kEnd, step = 1;
    Range() = default;
    Range(int64_t b, int64_t e = kEnd, int64_t s = 1) : begin(b), end(e), step(s) {}
};
struct Index {
    bool is_range = false;
    int64_t position = 0;
    Range range;
    Index(int64_t pos) : position(pos) {}  // NOLINT: implicit by design
    Index(int pos) : position(pos) {}      // NOLINT
    Index(Range r) : is_range(true), range(r) {}  // NOLINT
};

class Tensor {
public:
    // An undefined handle (defined() is false); every op on it throws InvalidArgument.
    Tensor() = default;
    bool defined() const { return node_ != nullptr; }

    // ---- properties --------------------------------------------------------------------------
    const Shape& shape() const;
    size_t dim() const;                // number of axes (0 for a scalar tensor)
    int64_t size(int axis) const;      // length of one axis (negative counts from the end)
    int64_t numel() const;             // product of the shape (1 for a 0-d tensor)
    DType dtype() const;
    Device device() const;
    bool is_realized() const;          // holds a buffer (no pending work)

    // ---- reading values (these realize) -----------------------------------------------------------
    // All elements in row-major order, converted to T by the cast rules (float → int truncates
    // and saturates, NaN → 0). T: float, double, any intN_t/uintN_t, bool.
    template <class T>
    std::vector<T> to_vector() const {
        check_defined("to_vector");
        std::vector<T> out;
        if constexpr (std::is_same_v<T, bool>) {
            std::vector<uint8_t> raw(static_cast<size_t>(numel()));
            read_values(DType::bool_, raw.data(), raw.size());
            out.assign(raw.begin(), raw.end());
        } else {
            out.resize(static_cast<size_t>(numel()));
            read_values(dtype_of<T>(), out.data(), out.size() * sizeof(T));
        }
        return out;
    }
    // The same values written into `dst`, which has room for `count` >= numel() elements of T:
    // no allocation, for large tensors read again and again. InvalidArgument when count is short.
    template <class T>
    void to_buffer(T* dst, size_t count) const {
        check_defined("to_buffer");
        check_room("to_buffer", count);
        if constexpr (std::is_same_v<T, bool>) {
            std::vector<uint8_t> raw(static_cast<size_t>(numel()));
            read_values(DType::bool_, raw.data(), raw.size());
            for (size_t i = 0; i < raw.size(); ++i) dst[i] = raw[i] != 0;
        } else {
            read_values(dtype_of<T>(), dst, static_cast<size_t>(numel()) * sizeof(T));
        }
    }
    // The one element of a tensor with numel() == 1 (any shape), converted to T.
    template <class T>
    T item() const {
        check_item();
        return to_vector<T>()[0];
    }
    // PyTorch-style text: "tensor([[1., 2.],\n        [3., 4.]])", with ", dtype=i32" unless the
    // dtype is one PyTorch leaves implied (f32, i64 and bool; for an empty tensor only f32) and
    // ", device='tt:0'" when not on the host. Realizes.
    std::string to_string() const;

    // ---- evaluation ------------------------------------------------------------------------------
    // Computes the tensor now; afterwards it holds a buffer. Returns *this.
    const Tensor& realize() const;
    // The same values in a buffer of their own (a fusion boundary). A realized tensor is returned
    // as it is.
    Tensor contiguous() const;
    // The same values on another device (moved through the pools; nothing if already there).
    Tensor to(Device device) const;
    // Value conversion (float → int truncates and saturates, NaN → 0; anything → bool is != 0).
    Tensor cast(DType dtype) const;
    // Same bits viewed as another dtype of the same size (not bool).
    Tensor bitcast(DType dtype) const;

    // ---- elementwise, unary ----------------------------------------------------------------------
    // Float-only ones compute integer and bool inputs in f32.
    Tensor neg() const;
    Tensor exp() const;
    Tensor exp2() const;
    Tensor log() const;                // natural log; log(0) = -inf, log(<0) = nan
    Tensor log2() const;
    Tensor log10() const;
    Tensor log1p() const;              // log(1 + x), accurate for small x
    Tensor sqrt() const;
    Tensor rsqrt() const;              // 1 / sqrt(x)
    Tensor reciprocal() const;         // 1 / x
    Tensor square() const;             // x * x (keeps the dtype)
    Tensor sin() const;
    Tensor cos() const;
    Tensor tan() const;
    Tensor tanh() const;
    Tensor sigmoid() const;
    Tensor erf() const;                // error function (C erf of the working precision)
    Tensor abs() const;
    Tensor sign() const;               // -1, 0 or 1; sign(NaN) is NaN (NumPy's answer; PyTorch says 0)
    Tensor floor() const;
    Tensor ceil() const;
    Tensor round() const;              // half to even
    Tensor trunc() const;              // toward zero
    Tensor isnan() const;              // bool
    Tensor isinf() const;              // bool
    Tensor logical_not() const;        // x == 0, bool
    Tensor bitwise_not() const;        // ~x, integers and bool
    // Activations.
    Tensor relu() const;
    Tensor leaky_relu(double negative_slope = 0.01) const;
    // x · Φ(x); exact (erf) by default, tanh approximation when approximate = true.
    Tensor gelu(bool approximate = false) const;
    Tensor silu() const;                                    // x · sigmoid(x)
    Tensor softplus(double beta = 1, double threshold = 20) const;  // log(1 + e^(βx)) / β
    Tensor clamp(Scalar min, Scalar max) const;
    Tensor clamp_min(Scalar min) const;
    Tensor clamp_max(Scalar max) const;
    // More elementwise math, as PyTorch 1.13 defines it. Float-only ones compute integer and bool
    // inputs in f32 (16-bit floats in f32, rounded once).
    Tensor isfinite() const;           // bool: neither NaN nor ±inf (integers and bool: all true)
    // NaN → nan, +inf → posinf, -inf → neginf; an unset infinity becomes the dtype's largest /
    // lowest finite value. Integer and bool tensors come back unchanged.
    Tensor nan_to_num(double nan = 0, std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt) const;
    Tensor expm1() const;              // e^x − 1, accurate for small x
    Tensor relu6() const;              // min(max(x, 0), 6); keeps the dtype (not bool)
    Tensor hardsigmoid() const;        // min(max(x + 3, 0), 6) / 6
    Tensor hardswish() const;          // x · min(max(x + 3, 0), 6) / 6
    Tensor elu(double alpha = 1) const;  // x > 0 ? x : α·(e^x − 1)
    Tensor selu() const;               // λ·elu(x, α) with α = 1.6732632…, λ = 1.0507009…
    Tensor mish() const;               // x · tanh(softplus(x))
    // Triangles of the last two axes (rank >= 2, any dtype): an element (row i, column j) is kept
    // when j − i <= diagonal (tril) or j − i >= diagonal (triu), else it is 0.
    Tensor tril(int64_t diagonal = 0) const;
    Tensor triu(int64_t diagonal = 0) const;

    // ---- elementwise, binary (broadcasting, promotion as above) ----------------------------------
    Tensor add(const Tensor& y) const;
    Tensor sub(const Tensor& y) const;
    Tensor mul(const Tensor& y) const;
    Tensor div(const Tensor& y) const;          // true division
    Tensor div_trunc(const Tensor& y) const;    // integers: toward zero, x/0 = 0; floats: trunc(x/y)
    // Integers: repeated multiplication with wrap-around; a negative exponent gives 0 unless
    // |x| = 1. A negative integer *number* exponent is refused (as PyTorch); a negative value in
    // an integer exponent *tensor* is not checked (that would need to read it), unlike PyTorch.
    Tensor pow(const Tensor& y) const;
    Tensor maximum(const Tensor& y) const;      // NaN if either is NaN
    Tensor minimum(const Tensor& y) const;
    Tensor fmod(const Tensor& y) const;         // remainder with the sign of x (C fmod)
    Tensor remainder(const Tensor& y) const;    // remainder with the sign of y (Python and PyTorch %)
    Tensor eq(const Tensor& y) const;           // comparisons give bool
    Tensor ne(const Tensor& y) const;
    Tensor lt(const Tensor& y) const;
    Tensor le(const Tensor& y) const;
    Tensor gt(const Tensor& y) const;
    Tensor ge(const Tensor& y) const;
    Tensor logical_and(const Tensor& y) const;  // any dtypes, bool result
    Tensor logical_or(const Tensor& y) const;
    Tensor logical_xor(const Tensor& y) const;
    Tensor bitwise_and(const Tensor& y) const;  // integers and bool
    Tensor bitwise_or(const Tensor& y) const;
    Tensor bitwise_xor(const Tensor& y) const;
    Tensor shift_left(const Tensor& y) const;   // integers; shifts outside [0, bits) give 0
    Tensor shift_right(const Tensor& y) const;  // arithmetic for signed integers
    // The same with a number on the right (x.add(1), x.pow(2)).
    Tensor add(Scalar y) const;
    Tensor sub(Scalar y) const;
    Tensor mul(Scalar y) const;
    Tensor div(Scalar y) const;
    Tensor pow(Scalar y) const;
    Tensor maximum(Scalar y) const;
    Tensor minimum(Scalar y) const;
    Tensor fmod(Scalar y) const;
    Tensor remainder(Scalar y) const;
    Tensor eq(Scalar y) const;
    Tensor ne(Scalar y) const;
    Tensor lt(Scalar y) const;
    Tensor le(Scalar y) const;
    Tensor gt(Scalar y) const;
    Tensor ge(Scalar y) const;

    // ---- reductions ----------------------------------------------------------------------------------
    // Without axes: over every axis. keepdim keeps reduced axes with size 1.
    Tensor sum() const;
    Tensor sum(Axes axes, bool keepdim = false) const;
    Tensor mean() const;
    Tensor mean(Axes axes, bool keepdim = false) const;
    Tensor prod() const;
    Tensor prod(Axes axes, bool keepdim = false) const;
    Tensor max() const;
    Tensor max(Axes axes, bool keepdim = false) const;
    Tensor min() const;
    Tensor min(Axes axes, bool keepdim = false) const;
    // Variance with Bessel's correction `correction` (1 = unbiased, as PyTorch).
    Tensor var() const;
    Tensor var(Axes axes, bool keepdim = false, int correction = 1) const;
    // Standard deviation, sqrt(var), as PyTorch's std. `stddev` is the same op under a name that
    // reads unambiguously next to namespace std.
    Tensor std() const;
    Tensor std(Axes axes, bool keepdim = false, int correction = 1) const;
    Tensor stddev() const;
    Tensor stddev(Axes axes, bool keepdim = false, int correction = 1) const;
    // Position of the first largest / smallest element (NaN counts as largest), i32. Without an
    // axis: position in the flattened tensor.
    Tensor argmax() const;
    Tensor argmax(int axis, bool keepdim = false) const;
    Tensor argmin() const;
    Tensor argmin(int axis, bool keepdim = false) const;
    Tensor softmax(int axis) const;
    Tensor log_softmax(int axis) const;
    Tensor logsumexp(Axes axes, bool keepdim = false) const;

    // ---- movement (views: free until something must be contiguous) -------------------------------
    // One size may be -1 (inferred).
    Tensor reshape(const Shape& shape) const;
    Tensor flatten(int start_axis = 0, int end_axis = -1) const;
    // New axis d is old axis axes[d].
    Tensor permute(const std::vector<int>& axes) const;
    Tensor transpose(int axis0 = -2, int axis1 = -1) const;
    // Size-1 axes stretch to the new size; new axes may be added at the front; -1 keeps a size.
    Tensor expand(const Shape& shape) const;
    // pairs {before, after} per axis, starting at axis 0 (fewer pairs than axes: the rest are
    // not padded). Negative amounts crop. Padding reads `value`.
    Tensor pad(const std::vector<std::pair<int64_t, int64_t>>& before_after, double value = 0) const;
    // Elements [begin, end) with a step along one axis. Negative positions count from the end;
    // positions outside [-size, size] or a step < 1 throw InvalidArgument.
    Tensor slice(int axis, int64_t begin, int64_t end = Range::kEnd, int64_t step = 1) const;
    // numpy-style indexing from axis 0: x.index({1, Range(0, 4, 2)}) is x[1, 0:4:2].
    Tensor index(const std::vector<Index>& indices) const;
    // x[i]: position i along axis 0, dropping it.
    Tensor operator[](int64_t i) const;
    Tensor flip(Axes axes) const;
    Tensor squeeze() const;                  // drops every size-1 axis
    Tensor squeeze(int axis) const;          // drops `axis` if its size is 1 (else no change, as PyTorch)
    Tensor unsqueeze(int axis) const;        // inserts a size-1 axis before `axis` (-1: at the end)
    // Tiles the tensor: repeats[d] copies along axis d (more repeats than axes adds axes in front).
    Tensor repeat(const Shape& repeats) const;
    // Pieces of length `size` along `axis` (the last one may be shorter).
    std::vector<Tensor> split(int64_t size, int axis = 0) const;
    std::vector<Tensor> split(const std::vector<int64_t>& sizes, int axis = 0) const;
    std::vector<Tensor> chunk(int64_t chunks, int axis = 0) const;

    // ---- linear algebra and networks ---------------------------------------------------------------
    // numpy matmul: 1-D·1-D is a dot product, 2-D and higher are batched matrix products with
    // broadcast batch axes; a 1-D operand is treated as a row (left) or column (right).
    Tensor matmul(const Tensor& y) const;
    Tensor dot(const Tensor& y) const;       // 1-D · 1-D → 0-d

    // ---- gradients (autograd) ------------------------------------------------------------------
    // requires_grad_() makes a float tensor a leaf whose gradient backward() accumulates into
    // grad() (it realizes the tensor first). Results of ops on such tensors require a gradient
    // too, unless built inside a NoGradGuard or by an op without one (comparisons, argmax,
    // integer ops, bitcast). Gradients follow PyTorch 1.13, subgradients at kinks included
    // (relu'(0) = 0, abs'(0) = 0, a clamp passes the gradient at its bounds, ties of maximum /
    // minimum split it, ties of max / min over axes share it evenly).
    Tensor& requires_grad_(bool on = true);
    bool requires_grad() const;
    // d(this)/d(leaf) added into grad() of every leaf this depends on; this must have one
    // element (the gradient is 1) unless `gradient`, of this tensor's shape, is given. The
    // gradient graph is lazy like any other and runs on the tensors' devices; the leaves'
    // gradients are realized together before backward returns. May be called again (the graph
    // stays while this tensor lives): gradients accumulate.
    void backward() const;
    void backward(const Tensor& gradient) const;
    // The accumulated gradient of a leaf (undefined before a backward reaches it).
    Tensor grad() const;
    // Forgets the accumulated gradient (grad() becomes undefined, as PyTorch's set_to_none).
    void zero_grad() const;
    // The same values without gradient history (requires_grad() is false; no copy is made).
    Tensor detach() const;
    // Replaces this tensor's values with those of `value` (same shape, dtype and device) in place:
    // every handle of this tensor sees them, and it becomes a leaf holding value's buffer. For
    // optimisers updating parameters. Realizes value.
    void assign(const Tensor& value) const;

    // ---- internals -------------------------------------------------------------------------------
    explicit Tensor(std::shared_ptr<graph::Node> node) : node_(std::move(node)) {}
    const std::shared_ptr<graph::Node>& node() const { return node_; }

private:
    void read_values(DType as, void* dst, size_t bytes) const;
    void check_item() const;
    void check_defined(const char* op) const;  // InvalidArgument naming `op` for an undefined tensor
    void check_room(const char* op, size_t count) const;  // InvalidArgument when count < numel()
    std::shared_ptr<graph::Node> node_;
};

// While alive, ops on this thread record no gradient history (PyTorch's torch.no_grad()).
class NoGradGuard {
public:
    NoGradGuard();
    ~NoGradGuard();
    NoGradGuard(const NoGradGuard&) = delete;
    NoGradGuard& operator=(const NoGradGuard&) = delete;

private:
    bool was_enabled_;
};

// ---- operators (PyTorch's meaning: comparisons give bool tensors) ---------------------------------
Tensor operator+(const Tensor& x, const Tensor& y);
Tensor operator-(const Tensor& x, const Tensor& y);
Tensor operator*(const Tensor& x, const Tensor& y);
Tensor operator/(const Tensor& x, const Tensor& y);
Tensor operator%(const Tensor& x, const Tensor& y);  // remainder (sign of y, as PyTorch): -3 % 2 == 1
Tensor operator&(const Tensor& x, const Tensor& y);  // bitwise (logical on bool)
Tensor operator|(const Tensor& x, const Tensor& y);
Tensor operator^(const Tensor& x, const Tensor& y);
Tensor operator<<(const Tensor& x, const Tensor& y);
Tensor operator>>(const Tensor& x, const Tensor& y);
Tensor operator==(const Tensor& x, const Tensor& y);
Tensor operator!=(const Tensor& x, const Tensor& y);
Tensor operator<(const Tensor& x, const Tensor& y);
Tensor operator<=(const Tensor& x, const Tensor& y);
Tensor operator>(const Tensor& x, const Tensor& y);
Tensor operator>=(const Tensor& x, const Tensor& y);
Tensor operator+(const Tensor& x, Scalar y);
Tensor operator-(const Tensor& x, Scalar y);
Tensor operator*(const Tensor& x, Scalar y);
Tensor operator/(const Tensor& x, Scalar y);
Tensor operator%(const Tensor& x, Scalar y);         // remainder
Tensor operator==(const Tensor& x, Scalar y);
Tensor operator!=(const Tensor& x, Scalar y);
Tensor operator<(const Tensor& x, Scalar y);
Tensor operator<=(const Tensor& x, Scalar y);
Tensor operator>(const Tensor& x, Scalar y);
Tensor operator>=(const Tensor& x, Scalar y);
Tensor operator+(Scalar x, const Tensor& y);
Tensor operator-(Scalar x, const Tensor& y);
Tensor operator*(Scalar x, const Tensor& y);
Tensor operator/(Scalar x, const Tensor& y);
Tensor operator%(Scalar x, const Tensor& y);         // remainder: 7 % x
Tensor operator-(const Tensor& x);  // neg
Tensor operator~(const Tensor& x);  // bitwise_not
Tensor operator!(const Tensor& x);  // logical_not
std::ostream& operator<<(std::ostream& os, const Tensor& x);  // to_string()

// ---- creation ----------------------------------------------------------------------------------------
// From C++ values. The dtype is the given one, else dtype_of<T>() except that double gives f32
// (as libtorch). Values are converted by the cast rules.
template <class T>
Tensor tensor(const std::vector<T>& values, const Shape& shape, DType dtype, Device device = Device::host());
template <class T>
Tensor tensor(const std::vector<T>& values, const Shape& shape) {
    return tensor(values, shape, std::is_same_v<T, double> ? DType::f32 : dtype_of<T>());
}
template <class T>
Tensor tensor(const std::vector<T>& values) {
    return tensor(values, Shape{int64_t(values.size())});
}
// tensor({1.f, 2.f}), tensor({{1, 2}, {3, 4}}), tensor({{{…}}}): 1-, 2- and 3-D literals.
// Rows must have equal lengths (InvalidArgument otherwise).
template <class T>
Tensor tensor(std::initializer_list<T> values) {
    return tensor(std::vector<T>(values));
}
template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> rows);
template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> blocks);
// A 0-d tensor holding one number (f32 for floating, i32 for integer, bool for bool unless
// `dtype` says otherwise).
Tensor scalar_tensor(Scalar value);
Tensor scalar_tensor(Scalar value, DType dtype, Device device = Device::host());
// From raw little-endian bytes of `dtype` (numel(shape) * dtype_size bytes).
Tensor from_bytes(const void* data, size_t bytes, const Shape& shape, DType dtype, Device device = Device::host());

Tensor zeros(const Shape& shape, DType dtype = DType::f32, Device device = Device::host());
Tensor ones(const Shape& shape, DType dtype = DType::f32, Device device = Device::host());
Tensor full(const Shape& shape, Scalar value, DType dtype = DType::f32, Device device = Device::host());
Tensor zeros_like(const Tensor& x);
Tensor ones_like(const Tensor& x);
Tensor full_like(const Tensor& x, Scalar value);
// start, start+step, … below end (above end for a negative step). dtype default: i32 when all
// three are integers, else f32.
Tensor arange(Scalar end);
Tensor arange(Scalar start, Scalar end, Scalar step = 1);
Tensor arange(Scalar start, Scalar end, Scalar step, DType dtype, Device device = Device::host());
// `steps` values from start to end inclusive.
Tensor linspace(double start, double end, int64_t steps, DType dtype = DType::f32, Device device = Device::host());
// Identity matrix n×m (m = n when omitted or -1).
Tensor eye(int64_t n, int64_t m = -1, DType dtype = DType::f32, Device device = Device::host());

// ---- random numbers ---------------------------------------------------------------------------------
// A seedable generator (xoshiro256**, seeded through splitmix64). Values are drawn on the host in
// row-major order, so one seed gives the same tensor on every device and machine.
class Generator {
public:
    explicit Generator(uint64_t seed = 0) { manual_seed(seed); }
    void manual_seed(uint64_t seed);
    uint64_t next_u64();
    double next_double();  // uniform in [0, 1), 53 bits
    double next_normal();  // standard normal (Box–Muller)

private:
    uint64_t s_[4] = {};
    bool has_spare_ = false;
    double spare_ = 0;
};
// The process-wide generator that the functions below use when none is given (seed 0 at start).
Generator& default_generator();
void manual_seed(uint64_t seed);  // default_generator().manual_seed(seed)

Tensor rand(const Shape& shape, DType dtype = DType::f32, Device device = Device::host(),
            Generator& gen = default_generator());  // uniform [0, 1)
Tensor randn(const Shape& shape, DType dtype = DType::f32, Device device = Device::host(),
             Generator& gen = default_generator());  // standard normal
Tensor uniform(const Shape& shape, double low, double high, DType dtype = DType::f32,
               Device device = Device::host(), Generator& gen = default_generator());
// Integers uniform in [low, high).
Tensor randint(int64_t low, int64_t high, const Shape& shape, DType dtype = DType::i32,
               Device device = Device::host(), Generator& gen = default_generator());

// ---- functions of several tensors ------------------------------------------------------------------
// cond must be bool; x and y promote together; all three broadcast.
Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y);
Tensor where(const Tensor& cond, const Tensor& x, Scalar y);
Tensor where(const Tensor& cond, Scalar x, const Tensor& y);
Tensor where(const Tensor& cond, Scalar x, Scalar y);
Tensor maximum(const Tensor& x, const Tensor& y);
Tensor minimum(const Tensor& x, const Tensor& y);
Tensor pow(const Tensor& x, const Tensor& y);
// Joins along an existing axis (sizes must match elsewhere; dtypes promote).
Tensor cat(const std::vector<Tensor>& tensors, int axis = 0);
// Joins along a new axis (all shapes equal).
Tensor stack(const std::vector<Tensor>& tensors, int axis = 0);
Tensor matmul(const Tensor& x, const Tensor& y);
Tensor dot(const Tensor& x, const Tensor& y);
// log(e^x + e^y), computed as max(x, y) + log1p(e^−|x − y|); equal infinities give themselves.
// Float-only; x and y promote and broadcast.
Tensor logaddexp(const Tensor& x, const Tensor& y);
// start + weight·(end − start); for |weight| >= 0.5 computed as end − (end − start)·(1 − weight)
// (exact at weight 1), as PyTorch. Float-only; the tensors promote and broadcast.
Tensor lerp(const Tensor& start, const Tensor& end, double weight);
Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight);
Tensor tril(const Tensor& x, int64_t diagonal = 0);  // x.tril(diagonal)
Tensor triu(const Tensor& x, int64_t diagonal = 0);  // x.triu(diagonal)
// x[i]·y[j] of 1-D x [n] and y [m]: shape [n, m]; dtypes promote as in `*`.
Tensor outer(const Tensor& x, const Tensor& y);
// The square matrix of side n + |diagonal| holding 1-D x [n] on its diagonal-th diagonal (0: the
// main one, > 0 above, < 0 below) and 0 elsewhere. PyTorch's 2-D → 1-D form is not provided.
Tensor diag(const Tensor& x, int64_t diagonal = 0);
// Realizes several tensors in one schedule (shared subexpressions computed once).
void realize(const std::vector<Tensor>& tensors);

// What the scheduler did since the program started or reset_runtime_stats() (for tools and
// demos; ZYX_DEBUG=sched logs each kernel).
struct RuntimeStats {
    uint64_t kernels = 0;     // kernels launched
    uint64_t compiles = 0;    // programs compiled
    uint64_t transfers = 0;   // buffers moved between devices
    uint64_t fallbacks = 0;   // kernels that ran on the host because their device refused them
    std::map<std::string, uint64_t> kernels_on;  // kernels per device ("host", "tt:0", …)
    std::string last_fallback;  // why the latest of the recent fallbacks happened ("" if none)
};
RuntimeStats runtime_stats();
void reset_runtime_stats();

// ---- neural-network functions ---------------------------------------------------------------------
// A size per spatial axis, (height, width): one number for both (`2`) or a pair (`{2, 3}`).
struct Size2d {
    int64_t h = 0, w = 0;
    Size2d(int64_t both) : h(both), w(both) {}  // NOLINT: implicit by design (conv2d(…, {.stride = 2}))
    Size2d(int64_t height, int64_t width) : h(height), w(width) {}
};

// x [N, C_in, H, W] (or [C_in, H, W]), weight [C_out, C_in / groups, KH, KW] (KH and KW may
// differ), bias [C_out] or undefined. Stride, padding and dilation: one number or (h, w).
// Output [N, C_out, OH, OW] with OH = (H + 2·padding.h − dilation.h·(KH − 1) − 1) / stride.h + 1,
// OW likewise. One kernel: the padded input is read through a masked view, windows are strided
// views.
struct Conv2dOptions {
    Size2d stride = 1;
    Size2d padding = 0;
    Size2d dilation = 1;
    int64_t groups = 1;
};
Tensor conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(), Conv2dOptions options = {});
// x [N, C, H, W] (or [C, H, W]); kernel, stride, padding (and dilation) are one number or (h, w);
// stride 0 (the default) means the kernel size; padding reads -inf (max) or 0 (avg, counted in
// the average as PyTorch's count_include_pad=true) and may be at most half the kernel.
Tensor max_pool2d(const Tensor& x, Size2d kernel_size, Size2d stride = 0, Size2d padding = 0, Size2d dilation = 1);
Tensor avg_pool2d(const Tensor& x, Size2d kernel_size, Size2d stride = 0, Size2d padding = 0);
// Normalises over the last normalized_shape.size() axes; weight/bias of normalized_shape or undefined.
Tensor layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& weight = Tensor(),
                  const Tensor& bias = Tensor(), double eps = 1e-5);
// logits [N, C] (or [C]), target class indices [N] (integer dtype; a 0-d tensor for [C]).
// Mean over the batch of −log_softmax(logits)[n, target[n]]. A target outside [0, C) contributes
// 0 (not checked, as it would need a read of the target).
Tensor cross_entropy(const Tensor& logits, const Tensor& target);
// Mean of (x − y)².
Tensor mse_loss(const Tensor& x, const Tensor& y);

// ---- template definitions ------------------------------------------------------------------------
namespace detail {
// Builds a tensor from n values of C++ type `from` at `data` (converted by the cast rules).
Tensor tensor_from_host(const void* data, DType from, size_t n, const Shape& shape, DType dtype, Device device);
[[noreturn]] void ragged_literal(size_t row, size_t got, size_t want);
}  // namespace detail

template <class T>
Tensor tensor(const std::vector<T>& values, const Shape& shape, DType dtype, Device device) {
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<uint8_t> raw(values.begin(), values.end());
        return detail::tensor_from_host(raw.data(), DType::bool_, raw.size(), shape, dtype, device);
    } else {
        return detail::tensor_from_host(values.data(), dtype_of<T>(), values.size(), shape, dtype, device);
    }
}

template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> rows) {
    std::vector<T> flat;
    size_t cols = rows.size() ? rows.begin()->size() : 0, r = 0;
    for (const auto& row : rows) {
        if (row.size() != cols) detail::ragged_literal(r, row.size(), cols);
        flat.insert(flat.end(), row.begin(), row.end());
        ++r;
    }
    return tensor(flat, Shape{int64_t(rows.size()), int64_t(cols)});
}

template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> blocks) {
    std::vector<T> flat;
    size_t rows = blocks.size() ? blocks.begin()->size() : 0;
    size_t cols = rows ? blocks.begin()->begin()->size() : 0, r = 0;
    for (const auto& block : blocks) {
        if (block.size() != rows) detail::ragged_literal(r, block.size(), rows);
        for (const auto& row : block) {
            if (row.size() != cols) detail::ragged_literal(r, row.size(), cols);
            flat.insert(flat.end(), row.begin(), row.end());
            ++r;
        }
    }
    return tensor(flat, Shape{int64_t(blocks.size()), int64_t(rows), int64_t(cols)});
}

}  // namespace zyx
