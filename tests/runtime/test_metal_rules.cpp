// The metal target's rules that need no tt-metal (runtime/metal_rules.hpp): API flavour by
// version, tt-metal exception classification, unreserved L1, board choice, bounded waits.
#include "metal_rules.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

using namespace zyx;
using namespace zyx::tt;
using namespace zyx::tt::runtime::metal;
using namespace std::chrono_literals;

namespace {
std::filesystem::path temp_dir(const std::string& tag) {
    auto p = std::filesystem::temp_directory_path() / ("zyx-metal-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

ErrorStatus status_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) { return e.status(); }
    ADD_FAILURE() << "no zyx::Error thrown";
    return ErrorStatus::Internal;
}
}  // namespace

// ---- versions ----------------------------------------------------------------------------------------

TEST(MetalVersion, ParsesReleaseTagsAndSuffixes) {
    EXPECT_EQ(parse_metal_version("0.62.0"), (MetalVersion{0, 62, 0}));
    EXPECT_EQ(parse_metal_version("v0.62.2"), (MetalVersion{0, 62, 2}));
    EXPECT_EQ(parse_metal_version("0.74"), (MetalVersion{0, 74, 0}));
    EXPECT_EQ(parse_metal_version("0.65.0-rc3"), (MetalVersion{0, 65, 0}));
    EXPECT_EQ(parse_metal_version("0.62.0+12.abcdef1234"), (MetalVersion{0, 62, 0}));
    EXPECT_EQ(parse_metal_version(ZYX_TT_METAL_PINNED_VERSION), (MetalVersion{0, 62, 0}));
}

TEST(MetalVersion, RejectsWhatIsNotAVersion) {
    for (const char* s : {"", "v", "0", "0.", ".62.0", "0.62.", "0.62.0x", "a.b.c", "0.1000.0", "0.62.0.1"})
        EXPECT_FALSE(parse_metal_version(s).has_value()) << s;
}

TEST(MetalVersion, NumberOrdersVersions) {
    EXPECT_EQ(metal_version_number({0, 74, 0}), 74000u);
    EXPECT_EQ(metal_version_number({1, 2, 3}), 1002003u);
    EXPECT_LT(metal_version_number({0, 62, 999}), metal_version_number({0, 63, 0}));
}

TEST(MetalVersion, FlavourFollowsThe2026ApiThreshold) {
    MetalApiFlavour pinned = metal_api_flavour(*parse_metal_version(ZYX_TT_METAL_PINNED_VERSION));
    EXPECT_FALSE(pinned.shard_transfer_builder);
    EXPECT_TRUE(pinned.compile_program);
    MetalApiFlavour before = metal_api_flavour({0, 73, 9});
    EXPECT_FALSE(before.shard_transfer_builder);
    EXPECT_TRUE(before.compile_program);
    MetalApiFlavour at = metal_api_flavour({0, 74, 0});
    EXPECT_TRUE(at.shard_transfer_builder);
    EXPECT_FALSE(at.compile_program);
    EXPECT_TRUE(metal_api_flavour({1, 0, 0}).shard_transfer_builder);
}

// ---- classification: one real tt-metal message per row ---------------------------------------------

TEST(MetalErrors, KernelBuildFailureIsKernelCompilation) {
    const std::string msg =
        "TT_THROW @ tt_metal/impl/program/program.cpp:71: tt::exception\ninfo:\nFailed to generate binaries for "
        "reader_unary TT_THROW @ tt_metal/jit_build/build.cpp:55: tt::exception\ninfo:\nncrisc build failed. Log: "
        "reader_unary.cpp:3:10: fatal error: missing.h: No such file or directory";
    EXPECT_EQ(classify_metal_error(msg, MetalPhase::Build), ErrorStatus::KernelCompilation);
    // The same failure surfaces at the first launch when the program was not compiled before.
    EXPECT_EQ(classify_metal_error(msg, MetalPhase::Launch), ErrorStatus::KernelCompilation);
}

TEST(MetalErrors, RiscBuildFailureAloneIsKernelCompilation) {
    EXPECT_EQ(classify_metal_error("trisc0 build failed. Log: In file included from compute.cpp:3", MetalPhase::Launch),
              ErrorStatus::KernelCompilation);
}

TEST(MetalErrors, CircularBuffersBeyondL1AreInvalidArgument) {
    const std::string msg =
        "TT_THROW @ tt_metal/impl/program/program.cpp:1722: tt::exception\ninfo:\nStatically allocated circular "
        "buffers on core range [(x=0,y=0) - (x=0,y=0)] grow to 2208256 B which is beyond max L1 size of 1572864 B";
    EXPECT_EQ(classify_metal_error(msg, MetalPhase::Build), ErrorStatus::InvalidArgument);
    EXPECT_EQ(classify_metal_error(msg, MetalPhase::Launch), ErrorStatus::InvalidArgument);
}

