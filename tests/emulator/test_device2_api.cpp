// The Device 2.0 object API (CircularBuffer, Noc, endpoints; emulator/README.md "Device 2.0
// object API"): a reader / compute / writer written the way zyx's code generator writes them
// (per-element NoC transfers addressed as {.page_id, .offset_bytes}, 4096-byte DRAM pages),
// checked against a host golden in bf16 and f32; the older experimental:: generation; and the
// emulator's checks reached through the objects.
#include <cstring>

#include "check_expect.hpp"
#include "emu_test_util.hpp"

using namespace emu_test;

namespace {

// Args: a, b, n tiles. CT args: accessor a [0,1], accessor b [2,3], element bytes [4].
// a comes in one tile-sized transfer, b one element at a time (as the generated readers do).
const char* kReader = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/noc_traits.h"
#include "api/debug/device_print.h"
void kernel_main() {
    Noc noc;
    constexpr uint32_t es = get_compile_time_arg_val(4);
    uint32_t a = get_arg_val<uint32_t>(0), b = get_arg_val<uint32_t>(1), n = get_arg_val<uint32_t>(2);
    auto args_a = TensorAccessorArgs<0>(0);
    auto pa = TensorAccessor(args_a, a, 4096);
    auto args_b = TensorAccessorArgs<2>(1);
    auto pb = TensorAccessor(args_b, b, 4096);
    CircularBuffer cb0(tt::CBIndex::c_0);
    CircularBuffer cb1(tt::CBIndex::c_1);
    for (uint32_t t = 0; t < n; ++t) {
        cb0.reserve_back(1);
        cb1.reserve_back(1);
        uint32_t tile = t * 1024 * es;
        noc.async_read(pa, cb0, 1024 * es, {.page_id = tile / 4096, .offset_bytes = tile % 4096}, {});
        for (uint32_t i = 0; i < 1024; ++i) {
            uint32_t byte = (t * 1024 + i) * es;
            noc.async_read(pb, cb1, es, { .page_id = byte / 4096, .offset_bytes = byte % 4096 },
                           { .offset_bytes = i * es });
        }
        noc.async_read_barrier();
        cb0.push_back(1);
        cb1.push_back(1);
    }
}
)";

// Compute: out = a + b through SFPU adds in DST, CBs as objects (the generated compute kernels
// include api/dataflow/circular_buffer.h too).
const char* kCompute = R"(
#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/dataflow/circular_buffer.h"
#include "api/debug/device_print.h"
void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    CircularBuffer cb0(tt::CBIndex::c_0);
    CircularBuffer cb1(tt::CBIndex::c_1);
    CircularBuffer cb16(tt::CBIndex::c_16);
    init_sfpu(0, 16);
    add_binary_tile_init();
    for (uint32_t t = 0; t < n; ++t) {
        cb0.wait_front(1);
        cb1.wait_front(1);
        tile_regs_acquire();
        copy_tile(0, 0, 0);
        copy_tile(1, 0, 1);
        add_binary_tile(0, 1, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb16.reserve_back(1);
        pack_tile(0, 16);
        cb0.pop_front(1);
        cb1.pop_front(1);
        tile_regs_release();
        cb16.push_back(1);
    }
}
)";

// Args: out, n tiles. CT args: accessor [0,1], element bytes [2]. One write per element from the
// CB's read pointer (use<READ_PTR>), as the generated writers do.
const char* kWriter = R"(
#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/noc_traits.h"
#include "api/debug/dprint.h"
void kernel_main() {
    Noc noc(1);
    constexpr uint32_t es = get_compile_time_arg_val(2);
    CircularBuffer cb16(tt::CBIndex::c_16);
    uint32_t out = get_arg_val<uint32_t>(0), n = get_arg_val<uint32_t>(1);
    auto args_out = TensorAccessorArgs<0>(0);
    auto p_out = TensorAccessor(args_out, out, 4096);
    for (uint32_t t = 0; t < n; ++t) {
        cb16.wait_front(1);
        for (uint32_t i = 0; i < 1024; ++i) {
            uint32_t byte = (t * 1024 + i) * es;
            noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(cb16), p_out, es, { .offset_bytes = i * es },
                            { .page_id = byte / 4096, .offset_bytes = byte % 4096 });
        }
        noc.async_write_barrier();
        cb16.pop_front(1);
    }
}
)";

struct EmuDevice2Api : ::testing::Test {
    Device dev{preset("wormhole-n150")};

    // Builds and runs a program on core (0,0); returns its error (the program must fail).
    Error fails(std::vector<KernelSpec> kernels, std::vector<CircularBufferSpec> cbs,
                std::vector<std::vector<uint32_t>> args = {}) {
        ProgramSpec s;
        s.kernels = std::move(kernels);
        s.cbs = std::move(cbs);
        auto p = dev.program_create(s);
        for (size_t k = 0; k < args.size(); ++k) dev.program_set_runtime_args(p, uint32_t(k), {0, 0}, args[k]);
        auto err = run(dev, p);
        EXPECT_TRUE(err.has_value()) << "the program should have failed";
        dev.program_free(p);
        return err ? *err : Error(ErrorStatus::Internal, "(no error)");
    }

