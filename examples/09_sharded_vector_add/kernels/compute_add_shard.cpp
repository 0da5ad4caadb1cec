// Compute: c = a + b, tile by tile, over this core's shard (cb 0 and cb 1 in, cb 16 out, all
// three placed on L1 shards). add_tiles runs on the FPU; the packer rounds to bf16.
// Common runtime args: tiles (pages of each core's shard).
void kernel_main() {
    uint32_t tiles = get_common_arg_val<uint32_t>(0);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    binary_op_init_common(cb_a, cb_b, cb_out);
    add_tiles_init(cb_a, cb_b);
    for (uint32_t i = 0; i < tiles; ++i) {
        cb_wait_front(cb_a, 1);
        cb_wait_front(cb_b, 1);
        tile_regs_acquire();
        add_tiles(cb_a, cb_b, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(cb_a, 1);
        cb_pop_front(cb_b, 1);
        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
