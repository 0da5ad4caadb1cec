// Reader for C = A·B in tiles: for every output tile t in start .. start+count-1
// (row mt = t / Nt, column nt = t % Nt) it streams the Kt tile pairs A[mt][kt] → cb 0 and
// B[kt][nt] → cb 1. Tiles are bf16 in face order; A is Mt x Kt tiles, B is Kt x Nt tiles.
// Compile-time args: TensorAccessorArgs of A, then of B.
// Runtime args: A, B, Kt, Nt, start, count.
void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0), b_addr = get_arg_val<uint32_t>(1);
    uint32_t Kt = get_arg_val<uint32_t>(2), Nt = get_arg_val<uint32_t>(3);
    uint32_t start = get_arg_val<uint32_t>(4), count = get_arg_val<uint32_t>(5);
    constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1;
    constexpr auto args_a = TensorAccessorArgs<0>();
    constexpr auto args_b = TensorAccessorArgs<args_a.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(args_a, a_addr, get_tile_size(cb_a));
    const auto b = TensorAccessor(args_b, b_addr, get_tile_size(cb_b));
    for (uint32_t t = start; t < start + count; ++t) {
        uint32_t mt = t / Nt, nt = t % Nt;
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            cb_reserve_back(cb_a, 1);
            cb_reserve_back(cb_b, 1);
            noc_async_read_page(mt * Kt + kt, a, get_write_ptr(cb_a));
            noc_async_read_page(kt * Nt + nt, b, get_write_ptr(cb_b));
            noc_async_read_barrier();
            cb_push_back(cb_a, 1);
            cb_push_back(cb_b, 1);
        }
    }
}
