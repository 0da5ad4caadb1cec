// L1 ↔ register conversions: unpack_tile, pack_tile, dest16_round, typecast, fill.
// Every rule here and its source is listed in docs/numerics.md.
#include <cmath>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"

namespace zyx::emu::tile {

using detail::bits_of;
using detail::float_of;

namespace detail {

const char* format_name(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: return "Float32";
        case DataFormat::Float16: return "Float16";
        case DataFormat::Bfp8: return "Bfp8";
        case DataFormat::Float16_b: return "Float16_b";
        case DataFormat::Bfp8_b: return "Bfp8_b";
        case DataFormat::Int32: return "Int32";
        case DataFormat::UInt16: return "UInt16";
        case DataFormat::UInt32: return "UInt32";
        case DataFormat::UInt8: return "UInt8";
        case DataFormat::Invalid: return "Invalid";
    }
    return "unknown";
}

void throw_unsupported_format(const char* fn, DataFormat f) {
    throw Error(ErrorStatus::Unsupported,
                std::string("Unsupported: tile::") + fn + ": data format " + format_name(f) + " (" +
                    std::to_string(unsigned(f)) + ") is not implemented by the emulator's tile math");
}

}  // namespace detail

namespace {

// ---- face order ----------------------------------------------------------------------------
// L1 holds a tile as four 16×16 faces (f0 top-left, f1 top-right, f2 bottom-left, f3
// bottom-right), each row-major. Face f, row rr starts at L1 datum f*256 + rr*16 and holds
// tile row (f/2)*16 + rr, columns (f%2)*16 … +15.
constexpr uint32_t face_row_l1(uint32_t f, uint32_t rr) { return f * 256 + rr * 16; }
constexpr uint32_t face_row_tile(uint32_t f, uint32_t rr) {
    return ((f >> 1) * 16 + rr) * kTileDim + (f & 1) * 16;
}

// Calls convert(l1_row, tile_row) for each of the 64 face rows (16 datums each).
template <class Convert>
inline void for_each_face_row(Convert convert) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr) convert(face_row_l1(f, rr), face_row_tile(f, rr));
}

// ---- packer early conversion (FP32 Dst → 16-bit), Packers/FormatConversion.md ---------------
// Round to BF16: nearest, ties away from zero; denormals and −0 → +0; NaN → inf of its sign.
inline uint16_t packer_bf16(uint32_t u) {
    uint32_t s = u & 0x80000000u;
    uint32_t a = u & 0x7fffffffu;
    a = a > 0x7f800000u ? 0x7f800000u : a;  // NaN → inf
    s = a < 0x00800000u ? 0u : s;           // denormal or zero → +0
    a = a < 0x00800000u ? 0u : a;
    return uint16_t((s | (a + 0x8000u)) >> 16);  // a carry into the exponent gives inf
}

// FP32 → Tensix FP16 in L1: early conversion rounds to TF32 (ties away, denormals and −0 → +0,
// NaN → inf), the late conversion narrows the exponent: exponent 31 is an ordinary binade on
// Tensix (max 131008 = 0x7fff), larger values and inf saturate to 0x7fff; values below 2^-14
// flush to +0 (the ISA doc flushes |x| ≤ 2^-15 and "mishandles" 2^-15 < |x| < 2^-14).
inline uint16_t packer_fp16(uint32_t u) {
    uint32_t s = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7fffffffu;
    a = a > 0x7f800000u ? 0x7f800000u : a;   // NaN → inf
    a = (a + 0x1000u) & 0xffffe000u;         // TF32, ties away (inf stays inf)
    uint32_t h = a >= 0x48000000u ? 0x7fffu : ((a - 0x38000000u) >> 13);
    return a < 0x38800000u ? uint16_t(0) : uint16_t(s | h);
}

