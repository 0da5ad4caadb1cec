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

std::vector<uint8_t> to_l1(DataFormat fmt, const std::vector<RowMajor>& tiles) { return tiles_to_bytes(fmt, tiles); }

// One core: every input CB is read in full and waited for; `body` runs between tile_regs_acquire
// and tile_regs_commit; DST tiles 0 … n_out − 1 are packed into cb 16 (format `out_fmt`). DST is
// 32-bit when `fp32_dest`, full sync.
Result run_prog(const std::vector<InCb>& ins, DataFormat out_fmt, uint32_t n_out, const std::string& body,
                bool fp32_dest, const std::string& pack_body = "") {
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
    res.tiles = bytes_to_tiles(out_fmt, ob);
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
    auto r = run_one(DataFormat::Float32, {a, b}, 2, R"(
    copy_tile_init(0);
    copy_tile(0, 0, 0);
    binary_dest_reuse_tiles_init<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0);
    binary_dest_reuse_tiles<ELWADD, EltwiseBinaryReuseDestType::DEST_TO_SRCA>(0, 1, 0);
    copy_tile_init(0);
    copy_tile(0, 0, 1);)");
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
    // A broadcast through SrcB keeps Float32 to TF32; NONE copies to DST at full precision.
    RowMajor fine(1024);
    for (int i = 0; i < 1024; ++i) fine[i] = 1.0f + std::ldexp(float(i % 256 + 1), -23);
    auto r = run_one(DataFormat::Float32, {fine}, 2, R"(
    unary_bcast_init<BroadcastType::SCALAR>(0, 16);
    unary_bcast<BroadcastType::SCALAR>(0, 0, 0);
    unary_bcast_init<BroadcastType::NONE>(0, 16);
    unary_bcast<BroadcastType::NONE>(0, 0, 1);)");
    ASSERT_FALSE(r.err) << r.err->what();
    for (int i = 0; i < 1024; ++i) {
        ASSERT_EQ(r.tiles[0][i], tf32(fine[0])) << i;
        ASSERT_EQ(r.tiles[1][i], fine[i]) << i;
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

TEST(EmuKernelApiMore, PackerZeroReluPacksNegativesAsZero) {
    std::mt19937 rng(17);
    const RowMajor x = random_tile(rng);
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
            ASSERT_EQ(r.tiles[0][i], x[i] < 0 ? 0.0f : x[i]) << fname(fmt) << " " << i;
            ASSERT_EQ(r.tiles[1][i], x[i]) << fname(fmt) << " " << i;
        }
    }
    auto thr = run_one(DataFormat::Float16_b, {x}, 1,
                       "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n"
                       "    pack_relu_config(ReluType::MAX_THRESHOLD_RELU | (0x3F80u << 16));");
    ASSERT_TRUE(thr.err);
    EXPECT_EQ(thr.err->status(), ErrorStatus::Unsupported) << thr.err->what();
    EXPECT_TRUE(contains(thr.err->what(), "Unsupported: pack_relu_config")) << thr.err->what();
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
    auto both = run_one(DataFormat::Float16_b, {a}, 1,
                        "    copy_tile_init(0);\n    copy_tile(0, 0, 0);\n    tile_regs_commit();\n"
                        "    tile_regs_wait();\n    pack_relu_config(ReluType::ZERO_RELU);\n"
                        "    pack_reconfig_l1_acc(1);\n    pack_tile(0, 16);\n    tile_regs_release();\n"
                        "    tile_regs_acquire();\n    copy_tile(0, 0, 0);");
    ASSERT_TRUE(both.err);
    EXPECT_TRUE(contains(both.err->what(), "Unsupported: pack_tile(0, cb 16) with packer ReLU and L1 accumulation"))
        << both.err->what();
}
