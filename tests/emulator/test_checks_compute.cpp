// Checks of the compute engine (emulator/README.md, "Checks"): a compute op used without its init
// or after another op's init reconfigured the unpacker and FPU; a CB in another data format than
// the unpacker or packer is configured for; a DST tile read that nothing wrote. Each test
// provokes one error and asserts kernel, core, processor and object; the passing variants show
// the model does not fire on correct kernels.
#include <cstring>

#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

// A reader that pushes one tile into each of CBs 0, 1 (bf16 1.5 and 2.0) and 2 (Float32 1.0).
KernelSpec feeder() {
    return dm0("feed", R"(
void kernel_main() {
    for (uint32_t c = 0; c < 3; ++c) {
        cb_reserve_back(c, 1);
        uint16_t* p = reinterpret_cast<uint16_t*>(get_write_ptr(c));
        if (c == 2)
            for (uint32_t i = 0; i < 1024; ++i) reinterpret_cast<uint32_t*>(p)[i] = 0x3f800000u;
        else
            for (uint32_t i = 0; i < 1024; ++i) p[i] = c == 0 ? 0x3fc0 : 0x4000;
        cb_push_back(c, 1);
    }
})",
               one_core());
}

// Copies the first 64 B of the page in CB `out_cb` into the DRAM buffer at arg 0.
KernelSpec drain(uint32_t out_cb) {
    return dm1("drain", R"(
void kernel_main() {
    constexpr uint32_t cb = get_compile_time_arg_val(0);
    cb_wait_front(cb, 1);
    noc_async_write(get_read_ptr(cb), get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 4096}), 64);
    noc_async_write_barrier();
    cb_pop_front(cb, 1);
})",
               one_core(), {out_cb});
}

struct EmuChecksCompute : ::testing::Test {
    Device dev{preset("wormhole-n150")};

    // Runs feed → `body` (a compute kernel named "k") → drain of CB `out_cb`; CBs 0, 1, 16 are
    // bf16, 2 and 17 Float32. Returns the error, or nullopt and the first datum of the output.
    std::optional<Error> go(const std::string& body, float* out = nullptr, uint32_t out_cb = 16) {
        ProgramSpec s;
        s.cbs = {cb(0, 1, one_core()), cb(1, 1, one_core()), cb(2, 1, one_core(), DataFormat::Float32),
                 cb(16, 1, one_core()), cb(17, 1, one_core(), DataFormat::Float32)};
        s.kernels = {feeder(), drain(out_cb), compute("k", "void kernel_main() {\n" + body + "\n}", one_core())};
        auto buf = dev.buffer_create(4096, 4096);
        auto p = dev.program_create(s);
        dev.program_set_runtime_args(p, 1, {0, 0}, {buf.address});
        auto err = run(dev, p);
        if (!err && out) {
            uint32_t w = 0;
            dev.buffer_read(buf.id, &w, 4);
            if (out_cb == 17)
                std::memcpy(out, &w, 4);
            else
                *out = bf16_to_f32(uint16_t(w));
        }
        dev.program_free(p);
        dev.buffer_free(buf.id);
        return err;
    }
};

// The body of a kernel: `inits`, then `op` into DST 0 (CBs 0, 1, 2 waited for), packed to `out`.
std::string with(const std::string& inits, const std::string& op, uint32_t out = 16) {
    const std::string o = std::to_string(out);
    return "    cb_wait_front(0, 1); cb_wait_front(1, 1); cb_wait_front(2, 1);\n" + inits +
        "\n    tile_regs_acquire();\n    " + op + "\n    tile_regs_commit();\n    tile_regs_wait(); cb_reserve_back(" +
        o + ", 1); pack_tile(0, " + o + "); cb_push_back(" + o + ", 1); tile_regs_release();\n" +
        "    cb_pop_front(0, 1); cb_pop_front(1, 1); cb_pop_front(2, 1);";
}

}  // namespace

TEST_F(EmuChecksCompute, OpAfterAnotherOpsInit) {
    auto e = go(with("binary_op_init_common(0, 1, 16); mul_tiles_init(0, 1);", "add_tiles(0, 1, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(
        *e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "add_tiles(cb 0, cb 1)"},
        {"missing init", "configured the unpacker and FPU for mul_tiles (mul_tiles_init", "call add_tiles_init"});
}

TEST_F(EmuChecksCompute, MatmulAfterEltwiseInit) {
    auto e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 1);", "matmul_tiles(0, 1, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "matmul_tiles(cb 0, cb 1)"},
                 {"for add_tiles (add_tiles_init", "call mm_init"});
}

