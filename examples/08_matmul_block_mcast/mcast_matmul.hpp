// The host side of the 2D-multicast block matmul (example 08), shared with bench/emulator:
// builds the program for C = A·B (bf16 M×K and K×N in tile layout, fp32 accumulation) over the
// whole grid of `dev` and sets every core's runtime args.
//
// Work split (tt-metal's matmul_multicore_reuse_mcast programming example): the output is cut
// into gy × gx blocks of per_core_M × per_core_N tiles, core (x, y) computes block (y, x). All
// cores of grid row y need the same A row band and all cores of grid column x the same B column
// band, so core (0, y) reads the A band from DRAM and multicasts it along its row, core (x, 0)
// reads the B band and multicasts it down its column (kernels/*.cpp say how): each A and B tile
// is read from DRAM once, instead of once per core that needs it.
//
// Limits: M / 32 divisible by the grid height, N / 32 by its width (InvalidArgument otherwise);
// the whole K extent of both bands stays in L1 (K is not split into partial sums), so a K whose
// bands do not fit in L1 throws Unsupported.
#pragma once

#include <string>

#include "example_util.hpp"

namespace example {

// Kernel sources, by a path that resolves from EXAMPLE_DIR/kernels of this example and of
// examples/common alike (the bench compiles against the latter).
inline std::string mcast_kernel(const char* file) { return std::string("../../08_matmul_block_mcast/kernels/") + file; }

// Throws InvalidArgument / Unsupported (see above) when M×K×N cannot run on the grid of `s`.
inline void check_mcast_matmul_dims(const DeviceSpec& s, uint32_t M, uint32_t K, uint32_t N) {
    const uint32_t gx = s.grid_x, gy = s.grid_y, tile = 2048;
    if (M % 32 || K % 32 || N % 32 || M == 0 || K == 0 || N == 0)
        throw zyx::Error(zyx::ErrorStatus::InvalidArgument,
                         "matmul_block_mcast: M, K, N must be positive multiples "
                         "of 32, got " +
                             std::to_string(M) + "x" + std::to_string(K) + "x" + std::to_string(N));
    const uint32_t Mt = M / 32, Kt = K / 32, Nt = N / 32;
    if (Mt % gy || Nt % gx)
        throw zyx::Error(zyx::ErrorStatus::InvalidArgument,
                         "matmul_block_mcast: M / 32 = " + std::to_string(Mt) +
                             " must be divisible by the grid height " + std::to_string(gy) +
                             " and N / 32 = " + std::to_string(Nt) + " by the grid width " + std::to_string(gx));
    const uint32_t pcM = Mt / gy, pcN = Nt / gx;
    const uint64_t l1_need = uint64_t(pcM * Kt + Kt * pcN + pcM * pcN) * tile;
    if (l1_need > s.l1_bytes - s.l1_unreserved_base)
        throw zyx::Error(zyx::ErrorStatus::Unsupported,
                         "Unsupported: matmul_block_mcast keeps whole K bands in L1 and needs " +
                             std::to_string(l1_need) + " B per core for K = " + std::to_string(K) +
                             " (splitting K into partial sums is not "
                             "implemented)");
}

inline ProgramId build_mcast_matmul(Device& dev, uint32_t M, uint32_t K, uint32_t N, const Buffer& A, const Buffer& B,
                                    const Buffer& C) {
    const DeviceSpec& s = dev.spec();
    check_mcast_matmul_dims(s, M, K, N);
    const uint32_t gx = s.grid_x, gy = s.grid_y, tile = 2048;
    const uint32_t Mt = M / 32, Kt = K / 32, Nt = N / 32, pcM = Mt / gy, pcN = Nt / gx;
    uint32_t w = 1;  // K tiles per multicast block
    for (uint32_t c : {8u, 4u, 2u})
        if (Kt % c == 0) {
            w = c;
            break;
        }
    // Output subblock: at most 8 tiles (all of an fp32 DST in full-sync mode), as wide as possible.
    // Bigger subblocks unpack fewer tiles per product: 2x4 reads 6 tiles for 8 tile products.
    uint32_t sbh = 1, sbw = 1;
    for (uint32_t h = 1; h <= 8; ++h)
        for (uint32_t wd = 1; h * wd <= 8; ++wd)
            if (pcM % h == 0 && pcN % wd == 0 && (h * wd > sbh * sbw || (h * wd == sbh * sbw && wd > sbw)))
                sbh = h, sbw = wd;

    CoreRangeSet grid{CoreRange{{0, 0}, {gx - 1, gy - 1}}};
    ProgramSpec ps;
    ps.cbs = {{0, DataFormat::Float16_b, tile, pcM * Kt, grid, {}, {}},
              {1, DataFormat::Float16_b, tile, Kt * pcN, grid, {}, {}},
              {16, DataFormat::Float16_b, tile, pcM * pcN, grid, {}, {}}};
    ps.semaphores = {{grid, 0}, {grid, 0}, {grid, 0}, {grid, 0}};  // in0 ready, in0 valid, in1 ready, in1 valid
    std::vector<uint32_t> in1_ct = dev.tensor_accessor_args(B.id), c_ct = dev.tensor_accessor_args(C.id);
    in1_ct.insert(in1_ct.end(), c_ct.begin(), c_ct.end());
    KernelSpec compute =
        kernel(mcast_kernel("compute_matmul_block.cpp"), KernelKind::Compute, grid, {Kt, w, pcM, pcN, sbh, sbw});
    compute.name = "compute_matmul_block";
    compute.compute.fp32_dest_acc_en = true;  // accumulate the K products in fp32
    compute.compute.dst_full_sync_en = true;  // one DST of 8 fp32 tiles instead of two halves of 4
    KernelSpec in0 =
        kernel(mcast_kernel("reader_in0_mcast.cpp"), KernelKind::DataMovement1, grid, dev.tensor_accessor_args(A.id));
    in0.name = "reader_in0_mcast";
    KernelSpec in1 = kernel(mcast_kernel("reader_in1_mcast_writer.cpp"), KernelKind::DataMovement0, grid, in1_ct);
    in1.name = "reader_in1_mcast_writer";
    ps.kernels = {in0, in1, compute};
    ProgramId prog = dev.program_create(ps);

    for (uint32_t y = 0; y < gy; ++y)
        for (uint32_t x = 0; x < gx; ++x) {
            const CoreCoord row_sender = dev.worker_core({0, y}), col_sender = dev.worker_core({x, 0});
            // Receivers' rectangles (unused on receivers; an empty rectangle when the grid has one column / row),
            // start corner first in the direction the sender's NoC runs: the A reader (DataMovement1) multicasts
            // on NoC 1, so its row goes from the far end back, the B reader (DataMovement0) on NoC 0 (tt-metal
            // issue #2977: the host swaps the corners for NOC_1).
            const CoreCoord r0 = dev.worker_core({gx - 1, y}), r1 = dev.worker_core({std::min(1u, gx - 1), y});
            const CoreCoord c0 = dev.worker_core({x, std::min(1u, gy - 1)}), c1 = dev.worker_core({x, gy - 1});
            dev.program_set_runtime_args(prog, 0, {x, y},
                                         {A.address, Kt, w, pcM, y * pcM, x == 0 ? 1u : 0u, row_sender.x, row_sender.y,
                                          r0.x, r0.y, r1.x, r1.y, gx - 1, 0, 1});
            dev.program_set_runtime_args(
                prog, 1, {x, y},
                {B.address, Kt,   w,      pcN, x * pcN, y == 0 ? 1u : 0u, col_sender.x, col_sender.y, c0.x,    c0.y,
                 c1.x,      c1.y, gy - 1, 2,   3,       C.address,        Nt,           pcM,          y * pcM, sbh,
                 sbw});
        }
    return prog;
}

}  // namespace example
