// tt-metal's host tile-layout helpers used by its programming examples
// (tt-metalium/tilize_utils.hpp): tilize_nfaces turns a row-major m × n matrix (or a batch of
// them, back to back) into 32 × 32 tiles in row-major tile order, each tile as four 16 × 16
// faces (f0 top-left, f1 top-right, f2 bottom-left, f3 bottom-right), each face row-major — the
// layout the Tensix unpacker reads; untilize_nfaces is its inverse. m and n must be multiples of
// 32 and input.size() a multiple of m × n (TT_FATAL otherwise).
#pragma once

#include <cstdint>
#include <vector>

#include <tt-metalium/assert.hpp>
#include <tt-metalium/constants.hpp>

namespace tilize_utils_detail {
// Index in the tiled layout of element (r, c) of an m × n matrix (n a multiple of 32).
inline size_t tiled_index(uint32_t r, uint32_t c, uint32_t n) {
    using namespace tt::constants;
    size_t tile = size_t(r / TILE_HEIGHT) * (n / TILE_WIDTH) + c / TILE_WIDTH;
    uint32_t tr = r % TILE_HEIGHT, tc = c % TILE_WIDTH;
    uint32_t face = (tr / FACE_HEIGHT) * 2 + tc / FACE_WIDTH;
    return tile * TILE_HW + face * FACE_HW + (tr % FACE_HEIGHT) * FACE_WIDTH + tc % FACE_WIDTH;
}
inline void check(size_t size, uint32_t m, uint32_t n) {
    TT_FATAL(size > 0 && m > 0 && n > 0, "None of the input size, m, nor n can be 0");
    TT_FATAL(size % (size_t(m) * n) == 0, "Input size must be divisible by m  and n");
    TT_FATAL(m % tt::constants::TILE_HEIGHT == 0 && n % tt::constants::TILE_WIDTH == 0,
             "m ({}) and n ({}) must be multiples of 32", m, n);
}
}  // namespace tilize_utils_detail

template <typename T>
std::vector<T> tilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    tilize_utils_detail::check(input.size(), m, n);
    std::vector<T> out(input.size());
    size_t mat = size_t(m) * n;
    for (size_t b = 0; b < input.size() / mat; ++b)
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t c = 0; c < n; ++c)
                out[b * mat + tilize_utils_detail::tiled_index(r, c, n)] = input[b * mat + size_t(r) * n + c];
    return out;
}

template <typename T>
std::vector<T> untilize_nfaces(const std::vector<T>& input, uint32_t m, uint32_t n) {
    tilize_utils_detail::check(input.size(), m, n);
    std::vector<T> out(input.size());
    size_t mat = size_t(m) * n;
    for (size_t b = 0; b < input.size() / mat; ++b)
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t c = 0; c < n; ++c)
                out[b * mat + size_t(r) * n + c] = input[b * mat + tilize_utils_detail::tiled_index(r, c, n)];
    return out;
}
