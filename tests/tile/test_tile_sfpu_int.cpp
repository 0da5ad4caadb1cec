// The integer SFPU ops (tile::sfpu_binary_int: add_int_tile … fmod_int32_tile) against references
// written here in 64-bit arithmetic from the definitions in docs/numerics.md §6 "Integer SFPU ops",
// on every pair of edge words (INT32_MIN/MAX, ±1, 0, overflowing pairs, shift counts around
// [0, 31]), every shift count from −4 to 35, and random words; plus hand-written spot values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tile_test_util.hpp"

namespace tile = zyx::emu::tile;
using tile_test::bits;
using tile_test::from_bits;
using tile_test::Tile;
using DF = zyx::emu::DataFormat;
using Op = tile::SfpuBinaryInt;

namespace {

constexpr uint32_t kMin = 0x80000000u, kMax = 0x7fffffffu;

const std::vector<uint32_t>& edge_words() {
    static const std::vector<uint32_t> e = {0u,
                                            1u,
                                            0xffffffffu /* -1 */,
                                            2u,
                                            0xfffffffeu /* -2 */,
                                            3u,
                                            7u,
                                            0xfffffff9u /* -7 */,
                                            31u,
                                            32u,
                                            33u,
                                            64u,
                                            100u,
                                            0xffffff9cu /* -100 */,
                                            0xffffu,
                                            0x10000u,
                                            kMax,
                                            kMin,
                                            kMin + 1,
                                            kMax - 1,
                                            0x40000000u,
                                            0xdeadbeefu,
                                            12345678u,
                                            0xff439eb2u /* -12345678 */};
    return e;
}

// Tiles a and b: all pairs of edge words, then each of 8 edge words shifted by −4 … 35, then random
// words (every fourth divisor small, so the division family sees ordinary quotients too).
void make_inputs(Tile& a, Tile& b) {
    const auto& e = edge_words();
    uint32_t i = 0;
    for (uint32_t x : e)
        for (uint32_t y : e) a.v[i] = from_bits(x), b.v[i] = from_bits(y), ++i;
    const uint32_t shifted[] = {1u, 0xffffffffu, kMin, kMax, 0xdeadbeefu, 0xfffffff9u, 0x12345678u, 0xffffu};
    for (uint32_t x : shifted)
        for (int s = -4; s < 36; ++s) a.v[i] = from_bits(x), b.v[i] = from_bits(uint32_t(s)), ++i;
    std::mt19937 rng(7);
    for (; i < 1024; ++i) {
        a.v[i] = from_bits(rng());
        const uint32_t y = rng();
        b.v[i] = from_bits(i % 4 == 0 ? uint32_t(int32_t(y % 2001) - 1000) : y);
    }
}

// The value a word stands for in format f: Int32 signed, UInt32 unsigned, UInt16 its low 16 bits.
int64_t value(DF f, uint32_t w) {
    if (f == DF::Int32) return int64_t(int32_t(w));
    if (f == DF::UInt16) return int64_t(w & 0xffffu);
    return int64_t(w);
}
// A mathematical result stored as a word of format f (two's complement, wrapping).
uint32_t store(DF f, int64_t v) {
    const uint64_t u = uint64_t(v);
    return f == DF::UInt16 ? uint32_t(u & 0xffffu) : uint32_t(u & 0xffffffffu);
}
int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if (q * b != a && (a < 0) != (b < 0)) --q;
    return q;
}
int64_t pow2(int s) { return int64_t(1) << s; }

