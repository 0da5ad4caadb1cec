// bf16 matmul C = A·B (M×K · K×N) over the whole worker grid, in the style of tt-metal's
// matmul_multi_core programming example: split_work_to_cores divides the Mt·Nt output tiles over
// the cores (two groups when uneven, each with its own compute kernel and tile count); on each
// core a reader streams the tile pairs of its output tiles into CBs c_0 / c_1, the compute kernel
// accumulates Kt matmul_tiles per output tile in DST, a writer stores its tiles from its start
// index. The host tilizes A and B and untilizes C (tilize_nfaces / untilize_nfaces).
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
#include <tt-metalium/work_split.hpp>

using namespace tt;
using namespace tt::tt_metal;
using namespace tt::constants;

using matmul_example::check_matmul;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();

    constexpr uint32_t M = 640, K = 640, N = 640;
    constexpr uint32_t Mt = M / TILE_HEIGHT, Kt = K / TILE_WIDTH, Nt = N / TILE_WIDTH;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    auto make_buffer = [&](uint32_t n_tiles) {
        return CreateBuffer(InterleavedBufferConfig{
            .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM});
    };
    auto a_buf = make_buffer(Mt * Kt), b_buf = make_buffer(Kt * Nt), c_buf = make_buffer(Mt * Nt);

    std::vector<bfloat16> a = create_random_vector_of_bfloat16_native(size_t(M) * K * 2, 2.0f, 21, -1.0f);
    std::vector<bfloat16> b = create_random_vector_of_bfloat16_native(size_t(K) * N * 2, 2.0f, 22, -1.0f);
    std::vector<bfloat16> a_tiled = tilize_nfaces(a, M, K), b_tiled = tilize_nfaces(b, K, N);
    EnqueueWriteBuffer(cq, a_buf, a_tiled.data(), false);
    EnqueueWriteBuffer(cq, b_buf, b_tiled.data(), false);

    const CoreCoord grid = device->compute_with_storage_grid_size();
    const auto [n_cores, all_cores, group_1, group_2, tiles_per_core_1, tiles_per_core_2] =
        split_work_to_cores(grid, Mt * Nt);
    log_info(tt::LogTest, "{} output tiles on {} cores: {} with {} tiles, {} with {}", Mt * Nt, n_cores,
             group_1.num_cores(), tiles_per_core_1, group_2.num_cores(), tiles_per_core_2);

    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_1, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, all_cores,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*a_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*b_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*c_buf).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/matmul_multi_core/kernels/";
    KernelHandle reader = CreateKernel(program, dir + "reader_mm_output_tiles_partitioned.cpp", all_cores,
                                       ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer = CreateKernel(program, dir + "writer_unary_interleaved_start_id.cpp", all_cores,
                                       WriterDataMovementConfig(writer_ct_args));
    CreateKernel(program, dir + "mm.cpp", group_1,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {tiles_per_core_1, Kt}});
    if (!group_2.ranges().empty())
        CreateKernel(program, dir + "mm.cpp", group_2,
                     ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {tiles_per_core_2, Kt}});

    // Cores in the order split_work_to_cores filled them (column-major by default), each taking
    // the next run of output tiles.
    uint32_t start = 0;
    for (uint32_t i = 0; i < n_cores; ++i) {
        const CoreCoord core = {i / grid.y, i % grid.y};
        const uint32_t n_tiles = group_1.contains(core) ? tiles_per_core_1 : tiles_per_core_2;
        SetRuntimeArgs(program, reader, core, {a_buf->address(), b_buf->address(), Kt, Nt, start, n_tiles});
        SetRuntimeArgs(program, writer, core, {c_buf->address(), start, n_tiles});
        start += n_tiles;
    }
    if (start != Mt * Nt) {
        log_error(tt::LogTest, "split_work_to_cores covered {} tiles, want {}", start, Mt * Nt);
        return 1;
    }
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> c_tiled;
    EnqueueReadBuffer(cq, c_buf, c_tiled, true);
    CloseDevice(device);

    const size_t bad = check_matmul(a, b, untilize_nfaces(c_tiled, M, N), M, K, N);
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
