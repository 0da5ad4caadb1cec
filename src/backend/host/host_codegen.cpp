// Kernel IR → C++ for the host. See host_codegen.hpp for the shape of the generated code.
#include "backend/host/host_codegen.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "backend/host/host_preamble.hpp"
#include "core/error.hpp"
#include "kernel/analysis.hpp"

namespace zyx::backend::host {

using kernel::Kernel;
using kernel::Node;
using kernel::Op;
using kernel::View;
using kernel::ViewLayer;

namespace {

// Work (elements × reduced elements) below which a kernel runs on one thread.
constexpr int64_t kParallelWork = 1 << 15;
// Tasks the global loop is cut into when there are few rows (so every thread gets work).
constexpr int64_t kTargetTasks = 64;

std::string ctype(DType t) {  // carrier type: what a value lives in inside the kernel
    switch (t) {
        case DType::f64: return "double";
        case DType::f32:
        case DType::f16:
        case DType::bf16: return "float";
        case DType::i8: return "int8_t";
        case DType::i16: return "int16_t";
        case DType::i32: return "int32_t";
        case DType::i64: return "int64_t";
        case DType::u8: return "uint8_t";
        case DType::u16: return "uint16_t";
        case DType::u32: return "uint32_t";
        case DType::u64: return "uint64_t";
        case DType::bool_: return "bool";
    }
    return "?";
}
std::string mtype(DType t) {  // memory type: what a buffer element is
    if (t == DType::f16 || t == DType::bf16) return "uint16_t";
    if (t == DType::bool_) return "uint8_t";
    return ctype(t);
}
bool is_f32_carrier(DType t) { return t == DType::f32 || t == DType::f16 || t == DType::bf16; }

// C literal of raw bits of dtype t, as its carrier type. Floats are written as their exact
// carrier bits (a 16-bit float as the f32 the interpreter carries), so a NaN keeps its sign and
// payload; the value follows in a comment.
std::string literal(DType t, uint64_t bits) {
    char buf[96];
    if (dtype_is_float(t)) {
        double v = kernel::double_from_bits(t, bits);
        if (t == DType::f64) {
            constexpr char kF64[] = "__builtin_bit_cast(double, 0x%016llxull /* %.17g */)";
            std::snprintf(buf, sizeof buf, kF64, (unsigned long long)bits, v);  // allow-print: formats into buf
            return buf;
        }
        float carrier = t == DType::f16 ? f16_to_f32(uint16_t(bits))
            : t == DType::bf16          ? bf16_to_f32(uint16_t(bits))
                                        : f32_from_bits(uint32_t(bits));
        constexpr char kF32[] = "__builtin_bit_cast(float, 0x%08xu /* %.9g */)";
        std::snprintf(buf, sizeof buf, kF32, f32_bits(carrier), v);  // allow-print: formats into buf
        return buf;
    }
    if (t == DType::bool_) return (bits & 0xff) ? "true" : "false";
    size_t n = dtype_size(t);
    uint64_t masked = n == 8 ? bits : bits & ((uint64_t(1) << (8 * n)) - 1);
    const unsigned long long m = masked;
    std::snprintf(buf, sizeof buf, "((%s)0x%llxull)", ctype(t).c_str(), m);  // allow-print: formats into buf
    return buf;
}

std::string fname(const char* base, DType t) { return std::string(base) + (t == DType::f64 ? "" : "f"); }

struct Codegen {
    const Kernel k;
    std::ostringstream& os;
    size_t G = 0, R = 0;
    std::vector<uint8_t> level;
    std::vector<bool> needed;       // emitted for the outputs (kernel::needed_nodes, less what is hoisted)
    std::vector<bool> varies_last;  // depends on the last global axis
    MatmulPlan mm;
    int par_axis = -1;  // reduce axis split across threads (few outputs, big reduce)
    // Row cache: a level-0 node that varies along the last axis L and equals a body node of a
    // hoisted one-axis reduce with k renamed to L (softmax's exp(x - m) in numerator and sum)
    // reads the value the reduce loop stored instead of computing it again. It needs the two
    // loads to read one buffer, which is only known at launch: the cached inner loop runs when
    // the `alias` pairs of buffer arguments are equal, the plain one otherwise.
    std::vector<int> cache_of;     // level-0 node → body node whose stored value it is, or -1
    std::vector<int> cache_owner;  // body node → the reduce whose loop stores it per k, or -1
    std::vector<std::pair<uint32_t, uint32_t>> alias;
    std::vector<bool> needed_cached;  // needed by the outputs when caches are used
    // Hoisted broadcast reduces: a level-0 reduce that varies along the last axis but not along
    // some other axis (softmax over axis 0: sum_k e^(x[k,c] - m[c]) read at every [r, c]) is
    // computed once per distinct value, before the main loop, into a scratch array zh<i> over
    // the axes it depends on (hoist_axes[i], last axis innermost): blocks of the last axis with
    // the reduce loops outside and the last axis inside, which vectorises; the main loop reads
    // zh<i>. (A reduce invariant along the last axis is computed once per row instead.)
    std::vector<uint64_t> varies_axis;  // node → bit d set when it depends on global axis d (node_axes)
    std::vector<bool> hoisted;

    Codegen(const Kernel& kk, std::ostringstream& o) : k(kernel::merge_common_subexpressions(kk)), os(o) {}

    // (Built with += rather than "x" + to_string(): GCC 12 warns falsely on the latter.)
    std::string var(size_t axis) const {
        std::string s(axis < G ? "i" : "r");
        s += std::to_string(axis < G ? axis : axis - G);
        return s;
    }
    std::string n(int i) const {
        std::string s("n");
        s += std::to_string(i);
        return s;
    }
    DType dt(int i) const { return k.nodes[size_t(i)].dtype; }

    // Offset/validity of one layer for index variables `vars`.
    static std::string layer_offset(const ViewLayer& l, const std::vector<std::string>& vars) {
        std::string s = std::to_string(l.offset);
        for (size_t d = 0; d < l.shape.size(); ++d)
            if (l.strides[d] != 0 && l.shape[d] != 1) s += " + " + vars[d] + " * " + std::to_string(l.strides[d]);
        return "(" + s + ")";
    }
    // Names vars[d] only for axes of size > 1 (the index of a size-1 axis is 0, so its test is a
    // constant), so a load names the variables of kernel::view_varying_axes and no others.
    static std::string layer_valid(const ViewLayer& l, const std::vector<std::string>& vars) {
        std::string s;
        if (!l.has_mask()) return s;
        for (size_t d = 0; d < l.shape.size(); ++d) {
            if (l.shape[d] == 1) {
                if (l.mask_begin[d] > 0 || l.mask_end[d] <= 0) s += std::string(s.empty() ? "" : " & ") + "false";
                continue;
            }
            if (l.mask_begin[d] > 0 || l.mask_begin[d] >= l.mask_end[d])
                s += std::string(s.empty() ? "" : " & ") + "(" + vars[d] + " >= " + std::to_string(l.mask_begin[d]) +
                    ")";
            if (l.mask_end[d] < l.shape[d] || l.mask_begin[d] >= l.mask_end[d])
                s += std::string(s.empty() ? "" : " & ") + "(" + vars[d] + " < " + std::to_string(l.mask_end[d]) + ")";
        }
        return s;
    }

