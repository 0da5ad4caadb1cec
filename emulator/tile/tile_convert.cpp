// L1 ↔ register conversions: unpack_tile, pack_tile, dest16_round, typecast, fill.
// Every rule here and its source is listed in docs/numerics.md.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_internal.hpp"
#include "tile_simd.hpp"

namespace zyx::emu::tile {

using detail::bits_of;
using detail::float_of;

namespace detail {

void throw_unsupported_format(const char* fn, DataFormat f) {
    throw Error(ErrorStatus::Unsupported,
                std::string("Unsupported: tile::") + fn + ": data format " + std::string(data_format_name(f)) + " (" +
                    std::to_string(unsigned(f)) + ") is not implemented by the emulator's tile math");
}

}  // namespace detail

namespace {

// ---- face order ----------------------------------------------------------------------------
// L1 holds a tile as four 16×16 faces (f0 top-left, f1 top-right, f2 bottom-left, f3
// bottom-right), each row-major. Face f, row rr starts at L1 datum f*256 + rr*16 and holds
// tile row (f/2)*16 + rr, columns (f%2)*16 … +15.
constexpr uint32_t face_row_l1(uint32_t f, uint32_t rr) { return f * 256 + rr * 16; }
constexpr uint32_t face_row_tile(uint32_t f, uint32_t rr) { return ((f >> 1) * 16 + rr) * kTileDim + (f & 1) * 16; }

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
    a = a > 0x7f800000u ? 0x7f800000u : a;  // NaN → inf
    a = (a + 0x1000u) & 0xffffe000u;        // TF32, ties away (inf stays inf)
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

// ---- AVX-512 forms of the hot 16-bit conversions -------------------------------------------------
// One face row (16 datums) per call; bit for bit the same as packer_bf16 / packer_fp16 /
// fp16_to_f32_bits above (the tests run whichever form the build uses). The compiler does not
// vectorise the scalar forms reliably, and these run for every tile the emulator moves.
#if defined(__AVX512F__)
// vpternlogd 0xEC computes (A & C) | B; Zen 4 runs 512-bit ops in two halves, so fewer ops
// per row is what makes these fast.
#if defined(__AVX512BW__)
// Two face rows at once (tile rows r and r + 1, 32 contiguous L1 datums): one word permute takes
// the high halves of both registers, instead of narrowing each row on its own (measured 69 ns →
// 60 ns per tile on Zen 4).
inline __m512i hi16_of_pair(__m512i a, __m512i b) {
    const __m512i idx = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27, 25,
                                         23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
    return _mm512_permutex2var_epi16(a, idx, b);
}
// packer_bf16 before the final >> 16: sign | min(|u|, inf) + 0x8000; `keep` is false where the
// result flushes to +0.
inline __m512i bf16_biased(__m512i u, __mmask16* keep) {
    const __m512i a = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    const __m512i m = _mm512_min_epu32(a, _mm512_set1_epi32(0x7f800000));
    *keep = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x00800000));
    return _mm512_add_epi32(_mm512_ternarylogic_epi32(u, m, _mm512_set1_epi32(int(0x80000000u)), 0xEC),
                            _mm512_set1_epi32(0x8000));
}
inline void row_pair_pack_bf16(const float* in, uint16_t* out) {
    __mmask16 k0, k1;
    const __m512i x0 = bf16_biased(_mm512_loadu_si512(in), &k0);
    const __m512i x1 = bf16_biased(_mm512_loadu_si512(in + kTileDim), &k1);
    _mm512_storeu_si512(out, _mm512_maskz_mov_epi16(_mm512_kunpackw(k1, k0), hi16_of_pair(x0, x1)));
}
#endif

inline void row_pack_bf16(const float* in, uint16_t* out) {
    const __m512i u = _mm512_loadu_si512(in);
    const __m512i a = _mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff));
    const __m512i m = _mm512_min_epu32(a, _mm512_set1_epi32(0x7f800000));                          // NaN → inf
    const __m512i x = _mm512_ternarylogic_epi32(u, m, _mm512_set1_epi32(int(0x80000000u)), 0xEC);  // sign | m
    const __mmask16 keep = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x00800000));              // else +0
    const __m512i r = _mm512_maskz_srli_epi32(keep, _mm512_add_epi32(x, _mm512_set1_epi32(0x8000)), 16);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvtepi32_epi16(r));
}

