// Two bf16 tiles added by the compute engine, in the style of tt-metal's
// add_2_integers_in_compute programming example: a reader (NCRISC) brings one tile of each input
// from DRAM into CBs c_0 and c_1, the compute kernel adds them with add_tiles into c_16, a writer
// (BRISC) stores the sum in DRAM. The inputs are small integers (exact in bf16, and so is their
// sum), so the host checks the result bit-exact; exit code 1 and a message on a mismatch.
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

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    InterleavedBufferConfig config{
        .device = device, .size = tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src0 = CreateBuffer(config), src1 = CreateBuffer(config), dst = CreateBuffer(config);

    // Integers in [-100, 100]: bf16 holds every integer up to 256 exactly, so sums are exact.
    // The layout does not matter for an element-wise op, so the data is written untilized.
    std::vector<bfloat16> a(TILE_HW), b(TILE_HW);
    for (uint32_t i = 0; i < TILE_HW; ++i) {
        a[i] = bfloat16(float(int(i * 37 % 201) - 100));
        b[i] = bfloat16(float(int(i * 91 % 201) - 100));
    }
    EnqueueWriteBuffer(cq, src0, a.data(), false);
    EnqueueWriteBuffer(cq, src1, b.data(), false);

    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*src0).append_to(reader_ct_args);
    TensorAccessorArgs(*src1).append_to(reader_ct_args);
    TensorAccessorArgs(*dst).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/add_2_integers_in_compute/kernels/";
    KernelHandle reader =
        CreateKernel(program, dir + "reader_binary_1_tile.cpp", core, ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer =
        CreateKernel(program, dir + "writer_1_tile.cpp", core, WriterDataMovementConfig(writer_ct_args));
    CreateKernel(program, dir + "add_2_tiles.cpp", core, ComputeConfig{.math_fidelity = MathFidelity::HiFi4});

    SetRuntimeArgs(program, reader, core, {src0->address(), src1->address()});
    SetRuntimeArgs(program, writer, core, {dst->address()});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    size_t bad = result.size() == TILE_HW ? 0 : 1;
    for (size_t i = 0; i < result.size() && i < TILE_HW; ++i) {
        const float want = float(a[i]) + float(b[i]);
        if (float(result[i]) != want && bad++ < 5)
            log_error(tt::LogTest, "element {}: got {}, want {} + {} = {}", i, float(result[i]), float(a[i]),
                      float(b[i]), want);
    }
    log_info(tt::LogTest, "{} + {} = {} (element 0); {} of {} elements differ", float(a[0]), float(b[0]),
             result.empty() ? 0.0f : float(result[0]), bad, TILE_HW);
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
