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

// (This header is the manual: its comment columns are laid out by hand.)
// clang-format off
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
// A tensor entry (an integer tensor of positions or a bool mask) makes the indexing "advanced"
// (numpy's word): see Tensor::index.
class Tensor;
struct Index {
    bool is_range = false;
    bool is_tensor = false;
    int64_t position = 0;
    Range range;
    std::shared_ptr<graph::Node> tensor;  // the tensor of a tensor entry
    Index(int64_t pos) : position(pos) {}  // NOLINT: implicit by design
    Index(int pos) : position(pos) {}      // NOLINT
    Index(Range r) : is_range(true), range(r) {}  // NOLINT
    Index(const Tensor& t);                // NOLINT
};

struct ValuesIndices;  // (values, indices) of max_with_indices, sort, topk, median: defined below

class Tensor {
public:
    // An undefined handle (defined() is false); every op on it throws InvalidArgument.
    Tensor() = default;
    bool defined() const { return node_ != nullptr; }

    // ---- properties --------------------------------------------------------------------------
    const Shape& shape() const;
    size_t dim() const;                // number of axes (0 for a scalar tensor)
    int64_t size(int axis) const;      // length of one axis (negative counts from the end)
    const Shape& size() const;         // the shape (PyTorch's size() without an axis)
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
    // A copy with a buffer of its own, also of a realized tensor (the gradient flows through).
    Tensor clone() const;
    // cast(other.dtype()).
    Tensor type_as(const Tensor& other) const;
    // The same values on another device (moved through the pools; nothing if already there).
    Tensor to(Device device) const;
    // PyTorch's to(dtype): the same as cast(dtype).
    Tensor to(DType dtype) const;
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
    // Bounds given as tensors (broadcasting; an undefined one is no bound; dtypes promote as in
    // where). x below min gives min, then above max gives max (so min > max gives max, as
    // PyTorch); at a bound the gradient goes to x; a NaN in x or in a float bound gives NaN.
    Tensor clamp(const Tensor& min, const Tensor& max) const;
    Tensor clamp_min(const Tensor& min) const;
    Tensor clamp_max(const Tensor& max) const;
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
    // Hyperbolic functions and their inverses (float only; integers compute in f32): acosh of
    // x < 1 and atanh of |x| > 1 are NaN, atanh(±1) = ±inf.
    Tensor sinh() const;
    Tensor cosh() const;
    Tensor asinh() const;
    Tensor acosh() const;
    Tensor atanh() const;
    // Inverse trigonometric functions (float only; integers and bool compute in f32, 16-bit
    // floats in f32 rounded once), in radians, as C and PyTorch: NaN gives NaN, signed zeros are
    // kept (asin(−0) = atan(−0) = −0). Composites of + − × ÷ √ and where (range reduction and
    // an odd polynomial): within 3 ulp of the exact result in f32, on every device. Gradients are
    // PyTorch's closed forms, NaN where those are NaN (atan2 at (0, 0), asin outside [−1, 1]);
    // where those are infinite (asin, acos at ±1) they are ± the largest finite value.
    Tensor asin() const;               // [−1, 1] → [−π/2, π/2]; outside [−1, 1] NaN
    Tensor acos() const;               // [−1, 1] → [0, π]; acos(1) = +0, outside [−1, 1] NaN
    Tensor atan() const;               // → (−π/2, π/2); atan(±inf) = ±π/2
    // The angle of the point (x, y) = (other, *this), in [−π, π]: y.atan2(x) as PyTorch, C's
    // atan2 with its whole table of zeros and infinities (atan2(±0, −0) = ±π, atan2(±0, +0) = ±0,
    // atan2(±inf, −inf) = ±3π/4, atan2(y ≠ 0, ±0) = ±π/2 …). Dtypes promote as `/` (integers and
    // bool give f32); the tensors broadcast. Numbers on either side: zyx::atan2 below.
    Tensor atan2(const Tensor& other) const;
    Tensor atan2(Scalar other) const;
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
    // Python's `//` (PyTorch's floor_divide, rounding toward -inf): integers give floor(x / y)
    // exactly, x // 0 = 0 (as `/` and `%` here: defined, never a trap); floats as PyTorch's
    // div(rounding_mode="floor") (x // 0 is ±inf or NaN). Dtypes promote as `+`; bool is refused.
    // Piecewise constant: the result records no gradient (as comparisons).
    Tensor floor_divide(const Tensor& y) const;
    Tensor floor_divide(Scalar y) const;
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
    // ---- more reductions, scans and orderings (src/api/scan.cpp; PyTorch's names and defaults) ----
    // Whether every / some element is nonzero (NaN counts as nonzero), bool; empty: all is
    // true, any is false.
    Tensor all() const;
    Tensor all(Axes axes, bool keepdim = false) const;
    Tensor any() const;
    Tensor any(Axes axes, bool keepdim = false) const;
    // PyTorch's amax / amin: the same as max(axes) / min(axes) (NaN propagates; tied elements
    // share the gradient evenly).
    Tensor amax() const;
    Tensor amax(Axes axes, bool keepdim = false) const;
    Tensor amin() const;
    Tensor amin(Axes axes, bool keepdim = false) const;
    // Number of nonzero elements (NaN counts), i32 like sum of bool (PyTorch: i64).
    Tensor count_nonzero() const;
    Tensor count_nonzero(Axes axes) const;
    // PyTorch's max(dim, keepdim) / min(dim, keepdim): the extreme values along one axis and the
    // index of the first one (a NaN wins, as argmax), i32 like argmax. The gradient of values goes
    // to that index only (as PyTorch; amax shares it among ties). Named apart from max(Axes).
    ValuesIndices max_with_indices(int axis, bool keepdim = false) const;
    ValuesIndices min_with_indices(int axis, bool keepdim = false) const;
    // Running sum / product along an axis (0-d: axis 0 or -1). Result dtype as sum / prod (bool
    // and 8/16-bit integers give i32, PyTorch: i64); 16-bit floats accumulate in f32. Lazy: log2(n)
    // shifted adds / multiplies (pad + crop), exact for integers, differentiable.
    Tensor cumsum(int axis) const;
    Tensor cumprod(int axis) const;
    // Vector norm over all elements or over `axes` (PyTorch's torch.norm / linalg.vector_norm):
    // p = 2 (default) sqrt(Σx²), 1 Σ|x|, INFINITY max|x|, -INFINITY min|x|, 0 the count of
    // nonzeros, any other p (Σ|x|^p)^(1/p); "fro" is p = 2 ("nuc" is Unsupported). Float-only
    // (integers compute in f32). Gradient of the 2-norm at 0 is 0 (as PyTorch).
    Tensor norm(double p = 2) const;
    Tensor norm(double p, Axes axes, bool keepdim = false) const;
    Tensor norm(const std::string& p) const;
    Tensor norm(const std::string& p, Axes axes, bool keepdim = false) const;
    // Orderings. These REALIZE their input (the order depends on the data): the permutation is
    // computed on the host by a stable sort (NaN is larger than every number, as PyTorch; equal
    // elements keep their order, also when descending) and uploaded to the input's device as
    // i32 indices. Values: when the input requires a gradient, a lazy one-hot selection from
    // the input on its device (differentiable, O(n²) work along the axis); otherwise the sorted
    // values themselves are uploaded. 0-d tensors take axis 0 or -1.
    ValuesIndices sort(int axis = -1, bool descending = false) const;
    Tensor argsort(int axis = -1, bool descending = false) const;
    // The k largest (smallest when largest = false) along an axis, in order (sorted = false
    // gives them sorted too); k in [0, size].
    ValuesIndices topk(int64_t k, int axis = -1, bool largest = true, bool sorted = true) const;
    // PyTorch's lower median (the element at position (n − 1) / 2 of the ascending order); a
    // row holding NaN gives NaN (its first NaN's index). Without an axis: of all elements, values
    // only (NaN for an empty float tensor).
    Tensor median() const;
    ValuesIndices median(int axis, bool keepdim = false) const;

