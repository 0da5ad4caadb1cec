// Writer (BRISC) in the Device 2.0 object API: the front page of cb 16 (its read pointer, picked
// with use<READ_PTR>) goes to page t of the output TensorAccessor.
// Compile-time args: TensorAccessorArgs of c. Runtime args: c, start, count.
#include "api/dataflow/circular_buffer.h"
#include "api/dataflow/endpoints.h"
#include "api/dataflow/noc.h"

void kernel_main() {
    uint32_t c_addr = get_arg_val<uint32_t>(0);
    uint32_t start = get_arg_val<uint32_t>(1), count = get_arg_val<uint32_t>(2);
    Noc noc;
    CircularBuffer cb_out(tt::CBIndex::c_16);
    constexpr auto args_c = TensorAccessorArgs<0>();
    const uint32_t tile_bytes = cb_out.get_tile_size();
    const auto c = TensorAccessor(args_c, c_addr, tile_bytes);
    for (uint32_t t = start; t < start + count; ++t) {
        cb_out.wait_front(1);
        noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(cb_out), c, tile_bytes, {.offset_bytes = 0},
                        {.page_id = t, .offset_bytes = 0});
        noc.async_write_barrier();  // the page may be reused only once the write has landed
        cb_out.pop_front(1);
    }
}
