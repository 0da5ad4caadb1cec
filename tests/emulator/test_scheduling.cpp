// Scheduling contract of the emulator (emulator/README.md, "Schedules" and "Determinism"):
// polling loops make progress on any number of worker threads, a loop polling for a value nobody
// writes is reported instead of hanging, seeded runs reproduce whatever `threads` says, and a
// DRAM write race between cores is an error (the race check's other cases: test_races.cpp).
#include <map>
#include <set>

#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

const CoreRangeSet kTwoCores{CoreRange{{0, 0}, {1, 0}}};

// Core (0,0) spins on its semaphore the tt-metal way until core (1,0) increments it over the NoC
// (audit probe spin2.cpp); then it writes the value it saw to DRAM.
ProgramSpec spin_program() {
    ProgramSpec s;
    s.cbs = {cb(0, 1, kTwoCores, DataFormat::Float16_b, 64)};
    s.semaphores = {{kTwoCores, 0}};
    s.kernels = {dm0("flag", R"(
void kernel_main() {
    volatile uint32_t* sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(0));
    if (get_absolute_logical_x() == 0) {
        while (*sem != 1) invalidate_l1_cache();
        uint32_t l1 = get_write_ptr(0);
        *reinterpret_cast<volatile uint32_t*>(l1) = *sem + 41;
        noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
        noc_async_write_barrier();
    } else {
        noc_semaphore_inc(get_noc_addr(my_x[noc_index] - 1, my_y[noc_index], get_semaphore(0)), 1);
        noc_async_atomic_barrier();
    }
})",
                     kTwoCores)};
    return s;
}

void run_spin(const DeviceOptions& o, const std::string& what) {
    Device dev(preset("wormhole-n150"), o);
    auto out = dev.buffer_create(64, 64);
    auto p = dev.program_create(spin_program());
    dev.program_set_runtime_args(p, 0, {0, 0}, {out.address});
    dev.program_set_runtime_args(p, 0, {1, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << what << ": " << err->what();
    uint32_t v = 0;
    dev.buffer_read(out.id, &v, 4);
    EXPECT_EQ(v, 42u) << what;
}

}  // namespace

TEST(EmuSpin, InvalidateL1CacheLetsTheWriterRunOnOneThread) {
    for (unsigned threads : {1u, 2u}) {
        DeviceOptions o;
        o.threads = threads;
        run_spin(o, "threads " + std::to_string(threads));
    }
}

TEST(EmuSpin, InvalidateL1CacheUnderSeeds) {
    for (uint64_t seed : {1ull, 2ull, 3ull, 7ull}) {
        DeviceOptions o;
        o.schedule_seed = seed;
        run_spin(o, "seed " + std::to_string(seed));
        o.threads = 2;
        run_spin(o, "seed " + std::to_string(seed) + ", threads 2");
    }
}

TEST(EmuSpin, SpinForAValueNobodyWritesIsReported) {
    for (unsigned threads : {1u, 2u}) {
        DeviceOptions o;
        o.threads = threads;
        Device dev(preset("wormhole-n150"), o);
        ProgramSpec s;
        s.semaphores = {{kTwoCores, 0}};
        s.cbs = {cb(0, 1, kTwoCores)};
        // Core (0,0) spins for 1 in its semaphore; core (1,0) waits for a page nobody pushes.
        s.kernels = {
            dm0("spinner", R"(
void kernel_main() {
    if (get_absolute_logical_x() != 0) return;
    volatile uint32_t* sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(0));
    while (*sem != 1) invalidate_l1_cache();
})",
                kTwoCores),
            dm1("stuck", "void kernel_main() { if (get_absolute_logical_x() == 1) cb_wait_front(0, 1); }", kTwoCores)};
        auto err = run(dev, dev.program_create(s));
        ASSERT_TRUE(err) << "threads " << threads;
        expect_check(
            *err, ErrorStatus::Deadlock, {"spinner", "(0,0)", "BRISC", "spinning on L1 (invalidate_l1_cache)"},
            {"deadlock: every kernel of program", "blocked or spinning",
             "core (1,0) NCRISC [stuck]: cb_wait_front(cb 0, need 1, have 0)", "core (1,0) BRISC [spinner]: finished"});
    }
}

TEST(EmuSpin, PollingACircularBufferNobodyFillsIsReported) {
    Device dev(preset("wormhole-n150"));
    ProgramSpec s;
    s.cbs = {cb(3, 2, one_core())};
    s.kernels = {dm0("poller", "void kernel_main() { while (!cb_pages_available_at_front(3, 1)) {} }", one_core())};
    auto err = run(dev, dev.program_create(s));
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::Deadlock,
                 {"poller", "(0,0)", "BRISC", "spinning on cb_pages_available_at_front(cb 3, 1), have 0"});
}