    // a + b over n tiles of format f (Float16_b or Float32) through the three kernels above.
    void add_through_object_api(DataFormat f) {
        const bool f32 = f == DataFormat::Float32;
        const uint32_t es = f32 ? 4 : 2, n = 2, count = n * 1024, bytes = count * es;
        std::vector<float> a(count), b(count), want(count);
        for (uint32_t i = 0; i < count; ++i) {
            a[i] = float(int(i % 64) - 32) * 0.5f;  // sums exact in bf16 and f32
            b[i] = float(int(i % 29)) * 0.25f;
            want[i] = a[i] + b[i];
        }
        auto A = dev.buffer_create(bytes, 4096), B = dev.buffer_create(bytes, 4096), C = dev.buffer_create(bytes, 4096);
        if (f32) {
            dev.buffer_write(A.id, a.data(), bytes);
            dev.buffer_write(B.id, b.data(), bytes);
        } else {
            auto ab = to_bf16(a), bb = to_bf16(b);
            dev.buffer_write(A.id, ab.data(), bytes);
            dev.buffer_write(B.id, bb.data(), bytes);
        }
        std::vector<uint32_t> rct = dev.tensor_accessor_args(A.id), bct = dev.tensor_accessor_args(B.id);
        rct.insert(rct.end(), bct.begin(), bct.end());
        rct.push_back(es);
        std::vector<uint32_t> wct = dev.tensor_accessor_args(C.id);
        wct.push_back(es);
        ProgramSpec s;
        s.cbs = {cb(0, 2, one_core(), f), cb(1, 2, one_core(), f), cb(16, 2, one_core(), f)};
        KernelSpec c = compute("add", kCompute, one_core());
        c.compute.fp32_dest_acc_en = f32;
        s.kernels = {dm0("reader", kReader, one_core(), rct), c, dm1("writer", kWriter, one_core(), wct)};
        auto p = dev.program_create(s);
        dev.program_set_runtime_args(p, 0, {0, 0}, {A.address, B.address, n});
        dev.program_set_runtime_args(p, 1, {0, 0}, {n});
        dev.program_set_runtime_args(p, 2, {0, 0}, {C.address, n});
        auto err = run(dev, p);
        ASSERT_FALSE(err) << err->what();
        std::vector<float> got(count);
        if (f32) {
            dev.buffer_read(C.id, got.data(), bytes);
        } else {
            std::vector<uint16_t> o(count);
            dev.buffer_read(C.id, o.data(), bytes);
            got = from_bf16(o);
        }
        for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(got[i], want[i]) << "element " << i;
    }
};

}  // namespace

TEST_F(EmuDevice2Api, GeneratedShapeKernelsAddBf16) { add_through_object_api(DataFormat::Float16_b); }
TEST_F(EmuDevice2Api, GeneratedShapeKernelsAddF32) { add_through_object_api(DataFormat::Float32); }

// experimental::Noc / experimental::CircularBuffer (the first generation), UnicastEndpoint to
// this core's own L1, CoreLocalMem and AllocatorBank: page 0 of `in` + 1 → page 1 of `in`.
TEST_F(EmuDevice2Api, ExperimentalGenerationAndEndpoints) {
    auto in = dev.buffer_create(2 * 64, 64);
    std::vector<uint32_t> v(32, 0);
    for (uint32_t i = 0; i < 16; ++i) v[i] = 100 + i;
    dev.buffer_write(in.id, v.data(), 128);
    ProgramSpec s;
    s.cbs = {cb(0, 1, one_core(), DataFormat::Float16_b, 128)};
    s.kernels = {dm0("producer", R"(
#include "experimental/noc.h"
#include "experimental/circular_buffer.h"
#include "experimental/endpoints.h"
#include "experimental/core_local_mem.h"
void kernel_main() {
    experimental::Noc noc;
    experimental::CircularBuffer cb(0);
    uint32_t base = get_arg_val<uint32_t>(0);
    cb.reserve_back(1);
    // page 0 lives in DRAM bank 0 at base
    noc.async_read(AllocatorBank<AllocatorBankType::DRAM>{}, cb, 64, {.bank_id = 0, .addr = base}, {.offset_bytes = 0});
    noc.async_read_barrier();
    // L1 → L1 on this core through the NoC (new generation), then +1 in place
    Noc local;
    CoreLocalMem<uint32_t> scratch(cb.get_write_ptr() + 64);
    local.async_read(UnicastEndpoint{}, scratch, 64,
                     {.noc_x = my_x[local.get_noc_id()], .noc_y = my_y[local.get_noc_id()], .addr = cb.get_write_ptr()}, {});
    local.async_read_barrier();
    for (uint32_t i = 0; i < 16; ++i) scratch[i] += 1;
    // page 1 lives in DRAM bank 1 at base
    local.async_write(scratch, AllocatorBank<AllocatorBankType::DRAM>{}, 64, {}, {.bank_id = 1, .addr = base});
    local.async_write_barrier();
    cb.push_back(1);
})",
                     one_core()),
                 dm1("consumer", R"(
#include "experimental/circular_buffer.h"
void kernel_main() {
    experimental::CircularBuffer cb(0);
    cb.wait_front(1);
    cb.pop_front(1);
})",
                     one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {in.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    std::vector<uint32_t> got(32);
    dev.buffer_read(in.id, got.data(), 128);
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(got[16 + i], 101 + i) << i;
}

// ---- misuse through the objects: the emulator's checks, naming the kernel and the object ----

TEST_F(EmuDevice2Api, PushBeforeReadBarrier) {
    auto in = dev.buffer_create(4096, 4096);
    auto e = fails({dm0("reader", R"(
#include "api/dataflow/noc.h"
void kernel_main() {
    Noc noc;
    CircularBuffer cb(0);
    auto acc = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0), 4096);
    cb.reserve_back(1);
    noc.async_read(acc, cb, 2048, {.page_id = 0}, {.offset_bytes = 0});
    cb.push_back(1);
    noc.async_read_barrier();
})",
                        one_core(), dev.tensor_accessor_args(in.id)),
                    dm1("sink", "void kernel_main() { cb_wait_front(0, 1); cb_pop_front(0, 1); }", one_core())},
                   {cb(0, 2, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"reader", "(0,0)", "BRISC", "cb_push_back(cb 0, 1)"},
                 {"missing noc_async_read_barrier"});
}

