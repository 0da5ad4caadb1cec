// Compute kernel API ops the code generator emits, run as whole programs on the emulator and
// checked against host goldens written here from the definitions in docs/numerics.md: where_tile,
// sfpu_reduce, transpose_wh_dest / transpose_dest, copy_dest_values, comp.h (gtz_tile … unary_le_tile),
// fmod_binary_tile / remainder_binary_tile, round_tile, binop_with_scalar.h's add_unary_tile …
// rsub_unary_tile, fill_tile (which the emulator keeps lazily); in f32 (Float32 CBs, fp32 DST) and
// bf16 (Float16_b CBs, 16-bit DST). Also the precision of FPU ops on Float32 CBs (TF32 operands).
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

using RowMajor = std::vector<float>;  // one 32×32 tile, row-major

uint32_t face_index(uint32_t r, uint32_t c) { return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16; }
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
               const std::vector<uint32_t>& pack) {
    const bool f32 = fmt == DataFormat::Float32;
    const uint32_t tile = tile_size_bytes(fmt), n_in = uint32_t(inputs.size()), n_out = uint32_t(pack.size());
    Device dev(preset("wormhole-n150"));
    auto in = dev.buffer_create(uint64_t(n_in) * tile, tile), out = dev.buffer_create(uint64_t(n_out) * tile, tile);
    std::vector<uint8_t> bytes(size_t(n_in) * tile);
    for (uint32_t t = 0; t < n_in; ++t)
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t c = 0; c < 32; ++c) {
                const float v = inputs[t][r * 32 + c];
                uint8_t* p = bytes.data() + size_t(t) * tile + face_index(r, c) * (f32 ? 4 : 2);
                if (f32) {
                    const uint32_t u = bits(v);
                    std::memcpy(p, &u, 4);
                } else {
                    const uint16_t h = f32_to_bf16(v);
                    std::memcpy(p, &h, 2);
                }
            }
    dev.buffer_write(in.id, bytes.data(), bytes.size());
    std::string packs;
    for (uint32_t i : pack) packs += "    pack_tile(" + std::to_string(i) + ", 16);\n";
    const std::string n_in_s = std::to_string(n_in), n_out_s = std::to_string(n_out), page = std::to_string(tile);
    ProgramSpec s;
    s.cbs = {cb(0, n_in, one_core(), fmt), cb(16, n_out, one_core(), fmt)};
    auto k = compute("ops", "void kernel_main() {\n    cb_wait_front(0, " + n_in_s + ");\n    cb_reserve_back(16, " + n_out_s +
                                ");\n    tile_regs_acquire();\n" + body + "\n    tile_regs_commit();\n    tile_regs_wait();\n" +
                                packs + "    tile_regs_release();\n    cb_push_back(16, " + n_out_s + ");\n    cb_pop_front(0, " +
                                n_in_s + ");\n}\n",
                     one_core());
    k.compute.fp32_dest_acc_en = f32;
    k.compute.dst_full_sync_en = true;
    s.kernels = {dm1("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" + page + R"(};
    cb_reserve_back(0, )" + n_in_s + R"();
    for (uint32_t i = 0; i < )" + n_in_s + R"(; ++i) noc_async_read_page(i, g, get_write_ptr(0) + i * )" + page + R"();
    noc_async_read_barrier();
    cb_push_back(0, )" + n_in_s + R"();
})", one_core()),
                 dm0("writer", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), )" + page + R"(};
    cb_wait_front(16, )" + n_out_s + R"();
    for (uint32_t i = 0; i < )" + n_out_s + R"(; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * )" + page + R"();
    noc_async_write_barrier();
    cb_pop_front(16, )" + n_out_s + R"();
})", one_core()),
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
    for (uint32_t t = 0; t < n_out; ++t) {
        RowMajor m(1024);
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t c = 0; c < 32; ++c) {
                const uint8_t* p8 = ob.data() + size_t(t) * tile + face_index(r, c) * (f32 ? 4 : 2);
                if (f32) {
                    uint32_t u;
                    std::memcpy(&u, p8, 4);
                    m[r * 32 + c] = from_bits(u);
                } else {
                    uint16_t h;
                    std::memcpy(&h, p8, 2);
                    m[r * 32 + c] = bf16_to_f32(h);
                }
            }
        res.tiles.push_back(std::move(m));
    }
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
std::string fmt_name(DataFormat f) { return f == DataFormat::Float32 ? "DataFormat::Float32" : "DataFormat::Float16_b"; }

