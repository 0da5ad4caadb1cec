// NCRISC: feeds this core's output block (per_core_M × per_core_N tiles at tile row row_start,
// tile column col_start of C) one K-block at a time: for each of the num_blocks blocks, the
// in0 block (per_core_M × in0_block_w tiles of A, row-major) into CB c_0 and the in1 block
// (in0_block_w × per_core_N tiles of B, row-major) into CB c_1. A is Mt×Kt tiles, B Kt×Nt, both
// tilized with tile (r, c) at page r·cols + c.
// Runtime args: A address, B address, Kt, Nt, row_start, col_start, per_core_M, per_core_N,
// in0_block_w, num_blocks. Compile-time args: A's and B's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0);
    const uint32_t b_addr = get_arg_val<uint32_t>(1);
    const uint32_t Kt = get_arg_val<uint32_t>(2);
    const uint32_t Nt = get_arg_val<uint32_t>(3);
    const uint32_t row_start = get_arg_val<uint32_t>(4);
    const uint32_t col_start = get_arg_val<uint32_t>(5);
    const uint32_t per_core_M = get_arg_val<uint32_t>(6);
    const uint32_t per_core_N = get_arg_val<uint32_t>(7);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(8);
    const uint32_t num_blocks = get_arg_val<uint32_t>(9);

    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1;
    const uint32_t in0_tile_bytes = get_tile_size(cb_in0), in1_tile_bytes = get_tile_size(cb_in1);
    constexpr auto a_args = TensorAccessorArgs<0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset()>();
    const auto a = TensorAccessor(a_args, a_addr, in0_tile_bytes);
    const auto b = TensorAccessor(b_args, b_addr, in1_tile_bytes);
    const uint32_t in0_block_tiles = per_core_M * in0_block_w, in1_block_tiles = in0_block_w * per_core_N;

    for (uint32_t block = 0; block < num_blocks; ++block) {
        const uint32_t k_start = block * in0_block_w;

        cb_reserve_back(cb_in0, in0_block_tiles);
        uint32_t l1 = get_write_ptr(cb_in0);
        for (uint32_t r = 0; r < per_core_M; ++r)
            for (uint32_t k = 0; k < in0_block_w; ++k, l1 += in0_tile_bytes)
                noc_async_read_page((row_start + r) * Kt + k_start + k, a, l1);

        cb_reserve_back(cb_in1, in1_block_tiles);
        l1 = get_write_ptr(cb_in1);
        for (uint32_t k = 0; k < in0_block_w; ++k)
            for (uint32_t c = 0; c < per_core_N; ++c, l1 += in1_tile_bytes)
                noc_async_read_page((k_start + k) * Nt + col_start + c, b, l1);

        noc_async_read_barrier();
        cb_push_back(cb_in0, in0_block_tiles);
        cb_push_back(cb_in1, in1_block_tiles);
    }
}
