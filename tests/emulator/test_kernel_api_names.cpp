// Kernel API names of tt-metal's programming examples (issue 10, item 5): each test runs a kernel
// using the name on the emulator and checks what it printed or computed.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/log.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

// Runs one launch of `s` with ZYX_DEBUG=emu and returns what it logged (stderr); *err gets the
// launch's error. `args` sets runtime args after program_create.
std::string run_logged(ProgramSpec s, std::optional<Error>* err = nullptr,
                       const std::function<void(Device&, ProgramId)>& args = {}) {
    setenv("ZYX_DEBUG", "emu", 1);
    log_reload_from_env();
    char tmpl[] = "/tmp/zyx_names_XXXXXX";
    int fd = mkstemp(tmpl);
    EXPECT_GE(fd, 0);
    int saved = dup(2);
    dup2(fd, 2);
    std::optional<Error> e;
    try {
        Device dev(preset("wormhole-n150"));
        auto p = dev.program_create(s);
        if (args) args(dev, p);
        e = run(dev, p);
    } catch (const Error& x) { e = x; }
    dup2(saved, 2);
    close(saved);
    unsetenv("ZYX_DEBUG");
    log_reload_from_env();
    std::ifstream in(tmpl);
    std::stringstream ss;
    ss << in.rdbuf();
    close(fd);
    unlink(tmpl);
    if (err)
        *err = e;
    else
        EXPECT_FALSE(e) << e->what();
    return ss.str();
}

ProgramSpec one_kernel(const std::string& src, std::vector<uint32_t> ct = {}) {
    ProgramSpec s;
    s.kernels = {dm1("talker", src, one_core(1, 2), std::move(ct))};
    return s;
}

const std::string kLine = "zyx:emu: core (1,2) NCRISC: ";

}  // namespace

// ---- DPRINT, the stream form (tt-metal api/debug/dprint.h) -----------------------------------------

