// Adds two integers on a RISC-V: the host puts 14 and 7 in two DRAM buffers, a BRISC kernel
// reads them into L1, adds them and writes the sum to a third buffer, the host checks 21.
#include <cstdio>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    // Three DRAM buffers of one 4 B page each (page 0 is in bank 0).
    InterleavedBufferConfig dram_config{
        .device = device, .size = sizeof(uint32_t), .page_size = sizeof(uint32_t), .buffer_type = BufferType::DRAM};
    std::shared_ptr<Buffer> src0 = CreateBuffer(dram_config);
    std::shared_ptr<Buffer> src1 = CreateBuffer(dram_config);
    std::shared_ptr<Buffer> dst = CreateBuffer(dram_config);

    // L1 scratch for the two operands: one CB each. 32 B pages keep each at the DRAM alignment,
    // which NoC transfers need (source and destination equal modulo 32 B on Wormhole).
    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_1})
        CreateCircularBuffer(program, core,
                             CircularBufferConfig(32, {{cb, tt::DataFormat::UInt32}}).set_page_size(cb, 32));

    std::vector<uint32_t> compile_args;
    TensorAccessorArgs(*src0).append_to(compile_args);
    TensorAccessorArgs(*src1).append_to(compile_args);
    TensorAccessorArgs(*dst).append_to(compile_args);
    KernelHandle kernel = CreateKernel(
        program, "emulator/compat/examples/add_2_integers_in_riscv/kernels/reader_writer_add_in_riscv.cpp", core,
        DataMovementConfig{
            .processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default, .compile_args = compile_args});

    std::vector<uint32_t> a = {14}, b = {7};
    EnqueueWriteBuffer(cq, src0, a, false);
    EnqueueWriteBuffer(cq, src1, b, false);
    SetRuntimeArgs(program, kernel, core, {src0->address(), src1->address(), dst->address()});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<uint32_t> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    bool pass = result.size() == 1 && result[0] == 21;
    if (pass) {
        log_info(tt::LogTest, "Success: Result is {}", result[0]);
    } else {
        log_error(tt::LogTest, "Failure: expected 21, got {}", result.empty() ? 0u : result[0]);
    }
    std::puts(pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
