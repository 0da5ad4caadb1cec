#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/dtype.hpp"

using namespace zyx;

namespace {
// Reference rounding through double: the two representable neighbours of x in the 16-bit format
// are found by brute force over all 65536 codes, then each rule picks one. Only finite inputs
// within the format's range are given to it.
struct Neighbours {
    uint16_t lo, hi;
    double vlo, vhi;
};

template <typename ToF32>
Neighbours neighbours(float x, ToF32 to_f32) {
    double v = x;
    Neighbours n{0, 0, -INFINITY, INFINITY};
    for (uint32_t c = 0; c < 65536; ++c) {
        float f = to_f32(uint16_t(c));
        if (std::isnan(f) || std::isinf(f)) continue;
        double d = f;
        if (d <= v && d > n.vlo) {
            n.vlo = d;
            n.lo = uint16_t(c);
        }
        if (d >= v && d < n.vhi) {
            n.vhi = d;
            n.hi = uint16_t(c);
        }
    }
    return n;
}

uint16_t pick(const Neighbours& n, float x, Rounding r) {
    double v = x;
    if (n.vlo == v) return n.lo;
    bool neg = v < 0;
    if (r == Rounding::TowardZero) return neg ? n.hi : n.lo;
    double dlo = v - n.vlo, dhi = n.vhi - v;
    if (dlo < dhi) return n.lo;
    if (dhi < dlo) return n.hi;
    if (r == Rounding::NearestTiesAway) return neg ? n.lo : n.hi;
    return (n.lo & 1) ? n.hi : n.lo;  // ties to even
}
}  // namespace

TEST(DType, NamesRoundTrip) {
    for (int i = 0; i < kNumDTypes; ++i) {
        DType t = static_cast<DType>(i), back;
        ASSERT_TRUE(dtype_from_name(dtype_name(t), &back));
        EXPECT_EQ(back, t);
    }
    DType t;
    EXPECT_FALSE(dtype_from_name("f17", &t));
    EXPECT_EQ(dtype_size(DType::bf16), 2u);
    EXPECT_EQ(dtype_size(DType::bool_), 1u);
    EXPECT_EQ(dtype_size(DType::u64), 8u);
}

TEST(DType, Bf16HandValues) {
    EXPECT_EQ(f32_to_bf16(1.0f), 0x3f80);
    EXPECT_EQ(bf16_to_f32(0x3f80), 1.0f);
    // 1 + 2^-8 is exactly halfway between 1 and 1+2^-7: even → 1, away → 1+2^-7
    float half = 1.0f + 1.0f / 256.0f;
    EXPECT_EQ(f32_to_bf16(half, Rounding::NearestEven), 0x3f80);
    EXPECT_EQ(f32_to_bf16(half, Rounding::NearestTiesAway), 0x3f81);
    EXPECT_EQ(f32_to_bf16(-half, Rounding::NearestTiesAway), 0xbf81);
    EXPECT_EQ(f32_to_bf16(1.0f + 3.0f / 256.0f, Rounding::NearestEven), 0x3f82);  // 1.5 ulps: tie → even
    EXPECT_EQ(f32_to_bf16(1.0f + 1.9f / 256.0f, Rounding::TowardZero), 0x3f80);
    EXPECT_EQ(f32_to_bf16(std::numeric_limits<float>::infinity()), 0x7f80);
    EXPECT_EQ(f32_to_bf16(std::numeric_limits<float>::max()), 0x7f80);  // overflows to inf
    uint16_t nan = f32_to_bf16(std::numeric_limits<float>::quiet_NaN());
    EXPECT_TRUE(std::isnan(bf16_to_f32(nan)));
    // a NaN whose payload lives only in the low 16 bits must stay NaN
    EXPECT_TRUE(std::isnan(bf16_to_f32(f32_to_bf16(f32_from_bits(0x7f800001u)))));
    EXPECT_EQ(f32_to_bf16(-0.0f), 0x8000);
}

TEST(DType, Bf16AllModesAgainstReference) {
    uint32_t seed = 12345;
    for (int i = 0; i < 3000; ++i) {
        seed = seed * 1664525u + 1013904223u;
        float x = f32_from_bits(seed);
        if (std::isnan(x) || std::isinf(x)) continue;
        if (std::fabs(x) >= 3.38e38f) continue;  // overflow region: covered by hand values
        Neighbours n = neighbours(x, bf16_to_f32);
        for (Rounding r : {Rounding::NearestEven, Rounding::TowardZero, Rounding::NearestTiesAway}) {
            uint16_t got = f32_to_bf16(x, r);
            uint16_t want = pick(n, x, r);
            ASSERT_EQ(got, want) << "x=" << x << " bits=" << std::hex << seed << " mode=" << int(r);
        }
    }
}

TEST(DType, F16AgainstCompilerFloat16) {
    // _Float16 conversions are IEEE round-to-nearest-even: an independent oracle.
    for (uint64_t b = 0; b < (1ull << 32); b += 4099) {
        float x = f32_from_bits(uint32_t(b));
        _Float16 h = static_cast<_Float16>(x);
        uint16_t want;
        std::memcpy(&want, &h, 2);
        uint16_t got = f32_to_f16(x);
        if (std::isnan(x)) {
            ASSERT_TRUE(std::isnan(f16_to_f32(got)));
            continue;
        }
        ASSERT_EQ(got, want) << "bits=" << std::hex << b;
    }
    for (uint32_t c = 0; c < 65536; ++c) {
        _Float16 h;
        uint16_t c16 = uint16_t(c);
        std::memcpy(&h, &c16, 2);
        float want = static_cast<float>(h);
        float got = f16_to_f32(c16);
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got));
            continue;
        }
        ASSERT_EQ(f32_bits(got), f32_bits(want)) << "code=" << std::hex << c;
    }
}

TEST(DType, F16TruncateAndTiesAwayAgainstReference) {
    uint32_t seed = 777;
    int checked = 0;
    while (checked < 2000) {
        seed = seed * 1664525u + 1013904223u;
        float x = f32_from_bits(seed);
        if (std::isnan(x) || std::fabs(x) > 65504.0f) continue;
        ++checked;
        Neighbours n = neighbours(x, f16_to_f32);
        for (Rounding r : {Rounding::TowardZero, Rounding::NearestTiesAway}) {
            uint16_t got = f32_to_f16(x, r);
            uint16_t want = pick(n, x, r);
            if (f16_to_f32(got) == 0.0f && f16_to_f32(want) == 0.0f) continue;  // ±0 sign aside
            ASSERT_EQ(got, want) << "x=" << x << " mode=" << int(r);
        }
    }
    EXPECT_EQ(f32_to_f16(1e6f, Rounding::TowardZero), 0x7bff);
    EXPECT_EQ(f32_to_f16(1e6f, Rounding::NearestEven), 0x7c00);
    EXPECT_EQ(f32_to_f16(-1e6f, Rounding::NearestTiesAway), 0xfc00);
    EXPECT_EQ(f32_to_f16(5.9604645e-08f), 0x0001);  // smallest subnormal
}
