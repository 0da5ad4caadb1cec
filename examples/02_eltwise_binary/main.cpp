// Example 02: elementwise addition of two bf16 tensors, on four cores.
//
// The reader / compute / writer pattern every Tensix op follows:
//  - reader (NCRISC) moves tiles DRAM → L1 circular buffers cb 0 and cb 1;
//  - compute (TRISC0-2) adds tile pairs into DST and packs the result into cb 16;
//  - writer (BRISC) moves cb 16 → DRAM.
// Circular buffers are the only synchronisation: a producer cb_reserve_back / cb_push_back,
// a consumer cb_wait_front / cb_pop_front. With 2 pages per CB the reader can fetch tile i+1
// while compute works on tile i (double buffering).
// Elementwise ops do not care about layout, so the host writes row-major data straight into
// buffers with one tile (1024 bf16 values, 2048 B) per page. Each core gets its own range of
// tiles through its runtime args.
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("wormhole-n150"));
        const uint32_t n_tiles = 64, tile_bytes = 2048;
        CoreRangeSet cores{CoreRange{{0, 0}, {1, 1}}};  // 2x2 cores

        std::vector<float> a(n_tiles * 1024), b(n_tiles * 1024), want(a.size());
        std::vector<uint16_t> a16(a.size()), b16(b.size()), c16(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = bf16_round(std::sin(0.01f * float(i)) * 10), b[i] = bf16_round(std::cos(0.003f * float(i)));
            a16[i] = bf16(a[i]), b16[i] = bf16(b[i]);
            want[i] = bf16_round(a[i] + b[i]);  // FPU add, then the packer's rounding to bf16
        }
        Buffer A = dev.buffer_create(n_tiles * tile_bytes, tile_bytes);
        Buffer B = dev.buffer_create(n_tiles * tile_bytes, tile_bytes);
        Buffer C = dev.buffer_create(n_tiles * tile_bytes, tile_bytes);
        dev.buffer_write(A.id, a16.data(), a16.size() * 2);
        dev.buffer_write(B.id, b16.data(), b16.size() * 2);

        ProgramSpec spec;
        for (uint32_t cb : {0u, 1u, 16u}) spec.cbs.push_back({cb, DataFormat::Float16_b, tile_bytes, 2, cores, {}, {}});
        std::vector<uint32_t> reader_ct = dev.tensor_accessor_args(A.id), b_ct = dev.tensor_accessor_args(B.id);
        reader_ct.insert(reader_ct.end(), b_ct.begin(), b_ct.end());
        spec.kernels = {kernel("reader_binary_tiles.cpp", KernelKind::DataMovement1, cores, reader_ct),
                        kernel("writer_tiles.cpp", KernelKind::DataMovement0, cores, dev.tensor_accessor_args(C.id)),
                        kernel("compute_add.cpp", KernelKind::Compute, cores)};
        ProgramId prog = dev.program_create(spec);
        for (uint32_t i = 0; i < 4; ++i) {
            uint32_t start, count;
            split_work(n_tiles, 4, i, &start, &count);
            CoreCoord core{i % 2, i / 2};
            dev.program_set_runtime_args(prog, 0, core, {A.address, B.address, start, count});
            dev.program_set_runtime_args(prog, 1, core, {C.address, start, count});
            dev.program_set_runtime_args(prog, 2, core, {count});
        }
        dev.program_launch(prog);
        dev.wait();

        dev.buffer_read(C.id, c16.data(), c16.size() * 2);
        std::vector<float> got(c16.size());
        for (size_t i = 0; i < got.size(); ++i) got[i] = from_bf16(c16[i]);
        return check("eltwise_binary (a + b, bf16)", got, want, 0, 0);
    });
}