// docs/numerics.md §6, "Integer SFPU ops", element by element.
uint32_t reference(Op op, DF f, uint32_t x, uint32_t y) {
    const int64_t a = value(f, x), b = value(f, y);
    // The shift count is the word read as a (here: 16-bit unsigned / 32-bit signed) integer.
    const int64_t s = f == DF::UInt16 ? int64_t(y & 0xffffu) : int64_t(int32_t(y));
    const bool in_range = s >= 0 && s <= 31;
    switch (op) {
        case Op::Add: return store(f, a + b);
        case Op::Sub: return store(f, a - b);
        case Op::Rsub: return store(f, b - a);
        case Op::Mul: return store(f, int64_t(uint64_t(a) * uint64_t(b)));
        case Op::And: return store(f, int64_t(uint64_t(a) & uint64_t(b)));
        case Op::Or: return store(f, int64_t(uint64_t(a) | uint64_t(b)));
        case Op::Xor: return store(f, int64_t(uint64_t(a) ^ uint64_t(b)));
        case Op::Shl: return in_range ? store(f, a * pow2(int(s))) : 0u;
        case Op::Shr: {
            // Sign-filling for every format: a UInt32 word reads as the int32 it spells.
            const int64_t v = f == DF::UInt16 ? a : int64_t(int32_t(x));
            return in_range ? store(f, floor_div(v, pow2(int(s)))) : 0u;
        }
        case Op::ShrLogical:
            return in_range ? store(f, int64_t(uint64_t(a & 0xffffffff) / uint64_t(pow2(int(s))))) : 0u;
        case Op::Lt: return a < b;
        case Op::Gt: return a > b;
        case Op::Le: return a <= b;
        case Op::Ge: return a >= b;
        case Op::Max: return store(f, a > b ? a : b);
        case Op::Min: return store(f, a < b ? a : b);
        case Op::DivFloor:
        case Op::DivTrunc: {
            const bool fl = op == Op::DivFloor;
            if (b == 0) {  // silicon's values (tt-metal issue #55323)
                if (a == INT32_MIN) return fl ? 65534u : 65535u;
                return a < 0 ? store(f, fl ? -65537 : -65536) : 65536u;
            }
            return store(f, fl ? floor_div(a, b) : a / b);
        }
        case Op::Remainder: return b == 0 ? x : store(f, a - floor_div(a, b) * b);
        case Op::Fmod: return b == 0 ? x : store(f, a % b);
        case Op::DivFloat: {
            const double q = double(float(a)) / double(float(b));
            return std::isnan(q) ? 0x7fc00000u : bits(float(q));
        }
    }
    return 0xbadbadu;
}

const char* name(Op op) {
    static const char* n[] = {"Add", "Sub", "Rsub",       "Mul",      "And",      "Or",        "Xor",
                              "Shl", "Shr", "ShrLogical", "Lt",       "Gt",       "Le",        "Ge",
                              "Max", "Min", "DivFloor",   "DivTrunc", "DivFloat", "Remainder", "Fmod"};
    return n[int(op)];
}
const char* name(DF f) { return f == DF::Int32 ? "Int32" : f == DF::UInt32 ? "UInt32" : "UInt16"; }

std::vector<DF> formats_of(Op op) {
    if (op == Op::Max || op == Op::Min) return {DF::Int32, DF::UInt32};
    if (op >= Op::DivFloor) return {DF::Int32};
    return {DF::Int32, DF::UInt32, DF::UInt16};
}

constexpr Op kAllOps[] = {Op::Add, Op::Sub, Op::Rsub,       Op::Mul,      Op::And,      Op::Or,        Op::Xor,
                          Op::Shl, Op::Shr, Op::ShrLogical, Op::Lt,       Op::Gt,       Op::Le,        Op::Ge,
                          Op::Max, Op::Min, Op::DivFloor,   Op::DivTrunc, Op::DivFloat, Op::Remainder, Op::Fmod};

uint32_t run1(Op op, DF f, uint32_t x, uint32_t y) {
    Tile a, b, o;
    a.v[0] = from_bits(x), b.v[0] = from_bits(y);
    tile::sfpu_binary_int(op, f, a.v, b.v, o.v);
    return bits(o.v[0]);
}

}  // namespace

TEST(TileSfpuInt, EveryOpMatchesItsReferenceOnEdgeAndRandomWords) {
    Tile a, b;
    make_inputs(a, b);
    for (Op op : kAllOps)
        for (DF f : formats_of(op)) {
            Tile out;
            tile::sfpu_binary_int(op, f, a.v, b.v, out.v);
            for (int i = 0; i < 1024; ++i) {
                const uint32_t x = bits(a.v[i]), y = bits(b.v[i]);
                ASSERT_EQ(bits(out.v[i]), reference(op, f, x, y)) << name(op) << "<" << name(f) << ">(0x" << std::hex
                                                                  << x << ", 0x" << y << ") element " << std::dec << i;
            }
        }
}

