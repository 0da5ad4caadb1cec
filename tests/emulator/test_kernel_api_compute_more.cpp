// The rest of the compute kernel API (issue 10, item 2), run as whole programs on the emulator and
// checked against host goldens: compute_kernel_hw_startup<SrcOrder>, exp_tile with a scale,
// binary_dest_reuse_tiles, unary_bcast, ROW broadcasts of a row other than 0; in f32 (Float32 CBs,
// fp32 DST) and bf16 (Float16_b CBs, 16-bit DST). Also that the new ops take part in the compute
// checks (missing init, unconfigured formats, unwritten DST tiles).
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

using RowMajor = RowMajorTile;

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }
float from_bits(uint32_t u) { return std::bit_cast<float>(u); }
float tf32(float f) { return from_bits(bits(f) & 0xffffe000u); }
float bf16_nearest(float f) { return bf16_to_f32(f32_to_bf16(f)); }
float bf16_trunc(float f) { return from_bits(bits(f) & 0xffff0000u); }
// The packer's fp32 → Float16_b: nearest, ties away from zero (docs/numerics.md §3; finite values).
float bf16_pack(float f) { return from_bits((bits(f) + 0x8000u) & 0xffff0000u); }

struct InCb {
    uint32_t index;
    DataFormat fmt;
    std::vector<RowMajor> tiles;
};
struct Result {
    std::vector<RowMajor> tiles;
    std::optional<Error> err;
};

// Float16 pages hold IEEE half bits (the tests' values are normal halves, where Tensix FP16 agrees);
// the other formats as emu_test's helpers write and read them.
std::vector<uint8_t> to_l1(DataFormat fmt, const std::vector<RowMajor>& tiles) {
    if (fmt != DataFormat::Float16) return tiles_to_bytes(fmt, tiles);
    std::vector<uint8_t> bytes(tiles.size() * 2048);
    for (size_t t = 0; t < tiles.size(); ++t)
        for (uint32_t i = 0; i < 1024; ++i) {
            const uint16_t h = f32_to_f16(tiles[t][i]);
            std::memcpy(bytes.data() + t * 2048 + face_index(i / 32, i % 32) * 2, &h, 2);
        }
    return bytes;
}
std::vector<RowMajor> from_l1(DataFormat fmt, const std::vector<uint8_t>& bytes) {
    if (fmt != DataFormat::Float16) return bytes_to_tiles(fmt, bytes);
    std::vector<RowMajor> tiles(bytes.size() / 2048, RowMajor(1024));
    for (size_t t = 0; t < tiles.size(); ++t)
        for (uint32_t i = 0; i < 1024; ++i) {
            uint16_t h;
            std::memcpy(&h, bytes.data() + t * 2048 + face_index(i / 32, i % 32) * 2, 2);
            tiles[t][i] = f16_to_f32(h);
        }
    return tiles;
}

