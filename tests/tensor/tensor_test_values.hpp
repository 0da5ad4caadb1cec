// Value helpers shared by the tensor tests that compare against plain-loop or C-library
// references: seeded inputs exact in f32, and an element-wise comparison with a relative tolerance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "zyx/tensor.hpp"

namespace zyx::test {

// n values uniform in [lo, hi) from `seed`, each exactly representable in f32.
inline std::vector<double> values(int64_t n, uint32_t seed, double lo = -1, double hi = 1) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(static_cast<size_t>(n));
    for (auto& x : v) x = double(float(u(g)));
    return v;
}

// got (on any device, any dtype) has `shape` and, element by element, want's values: NaN where
// want is NaN, the same infinity where want is infinite, else within tol · (1 + |want|).
inline void expect_near(const Tensor& got, const Shape& shape, const std::vector<double>& want, double tol = 1e-5) {
    ASSERT_EQ(got.shape(), shape);
    std::vector<double> g = got.to(Device::host()).cast(DType::f64).to_vector<double>();
    ASSERT_EQ(g.size(), want.size());
    for (size_t i = 0; i < g.size(); ++i) {
        if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(g[i])) << "element " << i << ": " << g[i] << ", want NaN";
        } else if (std::isinf(want[i])) {
            EXPECT_EQ(g[i], want[i]) << "element " << i;
        } else {
            EXPECT_NEAR(g[i], want[i], tol * (1 + std::fabs(want[i]))) << "element " << i;
        }
    }
}

}  // namespace zyx::test
