// Multicast rectangles and the NoC they travel on (emulator/README.md, checks table): NoC 0
// takes start <= end in x and y, NoC 1 start >= end (tt-metal host code swaps the corners for
// NOC_1). A rectangle in the wrong order faults; in the right order every core of it receives
// the data, through the free functions and through the Device 2.0 Noc object.
#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

// Args: x_start, y_start, x_end, y_end (NoC coordinates), number of destinations, a seed. Writes
// 16 words (seed + i) into CB 0 of every core of the rectangle, then raises their semaphore 0.
// DEVICE2 selects Noc::async_write_multicast with a MulticastEndpoint for the data.
const char* kSender = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/endpoints.h"
void kernel_main() {
    uint32_t xs = get_arg_val<uint32_t>(0), ys = get_arg_val<uint32_t>(1);
    uint32_t xe = get_arg_val<uint32_t>(2), ye = get_arg_val<uint32_t>(3);
    uint32_t n = get_arg_val<uint32_t>(4), seed = get_arg_val<uint32_t>(5);
    uint32_t l1 = get_write_ptr(0);
    volatile uint32_t* data = reinterpret_cast<volatile uint32_t*>(l1);
    for (uint32_t i = 0; i < 16; ++i) data[i] = seed + i;
#if DEVICE2
    Noc noc;
    CoreLocalMem<uint32_t> src(l1);
    MulticastEndpoint dst;
    noc.async_write_multicast(src, dst, 64, n, {.offset_bytes = 0},
                              {.noc_x_start = xs, .noc_y_start = ys, .noc_x_end = xe, .noc_y_end = ye, .addr = l1});
    noc.async_write_barrier();
#else
    noc_async_write_multicast(l1, get_noc_multicast_addr(xs, ys, xe, ye, l1), 64, n);
    noc_async_write_barrier();
#endif
    uint32_t sem = get_semaphore(0);
    *reinterpret_cast<volatile uint32_t*>(sem) = 1;
    noc_semaphore_set_multicast(sem, get_noc_multicast_addr(xs, ys, xe, ye, sem), n);
    noc_async_write_barrier();
}
)";

// Args: output buffer, grid width of the rectangle, its first logical x. Waits for the
// semaphore, then stores its CB 0 words as page (y * width + x - x0) of the output.
const char* kReceiver = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t out = get_arg_val<uint32_t>(0), width = get_arg_val<uint32_t>(1), x0 = get_arg_val<uint32_t>(2);
    noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(get_semaphore(0)), 1);
    uint32_t page = get_absolute_logical_y() * width + get_absolute_logical_x() - x0;
    noc_async_write(get_write_ptr(0), get_noc_addr(page, InterleavedAddrGen<true>{out, 64}), 64);
    noc_async_write_barrier();
}
)";

// "(x,y)" as the emulator's messages print a NoC coordinate.
std::string corner(CoreCoord c) {
    std::string r = "(";
    r += std::to_string(c.x);
    r += ",";
    r += std::to_string(c.y);
    return r + ")";
}

std::string sender_source(bool device2) { return std::string("#define DEVICE2 ") + (device2 ? "1" : "0") + kSender; }

KernelSpec sender_on(uint8_t noc, bool device2, CoreRangeSet cores) {
    return noc == 0 ? dm0("sender", sender_source(device2), std::move(cores))
                    : dm1("sender", sender_source(device2), std::move(cores));
}

struct NocMulticast : ::testing::Test {
    Device dev{preset("wormhole-n150")};

