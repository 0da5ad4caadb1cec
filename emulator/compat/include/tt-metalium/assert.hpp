// tt-metal's TT_THROW / TT_FATAL / TT_ASSERT (tt_stl/assert.hpp; tt-metalium/assert.hpp forwards
// there) over the emulator. As in tt-metal they throw a std::runtime_error whose what() reads
//   TT_FATAL @ <file>:<line>: <condition>
//   info:
//   <message>
// here of class tt::exception (a std::runtime_error), which also says which zyx error category
// the failure belongs to ("unsupported", "invalid_argument", "kernel_fault", … : the names of
// zyx::ErrorStatus). No backtrace is appended. Messages are fmt-style: each "{}" takes the next
// argument, "{N}" argument N; "{{" and "}}" are braces. A field may carry fmt's spec
// [[fill]align][sign][#][0][width][.precision][type] (align < > ^; types d x X o b B c for
// integers, chars and bools, f F e E g G for floats, s for strings), e.g. "{:>8}", "{:.3e}",
// "{:#x}"; "{}" prints a float as the shortest text that reads back to the same value, as fmt
// does. Other types (CoreCoord, std::string …) print through operator<< and take the string
// specs. A format string fmt would reject at compile time (a field without argument, a spec the
// type does not take) throws tt::exception naming the format string (category
// "invalid_argument"; "unsupported" for fmt features not modelled: named fields, nested widths).
#pragma once

#include <cstdint>
#include <cstring>
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

// One argument of a format call: numbers keep their value (the spec decides the text), every
// other type is printed through operator<<.
struct FormatArg {
    enum Kind : uint8_t { Int, UInt, Float, Double, Bool, Char, Text } kind;
    uint64_t bits = 0;  // Int: the int64_t value; Float / Double: the IEEE bits
    std::string text;   // Text only
};

template <class T>
FormatArg format_arg(const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        return {FormatArg::Bool, v ? 1u : 0u, {}};
    } else if constexpr (std::is_same_v<T, char>) {
        return {FormatArg::Char, uint64_t(uint8_t(v)), {}};
    } else if constexpr (std::is_enum_v<T>) {
        return format_arg(static_cast<std::underlying_type_t<T>>(v));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        return {FormatArg::Int, uint64_t(int64_t(v)), {}};
    } else if constexpr (std::is_integral_v<T>) {
        return {FormatArg::UInt, uint64_t(v), {}};
    } else if constexpr (std::is_same_v<T, float>) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return {FormatArg::Float, b, {}};
    } else if constexpr (std::is_floating_point_v<T>) {
        const double d = double(v);
        uint64_t b;
        std::memcpy(&b, &d, 8);
        return {FormatArg::Double, b, {}};
    } else {
        std::ostringstream os;
        os << v;
        return {FormatArg::Text, 0, os.str()};
    }
}

// Substitutes args into an fmt-style format string (see the top of this file).
std::string format_message(std::string_view fmt, const std::vector<FormatArg>& args);

template <class... Args>
std::string format(std::string_view fmt, const Args&... args) {
    return format_message(fmt, std::vector<FormatArg>{format_arg(args)...});
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
