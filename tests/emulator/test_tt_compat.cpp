// tt-metal compatibility of the kernel API headers: kernels written the way tt-metal's own
// kernels are written (unscoped enums, typed SFPU template parameters, the trailing
// bcast_row_idx, tt_l1_ptr, ASSERT / WAYPOINT, get_semaphore<ProgrammableCoreType::TENSIX>,
// TensorAccessorArgs<CTA, CRTA>, sfpu_split_includes.h) compile, run and give the host's
// values; a failing ASSERT is reported as a KernelFault naming the kernel, core and processor.
// emulator/README.md names the tt-metal version these forms were checked against.
#include <cmath>
#include <cstring>

#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

constexpr uint32_t kTileElems = 1024;


// Reader: n0 tiles of buffer a into cb 0, then n1 tiles of buffer b into cb 1, through
// TensorAccessors built with the two-parameter TensorAccessorArgs<CTA_OFFSET, CRTA_OFFSET>.
// Writer: n tiles of cb 16 into buffer c. Compile-time args: the two buffers' accessor args.
const char* kReader = R"(
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    const uint32_t a_addr = get_arg_val<uint32_t>(0), n0 = get_arg_val<uint32_t>(1);
    const uint32_t b_addr = get_arg_val<uint32_t>(2), n1 = get_arg_val<uint32_t>(3);
    constexpr auto a_args = TensorAccessorArgs<0, 0>();
    constexpr auto b_args = TensorAccessorArgs<a_args.next_compile_time_args_offset(),
                                               a_args.next_common_runtime_args_offset()>();
    static_assert(a_args.num_common_runtime_args() == 0 && b_args.crta_offset() == 0);
    const auto a = TensorAccessor(a_args, a_addr, get_tile_size(tt::CBIndex::c_0));
    const auto b = TensorAccessor(b_args, b_addr, get_tile_size(tt::CBIndex::c_1));
    for (uint32_t i = 0; i < n0; ++i) {
        cb_reserve_back(tt::CBIndex::c_0, 1);
        noc_async_read_page(i, a, get_write_ptr(tt::CBIndex::c_0));
        noc_async_read_barrier();
        cb_push_back(tt::CBIndex::c_0, 1);
    }
    for (uint32_t i = 0; i < n1; ++i) {
        cb_reserve_back(tt::CBIndex::c_1, 1);
        noc_async_read_page(i, b, get_write_ptr(tt::CBIndex::c_1));
        noc_async_read_barrier();
        cb_push_back(tt::CBIndex::c_1, 1);
    }
}
)";
const char* kWriter = R"(
void kernel_main() {
    const uint32_t c_addr = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    constexpr auto c_args = TensorAccessorArgs<0>();
    const auto c = TensorAccessor(c_args, c_addr, get_tile_size(tt::CBIndex::c_16));
    for (uint32_t i = 0; i < n; ++i) {
        cb_wait_front(tt::CBIndex::c_16, 1);
        noc_async_write_page(i, c, get_read_ptr(tt::CBIndex::c_16));
        noc_async_write_barrier();
        cb_pop_front(tt::CBIndex::c_16, 1);
    }
}
)";

struct ComputeRun {
    std::vector<float> out;  // n_out tiles, as stored (face layout)
    std::optional<Error> err;
};