    // ---- movement (views: free until something must be contiguous) -------------------------------
    // One size may be -1 (inferred).
    Tensor reshape(const Shape& shape) const;
    Tensor flatten(int start_axis = 0, int end_axis = -1) const;
    // New axis d is old axis axes[d].
    Tensor permute(const std::vector<int>& axes) const;
    Tensor transpose(int axis0 = -2, int axis1 = -1) const;
    // Size-1 axes stretch to the new size; new axes may be added at the front; -1 keeps a size.
    Tensor expand(const Shape& shape) const;
    Tensor expand_as(const Tensor& other) const;   // expand(other.shape())
    // PyTorch's view: reshape (every tensor here is a view until realized, so any shape of the
    // same element count is accepted, where PyTorch may refuse non-contiguous strides).
    Tensor view(const Shape& shape) const;
    // Transpose of a matrix; 0-d and 1-d tensors come back unchanged; rank > 2 is an error.
    Tensor t() const;
    // pairs {before, after} per axis, starting at axis 0 (fewer pairs than axes: the rest are
    // not padded). Negative amounts crop. Padding reads `value`.
    Tensor pad(const std::vector<std::pair<int64_t, int64_t>>& before_after, double value = 0) const;
    // Elements [begin, end) with a step along one axis. Negative positions count from the end;
    // positions outside [-size, size] or a step < 1 throw InvalidArgument.
    Tensor slice(int axis, int64_t begin, int64_t end = Range::kEnd, int64_t step = 1) const;
    // numpy-style indexing from axis 0: x.index({1, Range(0, 4, 2)}) is x[1, 0:4:2]. Tensor entries
    // (advanced indexing, x[i0, i1, …] in numpy) are described at "indexing with tensors" below.
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

