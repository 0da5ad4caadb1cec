// Loopback DRAM → L1 → DRAM: a BRISC kernel copies a 50-tile buffer to another through one tile
// of L1; the host checks the copy is bit-exact. tt-metal's version stages through an L1 buffer
// (CreateBuffer with BufferType::L1); the emulator has no L1 buffers, so this one stages through
// a circular buffer's page and checks that asking for an L1 buffer throws Unsupported.
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
    InterleavedBufferConfig dram{.device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes,
                                 .buffer_type = BufferType::DRAM};
    auto src = CreateBuffer(dram), dst = CreateBuffer(dram);

    bool l1_unsupported = false;
    try {
        CreateBuffer(InterleavedBufferConfig{.device = device, .size = tile_bytes, .page_size = tile_bytes,
                                             .buffer_type = BufferType::L1});
    } catch (const tt::exception& e) {
        l1_unsupported = e.category() == "unsupported" && std::strstr(e.what(), "Unsupported:") != nullptr;
    }

    CreateCircularBuffer(program, core,
                         CircularBufferConfig(tile_bytes, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(tt::CBIndex::c_0, tile_bytes));
    std::vector<uint32_t> compile_args;
    TensorAccessorArgs(*src).append_to(compile_args);
    TensorAccessorArgs(*dst).append_to(compile_args);
    KernelHandle copy = CreateKernel(program, "emulator/compat/examples/loopback/kernels/loopback_dram_copy.cpp", core,
                                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_0,
                                                        .noc = NOC::RISCV_0_default, .compile_args = compile_args});

    std::vector<uint32_t> input = create_random_vector_of_bfloat16(dram.size, 100, 42);
    EnqueueWriteBuffer(cq, src, input, false);
    SetRuntimeArgs(program, copy, core, {src->address(), dst->address(), n_tiles});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<uint32_t> output;
    EnqueueReadBuffer(cq, dst, output, true);
    CloseDevice(device);

    bool copied = output == input;
    log_info(tt::LogTest, "copy {}, L1 buffer refused as Unsupported: {}", copied ? "exact" : "WRONG", l1_unsupported);
    bool pass = copied && l1_unsupported;
    std::puts(pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
