// tt-metal's TT_THROW / TT_FATAL / TT_ASSERT (tt_stl/assert.hpp; tt-metalium/assert.hpp forwards
// there) over the emulator. As in tt-metal they throw a std::runtime_error whose what() reads
//   TT_FATAL @ <file>:<line>: <condition>
//   info:
//   <message>
// here of class tt::exception (a std::runtime_error), which also says which zyx error category
// the failure belongs to ("unsupported", "invalid_argument", "kernel_fault", … : the names of
// zyx::ErrorStatus). No backtrace is appended. Messages are fmt-style: each "{}" (or "{:spec}",
// the spec ignored) takes the next argument; "{{" and "}}" are braces.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tt {

class exception : public std::runtime_error {
public:
    exception(const std::string& what, std::string category)
        : std::runtime_error(what), category_(std::move(category)) {}
    // zyx::ErrorStatus name of the failure: "internal" for TT_THROW / TT_FATAL in user code.
    const std::string& category() const noexcept { return category_; }

private:
    std::string category_;
};

namespace assert {

// One argument as fmt would print it with "{}": integers (uint8_t too) as numbers, bool as
// true/false, enums as their value, everything else through operator<<.
template <class T>
std::string format_arg(const T& v) {
    std::ostringstream os;
    if constexpr (std::is_same_v<T, bool>) {
        os << (v ? "true" : "false");
    } else if constexpr (std::is_enum_v<T>) {
        os << +static_cast<std::underlying_type_t<T>>(v);
    } else if constexpr (std::is_integral_v<T> && sizeof(T) == 1 && !std::is_same_v<T, char>) {
        os << +v;
    } else {
        os << v;
    }
    return os.str();
}

// Substitutes args into an fmt-style format string (see the top of this file).
std::string format_message(std::string_view fmt, const std::vector<std::string>& args);

template <class... Args>
std::string format(std::string_view fmt, const Args&... args) {
    return format_message(fmt, std::vector<std::string>{format_arg(args)...});
}

// Throws tt::exception with tt-metal's text; `category` as tt::exception::category().
[[noreturn]] void throw_exception(const char* file, int line, const char* kind, const char* condition,
                                  const std::string& message, const char* category = "internal");

[[noreturn]] inline void tt_throw(const char* file, int line, const char* kind, const char* condition) {
    throw_exception(file, line, kind, condition, "");
}
template <class... Args>
[[noreturn]] void tt_throw(const char* file, int line, const char* kind, const char* condition, std::string_view fmt,
                           const Args&... args) {
    throw_exception(file, line, kind, condition, format(fmt, args...));
}

}  // namespace assert
}  // namespace tt

#ifndef TT_THROW
#define TT_THROW(...) ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_THROW", "tt::exception", ##__VA_ARGS__)
#endif

#ifndef TT_FATAL
#define TT_FATAL(condition, message, ...)                                                               \
    do {                                                                                                \
        if (!(condition)) [[unlikely]] {                                                                \
            ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_FATAL", #condition, message, ##__VA_ARGS__); \
        }                                                                                               \
    } while (0)
#endif

// As in tt-metal: checked only in builds that define DEBUG.
#ifndef TT_ASSERT
#ifdef DEBUG
#define TT_ASSERT(condition, ...)                                                               \
    do {                                                                                        \
        if (!(condition)) [[unlikely]]                                                          \
            ::tt::assert::tt_throw(__FILE__, __LINE__, "TT_ASSERT", #condition, ##__VA_ARGS__); \
    } while (0)
#else
#define TT_ASSERT(condition, ...)
#endif
#endif
