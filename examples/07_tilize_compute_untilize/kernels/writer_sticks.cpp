// Writer (BRISC): the mirror of reader_sticks.cpp. For every tile row tr in start ..
// start+count-1 it takes the Wt pages of row-major rows from cb 16 (32 rows of Wt·32 datums, what
// untilize_block and pack_untilize produce) and writes them as sticks 32·tr … 32·tr+31.
// Compile-time args: Wt, then TensorAccessorArgs of the output. Runtime args: output, start, count.
void kernel_main() {
    uint32_t out_addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto args = TensorAccessorArgs<1>();
    const uint32_t stick_bytes = Wt * get_tile_size(cb_out) / 32;
    const auto out = TensorAccessor(args, out_addr, stick_bytes);
    for (uint32_t tr = start; tr < start + count; ++tr) {
        cb_wait_front(cb_out, Wt);
        uint32_t l1 = get_read_ptr(cb_out);
        for (uint32_t r = 0; r < 32; ++r) noc_async_write_page(tr * 32 + r, out, l1 + r * stick_bytes);
        noc_async_write_barrier();
        cb_pop_front(cb_out, Wt);
    }
}
