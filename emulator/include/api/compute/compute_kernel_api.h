// Compute kernel API (TRISC0 UNPACK, TRISC1 MATH, TRISC2 PACK), mirroring tt-metal's
// api/compute/*.h. All of it lives in namespace ckernel, as in tt-metal.
//
// One compiled kernel serves the three compute processors: the emulator runs the same function
// on three fibers, and every call below does only the part of its own processor, decided at run
// time (emulator/README.md, "How a kernel is built and run"):
//   cb_wait_front / cb_pop_front                 UNPACK
//   cb_reserve_back / cb_push_back               PACK
//   tile_regs_acquire / tile_regs_commit         MATH       (MATH waits for a free DST half)
//   tile_regs_wait / tile_regs_release           PACK       (release zeroes the DST half)
//   copy_tile, add_tiles, matmul_tiles, …        UNPACK: CB → SrcA/SrcB; MATH: FPU into DST
//   exp_tile, add_binary_tile, fill_tile, …      MATH (SFPU, DST → DST)
//   pack_tile                                    PACK (DST → CB, with the packer's rounding)
// UNPACK(x), MATH(x), PACK(x) run x only on their own processor. The TRISC_* / COMPILE_FOR_TRISC
// macros are NOT defined (one compile serves all three roles).
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"
#include "api/common_args.h"
#include "api/debug/dprint.h"

#ifndef ALWI
#define ALWI inline __attribute__((always_inline))
#endif

#define UNPACK(x)                                         \
    do {                                                  \
        if (ZYX_EMU.role() == ZYX_EMU_ROLE_UNPACK) { x; } \
    } while (0)
#define MATH(x)                                         \
    do {                                                \
        if (ZYX_EMU.role() == ZYX_EMU_ROLE_MATH) { x; } \
    } while (0)
#define PACK(x)                                         \
    do {                                                \
        if (ZYX_EMU.role() == ZYX_EMU_ROLE_PACK) { x; } \
    } while (0)


// Defaults for the JIT defines of a compute kernel (set by the emulator; here so that a compute
// header included from a data-movement kernel still compiles).
#ifndef DST_ACCUM_MODE
#define DST_ACCUM_MODE false
#endif
#ifndef APPROX
#define APPROX false
#endif