    // Emits statements computing the element offset (and validity) of `v` at the current index;
    // returns {offset expression, validity expression or ""}.
    std::pair<std::string, std::string> emit_view(const View& v, const std::string& tag, const std::string& ind) {
        std::vector<std::string> vars;
        for (size_t d = 0; d < v.rank(); ++d) vars.push_back(var(d));
        const ViewLayer& top = v.layers.back();
        if (v.layers.size() == 1) return {layer_offset(top, vars), layer_valid(top, vars)};
        std::string off = "zo" + tag, ok = "zv" + tag;
        std::string tv = layer_valid(top, vars);
        os << ind << "int64_t " << off << " = " << layer_offset(top, vars) << ";\n";
        os << ind << "bool " << ok << " = " << (tv.empty() ? "true" : tv) << ";\n";
        for (size_t li = v.layers.size() - 1; li-- > 0;) {
            const ViewLayer& l = v.layers[li];
            std::vector<std::string> lv;
            os << ind << "{\n" << ind << "  int64_t zq = " << off << ";\n";
            for (size_t d = l.shape.size(); d-- > 0;) {
                std::string name = "zj" + std::to_string(d);
                os << ind << "  const int64_t " << name << " = zq % " << std::max<int64_t>(l.shape[d], 1)
                   << "; zq /= " << std::max<int64_t>(l.shape[d], 1) << ";\n";
            }
            for (size_t d = 0; d < l.shape.size(); ++d) lv.push_back("zj" + std::to_string(d));
            std::string lvv = layer_valid(l, lv);
            if (!lvv.empty()) os << ind << "  " << ok << " = " << ok << " & " << lvv << ";\n";
            os << ind << "  " << off << " = " << layer_offset(l, lv) << ";\n" << ind << "}\n";
        }
        return {off, ok};
    }

    std::string load_value(DType t, const std::string& ptr, const std::string& off) {
        std::string e = ptr + "[" + off + "]";
        if (t == DType::f16) return "zx_f16_to_f32(" + e + ")";
        if (t == DType::bf16) return "zx_bf16_to_f32(" + e + ")";
        if (t == DType::bool_) return "(" + e + " != 0)";
        return e;
    }

    std::string cast_expr(DType from, DType to, const std::string& a) {
        // A 16-bit float is carried unrounded in f32 (add.f16 of two f16 values), so a cast to
        // its own dtype still rounds (docs/ir.md §4).
        if (from == to && to != DType::f16 && to != DType::bf16) return a;
        if (to == DType::bool_) return "(" + a + " != 0)";
        std::string x = from == DType::bool_ ? "(" + a + " ? 1 : 0)" : a;
        if (dtype_is_float(to)) {
            if (to == DType::f64) return "((double)" + x + ")";
            std::string f = is_f32_carrier(from) ? x : "((float)" + x + ")";
            if (to == DType::f16) return "zx_round_f16(" + f + ")";
            if (to == DType::bf16) return "zx_round_bf16(" + f + ")";
            return f;
        }
        if (dtype_is_float(from)) return "zx_ftoi_" + std::string(dtype_name(to)) + "((double)" + x + ")";
        return "((" + ctype(to) + ")" + x + ")";
    }

    // Bitcast node i (docs/ir.md §4). A chain of bitcasts is one reinterpretation of the bits of
    // its first non-bitcast operand (the root). A load, constant or scalar root gives its stored
    // bits exactly: the memory word itself (a 16-bit float's raw pattern, not its f32 carrier,
    // so signalling NaNs and payloads survive), the literal bits, the scalar's argument word. Any
    // other root is a computed value whose NaN reads as the canonical quiet NaN (zx_bits_*: the
    // sign and payload of a NaN from arithmetic differ between constant folding and run time).
    std::string bitcast_expr(int i, const std::string& ind) {
        const Node& nd = k.nodes[size_t(i)];
        int r = nd.src[0];
        while (k.nodes[size_t(r)].op == Op::bitcast) r = k.nodes[size_t(r)].src[0];
        const Node& root = k.nodes[size_t(r)];
        DType from = root.dtype, to = nd.dtype;
        size_t size = dtype_size(from);
        std::string U = "uint" + std::to_string(8 * size) + "_t";
        auto bits_literal = [&](uint64_t b) {
            if (size < 8) b &= (uint64_t(1) << (8 * size)) - 1;
            return "((" + U + ")" + std::to_string(b) + "ull)";
        };
        std::string bits;
        if (root.op == Op::load) {
            const kernel::Input& in = k.inputs[root.arg];
            auto [off, ok] = emit_view(in.view, "b" + std::to_string(i), ind);
            std::string word = "zx_bitcast<" + U + ">(in" + std::to_string(root.arg) + "[" + off + "])";
            bits = ok.empty() ? word : "(" + ok + " ? " + word + " : " + bits_literal(in.pad_value) + ")";
        } else if (root.op == Op::constant) {
            bits = bits_literal(root.value);
        } else if (root.op == Op::scalar) {
            bits = "((" + U + ")zscalar[" + std::to_string(root.arg) + "])";
        } else {
            std::string a = n(r);
            bits = from == DType::f16 ? "zx_bits_f16(" + a + ")"
                : from == DType::bf16 ? "zx_bits_bf16(" + a + ")"
                : from == DType::f32  ? "zx_bits_f32(" + a + ")"
                : from == DType::f64  ? "zx_bits_f64(" + a + ")"
                                      : "zx_bitcast<" + U + ">(" + a + ")";
        }
        if (to == DType::f16) return "zx_f16_to_f32(" + bits + ")";
        if (to == DType::bf16) return "zx_bf16_to_f32(" + bits + ")";
        return "zx_bitcast<" + ctype(to) + ">(" + bits + ")";
    }

    std::string unary_expr(Op op, DType t, const std::string& a) {
        bool f = dtype_is_float(t);
        std::string one = t == DType::f64 ? "1.0" : "1.0f", zero = t == DType::f64 ? "0.0" : "0.0f";
        if (op == Op::logical_not) return "(" + a + " == 0)";
        if (t == DType::bool_) return "(!" + a + ")";  // bit_not
        if (f) {
            switch (op) {
                case Op::neg: return "(-" + a + ")";
                case Op::exp: return fname("exp", t) + "(" + a + ")";
                case Op::exp2: return fname("exp2", t) + "(" + a + ")";
                case Op::log: return fname("log", t) + "(" + a + ")";
                case Op::log2: return fname("log2", t) + "(" + a + ")";
                case Op::sqrt: return fname("sqrt", t) + "(" + a + ")";
                case Op::rsqrt: return "(" + one + " / " + fname("sqrt", t) + "(" + a + "))";
                case Op::recip: return "(" + one + " / " + a + ")";
                case Op::sin: return fname("sin", t) + "(" + a + ")";
                case Op::cos: return fname("cos", t) + "(" + a + ")";
                case Op::tanh: return fname("tanh", t) + "(" + a + ")";
                case Op::sigmoid: return "(" + one + " / (" + one + " + " + fname("exp", t) + "(-" + a + ")))";
                case Op::erf: return fname("erf", t) + "(" + a + ")";
                case Op::relu: return "(" + a + " < " + zero + " ? " + zero + " : " + a + ")";
                case Op::abs: return fname("fabs", t) + "(" + a + ")";
                case Op::floor: return fname("floor", t) + "(" + a + ")";
                case Op::ceil: return fname("ceil", t) + "(" + a + ")";
                case Op::round: return fname("rint", t) + "(" + a + ")";
                case Op::sign:
                    return "(" + a + " > " + zero + " ? " + one + " : (" + a + " < " + zero + " ? -" + one + " : " + a +
                        "))";
                default: break;
            }
        } else {
            std::string T = ctype(t);
            bool s = dtype_is_signed_int(t);
            switch (op) {
                case Op::neg: return "zx_neg(" + a + ")";
                case Op::abs: return "zx_abs(" + a + ")";
                case Op::floor:
                case Op::ceil:
                case Op::round: return a;
                case Op::bit_not: return "((" + T + ")~" + a + ")";
                case Op::relu: return s ? "(" + a + " < 0 ? (" + T + ")0 : " + a + ")" : a;
                case Op::sign:
                    return s ? "(" + a + " > 0 ? (" + T + ")1 : (" + a + " < 0 ? (" + T + ")-1 : (" + T + ")0))"
                             : "(" + a + " > 0 ? (" + T + ")1 : (" + T + ")0)";
                default: break;
            }
        }
        throw Error(
            ErrorStatus::Internal,
            "host codegen: no C form for " + std::string(kernel::op_name(op)) + " on " + std::string(dtype_name(t)));
    }

