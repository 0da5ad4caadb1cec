// The Tenstorrent backend client (TTDevice, TTMemoryPool) against a real zyx-tt-runtime.
#include <gtest/gtest.h>

#include <signal.h>

#include <numeric>
#include <random>

#include "backend/tenstorrent/memory_pool.hpp"
#include "backend/tenstorrent/runtime_client.hpp"
#include "kernel/kernel.hpp"
#include "runtime_test_util.hpp"

using namespace zyx;
using namespace zyx::tt;
using backend::BufferId;

namespace {

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    std::mt19937 g(seed);
    for (auto& b : v) b = uint8_t(g());
    return v;
}

template <class F>
void expect_status(ErrorStatus st, const std::string& fragment, F&& f) {
    try {
        f();
        FAIL() << "no error; expected " << error_status_name(st);
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), st) << e.what();
        EXPECT_NE(e.message().find(fragment), std::string::npos)
            << "message '" << e.message() << "' lacks '" << fragment << "'";
    }
}

}  // namespace

TEST(Client, DeviceInfoComesFromTheRuntime) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET(
        "checks the emulator target's device name");
    auto dev = TTDevice::open(test::open_options("info"));
    const auto& info = dev->info();
    EXPECT_EQ(info.name, "tt:0 (emulator, wormhole-n150)");
    ASSERT_EQ(info.max_grid.size(), 2u);
    EXPECT_EQ(info.max_grid[0], 8u);
    EXPECT_EQ(info.max_grid[1], 8u);
    EXPECT_EQ(info.local_memory_bytes, 1499136u - 0x10000u);  // L1 above the reserved area: what CBs may use
    EXPECT_TRUE(info.dtype_supported[int(DType::bf16)]);
    EXPECT_TRUE(info.dtype_supported[int(DType::f32)]);
    EXPECT_FALSE(info.dtype_supported[int(DType::f64)]);
    EXPECT_FALSE(info.dtype_supported[int(DType::i64)]);
    EXPECT_EQ(dev->pool().free_bytes(), 12ull << 30);
    EXPECT_EQ(dev->pool().name(), "tt:0");
}

TEST(Client, BlackholePresetFromConfig) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("the preset is the emulator target's option (--preset)");
    auto o = test::open_options("bh");
    o.config->emulator_preset = "blackhole-p150";
    auto dev = TTDevice::open(o);
    EXPECT_EQ(dev->device_desc().arch, "blackhole");
    EXPECT_EQ(dev->device_desc().num_cbs, 64u);
    EXPECT_NE(dev->info().name.find("blackhole-p150"), std::string::npos);
}

TEST(Client, UnknownPresetIsAnInitializationErrorWithTheRuntimesReason) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("the preset is the emulator target's option (--preset)");
    auto o = test::open_options("badpreset");
    o.config->emulator_preset = "wormhole-n999";
    expect_status(ErrorStatus::InvalidArgument, "wormhole-n999", [&] { TTDevice::open(o); });
}

TEST(Client, WriteReadRoundTripsAtManySizes) {
    auto o = test::open_options("rw");
    o.transfer_chunk_bytes = 64 << 10;  // many chunks: exercises the pipelined path
    o.arena_max_bytes = 256 << 10;      // and reuse of arena slots
    auto dev = TTDevice::open(o);
    auto& pool = dev->tt_pool();
    for (size_t n : {size_t(1), size_t(3), size_t(4096), size_t(5000), size_t(1 << 20) + 17}) {
        auto src = random_bytes(n, uint32_t(n));
        BufferId b = pool.allocate(n);
        pool.host_to_pool(src.data(), n, b, {});
        std::vector<uint8_t> back(n, 0xEE);
        pool.pool_to_host(b, back.data(), n, {});
        EXPECT_EQ(back, src) << "size " << n;
        pool.release(b);
    }
    // A short transfer into a larger buffer touches only its prefix.
    BufferId b = pool.allocate(8192);
    auto full = random_bytes(8192, 1), part = random_bytes(100, 2);
    pool.host_to_pool(full.data(), 8192, b, {});
    pool.host_to_pool(part.data(), 100, b, {});
    std::vector<uint8_t> back(8192);
    pool.pool_to_host(b, back.data(), 8192, {});
    std::copy(part.begin(), part.end(), full.begin());
    EXPECT_EQ(back, full);
}

