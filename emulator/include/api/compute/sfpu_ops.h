// SFPU operations on DST tiles (MATH only), mirroring tt-metal's api/compute/eltwise_unary/*.h,
// eltwise_binary_sfpu.h, fill.h and typecast.h. Call the matching *_init() before use, as on
// silicon. Template parameters (approximation modes, vector modes) are accepted and, except
// `approx`, ignored: the emulator computes every op over the whole tile.
#pragma once

#include <cstdint>

namespace ckernel {
namespace zyx_emu_c {
// Must match zyx::emu::tile::SfpuUnary / SfpuBinary (checked by static_asserts in the emulator).
enum SfpuUnaryOp : uint32_t {
    Exp, Exp2, Log, Sqrt, Rsqrt, Recip, Sin, Cos, Tan, Negative, Abs, Relu, ReluMax, ReluMin,
    LeakyRelu, Sigmoid, Tanh, Gelu, Silu, Square, Power, Sign, Signbit, Floor, Ceil, Trunc,
    Elu, Erf, Erfinv, IsInf, IsNan, LogicalNot, Heaviside, Softplus, PowerIterative,
};
enum SfpuBinaryOp : uint32_t { BAdd, BSub, BRsub, BMul, BDiv, BPower, BMax, BMin, BEq, BNe, BLt, BGt, BLe, BGe };
inline uint32_t f32_bits(float f) {
    union { float f; uint32_t u; } v{f};
    return v.u;
}
}  // namespace zyx_emu_c

#define ZYX_EMU_UNARY(name, OP)                                                              \
    template <bool... B>                                                                     \
    ALWI void name##_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::OP); }                       \
    template <bool... B>                                                                     \
    ALWI void name##_tile(uint32_t idst) { ZYX_EMU.sfpu_unary(zyx_emu_c::OP, idst, 0); }
#define ZYX_EMU_UNARY_PARAM(name, OP)                                                        \
    ALWI void name##_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::OP); }                       \
    ALWI void name##_tile(uint32_t idst, uint32_t param0) { ZYX_EMU.sfpu_unary(zyx_emu_c::OP, idst, param0); }

// exp: exp_tile_init<approx, fast_and_approx, scale>(), exp_tile<approx, …>(idst, vector_mode, scale)
template <bool approx = false, bool fast_and_approx = true, uint32_t scale = 0x3F800000>
ALWI void exp_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::Exp); }
template <bool approx = false, bool fast_and_approx = true, bool scale_en = false, bool skip_positive_check = false,
          int iterations = 8>
ALWI void exp_tile(uint32_t idst, int vector_mode = int(VectorMode::RC), uint16_t scale = 0x3F80) {
    (void)vector_mode;
    if (scale_en && scale != 0x3F80) ZYX_EMU.kernel_fault("Unsupported: exp_tile with a scale other than 1.0");
    ZYX_EMU.sfpu_unary(zyx_emu_c::Exp, idst, 0);
}
ZYX_EMU_UNARY(exp2, Exp2)
ZYX_EMU_UNARY(log, Log)
ZYX_EMU_UNARY(sqrt, Sqrt)
ZYX_EMU_UNARY(rsqrt, Rsqrt)
template <bool legacy_compat = false>
ALWI void recip_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::Recip); }
template <bool legacy_compat = false>
ALWI void recip_tile(uint32_t idst, int vector_mode = int(VectorMode::RC)) {
    (void)vector_mode;
    ZYX_EMU.sfpu_unary(zyx_emu_c::Recip, idst, 0);
}
ZYX_EMU_UNARY(sin, Sin)
ZYX_EMU_UNARY(cos, Cos)
ZYX_EMU_UNARY(tan, Tan)
ZYX_EMU_UNARY(negative, Negative)
ZYX_EMU_UNARY(abs, Abs)
ZYX_EMU_UNARY(relu, Relu)
ZYX_EMU_UNARY_PARAM(relu_max, ReluMax)  // param0: threshold as f32 bits
ZYX_EMU_UNARY_PARAM(relu_min, ReluMin)
ZYX_EMU_UNARY_PARAM(leaky_relu, LeakyRelu)  // param0: slope as f32 bits
ZYX_EMU_UNARY(sigmoid, Sigmoid)
ZYX_EMU_UNARY(tanh, Tanh)
ZYX_EMU_UNARY(gelu, Gelu)
ZYX_EMU_UNARY(silu, Silu)
ZYX_EMU_UNARY(square, Square)
ZYX_EMU_UNARY(sign, Sign)
ZYX_EMU_UNARY(signbit, Signbit)
ZYX_EMU_UNARY(floor, Floor)
ZYX_EMU_UNARY(ceil, Ceil)
ZYX_EMU_UNARY(trunc, Trunc)
ZYX_EMU_UNARY_PARAM(elu, Elu)  // param0: slope as f32 bits
ZYX_EMU_UNARY(erf, Erf)
ZYX_EMU_UNARY(erfinv, Erfinv)
ZYX_EMU_UNARY(isinf, IsInf)
ZYX_EMU_UNARY(isnan, IsNan)
ZYX_EMU_UNARY(logical_not_unary, LogicalNot)
ZYX_EMU_UNARY_PARAM(heaviside, Heaviside)  // param0: value at x == 0 as f32 bits
ALWI void rounding_op_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::Floor); }
// power_tile(idst, n): x^n for an unsigned integer exponent n.
ALWI void power_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::PowerIterative); }
ALWI void power_tile(uint32_t idst, uint32_t param0) { ZYX_EMU.sfpu_unary(zyx_emu_c::PowerIterative, idst, param0); }
ALWI void power_iterative_tile_init() { power_tile_init(); }
ALWI void power_iterative_tile(uint32_t idst, uint32_t param0) { power_tile(idst, param0); }
// softplus_tile(idst, beta, beta_reciprocal, threshold): only beta = 1 is implemented.
ALWI void softplus_tile_init() { ZYX_EMU.sfpu_init(zyx_emu_c::Softplus); }
ALWI void softplus_tile(uint32_t idst, uint32_t beta = 0x3F800000u, uint32_t beta_reciprocal = 0x3F800000u,
                        uint32_t threshold = 0x41A00000u) {
    (void)beta_reciprocal;
    if (beta != 0x3F800000u) ZYX_EMU.kernel_fault("Unsupported: softplus_tile with beta != 1");
    ZYX_EMU.sfpu_unary(zyx_emu_c::Softplus, idst, threshold);
}
#undef ZYX_EMU_UNARY
#undef ZYX_EMU_UNARY_PARAM

