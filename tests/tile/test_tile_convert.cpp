// unpack_tile / pack_tile / dest16_round / typecast / fill against hand-computed expectations.
// Expected bit patterns are written out by hand from the rules in docs/numerics.md.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "tile_test_util.hpp"

namespace tile = zyx::emu::tile;
using tile_test::bits;
using tile_test::from_bits;
using tile_test::Tile;
using zyx::Rounding;
using zyx::emu::DataFormat;

namespace {

// L1 datum index of (r, c), written independently of tile::face_index: pick the quadrant, then
// row-major inside it.
uint32_t l1_index(int r, int c) {
    int face = (r < 16 ? 0 : 2) + (c < 16 ? 0 : 1);
    return uint32_t(face * 256 + (r % 16) * 16 + (c % 16));
}

// Packs one value (at tile position 0,0) and returns the 16-bit L1 datum.
uint16_t pack16(DataFormat f, float x) {
    Tile t;
    t.v[0] = x;
    std::vector<uint16_t> l1(1024);
    tile::pack_tile(f, t.v, l1.data());
    return l1[0];
}

float unpack16(DataFormat f, uint16_t h) {
    std::vector<uint16_t> l1(1024, 0);
    l1[0] = h;
    Tile t;
    tile::unpack_tile(f, l1.data(), t.v);
    return t.v[0];
}

uint32_t dst_round(DataFormat f, uint32_t in, Rounding r) {
    Tile t;
    t.v[5] = from_bits(in);
    tile::dest16_round(f, t.v, r);
    return bits(t.v[5]);
}

// Random bit patterns biased to the cases rounding and packing treat specially: ties (low 16 or
// 13 bits exactly half), values one below / above a tie, denormals, ±0, ±inf, NaNs, the largest
// finite values, and values near the FP16 limits.
Tile edge_tile(std::mt19937& rng) {
    static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                                        0x7f800001u, 0x7f7fffffu, 0xff7fffffu, 0x00000001u, 0x807fffffu, 0x007fffffu,
                                        0x00800000u, 0x47ffe000u, 0x47fff000u, 0x38800000u, 0x387fffffu, 0xc7ffefffu};
    Tile t;
    for (int i = 0; i < 1024; ++i) {
        uint32_t u = rng();
        switch (rng() % 6) {
            case 0: u = specials[rng() % (sizeof specials / sizeof specials[0])]; break;
            case 1: u = (u & 0xffff0000u) | 0x8000u; break;  // bf16 tie
            case 2: u = (u & 0xffff0000u) | 0x7fffu; break;  // just below a bf16 tie
            case 3: u = (u & 0xffffe000u) | 0x1000u; break;  // fp16 mantissa tie
            default: break;
        }
        t.v[i] = from_bits(u);
    }
    return t;
}

}  // namespace

TEST(TileFaces, FaceIndexMatchesQuadrantLayout) {
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) EXPECT_EQ(tile::face_index(r, c), l1_index(r, c)) << r << "," << c;
}

TEST(TileFaces, UnpackReadsFacesIntoRowMajor) {
    // L1 datum i holds i; after unpack, element (r,c) must hold its L1 index.
    std::vector<uint32_t> l1(1024);
    for (uint32_t i = 0; i < 1024; ++i) l1[i] = i;
    Tile t;
    tile::unpack_tile(DataFormat::Int32, l1.data(), t.v);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) ASSERT_EQ(bits(t.at(r, c)), l1_index(r, c)) << r << "," << c;
    // Spot values: (0,16) starts face 1, (16,0) starts face 2, (31,31) ends face 3.
    EXPECT_EQ(bits(t.at(0, 16)), 256u);
    EXPECT_EQ(bits(t.at(16, 0)), 512u);
    EXPECT_EQ(bits(t.at(31, 31)), 1023u);
}