namespace ckernel {

// The enumerations of tt-llk's llk_defs.h, with tt-metal's names and values. They are UNSCOPED
// enums, as tt-metal declared them until May 2026 (tt-metal PRs #44443 and #44622 then made
// them enum class): both spellings compile here, the older `reduce_init<SUM, REDUCE_ROW>` and
// the current `reduce_init<PoolType::SUM, ReduceDim::REDUCE_ROW>`, `VectorMode::RC`.
enum VectorMode { None = 0, R = 1, C = 2, RC = 4, RC_custom = 6, Invalid = 0xFF };
enum ReduceDim { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };
enum PoolType { SUM, AVG, MAX, MIN };
enum DstSync { SyncHalf = 0, SyncFull = 1 };
enum BroadcastType { NONE = 0x0, COL = 0x1, ROW = 0x2, SCALAR = 0x3 };
enum EltwiseBinaryType { ELWMUL, ELWDIV, ELWADD, ELWSUB, ELWLESS };
// Which source register binary_dest_reuse_tiles moves the DST tile into (tt-llk llk_defs.h).
enum class EltwiseBinaryReuseDestType { NONE = 0, DEST_TO_SRCA = 1, DEST_TO_SRCB = 2 };
// How compute_kernel_hw_startup's (icb0, icb1) map onto (SrcA, SrcB) (tt-metal
// api/compute/compute_kernel_hw_startup.h): Reverse puts icb0 in SrcB and icb1 in SrcA, as matmul
// unpacks (in0 → SrcB, in1 → SrcA).
enum class SrcOrder : uint8_t { Regular = 0, Reverse = 1 };
// How an SFPU result is narrowed into a 16-bit DST (eltwise_binary_sfpu.h). Scoped in tt-metal.
enum class DstRoundingMode : uint8_t { Default = 0, NearestEven = 1 };
namespace MathFidelity {
enum : uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
}

namespace zyx_emu_c {
// Emulator op codes (must match tile::EltwiseOp, tile::Broadcast, tile::PoolType, tile::ReduceDim).
inline uint32_t elt_op(EltwiseBinaryType t) { return t == ELWADD ? 0 : t == ELWSUB ? 1 : t == ELWMUL ? 2 : 99; }
inline uint32_t bcast(BroadcastType b) {
    return b == BroadcastType::ROW ? 1 : b == BroadcastType::COL ? 2 : b == BroadcastType::SCALAR ? 3 : 0;
}
inline void fpu(uint32_t op, uint32_t a, uint32_t b, uint32_t ia, uint32_t ib, uint32_t idst, uint32_t flags) {
    ZYX_EMU.fpu_op(op, a, b, ia, ib, idst, flags);
}
inline void init(uint32_t op, uint32_t a, uint32_t b, int32_t out, uint32_t flags = 0, bool acc = false) {
    ZYX_EMU.fpu_init(op, a, b, out, flags, acc);
}
}  // namespace zyx_emu_c

// ---- start-up and the older "common" inits -----------------------------------------------------
// compute_kernel_hw_startup and binary_op_init_common configure the data formats, the packer and
// DST sync, but no FPU operation (tt-metal api/compute/compute_kernel_hw_startup.h,
// eltwise_binary.h: "followed by the specific init"): the op's own init must still follow.
// unary_op_init_common (and init_sfpu) also initialise the datacopy, so copy_tile may follow it.
template <SrcOrder src_order = SrcOrder::Regular>
ALWI void compute_kernel_hw_startup(uint32_t icb0, uint32_t icb1, uint32_t ocb) {
    constexpr bool reverse = src_order == SrcOrder::Reverse;
    zyx_emu_c::init(ZYX_EMU_FPU_COPY, reverse ? icb1 : icb0, reverse ? icb0 : icb1, int32_t(ocb),
                    ZYX_EMU_INIT_HW_ONLY | ZYX_EMU_INIT_HW_CONFIG);
}
ALWI void compute_kernel_hw_startup(uint32_t icb, uint32_t ocb) { compute_kernel_hw_startup(icb, icb, ocb); }
ALWI void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb = 16) {
    zyx_emu_c::init(ZYX_EMU_FPU_ELTWISE, icb0, icb1, int32_t(ocb), ZYX_EMU_INIT_HW_ONLY | ZYX_EMU_INIT_HW_CONFIG);
}
ALWI void unary_op_init_common(uint32_t icb, uint32_t ocb = 16) {
    zyx_emu_c::init(ZYX_EMU_FPU_COPY, icb, icb, int32_t(ocb), ZYX_EMU_INIT_HW_CONFIG);
}
ALWI void init_sfpu(uint32_t icb, uint32_t ocb) { unary_op_init_common(icb, ocb); }

// ---- DST register file (reg_api.h) ------------------------------------------------------------
ALWI void tile_regs_acquire() { ZYX_EMU.tile_regs_acquire(); }
ALWI void tile_regs_commit() { ZYX_EMU.tile_regs_commit(); }
ALWI void tile_regs_wait() { ZYX_EMU.tile_regs_wait(); }
ALWI void tile_regs_release() { ZYX_EMU.tile_regs_release(); }
// Deprecated pair: acquire = MATH acquire + PACK wait; release = MATH commit + PACK release.
ALWI void acquire_dst() {
    ZYX_EMU.tile_regs_acquire();
    ZYX_EMU.tile_regs_wait();
}
ALWI void release_dst() {
    ZYX_EMU.tile_regs_commit();
    ZYX_EMU.tile_regs_release();
}

