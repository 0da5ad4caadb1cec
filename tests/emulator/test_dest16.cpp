// A 16-bit DST (fp32_dest_acc_en off) through whole programs: FPU results are rounded to bf16
// (nearest even) when written, SFPU ops and accumulating FPU ops read the rounded value, the
// packer packs the rounded value (its own ties-away rounding then has nothing left to round),
// and a released DST tile reads as zero. Inputs are bf16 ties, where nearest-even and the
// packer's ties-away disagree, so a skipped or misplaced rounding changes bits.
#include <random>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

const char* kReader = R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 2048};
    cb_reserve_back(0, 2);
    noc_async_read_page(0, g, get_write_ptr(0));
    noc_async_read_page(1, g, get_write_ptr(0) + 2048);
    noc_async_read_barrier();
    cb_push_back(0, 2);
})";

// cb 16: 7 bf16 pages, cb 17: 1 Float32 page, written out in that order (8 tiles of 4 KiB
// slots: bf16 pages use the first half).
const char* kWriter = R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 4096};
    cb_wait_front(16, 7);
    for (uint32_t i = 0; i < 7; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * 2048);
    cb_wait_front(17, 1);
    noc_async_write_page(7, g, get_read_ptr(17));
    noc_async_write_barrier();
    cb_pop_front(16, 7);
    cb_pop_front(17, 1);
})";

const char* kCompute = R"(
void kernel_main() {
    cb_wait_front(0, 2);
    // DST section 0.
    tile_regs_acquire();
    add_tiles_init(0, 0);
    add_tiles(0, 0, 0, 1, 0);            // DST0 = a + b, rounded to bf16
    add_tiles(0, 0, 0, 1, 1);
    negative_tile_init();
    negative_tile(1);                    // DST1 = -DST0: the SFPU reads the rounded sum
    add_tiles(0, 0, 0, 1, 2);
    add_tiles_init(0, 0, true);
    add_tiles(0, 0, 0, 1, 2);            // DST2 = round(DST2 + (a + b))
    tile_regs_commit();
    cb_reserve_back(16, 3);
    cb_reserve_back(17, 1);
    tile_regs_wait();
    pack_tile(0, 16);
    pack_tile(1, 16);
    pack_tile(2, 16);
    pack_tile(0, 17);                    // Float32 CB: the rounded sum, bit for bit
    tile_regs_release();
    cb_push_back(16, 3);
    cb_push_back(17, 1);
    // Sections 1 and 0 again: DST1/DST2 of section 0 were released, so they read as zero.
    for (int cycle = 0; cycle < 2; ++cycle) {
        tile_regs_acquire();
        add_tiles(0, 0, 0, 1, 1);        // still accumulating: DST1 = round(0 + (a + b))
        add_tiles(0, 0, 0, 1, 2);        // DST2 too: released (or never written), so it started at 0
        tile_regs_commit();
        cb_reserve_back(16, 2);
        tile_regs_wait();
        pack_tile(1, 16);
        pack_tile(2, 16);
        tile_regs_release();
        cb_push_back(16, 2);
    }
    cb_pop_front(0, 2);
})";

}  // namespace

TEST(EmuDest16, FpuResultsAreRoundedToNearestEvenBeforeUseAndPack) {
    // a: bf16 values; b: half an ulp of a (a tie) for two thirds of the elements, else random.
    std::mt19937 rng(5);
    std::vector<float> a(1024), b(1024);
    for (int i = 0; i < 1024; ++i) {
        int e = int(rng() % 6) - 3;
        float m = 1.0f + float(rng() % 128) / 128.0f;  // 8 significant bits: exact in bf16
        a[i] = std::ldexp(rng() % 2 ? -m : m, e);
        float half_ulp = std::ldexp(1.0f, e - 8);
        b[i] = i % 3 == 2 ? bf16_to_f32(f32_to_bf16(std::ldexp(float(rng() % 1000) / 500.0f - 1.0f, e)))
                          : (a[i] < 0 ? -half_ulp : half_ulp) * (i % 3 == 0 ? 1.0f : 3.0f);
    }
    auto ab = to_bf16(a), bb = to_bf16(b);
    ASSERT_EQ(from_bf16(ab), a);
    ASSERT_EQ(from_bf16(bb), b);

    Device dev(preset("wormhole-n150"));
    auto in = dev.buffer_create(2 * 2048, 2048), out = dev.buffer_create(8 * 4096, 4096);
    dev.buffer_write(in.id, ab.data(), 2048);
    dev.buffer_write(in.id, bb.data(), 2048, 2048);
    ProgramSpec s;
    s.cbs = {cb(0, 2, one_core()), cb(16, 7, one_core()), cb(17, 1, one_core(), DataFormat::Float32)};
    s.kernels = {dm1("reader", kReader, one_core()), dm0("writer", kWriter, one_core()),
                 compute("dest16", kCompute, one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint8_t> o(8 * 4096);
    dev.buffer_read(out.id, o.data(), o.size());
    auto bf16_at = [&](int page, int i) {
        uint16_t v;
        std::memcpy(&v, o.data() + page * 4096 + i * 2, 2);
        return v;
    };
    int ties_that_differ = 0;
    for (int i = 0; i < 1024; ++i) {  // tiles are in face order on both sides: same index
        float sum = a[i] + b[i];
        uint16_t r = f32_to_bf16(sum, Rounding::NearestEven);
        ties_that_differ += r != f32_to_bf16(sum, Rounding::NearestTiesAway);
        float rf = bf16_to_f32(r);
        ASSERT_EQ(bf16_at(0, i), r) << "a + b, element " << i;
        ASSERT_EQ(bf16_at(1, i), uint16_t(r ^ 0x8000u)) << "-(a + b), element " << i;
        ASSERT_EQ(bf16_at(2, i), f32_to_bf16(rf + sum, Rounding::NearestEven)) << "accumulated, element " << i;
        ASSERT_EQ(bf16_at(3, i), r) << "0 + (a + b) after release, element " << i;
        ASSERT_EQ(bf16_at(4, i), r) << "0 + (a + b) into a tile never written, element " << i;
        ASSERT_EQ(bf16_at(5, i), r) << "second cycle, element " << i;
        ASSERT_EQ(bf16_at(6, i), r) << "0 + (a + b) into a released tile, second cycle, element " << i;
        uint32_t f32;
        std::memcpy(&f32, o.data() + 7 * 4096 + i * 4, 4);
        ASSERT_EQ(f32, uint32_t(r) << 16) << "Float32 pack of the rounded sum, element " << i;
    }
    EXPECT_GT(ties_that_differ, 200);  // the data really exercises the difference
}
