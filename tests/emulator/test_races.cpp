// The race check (emulator/README.md, "Determinism"; emulator/src/emu/races.hpp): two cores
// touching the same DRAM or L1 bytes in one launch, one of them writing, fail the launch unless a
// semaphore orders the two; the same programs with the ordering in place run clean.
#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

const CoreRangeSet kTwoCores{CoreRange{{0, 0}, {1, 0}}};

// Core (0,0) writes page 0 of a DRAM buffer; core (1,0) then reads it (and copies what it read
// to page 1). ORDER 0: nothing orders the two. ORDER 1: the writer signals after its write
// barrier and the reader waits first. ORDER 2: the writer signals before it writes (too early).
// ORDER 3: as 1, but core (1,0) writes page 0 itself instead of reading it.
const char* kWriteThenRead = R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 64};
    uint32_t l1 = get_write_ptr(0);
    volatile uint32_t* sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(0));
    uint64_t peer_sem = get_noc_addr(my_x[noc_index] + 1, my_y[noc_index], get_semaphore(0));
    if (get_absolute_logical_x() == 0) {
        for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = 7000 + i;
        if (ORDER == 2) noc_semaphore_inc(peer_sem, 1);
        noc_async_write(l1, get_noc_addr(0, g), 64);
        noc_async_write_barrier();
        if (ORDER == 1 || ORDER == 3) noc_semaphore_inc(peer_sem, 1);
        noc_async_atomic_barrier();
        return;
    }
    if (ORDER != 0) noc_semaphore_wait(sem, 1);
    if (ORDER == 3) {
        for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = 9000 + i;
    } else {
        noc_async_read(get_noc_addr(0, g), l1, 64);
        noc_async_read_barrier();
    }
    noc_async_write(l1, get_noc_addr(ORDER == 3 ? 0 : 1, g), 64);
    noc_async_write_barrier();
}
)";

struct Outcome {
    std::optional<Error> err;
    std::vector<uint32_t> out;  // the buffer's two pages as words
    uint64_t buffer_address = 0;
    uint32_t buffer_id = 0;
};

Outcome write_then_read(int order, bool check_races = true) {
    DeviceOptions o;
    o.check_races = check_races;
    Device dev(preset("wormhole-n150"), o);
    auto out = dev.buffer_create(2 * 64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, kTwoCores, DataFormat::Float16_b, 64)};
    s.semaphores = {{kTwoCores, 0}};
    s.kernels = {dm0("k", "#define ORDER " + std::to_string(order) + "\n" + kWriteThenRead, kTwoCores)};
    auto p = dev.program_create(s);
    for (uint32_t x = 0; x < 2; ++x) dev.program_set_runtime_args(p, 0, {x, 0}, {uint32_t(out.address)});
    Outcome r;
    r.err = run(dev, p);
    r.out.resize(32);
    dev.buffer_read(out.id, r.out.data(), 128);
    r.buffer_address = out.address;
    r.buffer_id = out.id;
    return r;
}

}  // namespace

TEST(EmuRaces, ReadOfBytesAnotherCoreWritesIsReported) {
    Outcome r = write_then_read(0);
    ASSERT_TRUE(r.err);
    expect_check(*r.err, ErrorStatus::KernelFault,
                 {"k", "(0,0)", "BRISC",
                  "DRAM bank 0 bytes " + hex(r.buffer_address) + " … " + hex(r.buffer_address + 63) + " (buffer " +
                      std::to_string(r.buffer_id) + ", page 0 byte 0 to page 0 byte 63)"},
                 {": writes (noc_async_write) DRAM bank 0",
                  "and kernel 'k' on core (1,0) BRISC reads (noc_async_read) the same bytes in the same launch",
                  "no semaphore ordering the two", "noc_semaphore_wait"});
}

TEST(EmuRaces, SemaphoreOrderedWriteThenReadIsFine) {
    Outcome r = write_then_read(1);
    EXPECT_FALSE(r.err) << r.err->what();
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(r.out[16 + i], 7000 + i) << i;  // the reader saw the write
}