TEST(MetalErrors, PageSizeNotDividingTheCbIsInvalidArgument) {
    EXPECT_EQ(
        classify_metal_error("Failed allocation attempt on buffer index 3. Total circular buffer size 4096 B must be "
                             "divisible by page size 3000 B",
                             MetalPhase::Build),
        ErrorStatus::InvalidArgument);
}

TEST(MetalErrors, TooManyCircularBuffersIsInvalidArgument) {
    EXPECT_EQ(classify_metal_error("Buffer index (40) exceeds max number of circular buffers per core (32)",
                                   MetalPhase::Build),
              ErrorStatus::InvalidArgument);
}

TEST(MetalErrors, IllegalCbIndexIsInvalidArgument) {
    EXPECT_EQ(
        classify_metal_error("Illegal circular buffer index 5. Page size can only be specified for buffer indices "
                             "configured during config creation",
                             MetalPhase::Build),
        ErrorStatus::InvalidArgument);
}

TEST(MetalErrors, UnknownMessageFallsBackByPhase) {
    EXPECT_EQ(classify_metal_error("Device 0 is not initialized", MetalPhase::Build), ErrorStatus::KernelCompilation);
    EXPECT_EQ(classify_metal_error("Device 0 is not initialized", MetalPhase::Launch), ErrorStatus::KernelLaunch);
    EXPECT_EQ(classify_metal_error("", MetalPhase::Launch), ErrorStatus::KernelLaunch);
}

TEST(MetalErrors, EveryRowNamesItsSourceAndMatchesItself) {
    ASSERT_FALSE(metal_error_rules().empty());
    for (const MetalErrorRule& r : metal_error_rules()) {
        EXPECT_FALSE(r.fragment.empty());
        EXPECT_EQ(r.source.rfind("tt_metal/", 0), 0u) << r.fragment;
        EXPECT_EQ(classify_metal_error(r.fragment, MetalPhase::Launch), r.status) << r.fragment;
    }
}

// ---- L1 ----------------------------------------------------------------------------------------------

TEST(MetalL1, UnreservedIsSizeMinusBase) {
    EXPECT_EQ(unreserved_l1_bytes(1499136, 98304), 1499136u - 98304u);    // Wormhole-like numbers
    EXPECT_EQ(unreserved_l1_bytes(1572864, 163840), 1572864u - 163840u);  // Blackhole-like numbers
    EXPECT_EQ(unreserved_l1_bytes(1572864, 0), 1572864u);
    EXPECT_EQ(unreserved_l1_bytes(100, 99), 1u);
}

TEST(MetalL1, BaseAtOrAboveSizeIsInitialization) {
    EXPECT_EQ(status_of([] { unreserved_l1_bytes(1024, 1024); }), ErrorStatus::Initialization);
    EXPECT_EQ(status_of([] { unreserved_l1_bytes(1024, 4096); }), ErrorStatus::Initialization);
    EXPECT_EQ(status_of([] { unreserved_l1_bytes(0, 0); }), ErrorStatus::Initialization);
    EXPECT_EQ(status_of([] { unreserved_l1_bytes(uint64_t(1) << 33, 0); }), ErrorStatus::Initialization);
}

// ---- board choice ------------------------------------------------------------------------------------

namespace {
std::vector<PciBoard> two_cards() {
    // Sorted by address, as pci_boards() returns them.
    return {{"0000:01:00.0", 0x0040, "p150a", 32ull << 30}, {"0000:05:00.0", 0x0043, "p100a", 28ull << 30}};
}
}  // namespace

TEST(MetalBoard, LocalChipByItsPciAddressNotByIndex) {
    // tt-metal's chip 0 is the card at 05:00.0, the second in PCI order.
    MmioPciAddresses mmio = {{0, "0000:05:00.0"}, {1, "0000:01:00.0"}};
    EXPECT_EQ(board_for_chip(two_cards(), {0, 0}, mmio), std::optional<size_t>(1));
    EXPECT_EQ(board_for_chip(two_cards(), {1, 1}, mmio), std::optional<size_t>(0));
}

TEST(MetalBoard, RemoteChipResolvesToItsMmioCard) {
    // The remote chip (id 2) of an n300-like card is reached through chip 0 on 05:00.0.
    MmioPciAddresses mmio = {{0, "0000:05:00.0"}, {1, "0000:01:00.0"}};
    EXPECT_EQ(board_for_chip(two_cards(), {2, 0}, mmio), std::optional<size_t>(1));
}

