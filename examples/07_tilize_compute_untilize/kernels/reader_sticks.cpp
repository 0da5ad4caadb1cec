// Reader (NCRISC) of a row-major matrix stored one row ("stick") per DRAM page: for every tile
// row tr in start .. start+count-1 it reads the 32 sticks 32·tr … 32·tr+31 back to back into Wt
// pages of cb 0. That is the row-major block tilize_block expects: 32 rows of Wt·32 datums, row r
// at byte r·stick_bytes (tt-metal api/compute/tilize.h).
// Compile-time args: Wt, then TensorAccessorArgs of the input. Runtime args: input, start, count.
void kernel_main() {
    uint32_t in_addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    constexpr uint32_t Wt = get_compile_time_arg_val(0);
    constexpr uint32_t cb_rows = tt::CBIndex::c_0;
    constexpr auto args = TensorAccessorArgs<1>();
    const uint32_t stick_bytes = Wt * get_tile_size(cb_rows) / 32;  // one row of Wt·32 datums
    const auto in = TensorAccessor(args, in_addr, stick_bytes);
    for (uint32_t tr = start; tr < start + count; ++tr) {
        cb_reserve_back(cb_rows, Wt);
        uint32_t l1 = get_write_ptr(cb_rows);
        for (uint32_t r = 0; r < 32; ++r) noc_async_read_page(tr * 32 + r, in, l1 + r * stick_bytes);
        noc_async_read_barrier();
        cb_push_back(cb_rows, Wt);
    }
}
