#include "backend/tenstorrent/tile_layout.hpp"

#include <cstring>

#include "core/error.hpp"

namespace zyx::tt {

std::optional<protocol::DataFormat> tile_format(DType t) {
    switch (t) {
        case DType::f32: return protocol::DataFormat::Float32;
        case DType::bf16: return protocol::DataFormat::Float16_b;
        case DType::bool_: return protocol::DataFormat::Float16_b;
        case DType::i32: return protocol::DataFormat::Int32;
        default: return std::nullopt;
    }
}

uint32_t tile_bytes(DType t) {
    switch (t) {
        case DType::f32: case DType::i32: return 4096;
        case DType::bf16: case DType::bool_: return 2048;
        default: throw Error(ErrorStatus::Internal, "tile_bytes: " + std::string(dtype_name(t)) + " has no tile format");
    }
}

TiledShape tiled_shape(const std::vector<int64_t>& shape) {
    TiledShape s;
    size_t r = shape.size();
    s.cols = r >= 1 ? uint64_t(shape[r - 1]) : 1;
    s.rows = r >= 2 ? uint64_t(shape[r - 2]) : 1;
    for (size_t d = 0; d + 2 < r; ++d) s.batch *= uint64_t(shape[d]);
    s.tile_rows = (s.rows + kTileDim - 1) / kTileDim;
    s.tile_cols = (s.cols + kTileDim - 1) / kTileDim;
    return s;
}

namespace {

// Element size in host memory and in a tile datum; bool is 1 byte on the host, a bf16 datum here.
struct Sizes {
    uint32_t host, datum;
};
Sizes sizes(DType t) {
    if (t == DType::bool_) return {1, 2};
    uint32_t z = uint32_t(dtype_size(t));
    return {z, z};
}

// Calls f(tile, matrix, row0, col0, nrows, ncols) for each tile in [first, first + count): the
// tile's position in the output/input buffer, its matrix, and the valid rectangle it covers.
template <class F>
void for_tiles(const TiledShape& s, uint64_t first, uint64_t count, F&& f) {
    const uint64_t per_matrix = s.tile_rows * s.tile_cols;
    for (uint64_t i = 0; i < count; ++i) {
        uint64_t t = first + i, m = t / per_matrix, in = t % per_matrix;
        uint64_t tr = in / s.tile_cols, tc = in % s.tile_cols;
        uint64_t r0 = tr * kTileDim, c0 = tc * kTileDim;
        f(i, m, r0, c0, std::min<uint64_t>(kTileDim, s.rows - r0), std::min<uint64_t>(kTileDim, s.cols - c0));
    }
}

}  // namespace

void tilize(const void* src, DType t, const TiledShape& s, uint64_t first, uint64_t count, void* dst) {
    const Sizes z = sizes(t);
    const uint64_t tile = uint64_t(kTileElems) * z.datum;
    const uint8_t* in = static_cast<const uint8_t*>(src);
    uint8_t* out = static_cast<uint8_t*>(dst);
    for_tiles(s, first, count, [&](uint64_t i, uint64_t m, uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) {
        uint8_t* tp = out + i * tile;
        if (nr < kTileDim || nc < kTileDim) std::memset(tp, 0, tile);
        const uint8_t* mat = in + m * s.rows * s.cols * z.host;
        for (uint64_t r = 0; r < nr; ++r) {
            const uint8_t* row = mat + ((r0 + r) * s.cols + c0) * z.host;
            // One face row at a time: 16 datums contiguous in both layouts.
            for (uint64_t fc = 0; fc < nc; fc += 16) {
                uint64_t n = std::min<uint64_t>(16, nc - fc);
                uint8_t* d = tp + uint64_t(face_index(uint32_t(r), uint32_t(fc))) * z.datum;
                if (t == DType::bool_) {
                    uint16_t* dd = reinterpret_cast<uint16_t*>(d);
                    for (uint64_t j = 0; j < n; ++j) dd[j] = row[fc + j] ? 0x3f80 : 0;
                } else {
                    std::memcpy(d, row + fc * z.host, n * z.host);
                }
            }
        }
    });
}

void untilize(const void* src, DType t, const TiledShape& s, uint64_t first, uint64_t count, void* dst) {
    const Sizes z = sizes(t);
    const uint64_t tile = uint64_t(kTileElems) * z.datum;
    const uint8_t* in = static_cast<const uint8_t*>(src);
    uint8_t* out = static_cast<uint8_t*>(dst);
    for_tiles(s, first, count, [&](uint64_t i, uint64_t m, uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) {
        const uint8_t* tp = in + i * tile;
        uint8_t* mat = out + m * s.rows * s.cols * z.host;
        for (uint64_t r = 0; r < nr; ++r) {
            uint8_t* row = mat + ((r0 + r) * s.cols + c0) * z.host;
            for (uint64_t fc = 0; fc < nc; fc += 16) {
                uint64_t n = std::min<uint64_t>(16, nc - fc);
                const uint8_t* d = tp + uint64_t(face_index(uint32_t(r), uint32_t(fc))) * z.datum;
                if (t == DType::bool_) {
                    const uint16_t* dd = reinterpret_cast<const uint16_t*>(d);
                    for (uint64_t j = 0; j < n; ++j) row[fc + j] = (dd[j] & 0x7fff) != 0;
                } else {
                    std::memcpy(row + fc * z.host, d, n * z.host);
                }
            }
        }
    });
}

}  // namespace zyx::tt
