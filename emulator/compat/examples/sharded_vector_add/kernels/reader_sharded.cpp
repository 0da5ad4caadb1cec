// NCRISC: the inputs already sit in this core's shards of a and b, under CBs c_0 and c_1 placed
// on those buffers (set_globally_allocated_address): hand all n_tiles (compile-time arg 0) to the
// compute kernel at once, as tt-metal's sharded kernels do.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    constexpr uint32_t n_tiles = get_compile_time_arg_val(0);
    cb_reserve_back(tt::CBIndex::c_0, n_tiles);
    cb_push_back(tt::CBIndex::c_0, n_tiles);
    cb_reserve_back(tt::CBIndex::c_1, n_tiles);
    cb_push_back(tt::CBIndex::c_1, n_tiles);
}