// What the packer writes for a DST word already holding a bf16 value (docs/numerics.md §3):
// Float32 the word itself; Float16_b the value, except NaN → inf of its sign and −0 → +0.
uint32_t packed_bits(DataFormat fmt, uint32_t dst_word) {
    if (fmt == DataFormat::Float32) return dst_word;
    if ((dst_word & 0x7f800000u) == 0x7f800000u && (dst_word & 0x007fffffu)) return (dst_word & 0x80000000u) | 0x7f800000u;
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
        const std::string older = fmt == DataFormat::Float32 ? "where_fp32_tile(1, 2, 3, 4);" : "where_tile(1, 2, 3, 4);";
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
            for (int t = 0; t < 3; ++t) ASSERT_EQ(bits(r.tiles[t][i]), bits(want)) << F << " tile " << t << " element " << i;
        }
        EXPECT_EQ(r.tiles[0][0], b[0]);
        EXPECT_EQ(r.tiles[0][1], a[1]);
    }
}

TEST(EmuKernelApiOps, WhereTileRefusesOtherFormatsAtCompileTime) {
    auto r = run_ops(DataFormat::Float32, {RowMajor(1024)}, "    where_tile<DataFormat::UInt16>(0, 0, 0, 0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelCompilation);
    EXPECT_TRUE(contains(r.err->message(), "Only Float32, Int32, UInt32, and Float16_b are allowed")) << r.err->message();
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
        auto r = run_ops(fmt, {in}, R"(
    copy_tile_init(0);
    for (uint32_t i = 0; i < 4; ++i) copy_tile(0, 0, i);
    sfpu_reduce_init<PoolType::SUM, )" + F + R"(>();
    sfpu_reduce<PoolType::SUM, )" + F + R"(>(0);
    sfpu_reduce_init<PoolType::AVG, )" + F + R"(>();
    sfpu_reduce<PoolType::AVG, )" + F + R"(, ReduceDim::REDUCE_COL>(1);
    sfpu_reduce_init<MAX, )" + F + R"(>();
    sfpu_reduce<MAX, )" + F + R"(>(2);
    sfpu_reduce_init<MIN, )" + F + R"(>();
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
    EXPECT_TRUE(contains(r.err->message(), "row reduction (REDUCE_ROW) is only supported for SUM and MAX")) << r.err->message();
    r = run_ops(DataFormat::Float32, {RowMajor(1024)}, "    sfpu_reduce<PoolType::SUM, DataFormat::Bfp8_b>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_TRUE(contains(r.err->message(), "Supported formats: Float32, Int32, UInt32, UInt16, Float16_b")) << r.err->message();
    r = run_ops(DataFormat::Float32, {RowMajor(1024)},
                "    sfpu_reduce<PoolType::SUM, DataFormat::Float32, ReduceDim::REDUCE_ROW>(0);", {0});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported) << r.err->what();
    EXPECT_TRUE(contains(r.err->message(), "REDUCE_ROW")) << r.err->message();
    r = run_ops(DataFormat::Float32, {RowMajor(1024)}, "    sfpu_reduce<PoolType::SUM, DataFormat::Float32>(0, 1, 1);", {0});
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
        auto r = run_ops(fmt, {in}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    copy_tile(0, 0, 1);
    transpose_wh_dest_init_short<)" + B + R"(>();
    transpose_wh_dest<)" + B + R"(>(0);
    transpose_dest_init<)" + B + R"(>(0);
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
        auto r = run_ops(fmt, {in}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 2);
    copy_dest_values_init();
    copy_dest_values<)" + fmt_name(fmt) + R"(>(2, 5);
    negative_tile_init();
    negative_tile(2);)",
                         {5, 2});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            // The copy holds the input; the negated source shows the copy is a tile of its own.
            ASSERT_EQ(bits(r.tiles[0][i]), packed_bits(fmt, bits(in_dst(fmt, in[i])))) << fmt_name(fmt) << " element " << i;
            if (!std::isnan(in[i])) {
                ASSERT_EQ(r.tiles[1][i], -r.tiles[0][i]) << fmt_name(fmt) << " element " << i;
            }
        }
    }
}

