// SFPU operations on DST tiles (MATH only), mirroring tt-metal's api/compute/compute_kernel_api.h
// (sigmoid, log, tanh, abs, sign, square, power, exp2, heaviside, silu, sfpu_reduce, …),
// api/compute/eltwise_unary/*.h (binop_with_scalar.h's add_unary_tile … rsub_unary_tile among
// them), eltwise_binary_sfpu.h, binary_max_min.h, binary_fmod.h, binary_remainder.h, and the
// in-DST transpose of transpose_wh_dest.h, with each op's template and function parameters as
// tt-metal declares them (emulator/README.md names the version). Call the matching *_init()
// before use, as on silicon; the emulator checks no init, so here they compile to nothing (a
// generated kernel calls one before almost every op).
//
// What the emulator does with those parameters: it computes every op in fp32 (libm / libmvec,
// docs/numerics.md §6) over the whole tile. Approximation switches (approx, fast_and_approx,
// FAST_APPROX, legacy_compat, input_clamping, iterations, scale, is_fp32_dest_acc_en) and
// vector modes (VectorMode::R / C compute all four faces here; silicon leaves the faces outside
// the mode untouched) are accepted and ignored; so is DstRoundingMode (a 16-bit DST result is
// always truncated, the silicon default). Where an op needs a value the emulator does not model,
// the call faults with "Unsupported: …" rather than compute something else.
#pragma once

#include <cstdint>

#ifndef RECIP_LEGACY_COMPAT
#define RECIP_LEGACY_COMPAT false
#endif

namespace ckernel {
namespace zyx_emu_c {
// Must match zyx::emu::tile::SfpuUnary / SfpuBinary (checked by static_asserts in the emulator).
enum SfpuUnaryOp : uint32_t {
    Exp,
    Exp2,
    Log,
    Sqrt,
    Rsqrt,
    Recip,
    Sin,
    Cos,
    Tan,
    Negative,
    Abs,
    Relu,
    ReluMax,
    ReluMin,
    LeakyRelu,
    Sigmoid,
    Tanh,
    Gelu,
    Silu,
    Square,
    Power,
    Sign,
    Signbit,
    Floor,
    Ceil,
    Trunc,
    Elu,
    Erf,
    Erfinv,
    IsInf,
    IsNan,
    LogicalNot,
    Heaviside,
    Softplus,
    PowerIterative,
    Gtz,
    Ltz,
    Gez,
    Lez,
    Eqz,
    Nez,
    UnaryEq,
    UnaryNe,
    UnaryGt,
    UnaryLt,
    UnaryGe,
    UnaryLe,
    Round,
    AddScalar,
    SubScalar,
    MulScalar,
    DivScalar,
    RsubScalar,
    ExpScaled,  // exp(x · param), param the scale as f32 bits
};
enum SfpuBinaryOp : uint32_t {
    BAdd,
    BSub,
    BRsub,
    BMul,
    BDiv,
    BPower,
    BMax,
    BMin,
    BEq,
    BNe,
    BLt,
    BGt,
    BLe,
    BGe,
    BFmod,
    BRemainder,
};
// Init codes of the ops that are neither unary nor binary (they only name the init).
enum SfpuInitCode : uint32_t { InitFill = 200, InitTypecast, InitWhere, InitReduce, InitTransposeDest, InitCopyDest };
// Every SFPU *_init(): nothing to do on the emulator (it does not check inits), so no call into
// it (the table's sfpu_init stays for kernels built against older headers). `code` names the op.
ALWI void init(uint32_t code) { (void)code; }
inline uint32_t f32_bits(float f) {
    union {
        float f;
        uint32_t u;
    } v{f};
    return v.u;
}
ALWI void unary(uint32_t op, uint32_t idst, uint32_t param = 0) { ZYX_EMU.sfpu_unary(op, idst, param); }
ALWI void binary(uint32_t op, uint32_t idst0, uint32_t idst1, uint32_t odst) {
    ZYX_EMU.sfpu_binary(op, idst0, idst1, odst);
}
}  // namespace zyx_emu_c

// An op without template parameters: name_tile_init(), name_tile(idst).
#define ZYX_EMU_UNARY(name, OP)                                      \
    ALWI void name##_tile_init() { zyx_emu_c::init(zyx_emu_c::OP); } \
    ALWI void name##_tile(uint32_t idst) { zyx_emu_c::unary(zyx_emu_c::OP, idst); }
// An op with one uint32_t parameter (f32 bits unless noted): name_tile(idst, param0).
#define ZYX_EMU_UNARY_PARAM(name, OP)                                \
    ALWI void name##_tile_init() { zyx_emu_c::init(zyx_emu_c::OP); } \
    ALWI void name##_tile(uint32_t idst, uint32_t param0) { zyx_emu_c::unary(zyx_emu_c::OP, idst, param0); }
// An op whose init and tile both take `template <bool fast_and_approx = DEFAULT>`.
#define ZYX_EMU_UNARY_APPROX(name, OP, DEFAULT) \
    template <bool fast_and_approx = DEFAULT>   \
    ALWI void name##_tile_init() {              \
        zyx_emu_c::init(zyx_emu_c::OP);         \
    }                                           \
    template <bool fast_and_approx = DEFAULT>   \
    ALWI void name##_tile(uint32_t idst) {      \
        zyx_emu_c::unary(zyx_emu_c::OP, idst);  \
    }

