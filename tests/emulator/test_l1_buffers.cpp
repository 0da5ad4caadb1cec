// L1 buffers (interleaved over the worker cores' L1 banks; height-, width- and block-sharded),
// CBs placed on a buffer, the CB / L1-buffer clash check, aliased CBs and named compile-time args
// (emulator/src/emu/device.hpp; layouts as tt-metal's L1 banking allocator and
// generate_buffer_page_mapping place them, emulator/README.md "L1 buffers").
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

BufferConfig l1_config(uint64_t size, uint32_t page, BufferLayout layout = BufferLayout::Interleaved,
                       const ShardSpec& shard = {}) {
    BufferConfig c;
    c.size = size;
    c.page_bytes = page;
    c.type = BufferType::L1;
    c.layout = layout;
    c.shard = shard;
    return c;
}

uint32_t align16(uint32_t v) { return (v + 15) / 16 * 16; }

// Host model of a sharded buffer (independent of the emulator's code): shards row-major over
// the shard grid, cores in orientation order, slot = row-in-shard * shard width + column.
struct ShardModel {
    uint32_t core_x, core_y, slot;
};
ShardModel shard_model(const ShardSpec& s, uint64_t page) {
    uint32_t sh = s.shard_shape[0] / s.page_shape[0], sw = s.shard_shape[1] / s.page_shape[1];
    uint32_t tw = s.tensor_shape_in_pages[1];
    uint32_t grid_w = (tw + sw - 1) / sw;
    uint32_t row = uint32_t(page / tw), col = uint32_t(page % tw);
    uint32_t shard = (row / sh) * grid_w + col / sw;
    // One range: its cores in order.
    const CoreRange& r = s.cores[0];
    uint32_t w = r.end.x - r.start.x + 1, h = r.end.y - r.start.y + 1;
    uint32_t x, y;
    if (s.orientation == ShardOrientation::RowMajor)
        x = r.start.x + shard % w, y = r.start.y + shard / w;
    else
        x = r.start.x + shard / h, y = r.start.y + shard % h;
    return {x, y, (row % sh) * sw + col % sw};
}

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i * 7 + seed + i / 251);
    return v;
}

}  // namespace

// Page i of an L1-interleaved buffer on bank i % 64 (core (b % 8, b / 8)) at address +
// (i / 64) * align16(page); the first buffer ends at the end of L1 (top-down allocation); host
// writes and reads round-trip; freeing returns the range.
TEST(EmuL1Buffers, InterleavedLayoutAndRoundTrip) {
    Device dev(preset("wormhole-n150"));
    const auto& s = dev.spec();
    const uint32_t banks = s.grid_x * s.grid_y, page = 40, n = 150;
    Buffer b = dev.buffer_create(l1_config(n * page, page));
    EXPECT_EQ(b.type, BufferType::L1);
    const uint32_t rows = (n + banks - 1) / banks;
    EXPECT_EQ(b.address + rows * align16(page), s.l1_bytes);
    for (uint32_t i = 0; i < n; ++i) {
        PageLocation loc = dev.buffer_page_location(b.id, i);
        uint32_t bank = i % banks;
        EXPECT_EQ(loc.type, BufferType::L1);
        EXPECT_EQ(loc.bank, bank);
        EXPECT_EQ(loc.core, (CoreCoord{bank % s.grid_x, bank / s.grid_x})) << "page " << i;
        EXPECT_EQ(loc.address, b.address + (i / banks) * align16(page)) << "page " << i;
    }
    EXPECT_EQ(dev.l1_bank_core(9), (CoreCoord{1, 1}));
    auto host = pattern(n * page, 3);
    dev.buffer_write(b.id, host.data(), host.size());
    std::vector<uint8_t> back(host.size());
    dev.buffer_read(b.id, back.data(), back.size());
    EXPECT_EQ(back, host);
    EXPECT_EQ(dev.tensor_accessor_args(b.id), (std::vector<uint32_t>{0, align16(page)}));

    // A second buffer goes below the first; freeing both gives the top back.
    Buffer c = dev.buffer_create(l1_config(64 * 16, 16));
    EXPECT_EQ(c.address + 16, b.address);
    dev.buffer_free(b.id);
    dev.buffer_free(c.id);
    Buffer d = dev.buffer_create(l1_config(64 * 16, 16));
    EXPECT_EQ(d.address + 16, s.l1_bytes);

    auto e = catch_error([&] { dev.buffer_create(l1_config(uint64_t(banks) * s.l1_bytes, 1024)); });
    EXPECT_EQ(e.status(), ErrorStatus::MemoryAllocation);
    EXPECT_TRUE(contains(e.message(), "L1 bank")) << e.message();
}