// Runs `compute_src` on one core with fp32 CBs and an fp32 DST: cb 0 holds the tiles of a,
// cb 1 the tiles of b (both waited for by the compute kernel), cb 16 receives n_out tiles.
ComputeRun run_compute(const std::string& name, const std::string& compute_src, const std::vector<float>& a,
                       const std::vector<float>& b, uint32_t n_out, std::vector<uint32_t> compute_args = {},
                       bool copied = true) {
    Device dev(preset("wormhole-n150"));
    const uint32_t page = tile_size_bytes(DataFormat::Float32);
    const uint32_t n0 = uint32_t(a.size() / kTileElems), n1 = uint32_t(b.size() / kTileElems);
    auto A = dev.buffer_create(uint64_t(n0) * page, page), B = dev.buffer_create(uint64_t(n1) * page, page),
         C = dev.buffer_create(uint64_t(n_out) * page, page);
    dev.buffer_write(A.id, a.data(), a.size() * 4);
    dev.buffer_write(B.id, b.data(), b.size() * 4);
    ProgramSpec s;
    s.cbs = {cb(0, n0, one_core(), DataFormat::Float32), cb(1, n1, one_core(), DataFormat::Float32),
             cb(16, 2, one_core(), DataFormat::Float32)};
    auto ct = dev.tensor_accessor_args(A.id), ctb = dev.tensor_accessor_args(B.id);
    ct.insert(ct.end(), ctb.begin(), ctb.end());
    KernelSpec k = compute(name, compute_src, one_core());
    k.compute.fp32_dest_acc_en = true;
    // `copied`: copy_tile brings a and b into DST whole (TTNN sets UnpackToDestFp32 on the fp32
    // CBs of SFPU ops); else the FPU reads them (Default mode).
    if (copied)
        k.compute.unpack_to_dest_mode = {UnpackToDestMode::UnpackToDestFp32, UnpackToDestMode::UnpackToDestFp32};
    s.kernels = {dm1("reader", kReader, one_core(), ct),
                 dm0("writer", kWriter, one_core(), dev.tensor_accessor_args(C.id)), k};
    ComputeRun r;
    try {
        auto p = dev.program_create(s);
        dev.program_set_runtime_args(p, 0, {0, 0}, {A.address, n0, B.address, n1});
        dev.program_set_runtime_args(p, 1, {0, 0}, {C.address, n_out});
        if (!compute_args.empty()) dev.program_set_runtime_args(p, 2, {0, 0}, compute_args);
        r.err = run(dev, p);
    } catch (const Error& e) { r.err = e; }
    r.out.resize(size_t(n_out) * kTileElems);
    if (!r.err) dev.buffer_read(C.id, r.out.data(), r.out.size() * 4);
    return r;
}

void expect_near_all(const std::vector<float>& got, size_t tile, const std::vector<float>& want, const char* what) {
    for (size_t i = 0; i < want.size(); ++i) {
        float g = got[tile * kTileElems + i], w = want[i];
        float tol = 1e-5f * std::fabs(w) + 1e-6f;
        if (g != w && !(std::fabs(g - w) <= tol)) {
            ADD_FAILURE() << what << ": element " << i << " is " << g << ", host gives " << w;
            return;
        }
    }
}

// ---- enums: unscoped, tt-metal's names and values; both spellings compile ----------------------
// Reduces tile a twice: rows summed (unqualified <SUM, REDUCE_ROW>, as older kernels write it),
// columns' maximum (qualified <PoolType::MAX, ReduceDim::REDUCE_COL>). b is the scaler tile.
const char* kReduceBothSpellings = R"(
static_assert(VectorMode::None == 0 && R == 1 && C == 2 && VectorMode::RC == 4 && RC_custom == 6 && Invalid == 0xFF);
static_assert(REDUCE_ROW == 0 && ReduceDim::REDUCE_COL == 1 && REDUCE_SCALAR == 2);
static_assert(SUM == 0 && PoolType::AVG == 1 && MAX == 2 && MIN == 3);
static_assert(BroadcastType::NONE == 0 && COL == 1 && ROW == 2 && BroadcastType::SCALAR == 3);
static_assert(DstSync::SyncHalf == 0 && SyncFull == 1 && DST_SYNC_MODE == SyncHalf);
static_assert(ELWMUL == 0 && ELWDIV == 1 && ELWADD == 2 && ELWSUB == 3 && ELWLESS == 4);
void kernel_main() {
    constexpr auto cb_in = tt::CBIndex::c_0, cb_scaler = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    compute_kernel_hw_startup(cb_in, cb_scaler, cb_out);
    cb_wait_front(cb_in, 1);
    cb_wait_front(cb_scaler, 1);

    reduce_init<SUM, REDUCE_ROW>(cb_in, cb_scaler, cb_out);
    tile_regs_acquire();
    reduce_tile<SUM, REDUCE_ROW>(cb_in, cb_scaler, 0, 0, 0);
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);

    reduce_init<PoolType::MAX, ReduceDim::REDUCE_COL>(cb_in, cb_scaler, cb_out);
    tile_regs_acquire();
    reduce_tile<PoolType::MAX, ReduceDim::REDUCE_COL>(cb_in, cb_scaler, 0, 0, 0);
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
    reduce_uninit();

    cb_pop_front(cb_in, 1);
    cb_pop_front(cb_scaler, 1);
}
)";

std::vector<float> reduce_input() {
    std::vector<float> a(kTileElems);
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 32; ++c) a[face_index(r, c)] = float(int((r * 7 + c * 5) % 23) - 11) * 0.25f;
    return a;
}
std::vector<float> scaler_tile(float v) {
    std::vector<float> s(kTileElems, 0.0f);
    for (uint32_t face = 0; face < 4; ++face)
        for (uint32_t c = 0; c < 16; ++c) s[face * 256 + c] = v;  // row 0 of every face
    return s;
}

