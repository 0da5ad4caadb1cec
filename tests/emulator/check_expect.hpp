// The one way emulator tests assert a check's error (tests/emulator/test_checks.cpp,
// test_scheduling.cpp): status, and the kernel, core, processor and object it must name.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "core/error.hpp"

namespace emu_test {

// What a check failing in a running kernel must name: the kernel, its core and processor, and
// the object of the broken rule (CB index, address, buffer, DST index or section …). Every
// launch-time check test goes through expect_check.
struct Culprit {
    std::string kernel, core, proc, object;
};

inline void expect_parts(const zyx::Error& e, std::initializer_list<std::string> parts) {
    for (const auto& p : parts)
        EXPECT_TRUE(e.message().find(p) != std::string::npos) << "missing '" << p << "' in: " << e.message();
}

inline void expect_check(const zyx::Error& e, zyx::ErrorStatus status, const Culprit& c,
                         std::initializer_list<std::string> more = {}) {
    EXPECT_EQ(e.status(), status) << e.what();
    ASSERT_FALSE(c.kernel.empty() || c.core.empty() || c.proc.empty() || c.object.empty())
        << "a check test names kernel, core, processor and object";
    if (status == zyx::ErrorStatus::Deadlock) {
        // One line per fiber: "core (x,y) PROC [kernel]: what it waits on".
        expect_parts(e, {"core " + c.core + " " + c.proc + " [" + c.kernel + "]: " + c.object});
    } else {
        expect_parts(e, {"kernel '" + c.kernel + "' on core " + c.core + " " + c.proc + ": ", c.object});
    }
    expect_parts(e, more);
}

// Checks made on the host before anything runs (program_create, runtime args): no processor is
// involved yet; they name the kernel or the object at fault.
inline void expect_host_check(const zyx::Error& e, zyx::ErrorStatus status, const std::string& object,
                              std::initializer_list<std::string> more = {}) {
    EXPECT_EQ(e.status(), status) << e.what();
    expect_parts(e, {object});
    expect_parts(e, more);
}

inline std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

}  // namespace emu_test
