// BRISC: writes the one tile of CB c_16 to the dst buffer. Runtime args: dst address.
// Compile-time args: dst's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb_out0 = tt::CBIndex::c_16;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, get_tile_size(cb_out0));

    cb_wait_front(cb_out0, 1);
    noc_async_write_page(0, dst, get_read_ptr(cb_out0));
    noc_async_write_barrier();
    cb_pop_front(cb_out0, 1);
}
