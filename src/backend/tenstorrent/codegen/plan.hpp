// Step 1 of the Tenstorrent code generator: how one kernel of the IR is walked in tiles.
//
// The generator has three loop skeletons (docs/tenstorrent.md describes them with pictures):
//   map     for every output tile: read one tile of each input, compute the expression, pack;
//   reduce  for every output tile: for every reduce step read the operand tiles and accumulate
//           them tile by tile (SFPU add / max / min / mul in DST), then reduce inside the tile
//           (transpose_wh_dest + sfpu_reduce), then the epilogue expression, pack;
//   matmul  for every output tile: for every K tile read an A and a B tile and matmul_tiles into
//           DST (fp32), then the epilogue expression, pack.
// Output tiles are split over the cores of the grid; every core runs the same three kernels and
// finds its own range from its core index.
//
// A tile walks index-space axes in two dimensions (TileDim): its rows and its columns. The output
// is tiled over the last two global axes (the output buffer's own tiling, so output tile t is
// page t). A reduce's operand tiles may put a reduce axis in place of a global axis of size 1 (the
// reduced axis of a keepdim reduce), so the reduction inside a tile (along rows, columns or both)
// lands its result in row 0 / column 0 — exactly where the size-1 axis of the output lives.
//
// Each input is read through a Stream whose Read kind the planner chooses from the input's view
// and storage: whole source tiles by page arithmetic when the view is tile-aligned, one source
// tile transposed, one source row / column / element replicated in L1 (broadcasts), or gathered
// element by element from the source tiles it touches (any other view: one NoC read per source
// tile, never per element). A `gather` is always correct; the other kinds are what makes it fast.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/tenstorrent/protocol.hpp"
#include "kernel/kernel.hpp"

namespace zyx::tt::codegen {

// The device facts the plan depends on.
struct Target {
    protocol::Grid grid;
    uint32_t l1_bytes = 0;
    uint32_t num_cbs = 32;
    uint32_t dram_alignment = 32;
};

enum class Skeleton : uint8_t { map, reduce, matmul };

// Index-space axes one dimension of a tile walks, outermost first (flattened row-major); none =
// a dimension of size 1.
struct TileDim {
    std::vector<int> axes;
    int64_t size = 1;   // product of the axes' sizes
    int64_t tiles = 1;  // ceil(size / 32)
};

// Loop dims a tile's rows or columns follow; each is advanced by one loop of the skeletons.
enum class Dim : uint8_t {
    out_rows,  // the output's rows (global axis G-2)
    out_cols,  // the output's columns (global axis G-1)
    red_rows,  // reduce skeleton: a reduce axis in place of out_rows (its tile index walks the steps)
    red_cols,  // reduce skeleton: a reduce axis in place of out_cols
    k,         // matmul: the reduce axes flattened
};
inline constexpr int kNumDims = 5;

enum class Read : uint8_t {
    tile,          // the source tile as it is
    transposed,    // the source tile with rows and columns swapped (compute: transpose_wh_dest)
    bcast_row,     // one source row repeated down the tile (the value does not change along rows)
    bcast_col,     // one source column repeated across the tile
    bcast_scalar,  // one source element everywhere
    gather,        // element by element from any source tiles (any view; padding reads the pad value)
    index,         // made by the reader: each element's position along one index axis (f32)
};
const char* read_name(Read r);

// One input as a skeleton reads it.
struct Stream {
    int input = -1;       // kernel input, or -1 for an index stream
    int index_axis = -1;  // index stream: the axis
    int level = 0;        // 0: once per output tile; 1: once per reduce step / K tile
    Dim rows = Dim::out_rows, cols = Dim::out_cols;
    Read read = Read::gather;
    // tile / transposed / bcast_*: the view is one strided layer; the element of the tile origin
    // is offset + Σ stride[d]·idx[d] over the index axes d (idx holding the origin).
    int64_t offset = 0;
    std::vector<int64_t> strides;
    uint32_t cb = 0;
    protocol::DataFormat format = protocol::DataFormat::Float32;  // its CB's format
    uint32_t scratch_cb = 0;                                      // gather: CB used as the source-tile cache
    bool zero_k_padding = false;                                  // matmul: zero the K padding of the last K tile
    uint32_t lo_cb = UINT32_MAX;   // matmul of f32 (Plan::split_f32): the next part of the tiles
    uint32_t lo2_cb = UINT32_MAX;  // … and for B the last one
};

struct Plan {
    Skeleton skeleton = Skeleton::map;
    kernel::Kernel kernel;  // after common-subexpression merging
    int out_node = -1;
    DType out_dtype = DType::f32;
    protocol::DataFormat out_format = protocol::DataFormat::Float32;  // of the output buffer's tiles
    // bf16 results are packed as Float32 and rounded to nearest even by the writer (which keeps
    // NaN: the packer's own Float16_b conversion turns NaN into inf, docs/numerics.md), in a
    // staging page of its own.
    protocol::DataFormat out_cb_format = protocol::DataFormat::Float32;
    uint32_t out_staging_cb = UINT32_MAX;
    TileDim dims[kNumDims];
    std::vector<int> out_outer;  // global axes outside the output tile, outermost first
    std::vector<int> red_outer;  // reduce skeleton: reduce axes walked step by step
    // reduce skeleton: the in-tile reduction (rows: along red_rows, cols: along red_cols)
    bool reduce_rows = false, reduce_cols = false;
    std::vector<int> reduce_nodes;     // the kernel's reduce nodes, accumulated side by side
    int matmul_a = -1, matmul_b = -1;  // matmul: streams of the two operands
    bool transpose_b = false;          // matmul: B is read transposed (matmul_tiles transpose=1)
    // matmul of f32 operands: the FPU reads A (SrcB) with 10 mantissa bits and B (SrcA) with 9,
    // so the reader splits each A tile into two parts and each B tile into three, each exact on
    // the FPU and all summing exactly to the f32 value, and the compute kernel adds the five
    // products that matter, small ones first: A_lo·B_mid + A_lo·B_hi + A_hi·B_lo + A_hi·B_mid +
    // A_hi·B_hi (about 2^-21 relative per product; docs/numerics.md).
    bool split_f32 = false;
    std::vector<Stream> streams;
    uint32_t mask_cb = 0;  // reduce skeleton with a partial plane tile: masks from the reader
    uint32_t out_cb = 0;
    uint64_t out_tiles = 0;
    uint64_t steps = 1;  // reduce steps or K tiles per output tile
    protocol::Grid grid;
    uint32_t dst_tiles = 8;  // DST tiles per acquire: 8 (fp32, full sync) or 4 (fp32, half sync)
};

// The plan for `k` on `target`, or nullopt with a one-line reason in *why (what the generator
// does not support: a dtype without a tile format, an op without a tile form, …).
std::optional<Plan> make_plan(const kernel::Kernel& k, const Target& target, std::string* why);

// Which stream reads input `input` at level `level` (-1 when none).
int stream_of(const Plan& p, int input, int level);

}  // namespace zyx::tt::codegen
