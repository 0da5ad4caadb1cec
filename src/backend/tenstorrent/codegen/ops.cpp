#include "backend/tenstorrent/codegen/ops.hpp"

#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "kernel/analysis.hpp"

namespace zyx::tt::codegen {

using kernel::Kernel;
using kernel::Node;
using kernel::Op;

const char* data_format_cpp(protocol::DataFormat f) {
    switch (f) {
        case protocol::DataFormat::Float32: return "DataFormat::Float32";
        case protocol::DataFormat::Float16_b: return "DataFormat::Float16_b";
        case protocol::DataFormat::Int32: return "DataFormat::Int32";
        default: break;
    }
    throw Error(ErrorStatus::Internal, "data_format_cpp: format " + std::string(protocol::data_format_name(f)));
}

uint32_t f32_bits_of(DType t, uint64_t bits) {
    float f = float(kernel::double_from_bits(t, bits));
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

bool tile_dtype_ok(DType t) { return t == DType::f32 || t == DType::bf16 || t == DType::bool_ || dtype_is_int(t); }

namespace {

bool no(std::string* why, const std::string& reason) {
    if (why) *why = reason;
    return false;
}

std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%08xu", v);  // allow-print: formats a literal into b
    return b;
}

}  // namespace

int small_exponent(const Kernel& k, int i) {
    const Node& e = k.nodes[size_t(i)];
    if (e.op != Op::constant || !dtype_is_int(e.dtype)) return -1;
    double v = kernel::double_from_bits(e.dtype, e.value);
    return v >= 0 && v < 64 ? int(v) : -1;
}

bool only_feeds_output(const Kernel& k, int i) {
    const std::vector<bool> needed = kernel::needed_nodes(k);  // merged duplicates read nodes too
    for (size_t j = 0; j < k.nodes.size(); ++j)
        for (int s = 0; needed[j] && s < kernel::op_arity(k.nodes[j].op); ++s)
            if (k.nodes[j].src[s] == i) return false;
    return k.outputs.size() == 1 && k.outputs[0].node == i;
}

void emit_init(std::ostringstream& os, const std::string& ind, InitTracker& t, const std::string& text) {
    if (t.current == text) return;
    os << ind << text << "\n";
    t.current = text;
}

void emit_copy(std::ostringstream& os, const std::string& ind, InitTracker& t, uint32_t src, uint32_t dst) {
    if (src == dst) return;
    emit_init(os, ind, t, "copy_dest_values_init();");
    os << ind << "copy_dest_values<DataFormat::Float32>(" << src << ", " << dst << ");\n";
}

void emit_unary(std::ostringstream& os, const std::string& ind, InitTracker& t, const std::string& name,
                uint32_t slot) {
    emit_init(os, ind, t, name + "_tile_init();");
    os << ind << name << "_tile(" << slot << ");\n";
}

void emit_binary(std::ostringstream& os, const std::string& ind, InitTracker& t, const std::string& name, uint32_t a,
                 uint32_t b, uint32_t out) {
    emit_init(os, ind, t, name + "_tile_init();");
    os << ind << name << "_tile(" << a << ", " << b << ", " << out << ");\n";
}

void emit_fill(std::ostringstream& os, const std::string& ind, InitTracker& t, uint32_t slot, uint32_t bits) {
    emit_init(os, ind, t, "fill_tile_init();");
    os << ind << "fill_tile_bitcast(" << slot << ", " << hex(bits) << ");\n";
}

bool tile_op_ok(const Kernel& k, int i, std::string* why) {
    const Node& n = k.nodes[size_t(i)];
    auto src_t = [&](int s) { return k.nodes[size_t(n.src[s])].dtype; };
    const bool f = dtype_is_float(n.dtype), b = n.dtype == DType::bool_, in = dtype_is_int(n.dtype);
    const bool w = words(n.dtype);
    switch (n.op) {
        case Op::load:
        case Op::constant:
        case Op::index: return true;
        case Op::scalar:
            if (dtype_size(n.dtype) > 4) return no(why, "a 64-bit launch scalar (runtime args are 32-bit words)");
            return true;
        case Op::neg:
        case Op::abs:
            if (dtype_is_unsigned_int(n.dtype)) return no(why, "unsigned wrap-around");
            return true;
        case Op::exp:
        case Op::exp2:
        case Op::log:
        case Op::log2:
        case Op::sqrt:
        case Op::rsqrt:
        case Op::recip:
        case Op::sin:
        case Op::cos:
        case Op::tanh:
        case Op::sigmoid:
        case Op::erf: return f;
        case Op::relu:
        case Op::floor:
        case Op::ceil:
        case Op::round:
        case Op::sign:
        case Op::logical_not: return true;
        case Op::bit_not: return b || w ? true : no(why, "bit operations on integers other than i32");
        case Op::add:
        case Op::mul:
        case Op::max:
        case Op::min: return true;
        case Op::sub:
            if (dtype_is_unsigned_int(n.dtype)) return no(why, "unsigned wrap-around");
            return true;
        case Op::div:
            if (!f && !w) return no(why, "integer division other than i32");
            return true;
        case Op::pow:
            if (f || (w && small_exponent(k, n.src[1]) >= 0)) return true;
            return no(why, w ? "i32 pow with a tensor or negative exponent" : "integer pow other than i32");
        case Op::mod:
            if (!f && !w) return no(why, "integer remainder other than i32");
            return true;
        case Op::cmp_lt:
        case Op::cmp_le:
        case Op::cmp_gt:
        case Op::cmp_ge:
        case Op::cmp_eq:
        case Op::cmp_ne:
        case Op::logical_and:
        case Op::logical_or:
        case Op::logical_xor: return true;
        case Op::bit_and:
        case Op::bit_or:
        case Op::bit_xor: return b || w ? true : no(why, "bit operations on integers other than i32");
        case Op::shl:
        case Op::shr: return w ? true : no(why, "shifts of integers other than i32");
        case Op::where: return true;
        case Op::cast: {
            DType from = src_t(0);
            if (dtype_is_int(from) && dtype_is_int(n.dtype) && dtype_size(n.dtype) < dtype_size(from))
                return no(why, "a narrowing integer cast");
            if (dtype_is_float(from) && in && !w && !only_feeds_output(k, i))
                return no(
                    why,
                    "a float → integer cast whose result the kernel computes on (only a cast stored as the output converts)");
            return true;
        }
        case Op::bitcast: {
            // The stored bits of a load, stored again: a 32-bit bit copy through DST.
            int r = i;
            while (k.nodes[size_t(r)].op == Op::bitcast) r = k.nodes[size_t(r)].src[0];
            bool same_size = dtype_size(n.dtype) == 4 && dtype_size(k.nodes[size_t(r)].dtype) == 4;
            // Up the chain: every bitcast above this one is the only use of the one below.
            int top = i;
            for (bool up = true; up;) {
                up = false;
                int users = 0, user = -1;
                const std::vector<bool> needed = kernel::needed_nodes(k);
                for (size_t j = 0; j < k.nodes.size(); ++j)
                    for (int s = 0; needed[j] && s < kernel::op_arity(k.nodes[j].op); ++s)
                        if (k.nodes[j].src[s] == top) ++users, user = int(j);
                if (users == 1 && k.nodes[size_t(user)].op == Op::bitcast) {
                    top = user;
                    up = true;
                }
            }
            if (k.nodes[size_t(r)].op != Op::load || !same_size || !only_feeds_output(k, top))
                return no(
                    why, "bitcast of a computed value or into a value computed on (DST holds values, not stored bits)");
            return true;
        }
        case Op::reduce_sum:
        case Op::reduce_max:
        case Op::reduce_min:
        case Op::reduce_prod: return true;
    }
    return no(why, "unknown op");
}

namespace {

void emit_int(std::ostringstream& os, const std::string& ind, InitTracker& t, const std::string& name, uint32_t a,
              uint32_t b, uint32_t out);

// typecast_tile template arguments (tt::DataFormat codes).
constexpr const char* kTypecastIntToFloat =
    "static_cast<uint32_t>(DataFormat::Int32), static_cast<uint32_t>(DataFormat::Float32)";
constexpr const char* kTypecastFloatToInt =
    "static_cast<uint32_t>(DataFormat::Float32), static_cast<uint32_t>(DataFormat::Int32)";

// out = max / min (a, b), NaN when either is NaN (the SFPU's own max / min return the other
// operand for a NaN). out may be a, not b; s0, s1 are free.
void max_min_nan(std::ostringstream& os, const std::string& ind, InitTracker& t, bool is_max, uint32_t a, uint32_t b,
                 uint32_t out, uint32_t s0, uint32_t s1) {
    emit_copy(os, ind, t, a, s0);
    emit_unary(os, ind, t, "isnan", s0);
    emit_copy(os, ind, t, b, s1);
    emit_unary(os, ind, t, "isnan", s1);
    emit_binary(os, ind, t, "add_binary", s0, s1, s0);
    emit_binary(os, ind, t, is_max ? "binary_max" : "binary_min", a, b, out);
    emit_fill(os, ind, t, s1, 0x7fc00000u);
    emit_init(os, ind, t, "where_tile_init();");
    os << ind << "where_tile<DataFormat::Float32>(" << s0 << ", " << s1 << ", " << out << ", " << out << ");\n";
}

}  // namespace

uint32_t combine_scratch(Op reduce, DType t) {
    return (reduce == Op::reduce_max || reduce == Op::reduce_min) && dtype_is_float(t) ? 2 : 0;  // not on words
}

void emit_combine(std::ostringstream& os, const std::string& ind, InitTracker& t, Op reduce, DType dt, uint32_t acc,
                  uint32_t v, const uint32_t* s) {
    if (words(dt)) {
        const char* name = reduce == Op::reduce_sum ? "add_int"
            : reduce == Op::reduce_prod             ? "mul_int"
            : reduce == Op::reduce_max              ? "binary_max_int32"
                                                    : "binary_min_int32";
        return emit_int(os, ind, t, name, acc, v, acc);
    }
    switch (reduce) {
        case Op::reduce_sum: return emit_binary(os, ind, t, "add_binary", acc, v, acc);
        case Op::reduce_prod: return emit_binary(os, ind, t, "mul_binary", acc, v, acc);
        case Op::reduce_max:
        case Op::reduce_min: {
            bool is_max = reduce == Op::reduce_max;
            if (!dtype_is_float(dt)) return emit_binary(os, ind, t, is_max ? "binary_max" : "binary_min", acc, v, acc);
            return max_min_nan(os, ind, t, is_max, acc, v, acc, s[0], s[1]);
        }
        default: break;
    }
    throw Error(ErrorStatus::Internal, "tt codegen: combine of " + std::string(kernel::op_name(reduce)));
}

uint32_t op_scratch(const Kernel& k, int i) {
    const Node& n = k.nodes[size_t(i)];
    const bool f = dtype_is_float(n.dtype);
    if (words(n.dtype)) {
        switch (n.op) {
            case Op::neg:
            case Op::relu:
            case Op::bit_not:
            case Op::shr: return 1;
            case Op::abs:
            case Op::sign:
            case Op::div:
            case Op::mod:
            case Op::pow: return 2;
            default: return 0;
        }
    }
    switch (n.op) {
        case Op::log2:
        case Op::logical_and:
        case Op::logical_or:
        case Op::logical_xor: return 1;
        case Op::max:
        case Op::min: return f ? 2 : 0;
        case Op::cast: {
            DType from = k.nodes[size_t(n.src[0])].dtype;
            if (n.dtype == DType::bf16 && from != DType::bool_ && !only_feeds_output(k, i)) return 2;
            return 0;
        }
        default: return 0;
    }
}

void emit_typecast(std::ostringstream& os, const std::string& ind, InitTracker& t, bool to_words, uint32_t slot) {
    const char* args = to_words ? kTypecastFloatToInt : kTypecastIntToFloat;
    emit_init(os, ind, t, "typecast_tile_init<" + std::string(args) + ">();");
    os << ind << "typecast_tile<" << args << ">(" << slot << ");\n";
}

namespace {

// An integer SFPU op on Int32 words: `name`_tile<DataFormat::Int32>(a, b, out) with its init
// (sfpu_int_ops.h: add_int, sub_int, mul_int, bitwise_*_binary, binary_*_shift, lt/gt/le/ge_int),
// or the untemplated int32 forms (binary_max_int32, div_int32_trunc, fmod_int32, …).
void emit_int(std::ostringstream& os, const std::string& ind, InitTracker& t, const std::string& name, uint32_t a,
              uint32_t b, uint32_t out) {
    const bool typed = name.find("int32") == std::string::npos && name.find("uint32") == std::string::npos;
    std::string init = name.rfind("bitwise_", 0) == 0                              ? "binary_bitwise_tile_init()"
        : name.rfind("binary_", 0) == 0 && name.find("shift") != std::string::npos ? "binary_shift_tile_init()"
        : name == "mul_int" || name == "lt_int" || name == "gt_int" || name == "le_int" || name == "ge_int"
        ? name + "_tile_init<DataFormat::Int32>()"
        : name + "_tile_init()";
    emit_init(os, ind, t, init + ";");
    os << ind << name << "_tile" << (typed ? "<DataFormat::Int32>" : "") << "(" << a << ", " << b << ", " << out
       << ");\n";
}

// Node i, of an i32 dtype, on Int32 words (operands a, b; result out; scratch s as op_scratch).
// The IR's integer semantics (docs/ir.md): wrap-around, x / 0 = x % 0 = 0, shifts past the width.
void emit_words_op(std::ostringstream& os, const std::string& ind, InitTracker& t, const Kernel& k, int i, uint32_t a,
                   uint32_t b, uint32_t c, uint32_t out, const uint32_t* s) {
    const Node& n = k.nodes[size_t(i)];
    auto fill = [&](uint32_t slot, uint32_t word) { emit_fill(os, ind, t, slot, word); };
    // out = (b == 0) ? 0 : out, after out was computed from a and b (b is untouched).
    auto zero_where_b_is_zero = [&] {
        emit_copy(os, ind, t, b, s[0]);
        emit_typecast(os, ind, t, false, s[0]);
        emit_unary(os, ind, t, "eqz", s[0]);
        fill(s[1], 0);
        emit_init(os, ind, t, "where_tile_init();");
        os << ind << "where_tile<DataFormat::Int32>(" << s[0] << ", " << s[1] << ", " << out << ", " << out << ");\n";
    };
    switch (n.op) {
        case Op::add: return emit_int(os, ind, t, "add_int", a, b, out);
        case Op::sub: return emit_int(os, ind, t, "sub_int", a, b, out);
        case Op::mul: return emit_int(os, ind, t, "mul_int", a, b, out);
        case Op::max: return emit_int(os, ind, t, "binary_max_int32", a, b, out);
        case Op::min: return emit_int(os, ind, t, "binary_min_int32", a, b, out);
        case Op::bit_and: return emit_int(os, ind, t, "bitwise_and_binary", a, b, out);
        case Op::bit_or: return emit_int(os, ind, t, "bitwise_or_binary", a, b, out);
        case Op::bit_xor: return emit_int(os, ind, t, "bitwise_xor_binary", a, b, out);
        case Op::shl: return emit_int(os, ind, t, "binary_left_shift", a, b, out);  // counts past 31 give 0
        case Op::shr:  // arithmetic; a count past 31 (or negative: unsigned) shifts by 31, the sign fill
            fill(s[0], 31);
            emit_int(os, ind, t, "binary_min_uint32", b, s[0], s[0]);
            return emit_int(os, ind, t, "binary_right_shift", a, s[0], out);
        case Op::div:  // truncating; INT32_MIN / -1 wraps
            emit_int(os, ind, t, "div_int32_trunc", a, b, out);
            return zero_where_b_is_zero();
        case Op::mod:  // the sign of a (C's %)
            emit_int(os, ind, t, "fmod_int32", a, b, out);
            return zero_where_b_is_zero();
        case Op::neg: fill(s[0], 0); return emit_int(os, ind, t, "sub_int", s[0], a, out);
        case Op::bit_not: fill(s[0], 0xffffffffu); return emit_int(os, ind, t, "bitwise_xor_binary", a, s[0], out);
        case Op::relu: fill(s[0], 0); return emit_int(os, ind, t, "binary_max_int32", a, s[0], out);
        case Op::abs:  // a < 0 ? 0 - a : a
            fill(s[0], 0);
            emit_int(os, ind, t, "sub_int", s[0], a, s[1]);
            emit_int(os, ind, t, "lt_int", a, s[0], s[0]);
            emit_init(os, ind, t, "where_tile_init();");
            os << ind << "where_tile<DataFormat::Int32>(" << s[0] << ", " << s[1] << ", " << a << ", " << out << ");\n";
            return;
        case Op::sign:  // (a > 0) - (a < 0)
            fill(s[0], 0);
            emit_int(os, ind, t, "gt_int", a, s[0], s[1]);
            emit_int(os, ind, t, "lt_int", a, s[0], s[0]);
            return emit_int(os, ind, t, "sub_int", s[1], s[0], out);
        case Op::floor:
        case Op::ceil:
        case Op::round: return emit_copy(os, ind, t, a, out);
        case Op::pow: {  // a constant exponent e in [0, 64): square and multiply, unrolled
            const int e = small_exponent(k, n.src[1]);
            fill(s[0], 1);
            emit_copy(os, ind, t, a, s[1]);
            for (int bit = 0; (e >> bit) != 0; ++bit) {
                if ((e >> bit) & 1) emit_int(os, ind, t, "mul_int", s[0], s[1], s[0]);
                if ((e >> (bit + 1)) != 0) emit_int(os, ind, t, "mul_int", s[1], s[1], s[1]);
            }
            return emit_copy(os, ind, t, s[0], out);
        }
        case Op::where:
            emit_init(os, ind, t, "where_tile_init();");
            os << ind << "where_tile<DataFormat::Int32>(" << a << ", " << b << ", " << c << ", " << out << ");\n";
            return;
        case Op::cast: {
            DType from = k.nodes[size_t(n.src[0])].dtype;
            emit_copy(os, ind, t, a, out);
            if (words(from)) return;
            if (dtype_is_float(from)) emit_unary(os, ind, t, "trunc", out);  // then nearest = the truncation
            return emit_typecast(os, ind, t, true, out);                     // saturates, NaN → 0, as the IR's cast
        }
        case Op::bitcast: return emit_copy(os, ind, t, a, out);
        default: break;
    }
    throw Error(ErrorStatus::Internal, "tt codegen: no Int32 form for " + std::string(kernel::op_name(n.op)));
}

}  // namespace

void emit_op(std::ostringstream& os, const std::string& ind, InitTracker& t, const Kernel& k, int i, uint32_t a,
             uint32_t b, uint32_t c, uint32_t out, const uint32_t* s) {
    const Node& n = k.nodes[size_t(i)];
    if (words(n.dtype)) return emit_words_op(os, ind, t, k, i, a, b, c, out, s);
    const bool f = dtype_is_float(n.dtype);
    // Operands on Int32 words (comparisons, logical ops and casts of i32 values).
    const bool wa = kernel::op_arity(n.op) > 0 && words(k.nodes[size_t(n.src[0])].dtype);
    auto unary = [&](const std::string& name) {
        emit_copy(os, ind, t, a, out);
        emit_unary(os, ind, t, name, out);
    };
    auto binary = [&](const std::string& name) { emit_binary(os, ind, t, name, a, b, out); };
    // dst = (x != 0) as 1.0 / 0.0 (NaN is non-zero; an Int32 word converts to a non-zero float).
    auto nonzero = [&](uint32_t x, uint32_t dst) {
        emit_copy(os, ind, t, x, dst);
        if (wa) emit_typecast(os, ind, t, false, dst);
        emit_unary(os, ind, t, "nez", dst);
    };
    // Comparisons of Int32 words: lt / gt / le / ge_int give the word 1 / 0; eq / ne test a − b
    // (zero exactly when a = b, with wrap-around). Then 1.0 / 0.0.
    auto compare_words = [&](const char* name) {
        if (name[0] == 'e' || name[0] == 'n') {
            emit_int(os, ind, t, "sub_int", a, b, out);
            emit_typecast(os, ind, t, false, out);
            emit_unary(os, ind, t, name, out);
            return;
        }
        emit_int(os, ind, t, name, a, b, out);
        emit_typecast(os, ind, t, false, out);
    };
    if (wa) {
        switch (n.op) {
            case Op::cmp_lt: return compare_words("lt_int");
            case Op::cmp_le: return compare_words("le_int");
            case Op::cmp_gt: return compare_words("gt_int");
            case Op::cmp_ge: return compare_words("ge_int");
            case Op::cmp_eq: return compare_words("eqz");
            case Op::cmp_ne: return compare_words("nez");
            case Op::logical_not:
                emit_copy(os, ind, t, a, out);
                emit_typecast(os, ind, t, false, out);
                return emit_unary(os, ind, t, "logical_not_unary", out);
            default: break;
        }
    }
    // out = (a != 0) op (b != 0) for booleans made from any values.
    auto logical = [&](const std::string& combine) {
        nonzero(a, out);
        nonzero(b, s[0]);
        emit_binary(os, ind, t, combine, out, s[0], out);
    };
    switch (n.op) {
        case Op::neg: return unary("negative");
        case Op::exp: return unary("exp");
        case Op::exp2: return unary("exp2");
        case Op::log: return unary("log");
        case Op::log2:  // ln(x) · (1 / ln 2)
            unary("log");
            emit_fill(os, ind, t, s[0],
                      f32_bits_of(DType::f32, kernel::bits_from_double(DType::f32, 1.0 / std::log(2.0))));
            emit_binary(os, ind, t, "mul_binary", out, s[0], out);
            return;
        case Op::sqrt: return unary("sqrt");
        case Op::rsqrt: return unary("rsqrt");
        case Op::recip: return unary("recip");
        case Op::sin: return unary("sin");
        case Op::cos: return unary("cos");
        case Op::tanh: return unary("tanh");
        case Op::sigmoid: return unary("sigmoid");
        case Op::erf:  // the accurate form (erf_tile's default is the fast approximation)
            emit_copy(os, ind, t, a, out);
            emit_init(os, ind, t, "erf_tile_init<false>();");
            os << ind << "erf_tile<false>(" << out << ");\n";
            return;
        case Op::relu: return f || dtype_is_signed_int(n.dtype) ? unary("relu") : emit_copy(os, ind, t, a, out);
        case Op::abs: return n.dtype == DType::bool_ ? emit_copy(os, ind, t, a, out) : unary("abs");
        case Op::floor: return f ? unary("floor") : emit_copy(os, ind, t, a, out);
        case Op::ceil: return f ? unary("ceil") : emit_copy(os, ind, t, a, out);
        case Op::round:  // half to even (round_tile with 0 decimals)
            if (!f) return emit_copy(os, ind, t, a, out);
            emit_copy(os, ind, t, a, out);
            emit_init(os, ind, t, "rounding_op_tile_init();");
            os << ind << "round_tile(" << out << ", 0);\n";
            return;
        case Op::sign: return n.dtype == DType::bool_ ? emit_copy(os, ind, t, a, out) : unary("sign");
        case Op::logical_not:
        case Op::bit_not: return unary("logical_not_unary");
        case Op::add: return binary("add_binary");
        case Op::sub: return binary("sub_binary");
        case Op::mul: return binary("mul_binary");
        case Op::div: return binary("div_binary");
        case Op::pow: return binary("power_binary");
        case Op::max:
        case Op::min:
            if (!f) return binary(n.op == Op::max ? "binary_max" : "binary_min");
            return max_min_nan(os, ind, t, n.op == Op::max, a, b, out, s[0], s[1]);
        case Op::mod: return binary("fmod_binary");  // C fmod: the sign of a
        case Op::cmp_lt: return binary("lt_binary");
        case Op::cmp_le: return binary("le_binary");
        case Op::cmp_gt: return binary("gt_binary");
        case Op::cmp_ge: return binary("ge_binary");
        case Op::cmp_eq: return binary("eq_binary");
        case Op::cmp_ne: return binary("ne_binary");
        case Op::logical_and: return logical("mul_binary");
        case Op::logical_or: return logical("binary_max");
        case Op::logical_xor: return logical("ne_binary");
        case Op::bit_and: return binary("mul_binary");  // booleans: 0 / 1
        case Op::bit_or: return binary("binary_max");
        case Op::bit_xor: return binary("ne_binary");
        case Op::where:
            emit_init(os, ind, t, "where_tile_init();");
            os << ind << "where_tile<DataFormat::Float32>(" << a << ", " << b << ", " << c << ", " << out << ");\n";
            return;
        case Op::cast: {
            DType from = k.nodes[size_t(n.src[0])].dtype, to = n.dtype;
            if (to == DType::bool_ && from != DType::bool_) return nonzero(a, out);
            if (words(from)) {  // Int32 words → f32, to nearest even; then as a cast from f32
                emit_copy(os, ind, t, a, out);
                emit_typecast(os, ind, t, false, out);
                a = out;
                from = DType::f32;
            }
            // (bf16 → bf16 too: a bf16 value computed in the kernel is carried unrounded, docs/ir.md;
            // integers: exact f32 values with more than 8 significant bits)
            if (to == DType::bf16 && from != DType::bool_ && !only_feeds_output(k, i)) {
                // Round to bf16 inside the kernel (Veltkamp's split with 2^16 + 1: the high part
                // hi = c - (c - x), c = x·65537, is x rounded to 8 significant bits, to nearest
                // even; docs/numerics.md). hi is NaN exactly when x is ±inf or NaN or c overflows:
                // then x itself.
                emit_fill(os, ind, t, s[0], 0x47800080u);  // 65537.0f
                emit_binary(os, ind, t, "mul_binary", a, s[0], s[0]);
                emit_binary(os, ind, t, "sub_binary", s[0], a, s[1]);
                emit_binary(os, ind, t, "sub_binary", s[0], s[1], s[1]);
                emit_copy(os, ind, t, s[1], s[0]);
                emit_unary(os, ind, t, "isnan", s[0]);
                emit_init(os, ind, t, "where_tile_init();");
                os << ind << "where_tile<DataFormat::Float32>(" << s[0] << ", " << a << ", " << s[1] << ", " << out
                   << ");\n";
                return;
            }
            if (dtype_is_float(from) && dtype_is_int(to)) return unary("trunc");  // the packer's typecast converts
            return emit_copy(os, ind, t, a, out);  // exact: the value in DST is already the result
        }
        case Op::bitcast: return emit_copy(os, ind, t, a, out);  // the load's bits, packed as they are
        default: break;
    }
    throw Error(
        ErrorStatus::Internal,
        "tt codegen: no tile form for " + std::string(kernel::op_name(n.op)) + "." + std::string(dtype_name(n.dtype)));
}

}  // namespace zyx::tt::codegen