// One core: every input CB is read in full and waited for; `body` runs between tile_regs_acquire
// and tile_regs_commit; DST tiles 0 … n_out − 1 are packed into cb 16 (format `out_fmt`). DST is
// 32-bit when `fp32_dest`, full sync. `to_dest`: the CBs set to UnpackToDestFp32.
Result run_prog(const std::vector<InCb>& ins, DataFormat out_fmt, uint32_t n_out, const std::string& body,
                bool fp32_dest, const std::string& pack_body = "", const std::vector<uint32_t>& to_dest = {}) {
    Device dev(preset("wormhole-n150"));
    ProgramSpec s;
    std::string reader = "void kernel_main() {\n", waits, pops;
    std::vector<uint32_t> reader_args;
    for (size_t i = 0; i < ins.size(); ++i) {
        const InCb& in = ins[i];
        const uint32_t tile = tile_size_bytes(in.fmt), n = uint32_t(in.tiles.size());
        auto buf = dev.buffer_create(uint64_t(n) * tile, tile);
        const auto bytes = to_l1(in.fmt, in.tiles);
        dev.buffer_write(buf.id, bytes.data(), bytes.size());
        reader_args.push_back(uint32_t(buf.address));
        s.cbs.push_back(cb(in.index, n, one_core(), in.fmt));
        const std::string c = std::to_string(in.index), ns = std::to_string(n), pg = std::to_string(tile);
        reader += "    {\n        InterleavedAddrGen<true> g{get_arg_val<uint32_t>(" + std::to_string(i) + "), " + pg +
            "};\n        cb_reserve_back(" + c + ", " + ns + ");\n        for (uint32_t i = 0; i < " + ns +
            "; ++i) noc_async_read_page(i, g, get_write_ptr(" + c + ") + i * " + pg +
            ");\n        noc_async_read_barrier();\n        cb_push_back(" + c + ", " + ns + ");\n    }\n";
        waits += "    cb_wait_front(" + c + ", " + ns + ");\n";
        pops += "    cb_pop_front(" + c + ", " + ns + ");\n";
    }
    reader += "}\n";
    const uint32_t out_tile = tile_size_bytes(out_fmt);
    auto out = dev.buffer_create(uint64_t(n_out) * out_tile, out_tile);
    s.cbs.push_back(cb(16, n_out, one_core(), out_fmt));
    const std::string no = std::to_string(n_out), opg = std::to_string(out_tile);
    std::string packs;
    for (uint32_t i = 0; i < n_out; ++i) packs += "    pack_tile(" + std::to_string(i) + ", 16);\n";
    if (!pack_body.empty()) packs = pack_body + "\n";
    auto k =
        compute("k",
                "void kernel_main() {\n" + waits + "    cb_reserve_back(16, " + no + ");\n    tile_regs_acquire();\n" +
                    body + "\n    tile_regs_commit();\n    tile_regs_wait();\n" + packs +
                    "    tile_regs_release();\n    cb_push_back(16, " + no + ");\n" + pops + "}\n",
                one_core());
    k.compute.fp32_dest_acc_en = fp32_dest;
    k.compute.dst_full_sync_en = true;
    for (uint32_t c : to_dest) k.compute.unpack_to_dest_fp32(c);
    s.kernels = {dm1("reader", reader, one_core()),
                 dm0("writer",
                     "void kernel_main() {\n    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), " + opg +
                         "};\n    cb_wait_front(16, " + no + ");\n    for (uint32_t i = 0; i < " + no +
                         "; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * " + opg +
                         ");\n    noc_async_write_barrier();\n    cb_pop_front(16, " + no + ");\n}\n",
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
    dev.program_set_runtime_args(p, 0, {0, 0}, reader_args);
    dev.program_set_runtime_args(p, 1, {0, 0}, {uint32_t(out.address)});
    res.err = run(dev, p);
    if (res.err) return res;
    std::vector<uint8_t> ob(size_t(n_out) * out_tile);
    dev.buffer_read(out.id, ob.data(), ob.size());
    res.tiles = from_l1(out_fmt, ob);
    return res;
}

// One format for inputs, output and DST (Float32 with a 32-bit DST, Float16_b with a 16-bit one).
Result run_one(DataFormat fmt, const std::vector<RowMajor>& inputs, uint32_t n_out, const std::string& body) {
    return run_prog({{0, fmt, inputs}}, fmt, n_out, body, fmt == DataFormat::Float32);
}

// Values exactly representable in bf16, magnitude in [2^lo, 2^hi), random sign.
RowMajor random_tile(std::mt19937& rng, int lo = -3, int hi = 3) {
    std::uniform_int_distribution<int> e(lo, hi - 1), m(0, 127), sgn(0, 1);
    RowMajor t(1024);
    for (float& x : t) {
        x = std::ldexp(1.0f + float(m(rng)) / 128.0f, e(rng));
        if (sgn(rng)) x = -x;
    }
    return t;
}
// Small integers (−2 … 2): every product and sum of a tile matmul is exact in any fidelity.
RowMajor small_int_tile(std::mt19937& rng) {
    std::uniform_int_distribution<int> v(-2, 2);
    RowMajor t(1024);
    for (float& x : t) x = float(v(rng));
    return t;
}

const DataFormat kFormats[] = {DataFormat::Float32, DataFormat::Float16_b};
const char* fname(DataFormat f) { return f == DataFormat::Float32 ? "Float32" : "Float16_b"; }

// What a float FPU result in DST becomes in the output CB: Float32 as it is, Float16_b rounded to
// nearest even (the FPU's 16-bit DST rounding, docs/numerics.md).
float fpu_out(DataFormat fmt, float x) { return fmt == DataFormat::Float32 ? x : bf16_nearest(x); }

}  // namespace

// ---- compute_kernel_hw_startup<SrcOrder> ---------------------------------------------------------

TEST(EmuKernelApiMore, HwStartupSrcOrderReverseMapsIn0ToSrcB) {
    std::mt19937 rng(7);
    const RowMajor a = small_int_tile(rng), b = small_int_tile(rng);
    RowMajor want(1024, 0.0f);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c)
            for (int k = 0; k < 32; ++k) want[r * 32 + c] += a[r * 32 + k] * b[k * 32 + c];
    // in0 (cb 0) Float16_b, in1 (cb 1) Float32: only the reversed mapping matches matmul's unpack
    // (in1 → SrcA, in0 → SrcB) without a reconfig.
    const std::vector<InCb> ins = {{0, DataFormat::Float16_b, {a}}, {1, DataFormat::Float32, {b}}};
    auto r = run_prog(ins, DataFormat::Float32, 1,
                      "    compute_kernel_hw_startup<SrcOrder::Reverse>(0, 1, 16);\n    matmul_init(0, 1);\n"
                      "    matmul_tiles(0, 1, 0, 0, 0);",
                      true);
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(r.tiles[0][i], want[i]) << i;

    auto regular = run_prog(ins, DataFormat::Float32, 1,
                            "    compute_kernel_hw_startup(0, 1, 16);\n    matmul_init(0, 1);\n"
                            "    matmul_tiles(0, 1, 0, 0, 0);",
                            true);
    ASSERT_TRUE(regular.err);
    EXPECT_TRUE(contains(regular.err->what(), "unpacker is configured for")) << regular.err->what();

    // reconfig_data_format<SrcOrder::Reverse>(in0, in1) repairs the regular start-up.
    auto fixed =
        run_prog(ins, DataFormat::Float32, 1,
                 "    compute_kernel_hw_startup(0, 1, 16);\n    reconfig_data_format<SrcOrder::Reverse>(0, 1);\n"
                 "    matmul_init(0, 1);\n    matmul_tiles(0, 1, 0, 0, 0);",
                 true);
    ASSERT_FALSE(fixed.err) << fixed.err->what();
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(fixed.tiles[0][i], want[i]) << i;
}

