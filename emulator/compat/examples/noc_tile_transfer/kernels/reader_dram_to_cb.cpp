// Core 0, NCRISC: reads tile 0 of src from DRAM into this core's CB c_0. Runtime args: src
// address. Compile-time args: src's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb));

    cb_reserve_back(cb, 1);
    noc_async_read_page(0, src, get_write_ptr(cb));
    noc_async_read_barrier();
    cb_push_back(cb, 1);
}
