// BRISC of core (0,0): reads one integer from each of two DRAM buffers into L1, adds them on
// the RISC-V itself, writes the sum to a third DRAM buffer.
//
// Runtime args: src0 address, src1 address, dst address. Compile-time args: the three buffers'
// TensorAccessorArgs. L1 scratch: the single page of CBs c_0 and c_1 (used as plain memory).
#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    uint32_t src0_addr = get_arg_val<uint32_t>(0);
    uint32_t src1_addr = get_arg_val<uint32_t>(1);
    uint32_t dst_addr = get_arg_val<uint32_t>(2);

    constexpr auto src0_args = TensorAccessorArgs<0>();
    constexpr auto src1_args = TensorAccessorArgs<src0_args.next_compile_time_args_offset()>();
    constexpr auto dst_args = TensorAccessorArgs<src1_args.next_compile_time_args_offset()>();
    const auto src0 = TensorAccessor(src0_args, src0_addr, sizeof(uint32_t));
    const auto src1 = TensorAccessor(src1_args, src1_addr, sizeof(uint32_t));
    const auto dst = TensorAccessor(dst_args, dst_addr, sizeof(uint32_t));

    uint32_t l1_a = get_write_ptr(tt::CBIndex::c_0);
    uint32_t l1_b = get_write_ptr(tt::CBIndex::c_1);
    noc_async_read_page(0, src0, l1_a);
    noc_async_read_page(0, src1, l1_b);
    noc_async_read_barrier();  // the data is in L1 only after the barrier

    volatile uint32_t* a = reinterpret_cast<volatile uint32_t*>(l1_a);
    volatile uint32_t* b = reinterpret_cast<volatile uint32_t*>(l1_b);
    DPRINT << "Adding integers: " << a[0] << " + " << b[0] << ENDL();
    a[0] = a[0] + b[0];

    noc_async_write_page(0, dst, l1_a);
    noc_async_write_barrier();  // a kernel must not end with writes in flight
}
