// Seeded random buffer contents for every dtype, with the special values that find bugs.
#pragma once

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernel/kernel.hpp"

namespace zyx::host_test {

// NaN number `variant` (0-4) of float dtype t: quiet +NaN, quiet -NaN, quiet NaNs with a payload
// of either sign, a signalling -NaN with a payload. A bitcast of the load keeps these bits; one of
// a value computed from them reads the canonical NaN (docs/ir.md §4).
inline uint64_t nan_bits(DType t, int variant) {
    uint64_t quiet = kernel::canonical_nan_bits(t);
    uint64_t sign = uint64_t(1) << (8 * dtype_size(t) - 1);
    uint64_t payload = t == DType::f64 ? 0x123456789ull : t == DType::f32 ? 0x12345u : 0x15u;
    uint64_t quiet_bit = t == DType::f64 ? uint64_t(1) << 51
        : t == DType::f32                ? 1u << 22
        : t == DType::f16                ? 1u << 9
                                         : 1u << 6;
    switch (variant) {
        case 0: return quiet;
        case 1: return quiet | sign;
        case 2: return quiet | payload;
        case 3: return quiet | payload | sign;
        default: return (quiet & ~quiet_bit) | payload | sign;
    }
}

// Raw bits of one random value of dtype t: floats mostly uniform in [-3, 3], some small
// integers, some specials (±0, ±inf, NaNs of either sign with and without a payload, ±1, 65504);
// integers half small (-9…9) half random bits; bool 0/1.
inline uint64_t random_bits(DType t, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> uni(-3, 3);
    std::uniform_int_distribution<int> pct(0, 99), small(-9, 9);
    if (dtype_is_float(t)) {
        int p = pct(rng);
        static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 65504.0, 0.5};
        if (p < 85) return kernel::bits_from_double(t, uni(rng));
        if (p < 92) return kernel::bits_from_double(t, double(small(rng)));
        int s = pct(rng);  // (the NaN variant comes from this draw too: the stream stays as it was)
        if (std::isnan(specials[size_t(s) % 9])) return nan_bits(t, (s / 9) % 5);
        return kernel::bits_from_double(t, specials[size_t(s) % 9]);
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