TEST(EmuKernelApiOps, TransposeWhDestOf32BitOnA16BitDstIsUnsupported) {
    auto r = run_ops(DataFormat::Float16_b, {RowMajor(1024)}, "    transpose_wh_dest<true>(0);", {0});
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
                ASSERT_EQ(bits(got), w) << fmt_name(fmt) << (t ? " remainder(" : " fmod(") << a[i] << ", " << b[i] << ")";
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
        auto r = run_ops(fmt, {in, id}, R"(
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
    copy_dest_values<)" + fmt_name(fmt) + R"(>(1, 6);
    negative_tile_init();
    negative_tile(6);
    fill_tile_init();
    fill_tile(7, -2.0f);
    mm_init_short(0, 0);
    matmul_tiles(0, 0, 0, 1, 7);)",
                         {1, 2, 3, 4, 5, 6, 7});
        ASSERT_FALSE(r.err) << r.err->what();
        const bool f32 = fmt == DataFormat::Float32;
        auto sfpu = [&](float v) { return packed_bits(fmt, f32 ? bits(v) : bf16_trunc(v)); };
        for (int i = 0; i < 1024; ++i) {
            const float x = in_dst(fmt, in[i]);
            const uint32_t want[] = {sfpu(1.5f), sfpu(1.5f - x), sfpu(x - 1.5f), sfpu(2.25f), sfpu(x + 3.0f), sfpu(-1.5f),
                                     // the FPU's result rounds to nearest even in a 16-bit DST
                                     packed_bits(fmt, f32 ? bits(-2.0f + x) : uint32_t(f32_to_bf16(-2.0f + x)) << 16)};
            for (int t = 0; t < 7; ++t) ASSERT_EQ(bits(r.tiles[t][i]), want[t]) << fmt_name(fmt) << " tile " << t << " x = " << x;
        }
    }
}

TEST(EmuKernelApiOps, AFilledTileReadsAsZeroAfterRelease) {
    std::mt19937 rng(7);
    for (DataFormat fmt : kFormats) {
        const RowMajor in = random_tile(rng);
        auto r = run_ops(fmt, {in}, R"(
    fill_tile_init();
    fill_tile(3, 5.0f);
    fill_tile_bitcast(2, 0x40a00000u);
    tile_regs_commit();
    tile_regs_wait();
    tile_regs_release();
    tile_regs_acquire();
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    add_binary_tile_init();
    add_binary_tile(0, 3, 1);
    add_binary_tile(2, 0, 2);)",
                         {1, 2});
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            const uint32_t want = packed_bits(fmt, bits(in_dst(fmt, in[i])));  // x + 0: exact
            ASSERT_EQ(bits(r.tiles[0][i]), want) << fmt_name(fmt) << " element " << i;
            ASSERT_EQ(bits(r.tiles[1][i]), want) << fmt_name(fmt) << " element " << i;
        }
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
                if (fmt == DataFormat::Float16_b) w = k == 4 ? uint32_t(f32_to_bf16(want[k])) << 16 : bf16_trunc(want[k]);
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

TEST(EmuKernelApiOps, FpuOpsReadFloat32AsTf32ButCopyTileDoesNot) {
    // x has mantissa bits below TF32's 10: the FPU (SrcA/SrcB, 19 bits) drops them.
    const float x = 1.0f + 0x1p-9f + 0x1p-20f, x_tf32 = 1.0f + 0x1p-9f;
    RowMajor a(1024, 0.0f), id(1024, 0.0f);
    for (int i = 0; i < 1024; ++i) a[i] = x;
    for (int i = 0; i < 32; ++i) id[i * 32 + i] = 1.0f;
    auto r = run_ops(DataFormat::Float32, {a, id}, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);                      // DST0 = a, exact in a 32-bit DST
    transpose_wh_init_short(0);
    transpose_wh_tile(0, 0, 1);              // DST1 = aᵀ through SrcA
    mm_init_short(0, 0);
    matmul_tiles(0, 0, 0, 1, 2);             // DST2 = a · I through SrcB / SrcA)",
                     {0, 1, 2});
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(r.tiles[0][i], x) << i;
        ASSERT_EQ(r.tiles[1][i], x_tf32) << i;
        ASSERT_EQ(r.tiles[2][i], x_tf32) << i;
    }
}
