// Compute: y = sqrt(exp(-|x|)) per element, as a chain of SFPU ops on one DST tile.
//
// copy_tile unpacks a CB tile into DST (UNPACK + MATH); every SFPU op then works in place on
// DST (MATH only) after its *_init; pack_tile writes DST back to a CB (PACK).
void kernel_main() {
    uint32_t count = get_arg_val<uint32_t>(0);
    constexpr uint32_t cb_in = tt::CBIndex::c_0, cb_out = tt::CBIndex::c_16;
    init_sfpu(cb_in, cb_out);
    for (uint32_t i = 0; i < count; ++i) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile_init(cb_in);
        copy_tile(cb_in, 0, 0);
        abs_tile_init();
        abs_tile(0);
        negative_tile_init();
        negative_tile(0);
        exp_tile_init();
        exp_tile(0);
        sqrt_tile_init();
        sqrt_tile(0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