inline void row_pack_fp16(const float* in, uint16_t* out) {
    const __m512i u = _mm512_loadu_si512(in);
    __m512i a = _mm512_min_epu32(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
    a = _mm512_and_si512(_mm512_add_epi32(a, _mm512_set1_epi32(0x1000)), _mm512_set1_epi32(int(0xffffe000u)));
    // Rebias and saturate in one min: values ≥ 2^17 (and inf) give ≥ 0x8000 → 0x7fff; values
    // below 2^-14 wrap but are zeroed by `keep`.
    const __m512i h = _mm512_min_epu32(_mm512_srli_epi32(_mm512_sub_epi32(a, _mm512_set1_epi32(0x38000000)), 13),
                                       _mm512_set1_epi32(0x7fff));
    const __mmask16 keep = _mm512_cmpge_epu32_mask(a, _mm512_set1_epi32(0x38800000));
    const __m512i r =
        _mm512_maskz_ternarylogic_epi32(keep, _mm512_srli_epi32(u, 16), h, _mm512_set1_epi32(0x8000), 0xEC);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvtepi32_epi16(r));
}

inline void row_unpack_fp16(const uint16_t* in, float* out) {
    const __m512i h = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
    const __m512i s = _mm512_slli_epi32(_mm512_and_si512(h, _mm512_set1_epi32(0x8000)), 16);
    const __m512i e = _mm512_and_si512(_mm512_srli_epi32(h, 10), _mm512_set1_epi32(0x1f));
    const __m512i m = _mm512_slli_epi32(_mm512_and_si512(h, _mm512_set1_epi32(0x3ff)), 13);
    __m512i v =
        _mm512_or_si512(s, _mm512_or_si512(_mm512_slli_epi32(_mm512_add_epi32(e, _mm512_set1_epi32(112)), 23), m));
    v = _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512()), s);
    _mm512_storeu_si512(out, v);
}

inline void row_unpack_bf16(const uint16_t* in, float* out) {
    const __m512i h = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
    _mm512_storeu_si512(out, _mm512_slli_epi32(h, 16));
}
#endif

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
void pack_bfp8_block(const float* __restrict in, uint8_t* __restrict exp_out, uint8_t* __restrict datums) {
    uint32_t h[16];
    uint32_t max_e = 0;
    for (int i = 0; i < 16; ++i) {
        h[i] = packer_bf16(bits_of(in[i]));
        uint32_t e = (h[i] >> 7) & 0xffu;
        max_e = e > max_e ? e : max_e;
    }
    *exp_out = uint8_t(max_e);
    for (int i = 0; i < 16; ++i) {
        uint32_t e = (h[i] >> 7) & 0xffu;
        uint32_t full = 0x80u | (h[i] & 0x7fu);  // 1.mmmmmmm as an 8-bit integer
        uint32_t shift = max_e - e + 1;          // magnitude = full / 2^shift, rounded
        shift = shift > 9 ? 9 : shift;           // from 9 on, every 8-bit full rounds to 0
        uint32_t mag = (full + (1u << (shift - 1))) >> shift;
        mag = mag > 127u ? 127u : mag;
        // A zero magnitude is written as +0: sign with magnitude 0 would read back as −inf.
        datums[i] = (e == 0 || mag == 0) ? uint8_t(0) : uint8_t(((h[i] >> 8) & 0x80u) | mag);
    }
}

}  // namespace

// ---- unpack ----------------------------------------------------------------------------------

namespace {

// The 64 face rows of one tile: out[tile position] = float_of(widen(src[L1 position])).
// Each row is 16 contiguous datums on both sides, so the inner loop vectorises; __restrict
// tells the compiler that L1 bytes (uint8_t may alias anything) do not overlap the tile.
template <class L1T, class Widen>
inline void unpack_rows(const L1T* __restrict src, float* __restrict out, Widen widen) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr) {
            const L1T* __restrict s = src + face_row_l1(f, rr);
            float* __restrict d = out + face_row_tile(f, rr);
            for (uint32_t i = 0; i < 16; ++i) d[i] = float_of(widen(s[i]));
        }
}

