// DPRINT (tt-metal api/debug/dprint.h): `DPRINT << "x=" << x << ENDL();`
// Output goes to the emulator's log channel `emu` (ZYX_DEBUG=emu), one line per ENDL, prefixed
// with the core and the processor. TSLICE is not implemented.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"

struct ENDL {};
struct HEX {};
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

namespace zyx_emu_detail {
struct DebugPrinter {};
inline void dp(uint32_t kind, uint64_t v) { ZYX_EMU.dprint(kind, v); }
}  // namespace zyx_emu_detail

using zyx_emu_detail::DebugPrinter;
inline DebugPrinter operator<<(DebugPrinter p, const char* s) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_STR, uint64_t(uintptr_t(s))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, char c) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_CHAR, uint64_t(uint8_t(c))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, bool v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v ? 1 : 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, signed char v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, short v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, int v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, long v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, long long v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_I64, uint64_t(int64_t(v))); return p; }
inline DebugPrinter operator<<(DebugPrinter p, unsigned char v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v); return p; }
inline DebugPrinter operator<<(DebugPrinter p, unsigned short v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v); return p; }
inline DebugPrinter operator<<(DebugPrinter p, unsigned v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v); return p; }
inline DebugPrinter operator<<(DebugPrinter p, unsigned long v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v); return p; }
inline DebugPrinter operator<<(DebugPrinter p, unsigned long long v) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_U64, v); return p; }
inline DebugPrinter operator<<(DebugPrinter p, float v) {
    union { float f; uint32_t u; } b{v};
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_F32, b.u);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, double v) {
    union { double d; uint64_t u; } b{v};
    zyx_emu_detail::dp(ZYX_EMU_DPRINT_F64, b.u);
    return p;
}
inline DebugPrinter operator<<(DebugPrinter p, ENDL) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_ENDL, 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, HEX) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_HEX, 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, DEC) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_DEC, 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, FIXED) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_FIXED, 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, DEFAULTFLOAT) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_DEFAULTFLOAT, 0); return p; }
inline DebugPrinter operator<<(DebugPrinter p, SETW s) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_SETW, uint64_t(s.w)); return p; }
inline DebugPrinter operator<<(DebugPrinter p, SETPRECISION s) { zyx_emu_detail::dp(ZYX_EMU_DPRINT_SETPRECISION, uint64_t(s.p)); return p; }

#define DPRINT (::zyx_emu_detail::DebugPrinter{})
#define ZYX_EMU_DPRINT_IF(ROLE, x) do { if (ZYX_EMU.role() == (ROLE)) { x; } } while (0)
#define DPRINT_DATA0(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_BRISC, x)
#define DPRINT_DATA1(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_NCRISC, x)
#define DPRINT_UNPACK(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_UNPACK, x)
#define DPRINT_MATH(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_MATH, x)
#define DPRINT_PACK(x) ZYX_EMU_DPRINT_IF(ZYX_EMU_ROLE_PACK, x)