// ---- SFPU ops with tt-metal's typed template parameters ------------------------------------------
// One output tile per form; x = tile 0 of cb 0, y = tile 0 of cb 1 (y > 0).
const char* kSfpuForms = R"(
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/binary_max_min.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/compute/eltwise_unary/exp.h"
#include "api/compute/eltwise_unary/recip.h"
#include "api/compute/eltwise_unary/rsqrt.h"
#include "api/compute/eltwise_unary/sqrt.h"
#include "api/compute/eltwise_unary/gelu.h"
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
#include "compute_kernel_api/eltwise_unary/sfpu_split_includes.h"

constexpr uint32_t cb_x = tt::CBIndex::c_0, cb_y = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;

// DST0 = x (and DST1 = y), op(), pack DST0 as the next output tile.
template <typename Op>
void emit(bool with_y, Op op) {
    tile_regs_acquire();
    copy_tile_to_dst_init_short(cb_x);
    copy_tile(cb_x, 0, 0);
    if (with_y) {
        copy_tile_to_dst_init_short(cb_y);
        copy_tile(cb_y, 0, 1);
    }
    op();
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
}

void kernel_main() {
    init_sfpu(cb_x, cb_out);
    cb_wait_front(cb_x, 1);
    cb_wait_front(cb_y, 1);
    emit(true, [] { add_binary_tile_init(); add_binary_tile<ckernel::DstRoundingMode::NearestEven>(0, 1, 0); });
    emit(true, [] { sub_binary_tile_init(); sub_binary_tile<DstRoundingMode::Default, true>(0, 1, 0); });
    emit(true, [] { mul_binary_tile_init(); mul_binary_tile<DST_ACCUM_MODE>(0, 1, 0); });
    emit(true, [] { div_binary_tile_init(); div_binary_tile(0, 1, 0); });
    emit(true, [] { binary_max_tile_init(); binary_max_tile(0, 1, 0, VectorMode::RC); });
    emit(false, [] { sigmoid_tile_init<false>(); sigmoid_tile<VectorMode::RC, false>(0); });
    emit(false, [] { exp_tile_init<false, 0x3F800000, InputClamping::ClampToNegative>();
                     exp_tile<false, false, InputClamping::None, 8>(0, VectorMode::RC); });
    emit(false, [] { exp_tile_init<true>(); exp_tile<true>(0, (int)VectorMode::RC); });  // older int form
    emit(false, [] { recip_tile_init<false>(); recip_tile<false>(0, VectorMode::RC); });
    emit(false, [] { tanh_tile_init<false>(); tanh_tile<false>(0); });
    emit(false, [] { gelu_tile_init<false>(); gelu_tile<false>(0); });
    emit(false, [] { power_iterative_tile_init(); power_iterative_tile(0, 3); });
    emit(true, [] { abs_tile_init(); abs_tile(1);
                    log_tile_init<false>(); log_tile<false>(1);
                    rsqrt_tile_init<false>(); rsqrt_tile<false, false>(1);
                    sqrt_tile_init(); sqrt_tile<false>(1);
                    power_tile_init(); power_tile(1, 0x40200000u /* 2.5f */);
                    add_binary_tile_init(); add_binary_tile(1, 1, 0); });
    cb_pop_front(cb_x, 1);
    cb_pop_front(cb_y, 1);
}
)";

// ---- broadcasts with the trailing bcast_row_idx ---------------------------------------------------
const char* kBcastRows = R"(
#include "api/compute/bcast.h"
constexpr uint32_t cb_a = tt::CBIndex::c_0, cb_b = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
template <typename Op>
void emit(Op op) {
    tile_regs_acquire();
    op();
    tile_regs_commit();
    cb_reserve_back(cb_out, 1);
    tile_regs_wait();
    pack_tile(0, cb_out);
    tile_regs_release();
    cb_push_back(cb_out, 1);
}
void kernel_main() {
    const uint32_t row = get_arg_val<uint32_t>(0);
    init_bcast<ELWMUL, BroadcastType::ROW>(cb_a, cb_b, cb_out);
    cb_wait_front(cb_a, 1);
    cb_wait_front(cb_b, 1);
    emit([&] { mul_bcast_rows_init_short(cb_a, cb_b); mul_tiles_bcast_rows(cb_a, cb_b, 0, 0, 0, row); });
    emit([&] { add_bcast_rows_init_short(cb_a, cb_b); add_tiles_bcast_rows(cb_a, cb_b, 0, 0, 0, 0); });
    emit([&] { sub_bcast_rows_init_short(cb_a, cb_b); sub_tiles_bcast<BroadcastType::ROW>(cb_a, cb_b, 0, 0, 0, row); });
    emit([&] { add_bcast_cols_init_short(cb_a, cb_b); add_tiles_bcast<BroadcastType::COL>(cb_a, cb_b, 0, 0, 0, 7); });
    cb_pop_front(cb_a, 1);
    cb_pop_front(cb_b, 1);
}
)";

}  // namespace