    std::string binary_expr(Op op, DType t, const std::string& a, const std::string& b) {
        switch (op) {
            case Op::cmp_lt: return "(" + a + " < " + b + ")";
            case Op::cmp_le: return "(" + a + " <= " + b + ")";
            case Op::cmp_gt: return "(" + a + " > " + b + ")";
            case Op::cmp_ge: return "(" + a + " >= " + b + ")";
            case Op::cmp_eq: return "(" + a + " == " + b + ")";
            case Op::cmp_ne: return "(" + a + " != " + b + ")";
            case Op::logical_and: return "((" + a + " != 0) & (" + b + " != 0))";
            case Op::logical_or: return "((" + a + " != 0) | (" + b + " != 0))";
            case Op::logical_xor: return "((" + a + " != 0) != (" + b + " != 0))";
            default: break;
        }
        std::string T = ctype(t);
        if (t == DType::bool_) {
            switch (op) {
                case Op::max:
                case Op::bit_or: return "(bool)(" + a + " | " + b + ")";
                case Op::min:
                case Op::bit_and: return "(bool)(" + a + " & " + b + ")";
                case Op::bit_xor: return "(" + a + " != " + b + ")";
                default: break;
            }
        } else if (dtype_is_float(t)) {
            switch (op) {
                case Op::add: return "(" + a + " + " + b + ")";
                case Op::sub: return "(" + a + " - " + b + ")";
                case Op::mul: return "(" + a + " * " + b + ")";
                case Op::div: return "(" + a + " / " + b + ")";
                case Op::pow: return fname("pow", t) + "(" + a + ", " + b + ")";
                case Op::mod: return fname("fmod", t) + "(" + a + ", " + b + ")";
                case Op::max: return "zx_max(" + a + ", " + b + ")";
                case Op::min: return "zx_min(" + a + ", " + b + ")";
                default: break;
            }
        } else {
            switch (op) {
                case Op::add: return "zx_add(" + a + ", " + b + ")";
                case Op::sub: return "zx_sub(" + a + ", " + b + ")";
                case Op::mul: return "zx_mul(" + a + ", " + b + ")";
                case Op::div: return "zx_div(" + a + ", " + b + ")";
                case Op::pow: return "zx_pow(" + a + ", " + b + ")";
                case Op::mod: return "zx_mod(" + a + ", " + b + ")";
                case Op::max: return "(" + a + " > " + b + " ? " + a + " : " + b + ")";
                case Op::min: return "(" + a + " < " + b + " ? " + a + " : " + b + ")";
                case Op::bit_and: return "((" + T + ")(" + a + " & " + b + "))";
                case Op::bit_or: return "((" + T + ")(" + a + " | " + b + "))";
                case Op::bit_xor: return "((" + T + ")(" + a + " ^ " + b + "))";
                case Op::shl: return "zx_shl(" + a + ", " + b + ")";
                case Op::shr: return "zx_shr(" + a + ", " + b + ")";
                default: break;
            }
        }
        throw Error(
            ErrorStatus::Internal,
            "host codegen: no C form for " + std::string(kernel::op_name(op)) + " on " + std::string(dtype_name(t)));
    }

    // Emits `const T nI = …;` for a non-reduce node.
    void emit_value(int i, const std::string& ind) {
        const Node& nd = k.nodes[size_t(i)];
        std::string e;
        auto s = [&](int j) { return n(nd.src[j]); };
        switch (nd.op) {
            case Op::load: {
                const kernel::Input& in = k.inputs[nd.arg];
                auto [off, ok] = emit_view(in.view, std::to_string(i), ind);
                std::string v = load_value(in.dtype, "in" + std::to_string(nd.arg), off);
                e = ok.empty() ? v : "(" + ok + " ? " + v + " : " + literal(in.dtype, in.pad_value) + ")";
                break;
            }
            case Op::constant: e = literal(nd.dtype, nd.value); break;
            case Op::scalar: e = "s" + std::to_string(nd.arg); break;
            case Op::index: e = "((" + ctype(nd.dtype) + ")" + var(nd.arg) + ")"; break;
            case Op::where: e = "(" + s(0) + " ? " + s(1) + " : " + s(2) + ")"; break;
            case Op::cast: e = cast_expr(dt(nd.src[0]), nd.dtype, s(0)); break;
            case Op::bitcast: e = bitcast_expr(i, ind); break;
            default:
                if (kernel::op_is_unary(nd.op))
                    e = unary_expr(nd.op, dt(nd.src[0]), s(0));
                else
                    e = binary_expr(nd.op, dt(nd.src[0]), s(0), s(1));
        }
        os << ind << "const " << ctype(nd.dtype) << " " << n(i) << " = " << e << ";\n";
    }

    // Type of the accumulator of a reduce. Integer sums and products accumulate in a wide
    // unsigned type (uint32_t up to 32 bits, uint64_t for 64) and are truncated at the end: the
    // low bits are the wrapped result, and unsigned arithmetic cannot overflow. The accumulator
    // of an `omp simd reduction` is combined by the compiler with its own `+`/`*` in the
    // accumulator's type, where signed overflow is undefined: with an int8_t accumulator GCC 12
    // -O3 proved a loop-invariant sum over two reduce axes "overflows" and ran one outer
    // iteration only.
    static std::string acc_type(Op op, DType t) {
        if (dtype_is_int(t) && (op == Op::reduce_sum || op == Op::reduce_prod))
            return dtype_size(t) == 8 ? "uint64_t" : "uint32_t";
        return ctype(t);
    }

    // Combining step of a reduce into an accumulator of acc_type(op, t).
    std::string combine(Op op, DType t, const std::string& acc, const std::string& x) {
        bool f = dtype_is_float(t);
        std::string W = acc_type(op, t);
        switch (op) {
            case Op::reduce_sum: return f ? acc + " + " + x : acc + " + (" + W + ")" + x;
            case Op::reduce_prod: return f ? acc + " * " + x : acc + " * (" + W + ")" + x;
            case Op::reduce_max:
                if (t == DType::bool_) return "(bool)(" + acc + " | " + x + ")";
                return "(" + x + " > " + acc + " ? " + x + " : " + acc + ")";
            default:
                if (t == DType::bool_) return "(bool)(" + acc + " & " + x + ")";
                return "(" + x + " < " + acc + " ? " + x + " : " + acc + ")";
        }
    }
    std::string simd_clause(Op op, DType t, const std::string& acc, bool nan) {
        if (t == DType::bool_) return "";
        std::string c;
        switch (op) {
            case Op::reduce_sum: c = "reduction(+:" + acc + ")"; break;
            case Op::reduce_prod: c = "reduction(*:" + acc + ")"; break;
            case Op::reduce_max: c = "reduction(max:" + acc + ")"; break;
            default: c = "reduction(min:" + acc + ")";
        }
        if (nan) c += " reduction(|:" + acc + "_nan)";
        return "#pragma omp simd " + c + "\n";
    }

