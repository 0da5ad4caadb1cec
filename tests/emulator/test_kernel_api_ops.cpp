// Compute kernel API ops the code generator emits, run as whole programs on the emulator and
// checked against host goldens written here from the definitions in docs/numerics.md: where_tile,
// sfpu_reduce, transpose_wh_dest / transpose_dest, copy_dest_values, comp.h (gtz_tile … unary_le_tile),
// fmod_binary_tile / remainder_binary_tile, round_tile, binop_with_scalar.h's add_unary_tile …
// rsub_unary_tile, fill_tile (which the emulator keeps lazily); in f32 (Float32 CBs, fp32 DST) and
// bf16 (Float16_b CBs, 16-bit DST). Also the precision of FPU ops on Float32 CBs (TF32 operands).
// At the end: the integer SFPU ops (add_int_tile … fmod_int32_tile) on Int32 / UInt32 / UInt16 CBs.
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

using RowMajor = RowMajorTile;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float from_bits(uint32_t u) { return std::bit_cast<float>(u); }
uint32_t bf16_trunc(float f) { return bits(f) & 0xffff0000u; }  // an SFPU store into 16-bit DST

struct Result {
    std::vector<RowMajor> tiles;  // the packed output tiles, as floats (bf16 widened)
    std::optional<Error> err;
};

// Runs one compute kernel on one core: the input tiles (format `fmt`) are in cb 0, all waited
// for; `body` runs between tile_regs_acquire and tile_regs_commit; DST tiles `pack` are packed
// in order into cb 16 and read back. DST is 32-bit for Float32 (fp32_dest_acc_en), 16-bit for
// Float16_b; full sync (8 / 16 tiles) so that a test has room.
Result run_ops(DataFormat fmt, const std::vector<RowMajor>& inputs, const std::string& body,
               const std::vector<uint32_t>& pack, UnpackToDestMode cb0_mode = UnpackToDestMode::UnpackToDestFp32) {
    const bool f32 = fmt == DataFormat::Float32;
    const uint32_t tile = tile_size_bytes(fmt), n_in = uint32_t(inputs.size()), n_out = uint32_t(pack.size());
    Device dev(preset("wormhole-n150"));
    auto in = dev.buffer_create(uint64_t(n_in) * tile, tile), out = dev.buffer_create(uint64_t(n_out) * tile, tile);
    std::vector<uint8_t> bytes = tiles_to_bytes(fmt, inputs);
    dev.buffer_write(in.id, bytes.data(), bytes.size());
    std::string packs;
    for (uint32_t i : pack) packs += "    pack_tile(" + std::to_string(i) + ", 16);\n";
    const std::string n_in_s = std::to_string(n_in), n_out_s = std::to_string(n_out), page = std::to_string(tile);
    ProgramSpec s;
    s.cbs = {cb(0, n_in, one_core(), fmt), cb(16, n_out, one_core(), fmt)};
    auto k =
        compute("ops",
                "void kernel_main() {\n    cb_wait_front(0, " + n_in_s + ");\n    cb_reserve_back(16, " + n_out_s +
                    ");\n    tile_regs_acquire();\n" + body + "\n    tile_regs_commit();\n    tile_regs_wait();\n" +
                    packs + "    tile_regs_release();\n    cb_push_back(16, " + n_out_s + ");\n    cb_pop_front(0, " +
                    n_in_s + ");\n}\n",
                one_core());
    k.compute.fp32_dest_acc_en = f32;
    k.compute.dst_full_sync_en = true;
    k.compute.unpack_to_dest_mode = {cb0_mode};
    s.kernels = {dm1("reader",
                     R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" +
                         page + R"(};
    cb_reserve_back(0, )" +
                         n_in_s + R"();
    for (uint32_t i = 0; i < )" +
                         n_in_s + R"(; ++i) noc_async_read_page(i, g, get_write_ptr(0) + i * )" + page + R"();
    noc_async_read_barrier();
    cb_push_back(0, )" + n_in_s +
                         R"();
})",
                     one_core()),
                 dm0("writer",
                     R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" +
                         page + R"(};
    cb_wait_front(16, )" +
                         n_out_s + R"();
    for (uint32_t i = 0; i < )" +
                         n_out_s + R"(; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * )" + page + R"();
    noc_async_write_barrier();
    cb_pop_front(16, )" + n_out_s +
                         R"();
})",
                     one_core()),
                 k};
    Result res;
    ProgramId p;
    try {
        p = dev.program_create(s);
    } catch (const Error& e) {
        res.err = e;
        return res;
    }
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {out.address});
    res.err = run(dev, p);
    if (res.err) return res;
    std::vector<uint8_t> ob(size_t(n_out) * tile);
    dev.buffer_read(out.id, ob.data(), ob.size());
    res.tiles = bytes_to_tiles(fmt, ob);
    return res;
}

// Random values exactly representable in bf16 (so both formats start from the same numbers),
// magnitude in [2^lo, 2^hi).
RowMajor random_tile(std::mt19937& rng, int lo = -4, int hi = 4) {
    std::uniform_int_distribution<int> e(lo, hi - 1), m(0, 127), sgn(0, 1);
    RowMajor t(1024);
    for (float& x : t) {
        x = std::ldexp(1.0f + float(m(rng)) / 128.0f, e(rng));
        if (sgn(rng)) x = -x;
    }
    return t;
}

const DataFormat kFormats[] = {DataFormat::Float32, DataFormat::Float16_b};
std::string fmt_name(DataFormat f) {
    return f == DataFormat::Float32 ? "DataFormat::Float32" : "DataFormat::Float16_b";
}

// What the packer writes for a DST word already holding a bf16 value (docs/numerics.md §3):
// Float32 the word itself; Float16_b the value, except NaN → inf of its sign and −0 → +0.
uint32_t packed_bits(DataFormat fmt, uint32_t dst_word) {
    if (fmt == DataFormat::Float32) return dst_word;
    if ((dst_word & 0x7f800000u) == 0x7f800000u && (dst_word & 0x007fffffu))
        return (dst_word & 0x80000000u) | 0x7f800000u;
    if ((dst_word & 0x7f800000u) == 0) return 0;
    return dst_word & 0xffff0000u;
}

// An input value as a copy_tile into DST leaves it: Float32 into a 32-bit DST exactly; a bf16
// value into a 16-bit DST with denormals flushed to zeros of their sign.
float in_dst(DataFormat fmt, float x) {
    if (fmt == DataFormat::Float32) return x;
    x = bf16_to_f32(f32_to_bf16(x));
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

}  // namespace

// ---- where_tile ----------------------------------------------------------------------------------