// ---- exp (eltwise_unary/exp.h) ------------------------------------------------------------------
// Whether the fast approximate exp clamps inputs below about -88.5 (ignored: libm exp).
enum class InputClamping : uint8_t { ClampToNegative = 1, None = 0 };

template <bool approx = false, uint32_t scale = 0x3F800000,
          InputClamping input_clamping = InputClamping::ClampToNegative>
ALWI void exp_tile_init() {
    zyx_emu_c::init(zyx_emu_c::Exp);
}
// exp(x), or exp(scale · x) with scale_en; scale is bf16 bits (tt-metal eltwise_unary/exp.h).
template <bool approx = false, bool scale_en = false, InputClamping input_clamping = InputClamping::ClampToNegative,
          int iterations = 8>
ALWI void exp_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC, uint16_t scale = 0x3F80) {
    (void)vector_mode;
    if (scale_en && scale != 0x3F80)
        zyx_emu_c::unary(zyx_emu_c::ExpScaled, idst, uint32_t(scale) << 16);
    else
        zyx_emu_c::unary(zyx_emu_c::Exp, idst);
}
// Older form (tt-metal before May 2026): vector_mode as an int, e.g. (int)VectorMode::RC.
template <bool approx = false, bool scale_en = false, InputClamping input_clamping = InputClamping::ClampToNegative,
          int iterations = 8>
ALWI void exp_tile(uint32_t idst, int vector_mode, uint16_t scale = 0x3F80) {
    exp_tile<approx, scale_en, input_clamping, iterations>(idst, VectorMode(vector_mode), scale);
}

// ---- recip (eltwise_unary/recip.h) -------------------------------------------------------------
template <bool legacy_compat = RECIP_LEGACY_COMPAT>
ALWI void recip_tile_init() {
    zyx_emu_c::init(zyx_emu_c::Recip);
}
template <bool legacy_compat = RECIP_LEGACY_COMPAT>
ALWI void recip_tile(uint32_t idst, VectorMode vector_mode = VectorMode::RC) {
    (void)vector_mode;
    zyx_emu_c::unary(zyx_emu_c::Recip, idst);
}
// Older form: vector_mode as an int.
template <bool legacy_compat = RECIP_LEGACY_COMPAT>
ALWI void recip_tile(uint32_t idst, int vector_mode) {
    recip_tile<legacy_compat>(idst, VectorMode(vector_mode));
}

