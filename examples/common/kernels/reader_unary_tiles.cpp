// Reader (NCRISC): tiles start .. start+count-1 of one interleaved DRAM buffer into cb 0.
// Compile-time args: TensorAccessorArgs of the input. Runtime args: input, start, count.
void kernel_main() {
    uint32_t in_addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr auto args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(args, in_addr, get_tile_size(cb_in));
    for (uint32_t i = start; i < start + count; ++i) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(i, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