// ---- exp_tile with a scale -------------------------------------------------------------------------

TEST(EmuKernelApiMore, ExpTileScalesItsInput) {
    std::mt19937 rng(3);
    const RowMajor x = random_tile(rng, -3, 2);
    const uint16_t scales[] = {0x3F00 /* 0.5 */, 0xBFC0 /* -1.5 */};
    for (DataFormat fmt : kFormats)
        for (uint16_t sc : scales) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%04X", unsigned(sc));
            auto r = run_one(fmt, {x}, 2,
                             std::string("    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    copy_tile(0, 0, 1);\n"
                                         "    exp_tile_init();\n    exp_tile<false, true>(0, VectorMode::RC, ") +
                                 hex + ");\n    exp_tile<false, false>(1, VectorMode::RC, " + hex + ");");
            ASSERT_FALSE(r.err) << r.err->what();
            const float s = bf16_to_f32(sc);
            for (int i = 0; i < 1024; ++i) {
                const float scaled = std::exp(double(x[i]) * s), plain = std::exp(double(x[i]));
                if (fmt == DataFormat::Float32) {
                    ASSERT_NEAR(r.tiles[0][i], scaled, 1e-6 * scaled) << fname(fmt) << " " << hex << " " << i;
                    ASSERT_NEAR(r.tiles[1][i], plain, 1e-6 * plain) << "scale_en = false ignores the scale";
                } else {  // the SFPU store truncates into the 16-bit DST: within one bf16 ulp below
                    const float got = r.tiles[0][i], hi = bf16_trunc(float(scaled * (1 + 1e-6)));
                    ASSERT_TRUE(got == hi || got == bf16_trunc(float(scaled * (1 - 1e-6))))
                        << fname(fmt) << " " << hex << " " << i << ": " << got << " vs " << scaled;
                }
            }
        }
}

// ---- binary_dest_reuse_tiles ---------------------------------------------------------------------

