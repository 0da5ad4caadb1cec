// TRISC0-2: n_tiles output tiles, each the sum of Kt matmul_tiles of the pairs the reader streams
// (c_0, c_1), accumulated in DST 0 and packed to c_16. Compile-time args: n_tiles, Kt (the host
// creates one compute kernel per core group of split_work_to_cores, each with its tile count).
#include "api/compute/matmul.h"

void kernel_main() {
    constexpr uint32_t n_tiles = get_compile_time_arg_val(0);
    constexpr uint32_t Kt = get_compile_time_arg_val(1);
    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1, cb_out0 = tt::CBIndex::c_16;

    mm_init(cb_in0, cb_in1, cb_out0);
    for (uint32_t t = 0; t < n_tiles; ++t) {
        tile_regs_acquire();
        for (uint32_t kt = 0; kt < Kt; ++kt) {
            cb_wait_front(cb_in0, 1);
            cb_wait_front(cb_in1, 1);
            matmul_tiles(cb_in0, cb_in1, 0, 0, 0);
            cb_pop_front(cb_in0, 1);
            cb_pop_front(cb_in1, 1);
        }
        tile_regs_commit();

        cb_reserve_back(cb_out0, 1);
        tile_regs_wait();
        pack_tile(0, cb_out0);
        tile_regs_release();
        cb_push_back(cb_out0, 1);
    }
}