// Tensix FP16 → fp32: exponent 0 reads as a zero of its sign, exponent 31 as 2^16 · 1.m.
inline uint32_t fp16_to_f32_bits(uint16_t h) {
    uint32_t s = uint32_t(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    return e == 0 ? s : (s | ((e + 112u) << 23) | (m << 13));
}

// ---- BFP8_b (FloatBitPatterns.md "BFP", host pack_as_bfp_tiles for the layout) --------------
// Tile = 64 exponent bytes (face 0 rows 0…15, face 1, face 2, face 3) then 1024 datum bytes in
// face order. Datum = sign bit + 7-bit magnitude, value = ±mag/64 · 2^(exp−127).
constexpr uint32_t kBfpExpBytes = 64;

// Hardware BFP8 → BF16 expansion (FloatBitPatterns.md "Conversion routines"): sign with zero
// magnitude is −inf; the exponent is decremented by the magnitude's leading zeros modulo 256.
inline uint16_t bfp8_to_bf16(uint8_t datum, uint8_t exp) {
    uint32_t sign = datum >> 7;
    uint32_t mag = uint32_t(datum << 1) & 0xffu;
    if (mag == 0) return sign ? 0xff80u : 0u;
    uint32_t lz = uint32_t(__builtin_clz(mag)) - 24u;
    mag = (mag << lz) & 0xffu;
    uint32_t e = uint32_t(exp - lz) & 0xffu;
    return uint16_t((sign << 15) | (e << 7) | (mag & 0x7eu));
}

// One block of 16 datums: packer BF16 rounding, shared exponent = largest BF16 exponent, each
// magnitude (1.m · 2^(e−shared)) · 64 rounded to nearest with ties away and saturated at 127.
void pack_bfp8_block(const float* in, uint8_t* exp_out, uint8_t* datums) {
    uint16_t h[16];
    uint32_t max_e = 0;
    for (int i = 0; i < 16; ++i) {
        h[i] = packer_bf16(bits_of(in[i]));
        uint32_t e = (h[i] >> 7) & 0xffu;
        max_e = e > max_e ? e : max_e;
    }
    *exp_out = uint8_t(max_e);
    for (int i = 0; i < 16; ++i) {
        uint32_t e = (h[i] >> 7) & 0xffu;
        if (e == 0) { datums[i] = 0; continue; }
        uint32_t full = 0x80u | (h[i] & 0x7fu);  // 1.mmmmmmm as an 8-bit integer
        uint32_t shift = max_e - e + 1;          // full / 2^shift = magnitude
        uint32_t mag = shift >= 9 ? 0u : (full + (1u << (shift - 1))) >> shift;
        mag = mag > 127u ? 127u : mag;
        datums[i] = mag == 0 ? 0 : uint8_t(((h[i] >> 8) & 0x80u) | mag);
    }
}

}  // namespace

// ---- unpack ----------------------------------------------------------------------------------

void unpack_tile(DataFormat fmt, const void* l1, float* out, bool tf32_src) {
    switch (fmt) {
        case DataFormat::Float16_b: {
            const uint16_t* src = static_cast<const uint16_t*>(l1);
            for_each_face_row([&](uint32_t s, uint32_t d) {
                for (uint32_t i = 0; i < 16; ++i) out[d + i] = float_of(uint32_t(src[s + i]) << 16);
            });
            return;
        }
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: {
            const uint32_t* src = static_cast<const uint32_t*>(l1);
            // SrcA/SrcB hold TF32: the unpacker drops the low 13 mantissa bits (SrcASrcB.md).
            const uint32_t mask = (tf32_src && fmt == DataFormat::Float32) ? 0xffffe000u : 0xffffffffu;
            for_each_face_row([&](uint32_t s, uint32_t d) {
                for (uint32_t i = 0; i < 16; ++i) out[d + i] = float_of(src[s + i] & mask);
            });
            return;
        }
        case DataFormat::Float16: {
            const uint16_t* src = static_cast<const uint16_t*>(l1);
            for_each_face_row([&](uint32_t s, uint32_t d) {
                for (uint32_t i = 0; i < 16; ++i) out[d + i] = float_of(fp16_to_f32_bits(src[s + i]));
            });
            return;
        }
        case DataFormat::UInt16: {
            const uint16_t* src = static_cast<const uint16_t*>(l1);
            for_each_face_row([&](uint32_t s, uint32_t d) {
                for (uint32_t i = 0; i < 16; ++i) out[d + i] = float_of(uint32_t(src[s + i]));
            });
            return;
        }
        case DataFormat::UInt8: {
            const uint8_t* src = static_cast<const uint8_t*>(l1);
            for_each_face_row([&](uint32_t s, uint32_t d) {
                for (uint32_t i = 0; i < 16; ++i) out[d + i] = float_of(uint32_t(src[s + i]));
            });
            return;
        }
        case DataFormat::Bfp8_b: {
            const uint8_t* exps = static_cast<const uint8_t*>(l1);
            const uint8_t* datums = exps + kBfpExpBytes;
            for_each_face_row([&](uint32_t s, uint32_t d) {
                uint8_t e = exps[s / 16];
                for (uint32_t i = 0; i < 16; ++i)
                    out[d + i] = float_of(uint32_t(bfp8_to_bf16(datums[s + i], e)) << 16);
            });
            return;
        }
        default: break;
    }
    detail::throw_unsupported_format("unpack_tile", fmt);
}

