// Whole programs on the emulator: data movement, CB flow, eltwise and matmul compute, several
// schedule seeds giving identical results, DPRINT, trace output.
#include <unistd.h>

#include <cmath>
#include <set>
#include <nlohmann/json.hpp>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/log.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

const char* kAddInts = R"(
void kernel_main() {
    uint32_t a = get_arg_val<uint32_t>(0);
    uint32_t b = get_arg_val<uint32_t>(1);
    uint32_t dram = get_arg_val<uint32_t>(2);
    uint32_t l1 = get_write_ptr(0);
    volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(l1);
    p[0] = a + b + get_compile_time_arg_val(0);
    InterleavedAddrGen<true> gen{dram, 64};
    noc_async_write(l1, get_noc_addr(0, gen), 64);
    noc_async_write_barrier();
}
)";

// Reader: tiles of a and b into cb 0 / cb 1. Writer: cb 16 to the output. Compute: a + b.
const char* kReader = R"(
void kernel_main() {
    uint32_t a = get_arg_val<uint32_t>(0), b = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    constexpr auto args_a = TensorAccessorArgs<0>();
    constexpr auto args_b = TensorAccessorArgs<args_a.next_compile_time_args_offset()>();
    auto acc_a = TensorAccessor(args_a, a, get_tile_size(0));
    auto acc_b = TensorAccessor(args_b, b, get_tile_size(1));
    for (uint32_t i = 0; i < n; ++i) {
        cb_reserve_back(0, 1);
        cb_reserve_back(1, 1);
        noc_async_read_page(i, acc_a, get_write_ptr(0));
        noc_async_read_page(i, acc_b, get_write_ptr(1));
        noc_async_read_barrier();
        cb_push_back(0, 1);
        cb_push_back(1, 1);
    }
}
)";
const char* kWriter = R"(
void kernel_main() {
    uint32_t out = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    InterleavedAddrGenFast<true> gen{out, get_tile_size(16), get_dataformat(16)};
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(16, 1);
        noc_async_write_tile(i, gen, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
}
)";
const char* kAddCompute = R"(
#include "api/compute/eltwise_binary.h"
namespace NAMESPACE {
void MAIN {
    uint32_t n = get_arg_val<uint32_t>(0);
    binary_op_init_common(tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16);
    add_tiles_init(tt::CBIndex::c_0, tt::CBIndex::c_1);
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(0, 1);
        cb_wait_front(1, 1);
        tile_regs_acquire();
        add_tiles(0, 1, 0, 0, 0);
        tile_regs_commit();
        cb_pop_front(0, 1);
        cb_pop_front(1, 1);
        cb_reserve_back(16, 1);
        tile_regs_wait();
        pack_tile(0, 16);
        tile_regs_release();
        cb_push_back(16, 1);
    }
}
}
)";

struct EltwiseRun {
    std::vector<float> out;
    std::optional<Error> err;
};

EltwiseRun eltwise_add(const DeviceOptions& opt, uint32_t ntiles, const std::vector<float>& a,
                       const std::vector<float>& b, uint32_t ncores = 1) {
    Device dev(preset("wormhole-n150"), opt);
    auto A = dev.buffer_create(ntiles * 2048ull, 2048), B = dev.buffer_create(ntiles * 2048ull, 2048),
         C = dev.buffer_create(ntiles * 2048ull, 2048);
    auto ab = to_bf16(a), bb = to_bf16(b);
    dev.buffer_write(A.id, ab.data(), ab.size() * 2);
    dev.buffer_write(B.id, bb.data(), bb.size() * 2);
    CoreRangeSet cores{CoreRange{{0, 0}, {ncores - 1, 0}}};
    ProgramSpec s;
    s.cbs = {cb(0, 2, cores), cb(1, 2, cores), cb(16, 2, cores)};
    std::vector<uint32_t> ct = dev.tensor_accessor_args(A.id);
    auto ctb = dev.tensor_accessor_args(B.id);
    ct.insert(ct.end(), ctb.begin(), ctb.end());
    s.kernels = {dm1("reader", kReader, cores, ct), dm0("writer", kWriter, cores), compute("add", kAddCompute, cores)};
    auto p = dev.program_create(s);
    // Split the tiles over the cores: each core handles a contiguous range.
    (void)p;
    EltwiseRun r;
    if (ncores != 1) throw std::logic_error("single core only");
    dev.program_set_runtime_args(p, 0, {0, 0}, {A.address, B.address, ntiles});
    dev.program_set_runtime_args(p, 1, {0, 0}, {C.address, ntiles});
    dev.program_set_runtime_args(p, 2, {0, 0}, {ntiles});
    r.err = run(dev, p);
    std::vector<uint16_t> o(ntiles * 1024);
    dev.buffer_read(C.id, o.data(), o.size() * 2);
    r.out = from_bf16(o);
    return r;
}

}  // namespace

