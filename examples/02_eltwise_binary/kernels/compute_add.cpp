// Compute (TRISC0/1/2): c = a + b for `count` bf16 tiles.
//
// The same code runs on three processors. UNPACK does cb_wait_front / cb_pop_front and moves
// tiles from the CBs into the source registers; MATH does tile_regs_acquire / commit and the
// addition into DST; PACK does cb_reserve_back / cb_push_back, tile_regs_wait / release and
// pack_tile (DST → cb 16, rounding to bf16).
void kernel_main() {
    uint32_t count = get_arg_val<uint32_t>(0);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    binary_op_init_common(cb_a, cb_b, cb_out);
    add_tiles_init(cb_a, cb_b);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();  // MATH owns one DST half
        add_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();  // hand the half to PACK
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();  // PACK waits for MATH
        pack_tile(0, cb_out);
        tile_regs_release();  // zeroes the half and returns it to MATH
        cb_push_back(cb_out, 1);
    }
}