TEST(Client, PoolToPoolWithinTheDevice) {
    auto dev = TTDevice::open(test::open_options("p2p"));
    auto& pool = dev->tt_pool();
    auto src = random_bytes(10000, 5);
    BufferId a = pool.allocate(10000), b = pool.allocate(10000);
    pool.host_to_pool(src.data(), src.size(), a, {});
    pool.pool_to_pool(pool, a, b, 10000, {});
    std::vector<uint8_t> back(10000);
    pool.pool_to_host(b, back.data(), back.size(), {});
    EXPECT_EQ(back, src);
    expect_status(ErrorStatus::MemoryCopyH2P, "exceed buffer", [&] { pool.pool_to_pool(pool, a, b, 20000, {}); });
}

TEST(Client, AllocationChecksAndTheBufferCache) {
    auto dev = TTDevice::open(test::open_options("alloc"));
    auto& pool = dev->tt_pool();
    const uint64_t total = pool.free_bytes();
    expect_status(ErrorStatus::MemoryAllocation, "0 bytes", [&] { pool.allocate(0); });
    expect_status(ErrorStatus::MemoryAllocation, "bytes free", [&] { pool.allocate(total + 1); });

    BufferId a = pool.allocate(10000);  // 3 pages of 4096, laid over 12 banks: one page slot in each
    EXPECT_EQ(pool.free_bytes(), total - 12 * 4096);
    EXPECT_EQ(pool.buffer_bytes(a), 10000u);
    pool.release(a);
    EXPECT_EQ(pool.free_bytes(), total);
    PoolStats s = pool.stats();
    EXPECT_EQ(s.cached_buffers, 1u);
    EXPECT_EQ(s.cache_misses, 1u);
    // Same page-rounded size: served from the cache, no new device buffer.
    BufferId b = pool.allocate(12000);
    s = pool.stats();
    EXPECT_EQ(s.cache_hits, 1u);
    EXPECT_EQ(s.cached_buffers, 0u);
    nlohmann::json st = dev->client().call([] {
        protocol::Request r;
        r.cmd = protocol::Command::stats;
        return r;
    }());
    EXPECT_EQ(st["buffers"], 1) << "the cached buffer was reused, not a second one allocated";
    // A different size misses.
    BufferId c = pool.allocate(100000);
    EXPECT_EQ(pool.stats().cache_misses, 2u);
    pool.release(b);
    pool.release(c);
    pool.trim_cache();
    st = dev->client().call([] {
        protocol::Request r;
        r.cmd = protocol::Command::stats;
        return r;
    }());
    EXPECT_EQ(st["buffers"], 0) << "trim_cache frees the device buffers";
}

// free_bytes() counts DRAM as the device spends it: every buffer is laid over all banks, each
// bank holding ceil(pages / banks) slots of the page rounded up to the DRAM alignment. It must
// agree with the runtime's own count (stats: dram_bytes_allocated) at every step.
namespace {
uint64_t device_allocated(RuntimeClient& c) {
    protocol::Request r;
    r.cmd = protocol::Command::stats;
    return c.call(r)["dram_bytes_allocated"].get<uint64_t>();
}
}  // namespace

TEST(Client, FreeBytesCountWhatTheDeviceSpends) {
    auto dev = TTDevice::open(test::open_options("devbytes"));
    auto& pool = dev->tt_pool();
    const uint64_t dram = dev->device_desc().dram_bytes;
    std::vector<BufferId> bufs;
    for (int i = 0; i < 103; ++i) bufs.push_back(pool.allocate(4096));
    // The audit's case: 103 buffers of 4 KiB cost 103 x 12 banks x 4096 on a Wormhole n150.
    EXPECT_EQ(device_allocated(dev->client()), 5062656u);
    EXPECT_EQ(pool.free_bytes(), dram - 5062656u);
    for (uint64_t n :
         {uint64_t(1), uint64_t(5000), uint64_t(12 * 4096 + 1), uint64_t(1 << 20) + 3, uint64_t(7) << 20}) {
        bufs.push_back(pool.allocate(n));
        EXPECT_EQ(pool.free_bytes(), dram - device_allocated(dev->client())) << "after allocating " << n << " bytes";
    }
    // Released buffers stay on the device in the cache: free_bytes() counts them as free, the
    // device as allocated, until the cache is trimmed.
    for (size_t i = 0; i < bufs.size(); i += 2) pool.release(bufs[i]);
    PoolStats st = pool.stats();
    EXPECT_GT(st.cached_bytes, 0u);
    EXPECT_EQ(pool.free_bytes(), dram - (device_allocated(dev->client()) - st.cached_bytes));
    pool.trim_cache();
    EXPECT_EQ(pool.free_bytes(), dram - device_allocated(dev->client()));
    EXPECT_EQ(pool.stats().live_bytes, device_allocated(dev->client()));
}

