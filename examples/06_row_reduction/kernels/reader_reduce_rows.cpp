// Reader for the row reduction: first builds the scaler tile in cb 2 (bf16 1.0 in row 0 of
// every face, zeros elsewhere: reduce_tile multiplies by it), then streams the Ht x Wt input
// tiles row by row into cb 0. Compile-time args: TensorAccessorArgs of the input.
// Runtime args: input, number of tiles.
void kernel_main() {
    uint32_t in_addr = get_arg_val<uint32_t>(0), n_tiles = get_arg_val<uint32_t>(1);
    constexpr uint32_t cb_in = tt::CBIndex::c_0, cb_scaler = tt::CBIndex::c_2;

    cb_reserve_back(cb_scaler, 1);
    volatile uint16_t* s = reinterpret_cast<volatile uint16_t*>(get_write_ptr(cb_scaler));
    for (uint32_t i = 0; i < 1024; ++i) s[i] = 0;
    for (uint32_t face = 0; face < 4; ++face)
        for (uint32_t c = 0; c < 16; ++c) s[face * 256 + c] = 0x3f80;  // 1.0 in bf16
    cb_push_back(cb_scaler, 1);

    constexpr auto args = TensorAccessorArgs<0>();
    const auto in = TensorAccessor(args, in_addr, get_tile_size(cb_in));
    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(i, in, get_write_ptr(cb_in));
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
