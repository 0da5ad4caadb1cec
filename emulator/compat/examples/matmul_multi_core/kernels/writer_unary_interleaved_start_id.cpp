// BRISC: writes the n_tiles tiles of CB c_16, in order, to pages start … start + n_tiles - 1 of
// C. Runtime args: C address, start, n_tiles. Compile-time args: C's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t start = get_arg_val<uint32_t>(1);
    const uint32_t n_tiles = get_arg_val<uint32_t>(2);

    constexpr uint32_t cb_out0 = tt::CBIndex::c_16;
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(cb_out0));

    for (uint32_t i = start; i < start + n_tiles; ++i) {
        cb_wait_front(cb_out0, 1);
        noc_async_write_page(i, c, get_read_ptr(cb_out0));
        noc_async_write_barrier();
        cb_pop_front(cb_out0, 1);
    }
}
