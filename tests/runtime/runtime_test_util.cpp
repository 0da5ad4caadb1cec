#include "runtime_test_util.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace zyx::tt::test {

std::filesystem::path runtime_path() {
    if (const char* b = std::getenv("ZYX_BUILD_DIR"); b && *b) {
        std::filesystem::path p = std::filesystem::path(b) / "bin" / "zyx-tt-runtime";
        if (std::filesystem::exists(p)) return p;
    }
    return find_runtime_executable();
}

std::string runtime_target() {
    const char* t = std::getenv("ZYX_TEST_RUNTIME_TARGET");
    std::string target = t && *t ? t : "emulator";
    if (target != "emulator" && target != "metal") {
        ADD_FAILURE() << "ZYX_TEST_RUNTIME_TARGET is '" << target << "'; expected 'emulator' or 'metal'";
        return "emulator";
    }
    return target;
}

std::filesystem::path temp_dir(const std::string& tag) {
    auto p = std::filesystem::temp_directory_path() / ("zyx-rt-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

OpenOptions open_options(const std::string& tag) {
    OpenOptions o;
    Config c;
    c.request_timeout_ms = 10000;
    c.compile_timeout_ms = 60000;
    c.run_timeout_ms = 60000;
    c.target = runtime_target();
    o.config = c;
    o.runtime = runtime_path();
    o.lock_dir = temp_dir("lock-" + tag);
    return o;
}

RawRuntime::RawRuntime(std::vector<std::string> extra_args) {
    std::vector<std::string> argv{runtime_path().string()};
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    // The test's target unless it names one.
    if (std::find(extra_args.begin(), extra_args.end(), "--target") == extra_args.end())
        argv.insert(argv.end(), {"--target", runtime_target()});
    // The runtime locks its device at start; unless the test says where, a private directory.
    if (std::find(extra_args.begin(), extra_args.end(), "--lock-dir") == extra_args.end()) {
        static int n = 0;
        argv.insert(argv.end(), {"--lock-dir", temp_dir("rawlock" + std::to_string(n++)).string()});
    }
    proc = std::make_unique<RuntimeProcess>(argv);
}

nlohmann::json RawRuntime::request(const std::string& line, const std::string& raw) {
    proc->send(line + "\n" + raw, 10000, "test request");
    std::string resp = proc->receive_line(30000, "test request");
    EXPECT_EQ(resp.find('\n'), std::string::npos);
    nlohmann::json j = nlohmann::json::parse(resp, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "not JSON: " << resp;
    EXPECT_TRUE(j.is_object() && j.contains("ok")) << resp;
    return j;
}

nlohmann::json RawRuntime::ok(const std::string& line, const std::string& raw) {
    nlohmann::json j = request(line, raw);
    EXPECT_EQ(j.value("ok", false), true) << "request " << line << " failed: " << j.dump();
    return j;
}

void RawRuntime::start(uint64_t arena_bytes) {
    ok(R"({"cmd":"hello","version":1})");
    arena = std::make_unique<StagingArena>(arena_bytes);
    ok(R"({"cmd":"arena_map","name":")" + arena->name() + R"(","bytes":)" + std::to_string(arena_bytes) + "}");
    arena->unlink_name();
}

}  // namespace zyx::tt::test
