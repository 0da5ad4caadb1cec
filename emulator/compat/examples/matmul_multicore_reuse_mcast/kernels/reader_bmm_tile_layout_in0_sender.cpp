// NCRISC of the cores in grid column 0: for each of the num_blocks K-blocks, reads this row's in0
// block (per_core_M × in0_block_w tiles of A, row-major) from DRAM into CB c_0 and multicasts it
// to the same CB address on the other cores of the row (CB write pointers advance in lockstep on
// every core: same CBs, same block sizes). Handshake per block, with the semaphores `sender`
// and `receiver` (ids are compile-time args): wait until all num_receivers receivers have bumped
// our `sender` semaphore (each has reserved room for the block), reset it, multicast the block,
// then multicast our `receiver` semaphore word, which holds 1 (VALID), onto theirs.
// Runtime args: A address, Kt, row_start, per_core_M, in0_block_w, num_blocks, mcast rectangle
// NoC start x, y, end x, y, num_receivers. Compile-time args: sender semaphore id, receiver
// semaphore id, A's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t Kt = get_arg_val<uint32_t>(1);
    const uint32_t row_start = get_arg_val<uint32_t>(2);
    const uint32_t per_core_M = get_arg_val<uint32_t>(3);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(4);
    const uint32_t num_blocks = get_arg_val<uint32_t>(5);
    const uint32_t mcast_start_x = get_arg_val<uint32_t>(6);
    const uint32_t mcast_start_y = get_arg_val<uint32_t>(7);
    const uint32_t mcast_end_x = get_arg_val<uint32_t>(8);
    const uint32_t mcast_end_y = get_arg_val<uint32_t>(9);
    const uint32_t num_receivers = get_arg_val<uint32_t>(10);
    constexpr uint32_t sender_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t receiver_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    const uint32_t tile_bytes = get_tile_size(cb_in0);
    constexpr auto a_args = TensorAccessorArgs<2>();
    const auto a = TensorAccessor(a_args, a_addr, tile_bytes);
    const uint32_t block_tiles = per_core_M * in0_block_w;

    volatile uint32_t* sender_sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(sender_sem_id));
    const uint32_t receiver_sem_addr = get_semaphore(receiver_sem_id);
    noc_semaphore_set(reinterpret_cast<volatile uint32_t*>(receiver_sem_addr), 1);  // the VALID we send
    const uint64_t receiver_sem_mcast =
        get_noc_multicast_addr(mcast_start_x, mcast_start_y, mcast_end_x, mcast_end_y, receiver_sem_addr);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_in0, block_tiles);
        const uint32_t l1_start = get_write_ptr(cb_in0);
        uint32_t l1 = l1_start;
        for (uint32_t r = 0; r < per_core_M; ++r)
            for (uint32_t k = 0; k < in0_block_w; ++k, l1 += tile_bytes)
                noc_async_read_page((row_start + r) * Kt + block * in0_block_w + k, a, l1);
        noc_async_read_barrier();

        if (num_receivers > 0) {
            noc_semaphore_wait(sender_sem, num_receivers);
            noc_semaphore_set(sender_sem, 0);
            const uint64_t data_mcast =
                get_noc_multicast_addr(mcast_start_x, mcast_start_y, mcast_end_x, mcast_end_y, l1_start);
            noc_async_write_multicast(l1_start, data_mcast, block_tiles * tile_bytes, num_receivers);
            noc_async_write_barrier();  // the block has landed everywhere before it is flagged VALID
            noc_semaphore_set_multicast(receiver_sem_addr, receiver_sem_mcast, num_receivers);
            noc_async_write_barrier();
        }
        cb_push_back(cb_in0, block_tiles);
    }
}
