// Element types and the exact conversions between f32 and the 16-bit float formats.
//
// Rounding of f32 → 16-bit (documented in docs/numerics.md):
//   NearestEven      IEEE default; what host code (PyTorch, tt-metal's bfloat16(float)) does.
//   TowardZero       drop the low bits; what an SFPU store into 16-bit DST does.
//   NearestTiesAway  round half away from zero; what the Tensix packer does (FP32 DST → BF16).
// NaN stays NaN (quiet, sign kept) under every mode; ±inf stays ±inf. Values too large for the
// target become ±inf under NearestEven/NearestTiesAway and the largest finite value under
// TowardZero (IEEE rule for rounding toward zero). Denormals are kept (f16 has its own subnormal
// range); hardware-specific flushing is done by the emulator's packer, not here.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace zyx {

enum class DType : uint8_t {
    f64,
    f32,
    f16,
    bf16,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    bool_,
};
inline constexpr int kNumDTypes = 13;

// Bytes per element (bool is one byte holding 0 or 1).
constexpr size_t dtype_size(DType t) {
    switch (t) {
        case DType::f64:
        case DType::i64:
        case DType::u64: return 8;
        case DType::f32:
        case DType::i32:
        case DType::u32: return 4;
        case DType::f16:
        case DType::bf16:
        case DType::i16:
        case DType::u16: return 2;
        case DType::i8:
        case DType::u8:
        case DType::bool_: return 1;
    }
    return 0;
}
constexpr bool dtype_is_float(DType t) {
    return t == DType::f64 || t == DType::f32 || t == DType::f16 || t == DType::bf16;
}
constexpr bool dtype_is_signed_int(DType t) {
    return t == DType::i8 || t == DType::i16 || t == DType::i32 || t == DType::i64;
}
constexpr bool dtype_is_unsigned_int(DType t) {
    return t == DType::u8 || t == DType::u16 || t == DType::u32 || t == DType::u64;
}
constexpr bool dtype_is_int(DType t) { return dtype_is_signed_int(t) || dtype_is_unsigned_int(t); }

// "f32", "bf16", "bool", …
std::string_view dtype_name(DType t);
// Inverse of dtype_name; returns false for an unknown name.
bool dtype_from_name(std::string_view name, DType* out);

enum class Rounding : uint8_t { NearestEven, TowardZero, NearestTiesAway };

inline uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float f32_from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// bf16 is the upper half of an f32.
inline float bf16_to_f32(uint16_t h) { return f32_from_bits(uint32_t(h) << 16); }

inline uint16_t f32_to_bf16(float f, Rounding r = Rounding::NearestEven) {
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);  // NaN → quiet NaN
    uint32_t lower = u & 0xffffu;
    uint32_t upper = u >> 16;
    switch (r) {
        case Rounding::TowardZero: return uint16_t(upper);
        case Rounding::NearestTiesAway: upper += (lower >= 0x8000u); break;
        case Rounding::NearestEven: upper += (lower > 0x8000u) || (lower == 0x8000u && (upper & 1u)); break;
    }
    return uint16_t(upper);  // a carry into the exponent correctly yields inf on overflow
}

inline float f16_to_f32(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f) return f32_from_bits(sign | 0x7f800000u | (man << 13));  // inf / NaN
    if (exp == 0) {
        if (man == 0) return f32_from_bits(sign);
        // subnormal: value = man * 2^-24, exact in f32
        float v = float(man) * (1.0f / 16777216.0f);
        return sign ? -v : v;
    }
    return f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

inline uint16_t f32_to_f16(float f, Rounding r = Rounding::NearestEven) {
    uint32_t u = f32_bits(f);
    uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN
    if (abs == 0x7f800000u) return uint16_t(sign | 0x7c00u);
    uint32_t man, shift, base;              // significand, bits to drop from it, f16 exponent field
    if (abs < 0x38800000u) {                // below the smallest f16 normal (2^-14): f16 subnormal m * 2^-24
        if ((abs >> 23) == 0) return sign;  // zero or f32 denormal: far below f16's range
        int32_t exp = int32_t(abs >> 23) - 127;
        man = (abs & 0x7fffffu) | 0x800000u;
        shift = uint32_t(-(exp + 1));  // >= 14
        if (shift > 24) return sign;   // below half the smallest subnormal in every mode
        base = 0;
    } else {
        man = abs & 0x7fffffu;
        shift = 13;
        base = (abs >> 23) - 127 + 15;
    }
    uint32_t kept = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    bool up = false;
    switch (r) {
        case Rounding::TowardZero: up = false; break;
        case Rounding::NearestTiesAway: up = rem >= half; break;
        case Rounding::NearestEven: up = rem > half || (rem == half && (kept & 1u)); break;
    }
    uint32_t bits = (base << 10) + kept + (up ? 1u : 0u);  // carries roll into the exponent
    if (bits >= 0x7c00u) return uint16_t(sign | (r == Rounding::TowardZero ? 0x7bffu : 0x7c00u));
    return uint16_t(sign | bits);
}

}  // namespace zyx
