// Device API: presets, DRAM buffers (interleaving, bounds, errors), stats.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "core/error.hpp"
#include "emu/device.hpp"

using namespace zyx;
using namespace zyx::emu;

namespace {
template <class F>
Error expect_error(F&& f) {
    try {
        f();
    } catch (const Error& e) { return e; }
    ADD_FAILURE() << "expected zyx::Error";
    return Error(ErrorStatus::Internal, "none");
}
}  // namespace

TEST(EmuDevice, PresetsHaveTheDocumentedFigures) {
    const auto& wh = preset("wormhole-n150");
    EXPECT_EQ(wh.grid_x, 8u);
    EXPECT_EQ(wh.grid_y, 8u);
    EXPECT_EQ(wh.dram_banks, 12u);
    EXPECT_EQ(wh.dram_alignment, 32u);
    EXPECT_EQ(wh.num_cbs, 32u);
    EXPECT_EQ(wh.l1_bytes, 1499136u);
    const auto& p100 = preset("blackhole-p100a");
    EXPECT_EQ(p100.grid_x * p100.grid_y, 110u);
    EXPECT_EQ(p100.dram_banks, 7u);
    EXPECT_EQ(p100.dram_alignment, 64u);
    EXPECT_EQ(p100.num_cbs, 64u);
    EXPECT_EQ(preset("blackhole-p150").dram_banks, 8u);
    auto e = expect_error([] { preset("grayskull"); });
    EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
    EXPECT_NE(e.message().find("grayskull"), std::string::npos);
    EXPECT_NE(e.message().find("wormhole-n150"), std::string::npos);
}

TEST(EmuDevice, BufferRoundTripAndInterleaving) {
    Device dev(preset("wormhole-n150"));
    const uint32_t page = 100;  // not a multiple of the 32 B DRAM alignment: stride is 128
    auto b = dev.buffer_create(page * 30, page);
    EXPECT_NE(b.address, 0u);
    EXPECT_EQ(b.address % 32, 0u);
    std::vector<uint8_t> in(page * 30), out(page * 30);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + 3);
    dev.buffer_write(b.id, in.data(), in.size());
    dev.buffer_read(b.id, out.data(), out.size());
    EXPECT_EQ(in, out);
    // Partial read across a page boundary.
    std::vector<uint8_t> part(150);
    dev.buffer_read(b.id, part.data(), part.size(), 250);
    EXPECT_EQ(0, std::memcmp(part.data(), in.data() + 250, 150));
    EXPECT_EQ(dev.tensor_accessor_args(b.id), (std::vector<uint32_t>{2, 128}));
    auto s = dev.stats();
    EXPECT_EQ(s.buffers, 1u);
    // 30 pages over 12 banks: 3 pages of 128 B reserved in every bank.
    EXPECT_EQ(s.dram_bytes_allocated, 12u * 3 * 128);
    dev.buffer_free(b.id);
    EXPECT_EQ(dev.stats().dram_bytes_allocated, 0u);
}

TEST(EmuDevice, BufferErrorsNameTheBuffer) {
    Device dev(preset("blackhole-p100a"));
    auto b = dev.buffer_create(4096, 2048);
    std::vector<uint8_t> data(8192);
    auto e = expect_error([&] { dev.buffer_write(b.id, data.data(), 8192); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryCopyH2P);
    EXPECT_NE(e.message().find("buffer " + std::to_string(b.id)), std::string::npos);
    e = expect_error([&] { dev.buffer_read(b.id, data.data(), 10, 4090); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryCopyP2H);
    e = expect_error([&] { dev.buffer_read(999, data.data(), 10); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryCopyP2H);
    EXPECT_NE(e.message().find("999"), std::string::npos);
    e = expect_error([&] { dev.buffer_free(999); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryDeallocation);
    e = expect_error([&] { dev.buffer_create(0, 2048); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryAllocation);
    e = expect_error([&] { dev.buffer_create(3000, 2048); });
    EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
    // Larger than all banks together.
    e = expect_error([&] { dev.buffer_create(uint64_t(64) << 30, 2048); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryAllocation);
    // The first buffer is still intact after all that.
    std::vector<uint8_t> in(4096, 0x5a), out(4096);
    dev.buffer_write(b.id, in.data(), in.size());
    dev.buffer_read(b.id, out.data(), out.size());
    EXPECT_EQ(in, out);
}

TEST(EmuDevice, FreedSpaceIsReused) {
    Device dev(preset("wormhole-n150"));
    auto a = dev.buffer_create(12 * 2048, 2048);
    auto b = dev.buffer_create(12 * 2048, 2048);
    EXPECT_NE(a.address, b.address);
    dev.buffer_free(a.id);
    auto c = dev.buffer_create(12 * 2048, 2048);
    EXPECT_EQ(c.address, a.address);
    EXPECT_NE(c.id, a.id);
}

TEST(EmuDevice, NocCoordinates) {
    Device wh(preset("wormhole-n150"));
    EXPECT_EQ(wh.worker_core({1, 0}), (CoreCoord{19, 18}));
    EXPECT_EQ(expect_error([&] { wh.worker_core({8, 0}); }).status(), ErrorStatus::InvalidArgument);
    Device bh(preset("blackhole-p150"));
    EXPECT_EQ(bh.worker_core({7, 0}), (CoreCoord{10, 2}));
}

TEST(EmuDevice, CustomSpecsOutsideTheModelAreRefused) {
    struct Case {
        const char* field;
        void (*edit)(DeviceSpec&);
    };
    const Case cases[] = {
        {"num_cbs 65", [](DeviceSpec& s) { s.num_cbs = 65; }},
        {"dram_banks 0", [](DeviceSpec& s) { s.dram_banks = 0; }},
        {"dram_banks 100", [](DeviceSpec& s) { s.dram_banks = 100; }},
        {"grid 46x8", [](DeviceSpec& s) { s.grid_x = 46; }},
        {"grid 8x0", [](DeviceSpec& s) { s.grid_y = 0; }},
        {"powers of two", [](DeviceSpec& s) { s.dram_alignment = 48; }},
        {"l1_bytes 4194304", [](DeviceSpec& s) { s.l1_bytes = 4u << 20; }},
        {"noc_max_burst is 0", [](DeviceSpec& s) { s.noc_max_burst = 0; }},
    };
    for (const Case& c : cases) {
        DeviceSpec s = preset("wormhole-n150");
        s.name = "custom";
        c.edit(s);
        Error e = expect_error([&] { Device d(s); });
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument) << e.what();
        EXPECT_NE(e.message().find("device spec 'custom'"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find(c.field), std::string::npos) << "want '" << c.field << "' in: " << e.message();
    }
    DeviceSpec bh = preset("blackhole-p150");
    bh.grid_x = 15;  // Blackhole has 14 Tensix columns
    EXPECT_EQ(expect_error([&] { Device d(bh); }).status(), ErrorStatus::InvalidArgument);
    DeviceSpec ok = preset("wormhole-n150");
    ok.grid_x = ok.grid_y = 2;
    ok.num_cbs = 64;
    Device d(ok);  // a smaller custom chip is fine
    EXPECT_EQ(d.spec().grid_x, 2u);
}
