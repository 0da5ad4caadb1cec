// Element-wise add of two bf16 tensors of n_tiles 32×32 tiles on one Tensix core: a reader
// (NCRISC) streams tiles of both inputs into CBs c_0 and c_1, a compute kernel adds them into
// c_16, a writer (BRISC) drains c_16 to DRAM. The host tilizes, checks the result against its
// own sum (rounded to bf16) and returns non-zero on a mismatch.
#include <cmath>
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

using namespace tt;
using namespace tt::tt_metal;
using tt::constants::TILE_HW;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t rows = 64, cols = 64;  // 4 tiles
    constexpr uint32_t n_tiles = rows * cols / TILE_HW;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    InterleavedBufferConfig config{
        .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = CreateBuffer(config), src1 = CreateBuffer(config), dst = CreateBuffer(config);

    std::vector<bfloat16> a = create_random_vector_of_bfloat16_native(config.size, 2.0f, 1, -1.0f);
    std::vector<bfloat16> b = create_random_vector_of_bfloat16_native(config.size, 2.0f, 2, -1.0f);
    std::vector<bfloat16> a_tiled = tilize_nfaces(a, rows, cols), b_tiled = tilize_nfaces(b, rows, cols);
    EnqueueWriteBuffer(cq, src0, a_tiled.data(), false);
    EnqueueWriteBuffer(cq, src1, b_tiled.data(), false);

    // Double-buffered inputs and output: two tiles each, so the reader can fetch the next tile
    // while the compute kernel works on the current one.
    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src0).append_to(reader_args);
    TensorAccessorArgs(*src1).append_to(reader_args);
    TensorAccessorArgs(*dst).append_to(writer_args);
    const std::string dir = "emulator/compat/examples/eltwise_binary/kernels/";
    KernelHandle reader = CreateKernel(program, dir + "reader_binary.cpp", core, ReaderDataMovementConfig(reader_args));
    KernelHandle writer = CreateKernel(program, dir + "writer_unary.cpp", core, WriterDataMovementConfig(writer_args));
    CreateKernel(program, dir + "add_tiles.cpp", core,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {n_tiles}});

    SetRuntimeArgs(program, reader, core, {src0->address(), src1->address(), n_tiles});
    SetRuntimeArgs(program, writer, core, {dst->address(), n_tiles});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result_tiled;
    EnqueueReadBuffer(cq, dst, result_tiled, true);
    CloseDevice(device);
    std::vector<bfloat16> result = untilize_nfaces(result_tiled, rows, cols);

    // bf16 + bf16 is exact in fp32; the packer rounds it to bf16 (to nearest, ties away from
    // zero): within one bf16 ulp (2^-7 relative) of the host's sum.
    size_t bad = 0;
    for (size_t i = 0; i < result.size(); ++i) {
        float want = float(a[i]) + float(b[i]);
        if (std::fabs(float(result[i]) - want) > std::ldexp(std::fabs(want), -7) + 1e-6f) {
            if (bad++ < 5) log_error(tt::LogTest, "element {}: got {}, want {}", i, float(result[i]), want);
        }
    }
    log_info(tt::LogTest, "{} of {} elements differ", bad, result.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
