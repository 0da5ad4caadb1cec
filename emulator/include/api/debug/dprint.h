// Kernel prints, both generations of tt-metal's API (the output of each is a line of the
// emulator's log channel `emu`, ZYX_DEBUG=emu, prefixed with the core and the processor):
//  - the stream form of tt-metal api/debug/dprint.h (debug/dprint.h before the move to api/):
//      DPRINT << "x=" << x << ENDL();
//    with the value helpers BF16(bits) (a bfloat16 printed as a float), F32(f), U32(u) and the
//    manipulators ENDL, SETW, SETPRECISION, FIXED, DEFAULTFLOAT, HEX, OCT, DEC. A line ends at
//    ENDL() or at a "\n" inside printed text; pointers print as their address (a number).
//  - the format form of tt-metal api/debug/device_print.h (the newest dprint.h makes DPRINT an
//    alias of it): DPRINT("x={} y={:.3f}\n", x, y), DEVICE_PRINT(...), DEVICE_PRINT_MATH(...) …
//    with fmt's replacement fields ({}, {0}, {:>8}, {:#x}, {:.3f}, {{ and }}) and the bf16_t
//    wrapper. Lines end at "\n". Placeholder and argument counts are checked at compile time, as
//    tt-metal does; a field the emulator cannot format faults with "Unsupported: DEVICE_PRINT …".
// Tile slices: DPRINT << TileSlice(…) / TSLICE(…) (below). Not provided: U32_ARRAY,
// TYPED_U32_ARRAY, the bf4_t / bf8_t / dp_typed_array_t / TileSlice arguments of DEVICE_PRINT.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"

struct ENDL {};
struct HEX {};
struct OCT {};
struct DEC {};
struct FIXED {};
struct DEFAULTFLOAT {};
struct SETW {
    int w;
    explicit SETW(int w_) : w(w_) {}
};
struct SETPRECISION {
    int p;
    explicit SETPRECISION(int p_) : p(p_) {}
};
// Value helpers of the stream form (tt-metal api/debug/dprint.h).
struct BF16 {
    uint16_t val;
    BF16(uint16_t v) : val(v) {}
};
struct F32 {
    float val;
    F32(float v) : val(v) {}
};
struct U32 {
    uint32_t val;
    U32(uint32_t v) : val(v) {}
};
// Argument wrapper of the format form (tt-metal api/debug/device_print.h): a bfloat16's bits.
struct bf16_t {
    uint16_t val;
    bf16_t(uint16_t v) : val(v) {}
};
// A string argument of the format form: CTSTR("text") (tt-metal keeps it in an ELF section the
// host reads; here it is the string itself).
struct ct_string {
    const char* ptr;
};
#define CTSTR(literal) (ct_string{literal})

namespace zyx_emu_detail {
struct DebugPrinter {};
inline void dp(uint32_t kind, uint64_t v) { ZYX_EMU.dprint(kind, v); }
}  // namespace zyx_emu_detail

using zyx_emu_detail::DebugPrinter;
inline DebugPrinter operator<<(DebugPrinter p, const char* s) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_STR, uint64_t(uintptr_t(s)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, char c) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_CHAR, uint64_t(uint8_t(c)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, bool v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v ? 1 : 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, signed char v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, short v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, int v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, long v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, long long v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, unsigned char v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, unsigned short v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, unsigned v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, unsigned long v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, unsigned long long v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, float v) {
    union {
        float f;
        uint32_t u;
    } b{v};
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_F32, b.u);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, double v) {
    union {
        double d;
        uint64_t u;
    } b{v};
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_F64, b.u);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, BF16 v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_BF16, v.val);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, F32 v) { return p << v.val; }
inline DebugPrinter operator<<(DebugPrinter p, U32 v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v.val);
    return p;
}
// Any pointer but a C string prints as its address, a number (tt-metal prints it as a uint32_t).
// (Compiler builtins rather than <type_traits>: every kernel includes this header.)
template <typename T>
requires(!__is_same(T, char) && !__is_same(T, const char)) inline DebugPrinter operator<<(DebugPrinter p, T* v) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, uint64_t(uintptr_t(v)));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, ENDL) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_ENDL, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, HEX) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_HEX, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, OCT) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_OCT, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, DEC) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_DEC, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, FIXED) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_FIXED, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, DEFAULTFLOAT) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_DEFAULTFLOAT, 0);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, SETW s) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_SETW, uint64_t(s.w));
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, SETPRECISION s) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_SETPRECISION, uint64_t(s.p));
    return p;
}