TEST(EmuKernelApiOps, WhereTileSelectsOnTheConditionBits) {
    std::mt19937 rng(1);
    for (DataFormat fmt : kFormats) {
        RowMajor cond(1024), a = random_tile(rng), b = random_tile(rng);
        const float special[] = {0.0f, -0.0f, kNaN, 1.0f, -2.0f, kInf};
        for (int i = 0; i < 1024; ++i) cond[i] = i < 6 ? special[i] : float((i * 7) % 3) - 1.0f;  // −1, 0, 1
        const std::string F = fmt_name(fmt);
        const std::string older =
            fmt == DataFormat::Float32 ? "where_fp32_tile(1, 2, 3, 4);" : "where_tile(1, 2, 3, 4);";
        auto r = run_ops(fmt, {cond, a, b}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 1);
    copy_tile(0, 1, 2);
    copy_tile(0, 2, 3);
    where_tile_init();
    where_tile<)" + F + R"(>(1, 2, 3, 0);
    )" + older + R"(
    where_tile<)" + F + R"(>(1, 2, 3, 1);  // the output over the condition)",
                         {0, 4, 1});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            // −0.0 is a nonzero word: it selects a (PyTorch's where would take b).
            const float want = bits(cond[i]) != 0 ? a[i] : b[i];
            for (int t = 0; t < 3; ++t)
                ASSERT_EQ(bits(r.tiles[t][i]), bits(want)) << F << " tile " << t << " element " << i;
        }
        EXPECT_EQ(r.tiles[0][0], b[0]);
        EXPECT_EQ(r.tiles[0][1], a[1]);
    }
}

TEST(EmuKernelApiOps, WhereTileRefusesOtherFormatsAtCompileTime) {
    auto r = run_ops(DataFormat::Float32, {RowMajor(1024)}, "    where_tile<DataFormat::UInt16>(0, 0, 0, 0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelCompilation);
    EXPECT_TRUE(contains(r.err->message(), "Only Float32, Int32, UInt32, and Float16_b are allowed"))
        << r.err->message();
}

// ---- sfpu_reduce -----------------------------------------------------------------------------------

TEST(EmuKernelApiOps, SfpuReduceColumnsIntoRowZero) {
    std::mt19937 rng(2);
    for (DataFormat fmt : kFormats) {
        RowMajor in = random_tile(rng);
        if (fmt == DataFormat::Float32) {
            // Full fp32 mantissas: an SFPU reduce sees them whole (the FPU would see TF32).
            for (int r = 0; r < 32; ++r) in[r * 32 + 5] = 1.0f + 0x1p-23f * float(r + 1);
        }
        const std::string F = fmt_name(fmt);
        auto r = run_ops(fmt, {in},
                         R"(
    copy_tile_init(0);
    for (uint32_t i = 0; i < 4; ++i) copy_tile(0, 0, i);
    sfpu_reduce_init<PoolType::SUM, )" +
                             F + R"(>();
    sfpu_reduce<PoolType::SUM, )" +
                             F + R"(>(0);
    sfpu_reduce_init<PoolType::AVG, )" +
                             F + R"(>();
    sfpu_reduce<PoolType::AVG, )" +
                             F + R"(, ReduceDim::REDUCE_COL>(1);
    sfpu_reduce_init<MAX, )" +
                             F + R"(>();
    sfpu_reduce<MAX, )" + F + R"(>(2);
    sfpu_reduce_init<MIN, )" +
                             F + R"(>();
    sfpu_reduce<MIN, )" + F + R"(, REDUCE_COL>(3);)",
                         {0, 1, 2, 3});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int pool = 0; pool < 4; ++pool)
            for (int c = 0; c < 32; ++c) {
                long double sum = 0;
                float mx = -kInf, mn = kInf;
                for (int row = 0; row < 32; ++row) {
                    const float v = in[row * 32 + c];
                    sum += v, mx = std::max(mx, v), mn = std::min(mn, v);
                }
                float want = pool == 0 ? float(sum) : pool == 1 ? float(sum) * 0.03125f : pool == 2 ? mx : mn;
                // A 16-bit DST keeps the SFPU result truncated to bf16.
                const uint32_t w = fmt == DataFormat::Float32 ? bits(want) : bf16_trunc(want);
                ASSERT_EQ(bits(r.tiles[pool][c]), w) << F << " pool " << pool << " column " << c;
                for (int row = 1; row < 32; ++row) {
                    // Rows 1–3: scratch (NaN, packed as inf into bf16); rows 4–31 unchanged.
                    const uint32_t got = bits(r.tiles[pool][row * 32 + c]);
                    const uint32_t expect = row < 4 ? packed_bits(fmt, 0x7fc0ffffu) : bits(in[row * 32 + c]);
                    ASSERT_EQ(got, expect) << F << " pool " << pool << " row " << row << " column " << c;
                }
            }
    }
}

TEST(EmuKernelApiOps, SfpuReduceChecksItsArgumentsAsTtMetal) {
    // tt-metal's static_asserts: MIN has no row reduction; REDUCE_ROW of SUM / MAX compiles (it and
    // blocks of tiles are not modelled: Unsupported at run time).
    auto r = run_ops(DataFormat::Float32, {RowMajor(1024)},
                     "    sfpu_reduce<PoolType::MIN, DataFormat::Float32, ReduceDim::REDUCE_ROW>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelCompilation);
    EXPECT_TRUE(contains(r.err->message(), "row reduction (REDUCE_ROW) is only supported for SUM and MAX"))
        << r.err->message();
    r = run_ops(DataFormat::Float32, {RowMajor(1024)}, "    sfpu_reduce<PoolType::SUM, DataFormat::Bfp8_b>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->message(), "Supported formats: Float32, Int32, UInt32, UInt16, Float16_b"))
        << r.err->message();
    r = run_ops(DataFormat::Float32, {RowMajor(1024)},
                "    sfpu_reduce<PoolType::SUM, DataFormat::Float32, ReduceDim::REDUCE_ROW>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported) << r.err->what();
    EXPECT_TRUE(contains(r.err->message(), "REDUCE_ROW")) << r.err->message();
    r = run_ops(
        DataFormat::Float32, {RowMajor(1024)},
        "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    sfpu_reduce<PoolType::SUM, DataFormat::Float32>(0, 1, 1);",
        {0});
    EXPECT_FALSE(r.err) << r.err->what();
}

// ---- transpose_wh_dest / transpose_dest --------------------------------------------------------------

TEST(EmuKernelApiOps, TransposeInDstIsExact) {
    std::mt19937 rng(3);
    for (DataFormat fmt : kFormats) {
        RowMajor in = random_tile(rng);
        if (fmt == DataFormat::Float32)  // full fp32 mantissas survive: no TF32 operand on the way
            for (int i = 0; i < 1024; ++i) in[i] = from_bits(bits(in[i]) | (uint32_t(i * 37 + 1) & 0xffffu));
        const bool f32 = fmt == DataFormat::Float32;
        const std::string B = f32 ? "true" : "false";
        auto r = run_ops(fmt, {in},
                         R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    copy_tile(0, 0, 1);
    transpose_wh_dest_init_short<)" +
                             B + R"(>();
    transpose_wh_dest<)" + B +
                             R"(>(0);
    transpose_dest_init<)" + B +
                             R"(>(0);
    transpose_dest<)" + B + R"(>(1);)",
                         {0, 1});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int row = 0; row < 32; ++row)
            for (int c = 0; c < 32; ++c)
                for (int t = 0; t < 2; ++t)
                    ASSERT_EQ(bits(r.tiles[t][row * 32 + c]), bits(in[c * 32 + row]))
                        << fmt_name(fmt) << " tile " << t << " (" << row << "," << c << ")";
    }
}

