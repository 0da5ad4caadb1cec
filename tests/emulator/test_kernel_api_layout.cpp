// Compute kernel API: tilize / untilize / pack_untilize (api/compute/tilize.h, untilize.h,
// pack_untilize.h), matmul_block with mm_block_init (matmul.h) and reduce_tile with a scaler
// other than 1 (reduce.h), run as whole programs on the emulator and checked against host
// goldens: row-major ↔ face order byte for byte, double-precision products and sums within the
// tolerances of docs/numerics.md §2–§5. Float16_b CBs run with a 16-bit DST, Float32 CBs with a
// 32-bit one. One generic reader and writer serve every test (few distinct kernels to compile).
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

// Reader: runtime args [n, (cb, buffer address, pages, page bytes) × n]: each buffer's pages
// pushed into its CB. Writer: the same, each CB's pages written to its buffer.
const char* kReader = R"(
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t cb = get_arg_val<uint32_t>(1 + 4 * i), addr = get_arg_val<uint32_t>(2 + 4 * i);
        const uint32_t pages = get_arg_val<uint32_t>(3 + 4 * i), page = get_arg_val<uint32_t>(4 + 4 * i);
        InterleavedAddrGen<true> g{addr, page};
        cb_reserve_back(cb, pages);
        for (uint32_t p = 0; p < pages; ++p) noc_async_read_page(p, g, get_write_ptr(cb) + p * page);
        noc_async_read_barrier();
        cb_push_back(cb, pages);
    }
})";
const char* kWriter = R"(
void kernel_main() {
    const uint32_t n = get_arg_val<uint32_t>(0);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t cb = get_arg_val<uint32_t>(1 + 4 * i), addr = get_arg_val<uint32_t>(2 + 4 * i);
        const uint32_t pages = get_arg_val<uint32_t>(3 + 4 * i), page = get_arg_val<uint32_t>(4 + 4 * i);
        InterleavedAddrGen<true> g{addr, page};
        cb_wait_front(cb, pages);
        for (uint32_t p = 0; p < pages; ++p) noc_async_write_page(p, g, get_read_ptr(cb) + p * page);
        noc_async_write_barrier();
        cb_pop_front(cb, pages);
    }
})";

struct CbIo {
    uint32_t cb, pages;
    std::vector<uint8_t> bytes;  // inputs: the pages' bytes; outputs: filled by run_prog
};
struct Outcome {
    std::vector<std::vector<uint8_t>> outs;
    std::optional<Error> err;
};

// One core: `ins` are pushed by the reader, `outs` drained by the writer, `scratch` are CBs only
// the compute kernel uses (index, pages). Every CB has format `fmt` and tile-sized pages.
Outcome run_prog(const std::string& name, const std::string& src, DataFormat fmt, const std::vector<CbIo>& ins,
                 const std::vector<CbIo>& outs, const std::vector<std::pair<uint32_t, uint32_t>>& scratch = {},
                 const std::vector<uint32_t>& to_dest = {}) {
    const uint32_t page = tile_size_bytes(fmt);
    Device dev(preset("wormhole-n150"));
    ProgramSpec s;
    std::vector<uint32_t> rargs{uint32_t(ins.size())}, wargs{uint32_t(outs.size())};
    for (const CbIo& io : ins) {
        s.cbs.push_back(cb(io.cb, io.pages, one_core(), fmt));
        auto b = dev.buffer_create(uint64_t(io.pages) * page, page);
        dev.buffer_write(b.id, io.bytes.data(), io.bytes.size());
        rargs.insert(rargs.end(), {io.cb, uint32_t(b.address), io.pages, page});
    }
    std::vector<uint32_t> out_ids;
    for (const CbIo& io : outs) {
        s.cbs.push_back(cb(io.cb, io.pages, one_core(), fmt));
        auto b = dev.buffer_create(uint64_t(io.pages) * page, page);
        out_ids.push_back(b.id);
        wargs.insert(wargs.end(), {io.cb, uint32_t(b.address), io.pages, page});
    }
    for (const auto& [index, pages] : scratch) s.cbs.push_back(cb(index, pages, one_core(), fmt));
    auto k = compute(name, src, one_core());
    k.compute.fp32_dest_acc_en = fmt == DataFormat::Float32;
    for (uint32_t c : to_dest) k.compute.unpack_to_dest_fp32(c);
    s.kernels = {dm1("reader", kReader, one_core()), dm0("writer", kWriter, one_core()), k};
    Outcome res;
    ProgramId p;
    try {
        p = dev.program_create(s);
    } catch (const Error& e) {
        res.err = e;
        return res;
    }
    dev.program_set_runtime_args(p, 0, {0, 0}, rargs);
    dev.program_set_runtime_args(p, 1, {0, 0}, wargs);
    res.err = run(dev, p);
    if (res.err) return res;
    for (size_t i = 0; i < outs.size(); ++i) {
        std::vector<uint8_t> o(size_t(outs[i].pages) * page);
        dev.buffer_read(out_ids[i], o.data(), o.size());
        res.outs.push_back(std::move(o));
    }
    return res;
}