TEST(EmuKernelApiNames, DprintValueHelpersPrintTheirValue) {
    // U32 prints the unsigned value, F32 the float, BF16 the bfloat16 bits as a float
    // (0x3dfb = 0.12255859375, six significant digits as tt-metal's doc shows: 0.122559).
    std::string log = run_logged(one_kernel(R"(
void kernel_main() {
    DPRINT << "u=" << U32(4000000000u) << " f=" << F32(1.5f) << " b=" << BF16(0x3dfb) << ENDL();
    DPRINT << "h=" << HEX() << 255u << " o=" << OCT() << 8u << " d=" << DEC() << 8u << ENDL();
    DPRINT << "p=" << reinterpret_cast<uint32_t*>(uintptr_t(0x1230)) << ENDL();
})"));
    EXPECT_TRUE(contains(log, kLine + "u=4000000000 f=1.5 b=0.122559\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "h=ff o=10 d=8\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "p=4656\n")) << log;  // a pointer prints as its address, not as a bool
}

TEST(EmuKernelApiNames, DprintTextEndedByNewlinePrintsALine) {
    // tt-metal's print server ends a line at "\n" in the text as at ENDL(); text after the last
    // newline stays on the line being built.
    std::string log = run_logged(one_kernel(R"(
void kernel_main() {
    DPRINT << "first\nsecond " << 7 << "\n";
    DPRINT << "third" << ", fourth" << ENDL();
})"));
    EXPECT_TRUE(contains(log, kLine + "first\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "second 7\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "third, fourth\n")) << log;
}

TEST(EmuKernelApiNames, DprintTileSlicePrintsTheSampledElements) {
    // cb 0 (Float32) holds (r, c) = 100 r + c, cb 1 (Float16_b) holds 10 (r / 8) + c / 8, both
    // written in L1 face order by NCRISC; BRISC prints cb 0 from its read pointer, UNPACK cb 1.
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(1, 2), DataFormat::Float32), cb(1, 1, one_core(1, 2)),
             cb(2, 1, one_core(1, 2), DataFormat::Float16)};
    s.kernels = {dm1("talker", R"(
uint32_t at(uint32_t r, uint32_t c) { return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16; }
void kernel_main() {
    cb_reserve_back(0, 1); cb_reserve_back(1, 1); cb_reserve_back(2, 1);
    float* f = reinterpret_cast<float*>(get_write_ptr(0));
    uint16_t* b = reinterpret_cast<uint16_t*>(get_write_ptr(1));
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 32; ++c) {
            f[at(r, c)] = float(r * 100 + c);
            b[at(r, c)] = uint16_t(__builtin_bit_cast(uint32_t, float(r / 8 * 10 + c / 8)) >> 16);
        }
    DPRINT << "A " << TSLICE(0, 0, SliceRange::hw0_32_16(), TSLICE_OUTPUT_CB);      // NCRISC: write pointer
    DPRINT << "B " << TileSlice(0, 0, SliceRange{0, 1, 1, 15, 18, 1}, TSLICE_OUTPUT_CB, TSLICE_WR_PTR, true, true);
    DPRINT << "C " << TileSlice(0, 0, SliceRange{0, 1, 1, 15, 18, 1}, TSLICE_OUTPUT_CB, TSLICE_WR_PTR, true, false);
    DPRINT << "D " << TSLICE(0, 0, SliceRange::h0_w0_32(), TSLICE_OUTPUT_CB);       // 32 floats > 64 bytes
    DPRINT << TSLICE(2, 0, SliceRange::hw041(), TSLICE_OUTPUT_CB);
    DPRINT << TSLICE(0, 3, SliceRange::hw041(), TSLICE_OUTPUT_CB);
    cb_push_back(0, 1); cb_push_back(1, 1); cb_push_back(2, 1);
})",
                     one_core(1, 2)),
                 dm0("reader", R"(
void kernel_main() {
    cb_wait_front(0, 1); cb_wait_front(2, 1);
    DPRINT << "E " << TSLICE(0, 0, SliceRange::hw041(), TSLICE_INPUT_CB);          // BRISC: read pointer
    cb_pop_front(0, 1); cb_pop_front(2, 1);
})",
                     one_core(1, 2)),
                 compute("c", R"(
void kernel_main() {
    cb_wait_front(1, 1);
    DPRINT_UNPACK(DPRINT << "F " << TSLICE(1, 0, SliceRange::hw0_32_8()));
    DPRINT_MATH(DPRINT << TSLICE(1, 0, SliceRange::hw0_32_8()));
    cb_pop_front(1, 1);
})",
                         one_core(1, 2))};
    std::string log = run_logged(s);
    EXPECT_TRUE(contains(log, kLine + "A 0 16\n" + kLine + "1600 1616\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "B 15 16 17\n")) << log;    // row 0, columns 15-17
    EXPECT_TRUE(contains(log, kLine + "C 15 100 101\n")) << log;  // L1 order: face 0 row 1 follows
    EXPECT_TRUE(contains(log,
                         kLine +
                             "D 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 "
                             "<TileSlice data truncated due to exceeding max count (16)>\n"))
        << log;
    EXPECT_TRUE(contains(log, kLine + "Tried printing cb 2: Unsupported data format (Float16)\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "Tried printing cb 0: BAD TILE POINTER")) << log;
    const std::string br = "zyx:emu: core (1,2) BRISC: ";
    EXPECT_TRUE(contains(
        log, br + "E 0 1 2 3\n" + br + "100 101 102 103\n" + br + "200 201 202 203\n" + br + "300 301 302 303\n"))
        << log;
    const std::string up = "zyx:emu: core (1,2) TRISC0 (UNPACK): ";
    EXPECT_TRUE(contains(log, up + "F 0 1 2 3\n" + up + "10 11 12 13\n" + up + "20 21 22 23\n" + up + "30 31 32 33\n"))
        << log;
    EXPECT_TRUE(
        contains(log, "TRISC1 (MATH): Warning: MATH core does not support TileSlice printing, omitting print...\n"))
        << log;
}

// ---- DPRINT(fmt, …) / DEVICE_PRINT (tt-metal api/debug/device_print.h) ----------------------------

TEST(EmuKernelApiNames, DevicePrintFormatsLikeFmt) {
    std::string log = run_logged(one_kernel(R"(
#include "api/debug/device_print.h"
void kernel_main() {
    DPRINT("x={} y={:.3f} h={:#x} H={:X} b={:b} w=[{:>5}] l=[{:<4}] c=[{:^7}] {{}} s={} t={} bf={}\n",
           42, 1.23456f, 255u, 255, 5, 7, 'a', "mid", "str", true, bf16_t(0x3fc0));
    DEVICE_PRINT("{1} before {0}\n", 1, 2);
    DEVICE_PRINT("{} {} {} {} {}\n", 0.1f, 1e20f, 100000.0f, -2.0, 0.00001);
    DEVICE_PRINT("[{:08.2f}] [{:+d}] [{:*>6}] [{:.2s}] [{:e}]\n", -3.14159, 5, -12, "abc", 1500.0);
    DEVICE_PRINT("{}|{:>4}\n", CTSTR("ct"), CTSTR("s"));
    DEVICE_PRINT("no args, no newline yet ");
    DEVICE_PRINT("done\n");
})"));
    EXPECT_TRUE(
        contains(log, kLine + "x=42 y=1.235 h=0xff H=FF b=101 w=[    7] l=[a   ] c=[  mid  ] {} s=str t=true bf=1.5\n"))
        << log;
    EXPECT_TRUE(contains(log, kLine + "2 before 1\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "0.1 1e+20 100000 -2 1e-05\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "[-0003.14] [+5] [***-12] [ab] [1.500000e+03]\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "ct|   s\n")) << log;
    EXPECT_TRUE(contains(log, kLine + "no args, no newline yet done\n")) << log;
}

TEST(EmuKernelApiNames, DevicePrintRoleMacrosPrintOnTheirProcessorOnly) {
    ProgramSpec s;
    s.kernels = {compute("c", R"(
void kernel_main() {
    DEVICE_PRINT_MATH("math {}\n", 1);
    DEVICE_PRINT_PACK("pack {}\n", 2);
    DPRINT_UNPACK(DPRINT << "unpack " << 3 << ENDL());
})",
                         one_core(1, 2))};
    std::string log = run_logged(s);
    EXPECT_TRUE(contains(log, "core (1,2) TRISC1 (MATH): math 1\n")) << log;
    EXPECT_TRUE(contains(log, "core (1,2) TRISC2 (PACK): pack 2\n")) << log;
    EXPECT_TRUE(contains(log, "core (1,2) TRISC0 (UNPACK): unpack 3\n")) << log;
    EXPECT_FALSE(contains(log, "TRISC0 (UNPACK): math")) << log;
    EXPECT_FALSE(contains(log, "TRISC1 (MATH): pack")) << log;
}

TEST(EmuKernelApiNames, DevicePrintChecksPlaceholdersAtCompileTime) {
    Device dev(preset("wormhole-n150"));
    auto e =
        catch_error([&] { dev.program_create(one_kernel(R"(void kernel_main() { DPRINT("{} and {}\n", 1); })")); });
    EXPECT_TRUE(contains(e.what(), "Number of {} placeholders must match number of arguments")) << e.what();
    auto e2 =
        catch_error([&] { dev.program_create(one_kernel(R"(void kernel_main() { DPRINT("{0} {}\n", 1, 2); })")); });
    EXPECT_TRUE(contains(e2.what(), "Cannot mix indexed")) << e2.what();
}

TEST(EmuKernelApiNames, DevicePrintSpecTheTypeDoesNotTakeFaults) {
    std::optional<Error> err;
    run_logged(one_kernel(R"(void kernel_main() { DPRINT("{:x}\n", 1.5f); })"), &err);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->status(), ErrorStatus::KernelFault);
    EXPECT_TRUE(contains(err->what(), "kernel 'talker' on core (1,2) NCRISC")) << err->what();
    EXPECT_TRUE(contains(err->what(), "DEVICE_PRINT(\"{:x}\n\"): format type 'x' for a float argument")) << err->what();
}

// ---- hostdevcommon (tt-metal tt_metal/hostdevcommon/api/hostdevcommon/) ---------------------------

TEST(EmuKernelApiNames, HostdevcommonValuesAndKernelStructs) {
    std::string log = run_logged(one_kernel(R"(
#include "hostdevcommon/common_values.hpp"
#include "hostdevcommon/kernel_structs.h"
void kernel_main() {
    DPRINT("{} {} {} {} {} {} {}\n", VALID, INVALID, tt::CBIndex::c_16, tt::CB::dataflow3, tt::CB::c_intermed1,
           tt::HlkOperand::out0, tt::NUM_MAX_OUT_BUFFERS_PER_CORE);
})"));
    EXPECT_TRUE(contains(log, kLine + "1 0 16 11 25 16 8\n")) << log;
}

// ---- compile-time args (tt-metal api/compile_time_args.h) ------------------------------------------

TEST(EmuKernelApiNames, KernelCompileTimeArgsArrayIsConstexpr) {
    std::string log = run_logged(one_kernel(R"(
void kernel_main() {
    constexpr uint32_t sum = kernel_compile_time_args[0] + kernel_compile_time_args[2];
    static_assert(kernel_compile_time_args.size() == 3);
    DPRINT("{} {} {}\n", kernel_compile_time_args.size(), kernel_compile_time_args[1], sum);
})",
                                            {3, 5, 7}));
    EXPECT_TRUE(contains(log, kLine + "3 5 10\n")) << log;
}

TEST(EmuKernelApiNames, NamedCompileTimeArgsFromTheArgMap) {
    // The map comes in as tt-metal's JIT passes it, {"name",value},… (here through the kernel's
    // defines: the emulator's KernelSpec has no field for named args yet).
    ProgramSpec s = one_kernel(R"(
void kernel_main() {
    constexpr uint32_t tiles = get_named_compile_time_arg_val("num_tiles");
    static_assert(tiles == 64);
    DPRINT("{} {}\n", tiles, get_named_compile_time_arg_val("cb_in"));
})");
    s.kernels[0].defines["KERNEL_COMPILE_TIME_ARG_MAP"] = R"({"num_tiles",64},{"cb_in",3})";
    std::string log = run_logged(s);
    EXPECT_TRUE(contains(log, kLine + "64 3\n")) << log;
    // An unknown name does not compile.
    s.kernels[0].source = R"(void kernel_main() { DPRINT("{}\n", get_named_compile_time_arg_val("missing")); })";
    Device dev(preset("wormhole-n150"));
    auto e = catch_error([&] { dev.program_create(s); });
    EXPECT_TRUE(contains(e.what(), "zyx_emu_named_compile_time_arg_not_found")) << e.what();
}

// ---- paired inits and matmul_tile (tt-metal api/compute/{tile_move_copy,eltwise_binary,matmul}.h) --

TEST(EmuKernelApiNames, PairedInitsAndMatmulTileCompute) {
    // One tile each of A and B (exact in bf16, every result too); six output tiles: copy_init +
    // copy_tile, add_init, sub_init, mul_init, matmul_init + matmul_tile, binary_tiles_init<true, op>.
    Device dev(preset("wormhole-n150"));
    auto A = dev.buffer_create(2048, 2048), B = dev.buffer_create(2048, 2048), C = dev.buffer_create(6 * 2048, 2048);
    std::vector<float> a(1024), b(1024);
    for (size_t i = 0; i < 1024; ++i) a[i] = float(int(i * 7 % 5) - 2) / 4, b[i] = float(int(i * 3 % 7) - 3) / 8;
    auto ab = to_bf16(a), bb = to_bf16(b);
    dev.buffer_write(A.id, ab.data(), 2048);
    dev.buffer_write(B.id, bb.data(), 2048);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core()), cb(1, 1, one_core()), cb(16, 6, one_core())};
    s.kernels = {dm1("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> a{get_arg_val<uint32_t>(0), 2048}, b{get_arg_val<uint32_t>(1), 2048};
    cb_reserve_back(0, 1); cb_reserve_back(1, 1);
    noc_async_read_page(0, a, get_write_ptr(0));
    noc_async_read_page(0, b, get_write_ptr(1));
    noc_async_read_barrier();
    cb_push_back(0, 1); cb_push_back(1, 1);
})",
                     one_core()),
                 dm0("writer", R"(
void kernel_main() {
    InterleavedAddrGen<true> c{get_arg_val<uint32_t>(0), 2048};
    cb_wait_front(16, 6);
    for (uint32_t i = 0; i < 6; ++i) noc_async_write_page(i, c, get_read_ptr(16) + i * 2048);
    noc_async_write_barrier();
    cb_pop_front(16, 6);
})",
                     one_core()),
                 compute("ops", R"(
void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);
    cb_wait_front(0, 1); cb_wait_front(1, 1);
    cb_reserve_back(16, 6);
    tile_regs_acquire();
    copy_init(0); copy_tile(0, 0, 0);
    add_init(0, 1); add_tiles(0, 1, 0, 0, 1);
    sub_init(0, 1); sub_tiles(0, 1, 0, 0, 2);
    mul_init(0, 1); mul_tiles(0, 1, 0, 0, 3);
    matmul_init(0, 1); matmul_tile(0, 1, 0, 0, 4);
    binary_tiles_init<true, ELWSUB>(1, 0); sub_tiles(1, 0, 0, 0, 5);
    tile_regs_commit();
    tile_regs_wait();
    for (uint32_t i = 0; i < 6; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 6);
    cb_pop_front(0, 1); cb_pop_front(1, 1);
})",
                         one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {A.address, B.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {C.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint16_t> o(6 * 1024);
    dev.buffer_read(C.id, o.data(), o.size() * 2);
    auto r = from_bf16(o);
    // Tiles are stored face by face: (row, col) → datum index.
    auto idx = [](int row, int col) { return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16; };
    for (int row = 0; row < 32; ++row)
        for (int col = 0; col < 32; ++col) {
            int i = idx(row, col);
            double mm = 0;
            for (int k = 0; k < 32; ++k) mm += double(a[idx(row, k)]) * double(b[idx(k, col)]);
            ASSERT_EQ(r[i], a[i]) << row << "," << col;
            ASSERT_EQ(r[1024 + i], a[i] + b[i]) << row << "," << col;
            ASSERT_EQ(r[2048 + i], a[i] - b[i]) << row << "," << col;
            ASSERT_EQ(r[3072 + i], a[i] * b[i]) << row << "," << col;
            ASSERT_EQ(double(r[4096 + i]), mm) << row << "," << col;
            ASSERT_EQ(r[5120 + i], b[i] - a[i]) << row << "," << col;
        }
}

TEST(EmuKernelApiNames, PairedBroadcastInits) {
    // bcast_init<op, dim> and the {add,sub,mul}_bcast_{rows,cols,scalar}_init names of tt-metal's
    // api/compute/bcast.h: ROW repeats B's row 0, COL B's column 0, SCALAR B[0][0].
    Device dev(preset("wormhole-n150"));
    auto A = dev.buffer_create(2048, 2048), B = dev.buffer_create(2048, 2048), C = dev.buffer_create(4 * 2048, 2048);
    std::vector<float> a(1024), b(1024);
    for (size_t i = 0; i < 1024; ++i) a[i] = float(int(i * 7 % 9) - 4) / 4, b[i] = float(int(i * 5 % 11) - 5) / 8;
    auto ab = to_bf16(a), bb = to_bf16(b);
    dev.buffer_write(A.id, ab.data(), 2048);
    dev.buffer_write(B.id, bb.data(), 2048);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core()), cb(1, 1, one_core()), cb(16, 4, one_core())};
    s.kernels = {dm1("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> a{get_arg_val<uint32_t>(0), 2048}, b{get_arg_val<uint32_t>(1), 2048};
    cb_reserve_back(0, 1); cb_reserve_back(1, 1);
    noc_async_read_page(0, a, get_write_ptr(0));
    noc_async_read_page(0, b, get_write_ptr(1));
    noc_async_read_barrier();
    cb_push_back(0, 1); cb_push_back(1, 1);
})",
                     one_core()),
                 dm0("writer", R"(
void kernel_main() {
    InterleavedAddrGen<true> c{get_arg_val<uint32_t>(0), 2048};
    cb_wait_front(16, 4);
    for (uint32_t i = 0; i < 4; ++i) noc_async_write_page(i, c, get_read_ptr(16) + i * 2048);
    noc_async_write_barrier();
    cb_pop_front(16, 4);
})",
                     one_core()),
                 compute("bc", R"(
void kernel_main() {
    compute_kernel_hw_startup(0, 1, 16);
    cb_wait_front(0, 1); cb_wait_front(1, 1);
    cb_reserve_back(16, 4);
    tile_regs_acquire();
    add_bcast_rows_init(0, 1); add_tiles_bcast_rows(0, 1, 0, 0, 0);
    bcast_init<ELWMUL, BroadcastType::COL>(0, 1); mul_tiles_bcast_cols(0, 1, 0, 0, 1);
    sub_bcast_scalar_init(0, 1); sub_tiles_bcast_scalar(0, 1, 0, 0, 2);
    mul_bcast_rows_init(0, 1); mul_tiles_bcast_rows(0, 1, 0, 0, 3);
    tile_regs_commit();
    tile_regs_wait();
    for (uint32_t i = 0; i < 4; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 4);
    cb_pop_front(0, 1); cb_pop_front(1, 1);
})",
                         one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {A.address, B.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {C.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint16_t> o(4 * 1024);
    dev.buffer_read(C.id, o.data(), o.size() * 2);
    auto r = from_bf16(o);
    auto idx = [](int row, int col) { return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16; };
    for (int row = 0; row < 32; ++row)
        for (int col = 0; col < 32; ++col) {
            int i = idx(row, col);
            ASSERT_EQ(r[i], a[i] + b[idx(0, col)]) << row << "," << col;
            ASSERT_EQ(r[1024 + i], a[i] * b[idx(row, 0)]) << row << "," << col;
            ASSERT_EQ(r[2048 + i], a[i] - b[0]) << row << "," << col;
            ASSERT_EQ(r[3072 + i], a[i] * b[idx(0, col)]) << row << "," << col;
        }
}

// ---- the trace keeps the waits a deadlock left open --------------------------------------------

TEST(EmuKernelApiNames, TraceMarksWaitsOpenAtDeadlockUnfinished) {
    std::string path = ::testing::TempDir() + "/emu_trace_unfinished.json";
    DeviceOptions o;
    o.trace_path = path;
    Device dev(preset("wormhole-n150"), o);
    ProgramSpec s;
    s.cbs = {cb(16, 1, one_core())};
    s.kernels = {dm0("consumer", R"(void kernel_main() { cb_wait_front(16, 1); cb_pop_front(16, 1); })", one_core()),
                 dm1("producer", R"(void kernel_main() {})", one_core())};
    auto p = dev.program_create(s);
    auto err = run(dev, p);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->status(), ErrorStatus::Deadlock);
    std::ifstream in(path);
    ASSERT_TRUE(in.good());
    auto j = nlohmann::json::parse(in);
    int unfinished = 0;
    for (const auto& e : j.at("traceEvents")) {
        if (e.at("ph") != "X" || !e.contains("args")) continue;
        ++unfinished;
        EXPECT_EQ(e.at("name"), "cb_wait_front cb 16 (unfinished)");
        EXPECT_EQ(e.at("tid"), 0);  // BRISC
        EXPECT_TRUE(e.at("args").at("unfinished").get<bool>());
        EXPECT_GE(e.at("dur").get<double>(), 0.0);
    }
    EXPECT_EQ(unfinished, 1) << j.dump();
}