TEST(EmuKernelApiMore, BinaryDestReuseTilesBothDirections) {
    std::mt19937 rng(5);
    const RowMajor a = random_tile(rng), b = random_tile(rng);
    for (DataFormat fmt : kFormats) {
        // DST0 = a - b (a in DST moved to SrcA), DST1 = b - a (a in DST moved to SrcB),
        // DST2 = a * b (DEST_TO_SRCA), DST3 = a + b (DEST_TO_SRCB).
        auto r = run_one(fmt, {a, b}, 4, R"(
    copy_tile_init(0);
    for (uint32_t i = 0; i < 4; ++i) copy_tile(0, 0, i);
    binary_dest_reuse_tiles_init<ELWSUB, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0);
    binary_dest_reuse_tiles<ELWSUB, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 0);
    binary_dest_reuse_tiles_init<ELWSUB, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(0);
    binary_dest_reuse_tiles<ELWSUB, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(0, 1, 1);
    binary_dest_reuse_tiles_init<ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0);
    binary_dest_reuse_tiles<ELWMUL, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 2);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(0);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(0, 1, 3);)");
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            ASSERT_EQ(r.tiles[0][i], fpu_out(fmt, a[i] - b[i])) << fname(fmt) << " sub SRCA " << i;
            ASSERT_EQ(r.tiles[1][i], fpu_out(fmt, b[i] - a[i])) << fname(fmt) << " sub SRCB " << i;
            ASSERT_EQ(r.tiles[2][i], fpu_out(fmt, a[i] * b[i])) << fname(fmt) << " mul " << i;
            ASSERT_EQ(r.tiles[3][i], fpu_out(fmt, a[i] + b[i])) << fname(fmt) << " add " << i;
        }
    }
}

TEST(EmuKernelApiMore, BinaryDestReuseReadsAFp32DstTileAsTf32) {
    // A full-precision DST word (copy_tile of a Float32 CB keeps it) loses its low mantissa bits
    // when it moves into SrcA, as a Float32 CB tile unpacked into SrcB does.
    RowMajor a(1024), b(1024);
    for (int i = 0; i < 1024; ++i) {
        a[i] = 1.0f + std::ldexp(float(i % 64 + 1), -23);  // bits below TF32's 10 mantissa bits
        b[i] = std::ldexp(1.0f, -(i % 8)) + std::ldexp(1.0f, -20);
    }
    // a in cb 0 (UnpackToDestFp32: copy_tile keeps every bit), b in cb 1 (Default: the FPU reads it).
    auto r = run_prog({{0, DataFormat::Float32, {a}}, {1, DataFormat::Float32, {b}}}, DataFormat::Float32, 2, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(1);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(1, 0, 0);
    copy_tile_init(0);
    copy_tile(0, 0, 1);)",
                      true, "", {0});
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(r.tiles[0][i], tf32(a[i]) + tf32(b[i])) << i;
        ASSERT_EQ(r.tiles[1][i], a[i]) << "copy_tile keeps the Float32 word " << i;
    }
}

TEST(EmuKernelApiMore, BinaryDestReuseTakesPartInTheChecks) {
    std::mt19937 rng(9);
    const RowMajor a = random_tile(rng), b = random_tile(rng);
    // Without its own init (copy_tile_init configured the datacopy).
    auto no_init = run_one(DataFormat::Float16_b, {a, b}, 1, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 0);)");
    ASSERT_TRUE(no_init.err);
    EXPECT_TRUE(contains(no_init.err->what(), "missing init")) << no_init.err->what();
    EXPECT_TRUE(contains(no_init.err->what(), "binary_dest_reuse_tiles_init<ELWADD, DEST_TO_SRCA>"))
        << no_init.err->what();
    // The init of another direction does not count.
    auto other = run_one(DataFormat::Float16_b, {a, b}, 1, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCB>(0);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 0);)");
    ASSERT_TRUE(other.err);
    EXPECT_TRUE(contains(other.err->what(), "missing init")) << other.err->what();
    // It reads its DST tile: one nothing wrote faults.
    auto unwritten = run_one(DataFormat::Float16_b, {a, b}, 1, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 3);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 0);)");
    ASSERT_TRUE(unwritten.err);
    EXPECT_TRUE(contains(unwritten.err->what(), "reads DST index 3")) << unwritten.err->what();
    // The CB tile goes to the other source: a Float32 CB against a Float16_b-configured SrcB.
    auto fmt = run_prog({{0, DataFormat::Float16_b, {a}}, {1, DataFormat::Float32, {b}}}, DataFormat::Float16_b, 1,
                        R"(
    unary_op_init_common(0, 16);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(1);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(1, 0, 0);)",
                        false);
    ASSERT_TRUE(fmt.err);
    EXPECT_TRUE(contains(fmt.err->what(), "SrcB unpacker is configured for Float16_b")) << fmt.err->what();
}

// ---- unary_bcast -------------------------------------------------------------------------------