TEST(EmuPrograms, AddTwoIntegersOnBrisc) {
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 64)};
    s.kernels = {dm0("add_ints", kAddInts, one_core(), {5})};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {7, 30, out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    uint32_t v[16];
    dev.buffer_read(out.id, v, 64);
    EXPECT_EQ(v[0], 42u);
    // Same program again (reuses memory and the compiled kernel) with other args.
    dev.program_set_runtime_args(p, 0, {0, 0}, {100, 200, out.address});
    ASSERT_FALSE(run(dev, p));
    dev.buffer_read(out.id, v, 64);
    EXPECT_EQ(v[0], 305u);
    EXPECT_EQ(dev.stats().launches, 2u);
}

TEST(EmuPrograms, EltwiseAddBf16MatchesHost) {
    const uint32_t n = 4;
    std::vector<float> a(n * 1024), b(n * 1024);
    for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i % 97) - 48) * 0.25f, b[i] = float(int(i % 13)) * 0.5f;
    auto r = eltwise_add({}, n, a, b);
    ASSERT_FALSE(r.err) << r.err->what();
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(r.out[i], bf16_to_f32(f32_to_bf16(a[i] + b[i]))) << i;
}

TEST(EmuPrograms, SeededSchedulesGiveIdenticalResults) {
    const uint32_t n = 6;
    std::vector<float> a(n * 1024), b(n * 1024);
    for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(float(i)) * 3, b[i] = std::cos(float(i)) * 2;
    auto base = eltwise_add({}, n, a, b);
    ASSERT_FALSE(base.err) << base.err->what();
    for (uint64_t seed : {1ull, 7ull, 12345ull}) {
        DeviceOptions o;
        o.schedule_seed = seed;
        o.threads = 2;
        auto r = eltwise_add(o, n, a, b);
        ASSERT_FALSE(r.err) << r.err->what();
        EXPECT_EQ(r.out, base.out) << "seed " << seed;
    }
}

