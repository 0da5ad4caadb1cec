#include "backend/tenstorrent/tile_layout.hpp"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

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
        case DType::f32:
        case DType::i32: return 4096;
        case DType::bf16:
        case DType::bool_: return 2048;
        default:
            throw Error(ErrorStatus::Internal, "tile_bytes: " + std::string(dtype_name(t)) + " has no tile format");
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

// Copies one face row (16 datums of Z bytes). Streaming (non-temporal) stores when the target
// is 16-byte aligned: the bytes are read by someone else next (the runtime, or the caller, long
// after), so fetching the target lines into the cache first would only cost bandwidth.
template <size_t Z>
inline void copy_face_row(uint8_t* dst, const uint8_t* src, bool stream) {
#if defined(__SSE2__)
    if (stream) {
        for (size_t b = 0; b < 16 * Z; b += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(dst + b),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + b)));
        return;
    }
#endif
    (void)stream;
    std::memcpy(dst, src, 16 * Z);
}
inline void stream_fence() {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}
inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

// One full 32×32 tile between a row-major matrix (row stride `ld` elements) and face order, in
// face order (sequential on the tile side); Z bytes per element, the same on both sides.
template <size_t Z>
void tilize_full(const uint8_t* src, uint64_t ld, uint8_t* tile) {
    const bool stream = aligned16(tile);
    for (uint32_t f = 0; f < 4; ++f) {
        const uint8_t* s0 = src + ((f / 2) * 16 * ld + (f % 2) * 16) * Z;
        for (uint32_t r = 0; r < 16; ++r, tile += 16 * Z) copy_face_row<Z>(tile, s0 + r * ld * Z, stream);
    }
}
template <size_t Z>
void untilize_full(const uint8_t* tile, uint64_t ld, uint8_t* dst) {
    const bool stream = aligned16(dst) && (ld * Z) % 16 == 0;
    for (uint32_t f = 0; f < 4; ++f) {
        uint8_t* d0 = dst + ((f / 2) * 16 * ld + (f % 2) * 16) * Z;
        for (uint32_t r = 0; r < 16; ++r, tile += 16 * Z) copy_face_row<Z>(d0 + r * ld * Z, tile, stream);
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
        const uint8_t* mat = in + m * s.rows * s.cols * z.host;
        if (nr == kTileDim && nc == kTileDim && t != DType::bool_) {  // the common case, at memcpy speed
            const uint8_t* src0 = mat + (r0 * s.cols + c0) * z.host;
            if (z.host == 4)
                tilize_full<4>(src0, s.cols, tp);
            else
                tilize_full<2>(src0, s.cols, tp);
            return;
        }
        if (nr < kTileDim || nc < kTileDim) std::memset(tp, 0, tile);
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
    stream_fence();  // streamed stores are visible before the bytes are handed on
}

void untilize(const void* src, DType t, const TiledShape& s, uint64_t first, uint64_t count, void* dst) {
    const Sizes z = sizes(t);
    const uint64_t tile = uint64_t(kTileElems) * z.datum;
    const uint8_t* in = static_cast<const uint8_t*>(src);
    uint8_t* out = static_cast<uint8_t*>(dst);
    for_tiles(s, first, count, [&](uint64_t i, uint64_t m, uint64_t r0, uint64_t c0, uint64_t nr, uint64_t nc) {
        const uint8_t* tp = in + i * tile;
        uint8_t* mat = out + m * s.rows * s.cols * z.host;
        if (nr == kTileDim && nc == kTileDim && t != DType::bool_) {
            uint8_t* dst0 = mat + (r0 * s.cols + c0) * z.host;
            if (z.host == 4)
                untilize_full<4>(tp, s.cols, dst0);
            else
                untilize_full<2>(tp, s.cols, dst0);
            return;
        }
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
    stream_fence();
}

}  // namespace zyx::tt
