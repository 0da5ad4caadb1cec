// NCRISC: streams n_tiles tiles of src into CB c_0. Runtime args: src address, n_tiles.
// Compile-time args: src's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t src_addr = get_arg_val<uint32_t>(0);
    uint32_t n_tiles = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_in = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    const auto src = TensorAccessor(src_args, src_addr, get_tile_size(cb_in));

    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_reserve_back(cb_in, 1);
        noc_async_read_page(i, src, get_write_ptr(cb_in));
        noc_async_read_barrier();  // the page must have landed before it is pushed
        cb_push_back(cb_in, 1);
    }
}
