// Example 03: a chain of SFPU (vector unit) ops, y = sqrt(exp(-|x|)), on one core.
//
// The SFPU works on tiles already in DST, so a unary chain is: copy_tile (CB → DST), then each
// op in place, then pack_tile. With a 16-bit DST (fp32_dest_acc_en = false) every SFPU result
// is stored back as bf16 by truncation, and the packer rounds to the CB's format; the host
// golden is exact math, so the check allows a few bf16 ulps.
#include <cmath>
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("blackhole-p150"));
        const uint32_t n_tiles = 16, tile_bytes = 2048;
        CoreRangeSet core{CoreRange{{0, 0}, {0, 0}}};

        std::vector<uint16_t> x16(n_tiles * 1024), y16(x16.size());
        std::vector<float> want(x16.size());
        for (size_t i = 0; i < x16.size(); ++i) {
            float x = bf16_round(float(int(i % 401) - 200) / 40.0f);  // -5 … 5
            x16[i] = bf16(x);
            want[i] = std::sqrt(std::exp(-std::fabs(x)));
        }
        Buffer in = dev.buffer_create(n_tiles * tile_bytes, tile_bytes);
        Buffer out = dev.buffer_create(n_tiles * tile_bytes, tile_bytes);
        dev.buffer_write(in.id, x16.data(), x16.size() * 2);

        ProgramSpec spec;
        spec.cbs = {{0, DataFormat::Float16_b, tile_bytes, 2, core, {}, {}},
                    {16, DataFormat::Float16_b, tile_bytes, 2, core, {}, {}}};
        spec.kernels = {
            kernel("reader_unary_tiles.cpp", KernelKind::DataMovement1, core, dev.tensor_accessor_args(in.id)),
            kernel("writer_tiles.cpp", KernelKind::DataMovement0, core, dev.tensor_accessor_args(out.id)),
            kernel("compute_sfpu_chain.cpp", KernelKind::Compute, core)};
        ProgramId prog = dev.program_create(spec);
        dev.program_set_runtime_args(prog, 0, {0, 0}, {in.address, 0, n_tiles});
        dev.program_set_runtime_args(prog, 1, {0, 0}, {out.address, 0, n_tiles});
        dev.program_set_runtime_args(prog, 2, {0, 0}, {n_tiles});
        dev.program_launch(prog);
        dev.wait();

        dev.buffer_read(out.id, y16.data(), y16.size() * 2);
        std::vector<float> got(y16.size());
        for (size_t i = 0; i < got.size(); ++i) got[i] = from_bf16(y16[i]);
        // 4 ops, each truncated to bf16 (relative step 2^-8), plus the final rounding.
        return check("sfpu_chain sqrt(exp(-|x|))", got, want, 1e-6f, 5.0f / 256);
    });
}
