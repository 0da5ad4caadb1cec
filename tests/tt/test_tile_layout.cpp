// The tiled layout of Tenstorrent tensors (src/backend/tenstorrent/tile_layout.hpp): tiles in
// (batch, tile row, tile col) order, four 16×16 faces per tile, zero padding, bool as bf16 0/1,
// and tilize / untilize as exact inverses for every tiled dtype, also chunk by chunk.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "backend/tenstorrent/tile_layout.hpp"

namespace {

using zyx::DType;
using zyx::tt::face_index;
using zyx::tt::TiledShape;

TEST(TileLayout, ShapesBatchesAndTileCounts) {
    TiledShape s = zyx::tt::tiled_shape({2, 3, 33, 64});
    EXPECT_EQ(s.batch, 6u);
    EXPECT_EQ(s.rows, 33u);
    EXPECT_EQ(s.cols, 64u);
    EXPECT_EQ(s.tile_rows, 2u);
    EXPECT_EQ(s.tile_cols, 2u);
    EXPECT_EQ(s.tiles(), 24u);
    TiledShape v = zyx::tt::tiled_shape({70});  // a vector is one row
    EXPECT_EQ(v.rows, 1u);
    EXPECT_EQ(v.tiles(), 3u);
    EXPECT_EQ(zyx::tt::tiled_shape({}).tiles(), 1u);  // a 0-d tensor is one tile
    EXPECT_EQ(zyx::tt::tiled_shape({4, 0, 5}).tiles(), 0u);
}

TEST(TileLayout, FaceOrderAndZeroPadding) {
    // A 40×50 f32 matrix whose element (r, c) holds r * 1000 + c.
    const int R = 40, C = 50;
    std::vector<float> m(R * C);
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) m[size_t(r * C + c)] = float(r * 1000 + c);
    TiledShape s = zyx::tt::tiled_shape({R, C});
    ASSERT_EQ(s.tiles(), 4u);
    std::vector<float> tiles(4 * 1024, -1.f);
    zyx::tt::tilize(m.data(), DType::f32, s, 0, 4, tiles.data());
    // Tile 0: element (17, 3) is face 2 (bottom-left), row 1, col 3.
    EXPECT_EQ(tiles[2 * 256 + 1 * 16 + 3], 17003.f);
    EXPECT_EQ(tiles[face_index(17, 3)], 17003.f);
    // Tile 1 (tile row 0, tile col 1): element (5, 40) sits at (5, 8) of the tile, face 0.
    EXPECT_EQ(tiles[1024 + face_index(5, 8)], 5040.f);
    // Tile 3 (1, 1): (39, 49) at (7, 17) → face 1; padding beyond (40, 50) is zero.
    EXPECT_EQ(tiles[3 * 1024 + face_index(7, 17)], 39049.f);
    EXPECT_EQ(tiles[3 * 1024 + face_index(7, 18)], 0.f);
    EXPECT_EQ(tiles[3 * 1024 + face_index(8, 0)], 0.f);
    EXPECT_EQ(tiles[2 * 1024 + face_index(31, 31)], 0.f);
}

template <class T>
void round_trip(DType t, const std::vector<int64_t>& shape, std::vector<T> values) {
    TiledShape s = zyx::tt::tiled_shape(shape);
    const size_t tile = zyx::tt::tile_bytes(t);
    std::vector<uint8_t> tiles(s.tiles() * tile, 0xAB);
    // In three chunks of whole tiles, as the pool does through the staging arena.
    uint64_t a = s.tiles() / 3, b = 2 * s.tiles() / 3;
    for (auto [first, end] : {std::pair<uint64_t, uint64_t>{0, a}, {a, b}, {b, s.tiles()}})
        zyx::tt::tilize(values.data(), t, s, first, end - first, tiles.data() + first * tile);
    std::vector<T> back(values.size());
    for (auto [first, end] : {std::pair<uint64_t, uint64_t>{0, b}, {b, s.tiles()}})
        zyx::tt::untilize(tiles.data() + first * tile, t, s, first, end - first, back.data());
    EXPECT_EQ(std::memcmp(back.data(), values.data(), values.size() * sizeof(T)), 0) << zyx::dtype_name(t);
}

TEST(TileLayout, RoundTripsAreExactForEveryTiledDtype) {
    std::mt19937 rng(5);
    const std::vector<int64_t> shape = {3, 37, 70};
    const size_t n = 3 * 37 * 70;
    std::vector<uint32_t> w32(n);
    for (uint32_t& x : w32) x = rng();  // any bit pattern: NaN payloads, denormals
    round_trip<uint32_t>(DType::f32, shape, w32);
    round_trip<uint32_t>(DType::i32, shape, w32);
    std::vector<uint16_t> w16(n);
    for (uint16_t& x : w16) x = uint16_t(rng());
    round_trip<uint16_t>(DType::bf16, shape, w16);
    std::vector<uint8_t> b(n);
    for (uint8_t& x : b) x = rng() & 1;
    round_trip<uint8_t>(DType::bool_, shape, b);
}

TEST(TileLayout, BoolIsStoredAsBf16ZeroAndOne) {
    std::vector<uint8_t> v = {1, 0, 1};
    TiledShape s = zyx::tt::tiled_shape({3});
    std::vector<uint16_t> tile(1024, 0xffff);
    zyx::tt::tilize(v.data(), DType::bool_, s, 0, 1, tile.data());
    EXPECT_EQ(tile[0], 0x3f80);
    EXPECT_EQ(tile[1], 0x0000);
    EXPECT_EQ(tile[2], 0x3f80);
    EXPECT_EQ(tile[3], 0x0000);  // padding
    tile[1] = 0x4000;            // 2.0 reads as true
    std::vector<uint8_t> back(3, 7);
    zyx::tt::untilize(tile.data(), DType::bool_, s, 0, 1, back.data());
    EXPECT_EQ(back, (std::vector<uint8_t>{1, 1, 1}));
}

TEST(TileLayout, OnlyDtypesWithATileFormatAreTiled) {
    EXPECT_TRUE(zyx::tt::tile_format(DType::f32));
    EXPECT_TRUE(zyx::tt::tile_format(DType::bf16));
    EXPECT_TRUE(zyx::tt::tile_format(DType::bool_));
    EXPECT_TRUE(zyx::tt::tile_format(DType::i32));
    for (DType t : {DType::f64, DType::f16, DType::i64, DType::i8, DType::u8, DType::u64})
        EXPECT_FALSE(zyx::tt::tile_format(t));
    EXPECT_EQ(zyx::tt::tile_bytes(DType::bf16), 2048u);
    EXPECT_EQ(zyx::tt::tile_bytes(DType::f32), 4096u);
}

}  // namespace