// ---- sqrt, rsqrt (eltwise_unary/sqrt.h, rsqrt.h) -------------------------------------------------
ALWI void sqrt_tile_init() { zyx_emu_c::init(zyx_emu_c::Sqrt); }
template <bool FAST_APPROX = false>
ALWI void sqrt_tile(uint32_t idst) {
    zyx_emu_c::unary(zyx_emu_c::Sqrt, idst);
}
template <bool legacy_compat = false>
ALWI void rsqrt_tile_init() {
    zyx_emu_c::init(zyx_emu_c::Rsqrt);
}
template <bool legacy_compat = false, bool FAST_APPROX = false, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void rsqrt_tile(uint32_t idst) {
    zyx_emu_c::unary(zyx_emu_c::Rsqrt, idst);
}

// ---- compute_kernel_api.h: sigmoid, log, tanh, silu, abs, sign, signbit, square, exp2, … --------
template <bool fast_and_approx = false>
ALWI void sigmoid_tile_init() {
    zyx_emu_c::init(zyx_emu_c::Sigmoid);
}
template <VectorMode vec_mode = VectorMode::RC, bool fast_and_approx = false>
ALWI void sigmoid_tile(uint32_t idst) {
    zyx_emu_c::unary(zyx_emu_c::Sigmoid, idst);
}
ZYX_EMU_UNARY_APPROX(log, Log, false)
ZYX_EMU_UNARY_APPROX(tanh, Tanh, false)
ZYX_EMU_UNARY(silu, Silu)
ZYX_EMU_UNARY(abs, Abs)
ZYX_EMU_UNARY(sign, Sign)
ZYX_EMU_UNARY(signbit, Signbit)
ZYX_EMU_UNARY(square, Square)
ZYX_EMU_UNARY(exp2, Exp2)
ZYX_EMU_UNARY_PARAM(heaviside, Heaviside)  // param0: the value at x == 0, f32 bits
// power_tile(idst, param0): x^p with the exponent p as f32 bits.
ALWI void power_tile_init() { zyx_emu_c::init(zyx_emu_c::Power); }
ALWI void power_tile(uint32_t idst, uint32_t param0) { zyx_emu_c::unary(zyx_emu_c::Power, idst, param0); }
// power_iterative_tile(idst, n): x^n for an unsigned integer n (a plain integer, not f32 bits).
ALWI void power_iterative_tile_init() { zyx_emu_c::init(zyx_emu_c::PowerIterative); }
ALWI void power_iterative_tile(uint32_t idst, uint32_t param0) {
    zyx_emu_c::unary(zyx_emu_c::PowerIterative, idst, param0);
}

// ---- trigonometry.h, negative.h, gelu.h, erf_erfc.h, erfinv.h, isinf_isnan.h ---------------------
ZYX_EMU_UNARY(sin, Sin)
ZYX_EMU_UNARY(cos, Cos)
ZYX_EMU_UNARY(tan, Tan)
ZYX_EMU_UNARY(negative, Negative)
// gelu: fast_and_approx is ignored; the program's math_approx_mode picks the tanh formula.
ZYX_EMU_UNARY_APPROX(gelu, Gelu, true)
ZYX_EMU_UNARY_APPROX(erf, Erf, true)
ZYX_EMU_UNARY(erfinv, Erfinv)
ZYX_EMU_UNARY(isinf, IsInf)
ZYX_EMU_UNARY(isnan, IsNan)
ZYX_EMU_UNARY(logical_not_unary, LogicalNot)

// ---- relu.h, elu.h ------------------------------------------------------------------------------
ZYX_EMU_UNARY(relu, Relu)
ZYX_EMU_UNARY_PARAM(relu_max, ReluMax)  // param0: the upper limit, f32 bits
ZYX_EMU_UNARY_PARAM(relu_min, ReluMin)  // param0: the lower limit, f32 bits
ALWI void leaky_relu_tile_init() { zyx_emu_c::init(zyx_emu_c::LeakyRelu); }
ALWI void leaky_relu_tile(uint32_t idst, uint32_t slope = 0) { zyx_emu_c::unary(zyx_emu_c::LeakyRelu, idst, slope); }
ZYX_EMU_UNARY_PARAM(elu, Elu)  // param0: the slope, f32 bits

