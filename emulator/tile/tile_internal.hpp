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

// True when DenormalsAreZero really sets the host's MXCSR (x86 with SSE). Code that relies on
// it for its denormal inputs flushes them itself when this is false.
#if defined(__SSE__)
inline constexpr bool kHostDenormalsAreZero = true;
#else
inline constexpr bool kHostDenormalsAreZero = false;
#endif

// For the duration of an op, the host FPU reads denormal inputs as zeros of their sign (MXCSR
// DAZ) and, with `flush_results` (the default), writes denormal results as zeros of their sign
// (FTZ): what the Tensix matrix unit does. DAZ applies to every SSE/AVX floating-point source
// operand (arithmetic, comparisons, conversions), not to bitwise moves or integer ops on the
// bits. FTZ decides "denormal" before the final rounding to the denormal grid, so a product or
// quotient whose exact value lies in [2^-126 − 2^-150, 2^-126) becomes 0, where IEEE rounding
// then flushing gives 2^-126 (sums and differences are exact there: no difference). Restores
// MXCSR on exit, so nothing leaks into the caller's thread. Without SSE the flag setting is
// skipped.
class DenormalsAreZero {
public:
#if defined(__SSE__)
    explicit DenormalsAreZero(bool flush_results = true) : saved_(_mm_getcsr()) {
        _mm_setcsr(saved_ | (flush_results ? 0x8040u : 0x0040u));
    }
    ~DenormalsAreZero() { _mm_setcsr(saved_); }
#else
    explicit DenormalsAreZero(bool = true) {}
#endif
    DenormalsAreZero(const DenormalsAreZero&) = delete;
    DenormalsAreZero& operator=(const DenormalsAreZero&) = delete;

private:
#if defined(__SSE__)
    unsigned saved_;
#endif
};

}  // namespace zyx::emu::tile::detail
