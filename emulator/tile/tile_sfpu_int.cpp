// SFPU integer binary ops on DST words: tt-metal's add_int_tile, sub_int_tile, rsub_int_tile,
// mul_int_tile, bitwise_{and,or,xor}_binary_tile, binary_{left,right,logical_right}_shift_tile,
// {lt,gt,le,ge}_int_tile, binary_{max,min}_{int32,uint32}_tile, div_int32_{floor,trunc}_tile,
// div_int32_tile, remainder_int32_tile and fmod_int32_tile (tile_math.hpp, SfpuBinaryInt).
// Every rule and its source: docs/numerics.md §6 "Integer SFPU ops".
//
// The LLK loads these words with SFPLOAD's INT32 mode (two's complement, no sign-magnitude
// conversion: the compute API passes SIGN_MAGNITUDE_FORMAT = false) and adds with SFPIADD, which
// wraps; UInt16 uses the LO16 mode, the low 16 bits. So everything here is unsigned 32-bit
// arithmetic on the words, modulo 2^32 (2^16 for UInt16).
#include <cstdint>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"

namespace zyx::emu::tile {

using detail::bits_of;
using detail::float_of;

namespace {

using Op = SfpuBinaryInt;

const char* op_name(Op op) {
    static const char* const names[] = {
        "add_int",    "sub_int",         "rsub_int",        "mul_int",     "bitwise_and",
        "bitwise_or", "bitwise_xor",     "left_shift",      "right_shift", "logical_right_shift",
        "lt_int",     "gt_int",          "le_int",          "ge_int",      "max",
        "min",        "div_int32_floor", "div_int32_trunc", "div_int32",   "remainder_int32",
        "fmod_int32",
    };
    const auto i = size_t(op);
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

// The formats tt-metal's API takes for each op (its static_asserts, or the fixed format of the
// _int32 / _uint32 functions).
bool takes(Op op, DataFormat f) {
    switch (op) {
        case Op::Max:
        case Op::Min: return f == DataFormat::Int32 || f == DataFormat::UInt32;
        case Op::DivFloor:
        case Op::DivTrunc:
        case Op::DivFloat:
        case Op::Remainder:
        case Op::Fmod: return f == DataFormat::Int32;
        default: return f == DataFormat::Int32 || f == DataFormat::UInt32 || f == DataFormat::UInt16;
    }
}

// out[i] = fn(a[i], b[i]) on the words; `mask` keeps the low 16 bits for UInt16 (inputs and result).
template <class Fn>
void map_words(const float* a, const float* b, float* out, uint32_t mask, Fn fn) {
    for (uint32_t i = 0; i < kTileElems; ++i) out[i] = float_of(fn(bits_of(a[i]) & mask, bits_of(b[i]) & mask) & mask);
}

// A shift by s: the count is the word read as an int32; a count outside [0, 31] gives 0 (the
// LLK's contract "shift amount < 0 or >= 32 -> 0").
inline bool shift_in_range(uint32_t s) { return s < 32u; }

// div_int32_floor_tile / div_int32_trunc_tile. A zero divisor has no guard in the LLK
// (ckernel_sfpu_div_int32_floor.h): its reciprocal becomes 2^127, the 16-bit correction
// saturates, and silicon returns the values tt-metal issue #55323 reports (WH and BH), which
// are reproduced here.
uint32_t div_int32(uint32_t x, uint32_t y, bool floor) {
    const int32_t a = int32_t(x), b = int32_t(y);
    if (b == 0) {
        if (a == std::numeric_limits<int32_t>::min()) return floor ? 65534u : 65535u;
        if (a < 0) return uint32_t(floor ? -65537 : -65536);
        return 65536u;
    }
    if (b == -1) return 0u - x;  // the quotient of INT32_MIN / −1 wraps to INT32_MIN
    int32_t q = a / b;
    if (floor && a % b != 0 && (a < 0) != (b < 0)) --q;
    return uint32_t(q);
}

// remainder_int32_tile (sign of b) and fmod_int32_tile (sign of a). The LLK forms |a| − q·|b|
// with an integer product, so a zero divisor leaves |a|, and the sign handling gives back a.
uint32_t rem_int32(uint32_t x, uint32_t y, bool python_remainder) {
    const int32_t a = int32_t(x), b = int32_t(y);
    if (b == 0) return x;
    if (b == -1) return 0u;
    int32_t r = a % b;
    if (python_remainder && r != 0 && (r < 0) != (b < 0)) r += b;
    return uint32_t(r);
}

// div_int32_tile: the Float32 quotient of the two words converted to the nearest floats
// (IEEE: x/0 = ±inf, 0/0 = NaN, written as the quiet NaN 0x7fc00000).
uint32_t div_float(uint32_t x, uint32_t y) {
    const float q = float(int32_t(x)) / float(int32_t(y));
    return q != q ? 0x7fc00000u : bits_of(q);
}

}  // namespace

void sfpu_binary_int(SfpuBinaryInt op, DataFormat fmt, const float* a, const float* b, float* out) {
    if (!takes(op, fmt))
        throw Error(ErrorStatus::Unsupported,
                    std::string("Unsupported: tile::sfpu_binary_int: ") + op_name(op) + " of data format " +
                        std::string(data_format_name(fmt)));
    const uint32_t m = fmt == DataFormat::UInt16 ? 0xffffu : 0xffffffffu;
    const bool is_signed = fmt == DataFormat::Int32;
    switch (op) {
        case Op::Add: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x + y; }); break;
        case Op::Sub: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x - y; }); break;
        case Op::Rsub: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return y - x; }); break;
        case Op::Mul: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x * y; }); break;
        case Op::And: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x & y; }); break;
        case Op::Or: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x | y; }); break;
        case Op::Xor: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return x ^ y; }); break;
        case Op::Shl:
            map_words(a, b, out, m, [](uint32_t x, uint32_t s) { return shift_in_range(s) ? x << s : 0u; });
            break;
        case Op::Shr:  // sign-filling for every format (a UInt16 word has no sign bit set)
            map_words(a, b, out, m,
                      [](uint32_t x, uint32_t s) { return shift_in_range(s) ? uint32_t(int32_t(x) >> s) : 0u; });
            break;
        case Op::ShrLogical:
            map_words(a, b, out, m, [](uint32_t x, uint32_t s) { return shift_in_range(s) ? x >> s : 0u; });
            break;
        case Op::Lt:
        case Op::Gt:
        case Op::Le:
        case Op::Ge: {
            // Signed order for Int32: flipping the sign bit maps it onto the unsigned order.
            const uint32_t flip = is_signed ? 0x80000000u : 0u;
            const Op o = op;
            map_words(a, b, out, m, [flip, o](uint32_t x, uint32_t y) {
                x ^= flip, y ^= flip;
                const bool r = o == Op::Lt ? x < y : o == Op::Gt ? x > y : o == Op::Le ? x <= y : x >= y;
                return uint32_t(r);
            });
            break;
        }
        case Op::Max:
        case Op::Min: {
            const uint32_t flip = is_signed ? 0x80000000u : 0u;
            const bool max = op == Op::Max;
            map_words(a, b, out, m, [flip, max](uint32_t x, uint32_t y) {
                const bool x_less = (x ^ flip) < (y ^ flip);
                return max == x_less ? y : x;
            });
            break;
        }
        case Op::DivFloor: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return div_int32(x, y, true); }); break;
        case Op::DivTrunc:
            map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return div_int32(x, y, false); });
            break;
        case Op::DivFloat: map_words(a, b, out, m, div_float); break;
        case Op::Remainder:
            map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return rem_int32(x, y, true); });
            break;
        case Op::Fmod: map_words(a, b, out, m, [](uint32_t x, uint32_t y) { return rem_int32(x, y, false); }); break;
    }
}

}  // namespace zyx::emu::tile
