// Example 10: the reader / compute / writer pattern of example 02, with the kernels written in
// tt-metal's Device 2.0 object API instead of free functions:
//  - CircularBuffer objects: cb.reserve_back(n), cb.push_back(n), cb.wait_front(n), cb.pop_front(n);
//  - a Noc object whose async_read / async_write take two endpoints and their addressing:
//    a TensorAccessor page as { .page_id, .offset_bytes }, a CB as { .offset_bytes } from its
//    write pointer (or its read pointer through use<CircularBuffer::AddrSelector::READ_PTR>).
// The host side is unchanged. c = (a − b)² for bf16 tensors of 48 tiles on six cores, checked
// against the host.
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("wormhole-n150"));
        const uint32_t n_tiles = 48, tile_bytes = 2048, ncores = 6;
        CoreRangeSet cores{CoreRange{{0, 0}, {2, 1}}};  // 3x2 cores

        std::vector<float> a(n_tiles * 1024), b(a.size()), want(a.size());
        std::vector<uint16_t> a16(a.size()), b16(a.size()), c16(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = bf16_round(4.0f * std::sin(0.02f * float(i))), b[i] = bf16_round(std::cos(0.005f * float(i)));
            a16[i] = bf16(a[i]), b16[i] = bf16(b[i]);
            float d = bf16_round(a[i] - b[i]);  // the FPU difference in a 16-bit DST
            want[i] = d * d;
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
        spec.kernels = {kernel("reader_device2.cpp", KernelKind::DataMovement1, cores, reader_ct),
                        kernel("writer_device2.cpp", KernelKind::DataMovement0, cores, dev.tensor_accessor_args(C.id)),
                        kernel("compute_sub_square.cpp", KernelKind::Compute, cores)};
        ProgramId prog = dev.program_create(spec);
        for (uint32_t i = 0; i < ncores; ++i) {
            uint32_t start, count;
            split_work(n_tiles, ncores, i, &start, &count);
            CoreCoord core{i % 3, i / 3};
            dev.program_set_runtime_args(prog, 0, core, {A.address, B.address, start, count});
            dev.program_set_runtime_args(prog, 1, core, {C.address, start, count});
            dev.program_set_runtime_args(prog, 2, core, {count});
        }
        dev.program_launch(prog);
        dev.wait();

        dev.buffer_read(C.id, c16.data(), c16.size() * 2);
        std::vector<float> got(c16.size());
        for (size_t i = 0; i < got.size(); ++i) got[i] = from_bf16(c16[i]);
        // square_tile's fp32 product is rounded once to bf16 in the 16-bit DST: below one bf16
        // ulp (2^-7 relative).
        return check("device2_kernels ((a - b)^2, bf16)", got, want, 0, 1.0f / 128);
    });
}
