// Integer SFPU binary ops on two DST tiles (MATH only), mirroring tt-metal's
// api/compute/add_int_sfpu.h, sub_int_sfpu.h, mul_int_sfpu.h, binary_bitwise_sfpu.h,
// binary_shift.h, binary_comp.h, div_int32_floor.h, div_int32_sfpu.h and the _int32 / _uint32
// functions of binary_max_min.h, binary_fmod.h and binary_remainder.h, with the names, template
// parameters, static_asserts and argument order tt-metal declares (emulator/README.md names the
// version): DST[odst] = DST[idst0] op DST[idst1], odst may be one of the inputs. As for every
// SFPU op, the *_init() calls compile to nothing here (the emulator checks no inits).
//
// The words are two's complement integers and results wrap (docs/numerics.md §6 "Integer SFPU
// ops" defines every op: shift counts outside [0, 31] give 0, comparisons write the integer 1 or
// 0, a zero divisor gives what silicon gives). Int32 and UInt32 need a 32-bit DST
// (fp32_dest_acc_en): with a 16-bit DST the call fails the launch, naming the call. UInt16 (the
// low 16 bits of each word) works with either.
#pragma once

#include <cstdint>

namespace ckernel {
namespace zyx_emu_c {
// Must match zyx::emu::tile::SfpuBinaryInt (checked by static_asserts in the emulator).
enum SfpuBinaryIntOp : uint32_t {
    IAdd,
    ISub,
    IRsub,
    IMul,
    IAnd,
    IOr,
    IXor,
    IShl,
    IShr,
    IShrLogical,
    ILt,
    IGt,
    ILe,
    IGe,
    IMax,
    IMin,
    IDivFloor,
    IDivTrunc,
    IDivFloat,
    IRemainder,
    IFmod,
};
// Init codes of these ops (documentation only: init() does nothing).
inline constexpr uint32_t kInitInt = 300;
ALWI void binary_int(uint32_t op, DataFormat fmt, uint32_t idst0, uint32_t idst1, uint32_t odst) {
    ZYX_EMU.sfpu_binary_int(op, uint32_t(fmt), idst0, idst1, odst);
}
template <DataFormat f>
constexpr bool int_format_ok() {
    return f == DataFormat::Int32 || f == DataFormat::UInt32 || f == DataFormat::UInt16;
}
}  // namespace zyx_emu_c

// tt-metal's message for an integer op given another format (a string literal).
#define ZYX_EMU_INT_FORMAT_MSG(what) \
    "Unsupported data format for " what ". Supported data formats are: Int32, UInt32, UInt16"
// name_tile<DataFormat>(idst0, idst1, odst) with tt-metal's static_assert, and name_tile_init().
#define ZYX_EMU_INT_BINARY(name, OP, what)                                                    \
    template <DataFormat data_format>                                                         \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {                    \
        static_assert(zyx_emu_c::int_format_ok<data_format>(), ZYX_EMU_INT_FORMAT_MSG(what)); \
        zyx_emu_c::binary_int(zyx_emu_c::OP, data_format, idst0, idst1, odst);                \
    }
// name_tile(idst0, idst1, odst) on one fixed format, and name_tile_init().
#define ZYX_EMU_INT_BINARY_FIXED(name, OP, FORMAT)                                    \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {            \
        zyx_emu_c::binary_int(zyx_emu_c::OP, DataFormat::FORMAT, idst0, idst1, odst); \
    }                                                                                 \
    ALWI void name##_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::OP); }

// ---- add_int_sfpu.h, sub_int_sfpu.h: wrapping add, a − b, and rsub = b − a ----------------------
ZYX_EMU_INT_BINARY(add_int, IAdd, "add_int")
ALWI void add_int_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::IAdd); }
ZYX_EMU_INT_BINARY(sub_int, ISub, "sub_int")
ALWI void sub_int_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::ISub); }
ZYX_EMU_INT_BINARY(rsub_int, IRsub, "rsub_int")
ALWI void rsub_int_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::IRsub); }

// ---- mul_int_sfpu.h: the low 32 (UInt16: 16) bits of the product; the init takes the format too ---
ZYX_EMU_INT_BINARY(mul_int, IMul, "mul_int")
template <DataFormat data_format>
ALWI void mul_int_tile_init() {
    static_assert(zyx_emu_c::int_format_ok<data_format>(), ZYX_EMU_INT_FORMAT_MSG("mul_int"));
    zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::IMul);
}