// ---- host data ----------------------------------------------------------------------------------
uint32_t datum_bytes(DataFormat f) { return f == DataFormat::Float32 ? 4 : 2; }
void put(DataFormat f, uint8_t* p, float v) {
    if (f == DataFormat::Float32) {
        const uint32_t u = bits(v);
        std::memcpy(p, &u, 4);
    } else {
        const uint16_t h = f32_to_bf16(v);
        std::memcpy(p, &h, 2);
    }
}
float get(DataFormat f, const uint8_t* p) {
    if (f == DataFormat::Float32) {
        uint32_t u;
        std::memcpy(&u, p, 4);
        return std::bit_cast<float>(u);
    }
    uint16_t h;
    std::memcpy(&h, p, 2);
    return bf16_to_f32(h);
}
// Values exactly representable in the format (bf16: rounded once here), magnitudes in [lo, hi).
std::vector<float> random_values(DataFormat f, size_t n, uint32_t seed, float lo = 0.5f, float hi = 4.0f) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> mag(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) {
        x = (g() & 1) ? -mag(g) : mag(g);
        if (f != DataFormat::Float32) x = bf16_to_f32(f32_to_bf16(x));
    }
    return v;
}
// A row-major block of `w` tiles (32 rows of w·32 values) as L1 bytes, and as w tiles in face order.
std::vector<uint8_t> rows_bytes(DataFormat f, const std::vector<float>& v) {
    std::vector<uint8_t> b(v.size() * datum_bytes(f));
    for (size_t i = 0; i < v.size(); ++i) put(f, b.data() + i * datum_bytes(f), v[i]);
    return b;
}
std::vector<uint8_t> tiles_bytes(DataFormat f, const std::vector<float>& v, uint32_t w) {
    const uint32_t db = datum_bytes(f);
    std::vector<uint8_t> b(v.size() * db);
    for (uint32_t t = 0; t < w; ++t)
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t c = 0; c < 32; ++c)
                put(f, b.data() + (size_t(t) * 1024 + face_index(r, c)) * db, v[size_t(r) * w * 32 + t * 32 + c]);
    return b;
}
// Element (r, c) of tile t of face-ordered bytes.
float tile_at(DataFormat f, const std::vector<uint8_t>& b, uint32_t t, uint32_t r, uint32_t c) {
    return get(f, b.data() + (size_t(t) * 1024 + face_index(r, c)) * datum_bytes(f));
}

class Layout : public ::testing::TestWithParam<DataFormat> {};

// ---- tilize / untilize ------------------------------------------------------------------------

// cb 0: a row-major block 3 tiles wide; cb 1: the same data as 3 tiles (host tilized).
// cb 16 ← tilize_block(cb 0); cb 17 ← pack_untilize_block of a second tilize of cb 0 (one tile
// column per call, block_c_index); cb 18 ← untilize_block(cb 1).
const char* kTilizeRoundTrip = R"(
void kernel_main() {
    compute_kernel_hw_startup(0, 16);
    tilize_init(0, 3, 16);
    cb_wait_front(0, 3);
    cb_reserve_back(16, 3);
    tilize_block(0, 3, 16);
    cb_push_back(16, 3);
    cb_reserve_back(24, 3);
    tilize_block(0, 3, 24);
    cb_push_back(24, 3);
    cb_pop_front(0, 3);
    tilize_uninit(0, 16);

    pack_untilize_init<1, 3>(24, 17);
    cb_reserve_back(17, 3);
    for (uint32_t b = 0; b < 3; ++b) {
        cb_wait_front(24, 1);
        pack_untilize_block<1, 3>(24, 1, 17, b);
        cb_pop_front(24, 1);
    }
    cb_push_back(17, 3);
    pack_untilize_uninit(17);

    untilize_init(1);
    cb_wait_front(1, 3);
    cb_reserve_back(18, 3);
    untilize_block(1, 3, 18);
    cb_push_back(18, 3);
    cb_pop_front(1, 3);
    untilize_uninit(1);
}
)";

