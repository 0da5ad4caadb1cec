// The layer's contract beyond the happy path, each item checked and reported: errors tt-metal
// throws (CB region beyond L1, kernel on a core outside the grid, too many runtime args) come
// as tt::exception carrying the emulator's message; named compile-time args and
// CreateKernelFromString work; GetRuntimeArgs patches args in place for the next enqueue;
// split_work_to_cores splits as tt-metal does; the emulator's race check fails a launch in which
// two cores write the same DRAM bytes, unless ZYX_EMU_RACE_CHECK=0 turns it off. Exits non-zero
// when any check fails.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/work_split.hpp>

using namespace tt;
using namespace tt::tt_metal;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) ++failures;
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what.c_str());
}

// Runs f; true when it throws tt::exception whose text contains `needle`.
template <class F>
bool throws_with(F&& f, const char* needle) {
    try {
        f();
    } catch (const tt::exception& e) {
        if (std::strstr(e.what(), needle)) return true;
        std::printf("      unexpected message: %s\n", e.what());
        return false;
    }
    return false;
}

// BRISC: writes the sum of its runtime arg 0 and the named compile-time arg "bias" to word 0
// of the one-page output buffer.
const char* kWriteArg = R"(
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t dst_addr = get_arg_val<uint32_t>(1);
    uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);
    reinterpret_cast<volatile uint32_t*>(l1)[0] = get_arg_val<uint32_t>(0) + get_named_compile_time_arg_val("bias");
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, 32);
    noc_async_write_page(0, dst, l1);
    noc_async_write_barrier();
}
)";

const char* kEmpty = "void kernel_main() {}\n";

// BRISC of every core: writes its runtime arg 0 to word 0 of page 0 of the output buffer.
const char* kSamePage = R"(
#include "api/dataflow/dataflow_api.h"
void kernel_main() {
    uint32_t l1 = get_write_ptr(tt::CBIndex::c_0);
    reinterpret_cast<volatile uint32_t*>(l1)[0] = get_arg_val<uint32_t>(0);
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, get_arg_val<uint32_t>(1), 32);
    noc_async_write_page(0, dst, l1);
    noc_async_write_barrier();
}
)";