// ---- rounding.h -----------------------------------------------------------------------------------
ALWI void rounding_op_tile_init() { zyx_emu_c::init(zyx_emu_c::Floor); }
ZYX_EMU_UNARY(floor, Floor)  // floor_tile_init() etc.: the per-op inits of other tt-metal versions
ZYX_EMU_UNARY(ceil, Ceil)
ZYX_EMU_UNARY(trunc, Trunc)
// round_tile(idst, decimals): 10^-decimals · round_half_even(x · 10^decimals); init:
// rounding_op_tile_init().
ALWI void round_tile(uint32_t idst, int32_t decimals) { zyx_emu_c::unary(zyx_emu_c::Round, idst, uint32_t(decimals)); }

// ---- comp.h: compare with zero, or with a scalar param0 (f32 bits); 1.0 where true, else 0.0 ------
ZYX_EMU_UNARY(gtz, Gtz)
ZYX_EMU_UNARY(ltz, Ltz)
ZYX_EMU_UNARY(gez, Gez)
ZYX_EMU_UNARY(lez, Lez)
ZYX_EMU_UNARY(eqz, Eqz)
ZYX_EMU_UNARY(nez, Nez)
ZYX_EMU_UNARY_PARAM(unary_eq, UnaryEq)
ZYX_EMU_UNARY_PARAM(unary_ne, UnaryNe)
ZYX_EMU_UNARY_PARAM(unary_gt, UnaryGt)
ZYX_EMU_UNARY_PARAM(unary_lt, UnaryLt)
ZYX_EMU_UNARY_PARAM(unary_ge, UnaryGe)
ZYX_EMU_UNARY_PARAM(unary_le, UnaryLe)

// ---- binop_with_scalar.h: x op param1, param1 the scalar as f32 bits ----------------------------
// div_unary_tile multiplies by param1: tt-metal's LLK computes x · param1 ("inversion is carried
// out on host side"), and ttnn passes the reciprocal of the divisor. rsub_unary_tile is
// param1 − x (in a 16-bit DST rounded to bf16 nearest even, not truncated). The mode values are
// tt-metal's; the int32 forms (add_unary_tile_int32, sub_unary_tile_int32) are not provided.
enum { ADD_UNARY = 0, SUB_UNARY = 1, MUL_UNARY = 2, DIV_UNARY = 3, RSUB_UNARY = 4 };
ALWI void binop_with_scalar_tile_init() { zyx_emu_c::init(zyx_emu_c::AddScalar); }
ALWI void add_unary_tile(uint32_t idst, uint32_t param1) { zyx_emu_c::unary(zyx_emu_c::AddScalar, idst, param1); }
ALWI void sub_unary_tile(uint32_t idst, uint32_t param1) { zyx_emu_c::unary(zyx_emu_c::SubScalar, idst, param1); }
ALWI void mul_unary_tile(uint32_t idst, uint32_t param1) { zyx_emu_c::unary(zyx_emu_c::MulScalar, idst, param1); }
ALWI void div_unary_tile(uint32_t idst, uint32_t param1) { zyx_emu_c::unary(zyx_emu_c::DivScalar, idst, param1); }
ALWI void rsub_unary_tile(uint32_t idst, uint32_t param1) { zyx_emu_c::unary(zyx_emu_c::RsubScalar, idst, param1); }

// ---- softplus.h: softplus_tile(idst, beta, beta_reciprocal, threshold), f32 bits; only beta 1 ----
ALWI void softplus_tile_init() { zyx_emu_c::init(zyx_emu_c::Softplus); }
ALWI void softplus_tile(uint32_t idst, uint32_t beta = 0x3F800000u, uint32_t beta_reciprocal = 0x3F800000u,
                        uint32_t threshold = 0x41A00000u) {
    (void)beta_reciprocal;
    if (beta != 0x3F800000u) ZYX_EMU.kernel_fault("Unsupported: softplus_tile with beta != 1");
    zyx_emu_c::unary(zyx_emu_c::Softplus, idst, threshold);
}
#undef ZYX_EMU_UNARY
#undef ZYX_EMU_UNARY_PARAM
#undef ZYX_EMU_UNARY_APPROX