// Each sharding layout's page → (core, address) against the host model, and a round trip.
TEST(EmuL1Buffers, ShardedLayoutsMatchTheHostModel) {
    Device dev(preset("wormhole-n150"));
    struct Case {
        const char* name;
        BufferLayout layout;
        ShardSpec spec;
    };
    // Pages of 32x32 elements (a tile), 64 B each here; partial edge shards included.
    const std::array<uint32_t, 2> tile{32, 32};
    std::vector<Case> cases = {
        {"height",
         BufferLayout::HeightSharded,
         {{CoreRange{{1, 2}, {3, 3}}}, {96, 64}, ShardOrientation::RowMajor, tile, {16, 2}}},
        {"width",
         BufferLayout::WidthSharded,
         {{CoreRange{{0, 0}, {0, 4}}}, {64, 64}, ShardOrientation::ColMajor, tile, {2, 9}}},
        {"block-row",
         BufferLayout::BlockSharded,
         {{CoreRange{{2, 1}, {4, 2}}}, {64, 96}, ShardOrientation::RowMajor, tile, {4, 8}}},
        {"block-col",
         BufferLayout::BlockSharded,
         {{CoreRange{{2, 1}, {3, 3}}}, {64, 96}, ShardOrientation::ColMajor, tile, {5, 6}}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const uint32_t page = 64;
        const uint64_t n = uint64_t(c.spec.tensor_shape_in_pages[0]) * c.spec.tensor_shape_in_pages[1];
        Buffer b = dev.buffer_create(l1_config(n * page, page, c.layout, c.spec));
        for (uint64_t i = 0; i < n; ++i) {
            ShardModel m = shard_model(c.spec, i);
            PageLocation loc = dev.buffer_page_location(b.id, i);
            EXPECT_EQ(loc.core, (CoreCoord{m.core_x, m.core_y})) << "page " << i;
            EXPECT_EQ(loc.address, b.address + m.slot * page) << "page " << i;
        }
        auto host = pattern(n * page, 11);
        dev.buffer_write(b.id, host.data(), host.size());
        std::vector<uint8_t> back(host.size());
        dev.buffer_read(b.id, back.data(), back.size());
        EXPECT_EQ(back, host);
        EXPECT_EQ(catch_error([&] { dev.tensor_accessor_args(b.id); }).status(), ErrorStatus::Unsupported);
        dev.buffer_free(b.id);
    }
    // Too many shards for the grid; a height-sharded shard narrower than the tensor.
    ShardSpec s{{CoreRange{{0, 0}, {1, 0}}}, {32, 32}, ShardOrientation::RowMajor, tile, {3, 1}};
    auto e = catch_error([&] { dev.buffer_create(l1_config(3 * 64, 64, BufferLayout::HeightSharded, s)); });
    EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
    EXPECT_TRUE(contains(e.message(), "3 shards")) << e.message();
    s.tensor_shape_in_pages = {1, 2};
    e = catch_error([&] { dev.buffer_create(l1_config(2 * 64, 64, BufferLayout::HeightSharded, s)); });
    EXPECT_TRUE(contains(e.message(), "full width")) << e.message();
}

// A kernel copies an L1-interleaved buffer to DRAM through two TensorAccessors (L1 and DRAM
// args), its page count a named compile-time arg.
TEST(EmuL1Buffers, KernelReadsL1InterleavedThroughTensorAccessor) {
    Device dev(preset("wormhole-n150"));
    const uint32_t page = 48, n = 70;
    Buffer src = dev.buffer_create(l1_config(n * page, page));
    Buffer dst = dev.buffer_create(n * page, page);
    auto host = pattern(n * page, 5);
    dev.buffer_write(src.id, host.data(), host.size());
    std::vector<uint32_t> ct = dev.tensor_accessor_args(src.id);
    auto dct = dev.tensor_accessor_args(dst.id);
    ct.insert(ct.end(), dct.begin(), dct.end());
    KernelSpec k = dm1("l1_copy", R"(
void kernel_main() {
    constexpr auto src_args = TensorAccessorArgs<0>();
    constexpr auto dst_args = TensorAccessorArgs<src_args.next_compile_time_args_offset()>();
    constexpr uint32_t n = get_named_compile_time_arg_val("num_pages");
    const uint32_t page = get_arg_val<uint32_t>(2);
    const auto src = TensorAccessor(src_args, get_arg_val<uint32_t>(0), page);
    const auto dst = TensorAccessor(dst_args, get_arg_val<uint32_t>(1), page);
    uint32_t l1 = get_write_ptr(0);
    for (uint32_t i = 0; i < n; ++i) {
        noc_async_read_page(i, src, l1);
        noc_async_read_barrier();
        noc_async_write_page(i, dst, l1);
        noc_async_write_barrier();
    }
})",
                       one_core(), ct);
    k.named_compile_args = {{"num_pages", n}};
    ProgramSpec spec;
    spec.kernels = {k};
    spec.cbs = {cb(0, 1, one_core())};
    ProgramId p = dev.program_create(spec);
    dev.program_set_runtime_args(p, 0, {0, 0}, {src.address, dst.address, page});
    ASSERT_FALSE(run(dev, p));
    std::vector<uint8_t> back(host.size());
    dev.buffer_read(dst.id, back.data(), back.size());
    EXPECT_EQ(back, host);
}