    // ---- in-place ops and assignment (src/api/indexing.cpp) ----------------------------------------
    // The lazy rule: an in-place op rebinds *this handle to a new node computing the new value
    // (`x += y` is `x = (x + y).cast(x.dtype())`); nothing is written into a buffer, and every other
    // handle to the old value (copies of x made before, views such as x.slice(…)) keeps the old
    // value. Unlike PyTorch, a view does not alias its base: `x.slice(0, 0, 2).zero_()` changes
    // only that view's handle; write through the base with index_put_ instead.
    // As PyTorch: the result keeps x's shape, dtype and device. The other operand broadcasts to
    // x's shape (not the reverse: InvalidArgument naming both shapes), and the result dtype of the
    // out-of-place op must cast to x's dtype under PyTorch's rule (no floating → integer or bool,
    // no integer → bool): `i32 += 0.5` throws "add_: result type f32 can't be cast to the desired
    // output type i32".
    // Autograd: on a leaf that requires grad an in-place op throws ("a leaf tensor that requires
    // grad is being used in an in-place operation") unless gradients are off (NoGradGuard, as
    // optimisers do); then the new value is realized and assign()ed to the leaf, so every handle of
    // the parameter sees it and it stays a leaf that requires grad. On any other tensor the new node
    // records its gradient as the out-of-place op would.
    Tensor& operator+=(const Tensor& y);
    Tensor& operator-=(const Tensor& y);
    Tensor& operator*=(const Tensor& y);
    Tensor& operator/=(const Tensor& y);
    Tensor& operator+=(Scalar y);
    Tensor& operator-=(Scalar y);
    Tensor& operator*=(Scalar y);
    Tensor& operator/=(Scalar y);
    Tensor& add_(const Tensor& y, Scalar alpha = 1);  // x += alpha · y
    Tensor& add_(Scalar y, Scalar alpha = 1);
    Tensor& sub_(const Tensor& y, Scalar alpha = 1);  // x -= alpha · y
    Tensor& sub_(Scalar y, Scalar alpha = 1);
    Tensor& mul_(const Tensor& y);
    Tensor& mul_(Scalar y);
    Tensor& div_(const Tensor& y);                    // true division: an integer x throws
    Tensor& div_(Scalar y);
    // value where the bool `mask` is true, x elsewhere (lazy: a where). mask broadcasts with x (for
    // masked_fill_ only to x's shape); the value is converted to x's dtype by the cast rules (a
    // tensor value must be 0-d, as PyTorch).
    Tensor masked_fill(const Tensor& mask, Scalar value) const;
    Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
    Tensor& masked_fill_(const Tensor& mask, Scalar value);
    Tensor& masked_fill_(const Tensor& mask, const Tensor& value);
    // src broadcast to x's shape, converted to x's dtype (any cast) and moved to x's device.
    Tensor& copy_(const Tensor& src);
    Tensor& fill_(Scalar value);
    Tensor& fill_(const Tensor& value);  // a 0-d tensor
    Tensor& zero_();
    // Assignment through indexing, PyTorch's index_put / index_put_ (libtorch's spelling:
    // x.index_put_({Range(0, 2), 1}, v) is numpy's x[0:2, 1] = v). `indices` are those of
    // x.index(indices), including tensor entries; values broadcast to the shape x.index(indices)
    // has, and every other element keeps x's value. accumulate adds the values instead (with
    // integer tensors, a position named several times gets all its values added); without it a
    // position named several times receives the sum of its values (PyTorch leaves that case
    // undefined). A position out of range in an integer tensor writes nowhere (PyTorch raises;
    // checking would need a read of the indices). Lazy: ranges and integers are pads and a where
    // (views, fused with the consumer); integer tensors are a one-hot comparison with an arange
    // reduced over the index (O(numel(x) · index count) work); a bool mask realizes the mask.
    Tensor index_put(const std::vector<Index>& indices, const Tensor& values, bool accumulate = false) const;
    Tensor& index_put_(const std::vector<Index>& indices, const Tensor& values, bool accumulate = false);
    Tensor& index_put_(const std::vector<Index>& indices, Scalar value);