TEST(EmuKernelApiMore, UnaryBcastRowColScalarNone) {
    std::mt19937 rng(11);
    const RowMajor x = random_tile(rng);
    const char* dims[] = {"ROW", "COL", "SCALAR", "NONE"};
    for (DataFormat fmt : kFormats)
        for (int d = 0; d < 4; ++d) {
            const std::string D = std::string("BroadcastType::") + dims[d];
            auto r = run_one(fmt, {x}, 2,
                             "    unary_bcast_init<" + D + ">(0, 16);\n    unary_bcast<" + D +
                                 ">(0, 0, 1);\n    unary_bcast<" + D + ">(0, 0, 0);");
            ASSERT_FALSE(r.err) << r.err->what();
            for (int row = 0; row < 32; ++row)
                for (int c = 0; c < 32; ++c) {
                    const float want = d == 0 ? x[c] : d == 1 ? x[row * 32] : d == 2 ? x[0] : x[row * 32 + c];
                    ASSERT_EQ(r.tiles[0][row * 32 + c], want) << fname(fmt) << " " << dims[d] << " " << row << "," << c;
                    ASSERT_EQ(r.tiles[1][row * 32 + c], want) << fname(fmt) << " " << dims[d];
                }
        }
}

TEST(EmuKernelApiMore, UnaryBcastTakesPartInTheChecks) {
    std::mt19937 rng(12);
    const RowMajor x = random_tile(rng);
    auto wrong_dim = run_one(DataFormat::Float16_b, {x}, 1,
                             "    unary_bcast_init<BroadcastType::ROW>(0, 16);\n"
                             "    unary_bcast<BroadcastType::COL>(0, 0, 0);");
    ASSERT_TRUE(wrong_dim.err);
    EXPECT_TRUE(contains(wrong_dim.err->what(), "unary_bcast_init<BroadcastType::COL>")) << wrong_dim.err->what();
    // A broadcast through SrcB keeps Float32 to TF32; NONE is a datacopy to DST: full precision
    // from a CB set to UnpackToDestFp32 (cb 1), TF32 through SrcA from a Default one (cb 0).
    RowMajor fine(1024);
    for (int i = 0; i < 1024; ++i) fine[i] = 1.0f + std::ldexp(float(i % 256 + 1), -23);
    auto r = run_prog({{0, DataFormat::Float32, {fine}}, {1, DataFormat::Float32, {fine}}}, DataFormat::Float32, 3,
                      R"(
    unary_bcast_init<BroadcastType::SCALAR>(0, 16);
    unary_bcast<BroadcastType::SCALAR>(0, 0, 0);
    unary_bcast_init<BroadcastType::NONE>(1, 16);
    unary_bcast<BroadcastType::NONE>(1, 0, 1);
    unary_bcast_init<BroadcastType::NONE>(0, 16);
    unary_bcast<BroadcastType::NONE>(0, 0, 2);)",
                      true, "", {1});
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(r.tiles[0][i], tf32(fine[0])) << i;
        ASSERT_EQ(r.tiles[1][i], fine[i]) << i;
        ASSERT_EQ(r.tiles[2][i], tf32(fine[i])) << i;
    }
}

// ---- ROW broadcasts of another row ----------------------------------------------------------------

TEST(EmuKernelApiMore, RowBroadcastOfRowIdx) {
    std::mt19937 rng(13);
    const RowMajor a = random_tile(rng), b = random_tile(rng);
    for (DataFormat fmt : kFormats)
        for (uint32_t row : {0u, 5u, 17u, 31u}) {
            const std::string R = std::to_string(row);
            auto r = run_one(fmt, {a, b}, 2,
                             "    init_bcast<ELWADD, BroadcastType::ROW>(0, 0, 16);\n"
                             "    add_tiles_bcast_rows(0, 0, 0, 1, 0, " +
                                 R +
                                 ");\n"
                                 "    add_tiles_bcast<BroadcastType::ROW>(0, 0, 0, 1, 1, " +
                                 R + ");");
            ASSERT_FALSE(r.err) << r.err->what();
            for (int i = 0; i < 1024; ++i) {
                const float want = fpu_out(fmt, a[i] + b[row * 32 + i % 32]);
                ASSERT_EQ(r.tiles[0][i], want) << fname(fmt) << " row " << row << " " << i;
                ASSERT_EQ(r.tiles[1][i], want) << fname(fmt) << " row " << row << " " << i;
            }
        }
    auto bad = run_one(DataFormat::Float16_b, {a, b}, 1,
                       "    init_bcast<ELWMUL, BroadcastType::ROW>(0, 0, 16);\n"
                       "    mul_tiles_bcast_rows(0, 0, 0, 1, 0, 32);");
    ASSERT_TRUE(bad.err);
    EXPECT_TRUE(contains(bad.err->what(), "bcast_row_idx > 31")) << bad.err->what();
}