    // Emits the loop nest of reduce node `i` into accumulator `acc` (already declared), with the
    // axis `par_axis` limited to [zrb, zre) when that is set.
    void emit_reduce_loops(int i, const std::string& acc, bool nan, const std::string& ind0, bool split) {
        const Node& rd = k.nodes[size_t(i)];
        std::vector<bool> body(k.nodes.size(), false);
        body[size_t(rd.src[0])] = true;
        for (size_t j = size_t(i); j-- > 0;) {
            if (!body[j] || level[j] == 0) {
                body[j] = body[j] && level[j] != 0;
                continue;
            }
            for (int s = 0; s < kernel::op_arity(k.nodes[j].op); ++s) body[size_t(k.nodes[j].src[s])] = true;
        }
        std::string x = n(rd.src[0]);
        // One evaluation of the reduced expression at the current index, folded into `into`.
        auto emit_body = [&](const std::string& ind, const std::string& into) {
            for (size_t j = 0; j < size_t(i); ++j)
                if (body[j]) emit_value(int(j), ind);
            for (size_t j = 0; j < size_t(i); ++j)
                if (body[j] && !split && !cache_owner.empty() && cache_owner[j] == i)
                    os << ind << "zrc" << j << "[" << var(G) << "] = " << n(int(j)) << ";\n";
            if (nan) os << ind << acc << "_nan |= (" << x << " != " << x << ");\n";
            os << ind << into << " = " << combine(rd.op, rd.dtype, into, x) << ";\n";
        };
        if (R == 0) {  // nothing to loop over: the expression once
            emit_body(ind0, acc);
            return;
        }
        std::string ind = ind0;
        for (size_t d = G; d + 1 < G + R; ++d) {
            bool mine = split && int(d) == par_axis;  // this thread's slice of the split axis
            os << ind << "for (int64_t " << var(d) << " = " << (mine ? "zrb" : "0") << "; " << var(d) << " < "
               << (mine ? std::string("zre") : std::to_string(k.shape[d])) << "; ++" << var(d) << ") {\n";
            ind += "  ";
        }
        size_t d = G + R - 1;  // the innermost reduce axis
        std::string lo = "0", hi = std::to_string(k.shape[d]);
        if (split && int(d) == par_axis) {
            lo = "zrb";
            hi = "zre";
        }
        std::string T = ctype(rd.dtype);
        if (rd.op == Op::reduce_sum && (T == "float" || T == "double")) {
            // A float sum over one accumulator is bound by the add latency (one vector add every
            // few cycles) once the data is in cache. Blocks of kLanes elements go to kLanes
            // independent accumulators (several vector registers), which the compiler keeps in
            // flight together; the remainder and the lanes are folded in at the end. Summation
            // order differs from the interpreter's, within the float tolerance of docs/ir.md.
            int lanes = T == "float" ? 32 : 16;
            std::string in2 = ind + "  ", in3 = ind + "    ";
            os << ind << "{\n" << in2 << T << " zlane[" << lanes << "] = {};\n";
            os << in2 << "int64_t zb = " << lo << ";\n";
            os << in2 << "for (; zb + " << lanes << " <= " << hi << "; zb += " << lanes << ") {\n";
            os << in3 << "#pragma omp simd\n";
            os << in3 << "for (int zj = 0; zj < " << lanes << "; ++zj) {\n";
            os << in3 << "  const int64_t " << var(d) << " = zb + zj;\n";
            emit_body(in3 + "  ", "zlane[zj]");
            os << in3 << "}\n" << in2 << "}\n";
            os << in2 << "for (int64_t " << var(d) << " = zb; " << var(d) << " < " << hi << "; ++" << var(d) << ") {\n";
            emit_body(in3, acc);
            os << in2 << "}\n";
            os << in2 << "for (int zj = 0; zj < " << lanes << "; ++zj) " << acc << " = " << acc << " + zlane[zj];\n";
            os << ind << "}\n";
        } else if (rd.op == Op::reduce_prod && dtype_is_float(rd.dtype)) {
            // Float products run in the interpreter's order: a reordered product overflows and
            // underflows at other steps (0·inf = NaN in one order, 0 in the other).
            os << ind << "for (int64_t " << var(d) << " = " << lo << "; " << var(d) << " < " << hi << "; ++" << var(d)
               << ") {\n";
            emit_body(ind + "  ", acc);
            os << ind << "}\n";
        } else {
            os << ind << simd_clause(rd.op, rd.dtype, acc, nan);
            os << ind << "for (int64_t " << var(d) << " = " << lo << "; " << var(d) << " < " << hi << "; ++" << var(d)
               << ") {\n";
            emit_body(ind + "  ", acc);
            os << ind << "}\n";
        }
        for (size_t e = G; e + 1 < G + R; ++e) {
            ind.resize(ind.size() - 2);
            os << ind << "}\n";
        }
    }

    void emit_reduce(int i, const std::string& ind) {
        const Node& rd = k.nodes[size_t(i)];
        std::string T = acc_type(rd.op, rd.dtype), acc = "acc" + std::to_string(i);
        std::string id = literal(rd.dtype, kernel::reduce_identity_bits(rd.op, rd.dtype));
        if (T != ctype(rd.dtype)) id = "(" + T + ")" + id;
        bool nan = dtype_is_float(rd.dtype) && (rd.op == Op::reduce_max || rd.op == Op::reduce_min);
        std::string combine_fn = rd.op == Op::reduce_max ? "zx_max" : "zx_min";
        if (!cache_owner.empty())
            for (size_t j = 0; j < size_t(i); ++j)
                if (cache_owner[j] == i) os << ind << ctype(dt(int(j))) << " zrc" << j << "[" << k.shape[G] << "];\n";
        os << ind << T << " " << acc << " = " << id << ";\n";
        os << ind << "int " << acc << "_nan = 0; (void)" << acc << "_nan;\n";
        if (par_axis < 0) {
            emit_reduce_loops(i, acc, nan, ind, false);
        } else {
            // Few outputs, many reduced elements: each thread reduces a slice of one reduce
            // axis; partials are combined in thread order.
            std::string in2 = ind + "  ", in3 = ind + "    ";
            os << ind << "{\n" << in2 << T << " zpart[64]; int zpnan[64]; int znp = 1;\n";
            os << in2 << "#pragma omp parallel num_threads(zx_threads())\n" << in2 << "{\n";
            os << in3 << "const int zt = omp_get_thread_num(), znt = omp_get_num_threads();\n";
            os << in3 << "const int64_t zrb = (int64_t)" << k.shape[size_t(par_axis)] << " * zt / znt, zre = (int64_t)"
               << k.shape[size_t(par_axis)] << " * (zt + 1) / znt;\n";
            os << in3 << T << " " << acc << " = " << id << ";\n";
            os << in3 << "int " << acc << "_nan = 0;\n";
            emit_reduce_loops(i, acc, nan, in3, true);
            os << in3 << "zpart[zt] = " << acc << "; zpnan[zt] = " << acc << "_nan;\n";
            os << in3 << "if (zt == 0) znp = znt;\n" << in2 << "}\n";
            os << in2 << "for (int zt = 0; zt < znp; ++zt) { " << acc << " = "
               << (nan ? combine_fn + "(" + acc + ", zpart[zt])" : combine(rd.op, rd.dtype, acc, "zpart[zt]")) << "; "
               << acc << "_nan |= zpnan[zt]; }\n";
            os << ind << "}\n";
        }
        std::string qnan = T == "double" ? "__builtin_nan(\"\")" : "__builtin_nanf(\"\")";
        if (nan)
            os << ind << "const " << T << " " << n(i) << " = " << acc << "_nan ? " << qnan << " : " << acc << ";\n";
        else
            os << ind << "const " << ctype(rd.dtype) << " " << n(i) << " = (" << ctype(rd.dtype) << ")" << acc << ";\n";
    }

