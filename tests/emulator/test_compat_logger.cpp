// fmt format specs in the tt-metal compat layer's messages (tt-metalium/assert.hpp: TT_THROW,
// TT_FATAL and tt-logger's log_*): fill / align / width, precision, the integer and float types,
// and the errors for format strings fmt would reject.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tt-logger/tt-logger.hpp>
#include <tt-metalium/assert.hpp>

namespace {

using tt::assert::format;

enum class Colour : uint8_t { red = 3 };

// The category and message of the tt::exception f throws (a test failure when it throws none).
std::pair<std::string, std::string> thrown(void (*f)()) {
    try {
        f();
    } catch (const tt::exception& e) { return {e.category(), e.what()}; }
    ADD_FAILURE() << "expected a tt::exception";
    return {};
}

}  // namespace

TEST(CompatLogger, FillAlignWidth) {
    EXPECT_EQ(format("[{:>8}|{:<6}|{:^7}]", 42, "ab", std::string("mid")), "[      42|ab    |  mid  ]");
    EXPECT_EQ(format("[{:*^8}] [{:08}] [{:+d}]", "core", -42, 7), "[**core**] [-0000042] [+7]");
    EXPECT_EQ(format("[{:>5}] [{:<7}]", true, 'c'), "[ true] [c      ]");
}

TEST(CompatLogger, PrecisionAndFloatTypes) {
    EXPECT_EQ(format("{:.3e}", 12345.678), "1.235e+04");
    EXPECT_EQ(format("{:.2f} {:10.4f}|", 3.14159f, -2.5), "3.14    -2.5000|");
    EXPECT_EQ(format("{:g} {:.3g} {:E}", 0.0001, 1234567.0, 1.5), "0.0001 1.23e+06 1.500000E+00");
    // "{}" is the shortest text that reads back to the same value (fmt), not ostream's 6 digits.
    EXPECT_EQ(format("{} {} {}", 0.1f, 1e20, 3.14159265358979), "0.1 1e+20 3.14159265358979");
}

TEST(CompatLogger, IntegerTypes) {
    EXPECT_EQ(format("{:x} {:#x} {:08X} {:d} {:b}", 255u, 255, 48879, -7, 5), "ff 0xff 0000BEEF -7 101");
    EXPECT_EQ(format("{} {} {:d} {}", uint8_t(200), Colour::red, true, -(int64_t(1) << 40)), "200 3 1 -1099511627776");
}

TEST(CompatLogger, IndexedFieldsAndBraces) {
    EXPECT_EQ(format("{1}-{0} {{}} {0:>3}", "a", 'b'), "b-a {}   a");
    EXPECT_EQ(format("plain text"), "plain text");
}

TEST(CompatLogger, SpecsReachTtFatalAndTheLog) {
    auto [category, what] = thrown([] { TT_FATAL(1 + 1 == 3, "got {:.1f} at {:#06x}", 1.26, 42); });
    EXPECT_EQ(category, "internal");
    EXPECT_NE(what.find("got 1.3 at 0x002a"), std::string::npos) << what;

    testing::internal::CaptureStderr();
    log_info(tt::LogTest, "v=[{:>7.2f}] n=[{:<4}]", 3.14159, 9);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("Test | INFO | v=[   3.14] n=[9   ]"), std::string::npos) << err;
}

TEST(CompatLogger, FormatStringsFmtRejectsThrow) {
    auto [c1, w1] = thrown([] { (void)format("name {:x}", "abc"); });
    EXPECT_EQ(c1, "invalid_argument");
    EXPECT_NE(w1.find("tt-metal format string \"name {:x}\""), std::string::npos) << w1;
    EXPECT_NE(w1.find("format type 'x' for a string"), std::string::npos) << w1;

    auto [c2, w2] = thrown([] { (void)format("{} and {}", 1); });
    EXPECT_EQ(c2, "invalid_argument");
    EXPECT_NE(w2.find("has no argument"), std::string::npos) << w2;

    auto [c3, w3] = thrown([] { (void)format("{name}", 1); });
    EXPECT_EQ(c3, "unsupported");
    EXPECT_EQ(w3.rfind("Unsupported: ", 0), 0u) << w3;
}