TEST(EmuRaces, SignalSentBeforeTheWriteIsReported) {
    Outcome r = write_then_read(2);
    ASSERT_TRUE(r.err);
    expect_check(*r.err, ErrorStatus::KernelFault, {"k", "(0,0)", "BRISC", "(buffer " + std::to_string(r.buffer_id)},
                 {"reads (noc_async_read) the same bytes"});
}

TEST(EmuRaces, SemaphoreOrderedWritesOfTheSameBytesAreFine) {
    Outcome r = write_then_read(3);
    EXPECT_FALSE(r.err) << r.err->what();
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(r.out[i], 9000 + i) << i;  // the second write, ordered, wins
}

TEST(EmuRaces, TheCheckCanBeTurnedOff) {
    Outcome r = write_then_read(0, false);
    EXPECT_FALSE(r.err) << r.err->what();
}

TEST(EmuRaces, PollingWithInvalidateL1CacheAcquires) {
    // The reader polls its semaphore with plain loads, invalidating before each (as Blackhole's
    // L1 cache requires); the polled word is not known, so each poll acquires every word of the
    // core. (A first load that finds the flag set without an invalidate before it is not seen.)
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(2 * 64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, kTwoCores, DataFormat::Float16_b, 64)};
    s.semaphores = {{kTwoCores, 0}};
    s.kernels = {dm0("poll", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 64};
    uint32_t l1 = get_write_ptr(0);
    volatile uint32_t* sem = reinterpret_cast<volatile uint32_t*>(get_semaphore(0));
    if (get_absolute_logical_x() == 0) {
        for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = 500 + i;
        noc_async_write(l1, get_noc_addr(0, g), 64);
        noc_async_write_barrier();
        noc_semaphore_inc(get_noc_addr(my_x[noc_index] + 1, my_y[noc_index], get_semaphore(0)), 1);
        return;
    }
    do invalidate_l1_cache();
    while (*sem != 1);
    noc_async_read(get_noc_addr(0, g), l1, 64);
    noc_async_read_barrier();
    noc_async_write(l1, get_noc_addr(1, g), 64);
    noc_async_write_barrier();
})",
                     kTwoCores)};
    auto p = dev.program_create(s);
    for (uint32_t x = 0; x < 2; ++x) dev.program_set_runtime_args(p, 0, {x, 0}, {uint32_t(out.address)});
    auto err = run(dev, p);
    EXPECT_FALSE(err) << err->what();
    std::vector<uint32_t> v(32);
    dev.buffer_read(out.id, v.data(), 128);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(v[16 + i], 500 + i) << i;
}

namespace {

// Core (0,0) multicasts two rounds of a 64-byte page into CB 0 of cores (1,0)-(3,0) and raises
// their semaphore 1 to the round number with noc_semaphore_set_multicast. Each receiver reserves
// the page, signals "ready" (semaphore 0 of the sender), waits for the round, pushes; its NCRISC
// copies the page to DRAM and pops. The CB has one page, so round 2 overwrites round 1's page.
// HANDSHAKE 1: the sender waits for every receiver's "ready" before each round. HANDSHAKE 0: only
// before the first, so round 2 may overwrite a page a receiver has not consumed yet.
const char* kMulticastSender = R"(
void kernel_main() {
    const uint32_t n = 3;
    volatile uint32_t* ready = reinterpret_cast<volatile uint32_t*>(get_semaphore(0));
    volatile uint32_t* round_word = reinterpret_cast<volatile uint32_t*>(get_semaphore(1));
    uint32_t l1 = get_write_ptr(0);
    uint32_t x = my_x[noc_index], y = my_y[noc_index];
    uint64_t data = get_noc_multicast_addr(x + 1, y, x + 3, y, l1);
    uint64_t flag = get_noc_multicast_addr(x + 1, y, x + 3, y, get_semaphore(1));
    for (uint32_t r = 0; r < 2; ++r) {
        if (HANDSHAKE || r == 0) noc_semaphore_wait_min(ready, n * (r + 1));
        for (uint32_t i = 0; i < 16; ++i) reinterpret_cast<volatile uint32_t*>(l1)[i] = 100 * (r + 1) + i;
        noc_async_write_multicast(l1, data, 64, n);
        noc_async_write_barrier();
        *round_word = r + 1;
        noc_semaphore_set_multicast(get_semaphore(1), flag, n);
        noc_async_write_barrier();
    }
}
)";
const char* kMulticastReceiver = R"(
void kernel_main() {
    uint32_t x0 = get_arg_val<uint32_t>(1), y0 = get_arg_val<uint32_t>(2);
    volatile uint32_t* round_word = reinterpret_cast<volatile uint32_t*>(get_semaphore(1));
    for (uint32_t r = 0; r < 2; ++r) {
        cb_reserve_back(0, 1);
        noc_semaphore_inc(get_noc_addr(x0, y0, get_semaphore(0)), 1);
        noc_semaphore_wait_min(round_word, r + 1);
        cb_push_back(0, 1);
    }
}
)";
const char* kMulticastConsumer = R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 64};
    uint32_t me = get_absolute_logical_x() - 1;
    for (uint32_t r = 0; r < 2; ++r) {
        cb_wait_front(0, 1);
        noc_async_write(get_read_ptr(0), get_noc_addr(me * 2 + r, g), 64);
        noc_async_write_barrier();
        cb_pop_front(0, 1);
    }
}
)";

