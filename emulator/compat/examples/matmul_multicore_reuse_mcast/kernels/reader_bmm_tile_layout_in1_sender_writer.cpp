// BRISC of the cores in grid row 0: the in1 side of reader_bmm_tile_layout_in0_sender.cpp (same
// handshake) down this core's grid column — for each K-block, reads the column's in1 block
// (in0_block_w × per_core_N tiles of B, row-major) into CB c_1 and multicasts it to the other
// cores of the column — then writes this core's output block from CB c_16 to C, subblock by
// subblock as the compute kernel packs it.
// Runtime args: B address, Nt, col_start, per_core_N, in0_block_w, num_blocks, mcast rectangle
// NoC start x, y, end x, y, num_receivers, then the writer's: C address, row_start,
// out_subblock_h, out_subblock_w, num_subblocks_h, num_subblocks_w. Compile-time args: sender
// semaphore id, receiver semaphore id, B's TensorAccessorArgs, C's TensorAccessorArgs.
#include "api/dataflow/dataflow_api.h"

void kernel_main() {
    const uint32_t b_addr = get_arg_val<uint32_t>(0);
    const uint32_t Nt = get_arg_val<uint32_t>(1);
    const uint32_t col_start = get_arg_val<uint32_t>(2);
    const uint32_t per_core_N = get_arg_val<uint32_t>(3);
    const uint32_t in0_block_w = get_arg_val<uint32_t>(4);
    const uint32_t num_blocks = get_arg_val<uint32_t>(5);
    const uint32_t mcast_start_x = get_arg_val<uint32_t>(6);
    const uint32_t mcast_start_y = get_arg_val<uint32_t>(7);
    const uint32_t mcast_end_x = get_arg_val<uint32_t>(8);
    const uint32_t mcast_end_y = get_arg_val<uint32_t>(9);
    const uint32_t num_receivers = get_arg_val<uint32_t>(10);
    const uint32_t c_addr = get_arg_val<uint32_t>(11);
    const uint32_t row_start = get_arg_val<uint32_t>(12);
    const uint32_t subblock_h = get_arg_val<uint32_t>(13);
    const uint32_t subblock_w = get_arg_val<uint32_t>(14);
    const uint32_t num_subblocks_h = get_arg_val<uint32_t>(15);
    const uint32_t num_subblocks_w = get_arg_val<uint32_t>(16);
    constexpr uint32_t sender_sem_id = get_compile_time_arg_val(0);
    constexpr uint32_t receiver_sem_id = get_compile_time_arg_val(1);

    constexpr uint32_t cb_in1 = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    const uint32_t tile_bytes = get_tile_size(cb_in1), out_tile_bytes = get_tile_size(cb_out);
    constexpr auto b_args = TensorAccessorArgs<2>();
    constexpr auto c_args = TensorAccessorArgs<b_args.next_compile_time_args_offset()>();
    const auto b = TensorAccessor(b_args, b_addr, tile_bytes);
    const auto c = TensorAccessor(c_args, c_addr, out_tile_bytes);
    const uint32_t block_tiles = in0_block_w * per_core_N;

    volatile uint32_t* sender_sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(sender_sem_id));
    const uint32_t receiver_sem_addr = get_semaphore(receiver_sem_id);
    noc_semaphore_set(reinterpret_cast<volatile uint32_t*>(receiver_sem_addr), 1);  // the VALID we send
    const uint64_t receiver_sem_mcast =
        get_noc_multicast_addr(mcast_start_x, mcast_start_y, mcast_end_x, mcast_end_y, receiver_sem_addr);

    for (uint32_t block = 0; block < num_blocks; ++block) {
        cb_reserve_back(cb_in1, block_tiles);
        const uint32_t l1_start = get_write_ptr(cb_in1);
        uint32_t l1 = l1_start;
        for (uint32_t k = 0; k < in0_block_w; ++k)
            for (uint32_t n = 0; n < per_core_N; ++n, l1 += tile_bytes)
                noc_async_read_page((block * in0_block_w + k) * Nt + col_start + n, b, l1);
        noc_async_read_barrier();

        if (num_receivers > 0) {
            noc_semaphore_wait(sender_sem, num_receivers);
            noc_semaphore_set(sender_sem, 0);
            const uint64_t data_mcast =
                get_noc_multicast_addr(mcast_start_x, mcast_start_y, mcast_end_x, mcast_end_y, l1_start);
            noc_async_write_multicast(l1_start, data_mcast, block_tiles * tile_bytes, num_receivers);
            noc_async_write_barrier();
            noc_semaphore_set_multicast(receiver_sem_addr, receiver_sem_mcast, num_receivers);
            noc_async_write_barrier();
        }
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