// ---- SFPU binary (eltwise_binary_sfpu.h): DST[odst] = DST[idst0] op DST[idst1] -----------------
#define ZYX_EMU_BINARY(name, OP)                                                                            \
    ALWI void name##_tile_init() { ZYX_EMU.sfpu_init(100 + zyx_emu_c::OP); }                                \
    template <bool... B>                                                                                    \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {                                  \
        ZYX_EMU.sfpu_binary(zyx_emu_c::OP, idst0, idst1, odst);                                             \
    }                                                                                                       \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1) { ZYX_EMU.sfpu_binary(zyx_emu_c::OP, idst0, idst1, idst0); }
ZYX_EMU_BINARY(add_binary, BAdd)
ZYX_EMU_BINARY(sub_binary, BSub)
ZYX_EMU_BINARY(rsub_binary, BRsub)
ZYX_EMU_BINARY(mul_binary, BMul)
ZYX_EMU_BINARY(div_binary, BDiv)
ZYX_EMU_BINARY(power_binary, BPower)
ZYX_EMU_BINARY(binary_max, BMax)
ZYX_EMU_BINARY(binary_min, BMin)
ZYX_EMU_BINARY(eq_binary, BEq)
ZYX_EMU_BINARY(ne_binary, BNe)
ZYX_EMU_BINARY(lt_binary, BLt)
ZYX_EMU_BINARY(gt_binary, BGt)
ZYX_EMU_BINARY(le_binary, BLe)
ZYX_EMU_BINARY(ge_binary, BGe)
#undef ZYX_EMU_BINARY

// ---- fill (fill.h) ----------------------------------------------------------------------------
ALWI void fill_tile_init() { ZYX_EMU.sfpu_init(200); }
ALWI void fill_tile(uint32_t idst, float param) { ZYX_EMU.sfpu_fill(idst, zyx_emu_c::f32_bits(param), true); }
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param) { ZYX_EMU.sfpu_fill(idst, param, true); }
template <DataFormat data_format = DataFormat::Int32>
ALWI void fill_tile_int(uint32_t idst, uint32_t param) { ZYX_EMU.sfpu_fill(idst, param, false); }

// ---- typecast (typecast.h): IN/OUT are tt::DataFormat codes ------------------------------------
template <uint32_t IN_DTYPE = 0, uint32_t OUT_DTYPE = 0>
ALWI void typecast_tile_init() { ZYX_EMU.sfpu_init(201); }
template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE, bool... B>
ALWI void typecast_tile(uint32_t idst) { ZYX_EMU.sfpu_typecast(idst, IN_DTYPE, OUT_DTYPE); }

}  // namespace ckernel
