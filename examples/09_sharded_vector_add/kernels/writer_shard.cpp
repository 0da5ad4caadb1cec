// Writer (BRISC) of a sharded program: cb 16 is placed on this core's shard of the output, so
// the packer has already written the result where it belongs. Waiting for all pages keeps the
// program running until the compute kernel has packed the last one.
// Common runtime args: tiles (pages of each core's shard).
void kernel_main() {
    uint32_t tiles = get_common_arg_val<uint32_t>(0);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    cb_wait_front(cb_out, tiles);
    cb_pop_front(cb_out, tiles);
}
