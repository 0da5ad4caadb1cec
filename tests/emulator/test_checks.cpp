// One test per emulator check: a small kernel that breaks one hardware rule, and the error it
// must produce (status, kernel name, core, processor, object). After every failure the device
// keeps working.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

struct EmuChecks : ::testing::Test {
    Device dev{preset("wormhole-n150")};

    // Builds a program from kernels + CBs, sets args on core (0,0), runs it; returns the error.
    Error fails(std::vector<KernelSpec> kernels, std::vector<CircularBufferSpec> cbs,
                std::vector<std::vector<uint32_t>> args = {}) {
        ProgramSpec s;
        s.kernels = std::move(kernels);
        s.cbs = std::move(cbs);
        auto p = dev.program_create(s);
        for (size_t k = 0; k < args.size(); ++k) dev.program_set_runtime_args(p, uint32_t(k), {0, 0}, args[k]);
        auto err = run(dev, p);
        EXPECT_TRUE(err.has_value()) << "the program should have failed";
        still_works();
        return err ? *err : Error(ErrorStatus::Internal, "(no error)");
    }

    // A good program still runs correctly after the failure.
    void still_works() {
        auto out = dev.buffer_create(64, 64);
        ProgramSpec s;
        s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 64)};
        s.kernels = {dm0("sanity", R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(0);
    *reinterpret_cast<volatile uint32_t*>(l1) = get_arg_val<uint32_t>(0) * 3;
    noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(1), 64}), 64);
    noc_async_write_barrier();
})",
                         one_core())};
        auto p = dev.program_create(s);
        dev.program_set_runtime_args(p, 0, {0, 0}, {14, out.address});
        auto err = run(dev, p);
        ASSERT_FALSE(err) << err->what();
        uint32_t v = 0;
        dev.buffer_read(out.id, &v, 4);
        EXPECT_EQ(v, 42u);
        dev.buffer_free(out.id);
        dev.program_free(p);
    }
};

}  // namespace

TEST_F(EmuChecks, DeadlockListsWhatEveryFiberWaitsOn) {
    auto e = fails({dm0("consumer", "void kernel_main() { cb_wait_front(16, 1); cb_pop_front(16, 1); }", one_core()),
                    dm1("producer", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core())},
                   {cb(16, 2, one_core()), cb(0, 2, one_core())});
    // The producer finishes after pushing into cb 0 (which nobody pops); the consumer waits forever.
    expect_check(e, ErrorStatus::Deadlock, {"consumer", "(0,0)", "BRISC", "cb_wait_front(cb 16, need 1, have 0)"},
                 {"deadlock", "core (0,0) NCRISC [producer]: finished"});
}

TEST_F(EmuChecks, DeadlockAcrossComputeRoles) {
    // Compute waits for a tile nobody sends: UNPACK blocks, MATH blocks on the operand queue.
    auto e = fails({compute("stuck", R"(
void kernel_main() {
    copy_tile_init(0);
    cb_wait_front(0, 1);
    tile_regs_acquire();
    copy_tile(0, 0, 0);
    tile_regs_commit();
    cb_pop_front(0, 1);
})",
                            one_core())},
                   {cb(0, 2, one_core())});
    expect_check(
        e, ErrorStatus::Deadlock, {"stuck", "(0,0)", "TRISC0 (UNPACK)", "cb_wait_front(cb 0, need 1, have 0)"},
        {"core (0,0) TRISC1 (MATH) [stuck]: MATH waiting for UNPACK", "core (0,0) TRISC2 (PACK) [stuck]: finished"});
}

TEST_F(EmuChecks, CbOverReservation) {
    auto e =
        fails({dm0("greedy", "void kernel_main() { cb_reserve_back(0, 3); }", one_core())}, {cb(0, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"greedy", "(0,0)", "BRISC", "cb_reserve_back(cb 0, 3)"},
                 {"more pages than the CB holds (2)"});
}

TEST_F(EmuChecks, CbWaitForMoreThanCapacity) {
    auto e = fails({dm0("greedy", "void kernel_main() { cb_wait_front(0, 5); }", one_core())}, {cb(0, 4, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"greedy", "(0,0)", "BRISC", "cb_wait_front(cb 0, 5)"},
                 {"more pages than the CB holds (4)"});
}

TEST_F(EmuChecks, CbOverrunAtTheEnd) {
    // 3-page CB, pushes of 2: the second reservation starts at page 2 and crosses the end.
    auto e = fails({dm0("producer", R"(
void kernel_main() {
    for (int i = 0; i < 2; ++i) { cb_reserve_back(0, 2); cb_push_back(0, 2); }
})",
                        one_core()),
                    dm1("consumer", R"(
void kernel_main() {
    for (int i = 0; i < 2; ++i) { cb_wait_front(0, 2); cb_pop_front(0, 2); }
})",
                        one_core())},
                   {cb(0, 3, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"producer", "(0,0)", "BRISC", "cb_reserve_back(cb 0, 2)"},
                 {"at page 2", "crosses the end", "overrun", "only 1 pages remain", "must use the same page count",
                  "divide the CB's size"});
}

TEST_F(EmuChecks, CbWaitOverrunAtTheEnd) {
    // 3-page CB, pages pushed one by one, waits of 2: the second window starts at page 2.
    auto e = fails({dm0("producer", R"(
void kernel_main() {
    for (int i = 0; i < 4; ++i) { cb_reserve_back(0, 1); cb_push_back(0, 1); }
})",
                        one_core()),
                    dm1("consumer", R"(
void kernel_main() {
    for (int i = 0; i < 2; ++i) { cb_wait_front(0, 2); cb_pop_front(0, 2); }
})",
                        one_core())},
                   {cb(0, 3, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"consumer", "(0,0)", "NCRISC", "cb_wait_front(cb 0, 2)"},
                 {"at page 2", "crosses the end", "only 1 pages remain", "available now",
                  "Every cb_wait_front on one CB", "divide the CB's size"});
}