TEST_F(EmuDevice2Api, PopBeforeWriteBarrier) {
    auto out = dev.buffer_create(4096, 4096);
    auto e = fails({dm0("src", R"(
#include "api/dataflow/circular_buffer.h"
void kernel_main() { CircularBuffer cb(0); cb.reserve_back(1); cb.push_back(1); })",
                        one_core()),
                    dm1("writer", R"(
#include "api/dataflow/noc.h"
void kernel_main() {
    Noc noc(1);
    CircularBuffer cb(0);
    auto acc = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0), 4096);
    cb.wait_front(1);
    noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(cb), acc, 2048, {}, {.page_id = 0});
    cb.pop_front(1);
    noc.async_write_barrier();
})",
                        one_core(), dev.tensor_accessor_args(out.id))},
                   {cb(0, 2, one_core())}, {{}, {out.address}});
    expect_check(e, ErrorStatus::KernelFault, {"writer", "(0,0)", "NCRISC", "cb_pop_front(cb 0, 1)"},
                 {"missing noc_async_write_barrier"});
}

TEST_F(EmuDevice2Api, ReserveBeyondCapacity) {
    auto e = fails({dm0("greedy", R"(
#include "api/dataflow/circular_buffer.h"
void kernel_main() { CircularBuffer cb(tt::CBIndex::c_3); cb.reserve_back(3); })",
                        one_core())},
                   {cb(3, 2, one_core())});
    expect_check(e, ErrorStatus::KernelFault, {"greedy", "(0,0)", "BRISC", "cb_reserve_back(cb 3, 3)"},
                 {"more pages than the CB holds (2)"});
}

TEST_F(EmuDevice2Api, TransferPastThePage) {
    auto in = dev.buffer_create(2 * 4096, 4096);
    auto e = fails({dm0("spill", R"(
#include "api/dataflow/noc.h"
void kernel_main() {
    Noc noc;
    CircularBuffer cb(0);
    auto acc = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0), 4096);
    cb.reserve_back(1);
    noc.async_read(acc, cb, 64, {.page_id = 0, .offset_bytes = 4064}, {});
    noc.async_read_barrier();
    cb.push_back(1);
})",
                        one_core(), dev.tensor_accessor_args(in.id)),
                    dm1("sink", "void kernel_main() { cb_wait_front(0, 1); cb_pop_front(0, 1); }", one_core())},
                   {cb(0, 2, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"spill", "(0,0)", "BRISC", "Noc::async_read"},
                 {"run past the source page"});
}

TEST_F(EmuDevice2Api, ReadOutOfTheBuffer) {
    auto in = dev.buffer_create(4096, 4096);  // page 0 only
    auto e = fails({dm0("oob", R"(
#include "api/dataflow/noc.h"
void kernel_main() {
    Noc noc;
    CircularBuffer cb(0);
    auto acc = TensorAccessor(TensorAccessorArgs<0>(), get_arg_val<uint32_t>(0), 4096);
    cb.reserve_back(1);
    noc.async_read(acc, cb, 2048, {.page_id = 24}, {});
    noc.async_read_barrier();
})",
                        one_core(), dev.tensor_accessor_args(in.id))},
                   {cb(0, 2, one_core())}, {{in.address}});
    expect_check(e, ErrorStatus::KernelFault, {"oob", "(0,0)", "BRISC", "DRAM bank 0"}, {"out of bounds"});
}
