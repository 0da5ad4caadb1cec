// Compute: y = x² on row-major data, through the tile layout the FPU and SFPU work in.
// Per tile row (Wt tiles):
//   1. tilize_block: the 32 row-major rows in cb 0 → Wt tiles in cb 24;
//   2. copy_tile + square_tile (SFPU) on `bw` tiles of DST at a time;
//   3. back to rows, either
//      - PACK_UNTILIZE = 1: pack_untilize_dest packs the DST tiles straight into row-major pages
//        of cb 16 (no extra pass; exact for a Float32 CB with a 32-bit DST), or
//      - PACK_UNTILIZE = 0: pack_tile into cb 25, then untilize_block cb 25 → cb 16 (one more
//        unpack/pack pass; the unpack goes through SrcA, so a Float32 CB would be read as TF32:
//        docs/numerics.md §5).
// Each op runs after its own init (tt-metal's rule: an init configures the unpacker, math and
// packer for that op only), and tilize / pack_untilize are closed with their uninit before other
// ops use the packer. Every CB has the same data format, so no reconfig_data_format is needed.
// Compile-time args: Wt, bw (tiles per DST pass, divides Wt and fits half of DST), PACK_UNTILIZE.
// Runtime args: count (tile rows on this core).
void kernel_main() {
    uint32_t count = get_arg_val<uint32_t>(0);
    constexpr uint32_t Wt = get_compile_time_arg_val(0), bw = get_compile_time_arg_val(1);
    constexpr bool use_pack_untilize = get_compile_time_arg_val(2) != 0;
    constexpr uint32_t cb_rows = tt::CBIndex::c_0, cb_out = tt::CBIndex::c_16;
    constexpr uint32_t cb_tiled = tt::CBIndex::c_24, cb_squared = tt::CBIndex::c_25;
    compute_kernel_hw_startup(cb_rows, cb_out);
    for (uint32_t row = 0; row < count; ++row) {
        // 1. rows → tiles. tilize_block acquires and releases DST itself.
        tilize_init(cb_rows, Wt, cb_tiled);
        cb_wait_front(cb_rows, Wt);
        cb_reserve_back(cb_tiled, Wt);
        tilize_block(cb_rows, Wt, cb_tiled);
        cb_push_back(cb_tiled, Wt);
        cb_pop_front(cb_rows, Wt);
        tilize_uninit(cb_rows, cb_tiled);

        // 2. square, bw tiles per DST pass; 3a. pack_untilize straight from DST.
        cb_wait_front(cb_tiled, Wt);
        if constexpr (use_pack_untilize) {
            pack_untilize_dest_init<bw, Wt>(cb_out);
            cb_reserve_back(cb_out, Wt);
        }
        for (uint32_t c = 0; c < Wt / bw; ++c) {
            tile_regs_acquire();
            copy_tile_init(cb_tiled);
            for (uint32_t i = 0; i < bw; ++i) copy_tile(cb_tiled, c * bw + i, i);
            square_tile_init();
            for (uint32_t i = 0; i < bw; ++i) square_tile(i);
            tile_regs_commit();
            tile_regs_wait();
            if constexpr (use_pack_untilize) {
                pack_untilize_dest<bw, Wt>(cb_out, 1, c);  // tile columns c·bw … c·bw+bw−1
            } else {
                cb_reserve_back(cb_squared, bw);
                for (uint32_t i = 0; i < bw; ++i) pack_tile(i, cb_squared);
                cb_push_back(cb_squared, bw);
            }
            tile_regs_release();
        }
        cb_pop_front(cb_tiled, Wt);

        if constexpr (use_pack_untilize) {
            cb_push_back(cb_out, Wt);
            pack_untilize_uninit(cb_out);
        } else {
            // 3b. tiles → rows in a second pass (untilize_block acquires DST itself).
            untilize_init(cb_squared);
            cb_wait_front(cb_squared, Wt);
            cb_reserve_back(cb_out, Wt);
            untilize_block(cb_squared, Wt, cb_out);
            cb_push_back(cb_out, Wt);
            cb_pop_front(cb_squared, Wt);
            untilize_uninit(cb_squared);
        }
    }
}