TEST_F(EmuChecks, NonCumulativeWaitThenBigPop) {
    auto e =
        fails({dm0("producer", "void kernel_main() { cb_reserve_back(0, 4); cb_push_back(0, 4); }", one_core()),
               dm1("consumer", "void kernel_main() { cb_wait_front(0, 1); cb_wait_front(0, 1); cb_pop_front(0, 2); }",
                   one_core())},
              {cb(0, 4, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"consumer", "(0,0)", "NCRISC", "cb_pop_front(cb 0, 2)"},
                 {"more pages than were waited for with cb_wait_front (1)"});
}

TEST_F(EmuChecks, DirtyCbAtKernelExit) {
    auto e =
        fails({dm0("forgetful", "void kernel_main() { cb_reserve_back(0, 1); }", one_core())}, {cb(0, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"forgetful", "(0,0)", "BRISC", "kernel exit with cb 0 dirty"},
                 {"1 pages reserved", "never pushed"});
    e = fails({dm0("producer", "void kernel_main() { cb_reserve_back(0, 2); cb_push_back(0, 2); }", one_core()),
               dm1("consumer", "void kernel_main() { cb_wait_front(0, 2); cb_pop_front(0, 1); }", one_core())},
              {cb(0, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"consumer", "(0,0)", "NCRISC", "kernel exit with cb 0 dirty"},
                 {"1 pages waited for", "never popped"});
}

TEST_F(EmuChecks, PagesLeftInCbAtProgramEnd) {
    auto e = fails({dm0("producer", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core())},
                   {cb(0, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"producer", "(0,0)", "BRISC", "at program end cb 0 still holds 1 pages"},
                 {"pushed by BRISC and never popped", "dirty CB"});
}

TEST_F(EmuChecks, TwoProducersOnOneCb) {
    auto e = fails({dm0("a", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core()),
                    dm1("b", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core())},
                   {cb(0, 4, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"b", "(0,0)", "NCRISC", "cb_reserve_back(cb 0)"},
                 {"producer is BRISC", "only one processor may push"});
}

TEST_F(EmuChecks, MissingReadBarrierBeforePush) {
    auto in = dev.buffer_create(2048, 2048);
    auto e = fails({dm0("reader", R"(
void kernel_main() {
    cb_reserve_back(0, 1);
    noc_async_read_page(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}, get_write_ptr(0));
    cb_push_back(0, 1);
    noc_async_read_barrier();
})",
                        one_core()),
                    dm1("sink", "void kernel_main() { cb_wait_front(0, 1); cb_pop_front(0, 1); }", one_core())},
                   {cb(0, 2, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"reader", "(0,0)", "BRISC", "cb_push_back(cb 0, 1)"},
                 {"a NoC read into these pages (2048 B at 0x", "missing noc_async_read_barrier"});
}

TEST_F(EmuChecks, MissingWriteBarrierBeforePop) {
    auto out = dev.buffer_create(2048, 2048);
    auto e = fails({dm0("src", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core()),
                    dm1("writer", R"(
void kernel_main() {
    cb_wait_front(0, 1);
    noc_async_write_page(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}, get_read_ptr(0));
    cb_pop_front(0, 1);
    noc_async_write_barrier();
})",
                        one_core())},
                   {cb(0, 2, one_core())}, {{}, {out.address}});
    expect_check(e, ErrorStatus::KernelFault, {"writer", "(0,0)", "NCRISC", "cb_pop_front(cb 0, 1)"},
                 {"a NoC write from these pages (2048 B at 0x", "missing noc_async_write_barrier"});
}

TEST_F(EmuChecks, TransfersOutstandingAtKernelExit) {
    auto in = dev.buffer_create(2048, 2048);
    auto e = fails({dm0("reader", R"(
void kernel_main() {
    noc_async_read(get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}), get_write_ptr(0), 2048);
})",
                        one_core())},
                   {cb(0, 1, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault,
                 {"reader", "(0,0)", "BRISC", "from DRAM bank 0 address " + hex(in.address)},
                 {"kernel exit with 1 NoC reads and 0 NoC writes outstanding", "a read of 2048 B", "to L1 0x",
                  "of core (0,0)", "missing noc_async_read_barrier"});
}

TEST_F(EmuChecks, HeldBackReadDataIsStaleWithoutBarrier) {
    // Without the barrier the data has not landed yet (deterministic mode holds reads back).
    auto in = dev.buffer_create(2048, 2048), out = dev.buffer_create(2048, 2048);
    std::vector<uint32_t> ones(512, 0x01010101u), got(512);
    dev.buffer_write(in.id, ones.data(), 2048);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core())};
    s.kernels = {dm0("racy", R"(
void kernel_main() {
    uint32_t l1 = get_write_ptr(0);
    *reinterpret_cast<volatile uint32_t*>(l1) = 7;
    noc_async_read(get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}), l1, 2048);
    uint32_t seen = *reinterpret_cast<volatile uint32_t*>(l1);   // too early: no barrier yet
    noc_async_read_barrier();
    *reinterpret_cast<volatile uint32_t*>(l1) = seen;
    noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(1), 2048}), 2048);
    noc_async_write_barrier();
})",
                     one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address, out.address});
    ASSERT_FALSE(run(dev, p));
    dev.buffer_read(out.id, got.data(), 2048);
    EXPECT_EQ(got[0], 7u);           // the value before the read landed
    EXPECT_EQ(got[1], 0x01010101u);  // the rest landed at the barrier
}