TEST(MetalBoard, AddressesCompareWithoutCaseAndDefaultDomain) {
    std::vector<PciBoard> boards = {{"0000:0a:00.0", 0x0040, "p150a", 32ull << 30}};
    EXPECT_EQ(board_for_chip(boards, {0, 0}, {{0, "0A:00.0"}}), std::optional<size_t>(0));
}

TEST(MetalBoard, NotFoundIsNone) {
    EXPECT_FALSE(board_for_chip(two_cards(), {0, 0}, {{0, "0000:09:00.0"}}).has_value());  // no such card
    EXPECT_FALSE(board_for_chip(two_cards(), {3, 3}, {{0, "0000:05:00.0"}}).has_value());  // MMIO chip unknown
    EXPECT_FALSE(board_for_chip({}, {0, 0}, {{0, "0000:05:00.0"}}).has_value());
}

TEST(MetalBoard, DeviceNumberToPciAddressThroughSysfs) {
    auto dir = temp_dir("class");
    std::filesystem::create_directories(dir / "tenstorrent!0");
    std::filesystem::create_symlink("../../../devices/pci0000:00/0000:00:01.0/0000:05:00.0",
                                    dir / "tenstorrent!0" / "device");
    std::filesystem::create_directories(dir / "tenstorrent3");
    std::filesystem::create_symlink("../../../0000:01:00.0", dir / "tenstorrent3" / "device");
    std::filesystem::create_directories(dir / "tenstorrent!4");
    std::filesystem::create_symlink("../../../virtual/misc", dir / "tenstorrent!4" / "device");
    EXPECT_EQ(pci_address_of_device_number(0, dir), std::optional<std::string>("0000:05:00.0"));
    EXPECT_EQ(pci_address_of_device_number(3, dir), std::optional<std::string>("0000:01:00.0"));
    EXPECT_FALSE(pci_address_of_device_number(4, dir).has_value());  // not a PCI address
    EXPECT_FALSE(pci_address_of_device_number(1, dir).has_value());  // absent
    EXPECT_FALSE(pci_address_of_device_number(-1, dir).has_value());
    std::filesystem::remove_all(dir);
}

// ---- bounded waits -----------------------------------------------------------------------------------

TEST(MetalTimeout, RunTimeoutFromEnvironment) {
    EXPECT_EQ(run_timeout_from_env(nullptr), kDefaultRunTimeout);
    EXPECT_EQ(run_timeout_from_env(""), kDefaultRunTimeout);
    EXPECT_EQ(run_timeout_from_env("2500"), 2500ms);
    for (const char* bad : {"0", "-5", "12x", "3600001", "99999999999"})
        EXPECT_EQ(status_of([&] { run_timeout_from_env(bad); }), ErrorStatus::Initialization) << bad;
}

TEST(MetalTimeout, CallableInTimeReturnsItsResult) {
    EXPECT_EQ(run_with_deadline("adding", 5s, [] { return 40 + 2; }), 42);
    int calls = 0;
    run_with_deadline("counting", 5s, [&calls] { ++calls; });
    EXPECT_EQ(calls, 1);
}

TEST(MetalTimeout, BlockedCallableGivesTimeoutNamingIt) {
    // Shared with the callable, which outlives the call on the detached thread.
    struct Gate {
        std::mutex m;
        std::condition_variable cv;
        bool open = false, finished = false;
    };
    auto gate = std::make_shared<Gate>();
    auto start = std::chrono::steady_clock::now();
    try {
        run_bounded("program 7 on tt-metal", 100ms, [gate] {
            std::unique_lock lock(gate->m);
            gate->cv.wait(lock, [&] { return gate->open; });
            gate->finished = true;
            gate->cv.notify_all();
        });
        FAIL() << "no timeout";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::Timeout);
        EXPECT_NE(e.message().find("program 7 on tt-metal"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("100 ms"), std::string::npos) << e.message();
    }
    EXPECT_GE(std::chrono::steady_clock::now() - start, 100ms);
    // Release the callable and wait until its thread has run it to the end.
    std::unique_lock lock(gate->m);
    gate->open = true;
    gate->cv.notify_all();
    EXPECT_TRUE(gate->cv.wait_for(lock, 5s, [&] { return gate->finished; }));
}

TEST(MetalTimeout, CallableExceptionIsRethrownAsIs) {
    try {
        run_bounded("launch", 5s, [] { throw Error(ErrorStatus::KernelLaunch, "program 3: bad args"); });
        FAIL() << "nothing thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::KernelLaunch);
        EXPECT_EQ(e.message(), "program 3: bad args");
    }
    EXPECT_THROW(run_with_deadline("other", 5s, []() -> int { throw std::runtime_error("tt-metal said no"); }),
                 std::runtime_error);
}