TEST_P(Layout, TilizeUntilizeRoundTripIsExact) {
    const DataFormat f = GetParam();
    const std::vector<float> v = random_values(f, 3 * 1024, 7);
    const std::vector<uint8_t> rows = rows_bytes(f, v), tiles = tiles_bytes(f, v, 3);
    // tilize (cb 0) and pack_untilize (cb 24) unpack straight into DST; untilize_block's copy of
    // cb 1 goes through SrcA (Default mode, TF32 for Float32).
    Outcome r = run_prog("tilize_round_trip", kTilizeRoundTrip, f, {{0, 3, rows}, {1, 3, tiles}},
                         {{16, 3, {}}, {17, 3, {}}, {18, 3, {}}}, {{24, 3}}, {0, 24});
    ASSERT_FALSE(r.err) << r.err->what();
    EXPECT_EQ(r.outs[0], tiles) << "tilize_block: row-major block → face-ordered tiles";
    EXPECT_EQ(r.outs[1], rows) << "pack_untilize_block: tiles → row-major block (round trip)";
    if (f == DataFormat::Float16_b) {
        EXPECT_EQ(r.outs[2], rows) << "untilize_block";
    } else {  // untilize_block's copy goes through SrcA: Float32 read as TF32 (low 13 bits dropped)
        size_t bad = 0;
        for (size_t i = 0; i < v.size(); ++i) {
            uint32_t u;
            std::memcpy(&u, r.outs[2].data() + i * 4, 4);
            bad += u != (bits(v[i]) & 0xffffe000u);
        }
        EXPECT_EQ(bad, 0u) << "untilize_block of Float32: TF32 values in row-major order";
    }
}

TEST(LayoutChecks, TilizeNeedsTheWholeBlockWaitedAndDstFree) {
    const DataFormat f = DataFormat::Float16_b;
    const std::vector<uint8_t> rows = rows_bytes(f, random_values(f, 3 * 1024, 3));
    Outcome r = run_prog("tilize_short_wait", R"(
void kernel_main() {
    tilize_init(0, 3, 16);
    cb_wait_front(0, 2);
    cb_reserve_back(16, 3);
    tilize_block(0, 3, 16);
}
)",
                         f, {{0, 3, rows}}, {{16, 3, {}}});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->what(), "tilize_block(cb 0, block 3): tile column 0 reads")) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "only 2 pages")) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "tilize_short_wait")) << r.err->what();

    r = run_prog("tilize_in_acquire", R"(
void kernel_main() {
    tilize_init(0, 3, 16);
    cb_wait_front(0, 3);
    cb_reserve_back(16, 3);
    tile_regs_acquire();
    tilize_block(0, 3, 16);
}
)",
                 f, {{0, 3, rows}}, {{16, 3, {}}});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->what(), "tile_regs_acquire: DST is already acquired")) << r.err->what();
}

// ---- matmul_block -----------------------------------------------------------------------------

// A: 2×3 tiles (cb 0, tile r·3 + k), B: 3×2 tiles (cb 1, tile k·2 + c), Bᵀ tile by tile (cb 2).
// cb 16 ← the 2×2 output block of A·B; cb 17 ← the same through mm_block_init_short(transpose).
const char* kMatmulBlock = R"(
void kernel_main() {
    mm_block_init(0, 1, 16, 0, 2, 2, 3);
    cb_wait_front(0, 6);
    cb_wait_front(1, 6);
    tile_regs_acquire();
    for (uint32_t k = 0; k < 3; ++k) matmul_block(0, 1, k, k * 2, 0, false, 2, 2, 3);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 4);
    for (uint32_t i = 0; i < 4; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 4);

    mm_block_init_short(0, 2, 1, 2, 2, 3);
    cb_wait_front(2, 6);
    tile_regs_acquire();
    for (uint32_t k = 0; k < 3; ++k) matmul_block(0, 2, k, k * 2, 0, true, 2, 2, 3);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(17, 4);
    for (uint32_t i = 0; i < 4; ++i) pack_tile(i, 17);
    tile_regs_release();
    cb_push_back(17, 4);
    cb_pop_front(0, 6);
    cb_pop_front(1, 6);
    cb_pop_front(2, 6);
}
)";

