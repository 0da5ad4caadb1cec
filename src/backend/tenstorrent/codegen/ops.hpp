// The one table of how the IR's ops run on the Tensix compute engine: which ops and dtypes have
// a tile form (tile_op_ok, read by the planner) and the kernel API calls that compute them
// (emit_op, written by the compute emitter). Both read the same switch below, so what the
// planner accepts is exactly what the emitter can write.
//
// Numbers in DST: every value is an f32 in a 32-bit DST (fp32_dest_acc_en), whatever its dtype:
// f32 and bf16 values (a 16-bit float is rounded once, by the packer, when it is stored — the
// IR's own rule, docs/ir.md; a cast between float dtypes inside a kernel is not rounded, see
// docs/numerics.md), booleans as 0.0 / 1.0 (comparisons give those), i32 values as Int32 words
// (two's complement, computed by the integer SFPU ops: `words`), and the other integer dtypes
// as exact f32 integers while the planner can bound them below 2^24. All math is on the SFPU
// (exact f32 IEEE arithmetic, no 19-bit SrcA/SrcB), except matmul_tiles (FPU, fp32 accumulation).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "backend/tenstorrent/protocol.hpp"
#include "kernel/kernel.hpp"

namespace zyx::tt::codegen {

// Integer launch scalars are computed as f32 on the tile engine: the planner bounds them by this
// and TTDevice::launch refuses a value beyond it (docs/numerics.md).
inline constexpr double kIntScalarLimit = 4194304.0;  // 2^22

// Source tiles a gather reader keeps in L1 (a direct-mapped cache by tile id).
inline constexpr uint32_t kGatherCacheTiles = 8;
// Pages of an input stream's and of the output's circular buffer: the reader runs up to four
// tiles ahead of compute, compute four ahead of the writer (two pages made the emulated cores
// switch at nearly every tile: bench_tt gelu ran ~15 % slower).
inline constexpr uint32_t kStreamPages = 4;

const char* data_format_cpp(protocol::DataFormat f);  // "DataFormat::Float32"

// Whether values of dtype t are Int32 words in DST (i32: the integer SFPU ops compute them, with
// the IR's wrap-around), rather than f32 values.
inline bool words(DType t) { return t == DType::i32; }

// Dtypes a node may have on the tile engine (f32, bf16, bool, integers as bounded f32 values).
bool tile_dtype_ok(DType t);
// Whether node `i` of `k` has a tile form; else a reason in *why.
bool tile_op_ok(const kernel::Kernel& k, int i, std::string* why);

// Writes the calls that compute elementwise node `i` of `k` in DST: its operands are in slots
// `a`, `b`, `c` (as many as it has), its result goes to slot `out`, which may be `a` but not `b`
// or `c`; `scratch` holds op_scratch(k, i) more free slots the form needs. Inits are written
// through the tracker, which writes an init only when the engine is not already configured
// for it (the tracker is reset where control flow joins).
struct InitTracker {
    std::string current;  // the last init written in this straight-line section
    void reset() { current.clear(); }
};
void emit_op(std::ostringstream& os, const std::string& ind, InitTracker& inits, const kernel::Kernel& k, int i,
             uint32_t a, uint32_t b, uint32_t c, uint32_t out, const uint32_t* scratch);
// Scratch slots emit_op needs for node i (0, 1 or 2).
uint32_t op_scratch(const kernel::Kernel& k, int i);
// Writes one init through the tracker; fill_tile_bitcast of `bits` into `slot`; a DST slot copy.
void emit_init(std::ostringstream& os, const std::string& ind, InitTracker& inits, const std::string& text);
void emit_fill(std::ostringstream& os, const std::string& ind, InitTracker& inits, uint32_t slot, uint32_t bits);
void emit_copy(std::ostringstream& os, const std::string& ind, InitTracker& inits, uint32_t src, uint32_t dst);
// typecast_tile of `slot` in place: f32 → Int32 words (to_words: nearest even, saturating, NaN
// → 0) or Int32 words → f32 (nearest even).
void emit_typecast(std::ostringstream& os, const std::string& ind, InitTracker& inits, bool to_words, uint32_t slot);
// `name`_tile(slot) with its init (isnan, trunc, …).
void emit_unary(std::ostringstream& os, const std::string& ind, InitTracker& inits, const std::string& name,
                uint32_t slot);
void emit_binary(std::ostringstream& os, const std::string& ind, InitTracker& inits, const std::string& name,
                 uint32_t a, uint32_t b, uint32_t out);
// acc = combine(acc, v) for a reduce op (add, mul, and max / min keeping NaN as the IR does);
// `scratch` holds combine_scratch(op, t) free slots.
void emit_combine(std::ostringstream& os, const std::string& ind, InitTracker& inits, kernel::Op reduce, DType t,
                  uint32_t acc, uint32_t v, const uint32_t* scratch);
uint32_t combine_scratch(kernel::Op reduce, DType t);
// The exponent of an integer pow when node i is a constant in [0, 64), else -1.
int small_exponent(const kernel::Kernel& k, int i);
// Whether node i's only use is the kernel's output (its rounding or conversion is then the
// packer's, at store).
bool only_feeds_output(const kernel::Kernel& k, int i);

// f32 bits of a value held in raw bits of dtype t (constants and scalars of the kernel).
uint32_t f32_bits_of(DType t, uint64_t bits);

}  // namespace zyx::tt::codegen
