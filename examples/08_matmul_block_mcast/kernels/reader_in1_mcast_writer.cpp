// in1 (B) mover and output writer, BRISC, on every core of the grid. Core (x, 0) is the sender
// of grid column x: it reads its column band of B (per_core_N tile columns) one K block at a time
// and multicasts it to cores (x, 1) … (x, gy−1), with the handshake of reader_in0_mcast.cpp.
// Block b holds tiles B[b·w + kk][n0 + n] at page kk·per_core_N + n of the block.
// Afterwards it writes this core's per_core_M x per_core_N output tiles from cb 16, which the
// compute kernel packs subblock by subblock (sbh x sbw tiles, row-major inside the subblock).
//
// Compile-time args: TensorAccessorArgs of B, then of C.
// Runtime args: B, Kt, w, per_core_N, n0 (first tile column of the band), is_sender, sender NoC
//   x, y, receivers' NoC rectangle x0, y0, x1, y1, number of receivers, ready semaphore id, valid
//   semaphore id, C, Nt, per_core_M, m0, sbh, sbw.
void kernel_main() {
    uint32_t b_addr = get_arg_val<uint32_t>(0), Kt = get_arg_val<uint32_t>(1), w = get_arg_val<uint32_t>(2);
    uint32_t pcN = get_arg_val<uint32_t>(3), n0 = get_arg_val<uint32_t>(4), is_sender = get_arg_val<uint32_t>(5);
    uint32_t sender_x = get_arg_val<uint32_t>(6), sender_y = get_arg_val<uint32_t>(7);
    uint32_t rx0 = get_arg_val<uint32_t>(8), ry0 = get_arg_val<uint32_t>(9);
    uint32_t rx1 = get_arg_val<uint32_t>(10), ry1 = get_arg_val<uint32_t>(11);
    uint32_t n_receivers = get_arg_val<uint32_t>(12);
    uint32_t ready_addr = get_semaphore(get_arg_val<uint32_t>(13));
    uint32_t valid_addr = get_semaphore(get_arg_val<uint32_t>(14));
    uint32_t c_addr = get_arg_val<uint32_t>(15), Nt = get_arg_val<uint32_t>(16);
    uint32_t pcM = get_arg_val<uint32_t>(17), m0 = get_arg_val<uint32_t>(18);
    uint32_t sbh = get_arg_val<uint32_t>(19), sbw = get_arg_val<uint32_t>(20);
    constexpr uint32_t cb_in1 = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    constexpr auto args_b = TensorAccessorArgs<0>();
    constexpr auto args_c = TensorAccessorArgs<args_b.next_compile_time_args_offset()>();
    const uint32_t tile_bytes = get_tile_size(cb_in1), block_tiles = w * pcN;
    const auto bmat = TensorAccessor(args_b, b_addr, tile_bytes);
    const auto cmat = TensorAccessor(args_c, c_addr, get_tile_size(cb_out));
    volatile uint32_t* ready = reinterpret_cast<volatile uint32_t*>(ready_addr);
    volatile uint32_t* valid = reinterpret_cast<volatile uint32_t*>(valid_addr);

    for (uint32_t b = 0; b < Kt / w; ++b) {
        cb_reserve_back(cb_in1, block_tiles);
        uint32_t l1 = get_write_ptr(cb_in1);
        if (is_sender) {
            for (uint32_t kk = 0; kk < w; ++kk)
                for (uint32_t n = 0; n < pcN; ++n)
                    noc_async_read_page((b * w + kk) * Nt + n0 + n, bmat, l1 + (kk * pcN + n) * tile_bytes);
            noc_async_read_barrier();
            if (n_receivers) {
                noc_semaphore_wait(ready, n_receivers);
                noc_semaphore_set(ready, 0);
                uint64_t dst = get_noc_multicast_addr(rx0, ry0, rx1, ry1, l1);
                noc_async_write_multicast(l1, dst, block_tiles * tile_bytes, n_receivers, true);
                noc_async_write_barrier();
                noc_semaphore_set(valid, VALID);
                noc_semaphore_set_multicast(valid_addr, get_noc_multicast_addr(rx0, ry0, rx1, ry1, valid_addr),
                                            n_receivers);
                noc_async_write_barrier();
            }
        } else {
            noc_semaphore_set(valid, INVALID);
            noc_semaphore_inc(get_noc_addr(sender_x, sender_y, ready_addr), 1);
            noc_semaphore_wait(valid, VALID);
        }
        cb_push_back(cb_in1, block_tiles);
    }

    // Output: subblock (sh, sw) covers tile rows m0 + sh·sbh … and columns n0 + sw·sbw … .
    for (uint32_t sh = 0; sh < pcM / sbh; ++sh)
        for (uint32_t sw = 0; sw < pcN / sbw; ++sw) {
            cb_wait_front(cb_out, sbh * sbw);
            uint32_t l1 = get_read_ptr(cb_out);
            for (uint32_t r = 0; r < sbh; ++r)
                for (uint32_t c = 0; c < sbw; ++c) {
                    uint32_t tile = (m0 + sh * sbh + r) * Nt + n0 + sw * sbw + c;
                    noc_async_write_page(tile, cmat, l1 + (r * sbw + c) * tile_bytes);
                }
            noc_async_write_barrier();
            cb_pop_front(cb_out, sbh * sbw);
        }
}
