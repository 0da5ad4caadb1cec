// Example 07: row-major data in DRAM, computed on in tile layout, row-major again.
//
// The FPU and SFPU only work on 32x32 tiles, but tensors often arrive row-major (one row per
// DRAM page, a "stick"). This program squares a 256x256 matrix on four cores:
//  - reader: 32 sticks of one tile row → cb 0 (the row-major block tilize expects);
//  - compute: tilize_block → square_tile (SFPU) → back to rows with untilize_block or
//    pack_untilize_dest (kernels/compute_tilize_square_untilize.cpp explains the two);
//  - writer: the row-major pages of cb 16 → 32 sticks of the output.
// It runs three variants: bf16 with untilize_block, bf16 with pack_untilize, f32 with
// pack_untilize (a 32-bit DST; untilize_block is not used for f32 because its unpack reads a
// Float32 CB as TF32). Each is checked against x² computed on the host.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "example_util.hpp"

using namespace example;

namespace {

// One variant; returns 0 when every element matches.
int run(Device& dev, DataFormat fmt, bool pack_untilize) {
    const uint32_t R = 256, C = 256, Ht = R / 32, Wt = C / 32;
    const bool f32 = fmt == DataFormat::Float32;
    const uint32_t datum = f32 ? 4 : 2, stick = C * datum, tile_bytes = tile_size_bytes(fmt);
    const uint32_t bw = f32 ? 4 : 8;  // tiles per DST pass: half of DST (4 fp32 / 8 bf16 tiles)
    CoreRangeSet cores{CoreRange{{0, 0}, {1, 1}}};
    const uint32_t ncores = 4;

    // Inputs the device sees exactly (bf16 values for bf16), and x² rounded as the device rounds:
    // f32 DST and Float32 CB keep the fp32 product; a 16-bit DST keeps a bf16.
    std::vector<float> x(size_t(R) * C), want(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        float v = 3.0f * std::sin(0.37f * float(i)) + 0.01f * float(i % 97);
        x[i] = f32 ? v : bf16_round(v);
        want[i] = x[i] * x[i];
    }
    std::vector<uint8_t> host(x.size() * datum), back(host.size());
    for (size_t i = 0; i < x.size(); ++i) {
        if (f32) {
            std::memcpy(&host[i * 4], &x[i], 4);
        } else {
            uint16_t h = bf16(x[i]);
            std::memcpy(&host[i * 2], &h, 2);
        }
    }
    Buffer in = dev.buffer_create(host.size(), stick), out = dev.buffer_create(host.size(), stick);
    dev.buffer_write(in.id, host.data(), host.size());

    ProgramSpec spec;
    spec.cbs = {{0, fmt, tile_bytes, 2 * Wt, cores, {}, {}},  // two row blocks: read the next while tilizing
                {24, fmt, tile_bytes, Wt, cores, {}, {}},
                {25, fmt, tile_bytes, Wt, cores, {}, {}},
                {16, fmt, tile_bytes, 2 * Wt, cores, {}, {}}};
    std::vector<uint32_t> rct{Wt}, wct{Wt}, ta = dev.tensor_accessor_args(in.id), tb = dev.tensor_accessor_args(out.id);
    rct.insert(rct.end(), ta.begin(), ta.end());
    wct.insert(wct.end(), tb.begin(), tb.end());
    KernelSpec compute =
        kernel("compute_tilize_square_untilize.cpp", KernelKind::Compute, cores, {Wt, bw, pack_untilize ? 1u : 0u});
    compute.compute.fp32_dest_acc_en = f32;
    // f32: tilize (cb 0) and copy_tile (cb 24) unpack straight into DST, exact; untilize_block
    // reads cb 25 through SrcA (TF32), which is why pack_untilize is the exact f32 path.
    if (f32) {
        compute.compute.unpack_to_dest_fp32(0);
        compute.compute.unpack_to_dest_fp32(24);
    }
    spec.kernels = {kernel("reader_sticks.cpp", KernelKind::DataMovement1, cores, rct),
                    kernel("writer_sticks.cpp", KernelKind::DataMovement0, cores, wct), compute};
    ProgramId prog = dev.program_create(spec);
    for (uint32_t i = 0; i < ncores; ++i) {
        uint32_t start, count;
        split_work(Ht, ncores, i, &start, &count);
        CoreCoord core{i % 2, i / 2};
        dev.program_set_runtime_args(prog, 0, core, {in.address, start, count});
        dev.program_set_runtime_args(prog, 1, core, {out.address, start, count});
        dev.program_set_runtime_args(prog, 2, core, {count});
    }
    dev.program_launch(prog);
    dev.wait();
    dev.buffer_read(out.id, back.data(), back.size());
    dev.program_free(prog);
    dev.buffer_free(in.id);
    dev.buffer_free(out.id);

    std::vector<float> got(x.size());
    for (size_t i = 0; i < got.size(); ++i) {
        if (f32) {
            std::memcpy(&got[i], &back[i * 4], 4);
        } else {
            uint16_t h;
            std::memcpy(&h, &back[i * 2], 2);
            got[i] = from_bf16(h);
        }
    }
    std::string what = std::string("tilize → square → ") + (pack_untilize ? "pack_untilize" : "untilize_block") +
        (f32 ? " (f32)" : " (bf16)");
    // f32: the product is computed in fp32 and kept: exact. bf16: the fp32 product is rounded
    // once to bf16 in DST (truncated on this emulator, docs/numerics.md §6): below one bf16 ulp,
    // 2^-7 relative.
    return check(what.c_str(), got, want, 0, f32 ? 0 : 1.0f / 128);
}

}  // namespace

int main() {
    return run_example([] {
        Device dev(preset("wormhole-n150"));
        int bad = run(dev, DataFormat::Float16_b, false);
        bad += run(dev, DataFormat::Float16_b, true);
        bad += run(dev, DataFormat::Float32, true);
        return bad ? 1 : 0;
    });
}
