// Blocked bf16 matmul C = A·B (M×K · K×N) on a grid of cores with data reuse and multicast, in
// the style of tt-metal's matmul_multicore_reuse_mcast programming example. As in
// matmul_multicore_reuse (same compute kernel), each core of a num_cores_x × num_cores_y grid
// computes one per_core_M × per_core_N-tile output block, walking K in blocks of in0_block_w
// tiles. But a core does not read all its inputs from DRAM: the cores of grid column 0 read the
// in0 blocks (rows of A) and multicast them along their grid row (noc_async_write_multicast), the
// cores of grid row 0 read the in1 blocks (columns of B) and multicast them down their grid
// column. Semaphores (CreateSemaphore, get_semaphore in the kernels) carry the handshake:
// receivers bump the sender's semaphore when they have room, the sender multicasts the block and
// then a VALID flag onto the receivers' semaphores (noc_semaphore_set_multicast). DRAM reads of
// A and B drop from num_cores_x · num_cores_y blocks per K-step to num_cores_y + num_cores_x.
// The host tilizes A and B and untilizes C (tilize_nfaces / untilize_nfaces).
//
// Check: the host computes the same product in double from the same bf16 inputs. The device
// accumulates in a 16-bit DST (fp32_dest_acc_en off) and keeps partial sums in bf16 between
// K-blocks, so each element is off by a few bf16 roundings of the partial sums; the error is measured relative to
// Σk |A(i,k)·B(k,j)| (the magnitude the roundings scale with) and must stay below 2^-5 (common/matmul_check.hpp).
// The maximum error is reported; exit code 1 and a message on a mismatch.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

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

    std::vector<bfloat16> a = create_random_vector_of_bfloat16_native(size_t(M) * K * 2, 2.0f, 41, -1.0f);
    std::vector<bfloat16> b = create_random_vector_of_bfloat16_native(size_t(K) * N * 2, 2.0f, 42, -1.0f);
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

    const uint32_t in0_sender_sem = CreateSemaphore(program, cores, 0);
    const uint32_t in0_receiver_sem = CreateSemaphore(program, cores, 0);
    const uint32_t in1_sender_sem = CreateSemaphore(program, cores, 0);
    const uint32_t in1_receiver_sem = CreateSemaphore(program, cores, 0);

    // in0 (rows of A) moves on NCRISC along the grid rows, in1 (columns of B) and the output on
    // BRISC down the grid columns.
    const CoreRange in0_senders({0, 0}, {0, num_cores_y - 1});
    const CoreRange in1_senders({0, 0}, {num_cores_x - 1, 0});
    std::vector<uint32_t> in0_sender_ct_args = {in0_sender_sem, in0_receiver_sem};
    std::vector<uint32_t> in1_sender_ct_args = {in1_sender_sem, in1_receiver_sem};
    std::vector<uint32_t> in1_receiver_ct_args = {in1_sender_sem, in1_receiver_sem};
    TensorAccessorArgs(*a_buf).append_to(in0_sender_ct_args);
    TensorAccessorArgs(*b_buf).append_to(in1_sender_ct_args);
    TensorAccessorArgs(*c_buf).append_to(in1_sender_ct_args);
    TensorAccessorArgs(*c_buf).append_to(in1_receiver_ct_args);
    const std::string dir = "emulator/compat/examples/matmul_multicore_reuse_mcast/kernels/";
    const ReaderDataMovementConfig in0_sender_config(in0_sender_ct_args);
    const WriterDataMovementConfig in1_sender_config(in1_sender_ct_args);
    KernelHandle in0_sender =
        CreateKernel(program, dir + "reader_bmm_tile_layout_in0_sender.cpp", in0_senders, in0_sender_config);
    KernelHandle in1_sender =
        CreateKernel(program, dir + "reader_bmm_tile_layout_in1_sender_writer.cpp", in1_senders, in1_sender_config);
    KernelHandle in0_receiver = 0, in1_receiver = 0;
    if (num_cores_x > 1)
        in0_receiver = CreateKernel(program, dir + "reader_bmm_tile_layout_in0_receiver.cpp",
                                    CoreRange({1, 0}, {num_cores_x - 1, num_cores_y - 1}),
                                    ReaderDataMovementConfig({in0_sender_sem, in0_receiver_sem}));
    if (num_cores_y > 1)
        in1_receiver = CreateKernel(program, dir + "reader_bmm_tile_layout_in1_receiver_writer.cpp",
                                    CoreRange({0, 1}, {num_cores_x - 1, num_cores_y - 1}),
                                    WriterDataMovementConfig(in1_receiver_ct_args));
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
    CreateKernel(program, "emulator/compat/examples/matmul_multicore_reuse/kernels/bmm_large_block_zm.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = compute_args});

    // Kernels address cores by NoC coordinates. A multicast rectangle is given start → end in the
    // direction its NoC runs: on NOC_0 start is the lower corner, on NOC_1 the upper one (the
    // emulator faults on the other order). The reader config takes NOC_0 and the writer config
    // NOC_1 (tt-metal's preferred DRAM read / write NoCs), so the corners follow each config.
    const uint32_t writer_args[] = {out_subblock_h, out_subblock_w, per_core_M / out_subblock_h,
                                    per_core_N / out_subblock_w};
    for (uint32_t y = 0; y < num_cores_y; ++y)
        for (uint32_t x = 0; x < num_cores_x; ++x) {
            const CoreCoord core = {x, y};
            const uint32_t row_start = y * per_core_M, col_start = x * per_core_N;
            if (x == 0) {
                CoreCoord first = device->worker_core_from_logical_core({1, y});
                CoreCoord last = device->worker_core_from_logical_core({num_cores_x - 1, y});
                if (in0_sender_config.noc == NOC::NOC_1) std::swap(first, last);
                SetRuntimeArgs(program, in0_sender, core,
                               {a_buf->address(), Kt, row_start, per_core_M, in0_block_w, num_blocks, uint32_t(first.x),
                                uint32_t(first.y), uint32_t(last.x), uint32_t(last.y), num_cores_x - 1});
            } else {
                const CoreCoord sender = device->worker_core_from_logical_core({0, y});
                SetRuntimeArgs(program, in0_receiver, core,
                               {uint32_t(sender.x), uint32_t(sender.y), per_core_M, in0_block_w, num_blocks});
            }
            if (y == 0) {
                CoreCoord first = device->worker_core_from_logical_core({x, 1});
                CoreCoord last = device->worker_core_from_logical_core({x, num_cores_y - 1});
                if (in1_sender_config.noc == NOC::NOC_1) std::swap(first, last);
                std::vector<uint32_t> args = {b_buf->address(),  Nt,
                                              col_start,         per_core_N,
                                              in0_block_w,       num_blocks,
                                              uint32_t(first.x), uint32_t(first.y),
                                              uint32_t(last.x),  uint32_t(last.y),
                                              num_cores_y - 1,   c_buf->address(),
                                              row_start};
                args.insert(args.end(), std::begin(writer_args), std::end(writer_args));
                SetRuntimeArgs(program, in1_sender, core, args);
            } else {
                const CoreCoord sender = device->worker_core_from_logical_core({x, 0});
                std::vector<uint32_t> args = {uint32_t(sender.x), uint32_t(sender.y), Nt,
                                              col_start,          per_core_N,         in0_block_w,
                                              num_blocks,         c_buf->address(),   row_start};
                args.insert(args.end(), std::begin(writer_args), std::end(writer_args));
                SetRuntimeArgs(program, in1_receiver, core, args);
            }
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
