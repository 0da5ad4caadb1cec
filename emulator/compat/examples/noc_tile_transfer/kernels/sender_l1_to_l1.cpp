// Core 0, BRISC: sends the tile in this core's CB c_0 to the same CB of the receiving core over
// the NoC. Handshake: the receiver bumps our `ready` semaphore once it has reserved room in its
// CB; we write the tile, wait for the write to land, then bump its `done` semaphore.
// The receiver's CB c_0 sits at the same L1 address as ours (the host creates it with the same
// config on both cores) and both are at their first page, so our read pointer is its write
// pointer. Runtime args: receiver NoC x, receiver NoC y. Compile-time args: ready and done
// semaphore ids.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t receiver_x = get_arg_val<uint32_t>(0);
    const uint32_t receiver_y = get_arg_val<uint32_t>(1);
    constexpr uint32_t ready_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t done_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    volatile uint32_t* ready = reinterpret_cast<volatile uint32_t*>(get_semaphore(ready_sem_id));

    cb_wait_front(cb, 1);
    noc_semaphore_wait(ready, 1);  // the receiver has room for the tile
    noc_semaphore_set(ready, 0);

    const uint32_t l1_addr = get_read_ptr(cb);
    noc_async_write(l1_addr, get_noc_addr(receiver_x, receiver_y, l1_addr), get_tile_size(cb));
    noc_async_write_barrier();  // the tile is in the receiver's L1 before it is told so
    noc_semaphore_inc(get_noc_addr(receiver_x, receiver_y, get_semaphore(done_sem_id)), 1);
    noc_async_atomic_barrier();
    cb_pop_front(cb, 1);
}
