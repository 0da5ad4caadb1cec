// TRISC0-2: c_16 = exp(c_0), tile by tile, n_tiles (compile-time arg 0) tiles. UNPACK brings a
// tile of c_0 into DST (copy_tile), the SFPU applies exp in DST, PACK packs DST into c_16.
#include "api/compute/compute_kernel_api.h"
#include "api/compute/tile_move_copy.h"

void kernel_main() {
    constexpr uint32_t n_tiles = get_compile_time_arg_val(0);
    constexpr uint32_t cb_in = tt::CBIndex::c_0, cb_out = tt::CBIndex::c_16;

    init_sfpu(cb_in, cb_out);
    exp_tile_init();
    for (uint32_t i = 0; i < n_tiles; ++i) {
        cb_wait_front(cb_in, 1);
        tile_regs_acquire();
        copy_tile(cb_in, 0, 0);
        exp_tile(0);
        tile_regs_commit();
        cb_pop_front(cb_in, 1);

        cb_reserve_back(cb_out, 1);
        tile_regs_wait();
        pack_tile(0, cb_out);
        tile_regs_release();
        cb_push_back(cb_out, 1);
    }
}
