// Compute: for each of Ht tile rows, DST[0] accumulates reduce_tile over the Wt tiles of that
// row (SUM along W, scaled by the scaler tile), giving each row's sum in column 0 of the
// output tile. Runtime args: Ht, Wt.
void kernel_main() {
    uint32_t Ht = get_arg_val<uint32_t>(0), Wt = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_in = tt::CBIndex::c_0, cb_scaler = tt::CBIndex::c_2, cb_out = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_scaler, 1);  // kept for the whole kernel
    for (uint32_t ht = 0; ht < Ht; ++ht) {
        tile_regs_acquire();
        for (uint32_t wt = 0; wt < Wt; ++wt) {
            cb_wait_front(cb_in, 1);
            reduce_tile<PoolType::SUM, ReduceDim::REDUCE_ROW>(cb_in, cb_scaler, 0, 0, 0);
            cb_pop_front(cb_in, 1);
        }
        tile_regs_commit();
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
    reduce_uninit();  // restore the packer before any other op would run
    cb_pop_front(cb_scaler, 1);
}