TEST_F(EmuChecks, NocMisalignment) {
    auto in = dev.buffer_create(4096, 2048);
    auto e = fails({dm0("skewed", R"(
void kernel_main() {
    uint64_t src = get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}) + 4;
    noc_async_read(src, get_write_ptr(0), 64);
    noc_async_read_barrier();
})",
                        one_core())},
                   {cb(0, 1, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"skewed", "(0,0)", "BRISC", "source " + hex(in.address + 4)},
                 {"noc_async_read: misaligned", "modulo 32 B (DRAM alignment)"});
}

TEST_F(EmuChecks, OutOfBoundsDram) {
    auto in = dev.buffer_create(2 * 2048, 2048);  // pages 0 and 1 only
    auto e = fails({dm0("oob", R"(
void kernel_main() {
    noc_async_read_page(24, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}, get_write_ptr(0));
    noc_async_read_barrier();
})",
                        one_core())},
                   {cb(0, 1, one_core())}, {{in.address}});
    // Page 24 would be the third page of bank 0.
    expect_check(e, ErrorStatus::KernelFault, {"oob", "(0,0)", "BRISC", "address " + hex(in.address + 2 * 2048)},
                 {"2048 B in DRAM bank 0", "not inside any live buffer", "out of bounds"});
}

TEST_F(EmuChecks, OutOfBoundsL1) {
    auto in = dev.buffer_create(2048, 2048);
    auto e = fails({dm1("oob", R"(
void kernel_main() {
    uint32_t past_end = get_write_ptr(0) + 1499136;
    noc_async_read_page(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 2048}, past_end);
    noc_async_read_barrier();
})",
                        one_core())},
                   {cb(0, 1, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"oob", "(0,0)", "NCRISC", "noc_async_read: destination 0x"},
                 {"(+2048 B) is outside this core's L1", "out of bounds"});
}

TEST_F(EmuChecks, NocToNowhere) {
    auto e = fails({dm0("lost", R"(
void kernel_main() {
    noc_async_read(get_noc_addr(60, 60, get_write_ptr(0)), get_write_ptr(0), 64);
    noc_async_read_barrier();
})",
                        one_core())},
                   {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"lost", "(0,0)", "BRISC", "noc_async_read: NoC (60,60) address 0x"},
                 {"neither a worker core nor a DRAM bank"});
}

TEST_F(EmuChecks, MulticastWithWrongDestinationCount) {
    CoreRangeSet two{CoreRange{{0, 0}, {1, 0}}};
    auto e = fails({dm0("mcast", R"(
void kernel_main() {
    if (get_absolute_logical_x() != 0) return;
    uint32_t l1 = get_write_ptr(0);
    // Cores (0,0) and (1,0): excluding the sender that is 1 destination, not 2.
    uint64_t dst = get_noc_multicast_addr(my_x[noc_index], my_y[noc_index], my_x[noc_index] + 1, my_y[noc_index], l1);
    noc_async_write_multicast(l1, dst, 64, 2);
    noc_async_write_barrier();
})",
                        two)},
                   {cb(0, 1, two)});
    // Wormhole NoC coordinates of cores (0,0) and (1,0): (18,18) and (19,18).
    expect_check(e, ErrorStatus::KernelFault, {"mcast", "(0,0)", "BRISC", "of the NoC rectangle (18,18)-(19,18)"},
                 {"noc_async_write_multicast to L1 0x", "num_dests is 2", "holds 1 destination"});
}