TEST(EmuPrograms, SemaphoresAndCoreToCoreWrites) {
    // Core (0,0) writes a page into core (1,0)'s CB and bumps its semaphore; (1,0) waits for the
    // semaphore, then multicasts (with loopback) a flag to both cores and stores what it received.
    Device dev(preset("blackhole-p100a"));
    auto out = dev.buffer_create(64 * 2, 64);
    CoreRangeSet both{CoreRange{{0, 0}, {1, 0}}};
    ProgramSpec s;
    s.cbs = {cb(0, 1, both, DataFormat::Float16_b, 64)};
    s.semaphores = {{both, 0}};
    s.kernels = {dm0("pair", R"(
void kernel_main() {
    uint32_t peer_x = get_arg_val<uint32_t>(0), peer_y = get_arg_val<uint32_t>(1), out = get_arg_val<uint32_t>(2);
    uint32_t l1 = get_write_ptr(0);
    volatile uint32_t* data = reinterpret_cast<volatile uint32_t*>(l1);
    uint32_t sem = get_semaphore(0);
    if (get_absolute_logical_x() == 0) {
        for (int i = 0; i < 16; ++i) data[i] = 100 + i;
        noc_async_write(l1, get_noc_addr(peer_x, peer_y, l1), 64);
        noc_async_write_barrier();
        noc_semaphore_inc(get_noc_addr(peer_x, peer_y, sem), 1);
        noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(sem), 5);   // set by the multicast
    } else {
        noc_semaphore_wait(reinterpret_cast<volatile uint32_t*>(sem), 1);
        noc_async_write(l1, get_noc_addr(0, InterleavedAddrGen<true>{out, 64}), 64);
        noc_async_write_barrier();
        volatile uint32_t* s = reinterpret_cast<volatile uint32_t*>(sem);
        noc_semaphore_set(s, 5);
        uint64_t mc = get_noc_multicast_addr(peer_x, peer_y, my_x[noc_index], my_y[noc_index], sem);
        noc_semaphore_set_multicast_loopback_src(sem, mc, 2);
        noc_async_write_barrier();
    }
}
)",
                     both)};
    auto p = dev.program_create(s);
    auto c0 = dev.worker_core({0, 0}), c1 = dev.worker_core({1, 0});
    dev.program_set_runtime_args(p, 0, {0, 0}, {c1.x, c1.y, out.address});
    dev.program_set_runtime_args(p, 0, {1, 0}, {c0.x, c0.y, out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    uint32_t v[16];
    dev.buffer_read(out.id, v, 64);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(v[i], 100u + i);
}

TEST(EmuPrograms, ComputeOpsThroughTheApi) {
    // Small integers keep every op exact in bf16, so the expected values are plain arithmetic.
    Device dev(preset("wormhole-n150"));
    auto in = dev.buffer_create(2 * 2048, 2048), out = dev.buffer_create(5 * 2048, 2048);
    std::vector<float> a(1024), b(1024);
    for (int i = 0; i < 1024; ++i) a[i] = float(i % 7), b[i] = float(i % 5 + 1);
    auto ab = to_bf16(a), bb = to_bf16(b);
    dev.buffer_write(in.id, ab.data(), 2048);
    dev.buffer_write(in.id, bb.data(), 2048, 2048);
    ProgramSpec s;
    s.cbs = {cb(0, 2, one_core()), cb(16, 5, one_core())};
    s.kernels = {dm1("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 2048};
    cb_reserve_back(0, 2);
    noc_async_read_page(0, g, get_write_ptr(0));
    noc_async_read_page(1, g, get_write_ptr(0) + 2048);
    noc_async_read_barrier();
    cb_push_back(0, 2);
})",
                     one_core()),
                 dm0("writer", R"(
void kernel_main() {
    InterleavedAddrGen<true> g{get_arg_val<uint32_t>(0), 2048};
    cb_wait_front(16, 5);
    for (uint32_t i = 0; i < 5; ++i) noc_async_write_page(i, g, get_read_ptr(16) + i * 2048);
    noc_async_write_barrier();
    cb_pop_front(16, 5);
})",
                     one_core()),
                 compute("ops", R"(
void kernel_main() {
    cb_wait_front(0, 2);
    cb_reserve_back(16, 5);
    tile_regs_acquire();
    mul_tiles_init(0, 0);
    mul_tiles(0, 0, 0, 1, 0);                 // DST0 = a * b
    add_bcast_rows_init_short(0, 0);
    add_tiles_bcast_rows(0, 0, 0, 1, 1);      // DST1 = a + b[row 0]
    transpose_wh_init_short(0);
    transpose_wh_tile(0, 0, 2);               // DST2 = a^T
    copy_tile_init(0);
    copy_tile(0, 0, 3);
    copy_tile(0, 1, 4);
    sub_binary_tile_init();
    sub_binary_tile(3, 4, 3);                 // DST3 = a - b (SFPU, both in DST)
    fill_tile_init();
    fill_tile(4, 2.5f);                       // DST4 = 2.5
    tile_regs_commit();
    tile_regs_wait();
    for (uint32_t i = 0; i < 5; ++i) pack_tile(i, 16);
    tile_regs_release();
    cb_push_back(16, 5);
    cb_pop_front(0, 2);
})",
                         one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
    dev.program_set_runtime_args(p, 1, {0, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint16_t> o(5 * 1024);
    dev.buffer_read(out.id, o.data(), o.size() * 2);
    auto r = from_bf16(o);
    // Tiles are in face order in L1; a (r,c) → datum index mapping for the broadcast/transpose.
    auto idx = [](int row, int col) { return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16; };
    for (int row = 0; row < 32; ++row)
        for (int col = 0; col < 32; ++col) {
            int i = idx(row, col);
            ASSERT_EQ(r[i], a[i] * b[i]) << row << "," << col;
            ASSERT_EQ(r[1024 + i], a[i] + b[idx(0, col)]) << row << "," << col;
            ASSERT_EQ(r[2048 + i], a[idx(col, row)]) << row << "," << col;
            ASSERT_EQ(r[3072 + i], a[i] - b[i]) << row << "," << col;
            ASSERT_EQ(r[4096 + i], 2.5f);
        }
}

TEST(EmuPrograms, TraceIsValidJsonWithATrackPerProcessor) {
    std::string path = ::testing::TempDir() + "/emu_trace_test.json";
    DeviceOptions o;
    o.trace_path = path;
    std::vector<float> a(2048, 1.0f), b(2048, 2.0f);
    auto r = eltwise_add(o, 2, a, b);
    ASSERT_FALSE(r.err) << r.err->what();
    std::ifstream in(path);
    ASSERT_TRUE(in.good());
    auto j = nlohmann::json::parse(in);  // throws on invalid JSON
    std::set<std::string> threads, spans;
    bool core_track = false;
    for (const auto& e : j.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name")
            threads.insert(e.at("args").at("name").get<std::string>());
        if (e.at("ph") == "M" && e.at("name") == "process_name" && e.at("args").at("name") == "core (0,0)")
            core_track = true;
        if (e.at("ph") == "X") {
            spans.insert(e.at("name").get<std::string>());
            EXPECT_GE(e.at("dur").get<double>(), 0.0);
        }
    }
    EXPECT_TRUE(core_track);
    for (const char* t : {"BRISC", "NCRISC", "TRISC0 (UNPACK)", "TRISC1 (MATH)", "TRISC2 (PACK)"})
        EXPECT_TRUE(threads.count(t)) << t;
    for (const char* s : {"kernel reader", "kernel writer", "kernel add"}) EXPECT_TRUE(spans.count(s)) << s;
    bool waits = false;
    for (const auto& s : spans) waits |= s.rfind("cb_wait_front cb", 0) == 0 || s.rfind("MATH waiting", 0) == 0;
    EXPECT_TRUE(waits) << "no blocking-wait span in the trace";
}

TEST(EmuPrograms, DprintGoesToTheEmuLogChannel) {
    // Capture stderr (where ZYX_LOG writes) around one launch.
    setenv("ZYX_DEBUG", "emu", 1);
    log_reload_from_env();
    char tmpl[] = "/tmp/zyx_dprint_XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    int saved = dup(2);
    dup2(fd, 2);
    {
        Device dev(preset("wormhole-n150"));
        ProgramSpec s;
        s.kernels = {
            dm1("talker", R"(void kernel_main() { DPRINT << "x=" << 42 << " y=" << 1.5f << ENDL(); })", one_core(1, 2)),
            compute("math_talker", R"(void kernel_main() { DPRINT_MATH(DPRINT << "from math" << ENDL()); })",
                    one_core(1, 2))};
        auto p = dev.program_create(s);
        auto err = run(dev, p);
        EXPECT_FALSE(err);
    }
    dup2(saved, 2);
    close(saved);
    unsetenv("ZYX_DEBUG");
    log_reload_from_env();
    std::ifstream in(tmpl);
    std::stringstream ss;
    ss << in.rdbuf();
    close(fd);
    unlink(tmpl);
    EXPECT_TRUE(contains(ss.str(), "zyx:emu: core (1,2) NCRISC: x=42 y=1.5")) << ss.str();
    EXPECT_TRUE(contains(ss.str(), "core (1,2) TRISC1 (MATH): from math")) << ss.str();
    EXPECT_FALSE(contains(ss.str(), "TRISC0 (UNPACK): from math")) << ss.str();
}

TEST(EmuPrograms, WholeGridMatmulIdenticalUnderSeeds) {
    // 4x4 tiles of output over a 4x2 core range, two worker threads; every seed gives the same bytes.
    auto run_once = [](std::optional<uint64_t> seed) {
        DeviceOptions o;
        o.threads = 2;
        o.schedule_seed = seed;
        Device dev(preset("wormhole-n150"), o);
        const uint32_t Mt = 4, Kt = 3, Nt = 4;
        auto A = dev.buffer_create(Mt * Kt * 2048, 2048), B = dev.buffer_create(Kt * Nt * 2048, 2048),
             C = dev.buffer_create(Mt * Nt * 2048, 2048);
        std::vector<float> a(Mt * Kt * 1024), b(Kt * Nt * 1024);
        for (size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 7 % 11) - 5) / 4;  // exact in bf16
        for (size_t i = 0; i < b.size(); ++i) b[i] = float(int(i * 3 % 13) - 6) / 8;
        auto ab = to_bf16(a), bb = to_bf16(b);
        dev.buffer_write(A.id, ab.data(), ab.size() * 2);
        dev.buffer_write(B.id, bb.data(), bb.size() * 2);
        CoreRangeSet cores{CoreRange{{0, 0}, {3, 1}}};
        ProgramSpec s;
        s.cbs = {cb(0, 2, cores), cb(1, 2, cores), cb(16, 2, cores)};
        s.kernels = {dm1("reader", R"(
void kernel_main() {
    InterleavedAddrGen<true> a{get_arg_val<uint32_t>(0), 2048}, b{get_arg_val<uint32_t>(1), 2048};
    uint32_t Kt = get_arg_val<uint32_t>(2), Nt = get_arg_val<uint32_t>(3), t0 = get_arg_val<uint32_t>(4), n = get_arg_val<uint32_t>(5);
    for (uint32_t t = t0; t < t0 + n; ++t)
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_reserve_back(0, 1); cb_reserve_back(1, 1);
            noc_async_read_page((t / Nt) * Kt + k, a, get_write_ptr(0));
            noc_async_read_page(k * Nt + t % Nt, b, get_write_ptr(1));
            noc_async_read_barrier();
            cb_push_back(0, 1); cb_push_back(1, 1);
        }
})",
                         cores),
                     dm0("writer", R"(
void kernel_main() {
    InterleavedAddrGen<true> c{get_arg_val<uint32_t>(0), 2048};
    uint32_t t0 = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    for (uint32_t t = t0; t < t0 + n; ++t) {
        cb_wait_front(16, 1);
        noc_async_write_page(t, c, get_read_ptr(16));
        noc_async_write_barrier();
        cb_pop_front(16, 1);
    }
})",
                         cores),
                     compute("mm", R"(
void kernel_main() {
    uint32_t Kt = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    mm_init(0, 1, 16);
    for (uint32_t t = 0; t < n; ++t) {
        tile_regs_acquire();
        for (uint32_t k = 0; k < Kt; ++k) {
            cb_wait_front(0, 1); cb_wait_front(1, 1);
            matmul_tiles(0, 1, 0, 0, 0);
            cb_pop_front(0, 1); cb_pop_front(1, 1);
        }
        tile_regs_commit();
        cb_reserve_back(16, 1); tile_regs_wait(); pack_tile(0, 16); tile_regs_release(); cb_push_back(16, 1);
    }
})",
                             cores)};
        auto p = dev.program_create(s);
        for (uint32_t i = 0; i < 8; ++i) {
            CoreCoord c{i % 4, i / 4};
            uint32_t t0 = i * 2;
            dev.program_set_runtime_args(p, 0, c, {A.address, B.address, Kt, Nt, t0, 2});
            dev.program_set_runtime_args(p, 1, c, {C.address, t0, 2});
            dev.program_set_runtime_args(p, 2, c, {Kt, 2});
        }
        auto err = run(dev, p);
        EXPECT_FALSE(err) << err->what();
        std::vector<uint16_t> out(Mt * Nt * 1024);
        dev.buffer_read(C.id, out.data(), out.size() * 2);
        return out;
    };
    auto base = run_once(std::nullopt);
    for (uint64_t seed : {3ull, 99ull}) EXPECT_EQ(run_once(seed), base) << "seed " << seed;
}

