// `cmake --install` of the Tenstorrent component, and the client finding the installed runtime
// from a program that sits in the installed tree: <prefix>/bin/program finds
// <prefix>/libexec/zyx/zyx-tt-runtime. Also "beside": a runtime in the program's own directory.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "runtime_test_util.hpp"

namespace fs = std::filesystem;

namespace {

// Runs `command` through the shell with ZYX_TT_RUNTIME unset; returns its exit status and
// its stdout (trailing newline removed).
int run(const std::string& command, std::string* out) {
    std::string cmd = "env -u ZYX_TT_RUNTIME " + command;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    out->clear();
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out->append(buf, n);
    int st = ::pclose(p);
    while (!out->empty() && out->back() == '\n') out->pop_back();
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

// Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string&&.
std::string quoted(const fs::path& p) {
    std::string s = "'";
    s += p.string();
    s += '\'';
    return s;
}

}  // namespace

TEST(Install, InstalledProgramFindsTheInstalledRuntime) {
    const char* build = std::getenv("ZYX_BUILD_DIR");
    ASSERT_TRUE(build && *build) << "ctest sets ZYX_BUILD_DIR";
    fs::path prefix = zyx::tt::test::temp_dir("install");
    std::string out;
    ASSERT_EQ(run(std::string(ZYX_TEST_CMAKE_COMMAND) + " --install " + quoted(build) + " --prefix " + quoted(prefix) +
                      " --component zyx_tt 2>&1",
                  &out),
              0)
        << out;
    const fs::path runtime = prefix / ZYX_TEST_INSTALL_LIBEXECDIR / "zyx" / "zyx-tt-runtime";
    EXPECT_TRUE(fs::exists(runtime)) << out;
    EXPECT_TRUE(fs::exists(prefix / ZYX_TEST_INSTALL_LIBDIR / "libzyx_backend_tt.a")) << out;
    EXPECT_TRUE(fs::exists(prefix / ZYX_TEST_INSTALL_INCLUDEDIR / "zyx" / "backend" / "tenstorrent" / "device.hpp"))
        << out;

    // A program installed into <prefix>/bin.
    fs::create_directories(prefix / "bin");
    fs::copy_file(ZYX_TEST_FIND_RUNTIME_HELPER, prefix / "bin" / "tt_find_runtime");
    ASSERT_EQ(run(quoted(prefix / "bin" / "tt_find_runtime"), &out), 0) << out;
    EXPECT_EQ(fs::path(out), runtime.lexically_normal());
    // The installed runtime works.
    std::string list;
    ASSERT_EQ(run(quoted(runtime) + " --list-targets", &list), 0);
    EXPECT_NE(list.find("emulator"), std::string::npos) << list;

    // "Beside": a runtime in the program's own directory comes first.
    fs::path flat = prefix / "flat";
    fs::create_directories(flat);
    fs::copy_file(ZYX_TEST_FIND_RUNTIME_HELPER, flat / "tt_find_runtime");
    fs::copy_file(runtime, flat / "zyx-tt-runtime");
    ASSERT_EQ(run(quoted(flat / "tt_find_runtime"), &out), 0) << out;
    EXPECT_EQ(fs::path(out), flat / "zyx-tt-runtime");
    fs::remove_all(prefix);
}