TEST_F(EmuChecks, RuntimeArgIndexOutOfRange) {
    auto e = fails({dm0("args", "void kernel_main() { (void)get_arg_val<uint32_t>(3); }", one_core())}, {}, {{1}});
    expect_check(e, ErrorStatus::KernelFault, {"args", "(0,0)", "BRISC", "get_arg_val/get_arg_addr(3)"},
                 {"index out of range (1 runtime args"});
    // get_arg_addr shares the table entry, so the report names both calls.
    e = fails({dm1("addr", "void kernel_main() { (void)get_arg_addr(5); }", one_core())}, {}, {{1, 2}});
    expect_check(e, ErrorStatus::KernelFault, {"addr", "(0,0)", "NCRISC", "get_arg_val/get_arg_addr(5)"},
                 {"index out of range (2 runtime args"});
    e = fails({dm0("common", "void kernel_main() { (void)get_common_arg_addr(2); }", one_core())}, {});
    expect_check(e, ErrorStatus::KernelFault, {"common", "(0,0)", "BRISC", "get_common_arg_val/get_common_arg_addr(2)"},
                 {"common runtime arg index out of range (0 common"});
}

TEST_F(EmuChecks, TooManyRuntimeArgs) {
    ProgramSpec s;
    s.kernels = {dm0("k", "void kernel_main() {}", one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, std::vector<uint32_t>(341, 1));
    auto e = catch_error([&] { dev.program_set_runtime_args(p, 0, {0, 0}, std::vector<uint32_t>(342, 1)); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "kernel 'k' on core (0,0)", {"342 unique", "limit of 341"});
    dev.program_set_common_runtime_args(p, 0, {});
    e = catch_error([&] { dev.program_set_common_runtime_args(p, 0, {1}); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "kernel 'k'", {"1 common", "341"});
}

TEST_F(EmuChecks, DeviceApiErrors) {
    ProgramSpec s;
    s.kernels = {dm0("k", "void kernel_main() {}", one_core())};
    auto e = catch_error([&] { dev.program_launch(77); });
    expect_host_check(e, ErrorStatus::KernelLaunch, "unknown program id 77");
    // Core range outside the 8x8 grid.
    s.kernels[0].cores = {CoreRange{{0, 0}, {8, 0}}};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "kernel 'k'", {"(0,0)-(8,0)", "outside the 8x8 grid"});
    // CB index beyond the 32 CBs of a Wormhole.
    s.kernels[0].cores = one_core();
    s.cbs = {cb(32, 1, one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "circular buffer 32", {"beyond the 32 circular buffers"});
    // Page size not a multiple of 4.
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 2046)};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "circular buffer 0", {"2046", "multiple of 4"});
    // L1 overflow by circular buffers.
    s.cbs = {cb(0, 400, one_core()), cb(1, 400, one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "circular buffer 1",
                      {"circular buffers on core (0,0)", "grow to", "beyond the L1 size of 1499136 B"});
    // Two data-movement kernels on one processor.
    s.cbs = {};
    s.kernels = {dm0("a", "void kernel_main() {}", one_core()), dm0("b", "void kernel_main() {}", one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "kernels 'a' and 'b' both run on BRISC", {"core (0,0)"});
    // Args for a core the kernel does not run on.
    s.kernels = {dm0("a", "void kernel_main() {}", one_core())};
    auto p = dev.program_create(s);
    e = catch_error([&] { dev.program_set_runtime_args(p, 0, {3, 3}, {1}); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "kernel 'a' does not run on core (3,3)");
    e = catch_error([&] { dev.program_set_runtime_args(p, 5, {0, 0}, {1}); });
    expect_host_check(e, ErrorStatus::InvalidArgument, "has no kernel 5");
    still_works();
}

TEST_F(EmuChecks, DstIndexBeyondCapacity) {
    auto e = fails({dm0("feed", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }", one_core()),
                    compute("wide", R"(
void kernel_main() {
    copy_tile_init(0);
    cb_wait_front(0, 1);
    tile_regs_acquire();
    copy_tile(0, 0, 8);
    tile_regs_commit();
    cb_pop_front(0, 1);
})",
                            one_core())},
                   {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"wide", "(0,0)", "TRISC1 (MATH)", "DST index 8"},
                 {"capacity of 8 tiles (16-bit DST, half sync)"});
}

TEST_F(EmuChecks, DstCapacityFollowsFp32Mode) {
    auto k = compute("wide32", R"(
void kernel_main() {
    tile_regs_acquire();
    fill_tile_init();
    fill_tile(4, 1.0f);
    tile_regs_commit();
})",
                     one_core());
    k.compute.fp32_dest_acc_en = true;
    auto e = fails({k}, {});
    expect_check(e, ErrorStatus::KernelFault, {"wide32", "(0,0)", "TRISC1 (MATH)", "DST index 4"},
                 {"capacity of 4 tiles (fp32 DST, half sync)"});
}

TEST_F(EmuChecks, DstUseOutsideStateMachine) {
    auto e =
        fails({compute("no_acquire", "void kernel_main() { fill_tile_init(); fill_tile(0, 2.0f); }", one_core())}, {});
    expect_check(e, ErrorStatus::KernelFault, {"no_acquire", "(0,0)", "TRISC1 (MATH)", "DST index 0"},
                 {"fill_tile", "used outside tile_regs_acquire"});
    e = fails({compute("no_wait", R"(
void kernel_main() {
    cb_reserve_back(16, 1);
    pack_tile(0, 16);
    cb_push_back(16, 1);
})",
                       one_core())},
              {cb(16, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"no_wait", "(0,0)", "TRISC2 (PACK)", "pack_tile(0, cb 16)"},
                 {"outside tile_regs_wait"});
    e = fails({compute("no_commit", "void kernel_main() { tile_regs_acquire(); tile_regs_acquire(); }", one_core())},
              {});
    expect_check(e, ErrorStatus::KernelFault, {"no_commit", "(0,0)", "TRISC1 (MATH)", "(DST section 0)"},
                 {"tile_regs_acquire: DST is already acquired"});
}

TEST_F(EmuChecks, PackBeyondReservation) {
    auto e = fails({compute("overpack", R"(
void kernel_main() {
    cb_reserve_back(16, 1);
    tile_regs_acquire(); fill_tile_init(); fill_tile(0, 1.0f); fill_tile(1, 2.0f); tile_regs_commit();
    tile_regs_wait(); pack_tile(0, 16); pack_tile(1, 16); tile_regs_release();
    cb_push_back(16, 1);
})",
                            one_core())},
                   {cb(16, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"overpack", "(0,0)", "TRISC2 (PACK)", "pack_tile(1, cb 16)"},
                 {"writes page 1", "only 1 pages are reserved"});
}

TEST_F(EmuChecks, KernelCrashIsReported) {
    if (std::getenv("ZYX_SANITIZED")) GTEST_SKIP() << "the sanitizer owns SIGSEGV";
    auto e = fails({dm1("wild", R"(
void kernel_main() {
    volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(uintptr_t(get_arg_val<uint32_t>(0)));
    *p = 1;
})",
                        one_core())},
                   {}, {{16}});
    expect_check(e, ErrorStatus::KernelFault, {"wild", "(0,0)", "NCRISC", "at address 0x10"},
                 {"crashed with", "null pointer"});
    // A second crash in the same device, on another processor and core.
    auto e2 = fails({dm0("runaway", R"(
void kernel_main() {
    volatile uint8_t* p = reinterpret_cast<volatile uint8_t*>(uintptr_t(get_write_ptr(0)));
    for (uint32_t i = 0;; i += 4096) p[i] = 1;   // runs off the end of L1
})",
                         one_core())},
                    {cb(0, 1, one_core())});
    expect_check(e2, ErrorStatus::KernelFault, {"runaway", "(0,0)", "BRISC", "beyond the end of L1 of core 0"},
                 {"crashed with", "at address 0x"});
}

