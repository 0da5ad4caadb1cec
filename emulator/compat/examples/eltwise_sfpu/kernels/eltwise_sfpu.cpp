// TRISC0-2: c_16 = exp(c_0), tile by tile, n_tiles (compile-time arg 0) tiles: the unpacker
// copies each input tile into DST 0 (copy_tile), the SFPU applies exp in DST, the packer packs it.
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t n_tiles = get_compile_time_arg_val(0);
    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_out0 = tt::CBIndex::c_16;

    init_sfpu(cb_in0, cb_out0);
    copy_tile_init(cb_in0);
    exp_tile_init();
    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_wait_front(cb_in0, 1);
        tile_regs_acquire();
        copy_tile(cb_in0, 0, 0);
        exp_tile(0);
        tile_regs_commit();
        cb_pop_front(cb_in0, 1);

        cb_reserve_back(cb_out0, 1);
        tile_regs_wait();
        pack_tile(0, cb_out0);
        tile_regs_release();
        cb_push_back(cb_out0, 1);
    }
}