// ---- circular buffers (cb_api.h): each call acts on its own processor only --------------------
ALWI void cb_wait_front(uint32_t cbid, uint32_t ntiles) { ZYX_EMU.cb_wait_front(int32_t(cbid), int32_t(ntiles)); }
ALWI void cb_pop_front(uint32_t cbid, uint32_t ntiles) { ZYX_EMU.cb_pop_front(int32_t(cbid), int32_t(ntiles)); }
ALWI void cb_reserve_back(uint32_t cbid, uint32_t ntiles) { ZYX_EMU.cb_reserve_back(int32_t(cbid), int32_t(ntiles)); }
ALWI void cb_push_back(uint32_t cbid, uint32_t ntiles) { ZYX_EMU.cb_push_back(int32_t(cbid), int32_t(ntiles)); }

// ---- copy (tile_move_copy.h) ------------------------------------------------------------------
ALWI void copy_tile_init(uint32_t cbid) { zyx_emu_c::init(ZYX_EMU_FPU_COPY, cbid, cbid, -1); }
ALWI void copy_tile_to_dst_init_short(uint32_t cbid, uint32_t transpose = 0, bool transpose_within_16x16_face = false) {
    if (transpose || transpose_within_16x16_face)
        ZYX_EMU.kernel_fault("Unsupported: copy_tile_to_dst_init_short with transpose");
    copy_tile_init(cbid);
}
ALWI void copy_tile_to_dst_init_short_with_dt(uint32_t old_cbid, uint32_t new_cbid, uint32_t transpose = 0) {
    (void)old_cbid;
    ZYX_EMU.reconfig_unpack(new_cbid, ~0u);
    copy_tile_to_dst_init_short(new_cbid, transpose);
}
// The paired init of copy_tile (tt-metal api/compute/tile_move_copy.h; call_line is tt-metal's
// bookkeeping and unused here).
ALWI void copy_init(uint32_t cbid, uint32_t transpose = 0, uint32_t transpose_within_16x16_face = 0,
                    uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    copy_tile_to_dst_init_short(cbid, transpose, transpose_within_16x16_face != 0);
}
// Unpacks tile in_tile_index (counted from the CB front) into DST[dst_tile_index].
ALWI void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_COPY, in_cb_id, in_cb_id, in_tile_index, in_tile_index, dst_tile_index, 0);
}
// src_order as compute_kernel_hw_startup's (newer tt-metal): Reverse maps the first operand to SrcB.
template <SrcOrder src_order = SrcOrder::Regular>
ALWI void reconfig_data_format(uint32_t srca_new_operand, uint32_t srcb_new_operand) {
    if (src_order == SrcOrder::Reverse)
        ZYX_EMU.reconfig_unpack(srcb_new_operand, srca_new_operand);
    else
        ZYX_EMU.reconfig_unpack(srca_new_operand, srcb_new_operand);
}
template <SrcOrder src_order = SrcOrder::Regular>
ALWI void reconfig_data_format(uint32_t srca_old, uint32_t srca_new, uint32_t srcb_old, uint32_t srcb_new) {
    (void)srca_old, (void)srcb_old;
    reconfig_data_format<src_order>(srca_new, srcb_new);
}
ALWI void reconfig_data_format_srca(uint32_t srca_new_operand) { ZYX_EMU.reconfig_unpack(srca_new_operand, ~0u); }
ALWI void reconfig_data_format_srca(uint32_t, uint32_t srca_new_operand) {
    ZYX_EMU.reconfig_unpack(srca_new_operand, ~0u);
}
ALWI void reconfig_data_format_srcb(uint32_t srcb_new_operand) { ZYX_EMU.reconfig_unpack(~0u, srcb_new_operand); }
ALWI void reconfig_data_format_srcb(uint32_t, uint32_t srcb_new_operand) {
    ZYX_EMU.reconfig_unpack(~0u, srcb_new_operand);
}