TEST_F(EmuChecks, MutableGlobalsAreRefused) {
    ProgramSpec s;
    s.kernels = {dm0("stateful", "uint32_t counter;\nvoid kernel_main() { counter++; }", one_core())};
    auto e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::Unsupported, "kernel 'stateful'",
                      {"Unsupported:", "(counter)", "shared by every core"});
    s.kernels = {dm0("static_local", "void kernel_main() { static int calls = 0; ++calls; }", one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::Unsupported, "kernel 'static_local'", {"calls"});
    // Constants are fine.
    s.kernels = {dm0("consts",
                     "constexpr uint32_t k[] = {1, 2};\nconst char* const names[] = {\"a\"};\n"
                     "void kernel_main() { (void)k; (void)names; }",
                     one_core())};
    EXPECT_NO_THROW(dev.program_create(s));
}

TEST_F(EmuChecks, CompileErrorsCarryTheCompilerMessage) {
    ProgramSpec s;
    s.kernels = {dm0("broken", "// line 1\nvoid kernel_main() {\n    this_does_not_exist();\n}", one_core())};
    auto e = catch_error([&] { dev.program_create(s); });
    // The compiler's message names the kernel and its own line (#line), not the cache copy.
    expect_host_check(e, ErrorStatus::KernelCompilation, "kernel 'broken'", {"this_does_not_exist", "broken:3:"});
    s.kernels = {dm0("ct", "void kernel_main() { (void)get_compile_time_arg_val(2); }", one_core(), {1, 2})};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::KernelCompilation, "kernel 'ct'", {"compile-time arg index"});
}

TEST_F(EmuChecks, SemaphoreWaitOutsideL1) {
    // A 64-bit pointer is reported whole (it was truncated to its low 32 bits).
    auto e =
        fails({dm0("wild_sem", "void kernel_main() { noc_semaphore_wait((volatile uint32_t*)0x7ff000000010ull, 1); }",
                   one_core())},
              {});
    expect_check(e, ErrorStatus::KernelFault, {"wild_sem", "(0,0)", "BRISC", "semaphore 0x7ff000000010 (+4 B)"},
                 {"noc_semaphore_wait:", "outside this core's L1", "out of bounds"});
    e = fails(
        {dm1("low_sem", "void kernel_main() { noc_semaphore_wait_min((volatile uint32_t*)0x10, 2); }", one_core())},
        {});
    expect_check(e, ErrorStatus::KernelFault, {"low_sem", "(0,0)", "NCRISC", "semaphore 0x10 (+4 B)"},
                 {"noc_semaphore_wait_min:", "outside this core's L1"});
}