TEST(Client, FreeBytesFollowTheBankCountAndAlignmentOfTheDevice) {
    // Blackhole p100a: 7 banks, 64-byte DRAM alignment. A pool of 1000-byte pages spends
    // 1024-byte slots.
    RuntimeClientOptions ro;
    ro.executable = test::runtime_path();
    ro.args = {"--preset", "blackhole-p100a", "--lock-dir", test::temp_dir("free-bytes").string()};  // private lock
    auto client = std::make_shared<RuntimeClient>(ro);
    client->start();
    const protocol::DeviceDesc d = client->device();
    ASSERT_EQ(d.dram_banks, 7u);
    ASSERT_EQ(d.dram_alignment, 64u);
    TTMemoryPool pool(client, "tt:bh", 1000);
    EXPECT_EQ(pool.device_bytes(1), 7u * 1024);
    EXPECT_EQ(pool.device_bytes(7000), 7u * 1024);
    EXPECT_EQ(pool.device_bytes(7001), 2u * 7 * 1024);
    std::vector<BufferId> bufs;
    for (uint64_t n : {uint64_t(1), uint64_t(7001), uint64_t(123456), uint64_t(999999)}) {
        bufs.push_back(pool.allocate(n));
        EXPECT_EQ(pool.free_bytes(), d.dram_bytes - device_allocated(*client)) << "after allocating " << n << " bytes";
    }
    for (BufferId b : bufs) pool.release(b);
    pool.trim_cache();
    EXPECT_EQ(device_allocated(*client), 0u);
    EXPECT_EQ(pool.free_bytes(), d.dram_bytes);
}

TEST(Client, ReferenceCountsAreChecked) {
    auto dev = TTDevice::open(test::open_options("rc"));
    auto& pool = dev->tt_pool();
    BufferId a = pool.allocate(64);
    pool.retain(a);
    pool.release(a);
    auto src = random_bytes(64, 9);
    pool.host_to_pool(src.data(), 64, a, {});  // still alive: one reference left
    pool.release(a);
    expect_status(ErrorStatus::MemoryDeallocation, "release of unknown buffer", [&] { pool.release(a); });
    expect_status(ErrorStatus::MemoryDeallocation, "retain of unknown buffer", [&] { pool.retain(777); });
    expect_status(ErrorStatus::MemoryCopyH2P, "unknown buffer", [&] { pool.host_to_pool(src.data(), 64, a, {}); });
}

TEST(Client, TransfersLargerThanTheBufferAreRefused) {
    auto dev = TTDevice::open(test::open_options("oversize"));
    auto& pool = dev->tt_pool();
    BufferId a = pool.allocate(100);
    std::vector<uint8_t> big(200, 1);
    expect_status(ErrorStatus::MemoryCopyH2P, "do not fit buffer", [&] { pool.host_to_pool(big.data(), 200, a, {}); });
    expect_status(ErrorStatus::MemoryCopyP2H, "of 100 bytes", [&] { pool.pool_to_host(a, big.data(), 200, {}); });
}

TEST(Client, KernelIrIsNotSupportedYet) {
    auto dev = TTDevice::open(test::open_options("unsup"));
    kernel::Kernel k;
    k.shape = {1024};
    EXPECT_FALSE(dev->supports(k));
    expect_status(ErrorStatus::Unsupported, "Unsupported: tt:0", [&] { dev->compile(k); });
}

TEST(Client, LaunchArgumentsAreChecked) {
    auto dev = TTDevice::open(test::open_options("launch"));
    expect_status(ErrorStatus::KernelLaunch, "unknown program 3", [&] { dev->launch(3, {}, {}, {}); });
    expect_status(ErrorStatus::KernelLaunch, "unknown program 3", [&] { dev->release(3); });
    protocol::Program p;
    p.grid = {9, 9};
    p.kernels.push_back({"reader", protocol::KernelKind::data_movement_0, "void kernel_main() {}", {}, {}, {}, {}});
    expect_status(ErrorStatus::InvalidArgument, "exceeds the device grid 8x8", [&] { dev->compile_program(p); });
}