    // Whether every load in reduce r's body that walks memory walks the last global axis with
    // stride 1 and the innermost reduce axis with another stride, and at least one does.
    bool column_reduce(size_t r) const {
        size_t L = G - 1, K = G + R - 1;
        std::vector<bool> body(k.nodes.size(), false);
        body[size_t(k.nodes[r].src[0])] = true;
        bool found = false;
        for (size_t j = r + 1; j-- > 0;) {
            if (!body[j] || level[j] == 0) continue;
            const Node& nd = k.nodes[j];
            if (nd.op == Op::load) {
                const kernel::View& v = k.inputs[nd.arg].view;
                if (v.layers.size() != 1) return false;
                const ViewLayer& top = v.layers[0];
                if (top.strides[K] == 1 || top.strides[K] == -1 || (top.strides[L] != 1 && top.strides[L] != 0))
                    return false;
                found = found || (top.strides[L] == 1 && top.strides[K] != 0);
            }
            for (int s = 0; s < kernel::op_arity(nd.op); ++s) body[size_t(nd.src[s])] = true;
        }
        return found;
    }

    // Offset of the current index in hoisted reduce i's scratch array.
    std::string scratch_offset(int i) const {
        std::string s = "0";
        int64_t stride = 1;
        for (size_t d = G; d-- > 0;)
            if (varies_axis[size_t(i)] >> d & 1) {
                s += " + " + var(d) + " * " + std::to_string(stride);
                stride *= k.shape[d];
            }
        return "(" + s + ")";
    }
    int64_t scratch_size(int i) const {
        int64_t n = 1;
        for (size_t d = 0; d < G; ++d)
            if (varies_axis[size_t(i)] >> d & 1) n *= k.shape[d];
        return n;
    }

    // The pass computing hoisted reduce h into zh<h> (see `hoisted`): tasks over the axes h
    // depends on but the last and over blocks of the last axis; the axes it does not depend on
    // are 0. Per block, one accumulator per last-axis element; the reduce loops run outside the
    // last-axis loop, each element in the interpreter's order.
    void emit_hoisted_reduce(int h) {
        const Node& rd = k.nodes[size_t(h)];
        size_t N = k.nodes.size(), L = G - 1;
        // body: h's level-1 nodes (emitted here); deps: level-0 nodes they read, directly or
        // through other level-0 nodes (emitted with emit_level0); inner: bodies of those deps
        // that are reduces (emitted by emit_level0, only followed down to their level-0 reads).
        std::vector<bool> body(N, false), deps(N, false), inner(N, false);
        (level[size_t(rd.src[0])] == 0 ? deps : body)[size_t(rd.src[0])] = true;
        for (size_t j = size_t(h); j-- > 0;) {
            if (!body[j] && !deps[j] && !inner[j]) continue;
            if (deps[j] && hoisted[j]) continue;  // read from its own scratch
            bool reduce_dep = deps[j] && kernel::op_is_reduce(k.nodes[j].op);
            for (int s = 0; s < kernel::op_arity(k.nodes[j].op); ++s) {
                size_t src = size_t(k.nodes[j].src[s]);
                if (level[src] == 0)
                    deps[src] = true;
                else if (reduce_dep || inner[j])
                    inner[src] = true;
                else if (body[j])
                    body[src] = true;
            }
        }
        int64_t cols = k.shape[L], outer = scratch_size(h) / std::max<int64_t>(1, cols), rnum = k.reduce_numel();
        int64_t nblk_target = std::max<int64_t>(1, kTargetTasks / std::max<int64_t>(1, outer));
        int64_t blk = std::max<int64_t>(64, (cols + nblk_target - 1) / nblk_target);
        blk = std::min<int64_t>({cols, (blk + 15) / 16 * 16, 512});
        int64_t nblk = (cols + blk - 1) / blk, tasks = outer * nblk;
        std::string T = acc_type(rd.op, rd.dtype), zh = "zh" + std::to_string(h);
        std::string id = literal(rd.dtype, kernel::reduce_identity_bits(rd.op, rd.dtype));
        if (T != ctype(rd.dtype)) id = "(" + T + ")" + id;
        bool nan = dtype_is_float(rd.dtype) && (rd.op == Op::reduce_max || rd.op == Op::reduce_min);
        std::string qnan = T == "double" ? "__builtin_nan(\"\")" : "__builtin_nanf(\"\")";
        os << "  " << ctype(rd.dtype) << "* " << zh << " = (" << ctype(rd.dtype) << "*)malloc(sizeof("
           << ctype(rd.dtype) << ") * " << scratch_size(h) << ");\n";
        os << "  if (!" << zh << ") throw std::bad_alloc();\n";  // HostDevice::launch names it
        if (tasks > 1 && scratch_size(h) * std::max<int64_t>(1, rnum) >= kParallelWork)
            os << "  #pragma omp parallel for schedule(dynamic, 1)\n";
        os << "  for (int64_t zt = 0; zt < " << tasks << "; ++zt) {\n";
        os << "    __asm__ volatile(\"\");\n";  // vectorise the last-axis loops only (emit_inner_loop)
        os << "    const int64_t zrow = zt / " << nblk << ", zc0 = (zt % " << nblk << ") * " << blk << ";\n";
        os << "    const int64_t zc1 = zc0 + " << blk << " < " << cols << " ? zc0 + " << blk << " : " << cols << ";\n";
        os << "    int64_t zr = zrow; (void)zr;\n";
        for (size_t d = L; d-- > 0;) {
            if (varies_axis[size_t(h)] >> d & 1)
                os << "    const int64_t " << var(d) << " = zr % " << k.shape[d] << "; zr /= " << k.shape[d] << ";\n";
            else
                os << "    const int64_t " << var(d) << " = 0; (void)" << var(d) << ";\n";
        }
        for (size_t j = 0; j < size_t(h); ++j)
            if (deps[j] && !varies_last[j]) emit_level0(int(j), "    ");
        os << "    " << T << " zacc[" << blk << "]; int zaccnan[" << blk << "];\n";
        os << "    for (int zj = 0; zj < " << blk << "; ++zj) { zacc[zj] = " << id << "; zaccnan[zj] = 0; }\n";
        std::string ind = "    ";
        for (size_t d = G; d < G + R; ++d) {
            os << ind << "for (int64_t " << var(d) << " = 0; " << var(d) << " < " << k.shape[d] << "; ++" << var(d)
               << ") {\n";
            ind += "  ";
        }
        os << ind << "for (int64_t " << var(L) << " = zc0; " << var(L) << " < zc1; ++" << var(L) << ") {\n";
        std::string in2 = ind + "  ", x = n(rd.src[0]), a = "zacc[" + var(L) + " - zc0]";
        for (size_t j = 0; j < size_t(h); ++j)
            if (deps[j] && varies_last[j]) emit_level0(int(j), in2);
        for (size_t j = 0; j < size_t(h); ++j)
            if (body[j]) emit_value(int(j), in2);
        if (nan) os << in2 << "zaccnan[" << var(L) << " - zc0] |= (" << x << " != " << x << ");\n";
        os << in2 << a << " = " << combine(rd.op, rd.dtype, a, x) << ";\n";
        os << ind << "}\n";
        for (size_t d = G; d < G + R; ++d) {
            ind.resize(ind.size() - 2);
            os << ind << "}\n";
        }
        os << "    for (int64_t " << var(L) << " = zc0; " << var(L) << " < zc1; ++" << var(L) << ")\n";
        os << "      " << zh << scratch_offset(h).insert(0, "[").append("]") << " = ";
        if (nan)
            os << "zaccnan[" << var(L) << " - zc0] ? " << qnan << " : " << a << ";\n";
        else
            os << "(" << ctype(rd.dtype) << ")" << a << ";\n";
        os << "  }\n";
    }