TEST(EmuSpin, PingPongThroughPlainL1StoresCompletes) {
    // BRISC and NCRISC of one core hand a counter back and forth through plain L1 stores, each
    // polling with invalidate_l1_cache: no CB, semaphore or NoC event, yet progress every round
    // (well below the watchdog's stretch).
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 64)};
    const char* src = R"(
void kernel_main() {
    volatile uint32_t* turn = reinterpret_cast<volatile uint32_t*>(get_write_ptr(0));
    const uint32_t me = get_compile_time_arg_val(0);
    for (uint32_t round = 0; round < 500; ++round) {
        while (*turn % 2 != me) invalidate_l1_cache();
        *turn = *turn + 1;
    }
    if (me == 1) {
        while (*turn != 1000) invalidate_l1_cache();
        noc_async_write(get_write_ptr(0), get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
        noc_async_write_barrier();
    }
})";
    s.kernels = {dm0("even", src, one_core(), {0}), dm1("odd", src, one_core(), {1})};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 1, {0, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    uint32_t v = 0;
    dev.buffer_read(out.id, &v, 4);
    EXPECT_EQ(v, 1000u);
}

// ---- determinism ------------------------------------------------------------------------------
namespace {

// A racy program: 15 cores each write their id into core (0,0)'s L1 word after a busy loop of
// their own length and bump its semaphore; core (0,0) then stores the word it holds (the last
// writer's id) to DRAM. The race check would fail the launch (RacyL1WritesAreReported), so it is
// off here: the subject is what a racy program computes.
uint32_t last_writer(DeviceOptions o) {
    o.check_races = false;
    Device dev(preset("wormhole-n150"), o);
    auto out = dev.buffer_create(64, 64);
    CoreRangeSet cores{CoreRange{{0, 0}, {7, 1}}};
    ProgramSpec s;
    s.cbs = {cb(0, 1, cores, DataFormat::Float16_b, 64)};
    s.semaphores = {{cores, 0}};
    s.kernels = {dm0("l1_race", R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(0);
    uint32_t id = get_absolute_logical_y() * 8 + get_absolute_logical_x();
    if (id == 0) {
        noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(get_semaphore(0)), 15);
        noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
        noc_async_write_barrier();
        return;
    }
    for (volatile uint32_t i = 0; i < 3000 * (id % 7); ++i) {}
    *reinterpret_cast<volatile uint32_t*>(l1) = id;
    uint32_t x0 = get_arg_val<uint32_t>(1), y0 = get_arg_val<uint32_t>(2);
    noc_async_write(l1, get_noc_addr(x0, y0, l1), 64);
    noc_async_write_barrier();
    noc_semaphore_inc(get_noc_addr(x0, y0, get_semaphore(0)), 1);
    noc_async_atomic_barrier();
})",
                     cores)};
    auto p = dev.program_create(s);
    CoreCoord c0 = dev.worker_core({0, 0});
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 8; ++x) dev.program_set_runtime_args(p, 0, {x, y}, {out.address, c0.x, c0.y});
    auto err = run(dev, p);
    EXPECT_FALSE(err) << err->what();
    uint32_t v = 0;
    dev.buffer_read(out.id, &v, 4);
    return v;
}

}  // namespace

TEST(EmuDeterminism, SeededRunReproducesWhateverThreadsSays) {
    std::set<uint32_t> across_seeds;
    for (uint64_t seed : {1ull, 2ull, 3ull, 4ull, 5ull, 6ull}) {
        DeviceOptions o;
        o.schedule_seed = seed;
        const uint32_t first = last_writer(o);
        EXPECT_GE(first, 1u);
        EXPECT_LE(first, 15u);
        across_seeds.insert(first);
        for (unsigned threads : {2u, 4u, 2u, 4u, 2u}) {
            o.threads = threads;
            EXPECT_EQ(last_writer(o), first) << "seed " << seed << ", threads " << threads;
        }
    }
    // The seed does choose the schedule: the racy result is not the same under every seed.
    EXPECT_GE(across_seeds.size(), 2u);
}