// The inverse walk: dst[L1 position] = narrow(bits of in[tile position]).
template <class L1T, class Narrow>
inline void pack_rows(const float* __restrict in, L1T* __restrict dst, Narrow narrow) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr) {
            const float* __restrict s = in + face_row_tile(f, rr);
            L1T* __restrict d = dst + face_row_l1(f, rr);
            for (uint32_t i = 0; i < 16; ++i) d[i] = narrow(bits_of(s[i]));
        }
}

// The same walks with a whole-row converter row_fn(l1_row, tile_row) / row_fn(tile_row, l1_row).
template <class L1T, class RowFn>
inline void unpack_rows_with(const L1T* src, float* out, RowFn row_fn) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr) row_fn(src + face_row_l1(f, rr), out + face_row_tile(f, rr));
}
template <class L1T, class RowFn>
inline void pack_rows_with(const float* in, L1T* dst, RowFn row_fn) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr) row_fn(in + face_row_tile(f, rr), dst + face_row_l1(f, rr));
}
// The same with a converter of two face rows: pair_fn(tile rows rr and rr + 1, their 32 L1 datums).
template <class L1T, class PairFn>
inline void pack_row_pairs_with(const float* in, L1T* dst, PairFn pair_fn) {
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; rr += 2) pair_fn(in + face_row_tile(f, rr), dst + face_row_l1(f, rr));
}

}  // namespace

void unpack_tile(DataFormat fmt, const void* l1, float* out, bool tf32_src) {
    switch (fmt) {
        case DataFormat::Float16_b:
#if defined(__AVX512F__)
            unpack_rows_with(static_cast<const uint16_t*>(l1), out,
                             [](const uint16_t* i, float* o) { row_unpack_bf16(i, o); });
#else
            unpack_rows(static_cast<const uint16_t*>(l1), out, [](uint16_t h) { return uint32_t(h) << 16; });
#endif
            return;
        case DataFormat::Float32:
            if (tf32_src) {  // SrcA/SrcB hold TF32: the unpacker drops the low 13 mantissa bits
                unpack_rows(static_cast<const uint32_t*>(l1), out, [](uint32_t u) { return u & 0xffffe000u; });
                return;
            }
            [[fallthrough]];
        case DataFormat::Int32:
        case DataFormat::UInt32:
            unpack_rows(static_cast<const uint32_t*>(l1), out, [](uint32_t u) { return u; });
            return;
        case DataFormat::Float16:
#if defined(__AVX512F__)
            unpack_rows_with(static_cast<const uint16_t*>(l1), out,
                             [](const uint16_t* i, float* o) { row_unpack_fp16(i, o); });
#else
            unpack_rows(static_cast<const uint16_t*>(l1), out, [](uint16_t h) { return fp16_to_f32_bits(h); });
#endif
            return;
        case DataFormat::UInt16:
            unpack_rows(static_cast<const uint16_t*>(l1), out, [](uint16_t h) { return uint32_t(h); });
            return;
        case DataFormat::UInt8:
            unpack_rows(static_cast<const uint8_t*>(l1), out, [](uint8_t b) { return uint32_t(b); });
            return;
        case DataFormat::Bfp8_b: {
            const uint8_t* exps = static_cast<const uint8_t*>(l1);
            const uint8_t* datums = exps + kBfpExpBytes;
            for (uint32_t f = 0; f < 4; ++f)
                for (uint32_t rr = 0; rr < 16; ++rr) {
                    const uint8_t e = exps[f * 16 + rr];
                    const uint8_t* __restrict s = datums + face_row_l1(f, rr);
                    float* __restrict d = out + face_row_tile(f, rr);
                    if (e >= 7 && e <= 254) {
                        // Here the hardware expansion is exact arithmetic: ±mag/64 · 2^(e−127)
                        // (normalising by ≤ 6 leading zeros keeps the exponent ≥ 1), and
                        // sign-with-zero-magnitude is −inf. Branch-free, so it vectorises.
                        const float scale = float_of(uint32_t(e) << 23) * (1.0f / 64.0f);
                        for (uint32_t i = 0; i < 16; ++i) {
                            float mag = float(s[i] & 0x7fu) * scale;
                            float v = (s[i] & 0x80u) ? -mag : mag;
                            d[i] = s[i] == 0x80u ? -std::numeric_limits<float>::infinity() : v;
                        }
                    } else {  // exponent wrap-around and inf/NaN patterns: the bit-level routine
                        for (uint32_t i = 0; i < 16; ++i) d[i] = float_of(uint32_t(bfp8_to_bf16(s[i], e)) << 16);
                    }
                }
            return;
        }
        default: break;
    }
    detail::throw_unsupported_format("unpack_tile", fmt);
}