TEST_F(EmuChecks, PerTriscMacrosInComputeKernelsAreRefused) {
    // One compile serves UNPACK, MATH and PACK, so TRISC_MATH & co. are never defined: code
    // testing them would vanish silently. Refused before compiling, naming macro, line, kernel.
    ProgramSpec s;
    s.kernels = {compute("per_trisc", R"(// TRISC_MATH in a comment is fine
void kernel_main() {
    const char* note = "TRISC_PACK in a string is fine";
    (void)note;
#ifdef TRISC_MATH
    tile_regs_acquire();
    tile_regs_commit();
#endif
})",
                         one_core())};
    auto e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::Unsupported, "compute kernel 'per_trisc' uses TRISC_MATH (line 5)",
                      {"Unsupported:", "never defined", "MATH(…)"});
    s.kernels = {compute("trisc_index", R"(#if COMPILE_FOR_TRISC == 1
#endif
void kernel_main() {})",
                         one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::Unsupported, "compute kernel 'trisc_index' uses COMPILE_FOR_TRISC (line 1)");
    s.kernels = {compute("uck", R"(void kernel_main() {
#if defined(UCK_CHLKC_PACK)
#endif
})",
                         one_core())};
    e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::Unsupported, "compute kernel 'uck' uses UCK_CHLKC_PACK (line 2)");
    // Mentions outside code, look-alike names and data-movement kernels are fine.
    s.kernels = {compute("mentions", R"--(/* TRISC_UNPACK
*/ void kernel_main() {
    const char* r = R"x(UCK_CHLKC_MATH)x";
    char q = '\'';
    int TRISC_MATHS = 1'000;
    (void)r; (void)q; (void)TRISC_MATHS;
})--",
                         one_core()),
                 dm0("dm", R"(void kernel_main() {
#ifdef TRISC_MATH
#error never
#endif
})",
                     one_core())};
    EXPECT_NO_THROW(dev.program_create(s));
}

TEST_F(EmuChecks, UnknownSemaphore) {
    auto e = fails({dm0("sem", "void kernel_main() { (void)get_semaphore(3); }", one_core())}, {});
    expect_check(e, ErrorStatus::KernelFault, {"sem", "(0,0)", "BRISC", "get_semaphore(3)"}, {"no semaphore 3"});
}

TEST(EmuChecksThreads, DeadlockAcrossWorkersOnSemaphores) {
    // Two cores on two worker threads, each waiting for a semaphore only the other would set.
    DeviceOptions o;
    o.threads = 2;
    Device dev(preset("wormhole-n150"), o);
    CoreRangeSet two{CoreRange{{0, 0}, {1, 0}}};
    ProgramSpec s;
    s.semaphores = {{two, 0}};
    s.kernels = {dm0("waiter", R"(
void kernel_main() {
    noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(get_semaphore(0)), 1);
})",
                     two)};
    auto p = dev.program_create(s);
    auto err = run(dev, p);
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::Deadlock, {"waiter", "(0,0)", "BRISC", "noc_semaphore_wait(addr 0x"},
                 {"core (1,0) BRISC [waiter]: noc_semaphore_wait(addr 0x", "want == 1, have 0"});
}

TEST(EmuChecksThreads, FullSyncDstHoldsSixteenTiles) {
    Device dev(preset("wormhole-n150"));
    auto k = compute("full", R"(
void kernel_main() {
    tile_regs_acquire();
    fill_tile_init();
    for (uint32_t i = 0; i < 16; ++i) fill_tile(i, 1.0f);
    fill_tile(16, 1.0f);
    tile_regs_commit();
})",
                     one_core());
    k.compute.dst_full_sync_en = true;
    ProgramSpec s;
    s.kernels = {k};
    auto err = run(dev, dev.program_create(s));
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::KernelFault, {"full", "(0,0)", "TRISC1 (MATH)", "DST index 16"},
                 {"capacity of 16 tiles (16-bit DST, full sync)"});
}

TEST(EmuChecksThreads, FullSyncFp32DstHoldsEightTiles) {
    // tt-metal's DST: 16 tiles of 16-bit data in full sync, half of that with fp32_dest_acc_en.
    Device dev(preset("wormhole-n150"));
    auto k = compute("full32", R"(
void kernel_main() {
    tile_regs_acquire();
    fill_tile_init();
    for (uint32_t i = 0; i < 8; ++i) fill_tile(i, 1.0f);
    fill_tile(8, 1.0f);
    tile_regs_commit();
})",
                     one_core());
    k.compute.dst_full_sync_en = true;
    k.compute.fp32_dest_acc_en = true;
    ProgramSpec s;
    s.kernels = {k};
    auto err = run(dev, dev.program_create(s));
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::KernelFault, {"full32", "(0,0)", "TRISC1 (MATH)", "DST index 8"},
                 {"capacity of 8 tiles (fp32 DST, full sync)"});
}

