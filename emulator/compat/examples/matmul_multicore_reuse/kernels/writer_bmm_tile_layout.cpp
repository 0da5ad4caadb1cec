// BRISC: writes this core's output block to C as the compute kernel produces it: subblock by
// subblock (row-major over the num_subblocks_h × num_subblocks_w subblocks), each
// subblock_h × subblock_w tiles, row-major. C is tilized, Nt tiles per row; the block starts at
// tile row row_start, tile column col_start. Runtime args: C address, Nt, row_start, col_start,
// subblock_h, subblock_w, num_subblocks_h, num_subblocks_w. Compile-time args: C's
// TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0);
    const uint32_t Nt = get_arg_val<uint32_t>(1);
    const uint32_t row_start = get_arg_val<uint32_t>(2);
    const uint32_t col_start = get_arg_val<uint32_t>(3);
    const uint32_t subblock_h = get_arg_val<uint32_t>(4);
    const uint32_t subblock_w = get_arg_val<uint32_t>(5);
    const uint32_t num_subblocks_h = get_arg_val<uint32_t>(6);
    const uint32_t num_subblocks_w = get_arg_val<uint32_t>(7);

    constexpr uint32_t cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_out);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, tile_bytes);
    const uint32_t subblock_tiles = subblock_h * subblock_w;

    for (uint32_t sb_h = 0; sb_h < num_subblocks_h; ++sb_h)
        for (uint32_t sb_w = 0; sb_w < num_subblocks_w; ++sb_w) {
            cb_wait_front(cb_out, subblock_tiles);
            uint32_t l1 = get_read_ptr(cb_out);
            for (uint32_t h = 0; h < subblock_h; ++h)
                for (uint32_t w = 0; w < subblock_w; ++w, l1 += tile_bytes) {
                    const uint32_t row = row_start + sb_h * subblock_h + h;
                    const uint32_t col = col_start + sb_w * subblock_w + w;
                    noc_async_write_page(row * Nt + col, c, l1);
                }
            noc_async_write_barrier();
            cb_pop_front(cb_out, subblock_tiles);
        }
}
