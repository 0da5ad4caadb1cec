// ASSERT (tt-metal api/debug/assert.h):
//   ASSERT(condition);              ASSERT(condition, "message");
// On silicon an ASSERT only checks under the watcher and then hangs the core. The emulator
// always checks: a false condition fails the launch with a KernelFault naming the kernel, core
// and processor, the condition and its line (and the message when one is given):
//   kernel 'reader' on core (0,0) BRISC: ASSERT(n == 4) failed at line 7: n tiles
// In a compute kernel the three compute processors each evaluate it; the first to fail reports.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"

namespace zyx_emu_detail {
// The optional second argument: a message string (current tt-metal) or, in older tt-metal, a
// debug_assert_type_t code, which carries no text.
inline const char* assert_note(const char* message) { return message; }
template <typename T>
inline const char* assert_note(T) {
    return nullptr;
}

inline char* assert_append(char* p, char* end, const char* s) {
    while (*s && p < end) *p++ = *s++;
    return p;
}
// The kernel's own file name as __FILE__ spells it there: the emulator compiles each kernel
// under `#line 1 "<kernel name>"` and defines this to the same name (emu/program.cpp).
#ifndef ZYX_EMU_KERNEL_FILE
#define ZYX_EMU_KERNEL_FILE __BASE_FILE__
#endif

// Builds "ASSERT(cond) failed at line N[ of file][: message]" and reports it (never returns:
// the emulator abandons the kernel). `file` is left out when it is the kernel source itself.
[[noreturn]] __attribute__((noinline, cold)) inline void assert_failed(const char* condition, const char* file,
                                                                       const char* kernel_file, uint32_t line,
                                                                       const char* message = nullptr) {
    char buf[640];
    char *p = buf, *end = buf + sizeof buf - 1;
    p = assert_append(p, end, "ASSERT(");
    p = assert_append(p, end, condition);
    p = assert_append(p, end, ") failed at line ");
    char digits[12];
    int n = 0;
    do digits[n++] = char('0' + line % 10);
    while ((line /= 10) != 0);
    while (n > 0 && p < end) *p++ = digits[--n];
    if (__builtin_strcmp(file, kernel_file) != 0) {
        const char* base = file;
        for (const char* s = file; *s; ++s)
            if (*s == '/') base = s + 1;
        p = assert_append(p, end, " of ");
        p = assert_append(p, end, base);
    }
    if (message) {
        p = assert_append(p, end, ": ");
        p = assert_append(p, end, message);
    }
    *p = '\0';
    ZYX_EMU.kernel_fault(buf);
    __builtin_unreachable();
}
}  // namespace zyx_emu_detail

#define ASSERT(condition, ...)                                                                                  \
    do {                                                                                                        \
        if (!(condition)) [[unlikely]]                                                                          \
            ::zyx_emu_detail::assert_failed(#condition, __FILE__, ZYX_EMU_KERNEL_FILE,                          \
                                            __LINE__ __VA_OPT__(, ::zyx_emu_detail::assert_note(__VA_ARGS__))); \
    } while (0)
