#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/subprocess.hpp"

using namespace zyx;

TEST(Error, CarriesStatusAndMessage) {
    try {
        throw Error(ErrorStatus::DeviceBusy, "device 0 is held by pid 42");
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::DeviceBusy);
        EXPECT_EQ(e.message(), "device 0 is held by pid 42");
        EXPECT_EQ(std::string(e.what()), "[device_busy] device 0 is held by pid 42");
    }
}

TEST(Error, StatusNamesRoundTrip) {
    for (int i = 0; i <= static_cast<int>(ErrorStatus::Internal); ++i) {
        auto s = static_cast<ErrorStatus>(i);
        EXPECT_EQ(error_status_from_name(error_status_name(s)), s);
    }
    EXPECT_EQ(error_status_from_name("no_such_status"), ErrorStatus::Internal);
}

TEST(Log, ChannelsFollowEnvironment) {
    ::setenv("ZYX_DEBUG", "jit,emu", 1);
    log_reload_from_env();
    EXPECT_TRUE(log_enabled(LogChannel::jit));
    EXPECT_TRUE(log_enabled(LogChannel::emu));
    EXPECT_FALSE(log_enabled(LogChannel::sched));
    ::setenv("ZYX_DEBUG", "all", 1);
    log_reload_from_env();
    EXPECT_TRUE(log_enabled(LogChannel::sched));
    ::unsetenv("ZYX_DEBUG");
    log_reload_from_env();
    EXPECT_FALSE(log_enabled(LogChannel::jit));
}

TEST(Log, DisabledChannelDoesNotEvaluate) {
    ::unsetenv("ZYX_DEBUG");
    log_reload_from_env();
    int evaluated = 0;
    auto side_effect = [&] {
        ++evaluated;
        return 1;
    };
    ZYX_LOG(sched) << side_effect();
    EXPECT_EQ(evaluated, 0);
}

TEST(Subprocess, CapturesOutputAndExitCode) {
    auto r = subprocess_run({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_NE(r.output.find("out"), std::string::npos);
    EXPECT_NE(r.output.find("err"), std::string::npos);
    EXPECT_THROW(subprocess_run({"/nonexistent/program"}), Error);
}