    // ---- indexing with tensors (src/api/indexing.cpp) ------------------------------------------------
    // Index tensors have an integer dtype (i32 and i64 as PyTorch's Long; any integer dtype is
    // taken). Positions are data: dtypes, ranks and shapes are checked when the op is built; a
    // position out of range is not checked (that would need a read) and has a defined result:
    // gather, index_select, take_along_dim and embedding read 0 there, scatter and scatter_add
    // write nowhere. These four do not take negative positions (as PyTorch, where they raise):
    // a negative position is out of range. All are lazy composites — a comparison of the index with
    // an arange along the indexed axis, a where and a sum — so they fuse, run on tt:0 and have
    // gradients (with respect to x and src; none with respect to the indices). The sum loses the
    // sign of a selected -0.0 (it reads +0.0); NaN and ±inf are carried.
    // out[i][j][k] = x[index[i][j][k]][j][k] (dim 0; likewise for the others). index has x's rank
    // and index.size(d) <= x.size(d) for d != dim; the result has index's shape and x's dtype.
    Tensor gather(int dim, const Tensor& index) const;
    // A copy of x with out[index[i][j][k]][j][k] = src[i][j][k] (dim 0): index has x's rank,
    // index.size(d) <= src.size(d) for every d and <= x.size(d) for d != dim; src is cast to x's
    // dtype. A position named several times receives the sum of its values (PyTorch: undefined).
    Tensor scatter(int dim, const Tensor& index, const Tensor& src) const;
    Tensor scatter(int dim, const Tensor& index, Scalar value) const;
    // The same, adding into x (duplicates add up).
    Tensor scatter_add(int dim, const Tensor& index, const Tensor& src) const;
    Tensor& scatter_(int dim, const Tensor& index, const Tensor& src);
    Tensor& scatter_(int dim, const Tensor& index, Scalar value);
    Tensor& scatter_add_(int dim, const Tensor& index, const Tensor& src);
    // Positions `index` (1-D or 0-d) along `dim`: the result has x's shape with size(dim) =
    // index.numel() (a 0-d x takes dim 0 or -1 and gives shape [index.numel()]).
    Tensor index_select(int dim, const Tensor& index) const;
    // gather with x and indices broadcast on every axis but dim (both of the same rank); without
    // dim, over the flattened x with flattened indices (a 1-D result).
    Tensor take_along_dim(const Tensor& indices, std::optional<int> dim = std::nullopt) const;
    // Advanced indexing, x.index({…}) (declared with the movement ops) and x.index_put(…) with
    // tensor entries (numpy's x[i0, i1, …]; a one-hot selection as above): integer tensors
    // broadcast together to a shape B; they must be consecutive entries, mixed only with Ranges
    // (not integers: Unsupported), and B takes the place of the axes they index (numpy's rule for
    // one block). Negative positions count from the end; a position outside [-size, size) reads 0.
    // A bool tensor (the only tensor entry) stands for the integer positions where it is true, in
    // row-major order, over as many axes as it has (its shape must match them): x.index({mask}) is
    // x[mask]. That result's shape depends on data, so a bool entry REALIZES THE MASK (the
    // selection itself stays lazy).
    // The positions of non-zero elements (NaN counts as non-zero), one row per element in
    // row-major order: [count, dim()] i32 (PyTorch: i64). REALIZES x.
    Tensor nonzero() const;
    // The elements of x where the bool mask is true, x and mask broadcast together, row-major, as
    // a 1-D tensor. REALIZES THE MASK (x stays lazy).
    Tensor masked_select(const Tensor& mask) const;

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

// PyTorch's (values, indices) pair: `auto [v, i] = x.sort();`. indices are i32 (as argmax).
struct ValuesIndices {
    Tensor values;
    Tensor indices;
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
// A number on either side of every other operator (1 < x is x > 1; 2 << x shifts 2): the number
// is a 0-d tensor of the dtype the tensor-with-number rules give.
Tensor operator==(Scalar x, const Tensor& y);
Tensor operator!=(Scalar x, const Tensor& y);
Tensor operator<(Scalar x, const Tensor& y);
Tensor operator<=(Scalar x, const Tensor& y);
Tensor operator>(Scalar x, const Tensor& y);
Tensor operator>=(Scalar x, const Tensor& y);
Tensor operator&(const Tensor& x, Scalar y);
Tensor operator|(const Tensor& x, Scalar y);
Tensor operator^(const Tensor& x, Scalar y);
Tensor operator<<(const Tensor& x, Scalar y);
Tensor operator>>(const Tensor& x, Scalar y);
Tensor operator&(Scalar x, const Tensor& y);
Tensor operator|(Scalar x, const Tensor& y);
Tensor operator^(Scalar x, const Tensor& y);
Tensor operator<<(Scalar x, const Tensor& y);
Tensor operator>>(Scalar x, const Tensor& y);
// C++ has no `//`: floor_divide is Python's x // y (see Tensor::floor_divide), numbers on either side.
Tensor floor_divide(const Tensor& x, const Tensor& y);
Tensor floor_divide(const Tensor& x, Scalar y);
Tensor floor_divide(Scalar x, const Tensor& y);
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
// PyTorch's empty: a tensor whose values are unspecified; here they are zeros.
Tensor empty(const Shape& shape, DType dtype = DType::f32, Device device = Device::host());
Tensor empty_like(const Tensor& x);

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
// The same with the shape, dtype and device of x (randint_like(x, high) draws in [0, high)).
Tensor rand_like(const Tensor& x, Generator& gen = default_generator());
Tensor randn_like(const Tensor& x, Generator& gen = default_generator());
Tensor randint_like(const Tensor& x, int64_t high, Generator& gen = default_generator());
Tensor randint_like(const Tensor& x, int64_t low, int64_t high, Generator& gen = default_generator());
// A random permutation of 0 … n − 1 (Fisher–Yates on the host), i32 by default (PyTorch: i64).
Tensor randperm(int64_t n, DType dtype = DType::i32, Device device = Device::host(),
                Generator& gen = default_generator());
// 1 with probability p, else 0, per element of the float tensor p (values in [0, 1], checked:
// REALIZES p); the result has p's shape, dtype and device and no gradient.
Tensor bernoulli(const Tensor& p, Generator& gen = default_generator());
// Category indices drawn from the weights in each row of probs ([n] or [rows, n]; nonnegative,
// finite, a positive sum; need not sum to 1): shape [num_samples] or [rows, num_samples], i32
// (PyTorch: i64). Without replacement a category is drawn at most once per row, so num_samples
// may not exceed the row's nonzero weights. REALIZES probs; drawn on the host, uploaded.
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement = false,
                   Generator& gen = default_generator());

// ---- functions of several tensors ------------------------------------------------------------------
// cond must be bool; x and y promote together; all three broadcast.
Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y);
Tensor where(const Tensor& cond, const Tensor& x, Scalar y);
Tensor where(const Tensor& cond, Scalar x, const Tensor& y);
Tensor where(const Tensor& cond, Scalar x, Scalar y);
Tensor maximum(const Tensor& x, const Tensor& y);
Tensor minimum(const Tensor& x, const Tensor& y);
Tensor pow(const Tensor& x, const Tensor& y);
Tensor pow(const Tensor& x, Scalar y);        // x.pow(y)
Tensor pow(Scalar x, const Tensor& y);        // 2^y elementwise (the number as a 0-d tensor)
// maximum / minimum with a number on either side (NaN if either is NaN).
Tensor maximum(const Tensor& x, Scalar y);
Tensor maximum(Scalar x, const Tensor& y);
Tensor minimum(const Tensor& x, Scalar y);
Tensor minimum(Scalar x, const Tensor& y);
// y.atan2(x) (PyTorch's torch.atan2(input, other)); a number on either side is a 0-d tensor of
// the dtype the tensor-with-number rules give (atan2(1, x) of an f16 x computes in f16 → f16).
Tensor atan2(const Tensor& y, const Tensor& x);
Tensor atan2(const Tensor& y, Scalar x);
Tensor atan2(Scalar y, const Tensor& x);
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
// Einstein summation, numpy's and PyTorch's einsum without ellipsis: "ij,jk->ik", "bij,bjk->bik",
// "ii->i" (a diagonal), "ij->ji", "i,i->" (a dot product), "ij" (implicit output: the labels that
// appear once, in alphabetical order). Labels are letters; a label's axes must have equal sizes.
// Lowered to permutes, diagonals, broadcasts, one product and one sum over the labels left out
// (the contracted labels last, so two operands sharing one label take matmul's path). Dtypes
// promote as *; bool is refused.
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);
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
// logits [N, C] (or [C]), target class indices [N] (integer dtype; a 0-d tensor for [C]): the
// mean over the batch of −log_softmax(logits)[n, target[n]], with PyTorch's defaults — the same
// as cross_entropy(logits, target, {}) below: a target equal to −100 is ignored (left out of the
// mean); one outside [0, C) contributes 0 and is left out too (not checked: it is data).
Tensor cross_entropy(const Tensor& logits, const Tensor& target);
// Rows of weight [num_embeddings, D] picked by the integer tensor input (any shape): the result
// is input.shape + [D] (PyTorch's F.embedding(input, weight), without padding_idx or max_norm).
// A position outside [0, num_embeddings) reads a row of zeros (not checked: it is data).
Tensor embedding(const Tensor& input, const Tensor& weight);
// Mean of (x − y)².
Tensor mse_loss(const Tensor& x, const Tensor& y);

