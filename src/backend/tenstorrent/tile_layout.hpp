// The tiled layout of tensors on a Tenstorrent device (backend::Layout::tiled), and the client's
// tilize / untilize that convert to and from row-major host bytes on upload and download.
//
// A tensor of shape [..., rows, cols] is a batch of rows × cols matrices (a missing axis counts as
// size 1). Each matrix is padded to multiples of 32 in both directions and cut into 32×32 tiles,
// tiles in row-major order over (batch, tile row, tile col), one tile per DRAM page. Inside a tile
// the datums are four 16×16 faces — face 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right —
// each row-major, so element (r, c) of a tile is datum face_index(r, c) (tt-metal's
// `tilize_nfaces` order, the order the unpacker and packer read and write).
//
// Which dtypes are tiled, in which tt::DataFormat: f32 → Float32, bf16 → Float16_b, i32 → Int32,
// bool → Float16_b holding 0.0 and 1.0 (compute kernels then treat booleans as the 0/1 numbers
// comparisons produce). Every other dtype has no tile format here and is stored row-major.
// Padding is written as zero bits by tilize (docs/tenstorrent.md).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/dtype.hpp"
#include "backend/tenstorrent/protocol.hpp"

namespace zyx::tt {

inline constexpr uint32_t kTileDim = 32;
inline constexpr uint32_t kTileElems = kTileDim * kTileDim;

// Datum number of element (r, c) of a tile.
constexpr uint32_t face_index(uint32_t r, uint32_t c) {
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + (c % 16);
}

// The tile format a dtype is stored in on a Tenstorrent device, or nullopt (row-major storage).
std::optional<protocol::DataFormat> tile_format(DType t);
// Bytes of one tile of a tiled dtype (4096 for f32 and i32, 2048 for bf16 and bool).
uint32_t tile_bytes(DType t);

// A tensor shape as tiled storage sees it.
struct TiledShape {
    uint64_t batch = 1, rows = 1, cols = 1;  // the matrices
    uint64_t tile_rows = 1, tile_cols = 1;   // ceil(rows / 32), ceil(cols / 32)
    uint64_t tiles() const { return batch * tile_rows * tile_cols; }
};
TiledShape tiled_shape(const std::vector<int64_t>& shape);

// Writes tiles [first, first + count) of the row-major tensor `src` (dtype t, shape s) into
// `dst` (count × tile_bytes(t) bytes), padding as zero bits. t must have a
// tile format.
void tilize(const void* src, DType t, const TiledShape& s, uint64_t first, uint64_t count, void* dst);
// The inverse: tiles [first, first + count) in `src` → their elements of the row-major tensor
// `dst` (only the elements those tiles hold are written). bool reads any non-zero value as 1.
void untilize(const void* src, DType t, const TiledShape& s, uint64_t first, uint64_t count, void* dst);

}  // namespace zyx::tt