TEST(TileFaces, RoundTripEveryFormat) {
    std::mt19937 rng(7);
    struct Case {
        DataFormat f;
        uint32_t bytes;
    };
    for (Case k : {Case{DataFormat::Float32, 4096}, Case{DataFormat::Float16_b, 2048}, Case{DataFormat::Float16, 2048},
                   Case{DataFormat::Bfp8_b, 1088}, Case{DataFormat::Int32, 4096}, Case{DataFormat::UInt32, 4096},
                   Case{DataFormat::UInt16, 2048}, Case{DataFormat::UInt8, 1024}}) {
        Tile in;
        for (int i = 0; i < 1024; ++i) {
            switch (k.f) {
                case DataFormat::Float32: in.v[i] = std::uniform_real_distribution<float>(-100, 100)(rng); break;
                case DataFormat::Float16_b: in.v[i] = tile_test::random_bf16(rng); break;
                case DataFormat::Float16:  // 11 significant bits, inside the normal fp16 range
                    in.v[i] = std::ldexp(float(1024 + int(rng() % 1024)) / 1024.0f, int(rng() % 20) - 10) *
                        (rng() % 2 ? -1.0f : 1.0f);
                    break;
                case DataFormat::Bfp8_b: {  // mag/64 · 2^3 with the row maximum having the top bit set
                    int mag = (i % 16 == 0) ? 64 + int(rng() % 64) : int(rng() % 128);
                    in.v[i] = float(mag) / 64.0f * 8.0f * (rng() % 2 && mag ? -1.0f : 1.0f);
                    break;
                }
                case DataFormat::Int32:
                case DataFormat::UInt32: in.v[i] = from_bits(uint32_t(rng())); break;
                case DataFormat::UInt16: in.v[i] = from_bits(uint32_t(rng() & 0xffff)); break;
                default: in.v[i] = from_bits(uint32_t(rng() & 0xff)); break;
            }
        }
        // Bfp8_b: the row maximum must be at the start of each face row (tile col 0 or 16).
        std::vector<uint8_t> l1(k.bytes + 64, 0xcd);
        tile::pack_tile(k.f, in.v, l1.data());
        for (uint32_t i = k.bytes; i < k.bytes + 64; ++i) ASSERT_EQ(l1[i], 0xcd) << "pack wrote past the tile";
        Tile out;
        tile::unpack_tile(k.f, l1.data(), out.v);
        for (int i = 0; i < 1024; ++i) {
            if (k.f == DataFormat::Bfp8_b) {
                // datum i of the tile corresponds to face row starts at tile cols 0 and 16 only
                // when i % 16 == 0 in row-major order, which is the case for this layout.
                ASSERT_EQ(out.v[i], in.v[i]) << "Bfp8_b element " << i;
            } else {
                ASSERT_EQ(bits(out.v[i]), bits(in.v[i])) << "format " << int(k.f) << " element " << i;
            }
        }
    }
}

// ---- Float16_b packer rounding ----------------------------------------------------------------

TEST(TilePackBf16, RoundsToNearestTiesAwayFromZero) {
    EXPECT_EQ(pack16(DataFormat::Float16_b, 1.0f), 0x3f80);
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x3f807fffu)), 0x3f80);  // below half
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x3f808000u)), 0x3f81);  // tie, even below: away
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x3f818000u)), 0x3f82);  // tie, odd below
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0xbf808000u)), 0xbf81);  // negative tie: away
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x3f80ffffu)), 0x3f81);
}

TEST(TilePackBf16, FlushesDenormalsAndMinusZero) {
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x00000001u)), 0x0000);
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x007fffffu)), 0x0000);  // would round up to 2^-126
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x807fffffu)), 0x0000);  // negative denormal → +0
    EXPECT_EQ(pack16(DataFormat::Float16_b, -0.0f), 0x0000);
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x00800000u)), 0x0080);  // smallest normal kept
}

TEST(TilePackBf16, NanBecomesInfinityAndOverflowRoundsToInfinity) {
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x7fc00000u)), 0x7f80);
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x7f800001u)), 0x7f80);  // signalling NaN
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0xffc00001u)), 0xff80);  // −NaN → −inf
    EXPECT_EQ(pack16(DataFormat::Float16_b, std::numeric_limits<float>::infinity()), 0x7f80);
    EXPECT_EQ(pack16(DataFormat::Float16_b, -std::numeric_limits<float>::infinity()), 0xff80);
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x7f7fffffu)), 0x7f80);  // FLT_MAX rounds up
    EXPECT_EQ(pack16(DataFormat::Float16_b, from_bits(0x7f7f7fffu)), 0x7f7f);
}