// The older address generators reach L1-interleaved buffers too: InterleavedAddrGen<false> pages
// land where the TensorAccessor puts them, and get_noc_addr_from_bank_id<false> names bank b's
// core (page b of the buffer, b below the bank count).
TEST(EmuL1Buffers, KernelReadsL1InterleavedThroughAddressGenerators) {
    Device dev(preset("wormhole-n150"));
    const uint32_t page = 64, n = 70;
    Buffer src = dev.buffer_create(l1_config(n * page, page));
    Buffer dst = dev.buffer_create(n * page, page);
    auto host = pattern(n * page, 9);
    dev.buffer_write(src.id, host.data(), host.size());
    KernelSpec k = dm1("l1_addrgen_copy", R"(
void kernel_main() {
    const uint32_t src_addr = get_arg_val<uint32_t>(0), dst_addr = get_arg_val<uint32_t>(1);
    const uint32_t page = get_arg_val<uint32_t>(2), n = get_arg_val<uint32_t>(3);
    const InterleavedAddrGen<false> src = {.bank_base_address = src_addr, .page_size = page};
    const InterleavedAddrGen<true> dst = {.bank_base_address = dst_addr, .page_size = page};
    uint32_t l1 = get_write_ptr(0);
    for (uint32_t i = 0; i < n; ++i) {
        // The first 64 pages once more through the bank id: the same bytes.
        const uint64_t from = i < 64 ? get_noc_addr_from_bank_id<false>(i, src_addr) : src.get_noc_addr(i);
        noc_async_read(from, l1, page);
        noc_async_read_barrier();
        noc_async_write(l1, dst.get_noc_addr(i), page);
        noc_async_write_barrier();
    }
})",
                       one_core(), {});
    ProgramSpec spec;
    spec.kernels = {k};
    spec.cbs = {cb(0, 1, one_core())};
    ProgramId p = dev.program_create(spec);
    dev.program_set_runtime_args(p, 0, {0, 0}, {src.address, dst.address, page, n});
    {
        auto e = run(dev, p);
        ASSERT_FALSE(e) << e->what();
    }
    std::vector<uint8_t> back(host.size());
    dev.buffer_read(dst.id, back.data(), back.size());
    EXPECT_EQ(back, host);
}

// A CB placed on a height-sharded buffer sees each core's own shard; kernels change it in place.
TEST(EmuL1Buffers, CircularBufferOnShardedBuffer) {
    Device dev(preset("wormhole-n150"));
    const std::array<uint32_t, 2> row{1, 16};  // a page: one row of 16 uint32 (64 B)
    ShardSpec s{{CoreRange{{0, 0}, {1, 0}}}, {4, 16}, ShardOrientation::RowMajor, row, {8, 1}};
    Buffer b = dev.buffer_create(l1_config(8 * 64, 64, BufferLayout::HeightSharded, s));
    std::vector<uint32_t> host(8 * 16);
    std::iota(host.begin(), host.end(), 0u);
    dev.buffer_write(b.id, host.data(), host.size() * 4);
    CoreRangeSet both{CoreRange{{0, 0}, {1, 0}}};
    CircularBufferSpec c = cb(0, 4, both, DataFormat::UInt32, 64);
    c.buffer = b.id;
    ProgramSpec spec;
    spec.cbs = {c};
    spec.kernels = {dm0("bump", R"(
void kernel_main() {
    uint32_t* p = reinterpret_cast<uint32_t*>(get_write_ptr(0));
    for (uint32_t i = 0; i < 64; ++i) p[i] += get_arg_val<uint32_t>(0);
})",
                        both)};
    ProgramId p = dev.program_create(spec);
    dev.program_set_runtime_args(p, 0, {0, 0}, {1000});
    dev.program_set_runtime_args(p, 0, {1, 0}, {2000});
    ASSERT_FALSE(run(dev, p));
    std::vector<uint32_t> back(host.size());
    dev.buffer_read(b.id, back.data(), back.size() * 4);
    for (uint32_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i], i + (i < 64 ? 1000u : 2000u)) << "word " << i;

    // A CB larger than the buffer's shard is refused at launch.
    c.num_pages = 5;
    spec.cbs = {c};
    auto e = catch_error([&] { dev.program_create(spec); });
    EXPECT_TRUE(contains(e.message(), "circular buffer 0")) << e.message();
    EXPECT_TRUE(contains(e.message(), "L1 buffer " + std::to_string(b.id))) << e.message();
}