// ---- more neural-network functions (src/api/nn_functional.cpp; PyTorch's torch.nn.functional) ----
// All are composites of the ops above: they fuse, run on every device and have gradients.
//
// x [.., in] · weightᵀ + bias: weight [out, in], bias [out] or undefined.
Tensor linear(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor());
// Zeroes each element with probability p and scales the others by 1/(1 − p) when training;
// returns x itself when not training or p = 0. p in [0, 1]; floating dtypes only. The mask is
// drawn from `gen` (rand) on x's device.
Tensor dropout(const Tensor& x, double p = 0.5, bool training = true, Generator& gen = default_generator());
// x [N, C_in, L] (or [C_in, L]), weight [C_out, C_in / groups, K]: conv2d over a height of 1.
struct Conv1dOptions {
    int64_t stride = 1;
    int64_t padding = 0;
    int64_t dilation = 1;
    int64_t groups = 1;
};
Tensor conv1d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(), Conv1dOptions options = {});
// The gradient of conv2d with respect to its input (PyTorch's conv_transpose2d): x [N, C_in, H, W]
// (or 3-D), weight [C_in, C_out / groups, KH, KW], bias [C_out]. Output height
// (H − 1)·stride − 2·padding + dilation·(KH − 1) + output_padding + 1 (width likewise);
// output_padding < max(stride, dilation). Built as a conv2d of the input with stride − 1 zeros
// between its elements, padded by dilation·(K − 1) − padding, with the kernel flipped.
struct ConvTranspose2dOptions {
    Size2d stride = 1;
    Size2d padding = 0;
    Size2d output_padding = 0;
    int64_t groups = 1;
    Size2d dilation = 1;
};
Tensor conv_transpose2d(const Tensor& x, const Tensor& weight, const Tensor& bias = Tensor(),
                        ConvTranspose2dOptions options = {});