// ---- copy_dest_values ---------------------------------------------------------------------------------

TEST(EmuKernelApiOps, CopyDestValuesCopiesATileBitForBit) {
    std::mt19937 rng(4);
    for (DataFormat fmt : kFormats) {
        RowMajor in = random_tile(rng);
        in[5] = kNaN;
        in[6] = -0.0f;
        auto r = run_ops(fmt, {in},
                         R"(
    copy_tile_init(0);
    copy_tile(0, 0, 2);
    copy_dest_values_init();
    copy_dest_values<)" + fmt_name(fmt) +
                             R"(>(2, 5);
    negative_tile_init();
    negative_tile(2);)",
                         {5, 2});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            // The copy holds the input; the negated source shows the copy is a tile of its own.
            ASSERT_EQ(bits(r.tiles[0][i]), packed_bits(fmt, bits(in_dst(fmt, in[i]))))
                << fmt_name(fmt) << " element " << i;
            if (!std::isnan(in[i])) { ASSERT_EQ(r.tiles[1][i], -r.tiles[0][i]) << fmt_name(fmt) << " element " << i; }
        }
    }
}

TEST(EmuKernelApiOps, TransposeWhDestOf32BitOnA16BitDstIsUnsupported) {
    auto r = run_ops(DataFormat::Float16_b, {RowMajor(1024)},
                     "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    transpose_wh_dest<true>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported);
    EXPECT_TRUE(contains(r.err->message(), "kernel 'ops'")) << r.err->message();
    EXPECT_TRUE(contains(r.err->message(), "is_32bit = true")) << r.err->message();
}

// ---- comp.h ----------------------------------------------------------------------------------------

TEST(EmuKernelApiOps, CompareWithZeroAndWithAScalar) {
    RowMajor in(1024);
    const float special[] = {0.0f, -0.0f, kNaN, kInf, -kInf, 0.5f, -0.5f, 1e-40f};
    for (int i = 0; i < 1024; ++i) in[i] = i < 8 ? special[i] : -4.0f + float(i % 33) * 0.25f;
    const char* zero_ops[] = {"gtz", "ltz", "gez", "lez", "eqz", "nez"};
    const char* scalar_ops[] = {"unary_gt", "unary_lt", "unary_ge", "unary_le", "unary_eq", "unary_ne"};
    auto cmp = [](int op, float x, float p) {
        switch (op) {
            case 0: return x > p;
            case 1: return x < p;
            case 2: return x >= p;
            case 3: return x <= p;
            case 4: return x == p;
            default: return x != p;
        }
    };
    for (DataFormat fmt : kFormats) {
        for (bool scalar : {false, true}) {
            std::string body = "    copy_tile_init(0);\n";
            for (int k = 0; k < 6; ++k) {
                const std::string name = scalar ? scalar_ops[k] : zero_ops[k];
                body += "    copy_tile(0, 0, " + std::to_string(k) + ");\n    " + name + "_tile_init();\n    " + name +
                    "_tile(" + std::to_string(k) + (scalar ? ", 0x3f000000u" : "") + ");\n";  // 0.5f
            }
            auto r = run_ops(fmt, {in}, body, {0, 1, 2, 3, 4, 5});
            ASSERT_FALSE(r.err) << r.err->what();
            for (int k = 0; k < 6; ++k)
                for (int i = 0; i < 1024; ++i) {
                    float x = in_dst(fmt, in[i]);
                    if (scalar && std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0f, x);  // arithmetic compare
                    const float want = cmp(k, x, scalar ? 0.5f : 0.0f) ? 1.0f : 0.0f;
                    ASSERT_EQ(r.tiles[k][i], want)
                        << fmt_name(fmt) << " " << (scalar ? scalar_ops[k] : zero_ops[k]) << "(" << x << ")";
                }
        }
    }
}

// ---- fmod / remainder ------------------------------------------------------------------------------

TEST(EmuKernelApiOps, FmodAndRemainderBinaryTiles) {
    std::mt19937 rng(4);
    for (DataFormat fmt : kFormats) {
        RowMajor a = random_tile(rng, -2, 6), b = random_tile(rng, -3, 2);
        if (fmt == DataFormat::Float32) b[0] = 0.0f, b[1] = kInf;  // NaN, and a itself
        auto r = run_ops(fmt, {a, b}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    copy_tile(0, 0, 2);
    copy_tile(0, 1, 3);
    fmod_binary_tile_init();
    fmod_binary_tile(0, 1, 0);
    remainder_binary_tile_init();
    remainder_binary_tile(2, 3, 2);)",
                         {0, 2});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            // PyTorch's fmod (sign of a) and remainder (sign of b); a zero result is +0.
            float f = std::fmod(a[i], b[i]);
            if (f == 0.0f) f = 0.0f;
            float rem = f;
            if (rem != 0.0f && std::signbit(rem) != std::signbit(b[i])) rem += b[i];
            for (int t = 0; t < 2; ++t) {
                const float want = t == 0 ? f : rem;
                const float got = r.tiles[t][i];
                if (std::isnan(want)) {
                    ASSERT_TRUE(std::isnan(got)) << i;
                    continue;
                }
                // A 16-bit DST rounds these two to nearest even (not the SFPU's truncation).
                const uint32_t w = fmt == DataFormat::Float32 ? bits(want) : uint32_t(f32_to_bf16(want)) << 16;
                ASSERT_EQ(bits(got), w) << fmt_name(fmt) << (t ? " remainder(" : " fmod(") << a[i] << ", " << b[i]
                                        << ")";
            }
        }
    }
}

