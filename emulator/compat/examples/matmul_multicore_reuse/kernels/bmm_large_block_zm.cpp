// TRISC0-2: one core's output block of a blocked matmul, reusing each in0 / in1 block for all the
// output subblocks it touches. The output block (in0_num_subblocks × in1_num_subblocks subblocks
// of out_subblock_h × out_subblock_w tiles) is accumulated over num_blocks K-blocks: for every
// K-block (in0 block in c_0, in1 block in c_1, see the reader) and every subblock, DST is
// reloaded with the subblock's partial sums from the intermediate CB c_24 (from the second
// K-block on), the block's matmul_tiles are added, and DST goes back to c_24, or to the output
// CB c_16 after the last K-block. c_24 is a FIFO holding one output block: partials leave it in
// the order they were put in. Compile-time args: in0_block_w, in0_num_subblocks,
// in0_block_num_tiles, in0_subblock_num_tiles, in1_num_subblocks, in1_block_num_tiles,
// in1_per_core_w, num_blocks, out_subblock_h, out_subblock_w, out_subblock_num_tiles.
#include "api/compute/matmul.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t in0_block_w = get_compile_time_arg_val(0);
    constexpr uint32_t in0_num_subblocks = get_compile_time_arg_val(1);
    constexpr uint32_t in0_block_num_tiles = get_compile_time_arg_val(2);
    constexpr uint32_t in0_subblock_num_tiles = get_compile_time_arg_val(3);
    constexpr uint32_t in1_num_subblocks = get_compile_time_arg_val(4);
    constexpr uint32_t in1_block_num_tiles = get_compile_time_arg_val(5);
    constexpr uint32_t in1_per_core_w = get_compile_time_arg_val(6);
    constexpr uint32_t num_blocks = get_compile_time_arg_val(7);
    constexpr uint32_t out_subblock_h = get_compile_time_arg_val(8);
    constexpr uint32_t out_subblock_w = get_compile_time_arg_val(9);
    constexpr uint32_t out_subblock_num_tiles = get_compile_time_arg_val(10);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1;
    constexpr uint32_t cb_out = tt::CBIndex::c_16, cb_partials = tt::CBIndex::c_24;

    mm_init(cb_in0, cb_in1, cb_out);
    for (uint32_t block = 0; block < num_blocks; ++block) {
        const bool last_block = block == num_blocks - 1;
        cb_wait_front(cb_in0, in0_block_num_tiles);
        cb_wait_front(cb_in1, in1_block_num_tiles);

        for (uint32_t sb_h = 0; sb_h < in0_num_subblocks; ++sb_h) {
            const uint32_t in0_subblock_offset = sb_h * in0_subblock_num_tiles;
            for (uint32_t sb_w = 0; sb_w < in1_num_subblocks; ++sb_w) {
                const uint32_t in1_subblock_offset = sb_w * out_subblock_w;
                tile_regs_acquire();
                if (block > 0) {  // reload this subblock's partial sums
                    copy_tile_to_dst_init_short(cb_partials);
                    cb_wait_front(cb_partials, out_subblock_num_tiles);
                    for (uint32_t i = 0; i < out_subblock_num_tiles; ++i) copy_tile(cb_partials, i, i);
                    cb_pop_front(cb_partials, out_subblock_num_tiles);
                    mm_init_short(cb_in0, cb_in1);
                }
                for (uint32_t h = 0; h < out_subblock_h; ++h)
                    for (uint32_t w = 0; w < out_subblock_w; ++w)
                        for (uint32_t k = 0; k < in0_block_w; ++k)
                            matmul_tiles(cb_in0, cb_in1, in0_subblock_offset + h * in0_block_w + k,
                                         in1_subblock_offset + k * in1_per_core_w + w, h * out_subblock_w + w);
                tile_regs_commit();

                const uint32_t cb_dst = last_block ? cb_out : cb_partials;
                cb_reserve_back(cb_dst, out_subblock_num_tiles);
                tile_regs_wait();
                for (uint32_t i = 0; i < out_subblock_num_tiles; ++i) pack_tile(i, cb_dst);
                tile_regs_release();
                cb_push_back(cb_dst, out_subblock_num_tiles);
            }
        }
        cb_pop_front(cb_in0, in0_block_num_tiles);
        cb_pop_front(cb_in1, in1_block_num_tiles);
    }
}
