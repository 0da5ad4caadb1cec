// Debug logging through named channels. Nothing prints unless asked:
//   ZYX_DEBUG=runtime,sched,ir,asm,emu,jit   (comma list; "all" turns every channel on)
//
//   ZYX_LOG(jit) << "cache hit " << path;
//
// A line is written to stderr in one write() so lines from threads and processes do not mix.
// The stream expression is not evaluated when the channel is off.
#pragma once

#include <sstream>
#include <string_view>

namespace zyx {

enum class LogChannel : unsigned {
    runtime = 0,  // device runtime process and its protocol
    sched = 1,    // scheduler: kernel list, fusion decisions, placement
    ir = 2,       // kernel IR
    asm_ = 3,     // generated source code ("asm" in ZYX_DEBUG)
    emu = 4,      // Tensix emulator: launches, DPRINT output
    jit = 5,      // compiler invocations and cache hits
    mem = 6,      // allocations and transfers
    count = 7,
};

// True when `ch` was named in ZYX_DEBUG (read once, on first use).
bool log_enabled(LogChannel ch);
// Re-reads ZYX_DEBUG; for tests that change the environment.
void log_reload_from_env();
std::string_view log_channel_name(LogChannel ch);

class LogLine {
public:
    explicit LogLine(LogChannel ch);
    ~LogLine();
    LogLine(const LogLine&) = delete;
    LogLine& operator=(const LogLine&) = delete;
    std::ostringstream& stream() { return os_; }

private:
    std::ostringstream os_;
};

}  // namespace zyx

#define ZYX_LOG(channel)                                   \
    if (!::zyx::log_enabled(::zyx::LogChannel::channel)) { \
    } else                                                 \
        ::zyx::LogLine(::zyx::LogChannel::channel).stream()