// ---- FPU eltwise binary (eltwise_binary.h): DST[idst] = A[itile0] op B[itile1] -----------------
template <EltwiseBinaryType op = ELWADD>
ALWI void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false) {
    zyx_emu_c::init(ZYX_EMU_FPU_ELTWISE, icb0, icb1, -1, zyx_emu_c::elt_op(op), acc_to_dest);
}
ALWI void add_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false) {
    binary_tiles_init<ELWADD>(icb0, icb1, acc_to_dest);
}
ALWI void sub_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false) {
    binary_tiles_init<ELWSUB>(icb0, icb1, acc_to_dest);
}
ALWI void mul_tiles_init(uint32_t icb0, uint32_t icb1) { binary_tiles_init<ELWMUL>(icb0, icb1, false); }
ALWI void add_tiles_init_nof() {}
// The paired inits (tt-metal api/compute/eltwise_binary.h), beside the *_tiles_init names above.
// mul_init's acc_to_dest defaults to true in tt-metal and is unused on Wormhole / Blackhole:
// ignored here.
template <bool full_init, EltwiseBinaryType op>
ALWI void binary_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false,
                            uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_ELTWISE, icb0, icb1, -1, zyx_emu_c::elt_op(op), acc_to_dest);
}
ALWI void add_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, ELWADD>(icb0, icb1, acc_to_dest, call_line);
}
ALWI void sub_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, ELWSUB>(icb0, icb1, acc_to_dest, call_line);
}
ALWI void mul_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = true, uint32_t call_line = __builtin_LINE()) {
    (void)acc_to_dest;
    binary_tiles_init<true, ELWMUL>(icb0, icb1, false, call_line);
}
ALWI void add_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_ELTWISE, icb0, icb1, itile0, itile1, idst, 0);
}
ALWI void sub_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_ELTWISE, icb0, icb1, itile0, itile1, idst, 1);
}
ALWI void mul_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_ELTWISE, icb0, icb1, itile0, itile1, idst, 2);
}

// ---- DST reuse (eltwise_binary.h): DST[dst_tile_index] = D op CB (DEST_TO_SRCA) or CB op D
// (DEST_TO_SRCB), D the DST tile moved into that source register ------------------------------
// The newest tt-metal adds src_b_bcast_type (a broadcast of the CB tile): only NONE is modelled.
namespace zyx_emu_c {
template <EltwiseBinaryType op, EltwiseBinaryReuseDestType reuse, BroadcastType bc>
ALWI uint32_t dest_reuse_flags() {
    static_assert(reuse != EltwiseBinaryReuseDestType::NONE,
                  "binary_dest_reuse_tiles needs DEST_TO_SRCA or DEST_TO_SRCB");
    static_assert(op == ELWADD || op == ELWSUB || op == ELWMUL, "binary_dest_reuse_tiles: ELWADD, ELWSUB or ELWMUL");
    if constexpr (bc != BroadcastType::NONE)
        ZYX_EMU.kernel_fault("Unsupported: binary_dest_reuse_tiles with a src_b_bcast_type other than NONE");
    return elt_op(op) | uint32_t(reuse) << 4;
}
}  // namespace zyx_emu_c
template <EltwiseBinaryType eltwise_binary_type = ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE,
          BroadcastType src_b_bcast_type = BroadcastType::NONE>
ALWI void binary_dest_reuse_tiles_init(uint32_t icb0, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_DEST_REUSE, icb0, icb0, -1,
                    zyx_emu_c::dest_reuse_flags<eltwise_binary_type, binary_reuse_dest, src_b_bcast_type>());
}
template <EltwiseBinaryType eltwise_binary_type = ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE,
          BroadcastType src_b_bcast_type = BroadcastType::NONE>
ALWI void binary_dest_reuse_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_DEST_REUSE, in_cb_id, in_cb_id, in_tile_index, in_tile_index, dst_tile_index,
                   zyx_emu_c::dest_reuse_flags<eltwise_binary_type, binary_reuse_dest, src_b_bcast_type>());
}