// ---- SFPU binary (eltwise_binary_sfpu.h): DST[odst] = DST[idst0] op DST[idst1] -----------------
#define ZYX_EMU_BINARY_INIT(name, OP) \
    ALWI void name##_tile_init() { zyx_emu_c::init(100 + zyx_emu_c::OP); }
// add, sub, rsub: template <DstRoundingMode, bool is_fp32_dest_acc_en>.
#define ZYX_EMU_BINARY_ROUNDED(name, OP)                                                                               \
    ZYX_EMU_BINARY_INIT(name, OP)                                                                                      \
    template <DstRoundingMode dst_rounding_mode = DstRoundingMode::Default, bool is_fp32_dest_acc_en = DST_ACCUM_MODE> \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) {                                             \
        zyx_emu_c::binary(zyx_emu_c::OP, idst0, idst1, odst);                                                          \
    }
// mul, div, power: template <bool is_fp32_dest_acc_en>.
#define ZYX_EMU_BINARY_ACC(name, OP)                                       \
    ZYX_EMU_BINARY_INIT(name, OP)                                          \
    template <bool is_fp32_dest_acc_en = DST_ACCUM_MODE>                   \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) { \
        zyx_emu_c::binary(zyx_emu_c::OP, idst0, idst1, odst);              \
    }
// comparisons: no template parameters; 1.0 where true, 0.0 where false.
#define ZYX_EMU_BINARY_PLAIN(name, OP)                                     \
    ZYX_EMU_BINARY_INIT(name, OP)                                          \
    ALWI void name##_tile(uint32_t idst0, uint32_t idst1, uint32_t odst) { \
        zyx_emu_c::binary(zyx_emu_c::OP, idst0, idst1, odst);              \
    }
ZYX_EMU_BINARY_ROUNDED(add_binary, BAdd)
ZYX_EMU_BINARY_ROUNDED(sub_binary, BSub)
ZYX_EMU_BINARY_ROUNDED(rsub_binary, BRsub)
ZYX_EMU_BINARY_ACC(mul_binary, BMul)
ZYX_EMU_BINARY_ACC(div_binary, BDiv)
ZYX_EMU_BINARY_ACC(power_binary, BPower)
ZYX_EMU_BINARY_PLAIN(eq_binary, BEq)
ZYX_EMU_BINARY_PLAIN(ne_binary, BNe)
ZYX_EMU_BINARY_PLAIN(lt_binary, BLt)
ZYX_EMU_BINARY_PLAIN(gt_binary, BGt)
ZYX_EMU_BINARY_PLAIN(le_binary, BLe)
ZYX_EMU_BINARY_PLAIN(ge_binary, BGe)
// binary_fmod.h, binary_remainder.h (the float forms): fmod_binary_tile, remainder_binary_tile.
ZYX_EMU_BINARY_PLAIN(fmod_binary, BFmod)
ZYX_EMU_BINARY_PLAIN(remainder_binary, BRemainder)
// binary_max_min.h: binary_max_tile(idst0, idst1, odst, vector_mode).
ZYX_EMU_BINARY_INIT(binary_max, BMax)
ZYX_EMU_BINARY_INIT(binary_min, BMin)
ALWI void binary_max_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, VectorMode vector_mode = VectorMode::RC) {
    (void)vector_mode;
    zyx_emu_c::binary(zyx_emu_c::BMax, idst0, idst1, odst);
}
ALWI void binary_min_tile(uint32_t idst0, uint32_t idst1, uint32_t odst, VectorMode vector_mode = VectorMode::RC) {
    (void)vector_mode;
    zyx_emu_c::binary(zyx_emu_c::BMin, idst0, idst1, odst);
}
#undef ZYX_EMU_BINARY_INIT
#undef ZYX_EMU_BINARY_ROUNDED
#undef ZYX_EMU_BINARY_ACC
#undef ZYX_EMU_BINARY_PLAIN

