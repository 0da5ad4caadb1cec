// libFuzzer target for the runtime's request parser (scripts/fuzz builds and runs it).
//
// Properties checked on every input:
//   1. parse_request never crashes, hangs or leaks: it returns a Request or throws zyx::Error;
//   2. a request it accepts survives request_json → parse_request unchanged (the writer and the
//      parser agree on the wire format).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "backend/tenstorrent/protocol.hpp"

using namespace zyx::tt::protocol;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view line(reinterpret_cast<const char*>(data), size);
    Request r;
    try {
        r = parse_request(line);
    } catch (const zyx::Error&) {
        return 0;  // refused with a proper error: fine
    }
    std::string again = request_json(r);
    Request r2;
    try {
        r2 = parse_request(again);
    } catch (const zyx::Error& e) {
        std::abort();  // our own output must parse
    }
    if (r2.cmd != r.cmd || r2.seq != r.seq || r2.bytes != r.bytes || r2.buffer != r.buffer || r2.offset != r.offset ||
        r2.arena_offset != r.arena_offset || r2.arena_name != r.arena_name || r2.program != r.program ||
        r2.source_bytes != r.source_bytes || r2.inputs != r.inputs || r2.outputs != r.outputs ||
        r2.scalars != r.scalars || r2.grid != r.grid || r2.program_id != r.program_id || r2.src_buffer != r.src_buffer)
        std::abort();
    return 0;
}