// ---- pack ------------------------------------------------------------------------------------

void pack_tile(DataFormat fmt, const float* in, void* l1) {
    switch (fmt) {
        case DataFormat::Float16_b: {
            uint16_t* dst = static_cast<uint16_t*>(l1);
            for_each_face_row([&](uint32_t d, uint32_t s) {
                for (uint32_t i = 0; i < 16; ++i) dst[d + i] = packer_bf16(bits_of(in[s + i]));
            });
            return;
        }
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: {
            uint32_t* dst = static_cast<uint32_t*>(l1);
            for_each_face_row([&](uint32_t d, uint32_t s) {
                for (uint32_t i = 0; i < 16; ++i) dst[d + i] = bits_of(in[s + i]);
            });
            return;
        }
        case DataFormat::Float16: {
            uint16_t* dst = static_cast<uint16_t*>(l1);
            for_each_face_row([&](uint32_t d, uint32_t s) {
                for (uint32_t i = 0; i < 16; ++i) dst[d + i] = packer_fp16(bits_of(in[s + i]));
            });
            return;
        }
        case DataFormat::UInt16: {
            uint16_t* dst = static_cast<uint16_t*>(l1);
            for_each_face_row([&](uint32_t d, uint32_t s) {
                for (uint32_t i = 0; i < 16; ++i) dst[d + i] = uint16_t(bits_of(in[s + i]));
            });
            return;
        }
        case DataFormat::UInt8: {
            uint8_t* dst = static_cast<uint8_t*>(l1);
            for_each_face_row([&](uint32_t d, uint32_t s) {
                for (uint32_t i = 0; i < 16; ++i) dst[d + i] = uint8_t(bits_of(in[s + i]));
            });
            return;
        }
        case DataFormat::Bfp8_b: {
            uint8_t* exps = static_cast<uint8_t*>(l1);
            uint8_t* datums = exps + kBfpExpBytes;
            for_each_face_row([&](uint32_t d, uint32_t s) { pack_bfp8_block(in + s, exps + d / 16, datums + d); });
            return;
        }
        default: break;
    }
    detail::throw_unsupported_format("pack_tile", fmt);
}

// ---- 16-bit DST ------------------------------------------------------------------------------

namespace {

// Rounds f32 bits to `keep` mantissa bits (drop = 23 − keep) in mode r. NaN is left to callers.
inline uint32_t round_mantissa(uint32_t u, uint32_t drop, Rounding r) {
    const uint32_t mask = ~((1u << drop) - 1u);
    const uint32_t half = 1u << (drop - 1);
    switch (r) {
        case Rounding::TowardZero: return u & mask;
        case Rounding::NearestTiesAway: return (u + half) & mask;
        case Rounding::NearestEven: return (u + half - 1u + ((u >> drop) & 1u)) & mask;
    }
    return u & mask;
}

// A value written to a BF16 DST: rounded in mode r (a carry into the exponent yields inf;
// truncation, what SFPSTORE does, never carries), NaN stays NaN (quiet), a result in the
// denormal range becomes a zero of its sign (Dst.md, FloatBitPatterns.md).
inline uint32_t dst_bf16(uint32_t u, Rounding r) {
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (u | 0x00400000u) & 0xffff0000u;
    uint32_t v = round_mantissa(u, 16, r);
    return (v & 0x7f800000u) == 0 ? (v & 0x80000000u) : v;
}

// A value written to an FP16 DST (Tensix FP16: no NaN/inf, exponent 31 is a normal binade):
// rounded to 10 mantissa bits in mode r, saturated at ±131008, NaN and ±inf → ±131008,
// magnitudes below 2^-14 → zero of the same sign.
inline uint32_t dst_fp16(uint32_t u, Rounding r) {
    uint32_t s = u & 0x80000000u;
    uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) return s | 0x47ffe000u;
    a = round_mantissa(a, 13, r);
    a = a > 0x47ffe000u ? 0x47ffe000u : a;
    return a < 0x38800000u ? s : (s | a);
}

}  // namespace

