// The seed dialect of zyx-tt-runtime (docs/protocol.md, "The seed dialect"): the line protocol
// spoken by the Tenstorrent backend of the Rust library zyx 0.17, served over the same Target as
// our own protocol.
//
// A session speaks it when its first request line is the seed's init
// ({"cmd":"init","cache_dir":"…"}); Server::serve hands such a session over at its first line.
// Contract:
//   - one reply line per request line, in order; compile_program is followed by its three raw
//     sources, back to back, with nothing after them; a refused compile_program still consumes
//     the sources by their declared lengths, so the stream stays in step;
//   - replies are {"status":"ok", …} and {"status":"error","msg":M}; every value the seed reads
//     (index, rows, cols) is a JSON string holding a decimal number, and M never holds '"' or '\',
//     because the seed's reader takes the text between the first two quotes after the key;
//   - bulk data moves through one POSIX shared-memory object per transfer, named by the request,
//     opened without following links, checked to be a regular object of our uid with no group or
//     other access and exactly the declared size before it is mapped.
// After any error the session keeps serving, and every buffer and program is as it was (except a
// compile_program that reuses an id: see docs/protocol.md).
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "server.hpp"
#include "stream.hpp"
#include "target.hpp"

namespace zyx::tt::runtime::seed {

// True when `line` is a JSON object whose "cmd" is "init" (the seed's first request; our own
// dialect has no such command).
bool is_init(std::string_view line);

// Serves the rest of a session in the seed dialect; `init_line` is its first line, already read
// from `in`, which is answered first. Returns the process exit status (0 on exit or end of input).
int serve(Target& target, const ServerOptions& options, InputStream& in, int out_fd, const std::string& init_line);

// serve_unavailable (server.hpp) for a session that opened with the seed's init: every request is
// answered with `reason` in the seed's reply form, except exit; a compile_program's sources are
// consumed. With `once`, only the first request is answered (then it returns 1).
int serve_unavailable(InputStream& in, int out_fd, const Error& reason, int raw_timeout_ms,
                      const std::string& init_line, bool once);

// The seed's error reply line (without '\n') carrying `e`.
std::string error_reply(const Error& e);

}  // namespace zyx::tt::runtime::seed