TEST(Client, TwoClientsOnOneDevice) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("opens device id 1; the tt-metal compat layer emulates one chip (id 0)");
    auto o = test::open_options("two");
    auto first = TTDevice::open(o);
    expect_status(ErrorStatus::DeviceBusy, "in use by process " + std::to_string(::getpid()),
                  [&] { TTDevice::open(o); });
    auto other = o;
    other.device_id = 1;
    auto second = TTDevice::open(other);  // another device id is free
    first.reset();
    auto again = TTDevice::open(o);  // closing the first frees device 0
    EXPECT_NE(again->client().pid(), second->client().pid());
}

// End to end through the emulator: every runtime-arg source of the layout arrives on every core
// of the grid. The kernel copies its 13 argument words into the output buffer's page core_index.
TEST(Client, RuntimeArgLayoutReachesEveryCore) {
    auto dev = TTDevice::open(test::open_options("layout"));
    auto& pool = dev->tt_pool();
    using protocol::ArgSource;
    protocol::Program p;
    p.grid = {2, 3};
    p.num_inputs = 1;
    p.num_outputs = 1;
    p.num_scalars = 1;
    p.cbs = {{0, protocol::DataFormat::UInt32, 64, 1}};
    protocol::Kernel k;
    k.name = "args_to_dram";
    k.kind = protocol::KernelKind::data_movement_0;
    k.source = R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);  // CB 0 used as plain L1 scratch
    volatile uint32_t* words = reinterpret_cast<volatile uint32_t*>(l1);
    for (uint32_t i = 0; i < 13; ++i) words[i] = get_arg_val<uint32_t>(i);
    words[13] = words[14] = words[15] = 0;
    InterleavedAddrGen<true> out{get_arg_val<uint32_t>(4), 4096};
    noc_async_write(l1, get_noc_addr(get_arg_val<uint32_t>(9), out), 64);
    noc_async_write_barrier();
}
)";
    k.runtime_args = {{ArgSource::literal, 0xABCD},
                      {ArgSource::input_address, 0},
                      {ArgSource::input_pages, 0},
                      {ArgSource::input_bytes, 0},
                      {ArgSource::output_address, 0},
                      {ArgSource::output_pages, 0},
                      {ArgSource::scalar, 0},
                      {ArgSource::core_x},
                      {ArgSource::core_y},
                      {ArgSource::core_index},
                      {ArgSource::num_cores},
                      {ArgSource::grid_rows},
                      {ArgSource::grid_cols}};
    p.kernels = {k};
    backend::ProgramId prog = dev->compile_program(p);

    BufferId in = pool.allocate(5000);  // 2 pages of 4096 once rounded
    BufferId out = pool.allocate(6 * 4096);
    std::vector<uint8_t> fill(6 * 4096, 0xFF);
    pool.host_to_pool(fill.data(), fill.size(), out, {});
    std::vector<BufferId> bufs{in, out};
    std::vector<backend::Scalar> scalars{{DType::u32, 0xDEADBEEF}};
    dev->launch(prog, bufs, scalars, {});

    std::vector<uint32_t> got(6 * 1024);
    pool.pool_to_host(out, got.data(), 6 * 4096, {});
    uint32_t in_addr = got[1];
    for (uint32_t y = 0; y < 2; ++y) {
        for (uint32_t x = 0; x < 3; ++x) {
            uint32_t c = y * 3 + x;
            const uint32_t* w = &got[c * 1024];
            std::vector<uint32_t> want{0xABCD, in_addr, 2, 8192, w[4], 6, 0xDEADBEEF, x, y, c, 6, 2, 3};
            EXPECT_EQ(std::vector<uint32_t>(w, w + 13), want) << "core (" << x << "," << y << ")";
            EXPECT_NE(w[4], in_addr) << "input and output addresses differ";
        }
    }

    // Another grid: a new instance of the same program, only its cores run.
    std::vector<uint8_t> fill2(6 * 4096, 0xFF);
    pool.host_to_pool(fill2.data(), fill2.size(), out, {});
    dev->launch_on(prog, bufs, scalars, {1, 2});
    pool.pool_to_host(out, got.data(), 6 * 4096, {});
    EXPECT_EQ(got[0 * 1024 + 10], 2u) << "num_cores of the 1x2 launch";
    EXPECT_EQ(got[1 * 1024 + 7], 1u) << "core (1,0) ran";
    EXPECT_EQ(got[2 * 1024], 0xFFFFFFFFu) << "core index 2 is outside the 1x2 grid";
    nlohmann::json st = dev->client().call([] {
        protocol::Request r;
        r.cmd = protocol::Command::stats;
        return r;
    }());
    EXPECT_EQ(st["compiles"], 1) << "a new grid must not recompile";
    EXPECT_EQ(st["program_instances"], 2);
    EXPECT_EQ(st["launches"], 2);

    // Argument checks on the client side.
    expect_status(ErrorStatus::KernelLaunch, "takes 1 inputs and 1 outputs, got 1 buffers",
                  [&] { dev->launch(prog, std::vector<BufferId>{in}, scalars, {}); });
    expect_status(ErrorStatus::KernelLaunch, "takes 1 scalars, got 0", [&] { dev->launch(prog, bufs, {}, {}); });
    std::vector<backend::Scalar> wide{{DType::f64, 0}};
    expect_status(ErrorStatus::Unsupported, "Unsupported:", [&] { dev->launch(prog, bufs, wide, {}); });
    expect_status(ErrorStatus::KernelLaunch, "exceeds the device grid", [&] {
        dev->launch_on(prog, bufs, scalars, {9, 1});
    });
    // Compiling the same description again hits the runtime's content cache.
    backend::ProgramId again = dev->compile_program(p);
    st = dev->client().call([] {
        protocol::Request r;
        r.cmd = protocol::Command::stats;
        return r;
    }());
    EXPECT_EQ(st["compile_cache_hits"], 1);
    dev->release(again);
    dev->launch(prog, bufs, scalars, {});  // still alive: it had two references
    dev->release(prog);
}