TEST(EmuTtCompat, UnscopedEnumsCompileInBothSpellings) {
    auto a = reduce_input();
    auto r = run_compute("reduce_both_spellings", kReduceBothSpellings, a, scaler_tile(1.0f), 2, {}, false);
    ASSERT_FALSE(r.err) << r.err->what();
    for (uint32_t i = 0; i < 32; ++i) {
        float sum = 0, mx = -1e30f;
        for (uint32_t j = 0; j < 32; ++j) sum += a[face_index(i, j)], mx = std::max(mx, a[face_index(j, i)]);
        EXPECT_FLOAT_EQ(r.out[face_index(i, 0)], sum) << "row " << i << " sum (unqualified SUM, REDUCE_ROW)";
        EXPECT_FLOAT_EQ(r.out[kTileElems + face_index(0, i)], mx) << "column " << i << " max (PoolType::MAX)";
    }
}

TEST(EmuTtCompat, PoolTypeMinIsUnsupported) {
    std::string src = kReduceBothSpellings;
    src.replace(src.find("PoolType::MAX, ReduceDim::REDUCE_COL>(cb_in, cb_scaler, cb_out)"), 13, "PoolType::MIN");
    auto r = run_compute("reduce_min", src, reduce_input(), scaler_tile(1.0f), 2, {}, false);
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "Unsupported: reduce with PoolType::MIN")) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "reduce_min")) << r.err->what();
}

TEST(EmuTtCompat, SfpuOpsTakeTheirTypedTemplateParameters) {
    std::vector<float> x(kTileElems), y(kTileElems);
    for (uint32_t i = 0; i < kTileElems; ++i) {
        x[i] = std::sin(float(i) * 0.37f + 0.1f) * 3.0f;
        y[i] = 1.25f + float(i % 41) * 0.125f;
    }
    auto r = run_compute("sfpu_forms", kSfpuForms, x, y, 13);
    ASSERT_FALSE(r.err) << r.err->what();
    auto map = [&](auto f) {
        std::vector<float> v(kTileElems);
        for (uint32_t i = 0; i < kTileElems; ++i) v[i] = f(x[i], y[i]);
        return v;
    };
    expect_near_all(r.out, 0, map([](float a, float b) { return a + b; }), "add_binary_tile<NearestEven>");
    expect_near_all(r.out, 1, map([](float a, float b) { return a - b; }), "sub_binary_tile<Default, true>");
    expect_near_all(r.out, 2, map([](float a, float b) { return a * b; }), "mul_binary_tile<DST_ACCUM_MODE>");
    expect_near_all(r.out, 3, map([](float a, float b) { return a / b; }), "div_binary_tile");
    expect_near_all(r.out, 4, map([](float a, float b) { return std::max(a, b); }), "binary_max_tile");
    expect_near_all(r.out, 5, map([](float a, float) { return 1.0f / (1.0f + std::exp(-a)); }),
                    "sigmoid_tile<VectorMode::RC, false>");
    expect_near_all(r.out, 6, map([](float a, float) { return std::exp(a); }), "exp_tile<…, InputClamping::None>");
    expect_near_all(r.out, 7, map([](float a, float) { return std::exp(a); }), "exp_tile<true>(0, (int)RC)");
    expect_near_all(r.out, 8, map([](float a, float) { return 1.0f / a; }), "recip_tile<false>(0, VectorMode::RC)");
    expect_near_all(r.out, 9, map([](float a, float) { return std::tanh(a); }), "tanh_tile<false>");
    expect_near_all(r.out, 10, map([](float a, float) { return 0.5f * a * (1.0f + std::erf(a / std::sqrt(2.0f))); }),
                    "gelu_tile<false>");
    expect_near_all(r.out, 11, map([](float a, float) { return a * a * a; }), "power_iterative_tile(0, 3)");
    // y → |y| → log → rsqrt → sqrt → ^2.5, doubled (rsqrt needs log y > 0: y is in [1.25, 6.25]).
    expect_near_all(r.out, 12, map([](float, float b) {
                        float v = std::sqrt(1.0f / std::sqrt(std::log(std::fabs(b))));
                        v = std::pow(v, 2.5f);
                        return v + v;
                    }),
                    "abs, log<false>, rsqrt<false, false>, sqrt<false>, power_tile(f32 bits)");
}

