// WAYPOINT("ABCD") (tt-metal api/debug/waypoint.h): on silicon it writes up to 4 characters to
// the core's watcher mailbox. The emulator checks the name (a string of at most 4 characters,
// as the watcher requires) and otherwise ignores it: the deadlock report already says what
// every processor waits on.
#pragma once

namespace zyx_emu_detail {
template <unsigned N>
constexpr int waypoint(const char (&)[N]) {
    static_assert(N - 1 <= 4, "Up to 4 characters allowed in WATCHER_WAYPOINT");
    return 0;
}
}  // namespace zyx_emu_detail

#define WAYPOINT(x) ((void)::zyx_emu_detail::waypoint(x))