// ---- packer ReLU and L1 accumulation -----------------------------------------------------------
// Goldens: the ReLU stage of the Tensix packer (tt-isa-documentation, WormholeB0 Packers/ReLU.md)
// with the mode tt-llk's _llk_pack_relu_config_ programs for a config word.

namespace {
float relu_min(float x, float t) { return x <= t ? 0.0f : x; }
float relu_max(float x, float t) { return x <= 0.0f ? 0.0f : x > t ? t : x; }
uint32_t relu_word(uint32_t type, uint16_t threshold) { return type | uint32_t(threshold) << 16; }
}  // namespace

TEST(EmuKernelApiMore, PackerZeroReluPacksNonPositivesAsPlusZero) {
    std::mt19937 rng(17);
    RowMajor x = random_tile(rng);
    x[5] = -0.0f;  // x <= 0 packs +0, so −0 too
    for (DataFormat fmt : kFormats) {
        // Page 0 packed with ReLU, page 1 after it is switched off again.
        auto r = run_prog({{0, fmt, {x}}}, fmt, 2, "    copy_tile_init(0);\n    copy_tile(0, 0, 0);",
                          fmt == DataFormat::Float32, R"(
    pack_relu_config(ReluType::ZERO_RELU);
    pack_tile(0, 16);
    pack_relu_config(ReluType::NO_RELU);
    pack_tile(0, 16);)");
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            ASSERT_EQ(bits(r.tiles[0][i]), bits(relu_min(x[i], 0.0f))) << fname(fmt) << " " << i;
            ASSERT_EQ(r.tiles[1][i], x[i]) << fname(fmt) << " " << i;
        }
    }
}

// MIN_THRESHOLD_RELU, MAX_THRESHOLD_RELU and ZERO_RELU with a threshold (which tt-llk programs as
// MIN_THRESHOLD_RELU), threshold 1.5 as BF16 bits; f32 with a 32-bit DST, bf16 with a 16-bit one.
TEST(EmuKernelApiMore, PackerThresholdReluModes) {
    std::mt19937 rng(23);
    const RowMajor x = random_tile(rng);
    const float thr = 1.5f;
    const uint16_t tb = f32_to_bf16(thr);
    for (DataFormat fmt : kFormats) {
        const std::string pack = "    pack_relu_config(" + std::to_string(relu_word(2, tb)) +
            "u);\n    pack_tile(0, 16);\n    pack_relu_config(" + std::to_string(relu_word(3, tb)) +
            "u);\n    pack_tile(0, 16);\n    pack_relu_config(" + std::to_string(relu_word(1, tb)) +
            "u);\n    pack_tile(0, 16);\n    pack_relu_config(ReluType::NO_RELU);";
        auto r = run_prog({{0, fmt, {x}}}, fmt, 3, "    copy_tile_init(0);\n    copy_tile(0, 0, 0);",
                          fmt == DataFormat::Float32, pack);
        ASSERT_FALSE(r.err) << r.err->what();
        int clamped = 0, dropped = 0;
        for (int i = 0; i < 1024; ++i) {
            ASSERT_EQ(r.tiles[0][i], relu_min(x[i], thr)) << fname(fmt) << " MIN " << i << " x " << x[i];
            ASSERT_EQ(r.tiles[1][i], relu_max(x[i], thr)) << fname(fmt) << " MAX " << i << " x " << x[i];
            ASSERT_EQ(r.tiles[2][i], relu_min(x[i], thr)) << fname(fmt) << " ZERO+thr " << i << " x " << x[i];
            clamped += x[i] > thr, dropped += x[i] > 0 && x[i] <= thr;
        }
        EXPECT_GT(clamped, 0);  // the data exercises both sides of the threshold
        EXPECT_GT(dropped, 0);
    }
}