    // Core (0,0) multicasts on `noc` to logical cores (1,0)..(3,1), the corners in NoC
    // coordinates taken from `a` (start) and `b` (end). Returns the error, or checks delivery.
    std::optional<Error> send(uint8_t noc, bool device2, CoreCoord a, CoreCoord b, bool with_receivers = true,
                              uint32_t num_dests = 6) {
        CoreRangeSet sender{CoreRange{{0, 0}, {0, 0}}}, receivers{CoreRange{{1, 0}, {3, 1}}},
            all{CoreRange{{0, 0}, {3, 1}}};
        auto out = dev.buffer_create(6 * 64, 64);
        ProgramSpec s;
        s.cbs = {cb(0, 1, all, DataFormat::Float16_b, 64)};
        s.semaphores = {{all, 0}};
        s.kernels = {sender_on(noc, device2, sender)};
        if (with_receivers) s.kernels.push_back(dm0("receiver", kReceiver, receivers));
        auto p = dev.program_create(s);
        const CoreCoord ca = dev.worker_core(a), cb_ = dev.worker_core(b);
        const uint32_t seed = 1000u * (noc + 1) + (device2 ? 500u : 0u);
        dev.program_set_runtime_args(p, 0, {0, 0}, {ca.x, ca.y, cb_.x, cb_.y, num_dests, seed});
        if (with_receivers)
            for (uint32_t y = 0; y < 2; ++y)
                for (uint32_t x = 1; x < 4; ++x)
                    dev.program_set_runtime_args(p, 1, {x, y}, {uint32_t(out.address), 3, 1});
        auto err = run(dev, p);
        if (!err && with_receivers) {
            std::vector<uint32_t> got(6 * 16);
            dev.buffer_read(out.id, got.data(), 6 * 64);
            for (uint32_t r = 0; r < 6; ++r)
                for (uint32_t i = 0; i < 16; ++i)
                    EXPECT_EQ(got[r * 16 + i], seed + i) << "receiver " << r << " word " << i << " on NoC " << int(noc);
        }
        dev.buffer_free(out.id);
        dev.program_free(p);
        return err;
    }
};

}  // namespace

TEST_F(NocMulticast, RightOrderDeliversToEveryCoreOnBothNocs) {
    for (bool device2 : {false, true}) {
        auto e0 = send(0, device2, {1, 0}, {3, 1});
        EXPECT_FALSE(e0) << e0->what();
        auto e1 = send(1, device2, {3, 1}, {1, 0});
        EXPECT_FALSE(e1) << e1->what();
    }
}

TEST_F(NocMulticast, WrongOrderOnNoc0Faults) {
    const CoreCoord s = dev.worker_core({3, 1}), e = dev.worker_core({1, 0});
    const std::string rect = corner(s) + "-" + corner(e);
    auto err = send(0, false, {3, 1}, {1, 0}, false);
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::KernelFault, {"sender", "(0,0)", "BRISC", "multicast rectangle " + rect},
                 {"noc_async_write_multicast", "wrong order for NoC 0", "start corner must be <= the end corner"});
}

TEST_F(NocMulticast, WrongOrderOnNoc1Faults) {
    const CoreCoord s = dev.worker_core({1, 0}), e = dev.worker_core({3, 1});
    const std::string rect = corner(s) + "-" + corner(e);
    auto err = send(1, false, {1, 0}, {3, 1}, false);
    ASSERT_TRUE(err);
    // The message names the rectangle in the order NoC 1 needs.
    expect_check(*err, ErrorStatus::KernelFault, {"sender", "(0,0)", "NCRISC", "multicast rectangle " + rect},
                 {"wrong order for NoC 1", "start corner must be >= the end corner", "here " + corner(e)});
}

TEST_F(NocMulticast, OneDimensionWrongIsEnoughToFault) {
    // x in NoC 1 order, y in NoC 0 order: still wrong for NoC 1.
    auto err = send(1, false, {3, 0}, {1, 1}, false);
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::KernelFault, {"sender", "(0,0)", "NCRISC", "multicast rectangle"},
                 {"wrong order for NoC 1"});
}

TEST_F(NocMulticast, WrongOrderThroughDevice2NocFaults) {
    auto err = send(1, true, {1, 0}, {3, 1}, false);
    ASSERT_TRUE(err);
    expect_check(*err, ErrorStatus::KernelFault, {"sender", "(0,0)", "NCRISC", "multicast rectangle"},
                 {"noc_async_write_multicast", "wrong order for NoC 1"});
}

TEST_F(NocMulticast, OneWideSideTakesEitherOrder) {
    // A single row: start y == end y, so only x has an order. A row rectangle (1,0)..(3,0) with
    // 3 destinations; receivers are not run (the row is only half of their rectangle).
    for (uint8_t noc : {uint8_t(0), uint8_t(1)}) {
        CoreCoord a = noc == 0 ? CoreCoord{1, 0} : CoreCoord{3, 0}, b = noc == 0 ? CoreCoord{3, 0} : CoreCoord{1, 0};
        auto err = send(noc, false, a, b, false, 3);
        EXPECT_FALSE(err) << err->what();
        // A single core: start == end in both x and y.
        err = send(noc, false, {2, 1}, {2, 1}, false, 1);
        EXPECT_FALSE(err) << err->what();
    }
}
