// config.json parsing and the per-device lock.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "backend/tenstorrent/config.hpp"
#include "backend/tenstorrent/device.hpp"
#include "backend/tenstorrent/device_lock.hpp"
#include "core/error.hpp"

using namespace zyx;
using namespace zyx::tt;

namespace {
std::filesystem::path temp_dir(const std::string& tag) {
    auto p = std::filesystem::temp_directory_path() / ("zyx-rt-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}
}  // namespace

TEST(Config, DefaultsWhenAbsentOrEmpty) {
    Config c = config_load("/nonexistent/zyx/config.json");
    EXPECT_FALSE(c.device_ids.has_value());
    EXPECT_EQ(c.target, "emulator");
    EXPECT_EQ(c.emulator_preset, "wormhole-n150");
    Config d = config_parse("{\"cpu\":{\"threads\":4}}", "x.json");
    EXPECT_EQ(d.target, "emulator");
}

TEST(Config, ReadsEveryKey) {
    Config c = config_parse(R"({"tenstorrent":{"device_ids":[0,2],"target":"metal","emulator_preset":"blackhole-p150",
        "request_timeout_ms":5,"compile_timeout_ms":6,"run_timeout_ms":7}})",
                            "c.json");
    ASSERT_TRUE(c.device_ids.has_value());
    EXPECT_EQ(*c.device_ids, (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(c.target, "metal");
    EXPECT_EQ(c.emulator_preset, "blackhole-p150");
    EXPECT_EQ(c.request_timeout_ms, 5);
    EXPECT_EQ(c.compile_timeout_ms, 6);
    EXPECT_EQ(c.run_timeout_ms, 7);
    EXPECT_TRUE(config_parse(R"({"tenstorrent":{"device_ids":[]}})", "c.json").device_ids->empty());
}

TEST(Config, MistakesNameTheFileAndKey) {
    for (auto [text, fragment] : std::vector<std::pair<std::string, std::string>>{
             {"{not json", "not valid JSON"},
             {R"({"tenstorrent":{"targte":"metal"}})", "unknown key tenstorrent.targte"},
             {R"({"tenstorrent":{"target":"gpu"}})", "tenstorrent.target"},
             {R"({"tenstorrent":{"device_ids":[-1]}})", "device_ids"},
             {R"({"tenstorrent":{"run_timeout_ms":0}})", "run_timeout_ms"}}) {
        try {
            config_parse(text, "/home/u/.config/zyx/config.json");
            FAIL() << text;
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
            EXPECT_NE(e.message().find("/home/u/.config/zyx/config.json"), std::string::npos) << e.message();
            EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
        }
    }
}

TEST(Config, PathFollowsXdgConfigHome) {
    const char* old = std::getenv("XDG_CONFIG_HOME");
    std::string saved = old ? old : "";
    setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
    EXPECT_EQ(config_path(), std::filesystem::path("/x/cfg/zyx/config.json"));
    setenv("XDG_CONFIG_HOME", "relative/not/used", 1);
    EXPECT_NE(config_path().string().find("/.config/zyx/config.json"), std::string::npos);
    if (old)
        setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
    else
        unsetenv("XDG_CONFIG_HOME");
}

TEST(DeviceLock, SecondHolderInTheSameProcessIsBusy) {
    auto dir = temp_dir("lock1");
    {
        DeviceLock a("emulator", 3, dir);
        try {
            DeviceLock b("emulator", 3, dir);
            FAIL() << "second lock granted";
        } catch (const Error& e) {
            EXPECT_EQ(e.status(), ErrorStatus::DeviceBusy);
            EXPECT_NE(e.message().find("in use by process " + std::to_string(::getpid())), std::string::npos)
                << e.message();
        }
        DeviceLock other_id("emulator", 4, dir);   // another device is free
        DeviceLock other_target("metal", 3, dir);  // so is the real device of that number
    }
    DeviceLock again("emulator", 3, dir);  // released with its holder
    std::filesystem::remove_all(dir);
}

TEST(DeviceLock, AnotherProcessHoldingTheDeviceIsNamed) {
    auto dir = temp_dir("lock2");
    int ready[2], done[2];
    ASSERT_EQ(::pipe(ready), 0);
    ASSERT_EQ(::pipe(done), 0);
    pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(ready[0]);
        ::close(done[1]);
        try {
            DeviceLock held("emulator", 0, dir);
            char c = 'r';
            if (::write(ready[1], &c, 1) != 1) ::_exit(3);
            if (::read(done[0], &c, 1) < 0) ::_exit(4);  // hold until the parent is done
        } catch (...) { ::_exit(2); }
        ::_exit(0);
    }
    ::close(ready[1]);
    ::close(done[0]);
    char c;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    try {
        OpenOptions o;
        o.device_id = 0;
        o.config = Config{};
        o.lock_dir = dir;
        o.runtime = "/nonexistent/zyx-tt-runtime";  // never reached: the lock comes first
        TTDevice::open(o);
        FAIL() << "open succeeded while another process holds the device";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::DeviceBusy) << e.what();
        EXPECT_NE(e.message().find("in use by process " + std::to_string(child)), std::string::npos) << e.message();
    }
    ::close(done[1]);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    DeviceLock mine("emulator", 0, dir);  // free again once the other process is gone
    std::filesystem::remove_all(dir);
}

TEST(TTDeviceHelpers, GridFromGroupAxes) {
    protocol::Grid dev{8, 8};
    EXPECT_EQ(grid_from_group_axes({}, dev), (protocol::Grid{1, 1}));
    EXPECT_EQ(grid_from_group_axes({4}, dev), (protocol::Grid{4, 1}));
    EXPECT_EQ(grid_from_group_axes({8, 8}, dev), (protocol::Grid{8, 8}));
    for (std::vector<uint64_t> bad : {std::vector<uint64_t>{9, 1}, {1, 9}, {2, 2, 2}, {0, 1}}) {
        try {
            grid_from_group_axes(bad, dev);
            FAIL();
        } catch (const Error& e) { EXPECT_EQ(e.status(), ErrorStatus::KernelLaunch) << e.what(); }
    }
}

TEST(TTDeviceHelpers, RuntimeExecutableFromEnvironment) {
    setenv("ZYX_TT_RUNTIME", "/nonexistent/zyx-tt-runtime", 1);
    try {
        find_runtime_executable();
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::Initialization);
        EXPECT_NE(e.message().find("ZYX_TT_RUNTIME=/nonexistent/zyx-tt-runtime"), std::string::npos);
    }
    setenv("ZYX_TT_RUNTIME", "/bin/sh", 1);
    EXPECT_EQ(find_runtime_executable(), std::filesystem::path("/bin/sh"));
    unsetenv("ZYX_TT_RUNTIME");
}

TEST(TTDeviceHelpers, EmptyDeviceListDisablesTheBackend) {
    Config c;
    c.device_ids = std::vector<uint32_t>{};
    EXPECT_TRUE(TTDevice::open_all(c).empty());
}

TEST(TTDeviceHelpers, DataFormatsOfDtypes) {
    EXPECT_EQ(data_format_of(DType::bf16), protocol::DataFormat::Float16_b);
    EXPECT_EQ(data_format_of(DType::f32), protocol::DataFormat::Float32);
    EXPECT_EQ(data_format_of(DType::i32), protocol::DataFormat::Int32);
    EXPECT_FALSE(data_format_of(DType::f64).has_value());
    EXPECT_FALSE(data_format_of(DType::bool_).has_value());
}