TEST_F(EmuChecks, StackOverflowIsReported) {
    if (std::getenv("ZYX_SANITIZED")) GTEST_SKIP() << "the sanitizer owns SIGSEGV";
    auto e = fails({compute("deep", R"(
uint32_t depth(volatile uint32_t n) {
    volatile uint8_t pad[4096];
    pad[0] = uint8_t(n);
    return n == 0 ? pad[0] : depth(n - 1) + pad[0];
}
void kernel_main() { DPRINT_MATH(DPRINT << depth(1000000) << ENDL()); })",
                            one_core())},
                   {});
    expect_check(e, ErrorStatus::KernelFault, {"deep", "(0,0)", "TRISC1 (MATH)", "(stack overflow"}, {"crashed with"});
}

TEST(EmuChecksSeeded, MissingReadBarrierIsCaughtUnderEverySeed) {
    // Under a seed, reads may land early; the missing barrier must still be reported.
    for (uint64_t seed : {1ull, 2ull, 3ull, 4ull}) {
        DeviceOptions o;
        o.schedule_seed = seed;
        Device dev(preset("wormhole-n150"), o);
        auto in = dev.buffer_create(4 * 2048, 2048);
        ProgramSpec s;
        s.cbs = {cb(0, 4, one_core())};
        s.kernels = {
            dm0("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 2048};
    for (uint32_t i = 0; i < 4; ++i) {
        cb_reserve_back(0, 1);
        noc_async_read_page(i, g, get_write_ptr(0));
        cb_push_back(0, 1);
    }
    noc_async_read_barrier();
})",
                one_core()),
            dm1("sink",
                "void kernel_main() { for (int i = 0; i < 4; ++i) { cb_wait_front(0, 1); cb_pop_front(0, 1); } }",
                one_core())};
        auto p = dev.program_create(s);
        dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
        auto err = run(dev, p);
        ASSERT_TRUE(err) << "seed " << seed;
        expect_check(*err, ErrorStatus::KernelFault, {"reader", "(0,0)", "BRISC", "cb_push_back(cb 0, 1)"},
                     {"missing noc_async_read_barrier"});
    }
}

// ---- failure paths moved out of line (kernel_api_*.cpp): each message still comes out ---------

TEST_F(EmuChecks, CbPushBeyondReservationAndUnconfiguredCb) {
    auto e = fails({dm0("eager", "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 2); }", one_core())},
                   {cb(0, 4, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"eager", "(0,0)", "BRISC", "cb_push_back(cb 0, 2)"},
                 {"pushes more pages than were reserved with cb_reserve_back (1)"});
    e = fails({dm1("stray", "void kernel_main() { cb_reserve_back(3, 1); }", one_core())}, {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"stray", "(0,0)", "NCRISC", "cb_reserve_back(cb 3)"},
                 {"circular buffer 3 is not configured"});
}

TEST_F(EmuChecks, NocZeroLengthAndBadL1Targets) {
    auto e = fails(
        {dm0("empty", "void kernel_main() { noc_async_read(get_noc_addr(get_write_ptr(0)), get_write_ptr(0), 0); }",
             one_core())},
        {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"empty", "(0,0)", "BRISC", "(NoC address 0x"},
                 {"noc_async_read: zero-length transfer", "L1 address 0x"});
    e = fails({dm0("lowaddr", R"(
void kernel_main() {
    noc_async_read(get_noc_addr(0x40), get_write_ptr(0), 64);
    noc_async_read_barrier();
})",
                   one_core())},
              {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"lowaddr", "(0,0)", "BRISC", "address 0x40"}, {"is not an L1 address"});
    e = fails({dm1("pastend", R"(
void kernel_main() {
    uint32_t base = get_write_ptr(0) - 0x10000;   // L1 offset 0 of this core
    noc_async_read(get_noc_addr(base + 1499136 - 32), get_write_ptr(0), 64);
    noc_async_read_barrier();
})",
                   one_core())},
              {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"pastend", "(0,0)", "NCRISC", "64 B at L1 offset 1499104"},
                 {"run past the end of L1"});
}

TEST_F(EmuChecks, OutOfBoundsDramAfterAnInBoundsReadOfTheSameBuffer) {
    // 13 pages over 12 banks: bank 0 holds pages 0 and 12, bank 1 only page 1. Page 13 would be
    // bank 1's second page: inside the buffer's reserved range, past its pages in that bank.
    auto in = dev.buffer_create(13 * 2048, 2048);
    auto e = fails({dm0("row2", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 2048};
    const uint32_t pages[] = {0, 12, 1, 13};
    for (uint32_t page : pages) {
        noc_async_read_page(page, g, get_write_ptr(0));
        noc_async_read_barrier();
    }
})",
                        one_core())},
                   {cb(0, 1, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"row2", "(0,0)", "BRISC", "address " + hex(in.address + 2048)},
                 {"in DRAM bank 1", "not inside any live buffer"});
}

