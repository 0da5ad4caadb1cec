// The check the four matmul examples share: a bf16 product against a double-precision one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/logger.hpp>

namespace matmul_example {

constexpr double kTolerance = 0x1p-5;

// Compares c (M×N, row-major) with the double-precision product of a (M×K) and b (K×N).
// Returns the number of elements outside kTolerance; logs the first few and the maximum error.
inline size_t check_matmul(const std::vector<bfloat16>& a, const std::vector<bfloat16>& b,
                           const std::vector<bfloat16>& c, uint32_t M, uint32_t K, uint32_t N) {
    if (c.size() != size_t(M) * N) {
        log_error(tt::LogTest, "result has {} elements, want {}", c.size(), size_t(M) * N);
        return 1;
    }
    size_t bad = 0;
    double max_err = 0, max_abs = 0;
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t j = 0; j < N; ++j) {
            double want = 0, magnitude = 0;
            for (uint32_t k = 0; k < K; ++k) {
                const double p = double(float(a[size_t(i) * K + k])) * double(float(b[size_t(k) * N + j]));
                want += p;
                magnitude += std::fabs(p);
            }
            const double got = float(c[size_t(i) * N + j]);
            const double err = std::fabs(got - want) / std::max(magnitude, 1e-30);
            max_err = std::max(max_err, err);
            max_abs = std::max(max_abs, std::fabs(got - want));
            if (!(err <= kTolerance) && bad++ < 5)
                log_error(tt::LogTest, "C({}, {}): got {}, want {} (error {} of sum |a*b| = {})", i, j, got, want, err,
                          magnitude);
        }
    log_info(tt::LogTest,
             "{}x{}x{} matmul: max error {} (relative to sum |a*b|), max absolute error {}; {} of {} "
             "elements outside {}",
             M, K, N, max_err, max_abs, bad, size_t(M) * N, kTolerance);
    return bad;
}

}  // namespace matmul_example
