// NCRISC: builds this core's rows of the padded tensor in CB c_0, one row (one page of
// dst_row_bytes) at a time, for rows start … start + n_rows - 1. A row r < src_rows is src's row r
// followed by (dst_row_bytes - src_row_bytes) bytes of padding; a row r >= src_rows is all
// padding. The padding is read from pad_buf, one page holding a whole row of the pad value.
// Every NoC read lands at a 32-byte aligned L1 offset: the host keeps src_row_bytes a multiple of
// the DRAM alignment. Runtime args: src address, pad_buf address, src_rows, src_row_bytes,
// dst_row_bytes, start, n_rows. Compile-time args: src's and pad_buf's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0);
    const uint32_t pad_addr = get_arg_val<uint32_t>(1);
    const uint32_t src_rows = get_arg_val<uint32_t>(2);
    const uint32_t src_row_bytes = get_arg_val<uint32_t>(3);
    const uint32_t dst_row_bytes = get_arg_val<uint32_t>(4);
    const uint32_t start = get_arg_val<uint32_t>(5);
    const uint32_t n_rows = get_arg_val<uint32_t>(6);

    constexpr uint32_t cb = tt::CBIndex::c_0;
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto pad_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    const auto src = TensorAccessor(src_args, src_addr, src_row_bytes);
    const auto pad = TensorAccessor(pad_args, pad_addr, dst_row_bytes);

    for (uint32_t r = start; r < start + n_rows; ++r) {
        cb_reserve_back(cb, 1);
        const uint32_t l1 = get_write_ptr(cb);
        if (r < src_rows) {
            noc_async_read(get_noc_addr(r, src), l1, src_row_bytes);
            noc_async_read(get_noc_addr(0, pad), l1 + src_row_bytes, dst_row_bytes - src_row_bytes);
        } else {
            noc_async_read(get_noc_addr(0, pad), l1, dst_row_bytes);
        }
        noc_async_read_barrier();
        cb_push_back(cb, 1);
    }
}
