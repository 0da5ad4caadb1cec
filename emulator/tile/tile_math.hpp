// Tile numerics of the Tensix emulator: pure functions on 32×32 tiles, no state, no fibers.
//
// Contract shared by the emulator's compute API (which calls these) and the tests:
// - A register tile (a DST slot, an unpacked SrcA/SrcB operand) is `float[1024]`, ROW-MAJOR,
//   64-byte aligned. Faces exist only in L1: unpack_tile reads the four 16×16 faces
//   (f0 top-left, f1 top-right, f2 bottom-left, f3 bottom-right, each row-major) and
//   pack_tile writes them back. Element (r,c) of a tile sits at L1 datum
//   face_index(r,c) = ((r/16)*2 + c/16)*256 + (r%16)*16 + c%16.
// - DST is modelled in fp32. When fp32_dest_acc_en is off, DST holds 16-bit values: the caller
//   passes dest16 = true and the results are rounded to the CB's 16-bit format after each op
//   (FPU results round to nearest; SFPU stores truncate), as docs/numerics.md §4 describes.
// - Every function works on one tile and is safe to call from many threads at once.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "core/tenstorrent_names.hpp"

namespace zyx::emu {
// The shared tt::DataFormat and MathFidelity (core/tenstorrent_names.hpp), under the names the
// emulator uses; emu/device.hpp declares the same aliases.
using DataFormat = ::zyx::tt::DataFormat;
using MathFidelity = ::zyx::tt::MathFidelity;
}  // namespace zyx::emu

