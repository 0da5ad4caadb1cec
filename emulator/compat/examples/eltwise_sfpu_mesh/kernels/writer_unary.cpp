// BRISC: drains n_tiles tiles of CB c_16 into the dst buffer. Runtime args: dst address,
// n_tiles. Compile-time args: dst's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t dst_addr = get_arg_val<uint32_t>(0);
    uint32_t n_tiles = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, get_tile_size(cb_out));

    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_wait_front(cb_out, 1);
        noc_async_write_page(i, dst, get_read_ptr(cb_out));
        noc_async_write_barrier();  // the page must have left L1 before it is popped
        cb_pop_front(cb_out, 1);
    }
}