// ---- where (eltwise_unary/where.h): DST[odst] = DST[idst0] != 0 ? DST[idst1] : DST[idst2] ----------
// The condition is nonzero when any of its bits is set (−0.0 selects idst1, as on silicon).
template <DataFormat data_format>
ALWI void where_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    static_assert(
        data_format == DataFormat::Float32 || data_format == DataFormat::Float16_b ||
            data_format == DataFormat::Int32 || data_format == DataFormat::UInt32,
        "Unsupported data format for _calculate_where_(). Only Float32, Int32, UInt32, and Float16_b are allowed.");
    ZYX_EMU.sfpu_where(idst0, idst1, idst2, odst, uint32_t(data_format));
}
ALWI void where_tile_init() { zyx_emu_c::init(zyx_emu_c::InitWhere); }
// Older tt-metal forms (before where_tile took its format): the untyped where_tile is bf16.
ALWI void where_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    where_tile<DataFormat::Float16_b>(idst0, idst1, idst2, odst);
}
ALWI void where_fp32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    where_tile<DataFormat::Float32>(idst0, idst1, idst2, odst);
}
ALWI void where_int32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    where_tile<DataFormat::Int32>(idst0, idst1, idst2, odst);
}
ALWI void where_uint32_tile(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst) {
    where_tile<DataFormat::UInt32>(idst0, idst1, idst2, odst);
}

// ---- sfpu_reduce (compute_kernel_api.h): each column of DST[idst] reduced into row 0 -------------
// Rows 1–3 then hold scratch, rows 4–31 keep their values (docs/numerics.md §6). The signature
// and static_asserts are tt-metal's; its REDUCE_ROW (SUM, MAX) and the multi-tile block
// (ct_dim, rt_dim ≠ 1) compile but fault "Unsupported" (not modelled).
namespace zyx_emu_c {
template <PoolType pool_type, DataFormat format>
constexpr bool sfpu_reduce_args_ok() {
    static_assert(format == DataFormat::Float32 || format == DataFormat::Int32 || format == DataFormat::UInt32 ||
                      format == DataFormat::UInt16 || format == DataFormat::Float16_b,
                  "Unsupported data format. Supported formats: Float32, Int32, UInt32, UInt16, Float16_b");
    static_assert(pool_type == PoolType::SUM || pool_type == PoolType::AVG || pool_type == PoolType::MAX ||
                      pool_type == PoolType::MIN,
                  "Unsupported pool type. Supported pool types: SUM, AVG, MAX, MIN");
    return true;
}
}  // namespace zyx_emu_c
template <PoolType pool_type, DataFormat format, ReduceDim reduce_dim = ReduceDim::REDUCE_COL>
ALWI void sfpu_reduce(uint32_t idst, uint32_t ct_dim = 1, uint32_t rt_dim = 1) {
    static_assert(
        reduce_dim == ReduceDim::REDUCE_COL ||
            (reduce_dim == ReduceDim::REDUCE_ROW && (pool_type == PoolType::SUM || pool_type == PoolType::MAX)),
        "Only column reduction (REDUCE_COL) is supported for all pool types; row reduction (REDUCE_ROW) is only "
        "supported for SUM and MAX");
    static_assert(zyx_emu_c::sfpu_reduce_args_ok<pool_type, format>());
    if (reduce_dim != ReduceDim::REDUCE_COL || ct_dim != 1 || rt_dim != 1) [[unlikely]]
        ZYX_EMU.kernel_fault("Unsupported: sfpu_reduce with REDUCE_ROW or a block of tiles (ct_dim, rt_dim != 1)");
    ZYX_EMU.sfpu_reduce(idst, uint32_t(pool_type), uint32_t(reduce_dim), uint32_t(format));
}
template <PoolType pool_type, DataFormat format>
ALWI void sfpu_reduce_init() {
    static_assert(zyx_emu_c::sfpu_reduce_args_ok<pool_type, format>());
    zyx_emu_c::init(zyx_emu_c::InitReduce);
}