// Pooling with all of PyTorch's options. stride 0 means the kernel size; padding at most half the
// kernel. ceil_mode: the output size rounds up (a last window that would start in the right
// padding is dropped, as PyTorch). avg: count_include_pad counts the padding in the divisor
// (never the extra right-hand cells of ceil_mode); divisor_override, when > 0, replaces the
// divisor. max_pool2d ignores the two avg options; avg_pool2d has no dilation (must be 1).
struct Pool2dOptions {
    Size2d stride = 0;
    Size2d padding = 0;
    Size2d dilation = 1;
    bool ceil_mode = false;
    bool count_include_pad = true;
    int64_t divisor_override = 0;
};
Tensor max_pool2d(const Tensor& x, Size2d kernel_size, const Pool2dOptions& options);
Tensor avg_pool2d(const Tensor& x, Size2d kernel_size, const Pool2dOptions& options);
// x [N, C, H, W] (or 3-D) pooled to output_size: output cell i covers input rows
// floor(i·H/OH) to ceil((i + 1)·H/OH) − 1 (likewise columns), as PyTorch. avg computes in a
// floating dtype; max keeps the dtype (NaN wins). Separable: columns first, then rows.
Tensor adaptive_avg_pool2d(const Tensor& x, Size2d output_size);
Tensor adaptive_max_pool2d(const Tensor& x, Size2d output_size);
// Resizes the last two axes of x [N, C, H, W] (or 3-D) to `size`, or by `scale_factor` (output
// floor(H·scale)); exactly one of the two is given. mode "nearest" (PyTorch's legacy nearest:
// source row floor(i·H/OH), or floor(i / scale) with a scale factor) or "bilinear" (align_corners
// false: source position (i + ½)·H/OH − ½, clamped at 0; true: i·(H − 1)/(OH − 1)). Each output
// row is a weighted sum of the at most two source rows it reads (a NaN elsewhere does not leak in).
struct InterpolateOptions {
    std::optional<Size2d> size;
    std::optional<std::pair<double, double>> scale_factor;
    std::string mode = "nearest";
    bool align_corners = false;
};
Tensor interpolate(const Tensor& x, const InterpolateOptions& options);