// A 16-bit DST packed into a Float16 CB reads the threshold as FP16 bits (ISA: IntermediateFormat
// FP16): 0x3e00 is 1.5 as FP16 but 0.125 as BF16.
TEST(EmuKernelApiMore, PackerReluThresholdIsFp16ForAFloat16Cb) {
    std::mt19937 rng(29);
    const RowMajor x = random_tile(rng);
    const uint16_t tb = f32_to_f16(1.5f);
    auto r = run_prog({{0, DataFormat::Float16, {x}}}, DataFormat::Float16, 1,
                      "    copy_tile_init(0);\n    copy_tile(0, 0, 0);", false,
                      "    pack_relu_config(" + std::to_string(relu_word(3, tb)) + "u);\n    pack_tile(0, 16);");
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(r.tiles[0][i], relu_max(x[i], 1.5f)) << i << " x " << x[i];
}

TEST(EmuKernelApiMore, PackerReluBadConfigsFault) {
    std::mt19937 rng(31);
    const RowMajor x = random_tile(rng);
    const std::string copy = "    copy_tile_init(0);\n    copy_tile(0, 0, 0);";
    auto bad_type = run_one(DataFormat::Float16_b, {x}, 1, copy + "\n    pack_relu_config(5);");
    ASSERT_TRUE(bad_type.err);
    EXPECT_TRUE(contains(bad_type.err->what(), "ReLU type 5 in bits 3:0 is not a ReluType")) << bad_type.err->what();
    auto negative = run_one(DataFormat::Float16_b, {x}, 1,
                            copy + "\n    pack_relu_config(ReluType::MAX_THRESHOLD_RELU | (0xBF80u << 16));");
    ASSERT_TRUE(negative.err);
    EXPECT_TRUE(contains(negative.err->what(), "threshold 0x0000bf80 (bits 31:16) is negative"))
        << negative.err->what();
    // Integer CBs: tt-llk turns ZERO_RELU into a threshold mode, which the ISA defines for floats.
    auto integer = run_prog({{0, DataFormat::Int32, {x}}}, DataFormat::Int32, 1, copy, true,
                            "    pack_relu_config(ReluType::ZERO_RELU);\n    pack_tile(0, 16);");
    ASSERT_TRUE(integer.err);
    EXPECT_EQ(integer.err->status(), ErrorStatus::Unsupported) << integer.err->what();
    EXPECT_TRUE(contains(integer.err->what(),
                         "Unsupported: pack_tile(0, cb 16): packer ReLU (pack_relu_config) into a Int32 CB"))
        << integer.err->what();
}

TEST(EmuKernelApiMore, PackerL1AccumulationAddsToThePage) {
    std::mt19937 rng(19);
    const RowMajor a = random_tile(rng), b = random_tile(rng);
    for (DataFormat fmt : kFormats) {
        // Page 0 = a, then b accumulated onto it (out_of_order pack to the same page); page 1 = b.
        auto r = run_prog({{0, fmt, {a, b}}}, fmt, 2,
                          "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    copy_tile(0, 1, 1);",
                          fmt == DataFormat::Float32, R"(
    pack_tile<true>(0, 16, 0);
    pack_reconfig_l1_acc(1);
    pack_tile<true>(1, 16, 0);
    pack_reconfig_l1_acc(0);
    pack_tile<true>(1, 16, 1);)");
        ASSERT_FALSE(r.err) << r.err->what();
        for (int i = 0; i < 1024; ++i) {
            const float sum = a[i] + b[i];
            // Float16_b: the fp32 sum packed as pack_tile packs it (nearest, ties away from zero).
            ASSERT_EQ(r.tiles[0][i], fmt == DataFormat::Float32 ? sum : bf16_pack(sum)) << fname(fmt) << " " << i;
            ASSERT_EQ(r.tiles[1][i], b[i]) << fname(fmt) << " " << i;
        }
    }
    auto integer =
        run_prog({{0, DataFormat::Int32, {a}}}, DataFormat::Int32, 1, "    copy_tile_init(0);\n    copy_tile(0, 0, 0);",
                 true, "    pack_reconfig_l1_acc(1);\n    pack_tile(0, 16);");
    ASSERT_TRUE(integer.err);
    EXPECT_EQ(integer.err->status(), ErrorStatus::Unsupported) << integer.err->what();
    EXPECT_TRUE(
        contains(integer.err->what(), "Unsupported: pack_tile(0, cb 16): packer L1 accumulation into a Int32 CB"))
        << integer.err->what();
}

