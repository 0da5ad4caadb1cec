// Blocked bf16 matmul C = A·B (M×K · K×N) on a grid of cores with data reuse, in the style of
// tt-metal's matmul_multicore_reuse programming example: C is cut into per_core_M × per_core_N-tile
// output blocks, one per core of a num_cores_x × num_cores_y grid. Each core walks K in blocks of
// in0_block_w tiles: the reader brings an in0 block (per_core_M × in0_block_w tiles of A) and an
// in1 block (in0_block_w × per_core_N tiles of B) into L1 once, and the compute kernel uses each
// tile of them for a whole row / column of output subblocks (out_subblock_h × out_subblock_w
// tiles in DST), carrying partial sums between K-blocks in the intermediate CB c_24. The host
// tilizes A and B and untilizes C (tilize_nfaces / untilize_nfaces).
//
// Check: the host computes the same product in double from the same bf16 inputs. The device
// accumulates in a 16-bit DST (fp32_dest_acc_en off) and keeps partial sums in bf16 between
// K-blocks, so each element is off by a few bf16 roundings of the partial sums; the error is measured relative to
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

    constexpr uint32_t M = 640, K = 640, N = 640;
    constexpr uint32_t Mt = M / TILE_HEIGHT, Kt = K / TILE_WIDTH, Nt = N / TILE_WIDTH;
    // 5 × 5 cores, each with a 4 × 4-tile output block; K in 10 blocks of 2 tiles; 2 × 2-tile
    // output subblocks (4 tiles: within the 8 bf16 tiles of half of DST).
    constexpr uint32_t num_cores_x = 5, num_cores_y = 5;
    constexpr uint32_t per_core_M = Mt / num_cores_y, per_core_N = Nt / num_cores_x;
    constexpr uint32_t in0_block_w = 2, num_blocks = Kt / in0_block_w;
    constexpr uint32_t out_subblock_h = 2, out_subblock_w = 2;
    static_assert(Mt % num_cores_y == 0 && Nt % num_cores_x == 0 && Kt % in0_block_w == 0);
    static_assert(per_core_M % out_subblock_h == 0 && per_core_N % out_subblock_w == 0);
    const CoreCoord grid = device->compute_with_storage_grid_size();
    TT_FATAL(num_cores_x <= grid.x && num_cores_y <= grid.y, "the example needs a {}x{} grid, the device has {}x{}",
             num_cores_x, num_cores_y, grid.x, grid.y);

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    auto make_buffer = [&](uint32_t n_tiles) {
        return CreateBuffer(InterleavedBufferConfig{
            .device = device, .size = n_tiles * tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM});
    };
    auto a_buf = make_buffer(Mt * Kt), b_buf = make_buffer(Kt * Nt), c_buf = make_buffer(Mt * Nt);

    std::vector<bfloat16> a = create_random_vector_of_bfloat16_native(size_t(M) * K * 2, 2.0f, 31, -1.0f);
    std::vector<bfloat16> b = create_random_vector_of_bfloat16_native(size_t(K) * N * 2, 2.0f, 32, -1.0f);
    std::vector<bfloat16> a_tiled = tilize_nfaces(a, M, K), b_tiled = tilize_nfaces(b, K, N);
    EnqueueWriteBuffer(cq, a_buf, a_tiled.data(), false);
    EnqueueWriteBuffer(cq, b_buf, b_tiled.data(), false);

    const CoreRange cores({0, 0}, {num_cores_x - 1, num_cores_y - 1});
    constexpr uint32_t in0_block_tiles = per_core_M * in0_block_w, in1_block_tiles = in0_block_w * per_core_N;
    constexpr uint32_t out_block_tiles = per_core_M * per_core_N;
    // Inputs double-buffered (the reader fetches the next K-block during the current one); the
    // output and the partials hold one output block each.
    const std::pair<uint8_t, uint32_t> cbs[] = {{tt::CBIndex::c_0, 2 * in0_block_tiles},
                                                {tt::CBIndex::c_1, 2 * in1_block_tiles},
                                                {tt::CBIndex::c_16, out_block_tiles},
                                                {tt::CBIndex::c_24, out_block_tiles}};
    for (const auto& [cb, n_tiles] : cbs)
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(n_tiles * tile_bytes, {{cb, tt::DataFormat::Float16_b}})
                                 .set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*a_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*b_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*c_buf).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/matmul_multicore_reuse/kernels/";
    KernelHandle reader =
        CreateKernel(program, dir + "reader_bmm_tile_layout.cpp", cores, ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer =
        CreateKernel(program, dir + "writer_bmm_tile_layout.cpp", cores, WriterDataMovementConfig(writer_ct_args));
    const std::vector<uint32_t> compute_args = {in0_block_w,
                                                per_core_M / out_subblock_h,
                                                in0_block_tiles,
                                                out_subblock_h * in0_block_w,
                                                per_core_N / out_subblock_w,
                                                in1_block_tiles,
                                                per_core_N,
                                                num_blocks,
                                                out_subblock_h,
                                                out_subblock_w,
                                                out_subblock_h * out_subblock_w};
    CreateKernel(program, dir + "bmm_large_block_zm.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = compute_args});

    for (uint32_t y = 0; y < num_cores_y; ++y)
        for (uint32_t x = 0; x < num_cores_x; ++x) {
            const CoreCoord core = {x, y};
            const uint32_t row_start = y * per_core_M, col_start = x * per_core_N;
            SetRuntimeArgs(program, reader, core,
                           {a_buf->address(), b_buf->address(), Kt, Nt, row_start, col_start, per_core_M, per_core_N,
                            in0_block_w, num_blocks});
            SetRuntimeArgs(program, writer, core,
                           {c_buf->address(), Nt, row_start, col_start, out_subblock_h, out_subblock_w,
                            per_core_M / out_subblock_h, per_core_N / out_subblock_w});
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
