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
//   (FPU results round to nearest; SFPU stores truncate), as metalium.md §3.5 describes.
// - Every function works on one tile and is safe to call from many threads at once.
#pragma once

#include <cstdint>

#include "core/dtype.hpp"
#include "emu/device.hpp"  // DataFormat, MathFidelity

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

// ---- FPU (matrix engine) ---------------------------------------------------------------------

enum class EltwiseOp : uint8_t { Add, Sub, Mul };
// Broadcast of the B operand (bcast.h): Row = row 0 of B to every row, Col = column 0 of B to
// every column, Scalar = B[0][0] everywhere.
enum class Broadcast : uint8_t { None, Row, Col, Scalar };

// dst = a op bcast(b), or dst += a op bcast(b) when acc_to_dest. a is SrcA, b is SrcB; Add and
// Sub ignore fidelity, Mul applies it. dst may alias a or b.
void eltwise_binary(EltwiseOp op, Broadcast bcast, const float* a, const float* b, float* dst,
                    bool acc_to_dest, MathFidelity fidelity);

// dst += a · (transpose_b ? bᵀ : b). The hot path of emulated matmul: keep it fast.
// a is in0 (SrcB on silicon), b is in1 (SrcA); fidelity truncates their mantissas as the
// multiplier's phases do (docs/numerics.md §5). dst must not alias a or b.
void matmul(const float* a, const float* b, float* dst, bool transpose_b, MathFidelity fidelity);

enum class PoolType : uint8_t { Sum, Avg, Max };
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
void reduce(PoolType pool, ReduceDim dim, const float* in, const float* scaler, float* dst,
            bool dst_cleared);

// dst = inᵀ (transpose_wh_tile).
void transpose(const float* in, float* dst);

// ---- SFPU (vector engine, DST → DST) ---------------------------------------------------------

enum class SfpuUnary : uint8_t {
    Exp, Exp2, Log, Sqrt, Rsqrt, Recip, Sin, Cos, Tan, Negative, Abs, Relu, ReluMax, ReluMin,
    LeakyRelu, Sigmoid, Tanh, Gelu, Silu, Square, Power, Sign, Signbit, Floor, Ceil, Trunc,
    Elu, Erf, Erfinv, IsInf, IsNan, LogicalNot, Heaviside, Softplus,
    PowerIterative,  // power_iterative_tile: x^n for an unsigned integer n (param is n, not f32 bits)
};
// In-place on one DST tile. `param` is the op's argument as the kernel API passes it, as raw f32
// bits: the exponent for Power, the threshold for ReluMax/ReluMin, the slope for LeakyRelu/Elu,
// the value at x == 0 for Heaviside (PowerIterative alone takes a plain unsigned integer).
// `approx` selects the APPROX variants; the emulator computes them at full accuracy except Gelu
// (tanh form). Every op's definition is in docs/numerics.md.
void sfpu_unary(SfpuUnary op, float* t, uint32_t param, bool approx);

enum class SfpuBinary : uint8_t { Add, Sub, Rsub, Mul, Div, Power, Max, Min, Eq, Ne, Lt, Gt, Le, Ge };
// out = a op b elementwise (out may alias a or b).
void sfpu_binary(SfpuBinary op, const float* a, const float* b, float* out);

// Every element set to v (fill_tile), or to the f32 with bits `bits` (fill_tile_bitcast,
// fill_tile_int: integer DST data is stored bit for bit in the float slots).
void fill(float* t, float v);
void fill_bits(float* t, uint32_t bits);

// typecast_tile: converts the DST tile between the number formats given as tt::DataFormat
// (Float32/Float16_b/Float16/Bfp8_b ↔ Int32/UInt32/UInt16/UInt8, and between the integer
// formats). Float↔float is a no-op (the packer converts). Float → integer rounds to nearest
// even and saturates (NaN → 0, negative → 0 for unsigned). Integer DST data is two's
// complement (docs/numerics.md). Other formats throw Error(Unsupported).
void typecast(DataFormat in, DataFormat out, float* t);

}  // namespace zyx::emu::tile