TEST(TileUnpackBf16, WidensExactlyKeepingSpecials) {
    EXPECT_EQ(bits(unpack16(DataFormat::Float16_b, 0x3f81)), 0x3f810000u);
    EXPECT_EQ(bits(unpack16(DataFormat::Float16_b, 0x8000)), 0x80000000u);
    EXPECT_EQ(bits(unpack16(DataFormat::Float16_b, 0x7fc1)), 0x7fc10000u);
    EXPECT_EQ(bits(unpack16(DataFormat::Float16_b, 0x0001)), 0x00010000u);  // denormal kept in L1 → DST copy
}

// ---- Float16 (Tensix FP16) ------------------------------------------------------------------------

TEST(TilePackFp16, TensixPatternsSaturationAndFlush) {
    EXPECT_EQ(pack16(DataFormat::Float16, 1.0f), 0x3c00);
    EXPECT_EQ(pack16(DataFormat::Float16, -2.5f), 0xc100);
    EXPECT_EQ(pack16(DataFormat::Float16, 65504.0f), 0x7bff);
    EXPECT_EQ(pack16(DataFormat::Float16, 65536.0f), 0x7c00);   // exponent 31 is a normal binade
    EXPECT_EQ(pack16(DataFormat::Float16, 131008.0f), 0x7fff);  // largest Tensix FP16
    EXPECT_EQ(pack16(DataFormat::Float16, 200000.0f), 0x7fff);  // saturates
    EXPECT_EQ(pack16(DataFormat::Float16, -1e30f), 0xffff);
    EXPECT_EQ(pack16(DataFormat::Float16, std::numeric_limits<float>::infinity()), 0x7fff);
    EXPECT_EQ(pack16(DataFormat::Float16, std::numeric_limits<float>::quiet_NaN()), 0x7fff);  // NaN → inf → sat
    EXPECT_EQ(pack16(DataFormat::Float16, std::ldexp(1.0f, -14)), 0x0400);                    // smallest normal
    EXPECT_EQ(pack16(DataFormat::Float16, std::ldexp(1.0f, -15)), 0x0000);                    // below: flushed
    EXPECT_EQ(pack16(DataFormat::Float16, -std::ldexp(1.0f, -20)), 0x0000);
    EXPECT_EQ(pack16(DataFormat::Float16, -0.0f), 0x0000);
    EXPECT_EQ(pack16(DataFormat::Float16, from_bits(0x3f801000u)), 0x3c01);  // 1 + 2^-11: tie → away
    EXPECT_EQ(pack16(DataFormat::Float16, from_bits(0x3f800fffu)), 0x3c00);
    EXPECT_EQ(pack16(DataFormat::Float16, from_bits(0x3f803000u)), 0x3c02);  // tie above odd: away
}

TEST(TileUnpackFp16, ExponentThirtyOneIsFiniteAndDenormalsAreZero) {
    EXPECT_EQ(unpack16(DataFormat::Float16, 0x3c00), 1.0f);
    EXPECT_EQ(unpack16(DataFormat::Float16, 0x7c00), 65536.0f);
    EXPECT_EQ(unpack16(DataFormat::Float16, 0x7fff), 131008.0f);
    EXPECT_EQ(unpack16(DataFormat::Float16, 0xfc00), -65536.0f);
    EXPECT_EQ(bits(unpack16(DataFormat::Float16, 0x0001)), 0x00000000u);
    EXPECT_EQ(bits(unpack16(DataFormat::Float16, 0x83ff)), 0x80000000u);
    EXPECT_EQ(unpack16(DataFormat::Float16, 0x0400), std::ldexp(1.0f, -14));
}

// ---- Float32 / TF32 / integers ------------------------------------------------------------------

TEST(TileUnpackFp32, Tf32SourceDropsLow13MantissaBits) {
    std::vector<uint32_t> l1(1024, 0x3f8fffffu);
    Tile t;
    tile::unpack_tile(DataFormat::Float32, l1.data(), t.v, /*tf32_src=*/true);
    EXPECT_EQ(bits(t.v[0]), 0x3f8fe000u);
    tile::unpack_tile(DataFormat::Float32, l1.data(), t.v, false);
    EXPECT_EQ(bits(t.v[0]), 0x3f8fffffu);
    tile::unpack_tile(DataFormat::Int32, l1.data(), t.v, true);  // integers are never reduced
    EXPECT_EQ(bits(t.v[0]), 0x3f8fffffu);
}