    void emit_level0(int i, const std::string& ind, bool cached = false) {
        if (!hoisted.empty() && hoisted[size_t(i)]) {
            os << ind << "const " << ctype(dt(i)) << " " << n(i) << " = zh" << i << "[" << scratch_offset(i) << "];\n";
            return;
        }
        if (cached && cache_of[size_t(i)] >= 0) {
            os << ind << "const " << ctype(dt(i)) << " " << n(i) << " = zrc" << cache_of[size_t(i)] << "[" << var(G - 1)
               << "];\n";
            return;
        }
        if (mm.use_blas && i == mm.reduce_node) {
            os << ind << "const " << ctype(dt(i)) << " " << n(i) << " = zc[zflat];\n";
            return;
        }
        if (kernel::op_is_reduce(k.nodes[size_t(i)].op))
            emit_reduce(i, ind);
        else
            emit_value(i, ind);
    }

    void emit_stores(const std::string& ind) {
        for (size_t o = 0; o < k.outputs.size(); ++o) {
            const kernel::Output& out = k.outputs[o];
            if (mm.use_blas && !mm.epilogue && int(o) == mm.direct_output) continue;
            std::vector<std::string> vars;
            for (size_t d = 0; d < G; ++d) vars.push_back(var(d));
            std::string off = layer_offset(out.view.layers[0], vars);
            std::string v = n(out.node);
            if (out.dtype == DType::f16)
                v = "zx_f32_to_f16(" + v + ")";
            else if (out.dtype == DType::bf16)
                v = "zx_f32_to_bf16(" + v + ")";
            else if (out.dtype == DType::bool_)
                v = "(uint8_t)" + v;
            os << ind << "out" << o << "[" << off << "] = " << v << ";\n";
        }
    }

    void emit_blas(const std::string& ind) {
        DType t = k.nodes[size_t(mm.reduce_node)].dtype;
        std::string T = ctype(t);
        int64_t batch = 1;
        for (size_t d = 0; d + 2 < G; ++d) batch *= k.shape[d];
        int64_t mn = mm.m * mm.n;
        if (mm.direct_output >= 0)
            os << ind << T << "* zc = out" << mm.direct_output << ";\n";
        else
            os << ind << T << "* zc = (" << T << "*)zx_scratch(sizeof(" << T << ") * " << batch * mn << "ull);\n";
        const ViewLayer& a = k.inputs[size_t(mm.a_input)].view.layers[0];
        const ViewLayer& b = k.inputs[size_t(mm.b_input)].view.layers[0];
        os << ind << "zx_blas_threads(" << batch * mn * mm.k << "LL);\n";
        os << ind << "for (int64_t zb = 0; zb < " << batch << "; ++zb) {\n";
        os << ind << "  int64_t zrest = zb, zoa = " << a.offset << ", zob = " << b.offset << ";\n";
        for (size_t d = G - 2; d-- > 0;) {
            os << ind << "  { const int64_t zi = zrest % " << k.shape[d] << "; zrest /= " << k.shape[d]
               << "; zoa += zi * " << a.strides[d] << "; zob += zi * " << b.strides[d] << "; }\n";
        }
        os << ind << "  cblas_" << (t == DType::f64 ? "d" : "s") << "gemm(ZX_ROW_MAJOR, "
           << (mm.a_trans ? "ZX_TRANS" : "ZX_NO_TRANS") << ", " << (mm.b_trans ? "ZX_TRANS" : "ZX_NO_TRANS") << ", "
           << mm.m << ", " << mm.n << ", " << mm.k << ", 1, in" << mm.a_input << " + zoa, " << mm.lda << ", in"
           << mm.b_input << " + zob, " << mm.ldb << ", 0, zc + zb * " << mn << ", " << mm.n << ");\n";
        os << ind << "}\n";
    }