// ---- fill_tile (kept as its value by the emulator until a tile is needed) ---------------------------

TEST(EmuKernelApiOps, FilledTilesReadAsTheirValueEverywhere) {
    // Filled tiles as either operand of an SFPU binary op (also both, also overwritten), copied,
    // packed, and accumulated into by the FPU: each gives what the filled tile would.
    std::mt19937 rng(6);
    RowMajor id(1024, 0.0f);
    for (int i = 0; i < 32; ++i) id[i * 32 + i] = 1.0f;
    for (DataFormat fmt : kFormats) {
        const RowMajor in = random_tile(rng);
        auto r = run_ops(fmt, {in, id},
                         R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    fill_tile_init();
    fill_tile(1, 1.5f);
    sub_binary_tile_init();
    sub_binary_tile(1, 0, 2);
    sub_binary_tile(0, 1, 3);
    mul_binary_tile_init();
    mul_binary_tile(1, 1, 4);
    fill_tile_init();
    fill_tile_bitcast(5, 0x40400000u);
    add_binary_tile_init();
    add_binary_tile(0, 5, 5);
    copy_dest_values_init();
    copy_dest_values<)" + fmt_name(fmt) +
                             R"(>(1, 6);
    negative_tile_init();
    negative_tile(6);
    fill_tile_init();
    fill_tile(7, -2.0f);
    mm_init_short(0, 0);
    matmul_tiles(0, 0, 0, 1, 7);)",
                         {1, 2, 3, 4, 5, 6, 7}, UnpackToDestMode::Default);  // matmul reads cb 0
        ASSERT_FALSE(r.err) << r.err->what();
        const bool f32 = fmt == DataFormat::Float32;
        auto sfpu = [&](float v) { return packed_bits(fmt, f32 ? bits(v) : bf16_trunc(v)); };
        for (int i = 0; i < 1024; ++i) {
            const float x = in_dst(fmt, in[i]);
            const uint32_t want[] = {sfpu(1.5f), sfpu(1.5f - x), sfpu(x - 1.5f), sfpu(2.25f), sfpu(x + 3.0f),
                                     sfpu(-1.5f),
                                     // the FPU's result rounds to nearest even in a 16-bit DST
                                     packed_bits(fmt, f32 ? bits(-2.0f + x) : uint32_t(f32_to_bf16(-2.0f + x)) << 16)};
            for (int t = 0; t < 7; ++t)
                ASSERT_EQ(bits(r.tiles[t][i]), want[t]) << fmt_name(fmt) << " tile " << t << " x = " << x;
        }
    }
}

TEST(EmuKernelApiOps, AFilledTileReadsAsZeroAfterRelease) {
    // Tiles 3 and 2 are filled, then released. In the next acquire an accumulating FPU op (exempt
    // from the unwritten-DST check) adds x + x into them and into tile 4, never written: all three
    // must come out the same, so the filled values did not survive the release.
    std::mt19937 rng(7);
    const std::string fill = R"(
    fill_tile_init();
    fill_tile(3, 5.0f);
    fill_tile_bitcast(2, 0x40a00000u);
    tile_regs_commit();
    tile_regs_wait();
    tile_regs_release();
    tile_regs_acquire();
)";
    for (DataFormat fmt : kFormats) {
        const RowMajor in = random_tile(rng);
        auto r = run_ops(fmt, {in}, fill + R"(
    add_tiles_init(0, 0, true);
    add_tiles(0, 0, 0, 0, 3);
    add_tiles(0, 0, 0, 0, 2);
    add_tiles(0, 0, 0, 0, 4);)",
                         {3, 2, 4}, UnpackToDestMode::Default);  // add_tiles reads cb 0
        ASSERT_FALSE(r.err) << r.err->what();
        int nonzero = 0;
        for (int i = 0; i < 1024; ++i) {
            ASSERT_EQ(bits(r.tiles[0][i]), bits(r.tiles[2][i])) << fmt_name(fmt) << " element " << i;
            ASSERT_EQ(bits(r.tiles[1][i]), bits(r.tiles[2][i])) << fmt_name(fmt) << " element " << i;
            nonzero += r.tiles[2][i] != 0.0f;
        }
        EXPECT_GT(nonzero, 900);
        // An SFPU op reading the released tile is the unwritten-DST check.
        r = run_ops(fmt, {in}, fill + R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    add_binary_tile_init();
    add_binary_tile(0, 3, 1);)",
                    {1});
        ASSERT_TRUE(r.err);
        EXPECT_TRUE(contains(r.err->message(),
                             "SFPU binary op: reads DST index 3, which nothing wrote since "
                             "tile_regs_acquire"))
            << r.err->message();
    }
}

// ---- binop_with_scalar.h ---------------------------------------------------------------------------

TEST(EmuKernelApiOps, BinopWithScalarTiles) {
    // add / sub / mul / rsub_unary_tile(idst, param1) with the scalar as f32 bits; div_unary_tile
    // multiplies by param1, which the host passes as the reciprocal of the divisor (ttnn).
    std::mt19937 rng(5);
    const float p = 0.3f, third = 1.0f / 3.0f;
    auto flush = [](float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; };
    for (DataFormat fmt : kFormats) {
        RowMajor in = random_tile(rng, -6, 6);
        const float special[] = {0.0f, -0.0f, p, -p, kInf, -kInf, 1e30f, 3.0f};
        for (int i = 0; i < 8; ++i) in[i] = special[i];
        char body[1024];
        std::snprintf(body, sizeof body, R"(
    copy_tile_init(0);
    for (uint32_t i = 0; i < 5; ++i) copy_tile(0, 0, i);
    binop_with_scalar_tile_init();
    add_unary_tile(0, 0x%08xu);
    sub_unary_tile(1, 0x%08xu);
    mul_unary_tile(2, 0x%08xu);
    div_unary_tile(3, 0x%08xu);
    rsub_unary_tile(4, 0x%08xu);)",
                      bits(p), bits(p), bits(p), bits(third), bits(p));
        auto r = run_ops(fmt, {in}, body, {0, 1, 2, 3, 4});
        ASSERT_FALSE(r.err) << r.err->what();
        int rsub_rounded_up = 0, div_not_quotient = 0;
        for (int i = 0; i < 1024; ++i) {
            const float x = in_dst(fmt, in[i]);
            const float want[] = {flush(x + p), flush(x - p), flush(x * p), flush(x * third), flush(p - x)};
            for (int k = 0; k < 5; ++k) {
                uint32_t w = bits(want[k]);
                // A 16-bit DST truncates the SFPU result to bf16, except rsub_unary_tile, which
                // rounds to nearest even itself.
                if (fmt == DataFormat::Float16_b)
                    w = k == 4 ? uint32_t(f32_to_bf16(want[k])) << 16 : bf16_trunc(want[k]);
                ASSERT_EQ(bits(r.tiles[k][i]), packed_bits(fmt, w)) << fmt_name(fmt) << " op " << k << " x = " << x;
            }
            rsub_rounded_up += (uint32_t(f32_to_bf16(want[4])) << 16) != bf16_trunc(want[4]);
            div_not_quotient += std::isfinite(x) && x * third != x / 3.0f;
        }
        EXPECT_GT(rsub_rounded_up, 0);   // the bf16 case tells nearest even from truncation
        EXPECT_GT(div_not_quotient, 0);  // and x · (1/3) from x / 3
    }
}