TEST_P(Layout, MatmulBlockMatchesDoubleProduct) {
    const DataFormat f = GetParam();
    // A is 64×96, B is 96×64, row-major.
    const std::vector<float> a = random_values(f, 64 * 96, 11, 0.0f, 1.0f),
                             b = random_values(f, 96 * 64, 12, 0.0f, 1.0f);
    const uint32_t db = datum_bytes(f);
    std::vector<uint8_t> ta(6 * 1024 * db), tb(6 * 1024 * db), tbt(6 * 1024 * db);
    for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t k = 0; k < 96; ++k)
            put(f, ta.data() + ((r / 32 * 3 + k / 32) * 1024 + face_index(r % 32, k % 32)) * db, a[r * 96 + k]);
    for (uint32_t k = 0; k < 96; ++k)
        for (uint32_t c = 0; c < 64; ++c) {
            const uint32_t t = k / 32 * 2 + c / 32;
            put(f, tb.data() + (t * 1024 + face_index(k % 32, c % 32)) * db, b[k * 64 + c]);
            put(f, tbt.data() + (t * 1024 + face_index(c % 32, k % 32)) * db, b[k * 64 + c]);
        }
    Outcome r =
        run_prog("matmul_block", kMatmulBlock, f, {{0, 6, ta}, {1, 6, tb}, {2, 6, tbt}}, {{16, 4, {}}, {17, 4, {}}});
    ASSERT_FALSE(r.err) << r.err->what();
    // bf16: exact products (HiFi4), the 16-bit DST rounds after each of the 3 K steps; f32: TF32
    // operands (docs/numerics.md §5), about 2^-10 relative per product.
    const double rel = f == DataFormat::Float32 ? std::ldexp(1.0, -8) : std::ldexp(1.0, -6);
    size_t bad = 0;
    for (uint32_t i = 0; i < 64; ++i)
        for (uint32_t j = 0; j < 64; ++j) {
            double sum = 0, mag = 0;
            for (uint32_t k = 0; k < 96; ++k) {
                sum += double(a[i * 96 + k]) * b[k * 64 + j];
                mag += std::fabs(double(a[i * 96 + k]) * b[k * 64 + j]);
            }
            const uint32_t t = i / 32 * 2 + j / 32;  // DST tile r·ct_dim + c, packed in order
            for (uint32_t o = 0; o < 2; ++o) {
                const double got = tile_at(f, r.outs[o], t, i % 32, j % 32);
                if (std::fabs(got - sum) > rel * mag + 1e-6) {
                    if (++bad < 4)
                        ADD_FAILURE() << "output " << o << " (" << i << "," << j << "): " << got << " vs " << sum;
                }
            }
        }
    EXPECT_EQ(bad, 0u);
}

// matmul_block is matmul_tiles over its block, bit for bit (the emulator unpacks a block's tiles
// once; this pins that it multiplies the same tiles in the same order). Outputs: cb 16 block,
// cb 17 tile by tile; cb 18 / 19 the same with Bᵀ (cb 2) and transpose.
const char* kMatmulBlockVsTiles = R"(
void kernel_main() {
    cb_wait_front(0, 6);
    cb_wait_front(1, 6);
    cb_wait_front(2, 6);
    for (uint32_t t = 0; t < 2; ++t) {
        const uint32_t in1 = t ? 2 : 1, out = 16 + 2 * t;
        mm_block_init(0, in1, out, t, 2, 2, 3);
        tile_regs_acquire();
        for (uint32_t k = 0; k < 3; ++k) matmul_block(0, in1, k, k * 2, 0, t, 2, 2, 3);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(out, 4);
        for (uint32_t i = 0; i < 4; ++i) pack_tile(i, out);
        tile_regs_release();
        cb_push_back(out, 4);

        mm_init(0, in1, out + 1, t);
        tile_regs_acquire();
        for (uint32_t k = 0; k < 3; ++k)
            for (uint32_t r = 0; r < 2; ++r)
                for (uint32_t c = 0; c < 2; ++c) matmul_tiles(0, in1, r * 3 + k, k * 2 + c, r * 2 + c, t);
        tile_regs_commit();
        tile_regs_wait();
        cb_reserve_back(out + 1, 4);
        for (uint32_t i = 0; i < 4; ++i) pack_tile(i, out + 1);
        tile_regs_release();
        cb_push_back(out + 1, 4);
    }
    cb_pop_front(0, 6);
    cb_pop_front(1, 6);
    cb_pop_front(2, 6);
}
)";