// ---- broadcasts (bcast.h): B's row 0 (ROW), column 0 (COL) or [0][0] (SCALAR) ------------------
template <EltwiseBinaryType op, BroadcastType bc>
ALWI void init_bcast(uint32_t icb0, uint32_t icb1, uint32_t ocb = 16) {
    zyx_emu_c::init(ZYX_EMU_FPU_ELTWISE, icb0, icb1, int32_t(ocb),
                    zyx_emu_c::elt_op(op) | zyx_emu_c::bcast(bc) << 4 | ZYX_EMU_INIT_HW_CONFIG);
}
// bcast_row_idx picks the row of B (0 … 31) that a ROW broadcast repeats (tt-metal bcast.h;
// other broadcasts ignore it). A row beyond the tile faults.
template <EltwiseBinaryType op, BroadcastType bc>
ALWI void any_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
    if (bc == BroadcastType::ROW && bcast_row_idx > 31) [[unlikely]]
        ZYX_EMU.kernel_fault("a ROW broadcast with bcast_row_idx > 31 (a tile has rows 0 to 31)");
    const uint32_t row = bc == BroadcastType::ROW ? bcast_row_idx : 0;
    zyx_emu_c::fpu(ZYX_EMU_FPU_ELTWISE, icb0, icb1, itile0, itile1, idst,
                   zyx_emu_c::elt_op(op) | zyx_emu_c::bcast(bc) << 4 | row << ZYX_EMU_ELT_ROW_SHIFT);
}
// unary_bcast (bcast.h): DST[dst_tile_index] = tile in_tile_index of icb with its row 0 (ROW),
// column 0 (COL) or [0][0] (SCALAR) repeated; NONE copies. The init configures formats and packer
// (tt-metal's unary_bcast_init runs the hw_configure of icb and ocb).
template <BroadcastType bcast_type>
ALWI void unary_bcast_init(uint32_t icb, uint32_t ocb) {
    zyx_emu_c::init(ZYX_EMU_FPU_UNARY_BCAST, icb, icb, int32_t(ocb),
                    zyx_emu_c::bcast(bcast_type) | ZYX_EMU_INIT_HW_CONFIG);
}
template <BroadcastType bcast_type>
ALWI void unary_bcast(uint32_t icb, uint32_t in_tile_index, uint32_t dst_tile_index) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_UNARY_BCAST, icb, icb, in_tile_index, in_tile_index, dst_tile_index,
                   zyx_emu_c::bcast(bcast_type));
}
template <BroadcastType bc>
ALWI void add_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
    any_tiles_bcast<ELWADD, bc>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
template <BroadcastType bc>
ALWI void sub_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
    any_tiles_bcast<ELWSUB, bc>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
template <BroadcastType bc>
ALWI void mul_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0) {
    any_tiles_bcast<ELWMUL, bc>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);
}
// The _rows forms take the trailing bcast_row_idx, the _cols and _scalar forms do not.
#define ZYX_EMU_BCAST_ROWS(op_name, OP)                                                              \
    ALWI void op_name(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, \
                      uint32_t bcast_row_idx = 0) {                                                  \
        any_tiles_bcast<OP, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx);    \
    }
#define ZYX_EMU_BCAST(op_name, OP, BC)                                                                 \
    ALWI void op_name(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst) { \
        any_tiles_bcast<OP, BroadcastType::BC>(icb0, icb1, itile0, itile1, idst);                      \
    }
ZYX_EMU_BCAST_ROWS(add_tiles_bcast_rows, ELWADD)
ZYX_EMU_BCAST(add_tiles_bcast_cols, ELWADD, COL)
ZYX_EMU_BCAST(add_tiles_bcast_scalar, ELWADD, SCALAR)
ZYX_EMU_BCAST_ROWS(sub_tiles_bcast_rows, ELWSUB)
ZYX_EMU_BCAST(sub_tiles_bcast_cols, ELWSUB, COL)
ZYX_EMU_BCAST(sub_tiles_bcast_scalar, ELWSUB, SCALAR)
ZYX_EMU_BCAST_ROWS(mul_tiles_bcast_rows, ELWMUL)
ZYX_EMU_BCAST(mul_tiles_bcast_cols, ELWMUL, COL)
ZYX_EMU_BCAST(mul_tiles_bcast_scalar, ELWMUL, SCALAR)
#undef ZYX_EMU_BCAST_ROWS
#undef ZYX_EMU_BCAST
// The paired broadcast inits (tt-metal api/compute/bcast.h): bcast_init<op, dim>(icb0, icb1) and
// the {add,sub,mul}_bcast_{rows,cols,scalar}_init names, beside the older *_init_short ones.
template <EltwiseBinaryType op, BroadcastType bc>
ALWI void bcast_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_ELTWISE, icb0, icb1, -1, zyx_emu_c::elt_op(op) | zyx_emu_c::bcast(bc) << 4);
}
#define ZYX_EMU_BCAST_INIT(init_name, OP, BC)                                                  \
    ALWI void init_name(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) { \
        bcast_init<OP, BroadcastType::BC>(icb0, icb1, call_line);                              \
    }