    void generate(const std::string& name) {
        G = k.global_rank();
        R = k.reduce_axes;
        level = kernel::node_levels(k);
        mm = host_matmul_plan(k);
        size_t N = k.nodes.size();
        // The nodes under a BLAS reduce are needed too: they are level 1 and only a reduce loop,
        // which BLAS replaces, would emit them.
        needed = kernel::needed_nodes(k);
        // The global axes each node depends on. The BLAS product is read at every global index
        // (zc[zflat], in the inner loop), and so is every node computed from it.
        varies_axis = kernel::node_axes(k);
        uint64_t global_axes = G >= 64 ? ~uint64_t(0) : (uint64_t(1) << G) - 1;
        for (size_t i = 0; i < N; ++i) varies_axis[i] &= global_axes;
        if (mm.use_blas) {
            varies_axis[size_t(mm.reduce_node)] = global_axes;
            for (size_t i = size_t(mm.reduce_node) + 1; i < N; ++i)
                for (int s = 0; s < kernel::op_arity(k.nodes[i].op); ++s)
                    varies_axis[i] |= varies_axis[size_t(k.nodes[i].src[s])];
        }
        varies_last.assign(N, false);
        for (size_t i = 0; i < N; ++i) varies_last[i] = G > 0 && (varies_axis[i] >> (G - 1) & 1);
        int64_t gnum = k.global_numel(), rnum = k.reduce_numel();
        // Hoist the reduces that vary along the last axis and not along some other axis of size > 1.
        // Also hoist a column reduce (sum over axis 0 of a row-major matrix: its body reads
        // contiguously along the last axis and with a stride along the innermost reduce axis),
        // whose own loop would walk memory with a stride and not vectorise.
        hoisted.assign(N, false);
        if (!mm.use_blas && G >= 1 && G <= 64 && R > 0 && gnum > 0 && !(gnum <= 8 && rnum >= kParallelWork))
            for (size_t i = 0; i < N; ++i) {
                if (!needed[i] || level[i] != 0 || !kernel::op_is_reduce(k.nodes[i].op) || !varies_last[i]) continue;
                for (size_t d = 0; d + 1 < G; ++d)
                    if (k.shape[d] > 1 && !(varies_axis[i] >> d & 1)) hoisted[i] = true;
                hoisted[i] = hoisted[i] || column_reduce(i);
            }
        bool any_hoisted = std::find(hoisted.begin(), hoisted.end(), true) != hoisted.end();
        if (any_hoisted) {  // the main loop reads hoisted reduces: it needs nothing below them
            needed.assign(N, false);
            for (const kernel::Output& o : k.outputs) needed[size_t(o.node)] = true;
            for (size_t i = N; i-- > 0;)
                if (needed[i] && !hoisted[i])
                    for (int s = 0; s < kernel::op_arity(k.nodes[i].op); ++s) needed[size_t(k.nodes[i].src[s])] = true;
        }
        // Reduce steps per element of the main loop: none when every reduce is hoisted.
        bool per_element_reduce = false;
        for (size_t i = 0; i < N; ++i)
            per_element_reduce =
                per_element_reduce || (needed[i] && kernel::op_is_reduce(k.nodes[i].op) && !hoisted[i]);
        int64_t main_rnum = per_element_reduce ? rnum : 1;
        bool float_product = false;  // never split: float products keep the interpreter's order
        for (size_t i = 0; i < N; ++i)
            float_product =
                float_product || (needed[i] && k.nodes[i].op == Op::reduce_prod && dtype_is_float(dt(int(i))));
        if (!mm.use_blas && R > 0 && gnum <= 8 && rnum >= kParallelWork && !float_product)
            for (size_t d = G; d < G + R; ++d)
                if (k.shape[d] >= 16) {
                    par_axis = int(d);
                    break;
                }

        plan_row_cache();

        os << "\n// " << kernel::shape_string(k.shape) << " reduce_axes=" << R << "\n";
        os << "extern \"C\" void " << name << "(void* const* zbuf, const uint64_t* zscalar) {\n";
        for (size_t i = 0; i < k.inputs.size(); ++i)
            os << "  const " << mtype(k.inputs[i].dtype) << "* __restrict in" << i << " = (const "
               << mtype(k.inputs[i].dtype) << "*)zbuf[" << i << "];\n";
        for (size_t o = 0; o < k.outputs.size(); ++o)
            os << "  " << mtype(k.outputs[o].dtype) << "* __restrict out" << o << " = (" << mtype(k.outputs[o].dtype)
               << "*)zbuf[" << k.inputs.size() + o << "];\n";
        for (size_t s = 0; s < k.scalars.size(); ++s) {
            DType t = k.scalars[s];
            std::string raw = "zscalar[" + std::to_string(s) + "]";
            std::string v = t == DType::f16 ? "zx_f16_to_f32((uint16_t)" + raw + ")"
                : t == DType::bf16          ? "zx_bf16_to_f32((uint16_t)" + raw + ")"
                : t == DType::bool_         ? "((" + raw + " & 0xff) != 0)"
                                            : "zx_bitcast<" + ctype(t) + ">((" + mtype(t) + ")" + raw + ")";
            if (t == DType::f32) v = "zx_bitcast<float>((uint32_t)" + raw + ")";
            if (t == DType::f64) v = "zx_bitcast<double>(" + raw + ")";
            os << "  const " << ctype(t) << " s" << s << " = " << v << ";\n";
        }
        os << "  (void)zbuf; (void)zscalar;\n";
        if (gnum == 0) {
            os << "}\n";
            return;
        }
        if (mm.use_blas) emit_blas("  ");
        for (size_t i = 0; i < N; ++i)
            if (hoisted[i]) emit_hoisted_reduce(int(i));

        if (G == 0) {
            os << "  {\n";
            os << "    const int64_t zflat = 0; (void)zflat;\n";
            for (size_t i = 0; i < N; ++i)
                if (needed[i] && level[i] == 0) emit_level0(int(i), "    ");
            emit_stores("    ");
            os << "  }\n}\n";
            return;
        }
        if (mm.use_blas && !mm.epilogue) {
            os << "}\n";
            return;
        }
        int64_t cols = k.shape[G - 1], rows = gnum / cols;
        // Blocks of the last axis: enough tasks for every thread, each worth >= ~16K steps.
        int64_t nblk_target = std::max<int64_t>(1, kTargetTasks / rows);
        int64_t min_blk = std::max<int64_t>(16, 16384 / std::max<int64_t>(1, main_rnum));
        int64_t blk = std::max<int64_t>(min_blk, (cols + nblk_target - 1) / nblk_target);
        blk = std::min<int64_t>(cols, (blk + 15) / 16 * 16);
        int64_t nblk = (cols + blk - 1) / blk, tasks = rows * nblk;
        int64_t work = gnum * std::max<int64_t>(1, main_rnum);  // hoisted reduces ran above
        if (par_axis < 0 && work >= kParallelWork && tasks > 1)
            os << "  #pragma omp parallel for schedule(dynamic, 1)\n";
        os << "  for (int64_t zt = 0; zt < " << tasks << "; ++zt) {\n";
        // Only the inner loop is to be vectorised. With a short constant row GCC 12 unrolls the
        // inner loop and vectorises this one instead, and there it gives every masked load of a
        // vector group the mask of the first copy (padded rows read wrongly). An asm statement
        // keeps the vectoriser off this loop.
        os << "    __asm__ volatile(\"\");\n";
        os << "    const int64_t zrow = zt / " << nblk << ", zc0 = (zt % " << nblk << ") * " << blk << ";\n";
        os << "    const int64_t zc1 = zc0 + " << blk << " < " << cols << " ? zc0 + " << blk << " : " << cols << ";\n";
        os << "    int64_t zr = zrow; (void)zr;\n";
        for (size_t d = G - 1; d-- > 0;)
            os << "    const int64_t " << var(d) << " = zr % " << k.shape[d] << "; zr /= " << k.shape[d] << ";\n";
        for (size_t i = 0; i < N; ++i)
            if (needed[i] && level[i] == 0 && !varies_last[i]) emit_level0(int(i), "    ");
        if (alias.empty() && std::none_of(cache_of.begin(), cache_of.end(), [](int c) { return c >= 0; })) {
            emit_inner_loop(false);
        } else {
            std::string cond = "true";
            for (auto [a, b] : alias) cond += " && zbuf[" + std::to_string(a) + "] == zbuf[" + std::to_string(b) + "]";
            os << "    if (" << cond << ") {\n";
            emit_inner_loop(true);
            os << "    } else {\n";
            emit_inner_loop(false);
            os << "    }\n";
        }
        os << "  }\n";
        for (size_t i = 0; i < N; ++i)
            if (hoisted[i]) os << "  free(zh" << i << ");\n";
        os << "}\n";
    }

    void emit_inner_loop(bool cached) {
        os << "    for (int64_t " << var(G - 1) << " = zc0; " << var(G - 1) << " < zc1; ++" << var(G - 1) << ") {\n";
        if (mm.use_blas) os << "      const int64_t zflat = zrow * " << k.shape[G - 1] << " + " << var(G - 1) << ";\n";
        for (size_t i = 0; i < k.nodes.size(); ++i)
            if ((cached ? needed_cached[i] : needed[i]) && level[i] == 0 && varies_last[i])
                emit_level0(int(i), "      ", cached);
        emit_stores("      ");
        os << "    }\n";
    }

    // Whether node j is in the level-1 body of reduce node r.
    bool in_body(size_t r, int j) const {
        std::vector<bool> body(k.nodes.size(), false);
        body[size_t(k.nodes[r].src[0])] = true;
        for (size_t x = r; x-- > 0;) {
            if (!body[x] || level[x] == 0) continue;
            if (int(x) == j) return true;
            for (int s = 0; s < kernel::op_arity(k.nodes[x].op); ++s) body[size_t(k.nodes[x].src[s])] = true;
        }
        return false;
    }

    // Does level-0 node e (at last-axis index i) compute what body node b computes at k = i?
    bool same_as_body(int e, int b, std::vector<std::pair<uint32_t, uint32_t>>& pairs) const {
        if (e == b) return level[size_t(e)] == 0;
        const Node& ne = k.nodes[size_t(e)];
        const Node& nb = k.nodes[size_t(b)];
        if (ne.op != nb.op || ne.dtype != nb.dtype) return false;
        size_t L = G - 1, K = G;
        switch (ne.op) {
            case Op::constant: return ne.value == nb.value;
            case Op::scalar: return ne.arg == nb.arg;
            case Op::index: return (ne.arg == nb.arg && ne.arg < L) || (ne.arg == L && nb.arg == K);
            case Op::load: {
                const kernel::Input& ie = k.inputs[ne.arg];
                const kernel::Input& ib = k.inputs[nb.arg];
                if (ie.dtype != ib.dtype || ie.pad_value != ib.pad_value) return false;
                if (ie.view.layers.size() != 1 || ib.view.layers.size() != 1) return false;
                const ViewLayer& le = ie.view.layers[0];
                const ViewLayer& lb = ib.view.layers[0];
                if (le.has_mask() || lb.has_mask() || le.shape.size() != G || lb.shape.size() != G + 1) return false;
                if (le.offset != lb.offset || lb.strides[L] != 0 || lb.strides[K] != le.strides[L]) return false;
                for (size_t d = 0; d < L; ++d)
                    if (le.shape[d] != 1 && le.strides[d] != lb.strides[d]) return false;
                if (ne.arg != nb.arg) pairs.push_back({ne.arg, nb.arg});
                return true;
            }
            default:
                if (kernel::op_is_reduce(ne.op)) return false;
                for (int s = 0; s < kernel::op_arity(ne.op); ++s)
                    if (!same_as_body(ne.src[s], nb.src[s], pairs)) return false;
                return true;
        }
    }

