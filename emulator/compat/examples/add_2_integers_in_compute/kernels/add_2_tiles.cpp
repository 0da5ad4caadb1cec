// TRISC0-2: one tile c_16 = c_0 + c_1 on the FPU (add_tiles into DST 0, packed to c_16).
#include "api/compute/eltwise_binary.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1, cb_out0 = tt::CBIndex::c_16;

    binary_op_init_common(cb_in0, cb_in1, cb_out0);
    add_tiles_init(cb_in0, cb_in1);

    cb_wait_front(cb_in0, 1);
    cb_wait_front(cb_in1, 1);
    tile_regs_acquire();
    add_tiles(cb_in0, cb_in1, 0, 0, 0);
    tile_regs_commit();
    cb_pop_front(cb_in0, 1);
    cb_pop_front(cb_in1, 1);

    cb_reserve_back(cb_out0, 1);
    tile_regs_wait();
    pack_tile(0, cb_out0);
    tile_regs_release();
    cb_push_back(cb_out0, 1);
}
