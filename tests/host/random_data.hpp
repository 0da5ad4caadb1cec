// Seeded random buffer contents for every dtype, with the special values that find bugs.
#pragma once

#include <cstring>
#include <random>
#include <vector>

#include "kernel/kernel.hpp"

namespace zyx::host_test {

// Raw bits of one random value of dtype t: floats mostly uniform in [-3, 3], some small
// integers, some specials (±0, ±inf, NaN, ±1, 65504); integers half small (-9…9) half random
// bits; bool 0/1.
inline uint64_t random_bits(DType t, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> uni(-3, 3);
    std::uniform_int_distribution<int> pct(0, 99), small(-9, 9);
    if (dtype_is_float(t)) {
        int p = pct(rng);
        static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 65504.0, 0.5};
        double v = p < 85 ? uni(rng) : p < 92 ? double(small(rng)) : specials[size_t(pct(rng)) % 9];
        return kernel::bits_from_double(t, v);
    }
    if (t == DType::bool_) return rng() & 1;
    if (pct(rng) < 50) return kernel::bits_from_int(t, small(rng));
    size_t n = dtype_size(t);
    uint64_t r = rng();
    return n == 8 ? r : r & ((uint64_t(1) << (8 * n)) - 1);
}

inline std::vector<uint8_t> random_buffer(DType t, size_t elements, std::mt19937_64& rng) {
    size_t sz = dtype_size(t);
    std::vector<uint8_t> b(elements * sz + 1);  // +1: never empty
    for (size_t i = 0; i < elements; ++i) {
        uint64_t bits = random_bits(t, rng);
        std::memcpy(b.data() + i * sz, &bits, sz);
    }
    return b;
}

}  // namespace zyx::host_test
