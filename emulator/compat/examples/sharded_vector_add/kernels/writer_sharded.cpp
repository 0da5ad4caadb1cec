// BRISC: the compute kernel packs its results straight into this core's shard of c (CB c_16 is
// placed on that buffer); wait until all n_tiles (compile-time arg 0) are there and release them.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t n_tiles = get_compile_time_arg_val(0);
    cb_wait_front(tt::CBIndex::c_16, n_tiles);
    cb_pop_front(tt::CBIndex::c_16, n_tiles);
}