TEST_P(Layout, MatmulBlockIsMatmulTilesBitForBit) {
    const DataFormat f = GetParam();
    const std::vector<uint8_t> ta = tiles_bytes(f, random_values(f, 6 * 1024, 21, 0.0f, 1.0f), 6),
                               tb = tiles_bytes(f, random_values(f, 6 * 1024, 22, 0.0f, 1.0f), 6),
                               tbt = tiles_bytes(f, random_values(f, 6 * 1024, 23, 0.0f, 1.0f), 6);
    Outcome r = run_prog("matmul_block_vs_tiles", kMatmulBlockVsTiles, f, {{0, 6, ta}, {1, 6, tb}, {2, 6, tbt}},
                         {{16, 4, {}}, {17, 4, {}}, {18, 4, {}}, {19, 4, {}}});
    ASSERT_FALSE(r.err) << r.err->what();
    EXPECT_TRUE(r.outs[0] == r.outs[1]) << "matmul_block differs from matmul_tiles";
    EXPECT_TRUE(r.outs[2] == r.outs[3]) << "transposed matmul_block differs from matmul_tiles";
    EXPECT_FALSE(r.outs[0] == r.outs[2]) << "the two products must differ for the test to mean anything";
}

TEST(LayoutChecks, MatmulBlockReadingPastTheWaitedTilesNamesTheTile) {
    const DataFormat f = DataFormat::Float16_b;
    const std::vector<uint8_t> t = tiles_bytes(f, random_values(f, 4 * 1024, 5), 4);
    Outcome r = run_prog("matmul_block_past_front", R"(
void kernel_main() {
    mm_block_init(0, 1, 16, 0, 2, 2, 2);
    cb_wait_front(0, 4);
    cb_wait_front(1, 4);
    tile_regs_acquire();
    matmul_block(0, 1, 1, 0, 0, false, 2, 2, 3);  // in0 tiles 1 and 4: 4 is not waited for
    tile_regs_commit();
    cb_pop_front(0, 4);
    cb_pop_front(1, 4);
}
)",
                         f, {{0, 4, t}, {1, 4, t}}, {{16, 4, {}}});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->what(), "matmul_block(cb 0, tile 4): the tile is outside the 4 pages waited for"))
        << r.err->what();
}

TEST(LayoutChecks, MatmulBlockTransposeMustMatchTheInit) {
    const DataFormat f = DataFormat::Float16_b;
    const std::vector<uint8_t> t = tiles_bytes(f, random_values(f, 1024, 5), 1);
    Outcome r = run_prog("matmul_block_transpose", R"(
void kernel_main() {
    mm_block_init(0, 1, 16, 0, 1, 1, 1);
    cb_wait_front(0, 1);
    cb_wait_front(1, 1);
    tile_regs_acquire();
    matmul_block(0, 1, 0, 0, 0, true, 1, 1, 1);
    tile_regs_commit();
    cb_pop_front(0, 1);
    cb_pop_front(1, 1);
}
)",
                         f, {{0, 1, t}, {1, 1, t}}, {{16, 1, {}}});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->what(), "matmul_block: transpose 1 differs from the 0 of the last mm_block_init"))
        << r.err->what();
}

// ---- reduce with scalers other than 1 --------------------------------------------------------

