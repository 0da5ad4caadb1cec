// Loopback DRAM → L1 → DRAM, as tt-metal's loopback programming example: a BRISC kernel copies a
// 50-tile DRAM buffer to another through a one-tile L1 buffer (CreateBuffer with BufferType::L1,
// its address a runtime arg); the host checks the copy is bit-exact.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t n_tiles = 50, tile_bytes = 2 * 1024;
    InterleavedBufferConfig dram{
        .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src = CreateBuffer(dram), dst = CreateBuffer(dram);
    InterleavedBufferConfig l1{
        .device = device, .size = tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::L1};
    auto l1_buffer = CreateBuffer(l1);

    std::vector<uint32_t> compile_args;
    TensorAccessorArgs(*src).append_to(compile_args);
    TensorAccessorArgs(*dst).append_to(compile_args);
    KernelHandle copy = CreateKernel(
        program, "emulator/compat/examples/loopback/kernels/loopback_dram_copy.cpp", core,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = compile_args});

    std::vector<uint32_t> input = create_random_vector_of_bfloat16(dram.size, 100, 42);
    EnqueueWriteBuffer(cq, src, input, false);
    SetRuntimeArgs(program, copy, core, {l1_buffer->address(), src->address(), dst->address(), n_tiles});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<uint32_t> output;
    EnqueueReadBuffer(cq, dst, output, true);
    // The L1 buffer holds the last tile copied.
    std::vector<uint32_t> staged;
    EnqueueReadBuffer(cq, l1_buffer, staged, true);
    CloseDevice(device);

    bool copied = output == input;
    bool last =
        staged.size() == tile_bytes / 4 && std::equal(staged.begin(), staged.end(), input.end() - tile_bytes / 4);
    log_info(tt::LogTest, "copy {}, L1 buffer holds the last tile: {}", copied ? "exact" : "WRONG", last);
    bool pass = copied && last;
    std::puts(pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