namespace zyx::emu::tile {

inline constexpr uint32_t kTileDim = 32;
inline constexpr uint32_t kTileElems = 1024;
inline constexpr uint32_t kFaceDim = 16;

constexpr uint32_t face_index(uint32_t r, uint32_t c) {
    return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + (c % 16);
}

// ---- L1 ↔ registers --------------------------------------------------------------------------

// Reads one tile of format `fmt` (face order, tile_size_bytes(fmt) bytes) into a row-major fp32
// tile. Float16_b/Float16/Float32 widen exactly; Bfp8_b expands its shared exponents; Int32 and
// UInt32 words are copied bit for bit (integer DST data), UInt16/UInt8 are widened to uint32.
// `tf32_src`: when true, fp32 inputs are reduced to the 19-bit SrcA/SrcB precision (TF32) the
// FPU sees; copy_tile into a 32-bit DST passes false.
// Float16 is Tensix FP16 (docs/numerics.md): exponent 31 is an ordinary binade (no inf/NaN), so
// the IEEE bit pattern of inf (0x7c00) reads as 65536. Any other format throws
// Error(Unsupported) naming the format.
void unpack_tile(DataFormat fmt, const void* l1, float* out, bool tf32_src = false);

// Writes a row-major fp32 tile into L1 in format `fmt` with the packer's conversion:
// to Float16_b round to nearest, ties away from zero, denormals and −0 → +0, NaN → inf of the
// NaN's sign; Float16 rounds likewise to 10 mantissa bits, then saturates at 0x7fff (Tensix
// FP16 max 131008; inf too) and flushes below 2^-14; Float32 bit-exact; Bfp8_b one shared
// exponent per 16 datums of a face row; UInt16/UInt8 keep the low bits. Other formats throw
// Error(Unsupported). Every rule and its source: docs/numerics.md §3.
void pack_tile(DataFormat fmt, const float* in, void* l1);

// The rounding a 16-bit DST applies to a value written into it. `fmt` is Float16_b or Float16
// (else Error(Unsupported)). Results in the denormal range become signed zeros; a Float16 DST
// saturates at ±131008 and has no NaN/inf (docs/numerics.md §4).
void dest16_round(DataFormat fmt, float* t, Rounding r);

// pack_tile(fmt, t) of the tile t that dest16_round(dest_fmt, t, r) would make of `in`, without
// writing `in`: how the emulator packs a 16-bit DST tile whose rounding it has deferred. Bit for
// bit the two calls (tested); Float16_b DST → Float16_b CB with NearestEven, the FPU's case, is
// one pass, other combinations round a copy first.
void pack_tile_rounded(DataFormat fmt, DataFormat dest_fmt, Rounding r, const float* in, void* l1);

// ---- row-major ("untilized") L1 data: tilize / untilize ---------------------------------------
// tt-metal's tilize_block / untilize_block / pack_untilize_block move tiles between the face
// order above and row-major rows ("sticks", tt-metal docs "Tiles" / api/compute/tilize.h): a
// block of N tiles side by side is 32 rows of N·32 datums, row r at byte r·row_bytes.

// Bytes per datum of `fmt` in row-major form: 4 for Float32 / Int32 / UInt32, 2 for Float16_b /
// Float16 / UInt16, 1 for UInt8; 0 for the block-float formats (no row-major form: their
// exponents are shared along face rows) and every other format.
uint32_t row_major_datum_bytes(DataFormat fmt);
// Gathers one tile from row-major L1 (`rows`: the tile's top-left datum, rows `row_bytes`
// apart) into face order (`faces`: datum_bytes·1024 bytes). A byte shuffle, no conversion.
void rows_to_faces(uint32_t datum_bytes, const void* rows, uint32_t row_bytes, void* faces);
// The inverse: scatters a face-ordered tile into row-major L1. `faces` and `rows` must not overlap.
void faces_to_rows(uint32_t datum_bytes, const void* faces, void* rows, uint32_t row_bytes);

// ---- FPU (matrix engine) ---------------------------------------------------------------------

enum class EltwiseOp : uint8_t { Add, Sub, Mul };
// Broadcast of the B operand (bcast.h): Row = row 0 of B to every row, Col = column 0 of B to
// every column, Scalar = B[0][0] everywhere.
enum class Broadcast : uint8_t { None, Row, Col, Scalar };

// dst = a op bcast(b), or dst += a op bcast(b) when acc_to_dest. a is SrcA, b is SrcB; Add and
// Sub ignore fidelity, Mul applies it. dst may alias a or b.
void eltwise_binary(EltwiseOp op, Broadcast bcast, const float* a, const float* b, float* dst, bool acc_to_dest,
                    MathFidelity fidelity);

// dst = bcast(src): the datacopy of unary_bcast (bcast.h), src's row 0 (Row), column 0 (Col) or
// [0][0] (Scalar) repeated over the tile; None copies. Values move unchanged. dst may alias src.
void broadcast(Broadcast bcast, const float* src, float* dst);

// dst += a · (transpose_b ? bᵀ : b). The hot path of emulated matmul: keep it fast.
// a is in0 (SrcB on silicon), b is in1 (SrcA); fidelity truncates their mantissas as the
// multiplier's phases do (docs/numerics.md §5). dst must not alias a or b.
// Each dst element is a chain of fp32 fused multiply-adds over k in the order 1, 0, 3, 2, …,
// 31, 30 (pairs, odd k first), denormal inputs read as zero and denormal results flushed.
void matmul(const float* a, const float* b, float* dst, bool transpose_b, MathFidelity fidelity);

// The same for two Float16_b tiles as they sit in L1 (face order, 2048 B each): bit for bit
// unpack_tile(Float16_b, …) of both, then matmul. At HiFi4 it packs both operands (below) and
// runs matmul_packed_bf16.
void matmul_bf16(const void* a_l1, const void* b_l1, float* dst, bool transpose_b, MathFidelity fidelity);

// Float16_b operands packed two k at a time (512 words each), so an operand used by several
// products is unpacked once:
// - in0: word i·16 + p = (a[i][2p], a[i][2p+1]), the even element in the low half;
// - in1: word p·32 + j = (b[2p][j], b[2p+1][j]), of bᵀ when transpose_b.
void pack_matmul_in0_bf16(const void* l1, uint32_t* out);
void pack_matmul_in1_bf16(const void* l1, bool transpose_b, uint32_t* out);
// dst += a · b at HiFi4 on packed operands, in matmul's order. On a host whose VDPBF16PS computes
// exactly that order (matmul_bf16_uses_dot_product) it multiplies two k at a time, about 1.7×
// as fast as matmul; elsewhere it widens the pairs and runs matmul's kernel.
void matmul_packed_bf16(const uint32_t* a, const uint32_t* b, float* dst);

// True when this host has AVX512-BF16 and its VDPBF16PS gave the result of two fused
// multiply-adds (odd element first, DAZ and FTZ) on a fixed set of probe cases, checked once
// per process; matmul_bf16 uses it only then.
bool matmul_bf16_uses_dot_product();

// Min exists for sfpu_reduce_col only: the FPU reduce throws Unsupported for it.
enum class PoolType : uint8_t { Sum, Avg, Max, Min };
enum class ReduceDim : uint8_t { Row, Col, Scalar };
// Accumulating reduce as reduce_tile does, with the scaler tile's row 0 of each face applied:
// Row: dst[r][0] += sum_c in[r][c] * scale (Max: max with previous dst) …; Col: dst[0][c];
// Scalar: dst[0][0]. Other DST elements are left as they were.
// The scale of element k along the reduced axis is scaler row 0, column k (Scalar: column c).
// Sum/Avg multiply by it; Max multiplies by its power of two only (GMPOOL uses the exponent).
void reduce(PoolType pool, ReduceDim dim, const float* in, const float* scaler, float* dst);
// The same, for a DST slot not written since tile_regs_acquire (`dst_cleared` = true): GMPOOL
// reads a cleared DST row as −inf, so a Max then starts from −inf instead of from 0.
// Sum/Avg behave as above (a cleared row reads as 0).
void reduce(PoolType pool, ReduceDim dim, const float* in, const float* scaler, float* dst, bool dst_cleared);

// dst = inᵀ (transpose_wh_tile).
void transpose(const float* in, float* dst);

// transpose_wh_dest / transpose_dest: t = tᵀ in place, on a DST tile (MOVD2B / MOVB2D moves,
// tt-llk's _llk_math_transpose_dest_; docs/numerics.md §5 "transpose in DST"). `dest32` is the
// program's fp32_dest_acc_en, `is_32bit` the kernel's template argument:
// - 16-bit DST, is_32bit false: the transpose, with datums whose exponent field is 0 (zeros and
//   denormals) written as zeros of their sign (the move's zero flag).
// - 32-bit DST, is_32bit true: the exact bitwise transpose (the low-16-bit pass runs too).
// - 32-bit DST, is_32bit false: only the high 16 bits of every word move (flushed as above when
//   their exponent field is 0); the low 16 bits stay where they were.
// - 16-bit DST, is_32bit true: throws Error(Unsupported) (not modelled).
void transpose_dest(float* t, bool dest32, bool is_32bit);

// ---- SFPU (vector engine, DST → DST) ---------------------------------------------------------

enum class SfpuUnary : uint8_t {
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
    PowerIterative,  // power_iterative_tile: x^n for an unsigned integer n (param is n, not f32 bits)
    // comp.h, compare with zero: 1.0 where x OP 0, else 0.0 (gtz_tile, ltz_tile, …)
    Gtz,
    Ltz,
    Gez,
    Lez,
    Eqz,
    Nez,
    // comp.h, compare with the scalar param (f32 bits): 1.0 where x OP p (unary_eq_tile, …)
    UnaryEq,
    UnaryNe,
    UnaryGt,
    UnaryLt,
    UnaryGe,
    UnaryLe,
    Round,  // round_tile: round half to even at `param` decimals (param is an int32, not f32 bits)
    // binop_with_scalar.h, x op the scalar param (f32 bits): add_unary_tile, sub_unary_tile,
    // mul_unary_tile, div_unary_tile (x · param: the caller passes the reciprocal, as ttnn does),
    // rsub_unary_tile (param − x)
    AddScalar,
    SubScalar,
    MulScalar,
    DivScalar,
    RsubScalar,
    // exp_tile<approx, scale_en = true>(idst, mode, scale): exp(x · param), param the scale as f32
    // bits (the kernel's bf16 scale widened)
    ExpScaled,
};
// In-place on one DST tile. `param` is the op's argument as the kernel API passes it, as raw f32
// bits: the exponent for Power, the threshold for ReluMax/ReluMin, the slope for LeakyRelu/Elu,
// the value at x == 0 for Heaviside, the scalar of UnaryEq … UnaryLe and AddScalar … RsubScalar
// (PowerIterative takes a plain unsigned integer, Round the number of decimals as an int32).
// `approx` selects the APPROX variants; the emulator computes them at full accuracy except Gelu
// (tanh form). Every op's definition, and the accuracy of the transcendental ones (glibc's
// libmvec, ≤ 4 ulp), is in docs/numerics.md §6.
void sfpu_unary(SfpuUnary op, float* t, uint32_t param, bool approx);

enum class SfpuBinary : uint8_t {
    Add,
    Sub,
    Rsub,
    Mul,
    Div,
    Power,
    Max,
    Min,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Fmod,       // fmod_binary_tile: a − trunc(a/b)·b, the sign of a
    Remainder,  // remainder_binary_tile: a − floor(a/b)·b, the sign of b
};
// out = a op b elementwise (out may alias a or b).
void sfpu_binary(SfpuBinary op, const float* a, const float* b, float* out);
// The same with one operand a tile whose every element is the f32 word `b_bits` (`a_bits`),
// given as that word: bit for bit what sfpu_binary returns for the filled tile (the emulator
// keeps a filled DST tile as its word until something needs the tile). out may alias the tile.
void sfpu_binary_scalar(SfpuBinary op, const float* a, uint32_t b_bits, float* out);
void sfpu_binary_scalar(SfpuBinary op, uint32_t a_bits, const float* b, float* out);

// where_tile: out = (cond != 0) ? a : b elementwise, whole 32-bit words moved unchanged. The
// condition is tested on its bits, as SFPSETCC does: any nonzero word (−0.0, a denormal, NaN)
// selects a. out may alias any input.
void where(const float* cond, const float* a, const float* b, float* out);

// sfpu_reduce<pool, fmt, REDUCE_COL>: each column of the DST tile `t` reduced into row 0, in
// place (an SFPU op: no SrcA/SrcB precision loss). How the 32-bit words are read: Float32 and
// Float16_b as floats (Sum: exact sum rounded once to fp32; Avg: that sum × 1/32; Max / Min by
// SFPSWAP's order −NaN < −inf < … < −0 < +0 < … < +inf < +NaN, so the result is one of the
// column's words bit for bit), Int32 as two's complement and UInt32 / UInt16 as unsigned (Sum
// wraps to the format's width; Avg = Sum / 32 rounded toward zero). Rows 1–3 are overwritten
// with kSfpuReduceScratch (silicon leaves intermediate partial results there), rows 4–31 keep
// their values. docs/numerics.md §6. Other pools or formats throw Error(Unsupported).
void sfpu_reduce_col(PoolType pool, DataFormat fmt, float* t);
// The word sfpu_reduce_col writes into rows 1–3: a quiet NaN as f32 (0xffff for UInt16).
inline constexpr uint32_t kSfpuReduceScratch = 0x7fc0ffffu;

// Every element set to v (fill_tile), or to the f32 with bits `bits` (fill_tile_bitcast,
// fill_tile_int: integer DST data is stored bit for bit in the float slots).
void fill(float* t, float v);
void fill_bits(float* t, uint32_t bits);

// out = in, bit for bit (copy_dest_values); in == out is allowed (nothing to do).
void copy(const float* in, float* out);

// typecast_tile: converts the DST tile between the number formats given as tt::DataFormat
// (Float32/Float16_b/Float16/Bfp8_b ↔ Int32/UInt32/UInt16/UInt8, and between the integer
// formats). Float↔float is a no-op (the packer converts). Float → integer rounds to nearest
// even and saturates (NaN → 0, negative → 0 for unsigned). Integer DST data is two's
// complement (docs/numerics.md). Other formats throw Error(Unsupported).
void typecast(DataFormat in, DataFormat out, float* t);

// ---- SFPU integer binary ops (tile_sfpu_int.cpp) ----------------------------------------------

// The integer SFPU ops on two DST tiles (tt-metal's add_int_tile … fmod_int32_tile). The words
// are two's complement; results wrap. docs/numerics.md §6 "Integer SFPU ops" defines each.
enum class SfpuBinaryInt : uint8_t {
    Add,
    Sub,
    Rsub,
    Mul,  // a + b, a − b, b − a, low bits of a·b
    And,
    Or,
    Xor,  // bitwise
    Shl,
    Shr,
    ShrLogical,  // a << b, a >> b (sign-filling), a >>> b; b outside [0, 31] → 0
    Lt,
    Gt,
    Le,
    Ge,  // 1 or 0 (integer words)
    Max,
    Min,  // Int32 signed, UInt32 unsigned
    DivFloor,
    DivTrunc,
    DivFloat,  // Int32 quotient rounded down / toward 0; Float32 quotient
    Remainder,
    Fmod,  // a − floor(a/b)·b (sign of b), a − trunc(a/b)·b (sign of a)
};
// out = a op b on the 32-bit words of the tiles (out may alias a or b). `fmt` is the kernel's
// DataFormat: Int32, UInt32 or UInt16 (UInt16: the low 16 bits of each word, a zero-extended
// result); Max/Min take Int32 and UInt32, the division family Int32 only. Other formats throw
// Error(Unsupported).
void sfpu_binary_int(SfpuBinaryInt op, DataFormat fmt, const float* a, const float* b, float* out);

}  // namespace zyx::emu::tile