// ---- pack ------------------------------------------------------------------------------------

void pack_tile(DataFormat fmt, const float* in, void* l1) {
    switch (fmt) {
        case DataFormat::Float16_b:
#if defined(__AVX512BW__)
            pack_row_pairs_with(in, static_cast<uint16_t*>(l1),
                                [](const float* i, uint16_t* o) { row_pair_pack_bf16(i, o); });
#elif defined(__AVX512F__)
            pack_rows_with(in, static_cast<uint16_t*>(l1), [](const float* i, uint16_t* o) { row_pack_bf16(i, o); });
#else
            pack_rows(in, static_cast<uint16_t*>(l1), [](uint32_t u) { return packer_bf16(u); });
#endif
            return;
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: pack_rows(in, static_cast<uint32_t*>(l1), [](uint32_t u) { return u; }); return;
        case DataFormat::Float16:
#if defined(__AVX512F__)
            pack_rows_with(in, static_cast<uint16_t*>(l1), [](const float* i, uint16_t* o) { row_pack_fp16(i, o); });
#else
            pack_rows(in, static_cast<uint16_t*>(l1), [](uint32_t u) { return packer_fp16(u); });
#endif
            return;
        case DataFormat::UInt16:
            pack_rows(in, static_cast<uint16_t*>(l1), [](uint32_t u) { return uint16_t(u); });
            return;
        case DataFormat::UInt8: pack_rows(in, static_cast<uint8_t*>(l1), [](uint32_t u) { return uint8_t(u); }); return;
        case DataFormat::Bfp8_b: {
            uint8_t* exps = static_cast<uint8_t*>(l1);
            uint8_t* datums = exps + kBfpExpBytes;
            for (uint32_t f = 0; f < 4; ++f)
                for (uint32_t rr = 0; rr < 16; ++rr)
                    pack_bfp8_block(in + face_row_tile(f, rr), exps + f * 16 + rr, datums + face_row_l1(f, rr));
            return;
        }
        default: break;
    }
    detail::throw_unsupported_format("pack_tile", fmt);
}

// ---- 16-bit DST ------------------------------------------------------------------------------

namespace {

// Rounds f32 bits to 23 − Drop mantissa bits in mode R (a compile-time mode, so the loops below
// have no branch and vectorise). NaN is left to callers.
template <Rounding R, uint32_t Drop>
inline uint32_t round_mantissa(uint32_t u) {
    constexpr uint32_t mask = ~((1u << Drop) - 1u);
    constexpr uint32_t half = 1u << (Drop - 1);
    if constexpr (R == Rounding::TowardZero) return u & mask;
    if constexpr (R == Rounding::NearestTiesAway) return (u + half) & mask;
    return (u + half - 1u + ((u >> Drop) & 1u)) & mask;  // NearestEven
}

// A value written to a BF16 DST: rounded in mode R (a carry into the exponent yields inf;
// truncation, what SFPSTORE does, never carries), NaN stays NaN (quiet), a result in the
// denormal range becomes a zero of its sign (Dst.md, FloatBitPatterns.md).
template <Rounding R>
inline uint32_t dst_bf16(uint32_t u) {
    uint32_t v = round_mantissa<R, 16>(u);
    v = (v & 0x7f800000u) == 0 ? (v & 0x80000000u) : v;
    return (u & 0x7fffffffu) > 0x7f800000u ? ((u | 0x00400000u) & 0xffff0000u) : v;
}

// A value written to an FP16 DST (Tensix FP16: no NaN/inf, exponent 31 is a normal binade):
// rounded to 10 mantissa bits in mode R, saturated at ±131008, NaN and ±inf → ±131008,
// magnitudes below 2^-14 → zero of the same sign.
template <Rounding R>
inline uint32_t dst_fp16(uint32_t u) {
    uint32_t s = u & 0x80000000u;
    uint32_t a = u & 0x7fffffffu;
    uint32_t r = round_mantissa<R, 13>(a);
    r = (a >= 0x7f800000u || r > 0x47ffe000u) ? 0x47ffe000u : r;
    return r < 0x38800000u ? s : (s | r);
}

template <Rounding R>
void dest16_round_mode(DataFormat fmt, float* __restrict t) {
    if (fmt == DataFormat::Float16_b) {
        for (uint32_t i = 0; i < kTileElems; ++i) t[i] = float_of(dst_bf16<R>(bits_of(t[i])));
    } else {
        for (uint32_t i = 0; i < kTileElems; ++i) t[i] = float_of(dst_fp16<R>(bits_of(t[i])));
    }
}

}  // namespace

