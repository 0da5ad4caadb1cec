// Faults: a runtime killed in the middle of a request, a hung runtime, a runtime that cannot
// start. The client must notice at once, report clearly, leave host data alone and recover.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <thread>

#include "backend/tenstorrent/memory_pool.hpp"
#include "backend/tenstorrent/runtime_client.hpp"
#include "core/log.hpp"
#include "runtime_test_util.hpp"

using namespace zyx;
using namespace zyx::tt;
using backend::BufferId;
using Clock = std::chrono::steady_clock;

namespace {

bool process_exists(long pid) { return pid > 0 && ::kill(pid_t(pid), 0) == 0; }

struct KillResult {
    ErrorStatus status = ErrorStatus::Internal;
    std::string message;
    double ms_after_kill = -1;
};

// Runs `op` while another thread SIGKILLs the runtime `delay_ms` into it; returns how the call
// failed and how long after the kill.
template <class F>
KillResult kill_during(TTDevice& dev, int delay_ms, F&& op) {
    long pid = dev.client().pid();
    std::atomic<long long> killed_at{0};
    std::thread killer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        killed_at = Clock::now().time_since_epoch().count();
        ::kill(pid_t(pid), SIGKILL);
    });
    KillResult r;
    try {
        op();
        ADD_FAILURE() << "the call survived its runtime being killed";
    } catch (const Error& e) {
        auto now = Clock::now().time_since_epoch().count();
        r.status = e.status();
        r.message = e.message();
        killer.join();
        r.ms_after_kill = double(now - killed_at.load()) / 1e6;
        return r;
    }
    killer.join();
    return r;
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 31 + seed);
    return v;
}

// Options whose runtime sleeps 3 s inside `cmd` (after its checks), and logs to stderr.
OpenOptions delayed(const std::string& tag, const std::string& cmd) {
    auto o = test::open_options(tag);
    o.runtime_args = {"--debug-delay", cmd + "=3000"};
    return o;
}

class Faults : public ::testing::Test {
protected:
    void SetUp() override {
        // The runtime inherits ZYX_DEBUG and logs the debug delay to stderr: that line must come
        // back in the crash report.
        setenv("ZYX_DEBUG", "runtime", 1);
        log_reload_from_env();
    }
    void TearDown() override {
        unsetenv("ZYX_DEBUG");
        log_reload_from_env();
    }
};

}  // namespace