// cb 1 holds three scaler tiles (row 0 of every face = s): 0.75, 2, 1/32.
// DST 0: SUM over rows with 0.75; DST 1: MAX over columns with 2; DST 2: AVG of the whole tile
// with 1/32 (the scale applies twice: 1/1024).
const char* kReduce = R"(
void kernel_main() {
    cb_wait_front(0, 1);
    cb_wait_front(1, 3);
    tile_regs_acquire();
    reduce_init<SUM, REDUCE_ROW>(0, 1, 16);
    reduce_tile<SUM, REDUCE_ROW>(0, 1, 0, 0, 0);
    reduce_init<PoolType::MAX, ReduceDim::REDUCE_COL>(0, 1, 16);
    reduce_tile<PoolType::MAX, ReduceDim::REDUCE_COL>(0, 1, 0, 1, 1);
    reduce_init<PoolType::AVG, ReduceDim::REDUCE_SCALAR>(0, 1, 16);
    reduce_tile<PoolType::AVG, ReduceDim::REDUCE_SCALAR>(0, 1, 0, 2, 2);
    tile_regs_commit();
    tile_regs_wait();
    cb_reserve_back(16, 3);
    for (uint32_t i = 0; i < 3; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 3);
    cb_pop_front(0, 1);
    cb_pop_front(1, 3);
    reduce_uninit();
}
)";

TEST_P(Layout, ReduceRowColScalarWithScalers) {
    const DataFormat f = GetParam();
    const std::vector<float> x = random_values(f, 1024, 21);
    const float scales[3] = {0.75f, 2.0f, 1.0f / 32};
    std::vector<float> sc(3 * 1024, 0.0f);
    for (uint32_t t = 0; t < 3; ++t)
        for (uint32_t c = 0; c < 32; ++c) sc[t * 1024 + 0 * 32 + c] = sc[t * 1024 + 16 * 32 + c] = scales[t];
    std::vector<uint8_t> sb(3 * 1024 * datum_bytes(f));
    for (uint32_t t = 0; t < 3; ++t)
        for (uint32_t i = 0; i < 1024; ++i)
            put(f, sb.data() + (t * 1024 + face_index(i / 32, i % 32)) * datum_bytes(f), sc[t * 1024 + i]);
    Outcome r = run_prog("reduce_scalers", kReduce, f, {{0, 1, tiles_bytes(f, x, 1)}, {1, 3, sb}}, {{16, 3, {}}});
    ASSERT_FALSE(r.err) << r.err->what();
    // f32 inputs reach the FPU as TF32; bf16 results are rounded to bf16.
    const double rel = f == DataFormat::Float32 ? std::ldexp(1.0, -9) : std::ldexp(1.0, -7);
    size_t bad = 0;
    auto expect_near = [&](uint32_t t, uint32_t i, uint32_t j, double want, double mag) {
        const double got = tile_at(f, r.outs[0], t, i, j);
        if (std::fabs(got - want) > rel * mag + 1e-6 && ++bad < 6)
            ADD_FAILURE() << "tile " << t << " (" << i << "," << j << "): " << got << " vs " << want;
    };
    double all = 0, all_mag = 0;
    for (uint32_t i = 0; i < 32; ++i) {
        double s = 0, m = 0, mx = -INFINITY;
        for (uint32_t j = 0; j < 32; ++j) {
            s += x[i * 32 + j], m += std::fabs(x[i * 32 + j]);
            mx = std::max(mx, double(x[j * 32 + i]));
        }
        all += s, all_mag += m;
        expect_near(0, i, 0, 0.75 * s, 0.75 * m);             // REDUCE_ROW: column 0
        expect_near(1, 0, i, 2.0 * mx, 2.0 * std::fabs(mx));  // REDUCE_COL: row 0
    }
    expect_near(2, 0, 0, all / 1024, all_mag / 1024);  // REDUCE_SCALAR: [0][0]
    // Everything else stays as the released DST left it: zero.
    for (uint32_t t = 0; t < 3; ++t)
        for (uint32_t i = 0; i < 32; ++i)
            for (uint32_t j = 0; j < 32; ++j) {
                const bool result = (t == 0 && j == 0) || (t == 1 && i == 0) || (t == 2 && i == 0 && j == 0);
                if (!result && tile_at(f, r.outs[0], t, i, j) != 0.0f && ++bad < 6)
                    ADD_FAILURE() << "tile " << t << " (" << i << "," << j << ") is not 0";
            }
    EXPECT_EQ(bad, 0u);
}

INSTANTIATE_TEST_SUITE_P(Formats, Layout, ::testing::Values(DataFormat::Float16_b, DataFormat::Float32),
                         [](const auto& info) { return info.param == DataFormat::Float32 ? "f32" : "bf16"; });

}  // namespace
