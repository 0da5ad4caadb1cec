// Example 08: bf16 matmul with matmul_block and 2D multicast reuse over the whole grid.
//
// Example 05 has every core read all the A and B tiles it needs from DRAM: with the 8x8 grid of
// a Wormhole n150 each A tile is read 8 times over and each B tile too. Here the cores of a grid
// row share one A band and the cores of a grid column one B band, so only the first core of each
// row / column reads from DRAM and multicasts what it read to the others (semaphores say when a
// receiver has room and when the data has arrived). The compute kernel multiplies whole subblocks
// with matmul_block (mm_block_init with ct_dim / rt_dim / kt_dim). mcast_matmul.hpp builds the
// program; kernels/ has the three kernels.
//
// Usage: example_08_matmul_block_mcast [M K N]   (default 1024 1024 1024; multiples of 32 with
// M / 32 and N / 32 divisible by 8). Checked against a host golden computed in double from the
// same bf16 inputs.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mcast_matmul.hpp"

using namespace example;

int main(int argc, char** argv) {
    return run_example([&] {
        uint32_t dims[3] = {1024, 1024, 1024};
        if (argc != 1 && argc != 4) {
            std::printf("usage: %s [M K N]\n", argv[0]);
            return 2;
        }
        for (int i = 1; i < argc; ++i) {
            char* end = nullptr;
            long v = std::strtol(argv[i], &end, 10);
            if (*end || v <= 0 || v > 1 << 16)
                throw zyx::Error(zyx::ErrorStatus::InvalidArgument,
                                 std::string("matmul_block_mcast: bad dimension '") + argv[i] + "'");
            dims[i - 1] = uint32_t(v);
        }
        const uint32_t M = dims[0], K = dims[1], N = dims[2], tile = 2048;
        Device dev(preset("wormhole-n150"));
        check_mcast_matmul_dims(dev.spec(), M, K, N);

        std::vector<float> a(size_t(M) * K), b(size_t(K) * N), want(size_t(M) * N);
        for (size_t i = 0; i < a.size(); ++i) a[i] = bf16_round(float(int((i * 37) % 19) - 9) / 8.0f);
        for (size_t i = 0; i < b.size(); ++i) b[i] = bf16_round(float(int((i * 11) % 23) - 11) / 16.0f);
        {
            // Golden in double, i-k-j order so the inner loop streams rows of B.
            std::vector<double> acc(N);
            for (uint32_t r = 0; r < M; ++r) {
                std::fill(acc.begin(), acc.end(), 0.0);
                for (uint32_t k = 0; k < K; ++k) {
                    const double av = a[size_t(r) * K + k];
                    const float* brow = &b[size_t(k) * N];
                    for (uint32_t c = 0; c < N; ++c) acc[c] += av * brow[c];
                }
                for (uint32_t c = 0; c < N; ++c) want[size_t(r) * N + c] = float(acc[c]);
            }
        }
        Buffer A = dev.buffer_create(size_t(M) * K * 2, tile), B = dev.buffer_create(size_t(K) * N * 2, tile),
               C = dev.buffer_create(size_t(M) * N * 2, tile);
        auto at = tilize(a, M, K), bt = tilize(b, K, N);
        dev.buffer_write(A.id, at.data(), at.size() * 2);
        dev.buffer_write(B.id, bt.data(), bt.size() * 2);

        ProgramId prog = build_mcast_matmul(dev, M, K, N, A, B, C);
        dev.program_launch(prog);
        dev.wait();

        std::vector<uint16_t> ct(size_t(M) * N);
        dev.buffer_read(C.id, ct.data(), ct.size() * 2);
        std::printf("matmul_block_mcast: %ux%ux%u bf16 on %ux%u cores of %s\n", M, K, N, dev.spec().grid_x,
                    dev.spec().grid_y, dev.spec().name.c_str());
        // fp32 accumulation, one bf16 rounding at pack: half a bf16 ulp relative.
        return check("matmul_block_mcast", untilize(ct, M, N), want, 1e-3f, 1.0f / 256);
    });
}
