#include "core/log.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace zyx {
namespace {
constexpr std::string_view kNames[] = {"runtime", "sched", "ir", "asm", "emu", "jit", "mem"};

std::atomic<unsigned> g_mask{0};
std::atomic<bool> g_loaded{false};

unsigned parse_mask(const char* env) {
    if (!env) return 0;
    unsigned mask = 0;
    std::string_view s(env);
    while (!s.empty()) {
        size_t comma = s.find(',');
        std::string_view item = s.substr(0, comma);
        if (item == "all" || item == "1") mask = ~0u;
        for (unsigned i = 0; i < static_cast<unsigned>(LogChannel::count); ++i)
            if (item == kNames[i]) mask |= 1u << i;
        if (comma == std::string_view::npos) break;
        s.remove_prefix(comma + 1);
    }
    return mask;
}
}  // namespace

void log_reload_from_env() {
    g_mask.store(parse_mask(std::getenv("ZYX_DEBUG")), std::memory_order_relaxed);
    g_loaded.store(true, std::memory_order_release);
}

bool log_enabled(LogChannel ch) {
    if (!g_loaded.load(std::memory_order_acquire)) log_reload_from_env();
    return (g_mask.load(std::memory_order_relaxed) >> static_cast<unsigned>(ch)) & 1u;
}

std::string_view log_channel_name(LogChannel ch) {
    unsigned i = static_cast<unsigned>(ch);
    return i < static_cast<unsigned>(LogChannel::count) ? kNames[i] : "?";
}

LogLine::LogLine(LogChannel ch) { os_ << "zyx:" << log_channel_name(ch) << ": "; }

LogLine::~LogLine() {
    os_ << '\n';
    std::string line = os_.str();
    size_t off = 0;
    while (off < line.size()) {
        ssize_t n = ::write(2, line.data() + off, line.size() - off);
        if (n <= 0) break;
        off += static_cast<size_t>(n);
    }
}

}  // namespace zyx
