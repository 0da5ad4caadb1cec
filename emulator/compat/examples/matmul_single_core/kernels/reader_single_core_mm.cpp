// NCRISC: for every output tile (mt, nt), in row-major order, streams the Kt pairs it needs:
// A(mt, kt) into CB c_0 and B(kt, nt) into CB c_1, kt = 0 … Kt-1. A and B are tilized, tile
// (r, c) of an R×C-tile matrix is page r·C + c. Runtime args: A address, B address, Mt, Kt, Nt.
// Compile-time args: A's and B's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Mt = get_arg_val<uint32_t>(2);
    const uint32_t Kt = get_arg_val<uint32_t>(3);
    const uint32_t Nt = get_arg_val<uint32_t>(4);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1;
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(cb_in0));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(cb_in1));

    for (uint32_t mt = 0; mt < Mt; ++mt)
        for (uint32_t nt = 0; nt < Nt; ++nt)
            for (uint32_t kt = 0; kt < Kt; ++kt) {
                cb_reserve_back(cb_in0, 1);
                noc_async_read_page(mt * Kt + kt, a, get_write_ptr(cb_in0));
                cb_reserve_back(cb_in1, 1);
                noc_async_read_page(kt * Nt + nt, b, get_write_ptr(cb_in1));
                noc_async_read_barrier();
                cb_push_back(cb_in0, 1);
                cb_push_back(cb_in1, 1);
            }
}
