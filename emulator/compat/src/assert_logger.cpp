// TT_THROW / TT_FATAL text and the tt-logger lines (tt-metalium/assert.hpp, tt-logger/tt-logger.hpp).
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include <tt-logger/tt-logger.hpp>
#include <tt-metalium/assert.hpp>

namespace tt::assert {

std::string format_message(std::string_view fmt, const std::vector<std::string>& args) {
    std::string out;
    size_t next = 0;
    for (size_t i = 0; i < fmt.size(); ++i) {
        char ch = fmt[i];
        if ((ch == '{' || ch == '}') && i + 1 < fmt.size() && fmt[i + 1] == ch) {
            out += ch;
            ++i;
        } else if (ch == '{') {
            size_t close = fmt.find('}', i);
            if (close == std::string_view::npos) {
                out.append(fmt.substr(i));
                break;
            }
            std::string_view field = fmt.substr(i + 1, close - i - 1);
            size_t index = next++;
            if (!field.empty() && field[0] >= '0' && field[0] <= '9')
                index = size_t(std::atoi(std::string(field).c_str()));
            out += index < args.size() ? args[index] : std::string("{?}");
            i = close;
        } else {
            out += ch;
        }
    }
    return out;
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
