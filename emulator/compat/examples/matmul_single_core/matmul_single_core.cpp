// bf16 matmul C = A·B (M×K · K×N) on one Tensix core, in the style of tt-metal's
// matmul_single_core programming example: the host tilizes A and B (tilize_nfaces), a reader
// streams tile pairs into CBs c_0 / c_1, the compute kernel accumulates Kt matmul_tiles per output
// tile in DST, a writer stores the tiles; the host untilizes C (untilize_nfaces).
//
// Check: the host computes the same product in double from the same bf16 inputs. The device
// accumulates in a 16-bit DST (fp32_dest_acc_en off) and rounds to bf16, so each element is off
// by a few bf16 roundings of the partial sums; the error is measured relative to
// Σk |A(i,k)·B(k,j)| (the magnitude the roundings scale with) and must stay below 2^-5 (common/matmul_check.hpp).
// The maximum error is reported; exit code 1 and a message on a mismatch.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tilize_utils.hpp>

#include "matmul_check.hpp"

using namespace tt;
using namespace tt::tt_metal;
using namespace tt::constants;

using matmul_example::check_matmul;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t M = 640, K = 640, N = 640;
    constexpr uint32_t Mt = M / TILE_HEIGHT, Kt = K / TILE_WIDTH, Nt = N / TILE_WIDTH;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    auto make_buffer = [&](uint32_t n_tiles) {
        return CreateBuffer(InterleavedBufferConfig{
            .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM});
    };
    auto a_buf = make_buffer(Mt * Kt), b_buf = make_buffer(Kt * Nt), c_buf = make_buffer(Mt * Nt);

    std::vector<bfloat16> a = create_random_vector_of_bfloat16_native(size_t(M) * K * 2, 2.0f, 11, -1.0f);
    std::vector<bfloat16> b = create_random_vector_of_bfloat16_native(size_t(K) * N * 2, 2.0f, 12, -1.0f);
    std::vector<bfloat16> a_tiled = tilize_nfaces(a, M, K), b_tiled = tilize_nfaces(b, K, N);
    EnqueueWriteBuffer(cq, a_buf, a_tiled.data(), false);
    EnqueueWriteBuffer(cq, b_buf, b_tiled.data(), false);

    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*a_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*b_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*c_buf).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/matmul_single_core/kernels/";
    KernelHandle reader =
        CreateKernel(program, dir + "reader_single_core_mm.cpp", core, ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer =
        CreateKernel(program, dir + "writer_single_core_mm.cpp", core, WriterDataMovementConfig(writer_ct_args));
    CreateKernel(program, dir + "mm.cpp", core,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {Mt, Kt, Nt}});

    SetRuntimeArgs(program, reader, core, {a_buf->address(), b_buf->address(), Mt, Kt, Nt});
    SetRuntimeArgs(program, writer, core, {c_buf->address(), Mt * Nt});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> c_tiled;
    EnqueueReadBuffer(cq, c_buf, c_tiled, true);
    CloseDevice(device);

    const size_t bad = check_matmul(a, b, untilize_nfaces(c_tiled, M, N), M, K, N);
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