// ---- tile slices (tt-metal api/debug/dprint_tile.h; SliceRange: hostdevcommon/dprint_common.h) --
// A numpy-style slice [h0:h1:hs, w0:w1:ws] of a 32x32 tile.
struct SliceRange {
    uint16_t h0, h1, hs, w0, w1, ws;
    static inline SliceRange hw0_32_16() { return SliceRange{0, 32, 16, 0, 32, 16}; }  // [0:32:16, 0:32:16]
    static inline SliceRange hw0_32_8() { return SliceRange{0, 32, 8, 0, 32, 8}; }     // [0:32:8, 0:32:8]
    static inline SliceRange hw0_32_4() { return SliceRange{0, 32, 4, 0, 32, 4}; }     // [0:32:4, 0:32:4]
    static inline SliceRange h0_w0_32() { return SliceRange{0, 1, 1, 0, 32, 1}; }      // [0, 0:32]
    static inline SliceRange h0_32_w0() { return SliceRange{0, 32, 1, 0, 1, 1}; }      // [0:32, 0]
    static inline SliceRange h0_32_w1() { return SliceRange{0, 32, 1, 1, 2, 1}; }      // [0:32, 1]
    static inline SliceRange hw041() { return SliceRange{0, 4, 1, 0, 4, 1}; }          // [0:4, 0:4]
};
using dprint_tslice_ptr_t = bool;
#define TSLICE_RD_PTR true
#define TSLICE_WR_PTR false
using dprint_tslice_cb_t = bool;
#define TSLICE_INPUT_CB true
#define TSLICE_OUTPUT_CB false
// DPRINT << TileSlice(cb, tile, range, …): the sampled elements of tile `tile` counted from a CB
// pointer, a row per line (endl_rows), read in the tile's row / column order (print_untilized) or
// in L1 order. Data-movement kernels name the CB kind (ignored: a CB has one format here) and the
// pointer (BRISC default: read, NCRISC: write); UNPACK prints from the read pointer, PACK from
// the write pointer, MATH prints tt-metal's warning. Formats: Float16_b, Float32, Bfp8_b, Int32,
// UInt32, UInt16, UInt8 (the CB formats the emulator has that tt-metal prints; for another one
// it prints tt-metal's "Unsupported data format" line). At most MAX_BYTES of data print.
template <int MAX_BYTES = 64>
struct TileSlice {
    zyx_emu_dprint_tile_slice d;
#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#if defined(COMPILE_FOR_NCRISC)
    TileSlice(uint8_t cb, int tile_idx, const SliceRange& r, dprint_tslice_cb_t cb_type,
              dprint_tslice_ptr_t ptr_type = TSLICE_WR_PTR, bool endl_rows = true, bool print_untilized = true)
#else
    TileSlice(uint8_t cb, int tile_idx, const SliceRange& r, dprint_tslice_cb_t cb_type,
              dprint_tslice_ptr_t ptr_type = TSLICE_RD_PTR, bool endl_rows = true, bool print_untilized = true)
#endif
        : d{cb,
            tile_idx,
            r.h0,
            r.h1,
            r.hs,
            r.w0,
            r.w1,
            r.ws,
            uint32_t(MAX_BYTES),
            uint8_t(ptr_type == TSLICE_RD_PTR ? 0 : 1),
            endl_rows,
            print_untilized} {
        (void)cb_type;
    }
#else
    TileSlice(uint8_t cb, int tile_idx, const SliceRange& r, bool endl_rows = true, bool print_untilized = true)
        : d{cb, tile_idx, r.h0, r.h1, r.hs, r.w0, r.w1, r.ws, uint32_t(MAX_BYTES), 2, endl_rows, print_untilized} {}
#endif
};
using TSLICE = TileSlice<64>;
template <int N>
inline DebugPrinter operator<<(DebugPrinter p, const TileSlice<N>& t) {
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_TILESLICE, uint64_t(uintptr_t(&t.d)));
    return p;
}