TEST(EmuTtCompat, BroadcastRowsTakeTheTrailingRowIndex) {
    std::vector<float> a(kTileElems), b(kTileElems);
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 32; ++c) {
            a[face_index(r, c)] = float(int(r * 3 + c) % 17) * 0.5f;
            b[face_index(r, c)] = float(int(r + c * 7) % 11) - 5.0f;
        }
    auto r = run_compute("bcast_rows", kBcastRows, a, b, 4, {0}, false);
    ASSERT_FALSE(r.err) << r.err->what();
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t j = 0; j < 32; ++j) {
            float av = a[face_index(i, j)], row0 = b[face_index(0, j)], col0 = b[face_index(i, 0)];
            ASSERT_FLOAT_EQ(r.out[face_index(i, j)], av * row0) << i << "," << j;
            ASSERT_FLOAT_EQ(r.out[kTileElems + face_index(i, j)], av + row0) << i << "," << j;
            ASSERT_FLOAT_EQ(r.out[2 * kTileElems + face_index(i, j)], av - row0) << i << "," << j;
            ASSERT_FLOAT_EQ(r.out[3 * kTileElems + face_index(i, j)], av + col0) << i << "," << j;
        }
}

// Rows 1 … 31 are broadcast as tt-metal does (EmuKernelApiMore.RowBroadcastOfRowIdx); a row past
// the tile is a fault naming the argument and the kernel.
TEST(EmuTtCompat, BroadcastOfARowPastTheTileIsAFault) {
    std::vector<float> a(kTileElems, 1.0f), b(kTileElems, 2.0f);
    auto r = run_compute("bcast_row_32", kBcastRows, a, b, 4, {32}, false);
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::KernelFault) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "bcast_row_idx > 31")) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "bcast_row_32")) << r.err->what();
}

// ---- data movement: tt_l1_ptr, ASSERT, WAYPOINT at both include paths, get_semaphore<TENSIX> ------
namespace {
const char* kDataMovementForms = R"(
#include "debug/assert.h"
#include "api/debug/assert.h"
#include "debug/waypoint.h"
#include "api/debug/waypoint.h"
#include "risc_attribs.h"
#include "internal/risc_attribs.h"
void kernel_main() {
    WAYPOINT("INIT");
    const uint32_t out_addr = get_arg_val<uint32_t>(0), value = get_arg_val<uint32_t>(1);
    volatile tt_l1_ptr uint32_t* sem =
        reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_semaphore<ProgrammableCoreType::TENSIX>(0));
    static_assert(TENSIX == 0 && ProgrammableCoreType::ACTIVE_ETH == 1 && IDLE_ETH == 2);
    noc_semaphore_set(sem, value);
    ASSERT(*sem == value);
    ASSERT(*sem == value, "the semaphore holds what was set");
    volatile tt_l1_ptr uint32_t* page = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(0));
    for (uint32_t i = 0; i < 16; ++i) page[i] = *sem + i;
    constexpr auto out_args = TensorAccessorArgs<0, 0>();
    const auto out = TensorAccessor(out_args, out_addr, 64);
    noc_async_write_page(0, out, get_write_ptr(0));
    noc_async_write_barrier();
    WAYPOINT("DONE");
}
)";

// One data-movement kernel on BRISC of core (0,0) with a 64-byte CB 0 and semaphore 0; returns
// the launch's error, and the 16 words the kernel wrote to a 64-byte buffer (runtime arg 0).
struct DmRun {
    std::vector<uint32_t> out;
    std::optional<Error> err;
};
DmRun run_dm(Device& dev, const std::string& name, const std::string& src, std::vector<uint32_t> args) {
    auto out = dev.buffer_create(64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 64)};
    s.semaphores = {{one_core(), 0}};
    s.kernels = {dm0(name, src, one_core(), dev.tensor_accessor_args(out.id))};
    DmRun r;
    try {
        auto p = dev.program_create(s);
        args.insert(args.begin(), out.address);
        dev.program_set_runtime_args(p, 0, {0, 0}, args);
        r.err = run(dev, p);
    } catch (const Error& e) { r.err = e; }
    r.out.resize(16);
    if (!r.err) dev.buffer_read(out.id, r.out.data(), 64);
    return r;
}