// The emulator's race check fails a launch in which two cores write the same DRAM bytes; the
// runtime's --no-race-check turns it off (emulator/README.md "Determinism").
TEST(Client, RacyLaunchFailsUnlessTheRuntimeIsToldNotToCheck) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("--no-race-check is the emulator target's option");
    for (bool check : {true, false}) {
        OpenOptions o = test::open_options(check ? "race-on" : "race-off");
        if (!check) o.runtime_args.push_back("--no-race-check");
        auto dev = TTDevice::open(o);
        auto& pool = dev->tt_pool();
        using protocol::ArgSource;
        protocol::Program p;
        p.grid = {1, 2};
        p.num_outputs = 1;
        p.cbs = {{0, protocol::DataFormat::UInt32, 64, 1}};
        protocol::Kernel k;
        k.name = "both_write_page_0";
        k.kind = protocol::KernelKind::data_movement_0;
        k.source = R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);
    for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = get_arg_val<uint32_t>(1);
    InterleavedAddrGen<true> out{get_arg_val<uint32_t>(0), 4096};
    noc_async_write(l1, get_noc_addr(0, out), 64);
    noc_async_write_barrier();
}
)";
        k.runtime_args = {{ArgSource::output_address, 0}, {ArgSource::core_index}};
        p.kernels = {k};
        backend::ProgramId prog = dev->compile_program(p);
        BufferId out = pool.allocate(4096);
        std::vector<BufferId> bufs{out};
        if (check) {
            expect_status(ErrorStatus::KernelFault, "the same bytes in the same launch with no semaphore ordering",
                          [&] { dev->launch(prog, bufs, {}, {}); });
        } else {
            dev->launch(prog, bufs, {}, {});
            uint32_t w = 7;
            pool.pool_to_host(out, &w, 4, {});
            EXPECT_LT(w, 2u) << "one of the two cores' index";
        }
    }
}

TEST(Client, RunRecompilesItsProgramInAFreshRuntime) {
    auto dev = TTDevice::open(test::open_options("recompile"));
    protocol::Program p;
    p.grid = {1, 1};
    p.kernels.push_back({"reader", protocol::KernelKind::data_movement_0, "void kernel_main() {}", {}, {}, {}, {}});
    backend::ProgramId prog = dev->compile_program(p);
    ::kill(pid_t(dev->client().pid()), SIGKILL);
    try {
        dev->launch(prog, {}, {}, {});  // sees the dead runtime
        ADD_FAILURE() << "a launch on a killed runtime succeeded";
    } catch (const Error& e) { EXPECT_EQ(e.status(), ErrorStatus::RuntimeCrashed) << e.what(); }
    dev->launch(prog, {}, {}, {});  // a fresh runtime compiles it again and runs it
    EXPECT_EQ(dev->client().generation(), 2u);
}