TEST(TilePackInt, NarrowFormatsKeepLowBits) {
    Tile t;
    t.v[0] = from_bits(0x12345u);
    t.v[1] = from_bits(0xfffffffeu);
    std::vector<uint16_t> l1(1024);
    tile::pack_tile(DataFormat::UInt16, t.v, l1.data());
    EXPECT_EQ(l1[0], 0x2345);
    EXPECT_EQ(l1[1], 0xfffe);
    std::vector<uint8_t> b(1024);
    tile::pack_tile(DataFormat::UInt8, t.v, b.data());
    EXPECT_EQ(b[0], 0x45);
    EXPECT_EQ(b[1], 0xfe);
    Tile u;
    tile::unpack_tile(DataFormat::UInt8, b.data(), u.v);
    EXPECT_EQ(bits(u.v[1]), 0xfeu);  // widened, not sign-extended
}

// ---- Bfp8_b ---------------------------------------------------------------------------------------

TEST(TileBfp8, PackHandComputedBlock) {
    // Face 0 row 0 (tile row 0, cols 0..15). Shared exponent = max bf16 exponent = 127.
    // Magnitude = value · 64 / 2^(127−127), rounded ties away, saturated at 127.
    const float row[16] = {1.0f,
                           0.5f,
                           0.25f,
                           -1.5f,
                           0.015625f /*2^-6*/,
                           0.0078125f /*2^-7*/,
                           1.9921875f,
                           0.0f,
                           -0.0f,
                           0.75f,
                           from_bits(0x3f808000u) /*1.00390625*/,
                           1e-30f,
                           -0.005859375f /*-0.375·2^-6*/,
                           0.0234375f /*1.5·2^-6*/,
                           1.0f,
                           1.0f};
    const uint8_t expect[16] = {0x40,
                                0x20,
                                0x10,
                                0x80 | 0x60,
                                0x01,
                                0x01 /*0.5 → away → 1*/,
                                0x7f /*127.5 → 128 → saturate*/,
                                0x00,
                                0x00,
                                0x30,
                                65 /*0x3f808000 → bf16 0x3f81 (ties away) = 1.0078125 → 64.5 → 65*/,
                                0x00,
                                0x00 /*0.375 → 0*/,
                                0x02 /*1.5 → away → 2*/,
                                0x40,
                                0x40};
    Tile t;
    for (int c = 0; c < 16; ++c) t.at(0, c) = row[c];
    // Face 1 row 0 (tile row 0, cols 16..31): 4.0, 1.0, −3.0 → exponent 129.
    t.at(0, 16) = 4.0f;
    t.at(0, 17) = 1.0f;
    t.at(0, 18) = -3.0f;
    std::vector<uint8_t> l1(1088);
    tile::pack_tile(DataFormat::Bfp8_b, t.v, l1.data());
    EXPECT_EQ(l1[0], 127);   // face 0 row 0 exponent
    EXPECT_EQ(l1[1], 0);     // face 0 row 1: all zero
    EXPECT_EQ(l1[16], 129);  // face 1 row 0 exponent
    for (int c = 0; c < 16; ++c) EXPECT_EQ(l1[64 + c], expect[c]) << "datum " << c << " value " << row[c];
    EXPECT_EQ(l1[64 + 256 + 0], 0x40);         // 4.0 = 64/64 · 2^2
    EXPECT_EQ(l1[64 + 256 + 1], 0x10);         // 1.0 = 16/64 · 2^2
    EXPECT_EQ(l1[64 + 256 + 2], 0x80 | 0x30);  // −3.0 = −48/64 · 2^2
}

