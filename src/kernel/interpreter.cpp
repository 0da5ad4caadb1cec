// The reference interpreter. Every value is held as raw bits of its *carrier* type: double for
// f64, float for f32/f16/bf16, the integer type itself, bool. Each op is written once as a
// template over the carrier type with ordinary C++ arithmetic; integer arithmetic goes through a
// wide unsigned type so that overflow wraps instead of being undefined.
#include "kernel/interpreter.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/error.hpp"
#include "kernel/analysis.hpp"

namespace zyx::kernel {
namespace {

template <class T>
T as(uint64_t raw) {
    T t;
    std::memcpy(&t, &raw, sizeof(T));
    return t;
}
template <class T>
uint64_t raw_of(T t) {
    uint64_t raw = 0;
    std::memcpy(&raw, &t, sizeof(T));
    return raw;
}

// Calls f(T{}) with T the carrier type of dtype t.
template <class F>
auto dispatch(DType t, F&& f) {
    switch (t) {
        case DType::f64: return f(double{});
        case DType::f32:
        case DType::f16:
        case DType::bf16: return f(float{});
        case DType::i8: return f(int8_t{});
        case DType::i16: return f(int16_t{});
        case DType::i32: return f(int32_t{});
        case DType::i64: return f(int64_t{});
        case DType::u8: return f(uint8_t{});
        case DType::u16: return f(uint16_t{});
        case DType::u32: return f(uint32_t{});
        case DType::u64: return f(uint64_t{});
        case DType::bool_: return f(bool{});
    }
    return f(float{});
}

// Unsigned type wide enough that arithmetic on it never promotes to a signed int.
template <class T>
using Wide = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

// ---- memory bits <-> carrier ---------------------------------------------------------------------

uint64_t carrier_from_bits(DType t, uint64_t bits) {
    switch (t) {
        case DType::f16: return raw_of(f16_to_f32(uint16_t(bits)));
        case DType::bf16: return raw_of(bf16_to_f32(uint16_t(bits)));
        case DType::bool_: return raw_of(bool((bits & 0xff) != 0));
        default: {
            size_t n = dtype_size(t);
            return n == 8 ? bits : bits & ((uint64_t(1) << (8 * n)) - 1);
        }
    }
}

uint64_t bits_from_carrier(DType t, uint64_t raw) {
    switch (t) {
        case DType::f16: return f32_to_f16(as<float>(raw));
        case DType::bf16: return f32_to_bf16(as<float>(raw));
        case DType::bool_: return as<bool>(raw) ? 1 : 0;
        default: return raw;
    }
}

// Raw bits of dtype t with everything above its size cleared.
uint64_t stored_bits(DType t, uint64_t bits) {
    size_t n = dtype_size(t);
    return n == 8 ? bits : bits & ((uint64_t(1) << (8 * n)) - 1);
}

// The bits a bitcast reinterprets when its operand is a computed value (arithmetic, cast, where,
// reduce …): its bits, except that every NaN of a float dtype reads as its canonical quiet NaN
// (NaN sign and payload of arithmetic differ between compile-time folding and run time, so they
// are left unspecified, docs/ir.md §4). Stored values are not read through here (Evaluator).
uint64_t bitcast_bits(DType t, uint64_t raw) {
    if (dtype_is_float(t)) {
        bool nan = t == DType::f64 ? std::isnan(as<double>(raw)) : std::isnan(as<float>(raw));
        if (nan) return canonical_nan_bits(t);
    }
    return bits_from_carrier(t, raw);
}

uint64_t read_bits(DType t, const uint8_t* base, int64_t element) {
    uint64_t bits = 0;
    std::memcpy(&bits, base + element * int64_t(dtype_size(t)), dtype_size(t));
    return bits;
}

// ---- conversions -------------------------------------------------------------------------------

// Value conversion of x to carrier T for dtype `to` (the cast rules of interpreter.hpp).
template <class T, class F>
T convert(F x, DType to) {
    if constexpr (std::is_same_v<T, bool>) {
        return x != F(0);
    } else if constexpr (std::is_floating_point_v<T>) {
        T r = std::is_same_v<F, bool> ? T(x ? 1 : 0) : T(x);
        if (to == DType::f16) r = f16_to_f32(f32_to_f16(float(r)));
        if (to == DType::bf16) r = bf16_to_f32(f32_to_bf16(float(r)));
        return r;
    } else if constexpr (std::is_floating_point_v<F>) {
        double d = double(x);
        if (d != d) return T(0);
        d = std::trunc(d);
        double hi = std::ldexp(1.0, std::numeric_limits<T>::digits);  // 2^31 for i32, 2^32 for u32
        if (d >= hi) return std::numeric_limits<T>::max();
        if (d <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
        return T(d);
    } else {
        return T(x);  // integer → integer: modulo 2^bits (C++20)
    }
}

uint64_t cast_raw(DType from, DType to, uint64_t raw) {
    return dispatch(from, [&](auto f) {
        using F = decltype(f);
        F x = as<F>(raw);
        return dispatch(to, [&](auto t) {
            using T = decltype(t);
            return raw_of(convert<T>(x, to));
        });
    });
}

// ---- ops ---------------------------------------------------------------------------------------

template <class T>
T unary_op(Op op, T x) {
    if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
            case Op::neg: return -x;
            case Op::exp: return std::exp(x);
            case Op::exp2: return std::exp2(x);
            case Op::log: return std::log(x);
            case Op::log2: return std::log2(x);
            case Op::sqrt: return std::sqrt(x);
            case Op::rsqrt: return T(1) / std::sqrt(x);
            case Op::recip: return T(1) / x;
            case Op::sin: return std::sin(x);
            case Op::cos: return std::cos(x);
            case Op::tanh: return std::tanh(x);
            case Op::sigmoid: return T(1) / (T(1) + std::exp(-x));
            case Op::erf: return std::erf(x);  // erff in the f32 carrier of f32/f16/bf16, erf for f64
            case Op::relu: return x < T(0) ? T(0) : x;
            case Op::abs: return std::fabs(x);
            case Op::floor: return std::floor(x);
            case Op::ceil: return std::ceil(x);
            case Op::round: return std::nearbyint(x);
            case Op::sign: return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;
            default: break;
        }
    } else if constexpr (std::is_same_v<T, bool>) {
        if (op == Op::bit_not) return !x;
    } else {
        using W = Wide<T>;
        switch (op) {
            case Op::neg: return T(W(0) - W(x));
            case Op::floor:
            case Op::ceil:
            case Op::round: return x;
            case Op::bit_not: return T(~W(x));
            default: break;
        }
        if constexpr (std::is_signed_v<T>) {
            switch (op) {
                case Op::relu: return x < 0 ? T(0) : x;
                case Op::abs: return x < 0 ? T(W(0) - W(x)) : x;
                case Op::sign: return x > 0 ? T(1) : x < 0 ? T(-1) : T(0);
                default: break;
            }
        } else {
            switch (op) {
                case Op::relu:
                case Op::abs: return x;
                case Op::sign: return x > 0 ? T(1) : T(0);
                default: break;
            }
        }
    }
    throw Error(ErrorStatus::Internal,
                "interpreter: unary " + std::string(op_name(op)) + " reached an unsupported dtype");
}

template <class T>
T int_pow(T b, T e) {
    if constexpr (std::is_signed_v<T>) {
        if (e < 0) return b == 1 ? T(1) : b == -1 ? ((e & 1) ? T(-1) : T(1)) : T(0);
    }
    using W = Wide<T>;
    W r = 1, base = W(b);
    uint64_t n = uint64_t(e);
    while (n) {
        if (n & 1) r = W(r * base);
        base = W(base * base);
        n >>= 1;
    }
    return T(r);
}

// Binary ops whose result has the operand dtype.
template <class T>
T binary_op(Op op, T a, T b) {
    if constexpr (std::is_same_v<T, bool>) {
        switch (op) {
            case Op::max:
            case Op::bit_or: return a || b;
            case Op::min:
            case Op::bit_and: return a && b;
            case Op::bit_xor: return a != b;
            default: break;
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        switch (op) {
            case Op::add: return a + b;
            case Op::sub: return a - b;
            case Op::mul: return a * b;
            case Op::div: return a / b;
            case Op::pow: return std::pow(a, b);
            case Op::mod: return std::fmod(a, b);
            case Op::max: return a != a ? a : b != b ? b : a > b ? a : b;
            case Op::min: return a != a ? a : b != b ? b : a < b ? a : b;
            default: break;
        }
    } else {
        using W = Wide<T>;
        constexpr int bits = int(8 * sizeof(T));
        switch (op) {
            case Op::add: return T(W(a) + W(b));
            case Op::sub: return T(W(a) - W(b));
            case Op::mul: return T(W(W(a) * W(b)));
            case Op::div:
                if (b == 0) return T(0);
                if constexpr (std::is_signed_v<T>)
                    if (a == std::numeric_limits<T>::min() && b == T(-1)) return a;
                return T(a / b);
            case Op::mod:
                if (b == 0) return T(0);
                if constexpr (std::is_signed_v<T>)
                    if (b == T(-1)) return T(0);
                return T(a % b);
            case Op::pow: return int_pow(a, b);
            case Op::max: return a > b ? a : b;
            case Op::min: return a < b ? a : b;
            case Op::bit_and: return T(a & b);
            case Op::bit_or: return T(a | b);
            case Op::bit_xor: return T(a ^ b);
            case Op::shl: {
                bool out = uint64_t(b) >= uint64_t(bits);  // a negative b is huge as unsigned
                return out ? T(0) : T(W(W(a) << int(b)));
            }
            case Op::shr: {
                bool out = uint64_t(b) >= uint64_t(bits);
                if constexpr (std::is_signed_v<T>)
                    if (out) return a < 0 ? T(-1) : T(0);
                return out ? T(0) : T(a >> int(b));
            }
            default: break;
        }
    }
    throw Error(ErrorStatus::Internal,
                "interpreter: binary " + std::string(op_name(op)) + " reached an unsupported dtype");
}

// Binary ops whose result is bool.
template <class T>
bool predicate_op(Op op, T a, T b) {
    switch (op) {
        case Op::cmp_lt: return a < b;
        case Op::cmp_le: return a <= b;
        case Op::cmp_gt: return a > b;
        case Op::cmp_ge: return a >= b;
        case Op::cmp_eq: return a == b;
        case Op::cmp_ne: return a != b;
        case Op::logical_and: return a != T(0) && b != T(0);
        case Op::logical_or: return a != T(0) || b != T(0);
        case Op::logical_xor: return (a != T(0)) != (b != T(0));
        default: break;
    }
    throw Error(ErrorStatus::Internal, "interpreter: not a predicate: " + std::string(op_name(op)));
}

struct Evaluator {
    const Kernel& k;
    std::span<const BufferRef> buffers;
    std::span<const uint64_t> scalars;
    std::vector<uint64_t> vals;

    // The bits bitcast node `n` reinterprets (docs/ir.md §4). A chain of bitcasts is one
    // reinterpretation of the bits of its first non-bitcast operand (the root). A root that is a
    // load, constant or scalar gives its stored bits exactly — a 16-bit float's raw pattern, not
    // its f32 carrier, so signalling NaNs and payloads survive; any other root is a computed
    // value whose NaN reads as the canonical quiet NaN.
    uint64_t bitcast_source_bits(const Node& n, const int64_t* idx) {
        size_t r = size_t(n.src[0]);
        while (k.nodes[r].op == Op::bitcast) r = size_t(k.nodes[r].src[0]);
        const Node& root = k.nodes[r];
        switch (root.op) {
            case Op::load: {
                const Input& in = k.inputs[root.arg];
                int64_t off;
                if (!in.view.element(idx, &off)) return stored_bits(in.dtype, in.pad_value);
                return read_bits(in.dtype, (const uint8_t*)buffers[root.arg].data, off);
            }
            case Op::constant: return stored_bits(root.dtype, root.value);
            case Op::scalar: return stored_bits(root.dtype, scalars[root.arg]);
            default: return bitcast_bits(root.dtype, vals[r]);
        }
    }

    uint64_t eval(size_t i, const int64_t* idx) {
        const Node& n = k.nodes[i];
        auto v = [&](int s) { return vals[size_t(n.src[s])]; };
        auto src_t = [&](int s) { return k.nodes[size_t(n.src[s])].dtype; };
        switch (n.op) {
            case Op::load: {
                const Input& in = k.inputs[n.arg];
                int64_t off;
                if (!in.view.element(idx, &off)) return carrier_from_bits(in.dtype, in.pad_value);
                return carrier_from_bits(in.dtype, read_bits(in.dtype, (const uint8_t*)buffers[n.arg].data, off));
            }
            case Op::constant: return carrier_from_bits(n.dtype, n.value);
            case Op::scalar: return carrier_from_bits(n.dtype, scalars[n.arg]);
            case Op::index: return cast_raw(DType::i64, n.dtype, raw_of(idx[n.arg]));
            case Op::where: return as<bool>(v(0)) ? v(1) : v(2);
            case Op::cast: return cast_raw(src_t(0), n.dtype, v(0));
            case Op::bitcast: return carrier_from_bits(n.dtype, bitcast_source_bits(n, idx));
            case Op::logical_not:
                return dispatch(src_t(0), [&](auto z) { return raw_of(as<decltype(z)>(v(0)) == decltype(z)(0)); });
            default: break;
        }
        if (op_is_unary(n.op))
            return dispatch(n.dtype, [&](auto z) { return raw_of(unary_op(n.op, as<decltype(z)>(v(0)))); });
        if (op_gives_bool(n.op))  // comparisons, logical_and/or/xor (logical_not is above)
            return dispatch(src_t(0), [&](auto z) {
                using T = decltype(z);
                return raw_of(predicate_op(n.op, as<T>(v(0)), as<T>(v(1))));
            });
        if (op_is_binary(n.op))
            return dispatch(n.dtype, [&](auto z) {
                using T = decltype(z);
                return raw_of(binary_op(n.op, as<T>(v(0)), as<T>(v(1))));
            });
        throw Error(ErrorStatus::Internal, "interpreter: cannot evaluate node %" + std::to_string(i));
    }
};

// Nodes reachable from `roots`, in topological order, not descending below reduce nodes (which
// are included themselves).
std::vector<size_t> reachable(const Kernel& k, const std::vector<int>& roots, bool through_reduce_root) {
    std::vector<bool> mark(k.nodes.size(), false);
    for (int r : roots) mark[size_t(r)] = true;
    for (size_t i = k.nodes.size(); i-- > 0;) {
        if (!mark[i]) continue;
        const Node& n = k.nodes[i];
        bool is_root_reduce = op_is_reduce(n.op);
        if (is_root_reduce && !through_reduce_root) continue;
        for (int s = 0; s < op_arity(n.op); ++s) mark[size_t(n.src[s])] = true;
    }
    std::vector<size_t> order;
    for (size_t i = 0; i < k.nodes.size(); ++i)
        if (mark[i]) order.push_back(i);
    return order;
}

// Advances a row-major odometer over shape[begin, end); false when it wraps around.
bool next_index(int64_t* idx, const std::vector<int64_t>& shape, size_t begin, size_t end) {
    for (size_t d = end; d-- > begin;) {
        if (++idx[d] < shape[d]) return true;
        idx[d] = 0;
    }
    return false;
}

}  // namespace

void interpret(const Kernel& k, std::span<const BufferRef> buffers, std::span<const uint64_t> scalars) {
    validate(k);
    size_t nin = k.inputs.size(), nout = k.outputs.size();
    if (buffers.size() != nin + nout)
        throw Error(ErrorStatus::InvalidArgument,
                    "interpret: kernel takes " + std::to_string(nin) + " inputs and " + std::to_string(nout) +
                        " outputs, got " + std::to_string(buffers.size()) + " buffers");
    if (scalars.size() != k.scalars.size())
        throw Error(ErrorStatus::InvalidArgument,
                    "interpret: kernel takes " + std::to_string(k.scalars.size()) + " scalars, got " +
                        std::to_string(scalars.size()));
    for (size_t b = 0; b < nin + nout; ++b) {
        bool is_in = b < nin;
        std::string who = is_in ? "input " + std::to_string(b) : "output " + std::to_string(b - nin);
        const View& view = is_in ? k.inputs[b].view : k.outputs[b - nin].view;
        DType t = is_in ? k.inputs[b].dtype : k.outputs[b - nin].dtype;
        uint64_t need = view_required_bytes(view, t, who);
        if (need > buffers[b].bytes || (need > 0 && !buffers[b].data))
            throw Error(ErrorStatus::InvalidArgument,
                        "interpret: " + who + " (" + std::string(dtype_name(t)) + " " + view_string(view) + ") needs " +
                            std::to_string(need) + " bytes, buffer has " + std::to_string(buffers[b].bytes));
    }

    std::vector<int> out_nodes;
    for (const Output& o : k.outputs) out_nodes.push_back(o.node);
    std::vector<size_t> top = reachable(k, out_nodes, false);
    struct ReducePlan {
        size_t node;
        std::vector<size_t> body;
    };
    std::vector<ReducePlan> reduces;
    for (size_t i : top)
        if (op_is_reduce(k.nodes[i].op)) reduces.push_back({i, reachable(k, {k.nodes[i].src[0]}, true)});

    Evaluator ev{k, buffers, scalars, std::vector<uint64_t>(k.nodes.size(), 0)};
    size_t g = k.global_rank(), full = k.shape.size();
    if (k.global_numel() == 0) return;
    bool reduce_empty = k.reduce_numel() == 0;
    std::vector<int64_t> idx(full + 1, 0);  // +1 keeps data() valid for a rank-0 space
    do {
        for (const ReducePlan& r : reduces) {
            const Node& rn = k.nodes[r.node];
            uint64_t acc = carrier_from_bits(rn.dtype, reduce_identity_bits(rn.op, rn.dtype));
            Op comb = reduce_combine_op(rn.op);
            for (size_t d = g; d < full; ++d) idx[d] = 0;
            if (!reduce_empty) do {
                    for (size_t i : r.body) ev.vals[i] = ev.eval(i, idx.data());
                    uint64_t x = ev.vals[size_t(rn.src[0])];
                    acc = dispatch(rn.dtype, [&](auto z) {
                        using T = decltype(z);
                        return raw_of(binary_op(comb, as<T>(acc), as<T>(x)));
                    });
                } while (next_index(idx.data(), k.shape, g, full));
            for (size_t d = g; d < full; ++d) idx[d] = 0;
            ev.vals[r.node] = acc;
        }
        for (size_t i : top)
            if (!op_is_reduce(k.nodes[i].op)) ev.vals[i] = ev.eval(i, idx.data());
        for (size_t o = 0; o < nout; ++o) {
            const Output& out = k.outputs[o];
            int64_t off;
            if (!out.view.element(idx.data(), &off)) continue;
            uint64_t bits = bits_from_carrier(out.dtype, ev.vals[size_t(out.node)]);
            size_t sz = dtype_size(out.dtype);
            std::memcpy((uint8_t*)buffers[nin + o].data + off * int64_t(sz), &bits, sz);
        }
    } while (next_index(idx.data(), k.shape, 0, g));
}

uint64_t bits_from_double(DType t, double v) { return bits_from_carrier(t, cast_raw(DType::f64, t, raw_of(v))); }
uint64_t bits_from_int(DType t, int64_t v) { return bits_from_carrier(t, cast_raw(DType::i64, t, raw_of(v))); }
uint64_t canonical_nan_bits(DType t) {
    switch (t) {
        case DType::f64: return 0x7ff8000000000000ull;
        case DType::f32: return 0x7fc00000u;
        case DType::f16: return 0x7e00;
        case DType::bf16: return 0x7fc0;
        default:
            throw Error(ErrorStatus::InvalidArgument,
                        "canonical_nan_bits of " + std::string(dtype_name(t)) + " (not a float dtype)");
    }
}
double double_from_bits(DType t, uint64_t bits) {
    return as<double>(cast_raw(t, DType::f64, carrier_from_bits(t, bits)));
}

}  // namespace zyx::kernel
