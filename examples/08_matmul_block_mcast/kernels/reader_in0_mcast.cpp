// in0 (A) mover, NCRISC, on every core of the grid. Core (0, y) is the sender of grid row y: it
// reads its row band of A (per_core_M tile rows) from DRAM one K block at a time and multicasts
// each block to cores (1, y) … (gx−1, y); the other cores of the row receive. So each A tile is
// read from DRAM once per grid row instead of once per core (tt-metal's
// matmul_multicore_reuse_mcast programming example does the same).
//
// Handshake per block, with two semaphores per core (tt-metal's sender/receiver protocol):
//   receiver: cb_reserve_back (room for the block), valid := INVALID, ready[sender] += 1, wait
//             until valid == VALID, cb_push_back;
//   sender:   read the block into its own CB, wait until ready == number of receivers, ready := 0,
//             multicast the block to the same CB address on the receivers (CBs sit at the same
//             L1 offset on every core), then multicast valid := VALID, cb_push_back.
// Block b holds tiles A[m][b·w + kk] (m < per_core_M, kk < w) at page m·w + kk of the block.
//
// Compile-time args: TensorAccessorArgs of A.
// Runtime args: A, Kt, w (K tiles per block), per_core_M, m0 (first tile row of the band),
//   is_sender, sender NoC x, y, receivers' NoC rectangle x0, y0, x1, y1, number of receivers,
//   ready semaphore id, valid semaphore id.
void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0), Kt = get_arg_val<uint32_t>(1), w = get_arg_val<uint32_t>(2);
    uint32_t pcM = get_arg_val<uint32_t>(3), m0 = get_arg_val<uint32_t>(4), is_sender = get_arg_val<uint32_t>(5);
    uint32_t sender_x = get_arg_val<uint32_t>(6), sender_y = get_arg_val<uint32_t>(7);
    uint32_t rx0 = get_arg_val<uint32_t>(8), ry0 = get_arg_val<uint32_t>(9);
    uint32_t rx1 = get_arg_val<uint32_t>(10), ry1 = get_arg_val<uint32_t>(11);
    uint32_t n_receivers = get_arg_val<uint32_t>(12);
    uint32_t ready_addr = get_semaphore(get_arg_val<uint32_t>(13));
    uint32_t valid_addr = get_semaphore(get_arg_val<uint32_t>(14));
    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    constexpr auto args = TensorAccessorArgs<0>();
    const uint32_t tile_bytes = get_tile_size(cb_in0), block_tiles = pcM * w;
    const auto a = TensorAccessor(args, a_addr, tile_bytes);
    volatile uint32_t* ready = reinterpret_cast<volatile uint32_t*>(ready_addr);
    volatile uint32_t* valid = reinterpret_cast<volatile uint32_t*>(valid_addr);

    for (uint32_t b = 0; b < Kt / w; ++b) {
        cb_reserve_back(cb_in0, block_tiles);
        uint32_t l1 = get_write_ptr(cb_in0);
        if (is_sender) {
            for (uint32_t m = 0; m < pcM; ++m)
                for (uint32_t kk = 0; kk < w; ++kk)
                    noc_async_read_page((m0 + m) * Kt + b * w + kk, a, l1 + (m * w + kk) * tile_bytes);
            noc_async_read_barrier();
            if (n_receivers) {
                noc_semaphore_wait(ready, n_receivers);  // every receiver has room for the block
                noc_semaphore_set(ready, 0);
                uint64_t dst = get_noc_multicast_addr(rx0, ry0, rx1, ry1, l1);
                noc_async_write_multicast(l1, dst, block_tiles * tile_bytes, n_receivers, true);
                // The flag goes out only after the data has landed everywhere.
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
        cb_push_back(cb_in0, block_tiles);
    }
}