TEST(TileSfpuInt, OutputMayAliasEitherInput) {
    Tile a, b;
    make_inputs(a, b);
    for (Op op : {Op::Sub, Op::Shl, Op::DivFloor, Op::Lt}) {
        Tile x = a, y = b;
        tile::sfpu_binary_int(op, DF::Int32, x.v, y.v, x.v);  // over a
        Tile x2 = a, y2 = b;
        tile::sfpu_binary_int(op, DF::Int32, x2.v, y2.v, y2.v);  // over b
        for (int i = 0; i < 1024; ++i) {
            const uint32_t want = reference(op, DF::Int32, bits(a.v[i]), bits(b.v[i]));
            ASSERT_EQ(bits(x.v[i]), want) << name(op) << " element " << i;
            ASSERT_EQ(bits(y2.v[i]), want) << name(op) << " element " << i;
        }
    }
}

// Values written out by hand, so that a shared misreading of the rules in the reference and the
// implementation cannot hide.
TEST(TileSfpuInt, SpotValues) {
    const auto i32 = [](int32_t v) { return uint32_t(v); };
    // Two's complement wrap-around.
    EXPECT_EQ(run1(Op::Add, DF::Int32, kMax, 1), kMin);
    EXPECT_EQ(run1(Op::Sub, DF::Int32, kMin, 1), kMax);
    EXPECT_EQ(run1(Op::Rsub, DF::Int32, 5, 3), i32(-2));
    EXPECT_EQ(run1(Op::Mul, DF::Int32, 0x10000u, 0x10000u), 0u);
    EXPECT_EQ(run1(Op::Mul, DF::Int32, i32(-3), 7), i32(-21));
    EXPECT_EQ(run1(Op::Mul, DF::Int32, kMin, i32(-1)), kMin);
    EXPECT_EQ(run1(Op::Add, DF::UInt16, 0xffffu, 2), 1u);
    EXPECT_EQ(run1(Op::Mul, DF::UInt16, 300, 300), 90000u & 0xffffu);
    // Bitwise.
    EXPECT_EQ(run1(Op::And, DF::Int32, 0xf0f0f0f0u, 0xff00ff00u), 0xf000f000u);
    EXPECT_EQ(run1(Op::Or, DF::Int32, 0xf0f0f0f0u, 0x0f000000u), 0xfff0f0f0u);
    EXPECT_EQ(run1(Op::Xor, DF::UInt32, 0xffffffffu, 0x12345678u), 0xedcba987u);
    // Shifts: counts outside [0, 31] give 0; right shift fills with the sign bit.
    EXPECT_EQ(run1(Op::Shl, DF::Int32, 1, 31), kMin);
    EXPECT_EQ(run1(Op::Shl, DF::Int32, 1, 32), 0u);
    EXPECT_EQ(run1(Op::Shl, DF::Int32, 1, i32(-1)), 0u);
    EXPECT_EQ(run1(Op::Shl, DF::UInt16, 0x8001u, 1), 2u);
    EXPECT_EQ(run1(Op::Shr, DF::Int32, i32(-8), 1), i32(-4));
    EXPECT_EQ(run1(Op::Shr, DF::Int32, i32(-1), 31), i32(-1));
    EXPECT_EQ(run1(Op::Shr, DF::Int32, i32(-1), 32), 0u);
    EXPECT_EQ(run1(Op::Shr, DF::UInt32, 0x80000000u, 4), 0xf8000000u);
    EXPECT_EQ(run1(Op::ShrLogical, DF::Int32, i32(-1), 1), kMax);
    EXPECT_EQ(run1(Op::ShrLogical, DF::UInt32, 0x80000000u, 31), 1u);
    EXPECT_EQ(run1(Op::ShrLogical, DF::Int32, 5, 0), 5u);
    // Comparisons write the integer 1 or 0, signed for Int32, unsigned otherwise.
    EXPECT_EQ(run1(Op::Lt, DF::Int32, i32(-1), 0), 1u);
    EXPECT_EQ(run1(Op::Lt, DF::UInt32, i32(-1), 0), 0u);
    EXPECT_EQ(run1(Op::Gt, DF::Int32, kMax, kMin), 1u);
    EXPECT_EQ(run1(Op::Le, DF::Int32, 3, 3), 1u);
    EXPECT_EQ(run1(Op::Ge, DF::UInt16, 0x10001u, 2), 0u);  // low 16 bits: 1 >= 2 is false
    EXPECT_EQ(run1(Op::Max, DF::Int32, i32(-5), 3), 3u);
    EXPECT_EQ(run1(Op::Max, DF::UInt32, i32(-5), 3), i32(-5));
    EXPECT_EQ(run1(Op::Min, DF::Int32, kMin, kMax), kMin);
    // Division family.
    EXPECT_EQ(run1(Op::DivFloor, DF::Int32, i32(-7), 2), i32(-4));
    EXPECT_EQ(run1(Op::DivTrunc, DF::Int32, i32(-7), 2), i32(-3));
    EXPECT_EQ(run1(Op::DivFloor, DF::Int32, 7, i32(-2)), i32(-4));
    EXPECT_EQ(run1(Op::DivTrunc, DF::Int32, kMin, i32(-1)), kMin);
    EXPECT_EQ(run1(Op::DivFloor, DF::Int32, kMin, i32(-1)), kMin);
    EXPECT_EQ(run1(Op::DivTrunc, DF::Int32, 5, 0), 65536u);
    EXPECT_EQ(run1(Op::DivFloor, DF::Int32, i32(-5), 0), i32(-65537));
    EXPECT_EQ(run1(Op::DivTrunc, DF::Int32, 0, 0), 65536u);
    EXPECT_EQ(run1(Op::Remainder, DF::Int32, i32(-7), 2), 1u);
    EXPECT_EQ(run1(Op::Remainder, DF::Int32, 7, i32(-2)), i32(-1));
    EXPECT_EQ(run1(Op::Fmod, DF::Int32, i32(-7), 2), i32(-1));
    EXPECT_EQ(run1(Op::Fmod, DF::Int32, 7, i32(-2)), 1u);
    EXPECT_EQ(run1(Op::Remainder, DF::Int32, kMin, i32(-1)), 0u);
    EXPECT_EQ(run1(Op::Remainder, DF::Int32, i32(-9), 0), i32(-9));
    EXPECT_EQ(run1(Op::Fmod, DF::Int32, 9, 0), 9u);
    EXPECT_EQ(from_bits(run1(Op::DivFloat, DF::Int32, 1, 3)), 1.0f / 3.0f);
    EXPECT_EQ(from_bits(run1(Op::DivFloat, DF::Int32, i32(-6), 4)), -1.5f);
    EXPECT_EQ(from_bits(run1(Op::DivFloat, DF::Int32, 1, 0)), std::numeric_limits<float>::infinity());
    EXPECT_EQ(from_bits(run1(Op::DivFloat, DF::Int32, i32(-1), 0)), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(run1(Op::DivFloat, DF::Int32, 0, 0), 0x7fc00000u);
}

TEST(TileSfpuInt, FormatsTheApiDoesNotTakeAreUnsupported) {
    Tile a, b, o;
    const std::pair<Op, DF> bad[] = {{Op::Add, DF::Float32},
                                     {Op::Max, DF::UInt16},
                                     {Op::DivFloor, DF::UInt32},
                                     {Op::Remainder, DF::UInt16},
                                     {Op::Shl, DF::Float16_b}};
    for (auto [op, f] : bad) {
        try {
            tile::sfpu_binary_int(op, f, a.v, b.v, o.v);
            ADD_FAILURE() << name(op) << " took format " << int(f);
        } catch (const zyx::Error& e) {
            EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported) << e.what();
            EXPECT_EQ(e.message().rfind("Unsupported:", 0), 0u) << e.message();
        }
    }
}