// Static CBs reaching into an L1 buffer fail at program_create (buffer first) and at launch
// (buffer allocated after the program), naming the CB, the core and the buffer.
TEST(EmuL1Buffers, StaticCircularBuffersClashWithL1Buffers) {
    Device dev(preset("wormhole-n150"));
    const auto& s = dev.spec();
    const uint32_t page = 16384, pages = (s.l1_bytes - s.l1_unreserved_base) / page - 1;
    ProgramSpec spec;
    spec.cbs = {cb(0, 1, one_core(2, 3)), cb(5, pages, one_core(2, 3), DataFormat::Float16_b, page)};
    ProgramId p = dev.program_create(spec);  // fits while no L1 buffer exists
    Buffer b = dev.buffer_create(l1_config(64 * 32768, 32768));
    auto e = catch_error([&] { dev.program_launch(p); });
    EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
    for (const char* part : {"clash with L1 buffers", "core (2,3)", "circular buffer 5"})
        EXPECT_TRUE(contains(e.message(), part)) << e.message();
    EXPECT_TRUE(contains(e.message(), "L1 buffer " + std::to_string(b.id))) << e.message();
    e = catch_error([&] { dev.program_create(spec); });
    EXPECT_TRUE(contains(e.message(), "clash with L1 buffers")) << e.message();
    dev.buffer_free(b.id);
    EXPECT_FALSE(run(dev, p));
}

// One CB config for indices 0 and 1 (tt-metal's several-index CircularBufferConfig): one L1
// region, each index with its own page size, page count and pointers.
TEST(EmuL1Buffers, AliasedCircularBuffersShareOneRegion) {
    Device dev(preset("wormhole-n150"));
    CircularBufferSpec c = cb(0, 2, one_core(), DataFormat::Float16_b, 2048);
    c.aliases.push_back({1, DataFormat::Float32, 1024});
    ProgramSpec spec;
    spec.cbs = {c, cb(2, 1, one_core())};
    spec.kernels = {dm0("alias", R"(
void kernel_main() {
    uint32_t base = get_write_ptr(0);
    ASSERT(get_write_ptr(1) == base);
    ASSERT(get_write_ptr(2) >= base + 4096);
    cb_reserve_back(0, 1);
    reinterpret_cast<volatile uint32_t*>(base)[0] = 1234;
    cb_push_back(0, 1);
    ASSERT(get_write_ptr(0) == base + 2048);
    ASSERT(get_write_ptr(1) == base);          // its own pointer did not move
    ASSERT(cb_pages_reservable_at_back(1, 4)); // 4 pages of 1024 B, its own counters
    cb_reserve_back(1, 1);
    cb_push_back(1, 1);
    ASSERT(get_write_ptr(1) == base + 1024);
    cb_wait_front(1, 1);
    ASSERT(reinterpret_cast<volatile uint32_t*>(get_read_ptr(1))[0] == 1234);
    cb_pop_front(1, 1);
    cb_wait_front(0, 1);
    cb_pop_front(0, 1);
})",
                        one_core())};
    ProgramId p = dev.program_create(spec);
    auto err = run(dev, p);
    EXPECT_FALSE(err) << (err ? err->message() : "");

    // An alias whose page size does not divide the region, an index named twice.
    c.aliases = {{1, DataFormat::Float16_b, 1536}};
    spec.cbs = {c};
    spec.kernels.clear();
    auto e = catch_error([&] { dev.program_create(spec); });
    EXPECT_TRUE(contains(e.message(), "circular buffer 1")) << e.message();
    c.aliases = {{0, DataFormat::Float16_b, 1024}};
    spec.cbs = {c};
    e = catch_error([&] { dev.program_create(spec); });
    EXPECT_TRUE(contains(e.message(), "configured twice")) << e.message();
}