    void plan_row_cache() {
        size_t N = k.nodes.size();
        cache_of.assign(N, -1);
        cache_owner.assign(N, -1);
        needed_cached = needed;
        if (G == 0 || R != 1 || mm.use_blas || par_axis >= 0) return;
        if (k.shape[G] != k.shape[G - 1] || k.shape[G] <= 0) return;
        for (size_t e = N; e-- > 0;) {
            const Node& ne = k.nodes[e];
            if (!needed[e] || level[e] != 0 || !varies_last[e] || kernel::op_arity(ne.op) == 0 ||
                kernel::op_is_reduce(ne.op))
                continue;
            for (size_t r = 0; r < N && cache_of[e] < 0; ++r) {
                if (!kernel::op_is_reduce(k.nodes[r].op) || !needed[r] || varies_last[r]) continue;
                for (size_t b = 0; b < r && cache_of[e] < 0; ++b) {
                    if (level[b] != 1 || !in_body(r, int(b)) || (cache_owner[b] >= 0 && cache_owner[b] != int(r)))
                        continue;
                    if (k.shape[G] * int64_t(sizeof(double)) > (int64_t(64) << 10)) continue;  // stays on the stack
                    std::vector<std::pair<uint32_t, uint32_t>> pairs;
                    if (!same_as_body(int(e), int(b), pairs)) continue;
                    cache_of[e] = int(b);
                    cache_owner[b] = int(r);
                    for (auto p : pairs)
                        if (std::find(alias.begin(), alias.end(), p) == alias.end()) alias.push_back(p);
                }
            }
        }
        // What the cached inner loop still needs: stop at nodes read from a cache.
        needed_cached.assign(N, false);
        for (const kernel::Output& o : k.outputs) needed_cached[size_t(o.node)] = true;
        for (size_t i = N; i-- > 0;) {
            if (!needed_cached[i] || cache_of[i] >= 0) continue;
            if (mm.use_blas && int(i) == mm.reduce_node) continue;
            for (int s = 0; s < kernel::op_arity(k.nodes[i].op); ++s) needed_cached[size_t(k.nodes[i].src[s])] = true;
        }
        // Store only the caches the cached loop reads.
        std::vector<bool> read(N, false);
        for (size_t e = 0; e < N; ++e)
            if (needed_cached[e] && cache_of[e] >= 0) read[size_t(cache_of[e])] = true;
        for (size_t b = 0; b < N; ++b)
            if (!read[b]) cache_owner[b] = -1;
    }
};

bool single_plain_layer(const View& v) { return v.layers.size() == 1 && !v.layers[0].has_mask(); }

}  // namespace

MatmulPlan host_matmul_plan(const Kernel& k) {
    MatmulPlan p;
    size_t G = k.global_rank();
    if (k.reduce_axes != 1 || G < 2) return p;
    int reduce = -1;
    for (size_t i = 0; i < k.nodes.size(); ++i)
        if (kernel::op_is_reduce(k.nodes[i].op)) {
            if (reduce >= 0) return p;  // more than one reduce
            reduce = int(i);
        }
    if (reduce < 0) return p;
    const Node& rd = k.nodes[size_t(reduce)];
    if (rd.op != Op::reduce_sum || (rd.dtype != DType::f32 && rd.dtype != DType::f64)) return p;
    const Node& mul = k.nodes[size_t(rd.src[0])];
    if (mul.op != Op::mul) return p;
    const Node& x = k.nodes[size_t(mul.src[0])];
    const Node& y = k.nodes[size_t(mul.src[1])];
    if (x.op != Op::load || y.op != Op::load) return p;
    const View& vx = k.inputs[x.arg].view;
    const View& vy = k.inputs[y.arg].view;
    if (vx.rank() != k.shape.size() || vy.rank() != k.shape.size()) return p;
    if (!single_plain_layer(vx) || !single_plain_layer(vy)) return p;
    size_t P = G - 2, Q = G - 1, K = G;
    int64_t M = k.shape[P], N = k.shape[Q], KK = k.shape[K];
    if (M < 1 || N < 1 || KK < 1) return p;
    // A has no stride along n, B none along m.
    auto st = [](const View& v, size_t d) { return v.layers[0].shape[d] == 1 ? 0 : v.layers[0].strides[d]; };
    int ai = -1, bi = -1;
    if (st(vx, Q) == 0 && st(vy, P) == 0) {
        ai = int(x.arg);
        bi = int(y.arg);
    } else if (st(vy, Q) == 0 && st(vx, P) == 0) {
        ai = int(y.arg);
        bi = int(x.arg);
    } else {
        return p;
    }
    const View& va = k.inputs[size_t(ai)].view;
    const View& vb = k.inputs[size_t(bi)].view;
    int64_t amk = st(va, P), akk = st(va, K), bkk = st(vb, K), bnn = st(vb, Q);
    // A (m×k): row-major when the k stride is 1, transposed when the m stride is 1.
    if ((akk == 1 || KK == 1) && (amk >= KK || M == 1)) {
        p.a_trans = false;
        p.lda = M == 1 ? KK : amk;
    } else if ((amk == 1 || M == 1) && (akk >= M || KK == 1)) {
        p.a_trans = true;
        p.lda = KK == 1 ? M : akk;
    } else {
        return p;
    }
    if ((bnn == 1 || N == 1) && (bkk >= N || KK == 1)) {
        p.b_trans = false;
        p.ldb = KK == 1 ? N : bkk;
    } else if ((bkk == 1 || KK == 1) && (bnn >= KK || N == 1)) {
        p.b_trans = true;
        p.ldb = N == 1 ? KK : bnn;
    } else {
        return p;
    }
    if (p.lda < 1 || p.ldb < 1 || p.lda > INT32_MAX || p.ldb > INT32_MAX || M > INT32_MAX || N > INT32_MAX ||
        KK > INT32_MAX)
        return p;
    for (size_t d = 0; d + 2 < G; ++d)
        if (va.layers[0].strides[d] < 0 || vb.layers[0].strides[d] < 0) return p;
    if (va.layers[0].offset < 0 || vb.layers[0].offset < 0) return p;
    p.use_blas = true;
    p.reduce_node = reduce;
    p.a_input = ai;
    p.b_input = bi;
    p.m = M;
    p.n = N;
    p.k = KK;
    // Write the product straight into an output that is contiguous and of the same dtype.
    for (size_t o = 0; o < k.outputs.size(); ++o)
        if (k.outputs[o].dtype == rd.dtype && k.outputs[o].view.is_contiguous()) {
            p.direct_output = int(o);
            break;
        }
    p.epilogue = !(k.outputs.size() == 1 && p.direct_output == 0 && k.outputs[0].node == reduce);
    return p;
}

std::string host_source(std::span<const Kernel* const> kernels, std::span<const std::string> names) {
    std::ostringstream os;
    os << host_preamble();
    for (size_t i = 0; i < kernels.size(); ++i) {
        Codegen g(*kernels[i], os);
        g.generate(names[i]);
    }
    return os.str();
}

}  // namespace zyx::backend::host