// ---- transpose_wh_dest.h / transpose_dest.h: DST[idst] = DST[idst]ᵀ in place ---------------------
// is_32bit must say whether DST holds 32-bit words (fp32_dest_acc_en): with is_32bit = false on a
// 32-bit DST only the high 16 bits of each word move, as on silicon. The init's operand (newer
// tt-metal) is accepted and unused. transpose_of_faces = false (face-internal transpose only) is
// not modelled.
template <bool is_32bit = false, bool transpose_of_faces = true>
ALWI void transpose_wh_dest_init_short(uint32_t operand = 0) {
    (void)operand;
    zyx_emu_c::init(zyx_emu_c::InitTransposeDest);
}
template <bool is_32bit = false, bool transpose_of_faces = true>
ALWI void transpose_wh_dest(uint32_t idst) {
    if constexpr (!transpose_of_faces)
        ZYX_EMU.kernel_fault("Unsupported: transpose_wh_dest<…, transpose_of_faces = false> (face-internal transpose)");
    ZYX_EMU.transpose_dest(idst, is_32bit);
}
// The same under tt-metal's newer names.
template <bool is_32bit = false, bool transpose_of_faces = true>
ALWI void transpose_dest_init(uint32_t operand = 0) {
    transpose_wh_dest_init_short<is_32bit, transpose_of_faces>(operand);
}
template <bool is_32bit = false, bool transpose_of_faces = true>
ALWI void transpose_dest(uint32_t idst) {
    transpose_wh_dest<is_32bit, transpose_of_faces>(idst);
}

// ---- fill (eltwise_unary/fill.h) ------------------------------------------------------------------
ALWI void fill_tile_init() { zyx_emu_c::init(zyx_emu_c::InitFill); }
ALWI void fill_tile(uint32_t idst, float param0) { ZYX_EMU.sfpu_fill(idst, zyx_emu_c::f32_bits(param0), true); }
ALWI void fill_tile_bitcast(uint32_t idst, uint32_t param0) { ZYX_EMU.sfpu_fill(idst, param0, true); }
template <DataFormat DATA_FORMAT = DataFormat::Int32>
ALWI void fill_tile_int(uint32_t idst, uint32_t param0) {
    static_assert(
        DATA_FORMAT == DataFormat::Int32 || DATA_FORMAT == DataFormat::UInt32 || DATA_FORMAT == DataFormat::UInt16,
        "Unsupported data format for fill_tile_int. Supported: Int32, UInt32, UInt16");
    ZYX_EMU.sfpu_fill(idst, param0, false);
}

// ---- typecast (eltwise_unary/typecast.h): IN/OUT are tt::DataFormat codes ------------------------
// The init's defaults accept the older typecast_tile_init() without arguments.
template <uint32_t IN_DTYPE = 0, uint32_t OUT_DTYPE = 0>
ALWI void typecast_tile_init() {
    zyx_emu_c::init(zyx_emu_c::InitTypecast);
}
template <uint32_t IN_DTYPE, uint32_t OUT_DTYPE, bool is_fp32_dest_acc_en = DST_ACCUM_MODE>
ALWI void typecast_tile(uint32_t idst) {
    ZYX_EMU.sfpu_typecast(idst, IN_DTYPE, OUT_DTYPE);
}

// ---- copy_dest_values (copy_dest_values.h): DST[idst_out] = DST[idst_in], bit for bit ------------
// tt-metal's current form takes the data format; the older untyped copy_dest_values(idst0, idst1)
// copied idst1 into idst0 (the other order), so it is deliberately not provided.
ALWI void copy_dest_values_init() { zyx_emu_c::init(zyx_emu_c::InitCopyDest); }
template <DataFormat DATA_FORMAT>
ALWI void copy_dest_values(uint32_t idst_in, uint32_t idst_out) {
    ZYX_EMU.copy_dest(idst_in, idst_out);
}

}  // namespace ckernel
