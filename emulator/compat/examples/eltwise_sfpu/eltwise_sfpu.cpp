// exp over several bf16 tiles on the SFPU, in the style of tt-metal's eltwise_sfpu programming
// example: reader (NCRISC) → CB c_0 → compute (copy_tile, exp_tile, pack_tile) → CB c_16 →
// writer (BRISC). The host computes exp in double and checks every element within a bf16
// tolerance (two bf16 ulps, 2^-6 relative: the result is rounded to bf16 once, and the SFPU's
// exp is not exact); exit code 1 and a message on a mismatch.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;
using tt::constants::TILE_HW;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t n_tiles = 8;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    InterleavedBufferConfig config{
        .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src = CreateBuffer(config), dst = CreateBuffer(config);

    // Inputs in [-4, 4): exp spans about e^-4 .. e^4, well inside bf16's range. Element-wise, so
    // the tile layout does not matter and the data goes in untilized.
    std::vector<bfloat16> input = create_random_vector_of_bfloat16_native(config.size, 8.0f, 42, -4.0f);
    EnqueueWriteBuffer(cq, src, input.data(), false);

    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*src).append_to(reader_ct_args);
    TensorAccessorArgs(*dst).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/eltwise_sfpu/kernels/";
    KernelHandle reader =
        CreateKernel(program, dir + "reader_unary.cpp", core, ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer =
        CreateKernel(program, dir + "writer_unary.cpp", core, WriterDataMovementConfig(writer_ct_args));
    CreateKernel(
        program, dir + "eltwise_sfpu.cpp", core,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .math_approx_mode = false, .compile_args = {n_tiles}});

    SetRuntimeArgs(program, reader, core, {src->address(), n_tiles});
    SetRuntimeArgs(program, writer, core, {dst->address(), n_tiles});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    size_t bad = result.size() == input.size() ? 0 : 1;
    double max_rel = 0;
    for (size_t i = 0; i < result.size() && i < input.size(); ++i) {
        const double want = std::exp(double(float(input[i])));
        const double rel = std::fabs(double(float(result[i])) - want) / want;
        max_rel = std::max(max_rel, rel);
        if (!(rel <= 0x1p-6) && bad++ < 5)
            log_error(tt::LogTest, "element {}: exp({}) got {}, want {}", i, float(input[i]), float(result[i]), want);
    }
    log_info(tt::LogTest, "exp over {} tiles: max relative error {}, {} of {} elements outside 2^-6", n_tiles, max_rel,
             bad, input.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