// Two cores write page 0 of one buffer in one launch; true when EnqueueProgram throws the race.
bool racy_launch_throws(IDevice* device) {
    CommandQueue& cq = device->command_queue();
    const CoreRange both({0, 0}, {1, 0});
    auto out = CreateBuffer(InterleavedBufferConfig{device, 32, 32, BufferType::DRAM});
    Program program = CreateProgram();
    CreateCircularBuffer(
        program, both,
        CircularBufferConfig(32, {{tt::CBIndex::c_0, tt::DataFormat::UInt32}}).set_page_size(tt::CBIndex::c_0, 32));
    std::vector<uint32_t> ct;
    TensorAccessorArgs(*out).append_to(ct);
    KernelHandle k = CreateKernelFromString(program, kSamePage, both, DataMovementConfig{.compile_args = ct});
    for (uint32_t x = 0; x < 2; ++x) SetRuntimeArgs(program, k, CoreCoord{x, 0}, {x, out->address()});
    return throws_with([&] { EnqueueProgram(cq, program, true); }, "no semaphore ordering the two");
}

}  // namespace

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    const CoreCoord grid = device->compute_with_storage_grid_size();
    const CoreCoord core = {0, 0};

    // Named compile-time args, CreateKernelFromString, GetRuntimeArgs patched between launches.
    {
        auto out = CreateBuffer(InterleavedBufferConfig{device, 32, 32, BufferType::DRAM});
        Program program = CreateProgram();
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(32, {{tt::CBIndex::c_0, tt::DataFormat::UInt32}}).set_page_size(tt::CBIndex::c_0, 32));
        std::vector<uint32_t> ct;
        TensorAccessorArgs(*out).append_to(ct);
        KernelHandle k = CreateKernelFromString(
            program, kWriteArg, core, DataMovementConfig{.compile_args = ct, .named_compile_args = {{"bias", 100}}});
        SetRuntimeArgs(program, k, core, {5, out->address()});
        EnqueueProgram(cq, program, true);
        std::vector<uint32_t> got;
        EnqueueReadBuffer(cq, out, got, true);
        check(got.size() == 8 && got[0] == 105, "named compile-time arg: 5 + bias 100 = " + std::to_string(got.at(0)));
        GetRuntimeArgs(program, k, core)[0] = 20;
        EnqueueProgram(cq, program, false);
        Finish(cq);
        EnqueueReadBuffer(cq, out, got, true);
        check(got[0] == 120, "GetRuntimeArgs patched in place: 20 + 100 = " + std::to_string(got[0]));
    }

    // A CB region beyond L1 throws at EnqueueProgram with the emulator's message.
    {
        Program program = CreateProgram();
        const uint32_t page = 1024 * 1024;
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(2 * page, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                                 .set_page_size(tt::CBIndex::c_0, page));
        CreateKernelFromString(program, kEmpty, core, DataMovementConfig{});
        check(throws_with([&] { EnqueueProgram(cq, program, true); }, "beyond the L1 size"),
              "CB beyond L1 throws at EnqueueProgram");
    }

    // A kernel on a core outside the grid throws at EnqueueProgram.
    {
        Program program = CreateProgram();
        CreateKernelFromString(program, kEmpty, CoreCoord{grid.x, 0}, DataMovementConfig{});
        check(throws_with([&] { EnqueueProgram(cq, program, true); }, "outside the"),
              "kernel outside the " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + " grid throws");
    }

    // Too many runtime args throws at SetRuntimeArgs; a core the kernel is not on too.
    {
        Program program = CreateProgram();
        KernelHandle k = CreateKernelFromString(program, kEmpty, core, DataMovementConfig{});
        SetCommonRuntimeArgs(program, k, {1, 2});
        std::vector<uint32_t> many(max_runtime_args - 1, 0);
        check(throws_with([&] { SetRuntimeArgs(program, k, core, many); }, "exceed the limit of 341"),
              "340 unique + 2 common runtime args throw");
        check(throws_with(
                  [&] {
                      SetRuntimeArgs(program, k, CoreCoord{1, 0}, {1});
                  },
                  "does not run on core (x=1,y=0)"),
              "runtime args for a core without the kernel throw");
    }

    // A kernel that fails to compile throws at EnqueueProgram with the compiler's message.
    {
        Program program = CreateProgram();
        CreateKernelFromString(program, "void kernel_main() { undeclared_call(); }\n", core, DataMovementConfig{});
        check(throws_with([&] { EnqueueProgram(cq, program, true); }, "undeclared_call"),
              "compile error throws at EnqueueProgram");
    }

    // split_work_to_cores: 10 units on a 2x3 grid → 6 cores, 4 with 2 units (column-major),
    // 2 with 1.
    {
        auto [n, all, g1, g2, u1, u2] = split_work_to_cores(CoreCoord{2, 3}, 10);
        check(n == 6 && all.num_cores() == 6 && g1.num_cores() == 4 && g2.num_cores() == 2 && u1 == 2 && u2 == 1 &&
                  g1.contains(CoreCoord{1, 0}) && g2.contains(CoreCoord{1, 2}),
              "split_work_to_cores(2x3, 10) = " + std::to_string(n) + " cores, " + g1.str() + " x" +
                  std::to_string(u1) + ", " + g2.str() + " x" + std::to_string(u2));
    }

    // The race check, on by default; ZYX_EMU_RACE_CHECK=0 (read when the device opens) turns it off.
    check(racy_launch_throws(device), "two cores writing one page in one launch: the race is reported");
    CloseDevice(device);
    setenv("ZYX_EMU_RACE_CHECK", "0", 1);
    device = CreateDevice(0);
    check(!racy_launch_throws(device), "ZYX_EMU_RACE_CHECK=0: the same launch runs");
    unsetenv("ZYX_EMU_RACE_CHECK");

    CloseDevice(device);
    std::puts(failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
}