void dest16_round(DataFormat fmt, float* t, Rounding r) {
    if (fmt != DataFormat::Float16_b && fmt != DataFormat::Float16)
        detail::throw_unsupported_format("dest16_round (16-bit DST is Float16_b or Float16)", fmt);
    switch (r) {
        case Rounding::NearestEven: dest16_round_mode<Rounding::NearestEven>(fmt, t); return;
        case Rounding::NearestTiesAway: dest16_round_mode<Rounding::NearestTiesAway>(fmt, t); return;
        case Rounding::TowardZero: dest16_round_mode<Rounding::TowardZero>(fmt, t); return;
    }
    throw Error(ErrorStatus::InvalidArgument,
                "tile::dest16_round: unknown rounding mode " + std::to_string(unsigned(r)));
}

// ---- pack of a tile with deferred 16-bit DST rounding ---------------------------------------------

namespace {

// packer_bf16(dst_bf16<NearestEven>(u)) per datum, composed by hand: a scalar form the compiler
// vectorises and a face-row AVX-512 form. Rounding a non-NaN value to nearest even and then
// packing it (now exact, so the packer's ties-away adds nothing) keeps bits 31…16 of
// u + 0x7fff + bit 16 of u, flushed to +0 when the exponent is 0; a NaN stays NaN in DST and
// becomes inf of its sign in the packer.
inline uint16_t pack_bf16_from_dest16_ne(uint32_t u) {
    uint32_t h = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
    h = (h & 0x7f80u) != 0 ? h : 0u;
    uint32_t inf = ((u >> 16) & 0x8000u) | 0x7f80u;
    return uint16_t((u & 0x7fffffffu) > 0x7f800000u ? inf : h);
}

#if defined(__AVX512BW__) && defined(__AVX512DQ__)
// Two face rows at once (see row_pair_pack_bf16; 126 ns → 77 ns per tile on Zen 4).
inline __m512i rne_biased(__m512i u) {
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    return _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd);
}
inline void row_pair_pack_bf16_from_dest16_ne(const float* in, uint16_t* out) {
    const __m512i u0 = _mm512_loadu_si512(in), u1 = _mm512_loadu_si512(in + kTileDim);
    const __m512i h = hi16_of_pair(rne_biased(u0), rne_biased(u1));
    __m512i r = _mm512_maskz_mov_epi16(_mm512_test_epi16_mask(h, _mm512_set1_epi16(0x7f80)), h);
    // NaN (fpclass 0x81: quiet or signalling) → inf of its sign: (u >> 16 & 0x8000) | 0x7f80.
    const __mmask32 nan = _mm512_kunpackw(_mm512_fpclass_ps_mask(_mm512_castsi512_ps(u1), 0x81),
                                          _mm512_fpclass_ps_mask(_mm512_castsi512_ps(u0), 0x81));
    const __m512i inf = _mm512_ternarylogic_epi32(hi16_of_pair(u0, u1), _mm512_set1_epi16(int16_t(0x8000)),
                                                  _mm512_set1_epi16(0x7f80), 0xEA);  // (A & B) | C
    r = _mm512_mask_mov_epi16(r, nan, inf);
    _mm512_storeu_si512(out, r);
}
#endif

