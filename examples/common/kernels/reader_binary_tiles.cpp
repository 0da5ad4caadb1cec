// Reader (NCRISC): tiles start .. start+count-1 of two interleaved DRAM buffers, one tile at a
// time, into cb 0 (a) and cb 1 (b).
// Compile-time args: TensorAccessorArgs of a, then of b. Runtime args: a, b, start, count.
void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0), b_addr = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2), count = get_arg_val<uint32_t>(3);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1;
    constexpr auto args_a = TensorAccessorArgs<0>();
    constexpr auto args_b = TensorAccessorArgs<args_a.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(args_a, a_addr, get_tile_size(cb_a));
    const auto b = TensorAccessor(args_b, b_addr, get_tile_size(cb_b));
    for (uint32_t i = start; i < start + count; ++i) {
        // Wait for room (never moves a pointer), read, barrier, then hand the pages over.
        cb_reserve_back(cb_a, 1);
        cb_reserve_back(cb_b, 1);
        noc_async_read_page(i, a, get_write_ptr(cb_a));
        noc_async_read_page(i, b, get_write_ptr(cb_b));
        noc_async_read_barrier();  // the data must have landed before the consumer sees it
        cb_push_back(cb_a, 1);
        cb_push_back(cb_b, 1);
    }
}