TEST_F(Faults, KilledDuringWriteBuf) {
    auto dev = TTDevice::open(delayed("kill-write", "write_buf"));
    auto& pool = dev->tt_pool();
    BufferId b = pool.allocate(1 << 20);
    const auto src = pattern(1 << 20, 1);
    auto copy = src;
    long old_pid = dev->client().pid();
    KillResult r = kill_during(*dev, 800, [&] { pool.host_to_pool(copy.data(), copy.size(), b, {}); });
    EXPECT_EQ(r.status, ErrorStatus::RuntimeCrashed) << r.message;
    EXPECT_LT(r.ms_after_kill, 1000.0) << "the crash must be noticed at once, not after a timeout";
    EXPECT_NE(r.message.find("pid " + std::to_string(old_pid)), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("killed by signal 9"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("write_buf"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("debug delay of 3000 ms in write_buf"), std::string::npos) << "stderr tail missing:\n"
                                                                                        << r.message;
    EXPECT_EQ(copy, src) << "host data must be unharmed";
    EXPECT_FALSE(process_exists(old_pid)) << "the dead runtime must be reaped";

    // The old buffer is gone with its runtime and says so; new work starts a fresh runtime.
    try {
        pool.pool_to_host(b, copy.data(), 16, {});
        ADD_FAILURE() << "a lost buffer was readable";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::MemoryCopyP2H);
        EXPECT_NE(e.message().find("was lost"), std::string::npos) << e.message();
    }
    BufferId c = pool.allocate(4096);
    EXPECT_NE(dev->client().pid(), old_pid);
    EXPECT_EQ(dev->client().generation(), 2u);
    std::vector<uint8_t> back(4096);
    pool.pool_to_host(c, back.data(), 4096, {});  // (a write would sleep in the debug delay again)
    pool.release(b);                              // releasing a lost buffer is fine
}

TEST_F(Faults, KilledDuringReadBuf) {
    auto dev = TTDevice::open(delayed("kill-read", "read_buf"));
    auto& pool = dev->tt_pool();
    BufferId b = pool.allocate(1 << 16);
    auto src = pattern(1 << 16, 3);
    pool.host_to_pool(src.data(), src.size(), b, {});
    std::vector<uint8_t> dst(1 << 16, 0x5A);
    KillResult r = kill_during(*dev, 800, [&] { pool.pool_to_host(b, dst.data(), dst.size(), {}); });
    EXPECT_EQ(r.status, ErrorStatus::RuntimeCrashed) << r.message;
    EXPECT_LT(r.ms_after_kill, 1000.0);
    EXPECT_NE(r.message.find("read_buf"), std::string::npos) << r.message;
    EXPECT_EQ(dst, std::vector<uint8_t>(1 << 16, 0x5A)) << "the destination must not receive partial data";
    EXPECT_EQ(src, pattern(1 << 16, 3));
}

TEST_F(Faults, KilledDuringRun) {
    auto o = delayed("kill-run", "run");
    auto dev = TTDevice::open(o);
    protocol::Program p;
    p.grid = {1, 1};
    p.kernels.push_back({"reader", protocol::KernelKind::data_movement_0, "void kernel_main() {}", {}, {}, {}, {}});
    backend::ProgramId prog;
    try {
        prog = dev->compile_program(p);
    } catch (const Error& e) {
        if (e.status() == ErrorStatus::Unsupported)
            GTEST_SKIP() << "the emulator does not run programs yet: " << e.message();
        throw;
    }
    KillResult r = kill_during(*dev, 800, [&] { dev->launch(prog, {}, {}, {}); });
    EXPECT_EQ(r.status, ErrorStatus::RuntimeCrashed) << r.message;
    EXPECT_LT(r.ms_after_kill, 1000.0);
    EXPECT_NE(r.message.find("'run'"), std::string::npos) << r.message;
}

TEST_F(Faults, HungRuntimeTimesOutAndIsEnded) {
    auto o = test::open_options("hung");
    o.config->request_timeout_ms = 500;
    auto dev = TTDevice::open(o);
    long pid = dev->client().pid();
    ASSERT_EQ(::kill(pid_t(pid), SIGSTOP), 0);  // a runtime that no longer answers
    auto t0 = Clock::now();
    try {
        dev->pool().allocate(4096);
        ADD_FAILURE() << "a stopped runtime answered";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::Timeout) << e.what();
        EXPECT_NE(e.message().find("within 500 ms; it was ended"), std::string::npos) << e.message();
    }
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    EXPECT_GE(ms, 450.0);
    EXPECT_LT(ms, 3000.0);
    EXPECT_FALSE(process_exists(pid)) << "the hung runtime must be ended and reaped";
    BufferId b = dev->pool().allocate(4096);  // a fresh runtime serves the next call
    EXPECT_NE(dev->client().pid(), pid);
    dev->pool().release(b);
}

TEST_F(Faults, ClientEndsItsRuntimeOnClose) {
    long pid;
    {
        auto dev = TTDevice::open(test::open_options("close"));
        pid = dev->client().pid();
        EXPECT_TRUE(process_exists(pid));
    }
    EXPECT_FALSE(process_exists(pid));
}

TEST_F(Faults, RuntimeThatCannotStart) {
    auto o = test::open_options("nostart");
    o.runtime = "/nonexistent/zyx-tt-runtime";
    try {
        TTDevice::open(o);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::Initialization) << e.what();
        EXPECT_NE(e.message().find("/nonexistent/zyx-tt-runtime"), std::string::npos) << e.message();
    }
    // A program that is not a runtime at all: it exits at once, without a word on stdout.
    o.runtime = "/bin/true";
    try {
        TTDevice::open(o);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::RuntimeCrashed) << e.what();
        EXPECT_NE(e.message().find("exited with status 0"), std::string::npos) << e.message();
    }
}

TEST_F(Faults, SomethingThatIsNotAResponseIsAProtocolError) {
    // A "runtime" that sends our own hello request back: valid JSON, but not a response.
    auto o = test::open_options("garbage");
    o.runtime = test::temp_dir("garbage-exe") / "echo-runtime";
    {
        std::ofstream f(o.runtime);
        f << "#!/bin/sh\nexec cat\n";
    }
    std::filesystem::permissions(o.runtime, std::filesystem::perms::owner_all);
    try {
        TTDevice::open(o);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::Protocol) << e.what();
        EXPECT_NE(e.message().find("not a response: '{\"cmd\":\"hello\""), std::string::npos) << e.message();
    }
}
