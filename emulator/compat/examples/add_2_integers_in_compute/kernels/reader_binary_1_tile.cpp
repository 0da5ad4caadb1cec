// NCRISC: reads one tile of src0 into CB c_0 and one of src1 into CB c_1. Runtime args: src0
// address, src1 address. Compile-time args: both buffers' TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t src0_addr = get_arg_val<uint32_t>(0);
    const uint32_t src1_addr = get_arg_val<uint32_t>(1);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1;
    constexpr auto src0_args = TensorAccessorArgs<0>();
    constexpr auto src1_args = TensorAccessorArgs<src0_args.next_compile_time_args_offset()>();
    const auto src0 = TensorAccessor(src0_args, src0_addr, get_tile_size(cb_in0));
    const auto src1 = TensorAccessor(src1_args, src1_addr, get_tile_size(cb_in1));

    cb_reserve_back(cb_in0, 1);
    noc_async_read_page(0, src0, get_write_ptr(cb_in0));
    noc_async_read_barrier();
    cb_push_back(cb_in0, 1);

    cb_reserve_back(cb_in1, 1);
    noc_async_read_page(0, src1, get_write_ptr(cb_in1));
    noc_async_read_barrier();
    cb_push_back(cb_in1, 1);
}