// ---- binary_bitwise_sfpu.h -----------------------------------------------------------------------
ZYX_EMU_INT_BINARY(bitwise_and_binary, IAnd, "bitwise operation")
ZYX_EMU_INT_BINARY(bitwise_or_binary, IOr, "bitwise operation")
ZYX_EMU_INT_BINARY(bitwise_xor_binary, IXor, "bitwise operation")
ALWI void binary_bitwise_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::IAnd); }

// ---- binary_shift.h: DST[idst0] shifted by DST[idst1]; a count outside [0, 31] gives 0 -----------
// binary_right_shift_tile fills with the sign bit for every format (also UInt32, as the LLK of
// that version does); binary_logical_right_shift_tile fills with zeros.
ZYX_EMU_INT_BINARY(binary_left_shift, IShl, "left shift")
ZYX_EMU_INT_BINARY(binary_right_shift, IShr, "right shift")
ZYX_EMU_INT_BINARY(binary_logical_right_shift, IShrLogical, "logical right shift")
ALWI void binary_shift_tile_init() { zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::IShl); }

// ---- binary_comp.h: the integer 1 where DST[idst0] OP DST[idst1], else 0 -------------------------
// Int32 compares signed, UInt32 and UInt16 unsigned. Both the tile call and its init take the format.
#define ZYX_EMU_INT_COMPARE(name, OP)                                                          \
    template <DataFormat data_format>                                                          \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {                     \
        static_assert(zyx_emu_c::int_format_ok<data_format>(),                                 \
                      "Unsupported data format. Supported: Int32, UInt32, UInt16");            \
        zyx_emu_c::binary_int(zyx_emu_c::OP, data_format, idst0, idst1, odst);                 \
    }                                                                                          \
    template <DataFormat data_format>                                                          \
    ALWI void name##_tile_init() {                                                             \
        static_assert(zyx_emu_c::int_format_ok<data_format>(), ZYX_EMU_INT_FORMAT_MSG(#name)); \
        zyx_emu_c::init(zyx_emu_c::kInitInt + zyx_emu_c::OP);                                  \
    }
ZYX_EMU_INT_COMPARE(lt_int, ILt)
ZYX_EMU_INT_COMPARE(gt_int, IGt)
ZYX_EMU_INT_COMPARE(le_int, ILe)
ZYX_EMU_INT_COMPARE(ge_int, IGe)

// ---- binary_max_min.h: signed (int32) and unsigned (uint32) maximum and minimum -----------------
ZYX_EMU_INT_BINARY_FIXED(binary_max_int32, IMax, Int32)
ZYX_EMU_INT_BINARY_FIXED(binary_min_int32, IMin, Int32)
ZYX_EMU_INT_BINARY_FIXED(binary_max_uint32, IMax, UInt32)
ZYX_EMU_INT_BINARY_FIXED(binary_min_uint32, IMin, UInt32)

// ---- div_int32_floor.h, div_int32_sfpu.h: Int32 quotients rounded down / toward zero, and the
// Float32 quotient div_int32_tile writes (a Float32 word in DST, packed as Float32) ----------------
ZYX_EMU_INT_BINARY_FIXED(div_int32_floor, IDivFloor, Int32)
ZYX_EMU_INT_BINARY_FIXED(div_int32_trunc, IDivTrunc, Int32)
ZYX_EMU_INT_BINARY_FIXED(div_int32, IDivFloat, Int32)

// ---- binary_remainder.h, binary_fmod.h: a − floor(a/b)·b (sign of b), a − trunc(a/b)·b (sign of a)
ZYX_EMU_INT_BINARY_FIXED(remainder_int32, IRemainder, Int32)
ZYX_EMU_INT_BINARY_FIXED(fmod_int32, IFmod, Int32)

#undef ZYX_EMU_INT_FORMAT_MSG
#undef ZYX_EMU_INT_BINARY
#undef ZYX_EMU_INT_BINARY_FIXED
#undef ZYX_EMU_INT_COMPARE

}  // namespace ckernel