ZYX_EMU_BCAST_INIT(add_bcast_rows_init, ELWADD, ROW)
ZYX_EMU_BCAST_INIT(add_bcast_cols_init, ELWADD, COL)
ZYX_EMU_BCAST_INIT(add_bcast_scalar_init, ELWADD, SCALAR)
ZYX_EMU_BCAST_INIT(sub_bcast_rows_init, ELWSUB, ROW)
ZYX_EMU_BCAST_INIT(sub_bcast_cols_init, ELWSUB, COL)
ZYX_EMU_BCAST_INIT(sub_bcast_scalar_init, ELWSUB, SCALAR)
ZYX_EMU_BCAST_INIT(mul_bcast_rows_init, ELWMUL, ROW)
ZYX_EMU_BCAST_INIT(mul_bcast_cols_init, ELWMUL, COL)
ZYX_EMU_BCAST_INIT(mul_bcast_scalar_init, ELWMUL, SCALAR)
ZYX_EMU_BCAST_INIT(add_bcast_rows_init_short, ELWADD, ROW)
ZYX_EMU_BCAST_INIT(add_bcast_cols_init_short, ELWADD, COL)
ZYX_EMU_BCAST_INIT(add_bcast_scalar_init_short, ELWADD, SCALAR)
ZYX_EMU_BCAST_INIT(sub_bcast_rows_init_short, ELWSUB, ROW)
ZYX_EMU_BCAST_INIT(sub_bcast_cols_init_short, ELWSUB, COL)
ZYX_EMU_BCAST_INIT(sub_tiles_bcast_scalar_init_short, ELWSUB, SCALAR)
ZYX_EMU_BCAST_INIT(mul_bcast_rows_init_short, ELWMUL, ROW)
ZYX_EMU_BCAST_INIT(mul_bcast_cols_init_short, ELWMUL, COL)
ZYX_EMU_BCAST_INIT(mul_tiles_bcast_scalar_init_short, ELWMUL, SCALAR)
#undef ZYX_EMU_BCAST_INIT

// ---- matmul (matmul.h): DST[idst] += A[in0_tile] · B[in1_tile] (B transposed when asked) -------
ALWI void mm_init(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t out_cb_id = 16, uint32_t transpose = 0) {
    zyx_emu_c::init(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, int32_t(out_cb_id), transpose | ZYX_EMU_INIT_HW_CONFIG);
}
ALWI void mm_init_short(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t transpose = 0) {
    zyx_emu_c::init(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, -1, transpose);
}
// The paired init of matmul_tiles (tt-metal api/compute/matmul.h; call_line unused here).
ALWI void matmul_init(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t transpose = 0,
                      uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    mm_init_short(in0_cb_id, in1_cb_id, transpose);
}
ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, ~0u);
}
// Older 6-argument form with the transpose flag.
ALWI void matmul_tiles(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, uint32_t transpose) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose ? 1 : 0);
}

