// Runs on BRISC of one core. Reads one integer from each of two DRAM buffers into L1, adds them
// and writes the sum to a third DRAM buffer.
//
// Runtime args: a address, b address, sum address (DRAM buffers of one 32 B page each).
void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0);
    uint32_t b_addr = get_arg_val<uint32_t>(1);
    uint32_t sum_addr = get_arg_val<uint32_t>(2);

    // L1 scratch: the pages of two circular buffers we use as plain memory (no push/pop).
    uint32_t l1_a = get_write_ptr(tt::CBIndex::c_0);
    uint32_t l1_b = get_write_ptr(tt::CBIndex::c_1);

    // Page 0 of an interleaved buffer lives in DRAM bank 0. The NoC moves whole, aligned
    // chunks: source and destination must agree modulo the DRAM alignment (32 B on Wormhole).
    InterleavedAddrGen<true> a{a_addr, 32}, b{b_addr, 32}, sum{sum_addr, 32};
    noc_async_read(get_noc_addr(0, a), l1_a, 32);
    noc_async_read(get_noc_addr(0, b), l1_b, 32);
    // Reads are asynchronous: the data is only guaranteed in L1 after the barrier.
    noc_async_read_barrier();

    volatile uint32_t* pa = reinterpret_cast<volatile uint32_t*>(l1_a);
    volatile uint32_t* pb = reinterpret_cast<volatile uint32_t*>(l1_b);
    pa[0] = pa[0] + pb[0];
    DPRINT << "sum " << pa[0] << ENDL();

    noc_async_write(l1_a, get_noc_addr(0, sum), 32);
    // A kernel must not end with writes in flight.
    noc_async_write_barrier();
}
