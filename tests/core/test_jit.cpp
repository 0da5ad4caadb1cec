#include <gtest/gtest.h>
#include <unistd.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "jit/jit.hpp"

namespace fs = std::filesystem;
using namespace zyx;

namespace {
// Each test gets its own empty cache directory.
struct TempCache {
    fs::path dir;
    TempCache() {
        dir = fs::temp_directory_path() /
            ("zyx-jit-test-" + std::to_string(::getpid()) + "-" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir);
        ::setenv("ZYX_CACHE_DIR", dir.c_str(), 1);
    }
    ~TempCache() {
        ::unsetenv("ZYX_CACHE_DIR");
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

jit::CompileOptions opts(const std::string& salt) {
    jit::CompileOptions o;
    o.kind = "test";
    o.name = "answer";
    o.flags = {"-O1"};
    o.salt = salt;
    return o;
}
}  // namespace

TEST(Jit, CompilesLoadsAndCaches) {
    TempCache cache;
    std::string src = "extern \"C\" int answer(int x) { return x * 6; }\n";
    auto o = opts("a" + std::to_string(::getpid()));
    fs::path so = jit::compile_shared(src, o);
    ASSERT_TRUE(fs::exists(so));
    EXPECT_EQ(so.parent_path(), cache.dir / "jit" / "test");
    EXPECT_TRUE(fs::exists(fs::path(so).replace_extension(".cpp")));
    jit::Library lib(so);
    auto fn = reinterpret_cast<int (*)(int)>(lib.symbol("answer"));
    ASSERT_NE(fn, nullptr);
    EXPECT_EQ(fn(7), 42);
    EXPECT_EQ(lib.symbol("no_such_symbol"), nullptr);

    auto mtime = fs::last_write_time(so);
    EXPECT_EQ(jit::compile_shared(src, o), so);  // second call: same object, not rebuilt
    EXPECT_EQ(fs::last_write_time(so), mtime);
}

TEST(Jit, KeyDependsOnSourceFlagsAndSalt) {
    std::string src = "int f() { return 1; }";
    auto a = opts("x");
    auto b = opts("y");
    auto c = opts("x");
    c.flags.push_back("-DFOO");
    EXPECT_NE(jit::cache_key(src, a), jit::cache_key(src, b));
    EXPECT_NE(jit::cache_key(src, a), jit::cache_key(src, c));
    EXPECT_NE(jit::cache_key(src, a), jit::cache_key(src + " ", a));
    EXPECT_EQ(jit::cache_key(src, a), jit::cache_key(src, opts("x")));
}

TEST(Jit, CompileErrorCarriesCompilerMessage) {
    TempCache cache;
    try {
        jit::compile_shared("int broken( { return undeclared_name; }", opts("err"));
        FAIL() << "expected a compile error";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::KernelCompilation);
        EXPECT_NE(e.message().find("answer"), std::string::npos);  // names the kernel
        EXPECT_NE(e.message().find("error"), std::string::npos);   // the compiler's own words
    }
    // nothing half-written is left in the cache
    for (auto& entry : fs::recursive_directory_iterator(cache.dir))
        if (entry.is_regular_file()) { EXPECT_EQ(entry.path().extension(), ".cpp") << entry.path(); }
}

TEST(Jit, ConcurrentProcessesShareOneCacheEntry) {
    TempCache cache;
    std::string src = "extern \"C\" int shared_fn() { return 99; }\n";
    auto o = opts("race" + std::to_string(::getpid()));
    std::vector<pid_t> kids;
    for (int i = 0; i < 3; ++i) {
        pid_t pid = ::fork();
        if (pid == 0) {
            try {
                jit::Library lib(jit::compile_shared(src, o));
                auto fn = reinterpret_cast<int (*)()>(lib.symbol("shared_fn"));
                ::_exit(fn && fn() == 99 ? 0 : 1);
            } catch (...) { ::_exit(2); }
        }
        kids.push_back(pid);
    }
    for (pid_t pid : kids) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    int objects = 0;
    for (auto& entry : fs::recursive_directory_iterator(cache.dir)) {
        EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
        objects += entry.path().extension() == ".so";
    }
    EXPECT_EQ(objects, 1);
}
