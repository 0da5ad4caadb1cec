// tt-metal's logger (tt-logger/tt-logger.hpp): log_trace … log_critical with an optional
// tt::LogType category first and an fmt-style message (tt-metalium/assert.hpp says which
// format specs are understood). Lines at or above the level in TT_LOGGER_LEVEL (trace, debug,
// info, warning, error, critical, off; default info) are written to stderr as one line each,
// "<category> | <LEVEL> | <message>"; the lines tt-metal's own host code would print are the only
// output this layer makes by itself.
#pragma once

#include <string>
#include <string_view>

#include <tt-metalium/assert.hpp>

namespace tt {

enum LogType : int {
    LogAlways,
    LogTest,
    LogDevice,
    LogModel,
    LogLLRuntime,
    LogLoader,
    LogIO,
    LogCompile,
    LogBuildKernels,
    LogVerif,
    LogGolden,
    LogOp,
    LogHAL,
    LogAllocator,
    LogRuntime,
    LogMetal,
    LogDispatch,
    LogFabric,
    LogMetalTrace,
};

enum class LogLevel : int { trace = 0, debug, info, warning, error, critical, off };

namespace logger_detail {
bool enabled(LogLevel level);
void write(LogType type, LogLevel level, const std::string& message);

template <class... Args>
void log(LogType type, LogLevel level, std::string_view fmt, const Args&... args) {
    if (enabled(level)) write(type, level, ::tt::assert::format(fmt, args...));
}
}  // namespace logger_detail

#define ZYX_TT_LOGGER_LEVEL_FN(name, level)                              \
    template <class... Args>                                             \
    void name(LogType type, std::string_view fmt, const Args&... args) { \
        logger_detail::log(type, LogLevel::level, fmt, args...);         \
    }                                                                    \
    template <class... Args>                                             \
    void name(std::string_view fmt, const Args&... args) {               \
        logger_detail::log(LogAlways, LogLevel::level, fmt, args...);    \
    }
ZYX_TT_LOGGER_LEVEL_FN(log_trace, trace)
ZYX_TT_LOGGER_LEVEL_FN(log_debug, debug)
ZYX_TT_LOGGER_LEVEL_FN(log_info, info)
ZYX_TT_LOGGER_LEVEL_FN(log_warning, warning)
ZYX_TT_LOGGER_LEVEL_FN(log_error, error)
ZYX_TT_LOGGER_LEVEL_FN(log_critical, critical)
#undef ZYX_TT_LOGGER_LEVEL_FN

}  // namespace tt

// tt-metal code calls these both as tt::log_info(…) and unqualified.
using tt::log_critical;
using tt::log_debug;
using tt::log_error;
using tt::log_info;
using tt::log_trace;
using tt::log_warning;