// ---- round_tile ------------------------------------------------------------------------------------

TEST(EmuKernelApiOps, RoundTileIsHalfToEvenAtDecimals) {
    RowMajor in(1024);
    for (int i = 0; i < 1024; ++i) in[i] = -8.0f + float(i) * 0.0625f;
    for (DataFormat fmt : kFormats) {
        auto r = run_ops(fmt, {in}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    copy_tile(0, 0, 1);
    rounding_op_tile_init();
    round_tile(0, 0);
    round_tile(1, 1);)",
                         {0, 1});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            const float x = in_dst(fmt, in[i]);
            const float r0 = std::nearbyint(x);
            const float r1 = 0.1f * std::nearbyint(x * 10.0f);  // the fp32 formula of round_tile
            const uint32_t w0 = packed_bits(fmt, fmt == DataFormat::Float32 ? bits(r0) : bf16_trunc(r0));
            const uint32_t w1 = packed_bits(fmt, fmt == DataFormat::Float32 ? bits(r1) : bf16_trunc(r1));
            ASSERT_EQ(bits(r.tiles[0][i]), w0) << fmt_name(fmt) << " round(" << x << ")";
            ASSERT_EQ(bits(r.tiles[1][i]), w1) << fmt_name(fmt) << " round(" << x << ", 1)";
        }
        EXPECT_EQ(r.tiles[0][8 * 16 + 8], 0.0f);  // round(0.5) = 0: half to even
    }
}

// ---- FPU operand precision on Float32 CBs ----------------------------------------------------------

TEST(EmuKernelApiOps, FpuOpsReadFloat32AsTf32AndCopyTileFollowsTheUnpackMode) {
    // x has mantissa bits below TF32's 10: the FPU (SrcA/SrcB, 19 bits) drops them, and so does
    // copy_tile in the Default mode (it unpacks through SrcA).
    const float x = 1.0f + 0x1p-9f + 0x1p-20f, x_tf32 = 1.0f + 0x1p-9f;
    RowMajor a(1024, 0.0f), id(1024, 0.0f);
    for (int i = 0; i < 1024; ++i) a[i] = x;
    for (int i = 0; i < 32; ++i) id[i * 32 + i] = 1.0f;
    auto r = run_ops(DataFormat::Float32, {a, id}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);                      // DST0 = a through SrcA (Default mode)
    transpose_wh_init_short(0);
    transpose_wh_tile(0, 0, 1);              // DST1 = aᵀ through SrcA
    mm_init_short(0, 0);
    matmul_tiles(0, 0, 0, 1, 2);             // DST2 = a · I through SrcB / SrcA)",
                     {0, 1, 2}, UnpackToDestMode::Default);
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(r.tiles[0][i], x_tf32) << i;
        ASSERT_EQ(r.tiles[1][i], x_tf32) << i;
        ASSERT_EQ(r.tiles[2][i], x_tf32) << i;
    }
    // UnpackToDestFp32: copy_tile writes DST whole.
    r = run_ops(DataFormat::Float32, {a}, "    copy_tile_init(0);\n    copy_tile(0, 0, 0);", {0},
                UnpackToDestMode::UnpackToDestFp32);
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(r.tiles[0][i], x) << i;
}

TEST(EmuKernelApiOps, FpuOpOnACbSetToUnpackToDestFp32IsAFault) {
    // On silicon the FPU's operand reads as zeros: the CB's tiles bypass SrcA / SrcB.
    RowMajor a(1024, 1.5f);
    auto r = run_ops(DataFormat::Float32, {a}, R"(
    transpose_wh_init_short(0);
    transpose_wh_tile(0, 0, 0);)",
                     {0}, UnpackToDestMode::UnpackToDestFp32);
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelFault);
    EXPECT_TRUE(contains(r.err->message(), "kernel 'ops' on core (0,0) TRISC0 (UNPACK): transpose_wh_tile"))
        << r.err->message();
    EXPECT_TRUE(contains(r.err->message(), "reads Float32 cb 0 through a source register, but the program sets "
                                           "UnpackToDestMode::UnpackToDestFp32"))
        << r.err->message();
}

// ---- integer SFPU ops (add_int_sfpu.h … binary_comp.h, div_int32_floor.h, _int32 / _uint32 ops) ---

