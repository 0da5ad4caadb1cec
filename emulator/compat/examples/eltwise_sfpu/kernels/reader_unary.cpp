// NCRISC: streams n_tiles tiles of src into CB c_0, one at a time. Runtime args: src address,
// n_tiles. Compile-time args: src's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t n_tiles = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb_in0));

    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_reserve_back(cb_in0, 1);
        noc_async_read_page(i, src, get_write_ptr(cb_in0));
        noc_async_read_barrier();
        cb_push_back(cb_in0, 1);
    }
}