TEST_F(EmuChecks, DstStateMachineOrder) {
    auto e = fails({compute("commit_first", "void kernel_main() { tile_regs_commit(); }", one_core())}, {});
    expect_check(e, ErrorStatus::KernelFault, {"commit_first", "(0,0)", "TRISC1 (MATH)", "(DST section 0)"},
                 {"tile_regs_commit without tile_regs_acquire"});
    e = fails({compute("release_first", "void kernel_main() { tile_regs_release(); }", one_core())}, {});
    expect_check(e, ErrorStatus::KernelFault, {"release_first", "(0,0)", "TRISC2 (PACK)", "(DST section 0)"},
                 {"tile_regs_release without tile_regs_wait"});
    e = fails({compute("wait_twice", R"(
void kernel_main() {
    tile_regs_acquire(); tile_regs_commit();
    tile_regs_acquire(); tile_regs_commit();
    tile_regs_wait(); tile_regs_wait();
})",
                       one_core())},
              {});
    expect_check(e, ErrorStatus::KernelFault, {"wait_twice", "(0,0)", "TRISC2 (PACK)", "(DST section 0)"},
                 {"PACK already holds DST (missing tile_regs_release)"});
    e = fails({compute("packwide", R"(
void kernel_main() {
    cb_reserve_back(16, 1);
    tile_regs_acquire(); tile_regs_commit();
    tile_regs_wait(); pack_tile(8, 16); tile_regs_release();
    cb_push_back(16, 1);
})",
                       one_core())},
              {cb(16, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"packwide", "(0,0)", "TRISC2 (PACK)", "pack_tile(8, cb 16)"},
                 {"DST index 8 is beyond the capacity of 8"});
}

TEST_F(EmuChecks, UnpackRulesAndRolesOutOfStep) {
    const char* feed = "void kernel_main() { cb_reserve_back(0, 1); cb_push_back(0, 1); }";
    auto e = fails({dm0("feed", feed, one_core()),
                    compute("small_page", R"(
void kernel_main() {
    copy_tile_init(0);
    cb_wait_front(0, 1);
    tile_regs_acquire(); copy_tile(0, 0, 0); tile_regs_commit();
    cb_pop_front(0, 1);
})",
                            one_core())},
                   {cb(0, 1, one_core(), DataFormat::Float16_b, 64)});
    expect_check(e, ErrorStatus::KernelFault, {"small_page", "(0,0)", "TRISC0 (UNPACK)", "copy_tile(cb 0)"},
                 {"page of 64 B is smaller than a Float16_b tile"});
    e = fails({dm0("feed", feed, one_core()),
               compute("beyond_window", R"(
void kernel_main() {
    copy_tile_init(0);
    cb_wait_front(0, 1);
    tile_regs_acquire(); copy_tile(0, 1, 0); tile_regs_commit();
    cb_pop_front(0, 1);
})",
                       one_core())},
              {cb(0, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"beyond_window", "(0,0)", "TRISC0 (UNPACK)", "copy_tile(cb 0, tile 1)"},
                 {"outside the 1 pages waited for"});
    e = fails({dm0("feed", feed, one_core()),
               compute("diverged", R"(
void kernel_main() {
    copy_tile_init(0);
    cb_wait_front(0, 1);
    tile_regs_acquire();
    UNPACK(copy_tile(0, 0, 1));
    MATH(copy_tile(0, 0, 0));
    tile_regs_commit();
    cb_pop_front(0, 1);
})",
                       one_core())},
              {cb(0, 1, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"diverged", "(0,0)", "TRISC1 (MATH)", "into DST 1"},
                 {"copy_tile: MATH and UNPACK are out of step"});
}

// ---- kernels that abort, assert or throw -------------------------------------------------------

TEST_F(EmuChecks, AbortInAKernelIsReported) {
    if (std::getenv("ZYX_SANITIZED")) GTEST_SKIP() << "the sanitizer owns the fault signals";
    auto e =
        fails({dm1("quitter", "#include <cstdlib>\nvoid kernel_main() { if (get_arg_val<uint32_t>(0) == 7) abort(); }",
                   one_core())},
              {}, {{7}});
    expect_check(e, ErrorStatus::KernelFault, {"quitter", "(0,0)", "NCRISC", "called abort()"});
}

TEST_F(EmuChecks, FailedAssertInAKernelIsReported) {
    // tt-metal builds kernels without NDEBUG, so assert() is live; so is it here.
    auto e = fails({compute("checker", R"(#include <cassert>
void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    MATH(assert(n < 4));
})",
                            one_core())},
                   {}, {{9}});
    expect_check(e, ErrorStatus::KernelFault, {"checker", "(0,0)", "TRISC1 (MATH)", "assert(n < 4)"},
                 {"failed at line 4 of the kernel source", "kernel_main"});
}

TEST_F(EmuChecks, ThrowInAKernelDoesNotCompile) {
    // Kernels are built with -fno-exceptions, as tt-metal builds them.
    ProgramSpec s;
    s.kernels = {dm0("thrower", "void kernel_main() { if (get_arg_val<uint32_t>(0)) throw 42; }", one_core())};
    auto e = catch_error([&] { dev.program_create(s); });
    expect_host_check(e, ErrorStatus::KernelCompilation, "kernel 'thrower'", {"exception handling disabled"});
    still_works();
}