void dest16_round(DataFormat fmt, float* t, Rounding r) {
    if (fmt == DataFormat::Float16_b) {
        for (uint32_t i = 0; i < kTileElems; ++i) t[i] = float_of(dst_bf16(bits_of(t[i]), r));
        return;
    }
    if (fmt == DataFormat::Float16) {
        for (uint32_t i = 0; i < kTileElems; ++i) t[i] = float_of(dst_fp16(bits_of(t[i]), r));
        return;
    }
    detail::throw_unsupported_format("dest16_round (16-bit DST is Float16_b or Float16)", fmt);
}

// ---- typecast --------------------------------------------------------------------------------

namespace {

enum class NumKind { Float, Integer, Other };

NumKind kind_of(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: case DataFormat::Float16: case DataFormat::Float16_b:
        case DataFormat::Bfp8_b:
            return NumKind::Float;
        case DataFormat::Int32: case DataFormat::UInt32: case DataFormat::UInt16: case DataFormat::UInt8:
            return NumKind::Integer;
        default: return NumKind::Other;
    }
}

// Range of an integer format as int64.
void int_range(DataFormat f, int64_t* lo, int64_t* hi) {
    switch (f) {
        case DataFormat::Int32: *lo = INT32_MIN; *hi = INT32_MAX; return;
        case DataFormat::UInt32: *lo = 0; *hi = UINT32_MAX; return;
        case DataFormat::UInt16: *lo = 0; *hi = UINT16_MAX; return;
        default: *lo = 0; *hi = UINT8_MAX; return;  // UInt8
    }
}

// Integer DST word of format f as a number (Int32 is two's complement; unsigned formats are
// zero-extended words, narrowed to their width).
int64_t int_value(DataFormat f, uint32_t w) {
    switch (f) {
        case DataFormat::Int32: return int32_t(w);
        case DataFormat::UInt32: return w;
        case DataFormat::UInt16: return w & 0xffffu;
        default: return w & 0xffu;
    }
}

// Rounds a float to the DST representation of float format f (after an int → float cast).
float to_float_format(DataFormat f, double v) {
    float x = float(v);  // round to nearest even
    if (f == DataFormat::Float16_b || f == DataFormat::Bfp8_b)
        return float_of(dst_bf16(bits_of(x), Rounding::NearestEven));
    if (f == DataFormat::Float16) return float_of(dst_fp16(bits_of(x), Rounding::NearestEven));
    return x;
}

}  // namespace

void typecast(DataFormat in, DataFormat out, float* t) {
    const NumKind ki = kind_of(in), ko = kind_of(out);
    if (ki == NumKind::Other) detail::throw_unsupported_format("typecast (input)", in);
    if (ko == NumKind::Other) detail::throw_unsupported_format("typecast (output)", out);
    if (ki == NumKind::Float && ko == NumKind::Float) return;  // the unpacker/packer convert

    int64_t lo = 0, hi = 0;
    if (ko == NumKind::Integer) int_range(out, &lo, &hi);
    for (uint32_t i = 0; i < kTileElems; ++i) {
        if (ki == NumKind::Float) {
            // float → integer: nearest even, saturate; NaN → 0.
            float x = t[i];
            int64_t v = 0;
            if (!std::isnan(x)) {
                double r = std::nearbyint(double(x));
                v = r <= double(lo) ? lo : r >= double(hi) ? hi : int64_t(r);
            }
            t[i] = float_of(uint32_t(v));
        } else if (ko == NumKind::Integer) {
            int64_t v = int_value(in, bits_of(t[i]));
            v = v < lo ? lo : v > hi ? hi : v;
            t[i] = float_of(uint32_t(v));
        } else {
            t[i] = to_float_format(out, double(int_value(in, bits_of(t[i]))));
        }
    }
}

// ---- fill ------------------------------------------------------------------------------------

void fill(float* t, float v) {
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = v;
}

void fill_bits(float* t, uint32_t bits) { fill(t, float_of(bits)); }

}  // namespace zyx::emu::tile
