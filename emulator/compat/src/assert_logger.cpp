// TT_THROW / TT_FATAL text and the tt-logger lines (tt-metalium/assert.hpp, tt-logger/tt-logger.hpp).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include <tt-logger/tt-logger.hpp>
#include <tt-metalium/assert.hpp>

#include "core/error.hpp"
#include "emu/dprint_format.hpp"

namespace tt::assert {

// The emulator's DEVICE_PRINT formatter implements fmt's replacement fields and specs
// (emu/dprint_format.hpp); its errors are re-worded to name the host-side format string.
std::string format_message(std::string_view fmt, const std::vector<FormatArg>& args) {
    static const zyx_emu_dprint_arg none{0, 0};
    std::vector<zyx_emu_dprint_arg> dargs;
    dargs.reserve(args.size());
    for (const FormatArg& a : args) {
        switch (a.kind) {
            case FormatArg::Int: dargs.push_back({ZYX_EMU_DPRINT_I64, a.bits}); break;
            case FormatArg::UInt: dargs.push_back({ZYX_EMU_DPRINT_U64, a.bits}); break;
            case FormatArg::Float: dargs.push_back({ZYX_EMU_DPRINT_F32, a.bits}); break;
            case FormatArg::Double: dargs.push_back({ZYX_EMU_DPRINT_F64, a.bits}); break;
            case FormatArg::Bool: dargs.push_back({ZYX_EMU_DPRINT_BOOL, a.bits}); break;
            case FormatArg::Char: dargs.push_back({ZYX_EMU_DPRINT_CHAR, a.bits}); break;
            case FormatArg::Text: dargs.push_back({ZYX_EMU_DPRINT_STR, uint64_t(uintptr_t(a.text.c_str()))}); break;
        }
    }
    const std::string text(fmt);  // NUL-terminated for the formatter
    const zyx_emu_dprint_format m{text.c_str(), uint32_t(dargs.size()), dargs.empty() ? &none : dargs.data()};
    try {
        return zyx::emu::format_device_print(m);
    } catch (const zyx::Error& e) {
        // The formatter's message is `[Unsupported: ]DEVICE_PRINT("<fmt>"): <why>`.
        const bool unsupported = e.status() == zyx::ErrorStatus::Unsupported;
        const std::string head = std::string(unsupported ? "Unsupported: " : "") + "DEVICE_PRINT(\"" + text + "\"): ";
        const std::string& msg = e.message();
        const std::string why = msg.compare(0, head.size(), head) == 0 ? msg.substr(head.size()) : msg;
        throw ::tt::exception(std::string(unsupported ? "Unsupported: " : "") + "tt-metal format string \"" + text +
                                  "\" (TT_THROW / TT_FATAL / log_*): " + why,
                              unsupported ? "unsupported" : "invalid_argument");
    }
}

void throw_exception(const char* file, int line, const char* kind, const char* condition, const std::string& message,
                     const char* category) {
    std::string what = std::string(kind) + " @ " + file + ":" + std::to_string(line) + ": " + condition;
    if (!message.empty()) what += "\ninfo:\n" + message;
    throw ::tt::exception(what, category);
}

}  // namespace tt::assert

namespace tt::logger_detail {
namespace {

LogLevel level_from_env() {
    const char* env = std::getenv("TT_LOGGER_LEVEL");
    if (!env) return LogLevel::info;
    static const char* names[] = {"trace", "debug", "info", "warning", "error", "critical", "off"};
    for (int i = 0; i < 7; ++i)
        if (strcasecmp(env, names[i]) == 0) return LogLevel(i);
    return LogLevel::info;
}

const char* type_name(LogType t) {
    static const char* names[] = {"Always",  "Test",         "Device",   "Model",  "LLRuntime", "Loader", "IO",
                                  "Compile", "BuildKernels", "Verif",    "Golden", "Op",        "HAL",    "Allocator",
                                  "Runtime", "Metal",        "Dispatch", "Fabric", "MetalTrace"};
    int i = int(t);
    return i >= 0 && i < int(sizeof(names) / sizeof(names[0])) ? names[i] : "?";
}

const char* level_name(LogLevel l) {
    static const char* names[] = {"TRACE", "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL", "OFF"};
    return names[int(l)];
}

}  // namespace

bool enabled(LogLevel level) {
    static const LogLevel min = level_from_env();
    return level != LogLevel::off && int(level) >= int(min);
}

// One write() per line, as zyx's own log lines (src/core/log.cpp), so lines of threads do not mix.
void write(LogType type, LogLevel level, const std::string& message) {
    std::string line = std::string(type_name(type)) + " | " + level_name(level) + " | " + message + "\n";
    size_t off = 0;
    while (off < line.size()) {
        ssize_t n = ::write(2, line.data() + off, line.size() - off);
        if (n <= 0) break;
        off += size_t(n);
    }
}

}  // namespace tt::logger_detail