TEST(EmuPrograms, JitMacrosAndDefinesReachTheKernel) {
    Device dev(preset("blackhole-p150"));
    auto out = dev.buffer_create(64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 64)};
    KernelSpec dm = dm1("macros", R"(
void kernel_main() {
    volatile uint32_t* p = reinterpret_cast<volatile uint32_t*>(get_write_ptr(0));
#if defined(ARCH_BLACKHOLE) && !defined(ARCH_WORMHOLE) && defined(COMPILE_FOR_NCRISC) && defined(KERNEL_BUILD)
    p[0] = 1;
#else
    p[0] = 0;
#endif
    p[1] = NOC_INDEX;                       // NCRISC defaults to NoC 1
    p[2] = noc_index;
    p[3] = MY_DEFINE;                       // from KernelSpec::defines
    p[4] = get_compile_time_arg_val(1);
    p[5] = DRAM_ALIGNMENT;
    noc_async_write(get_write_ptr(0), get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
    noc_async_write_barrier();
})",
                        one_core(), {7, 11});
    dm.defines = {{"MY_DEFINE", "1234"}};
    KernelSpec comp = compute("config", R"(
static_assert(DST_ACCUM_MODE == true, "fp32 dest acc");
static_assert(MATH_FIDELITY == 2, "HiFi2");
static_assert(APPROX == true, "approx");
void kernel_main() {}
)",
                              one_core());
    comp.compute.fp32_dest_acc_en = true;
    comp.compute.math_fidelity = MathFidelity::HiFi2;
    comp.compute.math_approx_mode = true;
    s.kernels = {dm, comp};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    uint32_t v[16];
    dev.buffer_read(out.id, v, 64);
    EXPECT_EQ(v[0], 1u);
    EXPECT_EQ(v[1], 1u);
    EXPECT_EQ(v[2], 1u);
    EXPECT_EQ(v[3], 1234u);
    EXPECT_EQ(v[4], 11u);
    EXPECT_EQ(v[5], 64u);
}