// The stream form's printer object. DPRINT is also a function-like macro (the format form, below):
// `DPRINT << …` names this object, `DPRINT(…)` expands the macro.
inline constexpr zyx_emu_detail::DebugPrinter DPRINT{};

// ---- the format form (tt-metal api/debug/device_print.h) ---------------------------------------
namespace zyx_emu_detail {
// One argument of DEVICE_PRINT as the emulator formats it.
inline zyx_emu_dprint_arg fmt_arg(bool v) { return {ZYX_EMU_DPRINT_BOOL, v ? 1u : 0u}; }
inline zyx_emu_dprint_arg fmt_arg(char v) { return {ZYX_EMU_DPRINT_CHAR, uint64_t(uint8_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(signed char v) { return {ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(short v) { return {ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(int v) { return {ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(long v) { return {ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(long long v) { return {ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))}; }
inline zyx_emu_dprint_arg fmt_arg(unsigned char v) { return {ZYX_EMU_DPRINT_U64, v}; }
inline zyx_emu_dprint_arg fmt_arg(unsigned short v) { return {ZYX_EMU_DPRINT_U64, v}; }
inline zyx_emu_dprint_arg fmt_arg(unsigned v) { return {ZYX_EMU_DPRINT_U64, v}; }
inline zyx_emu_dprint_arg fmt_arg(unsigned long v) { return {ZYX_EMU_DPRINT_U64, v}; }
inline zyx_emu_dprint_arg fmt_arg(unsigned long long v) { return {ZYX_EMU_DPRINT_U64, v}; }
inline zyx_emu_dprint_arg fmt_arg(float v) {
    union {
        float f;
        uint32_t u;
    } b{v};
    return {ZYX_EMU_DPRINT_F32, b.u};
}
inline zyx_emu_dprint_arg fmt_arg(double v) {
    union {
        double d;
        uint64_t u;
    } b{v};
    return {ZYX_EMU_DPRINT_F64, b.u};
}
inline zyx_emu_dprint_arg fmt_arg(bf16_t v) { return {ZYX_EMU_DPRINT_BF16, v.val}; }
inline zyx_emu_dprint_arg fmt_arg(const char* s) { return {ZYX_EMU_DPRINT_STR, uint64_t(uintptr_t(s))}; }
inline zyx_emu_dprint_arg fmt_arg(ct_string s) { return fmt_arg(s.ptr); }
// Enums print as their underlying integer.
template <typename E>
requires __is_enum(E) inline zyx_emu_dprint_arg fmt_arg(E e) { return fmt_arg(__underlying_type(E)(e)); }

template <typename... A>
inline void device_print(const char* format, const A&... a) {
    const zyx_emu_dprint_arg args[sizeof...(A) + 1] = {fmt_arg(a)..., {0, 0}};
    const zyx_emu_dprint_format m{format, uint32_t(sizeof...(A)), args};
    dp(ZYX_EMU_DPRINT_FORMAT, uint64_t(uintptr_t(&m)));
}

// Compile-time checks of a format string, as tt-metal's DEVICE_PRINT makes them.
template <uint32_t N>
struct FmtCount {
    static constexpr uint32_t value = N;
};
template <typename... A>
FmtCount<sizeof...(A)> fmt_count(const A&...);
// 0 when every '{' opens a field ({}, {N…}, {:…}) or is doubled, and every lone '}' closes one.
constexpr bool fmt_valid(const char* s) {
    for (; *s; ++s) {
        if (*s == '{') {
            if (s[1] == '{') {
                ++s;
                continue;
            }
            if (s[1] != '}' && s[1] != ':' && !(s[1] >= '0' && s[1] <= '9')) return false;
            while (*s && *s != '}') ++s;
            if (!*s) return false;
        } else if (*s == '}') {
            if (s[1] != '}') return false;
            ++s;
        }
    }
    return true;
}
// Number of fields; *indexed / *plain tell which kinds occur, *max_index the largest index.
constexpr uint32_t fmt_fields(const char* s, bool* indexed, bool* plain, uint32_t* max_index) {
    uint32_t n = 0;
    for (; *s; ++s) {
        if (*s == '{' && s[1] == '{') {
            ++s;
            continue;
        }
        if (*s == '}' && s[1] == '}') {
            ++s;
            continue;
        }
        if (*s != '{') continue;
        ++n;
        if (s[1] >= '0' && s[1] <= '9') {
            *indexed = true;
            uint32_t i = 0;
            for (++s; *s >= '0' && *s <= '9'; ++s) i = i * 10 + uint32_t(*s - '0');
            if (i > *max_index) *max_index = i;
        } else {
            *plain = true;
        }
        while (*s && *s != '}') ++s;
        if (!*s) break;
    }
    return n;
}
constexpr bool fmt_mixed(const char* s) {
    bool indexed = false, plain = false;
    uint32_t max_index = 0;
    fmt_fields(s, &indexed, &plain, &max_index);
    return indexed && plain;
}
constexpr bool fmt_args_match(const char* s, uint32_t nargs) {
    bool indexed = false, plain = false;
    uint32_t max_index = 0;
    uint32_t n = fmt_fields(s, &indexed, &plain, &max_index);
    return indexed ? max_index < nargs : n == nargs;
}
}  // namespace zyx_emu_detail

#define DEVICE_PRINT(format, ...)                                                                                \
    do {                                                                                                         \
        static_assert(::zyx_emu_detail::fmt_valid(format),                                                       \
                      "Invalid format string: unescaped '{' must be followed by '{', '}', or a digit");          \
        static_assert(!::zyx_emu_detail::fmt_mixed(format),                                                      \
                      "Cannot mix indexed ({0}) and non-indexed ({}) placeholders in the same format string");   \
        static_assert(                                                                                           \
            ::zyx_emu_detail::fmt_args_match(format, decltype(::zyx_emu_detail::fmt_count(__VA_ARGS__))::value), \
            "Number of {} placeholders must match number of arguments (or an index exceeds them)");              \
        ::zyx_emu_detail::device_print(format, ##__VA_ARGS__);                                                   \
    } while (0)
#define DPRINT(format, ...) DEVICE_PRINT(format, ##__VA_ARGS__)
#define ZYX_EMU_DEVICE_PRINT_IF(ROLE, format, ...)                         \
    do {                                                                   \
        if (ZYX_EMU.role() == (ROLE)) DEVICE_PRINT(format, ##__VA_ARGS__); \
    } while (0)
#define DEVICE_PRINT_DATA0(format, ...) ZYX_EMU_DEVICE_PRINT_IF(ZYX_EMU_ROLE_BRISC, format, ##__VA_ARGS__)
#define DEVICE_PRINT_DATA1(format, ...) ZYX_EMU_DEVICE_PRINT_IF(ZYX_EMU_ROLE_NCRISC, format, ##__VA_ARGS__)
#define DEVICE_PRINT_UNPACK(format, ...) ZYX_EMU_DEVICE_PRINT_IF(ZYX_EMU_ROLE_UNPACK, format, ##__VA_ARGS__)
#define DEVICE_PRINT_MATH(format, ...) ZYX_EMU_DEVICE_PRINT_IF(ZYX_EMU_ROLE_MATH, format, ##__VA_ARGS__)
#define DEVICE_PRINT_PACK(format, ...) ZYX_EMU_DEVICE_PRINT_IF(ZYX_EMU_ROLE_PACK, format, ##__VA_ARGS__)

#define ZYX_EMU_DPRINT_IF(ROLE, x)           \
    do {                                     \
        if (ZYX_EMU.role() == (ROLE)) { x; } \
    } while (0)
#define DPRINT_DATA0(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_BRISC, x)
#define DPRINT_DATA1(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_NCRISC, x)
#define DPRINT_UNPACK(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_UNPACK, x)
#define DPRINT_MATH(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_MATH, x)
#define DPRINT_PACK(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_PACK, x)