TEST(EmuDeterminism, DramWriteRaceBetweenCoresIsAnError) {
    // Audit probe race.cpp, on 8 cores: every core writes its id into page 0 of one buffer.
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(4 * 64, 64);
    CoreRangeSet row{CoreRange{{0, 0}, {7, 0}}};
    ProgramSpec s;
    s.cbs = {cb(0, 1, row, DataFormat::Float16_b, 64)};
    s.kernels = {dm0("racy", R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(0);
    *reinterpret_cast<volatile uint32_t*>(l1) = get_absolute_logical_x();
    noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
    noc_async_write_barrier();
})",
                     row)};
    auto p = dev.program_create(s);
    for (uint32_t x = 0; x < 8; ++x) dev.program_set_runtime_args(p, 0, {x, 0}, {out.address});
    for (int rep = 0; rep < 2; ++rep) {  // the same report every time, whichever core wrote last
        auto err = run(dev, p);
        ASSERT_TRUE(err);
        // The first two cores writing the same bytes, in core order, whichever landed last.
        expect_check(
            *err, ErrorStatus::KernelFault,
            {"racy", "(0,0)", "BRISC", "(buffer " + std::to_string(out.id) + ", page 0 byte 0 to page 0 byte 63)"},
            {"kernel 'racy' on core (0,0) BRISC: writes (noc_async_write) DRAM bank 0 bytes " + hex(out.address) +
                 " … " + hex(out.address + 63),
             "and kernel 'racy' on core (1,0) BRISC writes (noc_async_write) the same bytes", "no semaphore ordering",
             "depends on timing"});
    }
}

TEST(EmuDeterminism, DisjointDramWritesOfSeveralCoresAreFine) {
    // Two cores write the two halves of one page, a third the next page twice (one core may
    // overwrite its own bytes): no race.
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(2 * 64, 64);
    CoreRangeSet row{CoreRange{{0, 0}, {2, 0}}};
    ProgramSpec s;
    s.cbs = {cb(0, 1, row, DataFormat::Float16_b, 64)};
    s.kernels = {dm0("halves", R"(
void kernel_main() {
    uint32_t x = get_absolute_logical_x();
    uint32_t l1 = get_write_ptr(0);
    for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = 100 + x;
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 64};
    if (x < 2) {
        noc_async_write(l1 + 32 * x, get_noc_addr(0, g) + 32 * x, 32);
    } else {
        noc_async_write(l1, get_noc_addr(1, g), 64);
        noc_async_write_barrier();
        noc_async_write(l1, get_noc_addr(1, g), 64);
    }
    noc_async_write_barrier();
})",
                     row)};
    auto p = dev.program_create(s);
    for (uint32_t x = 0; x < 3; ++x) dev.program_set_runtime_args(p, 0, {x, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint32_t> v(32);
    dev.buffer_read(out.id, v.data(), 128);
    EXPECT_EQ(v[0], 100u);
    EXPECT_EQ(v[8], 101u);
    EXPECT_EQ(v[16], 102u);
}

TEST(EmuDeterminism, SeveralFaultsReportTheLowestCoreAndProcessor) {
    // Every NCRISC of a row faults, and the BRISCs of cores x >= 4. Core (0,0)'s NCRISC, the lowest
    // (core, processor) that faults, does so last: it first waits for a semaphore that core (1,0)'s
    // BRISC increments. Whichever fault happens first in time, the error names (0,0) NCRISC.
    CoreRangeSet row{CoreRange{{0, 0}, {7, 0}}};
    ProgramSpec s;
    s.semaphores = {{row, 0}};
    s.kernels = {dm0("br", R"(
void kernel_main() {
    uint32_t x = get_absolute_logical_x();
    if (x == 1) {
        noc_semaphore_inc(get_noc_addr(my_x[noc_index] - 1, my_y[noc_index], get_semaphore(0)), 1);
        noc_async_atomic_barrier();
    }
    ASSERT(x < 4, "brisc fault");
})",
                     row),
                 dm1("nc", R"(
void kernel_main() {
    if (get_absolute_logical_x() == 0) noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(get_semaphore(0)), 1);
    ASSERT(false, "ncrisc fault");
})",
                     row)};
    std::set<std::string> seen;
    for (unsigned threads : {1u, 2u, 3u, 4u}) {
        DeviceOptions options;
        options.threads = threads;
        Device dev(preset("wormhole-n150"), options);
        auto p = dev.program_create(s);
        for (int rep = 0; rep < 10; ++rep) {
            auto err = run(dev, p);
            ASSERT_TRUE(err);
            seen.insert(err->message());
            expect_check(*err, ErrorStatus::KernelFault, {"nc", "(0,0)", "NCRISC", "failed at line"}, {"ncrisc fault"});
        }
    }
    EXPECT_EQ(seen.size(), 1u);
}