namespace {

using Words = std::vector<uint32_t>;  // one 32×32 tile of words, row-major

struct IntResult {
    std::vector<Words> tiles;
    std::optional<Error> err;
};

// Runs one compute kernel on one core, as run_ops does, with integer CBs: the input tiles (words,
// format `in_fmt`) in cb 0, the DST tiles `pack` packed into cb 16 (format `out_fmt`) and read
// back as words. The kernel source includes the tt-metal headers of the integer ops. `dest32`:
// fp32_dest_acc_en (a 32-bit DST).
IntResult run_int_ops(DataFormat in_fmt, DataFormat out_fmt, const std::vector<Words>& inputs, const std::string& body,
                      const std::vector<uint32_t>& pack, bool dest32 = true) {
    const uint32_t in_tile = tile_size_bytes(in_fmt), out_tile = tile_size_bytes(out_fmt);
    const uint32_t in_w = in_tile / 1024, out_w = out_tile / 1024;  // bytes per datum
    const uint32_t n_in = uint32_t(inputs.size()), n_out = uint32_t(pack.size());
    Device dev(preset("wormhole-n150"));
    auto in = dev.buffer_create(uint64_t(n_in) * in_tile, in_tile),
         out = dev.buffer_create(uint64_t(n_out) * out_tile, out_tile);
    std::vector<uint8_t> bytes(size_t(n_in) * in_tile);
    for (uint32_t t = 0; t < n_in; ++t)
        for (uint32_t i = 0; i < 1024; ++i)
            std::memcpy(bytes.data() + size_t(t) * in_tile + face_index(i / 32, i % 32) * in_w, &inputs[t][i], in_w);
    dev.buffer_write(in.id, bytes.data(), bytes.size());
    std::string packs;
    for (uint32_t i : pack) packs += "    pack_tile(" + std::to_string(i) + ", 16);\n";
    const std::string n_in_s = std::to_string(n_in), n_out_s = std::to_string(n_out);
    const std::string in_page = std::to_string(in_tile), out_page = std::to_string(out_tile);
    ProgramSpec s;
    s.cbs = {cb(0, n_in, one_core(), in_fmt), cb(16, n_out, one_core(), out_fmt)};
    auto k = compute("ops",
                     R"(#include "api/compute/add_int_sfpu.h"
#include "api/compute/sub_int_sfpu.h"
#include "api/compute/mul_int_sfpu.h"
#include "api/compute/binary_bitwise_sfpu.h"
#include "api/compute/binary_shift.h"
#include "api/compute/binary_comp.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/div_int32_floor.h"
#include "api/compute/div_int32_sfpu.h"
#include "api/compute/binary_remainder.h"
#include "api/compute/binary_fmod.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/fill.h"

void kernel_main() {
    cb_wait_front(0, )" + n_in_s +
                         R"();
    cb_reserve_back(16, )" +
                         n_out_s + R"();
    tile_regs_acquire();
    copy_tile_init(0);
)" + body + R"(
    tile_regs_commit();
    tile_regs_wait();
)" + packs + R"(    tile_regs_release();
    cb_push_back(16, )" + n_out_s +
                         R"();
    cb_pop_front(0, )" + n_in_s +
                         R"();
}
)",
                     one_core());
    k.compute.fp32_dest_acc_en = dest32;
    k.compute.dst_full_sync_en = true;
    s.kernels = {dm1("reader",
                     R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" +
                         in_page + R"(};
    cb_reserve_back(0, )" +
                         n_in_s + R"();
    for (uint32_t i = 0; i < )" +
                         n_in_s + R"(; ++i) noc_async_read_page(i, g, get_write_ptr(0) + i * )" + in_page + R"();
    noc_async_read_barrier();
    cb_push_back(0, )" + n_in_s +
                         R"();
})",
                     one_core()),
                 dm0("writer",
                     R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" +
                         out_page + R"(};
    cb_wait_front(16, )" +
                         n_out_s + R"();
    for (uint32_t i = 0; i < )" +
                         n_out_s + R"(; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * )" + out_page + R"();
    noc_async_write_barrier();
    cb_pop_front(16, )" + n_out_s +
                         R"();
})",
                     one_core()),
                 k};
    IntResult res;
    ProgramId p;
    try {
        p = dev.program_create(s);
    } catch (const Error& e) {
        res.err = e;
        return res;
    }
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {out.address});
    res.err = run(dev, p);
    if (res.err) return res;
    std::vector<uint8_t> ob(size_t(n_out) * out_tile);
    dev.buffer_read(out.id, ob.data(), ob.size());
    for (uint32_t t = 0; t < n_out; ++t) {
        Words w(1024, 0);
        for (uint32_t i = 0; i < 1024; ++i)
            std::memcpy(&w[i], ob.data() + size_t(t) * out_tile + face_index(i / 32, i % 32) * out_w, out_w);
        res.tiles.push_back(std::move(w));
    }
    return res;
}

// Operand tiles a and b: every pair of edge words, every shift count −2 … 33 of a few words, then
// random words (every third divisor small).
void int_operands(Words& a, Words& b, uint32_t mask = 0xffffffffu) {
    const uint32_t e[] = {0u,       1u,          0xffffffffu, 2u,          0xfffffff9u, 5u,
                          31u,      32u,         0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffu,
                          0x10000u, 0xdeadbeefu, 1000003u,    0xfff0bdc0u /* −1000000 */};
    a.assign(1024, 0), b.assign(1024, 0);
    uint32_t i = 0;
    for (uint32_t x : e)
        for (uint32_t y : e) a[i] = x, b[i] = y, ++i;
    for (uint32_t x : {1u, 0xffffffffu, 0x80000000u, 0x12345678u})
        for (int s = -2; s < 34; ++s) a[i] = x, b[i] = uint32_t(s), ++i;
    std::mt19937 rng(11);
    for (; i < 1024; ++i) a[i] = rng(), b[i] = i % 3 ? uint32_t(rng()) : uint32_t(int32_t(rng() % 41) - 20);
    for (uint32_t j = 0; j < 1024; ++j) a[j] &= mask, b[j] &= mask;
}

// The integer ops of docs/numerics.md §6 on one pair of words, in 64-bit arithmetic. `f`: Int32
// (signed), UInt32 or UInt16 (unsigned, 16 bits).
int64_t int_val(DataFormat f, uint32_t w) {
    return f == DataFormat::Int32 ? int64_t(int32_t(w)) : f == DataFormat::UInt16 ? int64_t(w & 0xffffu) : int64_t(w);
}
uint32_t int_word(DataFormat f, int64_t v) {
    return uint32_t(uint64_t(v) & (f == DataFormat::UInt16 ? 0xffffu : 0xffffffffu));
}
int64_t int_floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
uint32_t int_ref(const std::string& op, DataFormat f, uint32_t x, uint32_t y) {
    const int64_t a = int_val(f, x), b = int_val(f, y);
    const int64_t s = f == DataFormat::UInt16 ? b : int64_t(int32_t(y));  // the shift count
    const bool in_range = s >= 0 && s < 32;
    if (op == "add") return int_word(f, a + b);
    if (op == "sub") return int_word(f, a - b);
    if (op == "rsub") return int_word(f, b - a);
    if (op == "mul") return int_word(f, int64_t(uint64_t(a) * uint64_t(b)));
    if (op == "and") return int_word(f, a & b);
    if (op == "or") return int_word(f, a | b);
    if (op == "xor") return int_word(f, a ^ b);
    if (op == "shl") return in_range ? int_word(f, int64_t(uint64_t(a) << s)) : 0u;
    if (op == "shr")  // sign-filling: the word read as an int32 (UInt16 words are never negative)
        return in_range ? int_word(f, int_floor_div(f == DataFormat::UInt16 ? a : int64_t(int32_t(x)), int64_t(1) << s))
                        : 0u;
    if (op == "shr_logical") return in_range ? int_word(f, int64_t((uint64_t(a) & 0xffffffffu) >> s)) : 0u;
    if (op == "lt") return a < b;
    if (op == "gt") return a > b;
    if (op == "le") return a <= b;
    if (op == "ge") return a >= b;
    if (op == "max") return int_word(f, a > b ? a : b);
    if (op == "min") return int_word(f, a < b ? a : b);
    if (op == "div_floor" || op == "div_trunc") {
        const bool fl = op == "div_floor";
        if (b == 0) return a == INT32_MIN ? (fl ? 65534u : 65535u) : a < 0 ? int_word(f, fl ? -65537 : -65536) : 65536u;
        return int_word(f, fl ? int_floor_div(a, b) : a / b);
    }
    if (op == "remainder") return b == 0 ? x : int_word(f, a - int_floor_div(a, b) * b);
    if (op == "fmod") return b == 0 ? x : int_word(f, a % b);
    ADD_FAILURE() << "no reference for " << op;
    return 0;
}

