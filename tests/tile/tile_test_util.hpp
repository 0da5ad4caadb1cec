// Small helpers shared by the tile-math tests: aligned tiles, bit casts, random bf16 values.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tile_math.hpp"

namespace tile_test {

struct alignas(64) Tile {
    float v[1024] = {};
    float& at(int r, int c) { return v[r * 32 + c]; }
    float at(int r, int c) const { return v[r * 32 + c]; }
};

inline uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// A random value exactly representable in bf16, magnitude in [2^lo, 2^hi).
inline float random_bf16(std::mt19937& rng, int lo = -4, int hi = 4) {
    std::uniform_int_distribution<int> e(lo, hi - 1), m(0, 127), s(0, 1);
    float v = std::ldexp(1.0f + float(m(rng)) / 128.0f, e(rng));
    return s(rng) ? -v : v;
}

inline Tile random_bf16_tile(std::mt19937& rng, int lo = -4, int hi = 4) {
    Tile t;
    for (float& x : t.v) x = random_bf16(rng, lo, hi);
    return t;
}

}  // namespace tile_test
