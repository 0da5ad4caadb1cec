// BRISC: copies n_tiles pages from the src DRAM buffer to the dst DRAM buffer through an L1
// buffer of one page. Runtime args: L1 buffer address, src address, dst address, n_tiles.
// Compile-time args: src's and dst's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    uint32_t l1_buffer_addr = get_arg_val<uint32_t>(0);
    uint32_t src_addr = get_arg_val<uint32_t>(1);
    uint32_t dst_addr = get_arg_val<uint32_t>(2);
    uint32_t n_tiles = get_arg_val<uint32_t>(3);

    constexpr uint32_t page_bytes = 2 * 1024;
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, src_addr, page_bytes);
    const auto dst = TensorAccessor(dst_args, dst_addr, page_bytes);

    for (uint32_t i = 0; i < n_tiles; ++i) {
        noc_async_read_page(i, src, l1_buffer_addr);
        noc_async_read_barrier();  // DRAM → L1 done
        noc_async_write_page(i, dst, l1_buffer_addr);
        noc_async_write_barrier();  // L1 → DRAM done before the next read overwrites L1
    }
}
