// BRISC of the cores in grid rows 1 …: receives this column's in1 blocks into CB c_1 from the
// column's sender (grid row 0), with the handshake of reader_bmm_tile_layout_in0_receiver.cpp,
// then writes this core's output block from CB c_16 to C as
// reader_bmm_tile_layout_in1_sender_writer.cpp does.
// Runtime args: sender NoC x, sender NoC y, Nt, col_start, per_core_N, in0_block_w, num_blocks,
// C address, row_start, out_subblock_h, out_subblock_w, num_subblocks_h, num_subblocks_w.
// Compile-time args: sender semaphore id, receiver semaphore id, C's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t sender_x = get_arg_val<uint32_t>(0);
    const uint32_t sender_y = get_arg_val<uint32_t>(1);
    const uint32_t Nt = get_arg_val<uint32_t>(2);
    const uint32_t col_start = get_arg_val<uint32_t>(3);
    const uint32_t per_core_N = get_arg_val<uint32_t>(4);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(5);
    const uint32_t num_blocks = get_arg_val<uint32_t>(6);
    const uint32_t c_addr = get_arg_val<uint32_t>(7);
    const uint32_t row_start = get_arg_val<uint32_t>(8);
    const uint32_t subblock_h = get_arg_val<uint32_t>(9);
    const uint32_t subblock_w = get_arg_val<uint32_t>(10);
    const uint32_t num_subblocks_h = get_arg_val<uint32_t>(11);
    const uint32_t num_subblocks_w = get_arg_val<uint32_t>(12);
    constexpr uint32_t sender_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t receiver_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb_in1 = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    const uint32_t out_tile_bytes = get_tile_size(cb_out);
    constexpr auto c_args = TensorAccessorArgs<2>();
    const auto c = TensorAccessor(c_args, c_addr, out_tile_bytes);
    const uint32_t block_tiles = in0_block_w * per_core_N;

    volatile uint32_t* receiver_sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(receiver_sem_id));
    const uint64_t sender_sem_noc = get_noc_addr(sender_x, sender_y, get_semaphore(sender_sem_id));
    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_in1, block_tiles);
        noc_semaphore_set(receiver_sem, 0);
        noc_semaphore_inc(sender_sem_noc, 1);
        noc_semaphore_wait(receiver_sem, 1);
        cb_push_back(cb_in1, block_tiles);
    }

    const uint32_t subblock_tiles = subblock_h * subblock_w;
    for (uint32_t sb_h = 0; sb_h < num_subblocks_h; ++sb_h)
        for (uint32_t sb_w = 0; sb_w < num_subblocks_w; ++sb_w) {
            cb_wait_front(cb_out, subblock_tiles);
            uint32_t l1 = get_read_ptr(cb_out);
            for (uint32_t h = 0; h < subblock_h; ++h)
                for (uint32_t w = 0; w < subblock_w; ++w, l1 += out_tile_bytes)
                    noc_async_write_page((row_start + sb_h * subblock_h + h) * Nt + col_start + sb_w * subblock_w + w,
                                         c, l1);
            noc_async_write_barrier();
            cb_pop_front(cb_out, subblock_tiles);
        }
}