// Normalisation over the batch and spatial axes of x [N, C, …] per channel. training: batch
// statistics (biased variance), and running_mean / running_var (when defined, [C]) are updated
// in place (assign, without gradient) with momentum and the unbiased variance, as PyTorch;
// otherwise the running statistics are used (they must be defined). weight, bias [C] or undefined.
Tensor batch_norm(const Tensor& x, const Tensor& running_mean, const Tensor& running_var, const Tensor& weight = Tensor(),
                  const Tensor& bias = Tensor(), bool training = false, double momentum = 0.1, double eps = 1e-5);
// x [N, C, …] normalised over each group of C / num_groups channels and all other axes (biased
// variance), then weight and bias [C] per channel.
Tensor group_norm(const Tensor& x, int64_t num_groups, const Tensor& weight = Tensor(), const Tensor& bias = Tensor(),
                  double eps = 1e-5);

// ---- losses with PyTorch's options --------------------------------------------------------------
// none: one loss per element (or per sample); mean: their mean (weighted where a loss says so);
// sum: their sum; batchmean: kl_div only, the sum divided by the batch size x.size(0).
enum class Reduction : uint8_t { none, mean, sum, batchmean };
struct NllLossOptions {
    Tensor weight;               // [C] per-class weights, or undefined (all 1)
    int64_t ignore_index = -100; // targets equal to it contribute nothing (not counted in the mean)
    Reduction reduction = Reduction::mean;
};
// log_probs [N, C] (or [C], or [N, C, d1, …]) and class indices target [N] ([], [N, d1, …]): the
// loss of element n is −weight[t]·log_probs[n, t] with t = target[n]. mean divides the sum by the
// sum of the weights of the targets not ignored (all ignored: NaN, as PyTorch). A target outside
// [0, C) and not ignore_index contributes 0 and is left out of the mean (not checked: it is data).
Tensor nll_loss(const Tensor& log_probs, const Tensor& target, const NllLossOptions& options = {});
struct CrossEntropyOptions {
    Tensor weight;
    int64_t ignore_index = -100;
    Reduction reduction = Reduction::mean;
    double label_smoothing = 0;  // in [0, 1]
};
// nll_loss of log_softmax(logits) over axis 1 (0 for [C] logits). target holds class indices, or
// class probabilities of logits' shape (a floating dtype: loss −Σ_c weight[c]·target[c]·log_p[c],
// mean over the N·d1·… samples). label_smoothing ε mixes the target with the uniform
// distribution: (1 − ε)·nll + ε/C·(−Σ_c weight[c]·log_p[c]), reduced as PyTorch.
Tensor cross_entropy(const Tensor& logits, const Tensor& target, const CrossEntropyOptions& options);
// −weight·(y·log p + (1 − y)·log(1 − p)), each log clamped at −100 (as PyTorch); p in [0, 1].
// weight broadcasts to p's shape or is undefined.
Tensor binary_cross_entropy(const Tensor& p, const Tensor& y, const Tensor& weight = Tensor(),
                            Reduction reduction = Reduction::mean);