void expect_assert_fault(const std::optional<Error>& err, const std::vector<std::string>& parts) {
    ASSERT_TRUE(err) << "the failing ASSERT was not reported";
    EXPECT_EQ(err->status(), ErrorStatus::KernelFault) << err->what();
    for (const auto& part : parts)
        EXPECT_TRUE(contains(err->what(), part)) << "'" << part << "' not in: " << err->what();
}
}  // namespace

TEST(EmuTtCompat, DataMovementKernelWithL1PtrSemaphoreTemplateAssertAndWaypoint) {
    Device dev(preset("wormhole-n150"));
    auto r = run_dm(dev, "dm_forms", kDataMovementForms, {1000});
    ASSERT_FALSE(r.err) << r.err->what();
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(r.out[i], 1000 + i) << i;
}

TEST(EmuTtCompat, FailingAssertIsReportedAndTheDeviceKeepsWorking) {
    Device dev(preset("wormhole-n150"));
    const char* plain = R"(
void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(1);
    ASSERT(n == 4);
}
)";
    expect_assert_fault(run_dm(dev, "asserting_reader", plain, {3}).err,
                        {"kernel 'asserting_reader' on core (0,0) BRISC", "ASSERT(n == 4) failed at line 4"});
    ASSERT_FALSE(run_dm(dev, "asserting_reader", plain, {4}).err);  // holds: no error

    const char* with_message = R"(
#include "api/debug/assert.h"
void kernel_main() {
    ASSERT(get_arg_val<uint32_t>(1) < 8, "tile count too large");
}
)";
    expect_assert_fault(
        run_dm(dev, "bounded", with_message, {9}).err,
        {"kernel 'bounded'", "ASSERT(get_arg_val<uint32_t>(1) < 8) failed at line 4: tile count too large"});

    // An ASSERT outside the kernel's own file names that file (#line stands in for a header).
    const char* in_header = R"(
#line 20 "/some/dir/reader_helpers.h"
inline void check_count(uint32_t n) { ASSERT(n != 0); }
void kernel_main() { check_count(get_arg_val<uint32_t>(1)); }
)";
    expect_assert_fault(run_dm(dev, "helpers", in_header, {0}).err,
                        {"kernel 'helpers'", "ASSERT(n != 0) failed at line 20 of reader_helpers.h"});

    // After the faults the same device runs a correct program.
    auto ok = run_dm(dev, "dm_forms", kDataMovementForms, {7});
    ASSERT_FALSE(ok.err) << ok.err->what();
    EXPECT_EQ(ok.out[15], 22u);
}

TEST(EmuTtCompat, FailingAssertInAComputeKernelIsReported) {
    const char* src = R"(
void kernel_main() {
    cb_wait_front(tt::CBIndex::c_0, 1);
    cb_wait_front(tt::CBIndex::c_1, 1);
    ASSERT(get_arg_val<uint32_t>(0) == 1, "one tile per CB");
    cb_pop_front(tt::CBIndex::c_0, 1);
    cb_pop_front(tt::CBIndex::c_1, 1);
}
)";
    std::vector<float> t(kTileElems, 1.0f);
    auto r = run_compute("tile_count_check", src, t, t, 1, {2});
    expect_assert_fault(r.err,
                        {"kernel 'tile_count_check' on core (0,0) TRISC",
                         "ASSERT(get_arg_val<uint32_t>(0) == 1) failed at line 5: one tile per CB"});
}

TEST(EmuTtCompat, SemaphoreOfAnEthernetCoreIsUnsupported) {
    Device dev(preset("wormhole-n150"));
    auto r =
        run_dm(dev, "eth_sem", "void kernel_main() { (void)get_semaphore<ProgrammableCoreType::ACTIVE_ETH>(0); }", {});
    ASSERT_TRUE(r.err);
    EXPECT_EQ(r.err->status(), ErrorStatus::Unsupported) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "kernel 'eth_sem'")) << r.err->what();
    EXPECT_TRUE(contains(r.err->what(), "get_semaphore for a core type other than TENSIX")) << r.err->what();
}