// ReLU comes before the accumulation adder in the packer pipeline: page = page + relu(DST), which
// can be negative (relu(page + DST) could not).
TEST(EmuKernelApiMore, PackerReluThenL1Accumulation) {
    std::mt19937 rng(37);
    const RowMajor a = random_tile(rng), b = random_tile(rng);
    const float thr = 1.5f;
    const uint16_t tb = f32_to_bf16(thr);
    for (DataFormat fmt : kFormats) {
        auto r = run_prog({{0, fmt, {a, b}}}, fmt, 2,
                          "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    copy_tile(0, 1, 1);",
                          fmt == DataFormat::Float32,
                          "    pack_tile<true>(0, 16, 0);\n    pack_tile<true>(0, 16, 1);\n"
                          "    pack_reconfig_l1_acc(1);\n    pack_relu_config(ReluType::ZERO_RELU);\n"
                          "    pack_tile<true>(1, 16, 0);\n    pack_relu_config(" +
                              std::to_string(relu_word(3, tb)) +
                              "u);\n    pack_tile<true>(1, 16, 1);\n    pack_reconfig_l1_acc(0);\n"
                              "    pack_relu_config(ReluType::NO_RELU);");
        ASSERT_FALSE(r.err) << r.err->what();
        int negative = 0;
        for (int i = 0; i < 1024; ++i) {
            const float s0 = a[i] + relu_min(b[i], 0.0f), s1 = a[i] + relu_max(b[i], thr);
            ASSERT_EQ(r.tiles[0][i], fmt == DataFormat::Float32 ? s0 : bf16_pack(s0)) << fname(fmt) << " " << i;
            ASSERT_EQ(r.tiles[1][i], fmt == DataFormat::Float32 ? s1 : bf16_pack(s1)) << fname(fmt) << " " << i;
            negative += r.tiles[0][i] < 0;
        }
        EXPECT_GT(negative, 0);  // tells the two orders apart
    }
}

// ---- fast_tilize (tilize.h) --------------------------------------------------------------------

// fast_tilize_init / _block / _uninit with tt-metal's signatures tilize a row-major block 3 tiles
// wide (32 rows of 96 datums in 3 pages) into 3 face-ordered tiles, as tilize_block does (f32 and
// bf16). The kernel gives up run_prog's DST cycle first: fast_tilize_block acquires DST itself.
TEST(EmuKernelApiMore, FastTilizeTilizesARowMajorBlock) {
    std::mt19937 rng(41);
    const std::vector<RowMajor> want = {random_tile(rng), random_tile(rng), random_tile(rng)};
    std::vector<float> block(3 * 1024);  // row r, column c of the block at r·96 + c
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 96; ++c) block[r * 96 + c] = want[c / 32][r * 32 + c % 32];
    // run_prog writes element i of an input tile at datum face_index(i) of its page; choose the
    // elements so that the pages' datums are the block in row-major order.
    std::vector<RowMajor> pages(3, RowMajor(1024));
    for (uint32_t p = 0; p < 3; ++p)
        for (uint32_t i = 0; i < 1024; ++i) pages[p][i] = block[p * 1024 + face_index(i / 32, i % 32)];
    for (DataFormat fmt : kFormats) {
        auto r = run_prog({{0, fmt, pages}}, fmt, 3,
                          "    tile_regs_commit();\n    tile_regs_wait();\n    tile_regs_release();\n"
                          "    fast_tilize_init(0, 3, 16);\n    fast_tilize_block(0, 3, 16);\n"
                          "    fast_tilize_uninit(0, 16);\n    tile_regs_acquire();",
                          fmt == DataFormat::Float32, "    // packed by fast_tilize_block");
        ASSERT_FALSE(r.err) << r.err->what();
        for (uint32_t t = 0; t < 3; ++t)
            for (int i = 0; i < 1024; ++i)
                ASSERT_EQ(r.tiles[t][i], want[t][i]) << fname(fmt) << " tile " << t << " " << i;
    }
}

// The untilizing packs do not model the packer modes: with one on they fault instead of ignoring it.
TEST(EmuKernelApiMore, UntilizeWithPackerReluIsUnsupported) {
    std::mt19937 rng(43);
    const RowMajor x = random_tile(rng);
    auto r = run_prog({{0, DataFormat::Float16_b, {x}}}, DataFormat::Float16_b, 1,
                      "    tile_regs_commit();\n    tile_regs_wait();\n    tile_regs_release();\n"
                      "    pack_relu_config(ReluType::ZERO_RELU);\n    untilize_init(0);\n"
                      "    untilize_block(0, 1, 16);\n    tile_regs_acquire();",
                      false, "    // packed by untilize_block");
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "with packer ReLU (pack_relu_config) on")) << r.err->what();
}