// Checks tile t of r against int_ref(op) on every element.
void expect_int_tile(const IntResult& r, size_t t, const std::string& op, DataFormat f, const Words& a,
                     const Words& b) {
    for (int i = 0; i < 1024; ++i)
        ASSERT_EQ(r.tiles[t][i], int_ref(op, f, a[i], b[i])) << op << "<" << data_format_name(f) << ">(0x" << std::hex
                                                             << a[i] << ", 0x" << b[i] << ") element " << std::dec << i;
}

}  // namespace

TEST(EmuKernelApiOps, IntegerSfpuOpsOnInt32Tiles) {
    Words a, b;
    int_operands(a, b);
    const DataFormat I = DataFormat::Int32;
    struct Run {
        std::string body;
        std::vector<std::string> ops;  // what DST 2, 3, … hold
    };
    const Run runs[] = {
        {R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    add_int_tile_init();
    add_int_tile<DataFormat::Int32>(0, 1, 2);
    sub_int_tile_init();
    sub_int_tile<DataFormat::Int32>(0, 1, 3);
    rsub_int_tile_init();
    rsub_int_tile<DataFormat::Int32>(0, 1, 4);
    mul_int_tile_init<DataFormat::Int32>();
    mul_int_tile<DataFormat::Int32>(0, 1, 5);
    binary_bitwise_tile_init();
    bitwise_and_binary_tile<DataFormat::Int32>(0, 1, 6);
    bitwise_or_binary_tile<DataFormat::Int32>(0, 1, 7);)",
         {"add", "sub", "rsub", "mul", "and", "or"}},
        {R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    binary_bitwise_tile_init();
    bitwise_xor_binary_tile<DataFormat::Int32>(0, 1, 2);
    binary_shift_tile_init();
    binary_left_shift_tile<DataFormat::Int32>(0, 1, 3);
    binary_right_shift_tile<DataFormat::Int32>(0, 1, 4);
    binary_logical_right_shift_tile<DataFormat::Int32>(0, 1, 5);
    lt_int_tile_init<DataFormat::Int32>();
    lt_int_tile<DataFormat::Int32>(0, 1, 6);
    gt_int_tile_init<DataFormat::Int32>();
    gt_int_tile<DataFormat::Int32>(0, 1, 7);)",
         {"xor", "shl", "shr", "shr_logical", "lt", "gt"}},
        {R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    le_int_tile_init<DataFormat::Int32>();
    le_int_tile<DataFormat::Int32>(0, 1, 2);
    ge_int_tile_init<DataFormat::Int32>();
    ge_int_tile<DataFormat::Int32>(0, 1, 3);
    binary_max_int32_tile_init();
    binary_max_int32_tile(0, 1, 4);
    binary_min_int32_tile_init();
    binary_min_int32_tile(0, 1, 5);
    div_int32_floor_tile_init();
    div_int32_floor_tile(0, 1, 6);
    div_int32_trunc_tile_init();
    div_int32_trunc_tile(0, 1, 7);)",
         {"le", "ge", "max", "min", "div_floor", "div_trunc"}},
        {R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    remainder_int32_tile_init();
    remainder_int32_tile(0, 1, 2);
    fmod_int32_tile_init();
    fmod_int32_tile(0, 1, 3);)",
         {"remainder", "fmod"}},
    };
    for (const Run& run : runs) {
        std::vector<uint32_t> pack;
        for (size_t k = 0; k < run.ops.size(); ++k) pack.push_back(uint32_t(2 + k));
        pack.push_back(0), pack.push_back(1);  // the inputs, untouched
        auto r = run_int_ops(I, I, {a, b}, run.body, pack);
        ASSERT_FALSE(r.err) << r.err->what();
        for (size_t k = 0; k < run.ops.size(); ++k) expect_int_tile(r, k, run.ops[k], I, a, b);
        EXPECT_EQ(r.tiles[run.ops.size()], a);
        EXPECT_EQ(r.tiles[run.ops.size() + 1], b);
    }
    // Hand-written values, independent of int_ref: INT32_MAX + 1 wraps, −8 >> 1 = −4 (sign
    // fill), 1 << 32 = 0, −1 < 0 is the integer 1, floor(−7 / 2) = −4.
    const Words x = {0x7fffffffu, 0xfffffff8u, 1u, 0xffffffffu, 0xfffffff9u}, y = {1u, 1u, 32u, 0u, 2u};
    Words xa(1024, 0), ya(1024, 1);
    for (size_t i = 0; i < x.size(); ++i) xa[i] = x[i], ya[i] = y[i];
    auto r = run_int_ops(I, I, {xa, ya}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    add_int_tile<DataFormat::Int32>(0, 1, 2);
    binary_right_shift_tile<DataFormat::Int32>(0, 1, 3);
    binary_left_shift_tile<DataFormat::Int32>(0, 1, 4);
    lt_int_tile<DataFormat::Int32>(0, 1, 5);
    div_int32_floor_tile(0, 1, 6);)",
                         {2, 3, 4, 5, 6});
    ASSERT_FALSE(r.err) << r.err->what();
    EXPECT_EQ(r.tiles[0][0], 0x80000000u);
    EXPECT_EQ(r.tiles[1][1], 0xfffffffcu);
    EXPECT_EQ(r.tiles[2][2], 0u);
    EXPECT_EQ(r.tiles[3][3], 1u);
    EXPECT_EQ(r.tiles[4][4], 0xfffffffcu);
}

