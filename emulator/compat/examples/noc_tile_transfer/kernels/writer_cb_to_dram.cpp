// Core 1, BRISC: writes the tile in CB c_0 to page 0 of dst. Runtime args: dst address.
// Compile-time args: dst's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, get_tile_size(cb));

    cb_wait_front(cb, 1);
    noc_async_write_page(0, dst, get_read_ptr(cb));
    noc_async_write_barrier();
    cb_pop_front(cb, 1);
}
