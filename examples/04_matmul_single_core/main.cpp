// Example 04: matrix multiplication on one core, C = A·B with A 128x256 and B 256x96 in bf16.
//
// Matmul needs the tile layout: each 32x32 tile stored as four 16x16 faces (the host tilizes).
// The reader streams, for each output tile, the row of A tiles and the column of B tiles it
// needs; compute accumulates matmul_tiles into one DST tile (fp32 accumulation here,
// fp32_dest_acc_en = true, which halves DST to 4 tiles per half) and packs it; the writer
// stores the tile. Kernels: examples/common/kernels/{reader_matmul_tiles,compute_matmul,
// writer_tiles}.cpp.
#include "matmul_example.hpp"

int main() {
    return example::run_example([] {
        return example::matmul_example("matmul_single_core", zyx::emu::preset("wormhole-n150"), {{0, 0}, {0, 0}}, 128,
                                       256, 96);
    });
}
