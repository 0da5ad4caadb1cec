// NCRISC of the cores in grid columns 1 …: receives this row's in0 blocks from the row's sender
// (grid column 0, see reader_bmm_tile_layout_in0_sender.cpp). Per block: reserve room in CB c_0,
// mark our `receiver` semaphore INVALID (0), bump the sender's `sender` semaphore, wait until the
// sender has multicast the block and set our `receiver` semaphore to VALID (1), push the block.
// Runtime args: sender NoC x, sender NoC y, per_core_M, in0_block_w, num_blocks. Compile-time
// args: sender semaphore id, receiver semaphore id.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t sender_x = get_arg_val<uint32_t>(0);
    const uint32_t sender_y = get_arg_val<uint32_t>(1);
    const uint32_t per_core_M = get_arg_val<uint32_t>(2);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(3);
    const uint32_t num_blocks = get_arg_val<uint32_t>(4);
    constexpr uint32_t sender_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t receiver_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    const uint32_t block_tiles = per_core_M * in0_block_w;
    volatile uint32_t* receiver_sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(receiver_sem_id));
    const uint64_t sender_sem_noc = get_noc_addr(sender_x, sender_y, get_semaphore(sender_sem_id));

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_in0, block_tiles);
        noc_semaphore_set(receiver_sem, 0);
        noc_semaphore_inc(sender_sem_noc, 1);
        noc_semaphore_wait(receiver_sem, 1);
        cb_push_back(cb_in0, block_tiles);
    }
}