// ---- matmul_block (matmul.h) ------------------------------------------------------------------
// A block of rt_dim × ct_dim output tiles for one step along K: for r < rt_dim, c < ct_dim,
//   DST[idst + r·ct_dim + c] += A[in0_tile_index + r·kt_dim] · B[in1_tile_index + c]
// (B transposed when the init asked), each product matmul_tiles' (tile::matmul, same fidelity
// and numerics: docs/numerics.md §5). The kernel loops over K, advancing in0_tile_index by 1 and
// in1_tile_index by the width of its B block, as tt-metal's matmul kernels do. The transpose is
// the init's (tt-metal's LLK ignores the call's): a call whose transpose differs faults.
// matmul_block_init is the current name of mm_block_init_short (tt-metal matmul.h 01c8afed).
ALWI void mm_block_init(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t out_cb_id = 16,
                        const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
    (void)ct_dim, (void)rt_dim, (void)kt_dim;
    zyx_emu_c::init(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, int32_t(out_cb_id),
                    (transpose ? 1u : 0u) | ZYX_EMU_INIT_HW_CONFIG);
}
ALWI void mm_block_init_short(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, const uint32_t transpose = 0,
                              uint32_t ct_dim = 1, uint32_t rt_dim = 1, uint32_t kt_dim = 1) {
    (void)ct_dim, (void)rt_dim, (void)kt_dim;
    zyx_emu_c::init(ZYX_EMU_FPU_MATMUL, in0_cb_id, in1_cb_id, -1, transpose ? 1 : 0);
}
ALWI void mm_block_init_short_with_dt(uint32_t in0_cb_id = 0, uint32_t in1_cb_id = 1, uint32_t old_in1_cb_id = 2,
                                      const uint32_t transpose = 0, uint32_t ct_dim = 1, uint32_t rt_dim = 1,
                                      uint32_t kt_dim = 1) {
    (void)old_in1_cb_id;
    ZYX_EMU.reconfig_unpack(in1_cb_id, ~0u);  // matmul unpacks in1 into SrcA (tt-metal matmul.h)
    mm_block_init_short(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}
ALWI void matmul_block_init(uint32_t in0_cb_id, uint32_t in1_cb_id, const uint32_t transpose = 0, uint32_t ct_dim = 1,
                            uint32_t rt_dim = 1, uint32_t kt_dim = 1, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    mm_block_init_short(in0_cb_id, in1_cb_id, transpose, ct_dim, rt_dim, kt_dim);
}
ALWI void matmul_block(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                       uint32_t idst, const uint32_t transpose, uint32_t ct_dim, uint32_t rt_dim, uint32_t kt_dim,
                       uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    ZYX_EMU.fpu_matmul_block(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, 0x100u | (transpose ? 1u : 0u),
                             ct_dim, rt_dim, kt_dim);
}

// matmul_tile: the name of matmul_tiles in some tt-metal versions of api/compute/matmul.h,
// (in0, in1, in0_tile, in1_tile, idst, transpose = 0).
ALWI void matmul_tile(uint32_t in0_cb_id, uint32_t in1_cb_id, uint32_t in0_tile_index, uint32_t in1_tile_index,
                      uint32_t idst, uint32_t transpose = 0) {
    matmul_tiles(in0_cb_id, in1_cb_id, in0_tile_index, in1_tile_index, idst, transpose);
}

// ---- reduce (reduce.h): accumulates into DST; scaler tile row 0 of each face holds the scale ---
#ifndef REDUCE_OP
#define REDUCE_OP PoolType::SUM
#endif
#ifndef REDUCE_DIM
#define REDUCE_DIM ReduceDim::REDUCE_ROW
#endif
namespace zyx_emu_c {
// Reduce op code for the emulator: pool | dim << 4. PoolType::MIN is tt-metal's but not modelled.
template <PoolType reduce_type, ReduceDim reduce_dim>
ALWI uint32_t reduce_flags() {
    if constexpr (reduce_type == MIN) ZYX_EMU.kernel_fault("Unsupported: reduce with PoolType::MIN");
    return uint32_t(reduce_type) | uint32_t(reduce_dim) << 4;
}
}  // namespace zyx_emu_c
template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_REDUCE, icb, icb_scaler, int32_t(ocb),
                    zyx_emu_c::reduce_flags<reduce_type, reduce_dim>());
}
template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_init_short(uint32_t icb, uint32_t icb_scaler, uint32_t ocb) {
    reduce_init<reduce_type, reduce_dim, enforce_fp32_accumulation>(icb, icb_scaler, ocb);
}
template <bool enforce_fp32_accumulation = false>
ALWI void reduce_uninit(uint32_t icb = 0) {
    (void)icb;
    ZYX_EMU.fpu_init(ZYX_EMU_FPU_COUNT, 0, 0, -1, 0, false);  // clears the reduce configuration
}
template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_tile(uint32_t icb, uint32_t icb_scaler, uint32_t itile, uint32_t itile_scaler, uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_REDUCE, icb, icb_scaler, itile, itile_scaler, idst,
                   zyx_emu_c::reduce_flags<reduce_type, reduce_dim>());
}