TEST_F(EmuChecksCompute, CommonInitAloneConfiguresNoOp) {
    auto e = go(with("binary_op_init_common(0, 1, 16);", "add_tiles(0, 1, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "add_tiles(cb 0, cb 1)"},
                 {"no init has configured"});
    e = go(with("compute_kernel_hw_startup(0, 1, 16);", "copy_tile(0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "copy_tile(cb 0)"},
                 {"no init has configured", "call copy_tile_init"});
}

TEST_F(EmuChecksCompute, BroadcastAndReduceVariantsMustMatchTheirInit) {
    auto e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 1);", "add_tiles_bcast_rows(0, 1, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "add_tiles_bcast_rows(cb 0, cb 1)"},
                 {"for add_tiles (", "call add_bcast_rows_init"});
    e = go(with("compute_kernel_hw_startup(0, 1, 16); reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>(0, 1, 16);",
                "reduce_tile<PoolType::MAX, ReduceDim::REDUCE_ROW>(0, 1, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault,
                 {"k", "(0,0)", "TRISC1 (MATH)", "reduce_tile<MAX, REDUCE_ROW>(cb 0, cb 1)"},
                 {"for reduce_tile<SUM, REDUCE_ROW> (reduce_init<SUM, REDUCE_ROW>)"});
}

TEST_F(EmuChecksCompute, CorrectInitsPassAndSfpuInitsKeepTheFpuConfiguration) {
    float v = 0;
    // SFPU inits between the op's init and the op do not reconfigure the FPU (tt-metal's SFPU
    // kernels call copy_tile after exp_tile_init in their loop).
    auto e = go(with("binary_op_init_common(0, 1, 16); mul_tiles_init(0, 1); exp_tile_init(); fill_tile_init();",
                     "mul_tiles(0, 1, 0, 0, 0);"),
                &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 3.0f);
    e = go(with("init_sfpu(0, 16);", "copy_tile(1, 0, 0);"), &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 2.0f);
    e = go(with("mm_init(0, 1, 16); add_tiles_init(0, 1); mm_init_short(0, 1);", "matmul_tiles(0, 1, 0, 0, 0);"), &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 96.0f);  // 32 · 1.5 · 2
}

TEST_F(EmuChecksCompute, UnpackFormatMustMatchTheConfiguredOne) {
    auto e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 2);", "add_tiles(0, 2, 0, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC0 (UNPACK)", "add_tiles(cb 0, cb 2)"},
                 {"cb 2 holds Float32 tiles but the SrcB unpacker is configured for Float16_b (cb 1",
                  "missing reconfig_data_format_srcb(2)"});
    // copy_tile reads SrcA: a Float32 CB after unary_op_init_common of a bf16 one.
    e = go(with("unary_op_init_common(0, 16); copy_tile_init(2);", "copy_tile(2, 0, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC0 (UNPACK)", "copy_tile(cb 2)"},
                 {"SrcA unpacker is configured for Float16_b (cb 0", "missing reconfig_data_format_srca(2)"});
    // With the reconfiguration it runs: 1.5 + 1.0.
    float v = 0;
    e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 2); reconfig_data_format_srcb(2);",
                "add_tiles(0, 2, 0, 0, 0);"),
           &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 2.5f);
    e = go(with("unary_op_init_common(0, 16); copy_tile_to_dst_init_short_with_dt(0, 2);", "copy_tile(2, 0, 0);"), &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 1.0f);
}

TEST_F(EmuChecksCompute, PackFormatMustMatchTheConfiguredOne) {
    auto e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 1);", "add_tiles(0, 1, 0, 0, 0);", 17),
                nullptr, 17);
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC2 (PACK)", "pack_tile(0, cb 17)"},
                 {"cb 17 holds Float32 tiles but the packer is configured for Float16_b (cb 16",
                  "missing pack_reconfig_data_format(17)"});
    float v = 0;
    e = go(with("binary_op_init_common(0, 1, 16); add_tiles_init(0, 1); pack_reconfig_data_format(17);",
                "add_tiles(0, 1, 0, 0, 0);", 17),
           &v, 17);
    ASSERT_FALSE(e) << e->what();
    EXPECT_EQ(v, 3.5f);
}

TEST_F(EmuChecksCompute, ReadOfDstNothingWrote) {
    auto e = go(with("init_sfpu(0, 16); exp_tile_init();", "copy_tile(0, 0, 0); exp_tile(1);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "reads DST index 1"},
                 {"SFPU unary op", "nothing wrote since tile_regs_acquire (DST section 0; written: 0)"});
    e = go(with("init_sfpu(0, 16); add_binary_tile_init();", "copy_tile(0, 0, 0); add_binary_tile(0, 2, 0);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC1 (MATH)", "reads DST index 2"},
                 {"SFPU binary op"});
    // pack_tile(0) of a section in which MATH wrote only tile 1.
    e = go(with("init_sfpu(0, 16);", "copy_tile(0, 0, 1);"));
    ASSERT_TRUE(e);
    expect_check(*e, ErrorStatus::KernelFault, {"k", "(0,0)", "TRISC2 (PACK)", "pack_tile(0, cb 16)"},
                 {"reads DST index 0", "written: 1)"});
    // Written first, then read: fine (exp(1.5) in bf16).
    float v = 0;
    e = go(with("init_sfpu(0, 16); exp_tile_init();", "copy_tile(0, 0, 0); exp_tile(0);"), &v);
    ASSERT_FALSE(e) << e->what();
    EXPECT_NEAR(v, 4.48f, 0.05f);
}