Outcome multicast_rounds(int handshake, const DeviceOptions& o) {
    Device dev(preset("wormhole-n150"), o);
    auto out = dev.buffer_create(6 * 64, 64);
    CoreRangeSet all{CoreRange{{0, 0}, {3, 0}}}, sender{CoreRange{{0, 0}, {0, 0}}},
        receivers{CoreRange{{1, 0}, {3, 0}}};
    ProgramSpec s;
    s.cbs = {cb(0, 1, all, DataFormat::Float16_b, 64)};
    s.semaphores = {{all, 0}, {all, 0}};
    const std::string def = "#define HANDSHAKE " + std::to_string(handshake) + "\n";
    s.kernels = {dm0("sender", def + kMulticastSender, sender), dm0("receiver", kMulticastReceiver, receivers),
                 dm1("consumer", kMulticastConsumer, receivers)};
    auto p = dev.program_create(s);
    CoreCoord c0 = dev.worker_core({0, 0});
    for (uint32_t x = 1; x < 4; ++x) {
        dev.program_set_runtime_args(p, 1, {x, 0}, {uint32_t(out.address), c0.x, c0.y});
        dev.program_set_runtime_args(p, 2, {x, 0}, {uint32_t(out.address)});
    }
    Outcome r;
    r.err = run(dev, p);
    r.out.resize(6 * 16);
    dev.buffer_read(out.id, r.out.data(), 6 * 64);
    return r;
}

// Schedules to try: 1, 2 and 4 worker threads, and three seeded schedules.
std::vector<DeviceOptions> schedules() {
    std::vector<DeviceOptions> v;
    for (unsigned t : {1u, 2u, 4u}) {
        v.emplace_back();
        v.back().threads = t;
    }
    for (uint64_t seed : {1ull, 2ull, 3ull}) {
        v.emplace_back();
        v.back().schedule_seed = seed;
    }
    return v;
}

}  // namespace

TEST(EmuRaces, MulticastRoundsWithAReadyHandshakeAreFine) {
    for (const DeviceOptions& o : schedules()) {
        Outcome r = multicast_rounds(1, o);
        ASSERT_FALSE(r.err) << r.err->what();
        for (uint32_t c = 0; c < 3; ++c)
            for (uint32_t round = 0; round < 2; ++round)
                for (uint32_t i = 0; i < 16; ++i)
                    EXPECT_EQ(r.out[(c * 2 + round) * 16 + i], 100 * (round + 1) + i) << c << " " << round;
    }
}

TEST(EmuRaces, MulticastOverAPageNotYetConsumedIsReported) {
    for (const DeviceOptions& o : schedules()) {  // every schedule: the same report
        Outcome r = multicast_rounds(0, o);
        ASSERT_TRUE(r.err);
        // The first receiver's page: the sender's second multicast, and the consumer reading the
        // first round's page (as its noc_async_write source, before it pops it).
        expect_check(*r.err, ErrorStatus::KernelFault, {"sender", "(0,0)", "BRISC", "L1 of core (1,0) bytes "},
                     {": writes (noc_async_write)", "(CB 0, page 0)",
                      "and kernel 'consumer' on core (1,0) NCRISC reads (the source of its noc_async_write) the same "
                      "bytes"});
    }
}