// The same of sigmoid(x), computed stably: (1 − y)·x + (1 + (pos_weight − 1)·y)·(log(1 + e^−|x|)
// + max(−x, 0)), times weight. pos_weight broadcasts along the last axis (per class) or is undefined.
Tensor binary_cross_entropy_with_logits(const Tensor& x, const Tensor& y, const Tensor& weight = Tensor(),
                                        const Tensor& pos_weight = Tensor(), Reduction reduction = Reduction::mean);
Tensor mse_loss(const Tensor& x, const Tensor& y, Reduction reduction);
Tensor l1_loss(const Tensor& x, const Tensor& y, Reduction reduction = Reduction::mean);  // |x − y|
// ½d²/beta where |d| < beta, else |d| − ½beta (d = x − y); beta = 0 is l1_loss.
Tensor smooth_l1_loss(const Tensor& x, const Tensor& y, Reduction reduction = Reduction::mean, double beta = 1.0);
// Kullback–Leibler divergence of the input log-probabilities x from target: target·(log target − x)
// (0 where target is 0), or e^target·(target − x) with log_target. PyTorch's default reduction
// mean averages over every element; batchmean (the true KL divergence) divides by x.size(0).
Tensor kl_div(const Tensor& x, const Tensor& target, Reduction reduction = Reduction::mean, bool log_target = false);

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
// clang-format on
