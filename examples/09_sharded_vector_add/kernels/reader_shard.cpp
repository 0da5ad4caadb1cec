// Reader (NCRISC) of a sharded program: the operands already sit in this core's L1, in the
// shards cb 0 and cb 1 are placed on, so there is nothing to move. Reserving and pushing the
// shard's pages only hands them to the compute kernel (tt-metal's sharded kernels do the same).
// Common runtime args: tiles (pages of each core's shard).
void kernel_main() {
    uint32_t tiles = get_common_arg_val<uint32_t>(0);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1;
    cb_reserve_back(cb_a, tiles);
    cb_push_back(cb_a, tiles);
    cb_reserve_back(cb_b, tiles);
    cb_push_back(cb_b, tiles);
}
