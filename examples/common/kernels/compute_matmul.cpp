// Compute for C = A·B: per output tile, DST[0] accumulates Kt products A[mt][kt]·B[kt][nt]
// (matmul_tiles adds into DST; DST starts at zero after tile_regs_acquire because the packer
// zeroed it at the previous release). Runtime args: Kt, count (output tiles on this core).
void kernel_main() {
    uint32_t Kt = get_arg_val<uint32_t>(0), count = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    mm_init(cb_a, cb_b, cb_out);
    for (uint32_t t = 0; t < count; ++t) {
        tile_regs_acquire();
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            cb_wait_front(cb_a, 1);
            cb_wait_front(cb_b, 1);
            matmul_tiles(cb_a, cb_b, 0, 0, 0);
            cb_pop_front(cb_a, 1);
            cb_pop_front(cb_b, 1);
        }
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
