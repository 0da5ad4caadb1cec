// Core 1, NCRISC: reserves one page of CB c_0, tells the sender (bumps its `ready` semaphore),
// waits on the local `done` semaphore until the sender's tile has landed, then pushes the page for
// the writer. Runtime args: sender NoC x, sender NoC y. Compile-time args: ready and done
// semaphore ids.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t sender_x = get_arg_val<uint32_t>(0);
    const uint32_t sender_y = get_arg_val<uint32_t>(1);
    constexpr uint32_t ready_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t done_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    volatile uint32_t* done = reinterpret_cast<volatile uint32_t*>(get_semaphore(done_sem_id));

    cb_reserve_back(cb, 1);
    noc_semaphore_inc(get_noc_addr(sender_x, sender_y, get_semaphore(ready_sem_id)), 1);
    noc_semaphore_wait(done, 1);
    noc_semaphore_set(done, 0);
    cb_push_back(cb, 1);
}