#if defined(__AVX512F__)
inline void row_pack_bf16_from_dest16_ne(const float* in, uint16_t* out) {
    const __m512i u = _mm512_loadu_si512(in);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
    const __m512i h = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), odd), 16);
    __m512i r = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(h, _mm512_set1_epi32(0x7f80)), h);
    const __mmask16 nan =
        _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7fffffff)), _mm512_set1_epi32(0x7f800000));
    const __m512i inf = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x8000)),
                                        _mm512_set1_epi32(0x7f80));
    r = _mm512_mask_mov_epi32(r, nan, inf);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm512_cvtepi32_epi16(r));
}
#endif

}  // namespace

void pack_tile_rounded(DataFormat fmt, DataFormat dest_fmt, Rounding r, const float* in, void* l1) {
    if (fmt == DataFormat::Float16_b && dest_fmt == DataFormat::Float16_b && r == Rounding::NearestEven) {
#if defined(__AVX512BW__) && defined(__AVX512DQ__)
        pack_row_pairs_with(in, static_cast<uint16_t*>(l1),
                            [](const float* i, uint16_t* o) { row_pair_pack_bf16_from_dest16_ne(i, o); });
#elif defined(__AVX512F__)
        pack_rows_with(in, static_cast<uint16_t*>(l1),
                       [](const float* i, uint16_t* o) { row_pack_bf16_from_dest16_ne(i, o); });
#else
        pack_rows(in, static_cast<uint16_t*>(l1), [](uint32_t u) { return pack_bf16_from_dest16_ne(u); });
#endif
        return;
    }
    alignas(64) float t[kTileElems];
    std::memcpy(t, in, sizeof t);
    dest16_round(dest_fmt, t, r);
    pack_tile(fmt, t, l1);
}

// ---- typecast --------------------------------------------------------------------------------

namespace {

enum class NumKind { Float, Integer, Other };

NumKind kind_of(DataFormat f) {
    switch (f) {
        case DataFormat::Float32:
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::Bfp8_b: return NumKind::Float;
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::UInt16:
        case DataFormat::UInt8: return NumKind::Integer;
        default: return NumKind::Other;
    }
}

// Range of an integer format as int64.
void int_range(DataFormat f, int64_t* lo, int64_t* hi) {
    switch (f) {
        case DataFormat::Int32:
            *lo = INT32_MIN;
            *hi = INT32_MAX;
            return;
        case DataFormat::UInt32:
            *lo = 0;
            *hi = UINT32_MAX;
            return;
        case DataFormat::UInt16:
            *lo = 0;
            *hi = UINT16_MAX;
            return;
        default:
            *lo = 0;
            *hi = UINT8_MAX;
            return;  // UInt8
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
        return float_of(dst_bf16<Rounding::NearestEven>(bits_of(x)));
    if (f == DataFormat::Float16) return float_of(dst_fp16<Rounding::NearestEven>(bits_of(x)));
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

uint32_t row_major_datum_bytes(DataFormat fmt) {
    switch (fmt) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: return 4;
        case DataFormat::Float16_b:
        case DataFormat::Float16:
        case DataFormat::UInt16: return 2;
        case DataFormat::UInt8: return 1;
        default: return 0;
    }
}

void rows_to_faces(uint32_t datum_bytes, const void* rows, uint32_t row_bytes, void* faces) {
    const auto* src = static_cast<const uint8_t*>(rows);
    auto* dst = static_cast<uint8_t*>(faces);
    const uint32_t half = 16 * datum_bytes;  // one face row
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr)
            std::memcpy(dst + face_row_l1(f, rr) * datum_bytes, src + ((f >> 1) * 16 + rr) * row_bytes + (f & 1) * half,
                        half);
}

void faces_to_rows(uint32_t datum_bytes, const void* faces, void* rows, uint32_t row_bytes) {
    const auto* src = static_cast<const uint8_t*>(faces);
    auto* dst = static_cast<uint8_t*>(rows);
    const uint32_t half = 16 * datum_bytes;
    for (uint32_t f = 0; f < 4; ++f)
        for (uint32_t rr = 0; rr < 16; ++rr)
            std::memcpy(dst + ((f >> 1) * 16 + rr) * row_bytes + (f & 1) * half, src + face_row_l1(f, rr) * datum_bytes,
                        half);
}

void fill(float* t, float v) {
    for (uint32_t i = 0; i < kTileElems; ++i) t[i] = v;
}

void fill_bits(float* t, uint32_t bits) { fill(t, float_of(bits)); }

}  // namespace zyx::emu::tile
