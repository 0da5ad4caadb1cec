// Helpers shared by the tile_*.cpp files. Not part of the contract (tile_math.hpp is).
#pragma once

#include <bit>
#include <cstdint>

#include "tile_math.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace zyx::emu::tile::detail {

inline uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }
inline float float_of(uint32_t u) { return std::bit_cast<float>(u); }

// Tensix arithmetic reads an fp32 denormal as zero and never writes one (tt-isa-documentation,
// FloatBitPatterns.md): a denormal becomes a zero of the same sign.
inline float flush_denormal(float x) {
    uint32_t u = bits_of(x);
    return (u & 0x7f800000u) == 0 ? float_of(u & 0x80000000u) : x;
}

// Throws Error(Unsupported, "Unsupported: tile::<fn>: data format <name> (<code>) …").
[[noreturn]] void throw_unsupported_format(const char* fn, DataFormat f);

// For the duration of an FPU op, the host FPU reads denormal inputs as zero and flushes denormal
// results (MXCSR DAZ + FTZ), which is what the Tensix matrix unit does. Restores MXCSR on exit,
// so nothing leaks into the caller's thread. Without SSE the flag setting is skipped.
class DenormalsAreZero {
public:
#if defined(__SSE__)
    DenormalsAreZero() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8040u); }
    ~DenormalsAreZero() { _mm_setcsr(saved_); }
#else
    DenormalsAreZero() = default;
#endif
    DenormalsAreZero(const DenormalsAreZero&) = delete;
    DenormalsAreZero& operator=(const DenormalsAreZero&) = delete;

private:
#if defined(__SSE__)
    unsigned saved_;
#endif
};

}  // namespace zyx::emu::tile::detail
