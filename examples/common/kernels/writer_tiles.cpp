// Writer (BRISC): count tiles from cb 16 to tiles start .. start+count-1 of an interleaved DRAM
// buffer. Compile-time args: TensorAccessorArgs of the output. Runtime args: out, start, count.
void kernel_main() {
    uint32_t out_addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto args = TensorAccessorArgs<0>();
    const auto out = TensorAccessor(args, out_addr, get_tile_size(cb_out));
    for (uint32_t i = start; i < start + count; ++i) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(i, out, get_read_ptr(cb_out));
        noc_async_write_barrier();  // the page is free for reuse only when the write has landed
        cb_pop_front(cb_out, 1);
    }
}
