// Compute: c = (a − b)² per tile, with CircularBuffer objects for the CB hand-over (in a compute
// kernel wait_front / pop_front act on UNPACK, reserve_back / push_back on PACK, as the free
// functions do). sub_tiles runs on the FPU, square_tile on the SFPU in DST; each is preceded by
// its own init, as the two configure different units.
// Runtime args: count.
#include "api/dataflow/circular_buffer.h"

void kernel_main() {
    uint32_t count = get_arg_val<uint32_t>(0);
    CircularBuffer cb_a(tt::CBIndex::c_0), cb_b(tt::CBIndex::c_1), cb_out(tt::CBIndex::c_16);
    binary_op_init_common(cb_a.get_cb_id(), cb_b.get_cb_id(), cb_out.get_cb_id());
    for (uint32_t i = 0; i < count; ++i) {
        cb_a.wait_front(1);
        cb_b.wait_front(1);
        tile_regs_acquire();
        sub_tiles_init(cb_a.get_cb_id(), cb_b.get_cb_id());
        sub_tiles(cb_a.get_cb_id(), cb_b.get_cb_id(), 0, 0, 0);
        square_tile_init();
        square_tile(0);
        tile_regs_commit();
        cb_a.pop_front(1);
        cb_b.pop_front(1);
        cb_out.reserve_back(1);
        tile_regs_wait();
        pack_tile(0, cb_out.get_cb_id());
        tile_regs_release();
        cb_out.push_back(1);
    }
}
