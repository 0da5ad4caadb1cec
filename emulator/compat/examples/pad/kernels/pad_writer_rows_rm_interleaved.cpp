// BRISC: writes the n_rows padded rows of CB c_0 to pages start … start + n_rows - 1 of dst (one
// row per page). Runtime args: dst address, dst_row_bytes, start, n_rows. Compile-time args:
// dst's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t dst_addr = get_arg_val<uint32_t>(0);
    const uint32_t dst_row_bytes = get_arg_val<uint32_t>(1);
    const uint32_t start = get_arg_val<uint32_t>(2);
    const uint32_t n_rows = get_arg_val<uint32_t>(3);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, dst_row_bytes);

    for (uint32_t r = start; r < start + n_rows; ++r) {
        cb_wait_front(cb, 1);
        noc_async_write_page(r, dst, get_read_ptr(cb));
        noc_async_write_barrier();
        cb_pop_front(cb, 1);
    }
}
