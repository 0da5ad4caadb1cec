// The matmul program shared by examples 04 (one core) and 05 (the whole grid): C = A·B for bf16
// matrices in tile layout, output tiles split evenly over the cores, checked against a host
// golden computed in double from the same bf16 inputs.
#pragma once

#include <cmath>
#include <cstdio>

#include "example_util.hpp"

namespace example {

inline int matmul_example(const char* name, const DeviceSpec& spec, CoreRange cores, uint32_t M, uint32_t K,
                          uint32_t N) {
    Device dev(spec);
    const uint32_t Mt = M / 32, Kt = K / 32, Nt = N / 32, tile_bytes = 2048;
    CoreRangeSet range{cores};
    uint32_t cols = cores.end.x - cores.start.x + 1, ncores = cols * (cores.end.y - cores.start.y + 1);

    std::vector<float> a(size_t(M) * K), b(size_t(K) * N), want(size_t(M) * N);
    for (size_t i = 0; i < a.size(); ++i) a[i] = bf16_round(float(int((i * 37) % 19) - 9) / 8.0f);
    for (size_t i = 0; i < b.size(); ++i) b[i] = bf16_round(float(int((i * 11) % 23) - 11) / 16.0f);
    for (uint32_t r = 0; r < M; ++r)
        for (uint32_t c = 0; c < N; ++c) {
            double s = 0;
            for (uint32_t k = 0; k < K; ++k) s += double(a[size_t(r) * K + k]) * b[size_t(k) * N + c];
            want[size_t(r) * N + c] = float(s);
        }
    Buffer A = dev.buffer_create(size_t(Mt) * Kt * tile_bytes, tile_bytes);
    Buffer B = dev.buffer_create(size_t(Kt) * Nt * tile_bytes, tile_bytes);
    Buffer C = dev.buffer_create(size_t(Mt) * Nt * tile_bytes, tile_bytes);
    auto at = tilize(a, M, K), bt = tilize(b, K, N);
    dev.buffer_write(A.id, at.data(), at.size() * 2);
    dev.buffer_write(B.id, bt.data(), bt.size() * 2);

    ProgramSpec ps;
    for (uint32_t cb : {0u, 1u, 16u}) ps.cbs.push_back({cb, DataFormat::Float16_b, tile_bytes, 2, range, {}, {}});
    std::vector<uint32_t> reader_ct = dev.tensor_accessor_args(A.id), b_ct = dev.tensor_accessor_args(B.id);
    reader_ct.insert(reader_ct.end(), b_ct.begin(), b_ct.end());
    KernelSpec compute = kernel("compute_matmul.cpp", KernelKind::Compute, range);
    compute.compute.fp32_dest_acc_en = true;  // accumulate the K products in fp32
    ps.kernels = {kernel("reader_matmul_tiles.cpp", KernelKind::DataMovement1, range, reader_ct),
                  kernel("writer_tiles.cpp", KernelKind::DataMovement0, range, dev.tensor_accessor_args(C.id)),
                  compute};
    ProgramId prog = dev.program_create(ps);
    for (uint32_t i = 0; i < ncores; ++i) {
        uint32_t start, count;
        split_work(Mt * Nt, ncores, i, &start, &count);
        CoreCoord core{cores.start.x + i % cols, cores.start.y + i / cols};
        dev.program_set_runtime_args(prog, 0, core, {A.address, B.address, Kt, Nt, start, count});
        dev.program_set_runtime_args(prog, 1, core, {C.address, start, count});
        dev.program_set_runtime_args(prog, 2, core, {Kt, count});
    }
    dev.program_launch(prog);
    dev.wait();

    std::vector<uint16_t> ct(size_t(M) * N);
    dev.buffer_read(C.id, ct.data(), ct.size() * 2);
    std::printf("%s: %ux%ux%u bf16 on %u cores of %s\n", name, M, K, N, ncores, spec.name.c_str());
    // fp32 accumulation, one bf16 rounding at pack: half a bf16 ulp relative.
    return check(name, untilize(ct, M, N), want, 1e-3f, 1.0f / 256);
}

}  // namespace example