TEST(EmuKernelApiOps, IntegerSfpuOpsInPlaceAndOnAFilledTile) {
    Words a, b;
    int_operands(a, b);
    const DataFormat I = DataFormat::Int32;
    auto r = run_int_ops(I, I, {a, b}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    fill_tile_init();
    fill_tile_int<DataFormat::Int32>(4, 0xfffffffdu);  // −3
    mul_int_tile_init<DataFormat::Int32>();
    mul_int_tile<DataFormat::Int32>(4, 1, 5);           // −3 · b
    sub_int_tile_init();
    sub_int_tile<DataFormat::Int32>(0, 4, 6);           // a − (−3), the filled tile as idst1
    add_int_tile_init();
    add_int_tile<DataFormat::Int32>(0, 1, 0);           // over idst0: a + b
    rsub_int_tile_init();
    rsub_int_tile<DataFormat::Int32>(0, 1, 1);          // over idst1: b − (a + b) = −a)",
                         {5, 6, 0, 1});
    ASSERT_FALSE(r.err) << r.err->what();
    Words minus3(1024, 0xfffffffdu);
    expect_int_tile(r, 0, "mul", I, minus3, b);
    expect_int_tile(r, 1, "sub", I, a, minus3);
    expect_int_tile(r, 2, "add", I, a, b);
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(r.tiles[3][i], 0u - a[i]) << i;
}

TEST(EmuKernelApiOps, DivInt32TileWritesTheFloat32Quotient) {
    Words a, b;
    int_operands(a, b);
    auto r = run_int_ops(DataFormat::Int32, DataFormat::Float32, {a, b}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    div_int32_tile_init();
    div_int32_tile(0, 1, 2);)",
                         {2});
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        const float want = float(int32_t(a[i])) / float(int32_t(b[i])), got = from_bits(r.tiles[0][i]);
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << i;
            continue;
        }
        ASSERT_EQ(got, want) << int32_t(a[i]) << " / " << int32_t(b[i]);
    }
    EXPECT_EQ(from_bits(r.tiles[0][0 * 16 + 1]), 0.0f);                                    // 0 / 1
    EXPECT_EQ(from_bits(r.tiles[0][1 * 16 + 0]), std::numeric_limits<float>::infinity());  // 1 / 0
}

TEST(EmuKernelApiOps, IntegerSfpuOpsOnUInt32AndUInt16Tiles) {
    {  // UInt32 in a 32-bit DST: unsigned order; binary_right_shift_tile still fills with the sign bit.
        const DataFormat U = DataFormat::UInt32;
        Words a, b;
        int_operands(a, b);
        auto r = run_int_ops(U, U, {a, b}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    lt_int_tile_init<DataFormat::UInt32>();
    lt_int_tile<DataFormat::UInt32>(0, 1, 2);
    binary_max_uint32_tile_init();
    binary_max_uint32_tile(0, 1, 3);
    binary_min_uint32_tile_init();
    binary_min_uint32_tile(0, 1, 4);
    binary_shift_tile_init();
    binary_right_shift_tile<DataFormat::UInt32>(0, 1, 5);
    binary_logical_right_shift_tile<DataFormat::UInt32>(0, 1, 6);
    mul_int_tile_init<DataFormat::UInt32>();
    mul_int_tile<DataFormat::UInt32>(0, 1, 7);)",
                             {2, 3, 4, 5, 6, 7});
        ASSERT_FALSE(r.err) << r.err->what();
        const char* ops[] = {"lt", "max", "min", "shr", "shr_logical", "mul"};
        for (size_t k = 0; k < 6; ++k) expect_int_tile(r, k, ops[k], U, a, b);
    }
    {  // UInt16 CBs in a 16-bit DST (no 32-bit DST needed): arithmetic modulo 2^16.
        const DataFormat U = DataFormat::UInt16;
        Words a, b;
        int_operands(a, b, 0xffffu);
        auto r = run_int_ops(U, U, {a, b}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    add_int_tile<DataFormat::UInt16>(0, 1, 2);
    sub_int_tile<DataFormat::UInt16>(0, 1, 3);
    mul_int_tile_init<DataFormat::UInt16>();
    mul_int_tile<DataFormat::UInt16>(0, 1, 4);
    binary_left_shift_tile<DataFormat::UInt16>(0, 1, 5);
    ge_int_tile<DataFormat::UInt16>(0, 1, 6);
    bitwise_xor_binary_tile<DataFormat::UInt16>(0, 1, 7);)",
                             {2, 3, 4, 5, 6, 7}, /*dest32=*/false);
        ASSERT_FALSE(r.err) << r.err->what();
        const char* ops[] = {"add", "sub", "mul", "shl", "ge", "xor"};
        for (size_t k = 0; k < 6; ++k) expect_int_tile(r, k, ops[k], U, a, b);
    }
}

TEST(EmuKernelApiOps, Int32SfpuOpsNeedA32BitDst) {
    Words z(1024, 0);
    auto r = run_int_ops(DataFormat::Int32, DataFormat::Int32, {z, z}, R"(    copy_tile(0, 0, 0);
    copy_tile(0, 1, 1);
    add_int_tile<DataFormat::Int32>(0, 1, 0);)",
                         {0}, /*dest32=*/false);
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelFault);
    EXPECT_TRUE(contains(r.err->message(), "kernel 'ops'")) << r.err->message();
    EXPECT_TRUE(contains(r.err->message(), "add_int_tile<DataFormat::Int32>")) << r.err->message();
    EXPECT_TRUE(contains(r.err->message(), "32-bit DST")) << r.err->message();
    auto r2 =
        run_int_ops(DataFormat::Int32, DataFormat::Int32, {z, z}, "    div_int32_floor_tile(0, 1, 0);", {0}, false);
    ASSERT_TRUE(r2.err);
    EXPECT_TRUE(contains(r2.err->message(), "div_int32_floor_tile: Int32 words need a 32-bit DST"))
        << r2.err->message();
}

TEST(EmuKernelApiOps, IntegerSfpuOpsRefuseOtherFormatsAtCompileTime) {
    Words z(1024, 0);
    const std::pair<std::string, std::string> cases[] = {
        {"add_int_tile<DataFormat::Float32>(0, 1, 0);", "Unsupported data format for add_int"},
        {"mul_int_tile_init<DataFormat::Float16_b>();", "Unsupported data format for mul_int"},
        {"binary_left_shift_tile<DataFormat::Int8>(0, 1, 0);", "Unsupported data format for left shift"},
        {"lt_int_tile_init<DataFormat::Float32>();", "Unsupported data format for lt_int"},
    };
    for (const auto& [call, message] : cases) {
        auto r = run_int_ops(DataFormat::Int32, DataFormat::Int32, {z}, "    " + call, {0});
        ASSERT_TRUE(r.err) << call;
        EXPECT_EQ(r.err->status(), ErrorStatus::KernelCompilation) << call;
        EXPECT_TRUE(contains(r.err->message(), message)) << r.err->message();
    }
}
