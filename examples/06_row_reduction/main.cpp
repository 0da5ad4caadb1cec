// Example 06: row reduction, y[r] = sum_c x[r][c] for a 128 x 320 bf16 matrix, on one core.
//
// reduce_tile<SUM, REDUCE_ROW> reduces each 32x32 tile along W into column 0 of a DST tile and
// ACCUMULATES across calls, so Wt calls on the same DST slot sum a whole tile row. It multiplies
// by a "scaler" tile whose row 0 of each face holds the scale (1.0 for a sum, 1/W for a mean),
// which the reader builds directly in L1. The output has one tile per tile row; only column 0
// is meaningful. reduce_uninit must follow before any non-reduce op.
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("blackhole-p100a"));
        const uint32_t H = 128, W = 320, Ht = H / 32, Wt = W / 32, tile_bytes = 2048;
        CoreRangeSet core{CoreRange{{0, 0}, {0, 0}}};

        std::vector<float> x(size_t(H) * W), want(H);
        for (uint32_t r = 0; r < H; ++r) {
            double s = 0;
            for (uint32_t c = 0; c < W; ++c) {
                float v = bf16_round(float(int((r * 7 + c * 3) % 29) - 14) / 4.0f);
                x[size_t(r) * W + c] = v;
                s += v;
            }
            want[r] = float(s);
        }
        Buffer in = dev.buffer_create(size_t(Ht) * Wt * tile_bytes, tile_bytes);
        Buffer out = dev.buffer_create(size_t(Ht) * tile_bytes, tile_bytes);
        auto xt = tilize(x, H, W);
        dev.buffer_write(in.id, xt.data(), xt.size() * 2);

        ProgramSpec spec;
        for (uint32_t cb : {0u, 2u, 16u}) spec.cbs.push_back({cb, DataFormat::Float16_b, tile_bytes, 2, core, {}, {}});
        KernelSpec compute = kernel("compute_reduce_rows.cpp", KernelKind::Compute, core);
        compute.compute.fp32_dest_acc_en = true;  // accumulate the W sums in fp32
        spec.kernels = {
            kernel("reader_reduce_rows.cpp", KernelKind::DataMovement1, core, dev.tensor_accessor_args(in.id)),
            kernel("writer_tiles.cpp", KernelKind::DataMovement0, core, dev.tensor_accessor_args(out.id)), compute};
        ProgramId prog = dev.program_create(spec);
        dev.program_set_runtime_args(prog, 0, {0, 0}, {in.address, Ht * Wt});
        dev.program_set_runtime_args(prog, 1, {0, 0}, {out.address, 0, Ht});
        dev.program_set_runtime_args(prog, 2, {0, 0}, {Ht, Wt});
        dev.program_launch(prog);
        dev.wait();

        std::vector<uint16_t> yt(size_t(Ht) * 1024);
        dev.buffer_read(out.id, yt.data(), yt.size() * 2);
        std::vector<float> y = untilize(yt, H, 32), got(H);
        for (uint32_t r = 0; r < H; ++r) got[r] = y[size_t(r) * 32];  // column 0
        return check("row_reduction (sum over W)", got, want, 1e-3f, 1.0f / 256);
    });
}