// ---- transpose (transpose_wh.h, transpose.h) --------------------------------------------------
ALWI void transpose_wh_init(uint32_t icb, uint32_t ocb) {
    zyx_emu_c::init(ZYX_EMU_FPU_TRANSPOSE, icb, icb, int32_t(ocb));
}
ALWI void transpose_wh_init_short(uint32_t icb) { zyx_emu_c::init(ZYX_EMU_FPU_TRANSPOSE, icb, icb, -1); }
ALWI void transpose_init(uint32_t icb) { transpose_wh_init_short(icb); }
ALWI void transpose_wh_tile(uint32_t icb, uint32_t itile, uint32_t idst) {
    zyx_emu_c::fpu(ZYX_EMU_FPU_TRANSPOSE, icb, icb, itile, itile, idst, 0);
}
ALWI void transpose_tile(uint32_t icb, uint32_t itile, uint32_t idst) { transpose_wh_tile(icb, itile, idst); }

// ---- pack (pack.h): DST[ifrom_dst] → the reserved back of icb ----------------------------------
// Sequential by default: the k-th pack_tile since the last cb_push_back writes page k.
template <bool out_of_order_output = false>
ALWI void pack_tile(uint32_t ifrom_dst, uint32_t icb, uint32_t output_tile_index = 0) {
    ZYX_EMU.pack_tile(ifrom_dst, icb, output_tile_index, out_of_order_output);
}
ALWI void pack_tile_block(uint32_t ifrom_dst, uint32_t icb, uint32_t ntiles) {
    for (uint32_t i = 0; i < ntiles; ++i) ZYX_EMU.pack_tile(ifrom_dst + i, icb, 0, false);
}
ALWI void pack_reconfig_data_format(uint32_t new_operand) { ZYX_EMU.pack_reconfig(new_operand); }
// Packer accumulation into L1 (pack.h): while enabled, pack_tile adds DST to the values already in
// the output page (float formats; docs/numerics.md §3). On PACK.
ALWI void pack_reconfig_l1_acc(uint32_t l1_acc_en) { PACK(ZYX_EMU.pack_config(ZYX_EMU_PACK_L1_ACC, l1_acc_en)); }
ALWI void llk_pack_reconfig_l1_acc(uint32_t l1_acc_en) { pack_reconfig_l1_acc(l1_acc_en); }
// ReLU in the packer (ReluType of tt-llk llk_defs.h). The config word: bits 3:0 the type, bits
// 31:16 the threshold as BF16 bits (FP16 bits when a 16-bit DST is packed into a Float16 CB).
// As tt-llk programs it, ZERO_RELU and MIN_THRESHOLD_RELU pack x <= threshold as 0 (ZERO_RELU's
// threshold is normally 0), MAX_THRESHOLD_RELU packs x <= 0 as 0 and clamps x > threshold to it
// (docs/numerics.md §3). A type above 3 or a negative threshold faults. On PACK.
enum ReluType { NO_RELU = 0, ZERO_RELU = 1, MIN_THRESHOLD_RELU = 2, MAX_THRESHOLD_RELU = 3 };
ALWI void pack_relu_config(uint32_t config) { PACK(ZYX_EMU.pack_config(ZYX_EMU_PACK_RELU_CONFIG, config)); }
ALWI void llk_pack_relu_config(uint32_t config) { pack_relu_config(config); }
ALWI void pack_reconfig_data_format(uint32_t, uint32_t new_operand) { ZYX_EMU.pack_reconfig(new_operand); }

}  // namespace ckernel

#include "api/compute/sfpu_ops.h"
#include "api/compute/sfpu_int_ops.h"
#include "api/compute/layout_ops.h"

using namespace ckernel;
