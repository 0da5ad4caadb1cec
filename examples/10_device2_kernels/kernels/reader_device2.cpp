// Reader (NCRISC) in the Device 2.0 object API: a Noc object moves data between NoC endpoints,
// here a TensorAccessor (DRAM pages, addressed as { .page_id, .offset_bytes }) and a
// CircularBuffer (addressed at its write pointer plus { .offset_bytes }). The CB calls are
// methods of the CircularBuffer object (tt-metal "Device 2.0 Data Movement API Migration Guide").
// Each tile is fetched as two half-tile transfers to show the byte offsets on both ends; a
// transfer must stay inside its page.
// Compile-time args: TensorAccessorArgs of a, then of b. Runtime args: a, b, start, count.
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"

void kernel_main() {
    uint32_t a_addr = get_arg_val<uint32_t>(0), b_addr = get_arg_val<uint32_t>(1);
    uint32_t start = get_arg_val<uint32_t>(2), count = get_arg_val<uint32_t>(3);
    Noc noc;
    CircularBuffer cb_a(tt::CBIndex::c_0), cb_b(tt::CBIndex::c_1);
    constexpr auto args_a = TensorAccessorArgs<0>();
    constexpr auto args_b = TensorAccessorArgs<args_a.next_compile_time_args_offset()>();
    const uint32_t tile_bytes = cb_a.get_tile_size(), half = tile_bytes / 2;
    const auto a = TensorAccessor(args_a, a_addr, tile_bytes);
    const auto b = TensorAccessor(args_b, b_addr, tile_bytes);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_a.reserve_back(1);
        cb_b.reserve_back(1);
        for (uint32_t h = 0; h < 2; ++h) {
            noc.async_read(a, cb_a, half, {.page_id = t, .offset_bytes = h * half}, {.offset_bytes = h * half});
            noc.async_read(b, cb_b, half, {.page_id = t, .offset_bytes = h * half}, {.offset_bytes = h * half});
        }
        noc.async_read_barrier();  // the bytes must have landed before compute sees the pages
        cb_a.push_back(1);
        cb_b.push_back(1);
    }
}