TEST(TileBfp8, UnpackHandComputedBlock) {
    std::vector<uint8_t> l1(1088, 0);
    l1[0] = 128;          // face 0 row 0: exponent 128 → scale 2^1 / 64
    l1[64 + 0] = 0x40;    // 64/64·2 = 2
    l1[64 + 1] = 0x81;    // −1/64·2 = −0.03125
    l1[64 + 2] = 0x80;    // sign with zero magnitude: −inf (hardware conversion rule)
    l1[64 + 3] = 0x00;    // +0
    l1[64 + 4] = 0x7f;    // 127/64·2 = 3.96875
    l1[64 + 5] = 0x03;    // 3/64·2 = 0.09375
    l1[48] = 120;         // face 3 row 0 = tile row 16, cols 16..31
    l1[64 + 768] = 0x60;  // 96/64 · 2^-7
    Tile t;
    tile::unpack_tile(DataFormat::Bfp8_b, l1.data(), t.v);
    EXPECT_EQ(t.at(0, 0), 2.0f);
    EXPECT_EQ(t.at(0, 1), -0.03125f);
    EXPECT_EQ(t.at(0, 2), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(bits(t.at(0, 3)), 0u);
    EXPECT_EQ(t.at(0, 4), 3.96875f);
    EXPECT_EQ(t.at(0, 5), 0.09375f);
    EXPECT_EQ(t.at(16, 16), 1.5f * std::ldexp(1.0f, -7));
    EXPECT_EQ(t.at(1, 0), 0.0f);
}

// ---- dest16_round ---------------------------------------------------------------------------------

TEST(TileDest16, Bf16EveryRoundingMode) {
    const DataFormat b = DataFormat::Float16_b;
    EXPECT_EQ(dst_round(b, 0x3f808000u, Rounding::NearestEven), 0x3f800000u);
    EXPECT_EQ(dst_round(b, 0x3f808000u, Rounding::NearestTiesAway), 0x3f810000u);
    EXPECT_EQ(dst_round(b, 0x3f808000u, Rounding::TowardZero), 0x3f800000u);
    EXPECT_EQ(dst_round(b, 0x3f818000u, Rounding::NearestEven), 0x3f820000u);
    EXPECT_EQ(dst_round(b, 0xbf80c000u, Rounding::NearestEven), 0xbf810000u);
    EXPECT_EQ(dst_round(b, 0xbf80ffffu, Rounding::TowardZero), 0xbf800000u);
    EXPECT_EQ(dst_round(b, 0x7f7fffffu, Rounding::NearestEven), 0x7f800000u);  // overflow → inf
    EXPECT_EQ(dst_round(b, 0x7f7fffffu, Rounding::TowardZero), 0x7f7f0000u);
    EXPECT_EQ(dst_round(b, 0x80000001u, Rounding::NearestEven), 0x80000000u);  // denormal → signed zero
    EXPECT_EQ(dst_round(b, 0x80000000u, Rounding::NearestEven), 0x80000000u);  // −0 kept in DST
    uint32_t nan = dst_round(b, 0x7f800001u, Rounding::NearestEven);
    EXPECT_TRUE(std::isnan(from_bits(nan))) << std::hex << nan;
    EXPECT_EQ(nan & 0xffffu, 0u);
}

TEST(TileDest16, Fp16RangeRoundingAndSaturation) {
    const DataFormat h = DataFormat::Float16;
    EXPECT_EQ(dst_round(h, 0x3f801000u, Rounding::NearestEven), 0x3f800000u);      // 1+2^-11 → 1
    EXPECT_EQ(dst_round(h, 0x3f801000u, Rounding::NearestTiesAway), 0x3f802000u);  // → 1+2^-10
    EXPECT_EQ(dst_round(h, 0x3f803000u, Rounding::NearestEven), 0x3f804000u);
    EXPECT_EQ(dst_round(h, 0x3f801fffu, Rounding::TowardZero), 0x3f800000u);
    EXPECT_EQ(from_bits(dst_round(h, bits(200000.0f), Rounding::NearestEven)), 131008.0f);
    EXPECT_EQ(from_bits(dst_round(h, bits(-std::numeric_limits<float>::infinity()), Rounding::NearestEven)),
              -131008.0f);
    EXPECT_EQ(from_bits(dst_round(h, 0x7fc00000u, Rounding::NearestEven)), 131008.0f);
    EXPECT_EQ(dst_round(h, bits(1e-6f), Rounding::NearestEven), 0x00000000u);
    EXPECT_EQ(dst_round(h, bits(-1e-6f), Rounding::NearestEven), 0x80000000u);
    EXPECT_EQ(from_bits(dst_round(h, bits(65536.0f), Rounding::NearestEven)), 65536.0f);
}

TEST(TileDest16, WholeTileMatchesScalarReference) {
    // Every element of a random tile, against core's f32_to_bf16 (same rounding modes).
    std::mt19937 rng(3);
    Tile t, ref;
    for (int i = 0; i < 1024; ++i)
        t.v[i] = std::ldexp(std::uniform_real_distribution<float>(-1, 1)(rng), int(rng() % 40) - 20);
    for (Rounding r : {Rounding::NearestEven, Rounding::NearestTiesAway, Rounding::TowardZero}) {
        ref = t;
        Tile got = t;
        tile::dest16_round(DataFormat::Float16_b, got.v, r);
        for (int i = 0; i < 1024; ++i) ASSERT_EQ(bits(got.v[i]), uint32_t(zyx::f32_to_bf16(ref.v[i], r)) << 16) << i;
    }
}

TEST(TileDest16, EdgeValuesEverywhere) {
    // Ties, denormals, NaN, inf and the largest values at every position, in every mode. BF16
    // against the rule of docs/numerics.md §4 written out here (core's f32_to_bf16 rounding, a
    // zero exponent → zero of the sign, NaN → quiet NaN); FP16 against the value rounded alone.
    auto bf16_rule = [](uint32_t u, Rounding r) {
        if ((u & 0x7fffffffu) > 0x7f800000u) return (u | 0x00400000u) & 0xffff0000u;
        uint32_t v = uint32_t(zyx::f32_to_bf16(from_bits(u), r)) << 16;
        return (v & 0x7f800000u) == 0 ? (v & 0x80000000u) : v;
    };
    std::mt19937 rng(17);
    for (int rep = 0; rep < 10; ++rep) {
        Tile in = edge_tile(rng);
        for (Rounding r : {Rounding::NearestEven, Rounding::NearestTiesAway, Rounding::TowardZero}) {
            Tile b = in, h = in;
            tile::dest16_round(DataFormat::Float16_b, b.v, r);
            tile::dest16_round(DataFormat::Float16, h.v, r);
            for (int i = 0; i < 1024; ++i) {
                uint32_t u = bits(in.v[i]);
                ASSERT_EQ(bits(b.v[i]), bf16_rule(u, r))
                    << "bf16 mode " << int(r) << " element " << i << " bits " << std::hex << u;
                ASSERT_EQ(bits(h.v[i]), dst_round(DataFormat::Float16, u, r))
                    << "fp16 mode " << int(r) << " element " << i << " bits " << std::hex << u;
            }
        }
    }
}

TEST(TileDest16, RejectsNon16BitFormats) {
    Tile t;
    try {
        tile::dest16_round(DataFormat::Float32, t.v, Rounding::NearestEven);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
        EXPECT_NE(e.message().find("Float32"), std::string::npos) << e.message();
    }
}

// ---- pack_tile_rounded (deferred DST rounding) ------------------------------------------------------


TEST(TilePackRounded, SameBitsAsDest16RoundThenPack) {
    std::mt19937 rng(11);
    struct Case {
        DataFormat pack, dest;
        uint32_t bytes;
    };
    for (int rep = 0; rep < 40; ++rep) {
        Tile in = edge_tile(rng);
        for (Case k : {Case{DataFormat::Float16_b, DataFormat::Float16_b, 2048},
                       Case{DataFormat::Float16, DataFormat::Float16, 2048},
                       Case{DataFormat::Float32, DataFormat::Float16_b, 4096},
                       Case{DataFormat::Bfp8_b, DataFormat::Float16_b, 1088},
                       Case{DataFormat::Float16_b, DataFormat::Float16, 2048}})
            for (Rounding r : {Rounding::NearestEven, Rounding::NearestTiesAway, Rounding::TowardZero}) {
                Tile rounded = in;
                tile::dest16_round(k.dest, rounded.v, r);
                std::vector<uint8_t> want(k.bytes), got(k.bytes);
                tile::pack_tile(k.pack, rounded.v, want.data());
                Tile before = in;
                tile::pack_tile_rounded(k.pack, k.dest, r, in.v, got.data());
                ASSERT_EQ(std::memcmp(before.v, in.v, sizeof in.v), 0) << "pack_tile_rounded wrote its input";
                for (uint32_t i = 0; i < k.bytes; ++i)
                    ASSERT_EQ(got[i], want[i]) << "byte " << i << " pack " << int(k.pack) << " dest " << int(k.dest)
                                               << " rounding " << int(r) << " rep " << rep;
            }
    }
}

TEST(TilePackRounded, EveryPositionPacksLikePositionZero) {
    // The vector forms convert face rows (or pairs of rows) at a time: every datum of a tile
    // of edge values must come out as that value does alone at (0,0), in the face order.
    std::mt19937 rng(13);
    for (int rep = 0; rep < 10; ++rep) {
        Tile in = edge_tile(rng);
        for (DataFormat f : {DataFormat::Float16_b, DataFormat::Float16}) {
            std::vector<uint16_t> plain(1024), rounded(1024);
            tile::pack_tile(f, in.v, plain.data());
            tile::pack_tile_rounded(f, f, Rounding::NearestEven, in.v, rounded.data());
            for (int r = 0; r < 32; ++r)
                for (int c = 0; c < 32; ++c) {
                    float x = in.at(r, c);
                    ASSERT_EQ(plain[l1_index(r, c)], pack16(f, x))
                        << int(f) << " at " << r << "," << c << " bits " << std::hex << bits(x);
                    Tile one;
                    one.v[0] = x;
                    tile::dest16_round(f, one.v, Rounding::NearestEven);
                    ASSERT_EQ(rounded[l1_index(r, c)], pack16(f, one.v[0]))
                        << int(f) << " rounded at " << r << "," << c << " bits " << std::hex << bits(x);
                }
        }
    }
}

TEST(TilePackRounded, Bf16TiesGoToEvenNotAway) {
    // The packer alone rounds 0x3f808000 away to 0x3f81; a DST that rounded to nearest even
    // first holds 0x3f80, and that is what must reach L1.
    Tile t;
    t.v[0] = from_bits(0x3f808000u);  // tie, even below
    t.v[1] = from_bits(0x3f818000u);  // tie, odd below: up
    t.v[2] = from_bits(0xffc00000u);  // NaN: inf of its sign
    t.v[3] = from_bits(0x807fffffu);  // rounds up to the smallest normal, keeps its sign
    t.v[4] = from_bits(0x80000000u);  // -0 → +0
    std::vector<uint16_t> l1(1024);
    tile::pack_tile_rounded(DataFormat::Float16_b, DataFormat::Float16_b, Rounding::NearestEven, t.v, l1.data());
    EXPECT_EQ(l1[0], 0x3f80u);
    EXPECT_EQ(l1[1], 0x3f82u);
    EXPECT_EQ(l1[2], 0xff80u);
    EXPECT_EQ(l1[3], 0x8080u);
    EXPECT_EQ(l1[4], 0x0000u);
}

// ---- typecast ---------------------------------------------------------------------------------------

TEST(TileTypecast, FloatToIntRoundsHalfEvenAndSaturates) {
    Tile t;
    const float in[] = {2.5f, 3.5f, -2.5f, -3.7f, 1e10f, -1e10f, std::numeric_limits<float>::quiet_NaN(), 0.49f};
    const int32_t want[] = {2, 4, -2, -4, INT32_MAX, INT32_MIN, 0, 0};
    for (int i = 0; i < 8; ++i) t.v[i] = in[i];
    tile::typecast(DataFormat::Float32, DataFormat::Int32, t.v);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(int32_t(bits(t.v[i])), want[i]) << in[i];
}

TEST(TileTypecast, FloatToUnsignedClampsNegative) {
    Tile t;
    const float in[] = {-5.0f, 70000.0f, 1.5f, 65535.4f, 4e9f, 5e9f};
    for (int i = 0; i < 6; ++i) t.v[i] = in[i];
    Tile u = t;
    tile::typecast(DataFormat::Float16_b, DataFormat::UInt16, t.v);
    const uint32_t want16[] = {0, 65535, 2, 65535, 65535, 65535};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(bits(t.v[i]), want16[i]) << in[i];
    tile::typecast(DataFormat::Float32, DataFormat::UInt32, u.v);
    const uint32_t want32[] = {0, 70000, 2, 65535, 4000000000u, UINT32_MAX};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(bits(u.v[i]), want32[i]) << in[i];
}

TEST(TileTypecast, IntToFloatRoundsToTheTargetFormat) {
    Tile t;
    t.v[0] = from_bits(257u);
    t.v[1] = from_bits(uint32_t(-259));
    t.v[2] = from_bits(16777217u);
    Tile f32 = t;
    tile::typecast(DataFormat::Int32, DataFormat::Float16_b, t.v);
    EXPECT_EQ(t.v[0], 256.0f);   // bf16 has 8 significant bits: 257 → 256 (nearest even)
    EXPECT_EQ(t.v[1], -260.0f);  // 259 = 1.0000001 1b·2^8 → tie → even 260
    tile::typecast(DataFormat::Int32, DataFormat::Float32, f32.v);
    EXPECT_EQ(f32.v[0], 257.0f);
    EXPECT_EQ(f32.v[2], 16777216.0f);
    Tile u;
    u.v[0] = from_bits(0xffffffffu);
    tile::typecast(DataFormat::UInt32, DataFormat::Float32, u.v);
    EXPECT_EQ(u.v[0], 4294967296.0f);
}

TEST(TileTypecast, IntToIntSaturatesAndFloatToFloatIsIdentity) {
    Tile t;
    t.v[0] = from_bits(uint32_t(-1));
    t.v[1] = from_bits(70000u);
    t.v[2] = from_bits(1234u);
    tile::typecast(DataFormat::Int32, DataFormat::UInt16, t.v);
    EXPECT_EQ(bits(t.v[0]), 0u);
    EXPECT_EQ(bits(t.v[1]), 65535u);
    EXPECT_EQ(bits(t.v[2]), 1234u);
    Tile w;
    w.v[0] = from_bits(0xffffffffu);
    tile::typecast(DataFormat::UInt32, DataFormat::Int32, w.v);
    EXPECT_EQ(bits(w.v[0]), uint32_t(INT32_MAX));
    Tile f;
    f.v[0] = 1.2345678f;
    tile::typecast(DataFormat::Float32, DataFormat::Float16_b, f.v);
    EXPECT_EQ(f.v[0], 1.2345678f);
}

TEST(TileTypecast, UnsupportedFormatThrowsAndLeavesTileAlone) {
    Tile t;
    t.v[0] = 3.0f;
    try {
        tile::typecast(DataFormat::Float32, DataFormat::Bfp8, t.v);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
        EXPECT_EQ(e.message().rfind("Unsupported:", 0), 0u) << e.message();
        EXPECT_NE(e.message().find("Bfp8"), std::string::npos) << e.message();
    }
    EXPECT_EQ(t.v[0], 3.0f);
    tile::typecast(DataFormat::Float32, DataFormat::Int32, t.v);  // still works afterwards
    EXPECT_EQ(bits(t.v[0]), 3u);
}

TEST(TileFormats, UnsupportedFormatsThrowNamingTheFormat) {
    Tile t;
    std::vector<uint8_t> l1(4096);
    for (DataFormat f : {DataFormat::Bfp8, DataFormat::Invalid, DataFormat(3)}) {
        EXPECT_THROW(tile::unpack_tile(f, l1.data(), t.v), zyx::Error);
        try {
            tile::pack_tile(f, t.v, l1.data());
            FAIL() << "expected an error";
        } catch (const zyx::Error& e) {
            EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
            EXPECT_EQ(e.message().rfind("Unsupported: tile::pack_tile", 0), 0u) << e.message();
        }
    }
}

TEST(TileFill, FillAndFillBits) {
    Tile t;
    tile::fill(t.v, -2.5f);
    for (float x : t.v) ASSERT_EQ(x, -2.5f);
    tile::fill_bits(t.v, 0xdeadbeefu);
    for (float x : t.v) ASSERT_EQ(bits(x), 0xdeadbeefu);
}
