// Kernel API, compute side: the DST state machine, FPU ops split into UNPACK (CB → operand
// queue) and MATH (operand queue → DST), SFPU ops, pack. Numerics are emulator/tile's.
#include <cmath>
#include <cstring>

#include "emu/kernel_api.hpp"
#include "emu/program.hpp"
#include "tile_math.hpp"

namespace zyx::emu::api {
namespace {

Fiber& cur() { return *current_fiber(); }

static_assert(uint32_t(tile::SfpuUnary::PowerIterative) == 34 && uint32_t(tile::SfpuUnary::Round) == 47 &&
                  uint32_t(tile::SfpuUnary::AddScalar) == 48 && uint32_t(tile::SfpuUnary::RsubScalar) == 52 &&
                  uint32_t(tile::SfpuUnary::ExpScaled) == 53,
              "kernel API SFPU op codes out of step with tile_math.hpp");
static_assert(uint32_t(tile::SfpuBinary::Ge) == 13 && uint32_t(tile::SfpuBinary::Remainder) == 15,
              "kernel API SFPU op codes out of step with tile_math.hpp");
static_assert(uint32_t(tile::SfpuBinaryInt::Shl) == 7 && uint32_t(tile::SfpuBinaryInt::Lt) == 10 &&
                  uint32_t(tile::SfpuBinaryInt::Max) == 14 && uint32_t(tile::SfpuBinaryInt::DivFloor) == 16 &&
                  uint32_t(tile::SfpuBinaryInt::Fmod) == 20,
              "kernel API integer SFPU op codes (api/compute/sfpu_int_ops.h) out of step with tile_math.hpp");
static_assert(uint32_t(tile::EltwiseOp::Mul) == 2 && uint32_t(tile::Broadcast::Scalar) == 3, "FPU op codes");
static_assert(uint32_t(tile::PoolType::Max) == 2 && uint32_t(tile::PoolType::Min) == 3 &&
                  uint32_t(tile::ReduceDim::Col) == 1 && uint32_t(tile::ReduceDim::Scalar) == 2,
              "reduce op codes (tt-metal's PoolType and ReduceDim values)");

const char* fpu_name(uint32_t op) {
    static const char* n[] = {
        "copy_tile",    "add/sub/mul_tiles",       "matmul_tiles", "reduce_tile", "transpose_wh_tile",
        "tilize_block", "binary_dest_reuse_tiles", "unary_bcast"};
    return op < ZYX_EMU_FPU_COUNT ? n[op] : "?";
}

// Brings DST tile `i` of section `sec` up to date before it is read: a stale tile becomes zero,
// a pending FPU result is rounded to its 16-bit format, a uniform (filled) tile is written out
// (engine.hpp, DstState). `overwrite`: the caller replaces the whole tile, so none is needed.
// Out of line: every first write of a tile after an acquire comes here, but only to clear a bit.
[[gnu::noinline]] void settle_slow(DstState& d, uint32_t sec, uint32_t i, bool overwrite) {
    float* t = d.tile(sec, i);
    const uint32_t bit = 1u << i;
    if (!overwrite) {
        if (d.stale[sec] & bit)
            std::memset(t, 0, 1024 * sizeof(float));
        else if (d.pending[sec] & bit)
            tile::dest16_round(d.round_to[sec][i], t, Rounding::NearestEven);
        else
            tile::fill_bits(t, d.uniform_word[sec][i]);
    }
    d.stale[sec] &= ~bit;
    d.pending[sec] &= ~bit;
    d.uniform[sec] &= ~bit;
}
[[gnu::always_inline]] inline float* settle_dst(DstState& d, uint32_t sec, uint32_t i, bool overwrite) {
    if ((d.stale[sec] | d.pending[sec] | d.uniform[sec]) & (1u << i)) settle_slow(d, sec, i, overwrite);
    return d.tile(sec, i);
}

[[noreturn]] ZYX_EMU_COLD void math_dst_fault(const Fiber& f, uint32_t idst, const char* api) {
    const DstState& d = f.core->dst;
    if (d.state[d.math_sec] != DstState::Acquired)
        kernel_fault(std::string(api) + ": DST index " + std::to_string(idst) +
                     " used outside tile_regs_acquire / tile_regs_commit");
    kernel_fault(std::string(api) + ": DST index " + std::to_string(idst) + " is beyond the capacity of " +
                 std::to_string(d.capacity) + " tiles (" + (f.core->compute.fp32_dest_acc_en ? "fp32" : "16-bit") +
                 " DST, " + (f.core->compute.dst_full_sync_en ? "full" : "half") + " sync)");
}

// MATH may only touch DST between tile_regs_acquire and tile_regs_commit, within capacity.
// math_check checks and marks the tile written; math_dst also settles it (`overwrite`: the op
// replaces the whole tile without reading it; an op that also reads the tile through another
// operand asks for that operand first, so it is settled by then). Inlined: the SFPU calls of a
// generated kernel (tens per tile) each make one to three of these.
[[gnu::always_inline]] inline void math_check(Fiber& f, uint32_t idst, const char* api) {
    DstState& d = f.core->dst;
    if (d.state[d.math_sec] != DstState::Acquired || idst >= d.capacity) [[unlikely]]
        math_dst_fault(f, idst, api);
    d.written[d.math_sec] |= 1u << idst;
}
// A DST tile an SFPU op (or pack_tile) reads must have been written since tile_regs_acquire: it
// would read the zeros the last release left (or, at the first acquire, whatever DST held), which
// is a wrong index far more often than intent. FPU ops that accumulate into DST (matmul, reduce,
// eltwise with acc_to_dest) are exempt: starting from the cleared tile is how they are used.
[[noreturn]] ZYX_EMU_COLD void unwritten_dst_fault(const DstState& d, uint32_t sec, uint32_t idst, const char* api,
                                                   const char* since) {
    std::string written;
    for (uint32_t i = 0; i < d.capacity && i < 32; ++i)
        if (d.written[sec] >> i & 1) written += (written.empty() ? "" : ", ") + std::to_string(i);
    kernel_fault(std::string(api) + ": reads DST index " + std::to_string(idst) + ", which nothing wrote since " +
                 since + " (DST section " + std::to_string(sec) + "; written: " +
                 (written.empty() ? std::string("none") : written) + ")");
}
[[gnu::always_inline]] inline void math_read(Fiber& f, uint32_t idst, const char* api) {
    const DstState& d = f.core->dst;
    if (idst < d.capacity && d.state[d.math_sec] == DstState::Acquired && !(d.written[d.math_sec] >> idst & 1))
        [[unlikely]]
        unwritten_dst_fault(d, d.math_sec, idst, api, "tile_regs_acquire");
}

[[gnu::always_inline]] inline float* math_dst(Fiber& f, uint32_t idst, const char* api, bool overwrite = false) {
    math_check(f, idst, api);
    DstState& d = f.core->dst;
    return settle_dst(d, d.math_sec, idst, overwrite);
}

// Tile `i` of MATH's section becomes `word` everywhere, lazily (a checked, overwritten tile).
void set_uniform(DstState& d, uint32_t i, uint32_t word) {
    const uint32_t sec = d.math_sec, bit = 1u << i;
    d.stale[sec] &= ~bit;
    d.pending[sec] &= ~bit;
    d.uniform[sec] |= bit;
    d.uniform_word[sec][i] = word;
}

bool dest16(const Fiber& f) { return !f.core->compute.fp32_dest_acc_en; }

DataFormat dest16_format(DataFormat unpacked) {
    return unpacked == DataFormat::Float16 ? DataFormat::Float16 : DataFormat::Float16_b;
}
bool is_float_format(DataFormat f) {
    return f == DataFormat::Float32 || f == DataFormat::Float16 || f == DataFormat::Float16_b ||
        f == DataFormat::Bfp8_b || f == DataFormat::Bfp8;
}

// Rounding of an SFPU result stored into a 16-bit DST: truncation (native SFPSTORE), or the
// rounding an op does itself before its store.
void sfpu_store(Fiber& f, float* t, Rounding r = Rounding::TowardZero) {
    if (dest16(f)) tile::dest16_round(DataFormat::Float16_b, t, r);
}

}  // namespace

// ---- DST state machine (tt-metal docs, "Compute Engines and Data Flow"; docs/numerics.md §1) ---
// `what` names the call and the rule; the DST section it concerns is appended.
[[noreturn]] ZYX_EMU_COLD void dst_fault(const char* what, uint32_t section) {
    kernel_fault(std::string(what) + " (DST section " + std::to_string(section) + ")");
}

void tile_regs_acquire() {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    DstState& d = f.core->dst;
    if (d.state[d.math_sec] == DstState::Acquired) [[unlikely]]
        dst_fault("tile_regs_acquire: DST is already acquired (missing tile_regs_commit)", d.math_sec);
    if (d.state[d.math_sec] != DstState::Free) block_on(f, Wait::DstAcquire);
    d.state[d.math_sec] = DstState::Acquired;
    d.written[d.math_sec] = 0;
}

void tile_regs_commit() {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    DstState& d = f.core->dst;
    if (d.state[d.math_sec] != DstState::Acquired) [[unlikely]]
        dst_fault("tile_regs_commit without tile_regs_acquire", d.math_sec);
    d.state[d.math_sec] = DstState::Committed;
    d.math_sec = (d.math_sec + 1) % d.sections;
    ++f.events;
}

void tile_regs_wait() {
    Fiber& f = cur();
    if (f.proc != Proc::Pack) return;
    DstState& d = f.core->dst;
    if (d.state[d.pack_sec] == DstState::Packing) [[unlikely]]
        dst_fault("tile_regs_wait: PACK already holds DST (missing tile_regs_release)", d.pack_sec);
    if (d.state[d.pack_sec] != DstState::Committed) block_on(f, Wait::DstWait);
    d.state[d.pack_sec] = DstState::Packing;
}

// Section done: the packer zeroes the released half, so the next acquire starts from 0.
void tile_regs_release() {
    Fiber& f = cur();
    if (f.proc != Proc::Pack) return;
    DstState& d = f.core->dst;
    if (d.state[d.pack_sec] != DstState::Packing) [[unlikely]]
        dst_fault("tile_regs_release without tile_regs_wait", d.pack_sec);
    // Zeroed lazily: the written tiles read as zero from now on (settle_dst clears them).
    d.stale[d.pack_sec] |= d.written[d.pack_sec];
    d.pending[d.pack_sec] = 0;
    d.uniform[d.pack_sec] = 0;
    d.written[d.pack_sec] = 0;
    d.state[d.pack_sec] = DstState::Free;
    d.pack_sec = (d.pack_sec + 1) % d.sections;
    ++f.events;
}

// ---- FPU ----------------------------------------------------------------------------------------
// An op init programs the unpacker and the FPU for one operation (tt-metal's *_init call the
// llk_unpack_*_init and llk_math_*_init of that op); the next init of another op replaces it. The
// hardware-only inits (ZYX_EMU_INIT_HW_ONLY) and reduce_uninit (which restores the packer) leave
// the FPU's operation as it was; SFPU inits do not touch it at all.
namespace {
// The format of CB `id` on this core, or -1 when it is not configured (an init's default CB).
int32_t cb_format_or_none(const Fiber& f, uint32_t id) {
    if (id >= 64 || !f.core->cbs[id].configured) return -1;
    return int32_t(f.core->cbs[id].format);
}
void set_unpack_format(Fiber& f, RoleConfig& c, int src, uint32_t cb) {
    c.unpack_fmt[src] = cb_format_or_none(f, cb);
    c.unpack_cb[src] = int32_t(cb);
}
}  // namespace

void fpu_init(uint32_t op, uint32_t cb_a, uint32_t cb_b, int32_t cb_out, uint32_t flags, bool acc_to_dest) {
    Fiber& f = cur();
    RoleConfig& c = f.core->cfg[int(f.proc)];
    if (cb_out >= 0) c.pack_cb = cb_out;
    if (flags & ZYX_EMU_INIT_HW_CONFIG) {
        // matmul unpacks in1 into SrcA and in0 into SrcB (tt-metal's mm_init configures the
        // unpacker with (in1, in0)); every other op A into SrcA, B into SrcB.
        const bool mm = op == ZYX_EMU_FPU_MATMUL;
        set_unpack_format(f, c, 0, mm ? cb_b : cb_a);
        set_unpack_format(f, c, 1, mm ? cb_a : cb_b);
        if (cb_out >= 0) c.pack_fmt = cb_format_or_none(f, uint32_t(cb_out)), c.pack_fmt_cb = cb_out;
        flags &= ~ZYX_EMU_INIT_HW_CONFIG;
    }
    if (flags & ZYX_EMU_INIT_HW_ONLY) return;
    switch (op) {
        case ZYX_EMU_FPU_ELTWISE: c.elt_flags = flags, c.acc_to_dest = acc_to_dest; break;
        case ZYX_EMU_FPU_DEST_REUSE:
        case ZYX_EMU_FPU_UNARY_BCAST: c.elt_flags = flags; break;
        case ZYX_EMU_FPU_MATMUL: c.mm_transpose = flags; break;
        case ZYX_EMU_FPU_REDUCE: c.reduce_flags = flags; break;
        case ZYX_EMU_FPU_COUNT: return;  // reduce_uninit
        default: break;
    }
    c.fpu_op = op;
}

namespace {
// "add_tiles", "mul_tiles_bcast_rows", "reduce_tile<MAX, REDUCE_COL>" … for op and its flags.
std::string fpu_call_name(uint32_t op, uint32_t flags) {
    if (op == ZYX_EMU_FPU_ELTWISE) {
        static const char* ops[] = {"add", "sub", "mul"};
        static const char* bc[] = {"", "_bcast_rows", "_bcast_cols", "_bcast_scalar"};
        return std::string((flags & 15) < 3 ? ops[flags & 15] : "?") + "_tiles" + bc[(flags >> 4) & 3];
    }
    if (op == ZYX_EMU_FPU_DEST_REUSE) {
        static const char* ops[] = {"ELWADD", "ELWSUB", "ELWMUL"};
        return std::string("binary_dest_reuse_tiles<") + ((flags & 15) < 3 ? ops[flags & 15] : "?") +
            ((flags >> 4) == 1 ? ", DEST_TO_SRCA>" : ", DEST_TO_SRCB>");
    }
    if (op == ZYX_EMU_FPU_UNARY_BCAST) {
        static const char* bc[] = {"NONE", "ROW", "COL", "SCALAR"};
        return std::string("unary_bcast<BroadcastType::") + bc[flags & 3] + ">";
    }
    if (op == ZYX_EMU_FPU_REDUCE) {
        static const char* pool[] = {"SUM", "AVG", "MAX", "MIN"};
        static const char* dim[] = {"REDUCE_ROW", "REDUCE_COL", "REDUCE_SCALAR", "?"};
        return std::string("reduce_tile<") + pool[flags & 3] + ", " + dim[(flags >> 4) & 3] + ">";
    }
    return fpu_name(op);
}
// The init that configures op (with flags) in tt-metal's API.
std::string fpu_init_name(uint32_t op, uint32_t flags) {
    switch (op) {
        case ZYX_EMU_FPU_COPY: return "copy_tile_init / copy_tile_to_dst_init_short (or unary_op_init_common)";
        case ZYX_EMU_FPU_ELTWISE: {
            static const char* ops[] = {"add", "sub", "mul"};
            static const char* bc[] = {"_tiles", "_bcast_rows", "_bcast_cols", "_bcast_scalar"};
            return std::string((flags & 15) < 3 ? ops[flags & 15] : "?") + bc[(flags >> 4) & 3] +
                "_init (or binary_tiles_init / bcast_init / init_bcast)";
        }
        case ZYX_EMU_FPU_MATMUL: return "mm_init / mm_init_short / matmul_init (or mm_block_init)";
        case ZYX_EMU_FPU_REDUCE: return "reduce_init<" + fpu_call_name(op, flags).substr(12);
        case ZYX_EMU_FPU_TRANSPOSE: return "transpose_wh_init / transpose_wh_init_short";
        case ZYX_EMU_FPU_TILIZE: return "tilize_init";
        case ZYX_EMU_FPU_DEST_REUSE: {
            const std::string n = fpu_call_name(op, flags);
            return "binary_dest_reuse_tiles_init" + n.substr(n.find('<'));
        }
        case ZYX_EMU_FPU_UNARY_BCAST: {
            const std::string n = fpu_call_name(op, flags);
            return "unary_bcast_init" + n.substr(n.find('<'));
        }
        default: return "?";
    }
}

// A compute op whose init did not run, or whose configuration another op's init replaced
// (tt-metal docs, compute API: each op's *_init configures the unpacker and the FPU for it).
[[noreturn]] ZYX_EMU_COLD void missing_init_fault(const RoleConfig& cfg, uint32_t op, uint32_t flags, uint32_t cb_a,
                                                  uint32_t cb_b) {
    std::string call = fpu_call_name(op, flags) + "(cb " + std::to_string(cb_a);
    if (op == ZYX_EMU_FPU_ELTWISE || op == ZYX_EMU_FPU_MATMUL || op == ZYX_EMU_FPU_REDUCE)
        call += ", cb " + std::to_string(cb_b);
    call += ")";
    const bool elt_like = cfg.fpu_op == ZYX_EMU_FPU_ELTWISE || cfg.fpu_op == ZYX_EMU_FPU_DEST_REUSE ||
        cfg.fpu_op == ZYX_EMU_FPU_UNARY_BCAST;
    const uint32_t have_flags = elt_like ? cfg.elt_flags : cfg.fpu_op == ZYX_EMU_FPU_REDUCE ? cfg.reduce_flags : 0;
    std::string why = cfg.fpu_op == RoleConfig::kNoOp
        ? "no init has configured the unpacker and FPU for it (compute_kernel_hw_startup and "
          "binary_op_init_common configure data formats only)"
        : "the last op init configured the unpacker and FPU for " + fpu_call_name(cfg.fpu_op, have_flags) + " (" +
            fpu_init_name(cfg.fpu_op, have_flags) + ")";
    kernel_fault(call + ": missing init: " + why + "; call " + fpu_init_name(op, flags) +
                 " before it (tt-metal: every compute op needs its own init after another op's init)");
}
}  // namespace

[[noreturn]] ZYX_EMU_COLD void unpack_fault(const CbState& cb, uint32_t cb_id, uint32_t t, const char* api) {
    if (t >= cb.waited)
        kernel_fault(std::string(api) + "(cb " + std::to_string(cb_id) + ", tile " + std::to_string(t) +
                     "): the tile is outside the " + std::to_string(cb.waited) +
                     " pages waited for with cb_wait_front");
    kernel_fault(std::string(api) + "(cb " + std::to_string(cb_id) + "): page of " + std::to_string(cb.page_bytes) +
                 " B is smaller than a " + std::string(data_format_name(cb.format)) + " tile");
}

// UNPACK reads tile `t` counted from the front of the waited window of cb `cb_id`.
const CbState& unpack_source(Fiber& f, uint32_t cb_id, uint32_t t, const char* api) {
    const CbState& cb = cb_checked(f, int32_t(cb_id), api);
    if (t >= cb.waited || cb.page_bytes < cb.tile_bytes) [[unlikely]]
        unpack_fault(cb, cb_id, t, api);
    return cb;
}

std::string tilize_call(uint32_t cb_id, uint32_t width) {
    return "tilize_block(cb " + std::to_string(cb_id) + ", block " + std::to_string(width) + ")";
}

[[noreturn]] ZYX_EMU_COLD void tilize_fault(const CbState& cb, uint32_t cb_id, uint32_t width, uint32_t col,
                                            uint64_t extent) {
    const std::string call = tilize_call(cb_id, width);
    if (tile::row_major_datum_bytes(cb.format) == 0)
        kernel_fault(call + ": data format " + std::string(data_format_name(cb.format)) +
                     " has no row-major form (tilize reads Float32, Float16_b, Float16, Int32, UInt32, UInt16, UInt8)");
    if (width == 0) kernel_fault(call + ": a block of 0 tiles");
    kernel_fault(call + ": tile column " + std::to_string(col) + " reads " + std::to_string(extent) +
                 " B of row-major data from the CB front, but only " + std::to_string(cb.waited) + " pages (" +
                 std::to_string(uint64_t(cb.waited) * cb.page_bytes) + " B) are waited for with cb_wait_front");
}

// The CB's UnpackToDestMode is UnpackToDestFp32 (ComputeConfig::unpack_to_dest_mode).
bool unpacks_to_dest_fp32(const Core& c, uint32_t cb) {
    const auto& m = c.compute.unpack_to_dest_mode;
    return cb < m.size() && m[cb] == UnpackToDestMode::UnpackToDestFp32;
}

// UNPACK of tilize_block: tile column `col` of the row-major block (32 rows of width·32 datums,
// tt-metal api/compute/tilize.h) at the front of cb `cb_id`, gathered into face order in
// `scratch` (4 KiB) and unpacked into `out` as copy_tile does (a Float32 CB is exact with
// UnpackToDestFp32, TF32 otherwise; docs/numerics.md).
void unpack_tilize(Fiber& f, uint32_t cb_id, uint32_t width, uint32_t col, void* scratch, float* out) {
    const CbState& cb = cb_checked(f, int32_t(cb_id), "tilize_block");
    const uint32_t db = tile::row_major_datum_bytes(cb.format);
    const uint64_t row_bytes = uint64_t(width) * 32 * db;
    const uint64_t extent = 31 * row_bytes + (uint64_t(col) + 1) * 32 * db;
    if (db == 0 || width == 0 || extent > uint64_t(cb.waited) * cb.page_bytes) [[unlikely]]
        tilize_fault(cb, cb_id, width, col, extent);
    tile::rows_to_faces(db, reinterpret_cast<const void*>(uintptr_t(cb.rd_ptr + uint64_t(col) * 32 * db)),
                        uint32_t(row_bytes), scratch);
    tile::unpack_tile(cb.format, scratch, out, !unpacks_to_dest_fp32(*f.core, cb_id));
}

// An FPU op unpacking a Float32 CB through SrcA / SrcB that the program set to UnpackToDestFp32.
[[noreturn]] ZYX_EMU_COLD void unpack_to_dest_fault(uint32_t op, uint32_t flags, uint32_t cb) {
    kernel_fault(fpu_call_name(op, flags) + ": reads Float32 cb " + std::to_string(cb) +
                 " through a source register, but the program sets UnpackToDestMode::UnpackToDestFp32 for it "
                 "(ComputeConfig::unpack_to_dest_mode): such a CB can only be copied into DST (copy_tile); on "
                 "silicon the operand reads as zeros. Give the FPU's operands the Default mode");
}

[[noreturn]] ZYX_EMU_COLD void out_of_step_fault(const Operand& s, const char* api) {
    kernel_fault(std::string(api) + ": MATH and UNPACK are out of step (UNPACK unpacked operands for " +
                 fpu_name(s.op) + " into DST " + std::to_string(s.idst) + ")");
}

// A CB unpacked in another format than its unpacker is configured for.
[[noreturn]] ZYX_EMU_COLD void unpack_format_fault(const RoleConfig& c, int src, uint32_t op, uint32_t flags,
                                                   uint32_t cb_a, uint32_t cb_b, uint32_t cb, DataFormat fmt) {
    const bool two = op == ZYX_EMU_FPU_ELTWISE || op == ZYX_EMU_FPU_MATMUL || op == ZYX_EMU_FPU_REDUCE;
    std::string call = fpu_call_name(op, flags) + "(cb " + std::to_string(cb_a);
    if (two) call += ", cb " + std::to_string(cb_b);
    call += ")";
    const char* reg = src == 0 ? "SrcA" : "SrcB";
    kernel_fault(call + ": cb " + std::to_string(cb) + " holds " + std::string(data_format_name(fmt)) + " tiles but the " + reg +
                 " unpacker is configured for " + std::string(data_format_name(DataFormat(c.unpack_fmt[src]))) + " (cb " +
                 std::to_string(c.unpack_cb[src]) + ", by the last hw-configuring init or reconfig_data_format); " +
                 "missing reconfig_data_format_" + (src == 0 ? "srca" : "srcb") + "(" + std::to_string(cb) +
                 ") (or reconfig_data_format)");
}

[[noreturn]] ZYX_EMU_COLD void matmul_block_transpose_fault(uint32_t call, uint32_t init) {
    kernel_fault("matmul_block: transpose " + std::to_string(call) + " differs from the " +
                 std::to_string(init ? 1 : 0) +
                 " of the last mm_block_init / matmul_block_init (tt-metal applies the init's)");
}

namespace {
void prefetch_tile(uint64_t l1_addr, uint32_t bytes) {
    const char* p = reinterpret_cast<const char*>(uintptr_t(l1_addr));
    for (uint32_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o);
}
}  // namespace

// matmul_tiles (rt = ct = 1; flags: the call's transpose, ~0u the init's) and matmul_block
// (flags 0x100 | transpose): DST[idst + r·ct + c] += in0[tile_a + r·kt] · in1[tile_b + c].
// UNPACK reads each of the rt + ct tiles once (the hardware's unpacker fills SrcB / SrcA per
// product; the values are the same), MATH runs the rt·ct products in order.
void fpu_matmul_block(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst, uint32_t flags,
                      uint32_t ct, uint32_t rt, uint32_t kt) {
    Fiber& f = cur();
    Core& core = *f.core;
    OperandQueue& q = *core.opq;
    const uint32_t op = ZYX_EMU_FPU_MATMUL;
    const char* api = flags != ~0u && (flags & 0x100) ? "matmul_block" : "matmul_tiles";
    if (rt == 0 || ct == 0) return;  // an empty block: nothing is read or written
    // The transpose a processor applies: tt-metal's LLK takes matmul_block's from the init.
    auto transpose_of = [flags](const RoleConfig& c) {
        return flags == ~0u || (flags & 0x100) ? c.mm_transpose != 0 : flags != 0;
    };
    if (f.proc == Proc::Unpack) {
        // The last tile of each strip is the furthest from the front: checking it checks them all.
        const uint64_t last_a = uint64_t(tile_a) + uint64_t(rt - 1) * kt, last_b = uint64_t(tile_b) + ct - 1;
        const CbState& a = unpack_source(f, cb_a, uint32_t(std::min<uint64_t>(last_a, ~0u)), api);
        const CbState& b = unpack_source(f, cb_b, uint32_t(std::min<uint64_t>(last_b, ~0u)), api);
        const RoleConfig& c = core.cfg[int(Proc::Unpack)];
        // matmul unpacks in0 into SrcB and in1 into SrcA (tt-metal's mm_init configures the
        // unpacker with (in1, in0)).
        if (c.unpack_fmt[1] >= 0 && c.unpack_fmt[1] != int32_t(a.format)) [[unlikely]]
            unpack_format_fault(c, 1, op, flags, cb_a, cb_b, cb_a, a.format);
        if (c.unpack_fmt[0] >= 0 && c.unpack_fmt[0] != int32_t(b.format)) [[unlikely]]
            unpack_format_fault(c, 0, op, flags, cb_a, cb_b, cb_b, b.format);
        if (a.format == DataFormat::Float32 && unpacks_to_dest_fp32(core, cb_a)) [[unlikely]]
            unpack_to_dest_fault(op, flags, cb_a);
        if (b.format == DataFormat::Float32 && unpacks_to_dest_fp32(core, cb_b)) [[unlikely]]
            unpack_to_dest_fault(op, flags, cb_b);
        if (q.count == OperandQueue::kDepth) block_on(f, Wait::OperandPush);
        Operand& s = q.slots[(q.head + q.count) % OperandQueue::kDepth];
        s.op = op, s.idst = idst, s.flags = flags, s.fmt_a = a.format, s.has_b = true, s.rt = rt, s.ct = ct;
        s.packed_bf16 = a.format == DataFormat::Float16_b && b.format == DataFormat::Float16_b &&
            core.compute.math_fidelity == MathFidelity::HiFi4;
        s.transposed = transpose_of(c);
        if (s.mm.size() < size_t(rt + ct) * 1024) s.mm.resize(size_t(rt + ct) * 1024);
        // The tiles were written into this core's L1 by another core's NoC transfer, usually long
        // enough ago to have left the host's caches: ask for all their lines before reading any.
        for (uint32_t r = 0; r < rt; ++r)
            prefetch_tile(a.rd_ptr + (tile_a + r * kt) * a.page_bytes, a.tile_bytes);
        for (uint32_t col = 0; col < ct; ++col) prefetch_tile(b.rd_ptr + (tile_b + col) * b.page_bytes, b.tile_bytes);
        for (uint32_t r = 0; r < rt; ++r) {
            const void* l1 = reinterpret_cast<const void*>(uintptr_t(a.rd_ptr + (tile_a + r * kt) * a.page_bytes));
            float* out = s.mm.data() + size_t(r) * 1024;
            if (s.packed_bf16)
                tile::pack_matmul_in0_bf16(l1, reinterpret_cast<uint32_t*>(out));
            else
                tile::unpack_tile(a.format, l1, out, true);
        }
        for (uint32_t col = 0; col < ct; ++col) {
            const void* l1 = reinterpret_cast<const void*>(uintptr_t(b.rd_ptr + (tile_b + col) * b.page_bytes));
            float* out = s.mm.data() + size_t(rt + col) * 1024;
            if (s.packed_bf16)
                tile::pack_matmul_in1_bf16(l1, s.transposed, reinterpret_cast<uint32_t*>(out));
            else
                tile::unpack_tile(b.format, l1, out, true);
        }
        ++q.count;
        ++f.events;
        return;
    }
    if (f.proc != Proc::Math) return;
    const RoleConfig& cfg = core.cfg[int(Proc::Math)];
    if (cfg.fpu_op != op) [[unlikely]]
        missing_init_fault(cfg, op, flags, cb_a, cb_b);
    if (rt * uint64_t(ct) > 32) [[unlikely]]
        kernel_fault(std::string(api) + ": rt_dim " + std::to_string(rt) + " x ct_dim " + std::to_string(ct) +
                     " tiles do not fit in DST (" + std::to_string(core.dst.capacity) + " tiles)");
    float* dst[32];
    for (uint32_t i = 0; i < rt * ct; ++i) dst[i] = math_dst(f, idst + i, api);
    if (q.count == 0) block_on(f, Wait::OperandPop);
    Operand& s = q.slots[q.head];
    if (s.op != op || s.idst != idst || s.rt != rt || s.ct != ct) [[unlikely]]
        out_of_step_fault(s, api);
    if (flags != ~0u && (flags & 0x100) && (flags & 1) != (cfg.mm_transpose != 0)) [[unlikely]]
        matmul_block_transpose_fault(flags & 1, cfg.mm_transpose);
    const bool tr = transpose_of(cfg);
    if (s.packed_bf16 && s.transposed != tr) [[unlikely]]
        kernel_fault(std::string(api) + ": UNPACK was initialised with transpose " + std::to_string(s.transposed) +
                     " and MATH with " + std::to_string(tr) + " (each TRISC must run the same matmul init)");
    const MathFidelity fid = core.compute.math_fidelity;
    for (uint32_t r = 0; r < rt; ++r)
        for (uint32_t col = 0; col < ct; ++col) {
            const float* in0 = s.mm.data() + size_t(r) * 1024;
            const float* in1 = s.mm.data() + size_t(rt + col) * 1024;
            if (s.packed_bf16)
                tile::matmul_packed_bf16(reinterpret_cast<const uint32_t*>(in0), reinterpret_cast<const uint32_t*>(in1),
                                         dst[r * ct + col]);
            else
                tile::matmul(in0, in1, dst[r * ct + col], tr, fid);
        }
    // A 16-bit DST rounds each result to nearest even when the tile is next used (as fpu_op).
    if (dest16(f) && is_float_format(s.fmt_a)) {
        DstState& d = core.dst;
        for (uint32_t i = 0; i < rt * ct; ++i) {
            d.pending[d.math_sec] |= 1u << (idst + i);
            d.round_to[d.math_sec][idst + i] = dest16_format(s.fmt_a);
        }
    }
    q.head = (q.head + 1) % OperandQueue::kDepth;
    --q.count;
    ++f.events;
}

void fpu_op(uint32_t op, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst,
            uint32_t flags) {
    if (op == ZYX_EMU_FPU_MATMUL) return fpu_matmul_block(cb_a, cb_b, tile_a, tile_b, idst, flags, 1, 1, 0);
    Fiber& f = cur();
    Core& core = *f.core;
    OperandQueue& q = *core.opq;
    const char* api = fpu_name(op);
    if (f.proc == Proc::Unpack) {
        if (op == ZYX_EMU_FPU_TILIZE) {
            if (q.count == OperandQueue::kDepth) block_on(f, Wait::OperandPush);
            Operand& s = q.slots[(q.head + q.count) % OperandQueue::kDepth];
            s.op = op, s.idst = idst, s.flags = flags, s.has_b = false;
            s.fmt_a = cb_checked(f, int32_t(cb_a), "tilize_block").format;
            unpack_tilize(f, cb_a, flags, tile_a, s.b, s.a);  // s.b: scratch for the gather
            ++q.count;
            ++f.events;
            return;
        }
        // UNPACK: CB tiles (relative to the front) → SrcA / SrcB.
        bool two = op == ZYX_EMU_FPU_ELTWISE || op == ZYX_EMU_FPU_REDUCE;
        const CbState& a = unpack_source(f, cb_a, tile_a, api);
        const CbState* b = two ? &unpack_source(f, cb_b, tile_b, api) : nullptr;
        {
            const RoleConfig& c = core.cfg[int(Proc::Unpack)];
            // The unpacker reading operand A: SrcB for binary_dest_reuse_tiles with
            // DEST_TO_SRCA (DST takes SrcA) and for a broadcasting unary_bcast (tt-metal's unpack_A
            // with a broadcast fills SrcB).
            const int sa = (op == ZYX_EMU_FPU_DEST_REUSE && (flags >> 4) == 1) ||
                    (op == ZYX_EMU_FPU_UNARY_BCAST && flags != 0)
                ? 1
                : 0;
            if (c.unpack_fmt[sa] >= 0 && c.unpack_fmt[sa] != int32_t(a.format)) [[unlikely]]
                unpack_format_fault(c, sa, op, flags, cb_a, cb_b, cb_a, a.format);
            if (b && c.unpack_fmt[1 - sa] >= 0 && c.unpack_fmt[1 - sa] != int32_t(b->format)) [[unlikely]]
                unpack_format_fault(c, 1 - sa, op, flags, cb_a, cb_b, cb_b, b->format);
        }
        if (q.count == OperandQueue::kDepth) block_on(f, Wait::OperandPush);
        Operand& s = q.slots[(q.head + q.count) % OperandQueue::kDepth];
        s.op = op, s.idst = idst, s.flags = flags, s.fmt_a = a.format, s.has_b = two;
        // copy_tile (and unary_bcast<NONE>) unpack a CB set to UnpackToDestFp32 into DST whole;
        // everything else goes through SrcA / SrcB, which hold a Float32 tile as TF32. The FPU
        // cannot read a Float32 CB set to UnpackToDestFp32 (untilize_block's copy, flags 1, is
        // an FPU datacopy).
        const bool datacopy = (op == ZYX_EMU_FPU_COPY || op == ZYX_EMU_FPU_UNARY_BCAST) && flags == 0;
        const bool a_to_dest = unpacks_to_dest_fp32(core, cb_a);
        if (a.format == DataFormat::Float32 && a_to_dest && !datacopy) [[unlikely]]
            unpack_to_dest_fault(op, flags, cb_a);
        if (b && b->format == DataFormat::Float32 && unpacks_to_dest_fp32(core, cb_b)) [[unlikely]]
            unpack_to_dest_fault(op, flags, cb_b);
        tile::unpack_tile(a.format, reinterpret_cast<const void*>(uintptr_t(a.rd_ptr + tile_a * a.page_bytes)), s.a,
                          !(datacopy && a_to_dest));
        if (b)
            tile::unpack_tile(b->format, reinterpret_cast<const void*>(uintptr_t(b->rd_ptr + tile_b * b->page_bytes)),
                              s.b, true);
        ++q.count;
        ++f.events;
        return;
    }
    if (f.proc != Proc::Math) return;
    // MATH: wait for UNPACK's operands, then the FPU writes DST.
    // (A DST slot not written since tile_regs_acquire reads as cleared: reduce MAX starts at -inf.)
    bool dst_cleared = idst < 32 && !(core.dst.written[core.dst.math_sec] & (1u << idst));
    const RoleConfig& cfg = core.cfg[int(Proc::Math)];
    // The FPU must be configured for this op (and, for eltwise and reduce, this variant).
    const uint32_t elt_flags = op == ZYX_EMU_FPU_ELTWISE ? flags & 0xffu : flags;  // without bcast_row_idx
    if (cfg.fpu_op != op ||
        ((op == ZYX_EMU_FPU_ELTWISE || op == ZYX_EMU_FPU_DEST_REUSE || op == ZYX_EMU_FPU_UNARY_BCAST) &&
         cfg.elt_flags != elt_flags) ||
        (op == ZYX_EMU_FPU_REDUCE && cfg.reduce_flags != flags)) [[unlikely]]
        missing_init_fault(cfg, op, elt_flags, cb_a, cb_b);
    // binary_dest_reuse_tiles reads its DST tile: it must have been written since the acquire.
    if (op == ZYX_EMU_FPU_DEST_REUSE) math_read(f, idst, "binary_dest_reuse_tiles");
    // copy_tile, transpose and eltwise without accumulation replace the whole DST tile.
    bool overwrite = op == ZYX_EMU_FPU_COPY || op == ZYX_EMU_FPU_TILIZE || op == ZYX_EMU_FPU_TRANSPOSE ||
        op == ZYX_EMU_FPU_UNARY_BCAST || (op == ZYX_EMU_FPU_ELTWISE && !cfg.acc_to_dest);
    float* dst = math_dst(f, idst, api, overwrite);
    if (q.count == 0) block_on(f, Wait::OperandPop);
    Operand& s = q.slots[q.head];
    if (s.op != op || s.idst != idst) [[unlikely]]
        out_of_step_fault(s, api);
    MathFidelity fid = core.compute.math_fidelity;
    switch (op) {
        case ZYX_EMU_FPU_COPY:
        case ZYX_EMU_FPU_TILIZE: std::memcpy(dst, s.a, sizeof s.a); break;
        case ZYX_EMU_FPU_ELTWISE: {
            // A ROW broadcast of row r (bcast_row_idx, tt-metal bcast.h) repeats B's row r.
            const uint32_t row = (flags >> ZYX_EMU_ELT_ROW_SHIFT) & 31;
            if (row != 0) std::memcpy(s.b, s.b + row * 32, 32 * sizeof(float));
            tile::eltwise_binary(tile::EltwiseOp(flags & 15), tile::Broadcast((flags >> 4) & 15), s.a, s.b, dst,
                                 cfg.acc_to_dest, fid);
            break;
        }
        case ZYX_EMU_FPU_DEST_REUSE: {
            // DST[idst] moves into SrcA (DEST_TO_SRCA) or SrcB (DEST_TO_SRCB), the CB tile (s.a) fills
            // the other source; a 32-bit DST word loses its low 13 mantissa bits there (TF32, as an
            // unpacked Float32 CB does: docs/numerics.md). The result replaces DST[idst].
            alignas(64) float moved[1024];
            if (dest16(f)) {
                std::memcpy(moved, dst, sizeof moved);
            } else {
                for (uint32_t i = 0; i < 1024; ++i) {
                    uint32_t u;
                    std::memcpy(&u, dst + i, 4);
                    u &= 0xffffe000u;
                    std::memcpy(moved + i, &u, 4);
                }
            }
            const bool dest_is_a = (flags >> 4) == 1;
            tile::eltwise_binary(tile::EltwiseOp(flags & 15), tile::Broadcast::None, dest_is_a ? moved : s.a,
                                 dest_is_a ? s.a : moved, dst, false, fid);
            break;
        }
        case ZYX_EMU_FPU_UNARY_BCAST: tile::broadcast(tile::Broadcast(flags & 3), s.a, dst); break;
        case ZYX_EMU_FPU_REDUCE:
            tile::reduce(tile::PoolType(flags & 15), tile::ReduceDim((flags >> 4) & 15), s.a, s.b, dst, dst_cleared);
            break;
        case ZYX_EMU_FPU_TRANSPOSE: tile::transpose(s.a, dst); break;
        default: kernel_fault("unknown FPU op");
    }
    // A 16-bit DST rounds the result to nearest even: deferred to the tile's next use (settle_dst,
    // or pack_tile, which packs the rounded values in one pass).
    if (dest16(f) && is_float_format(s.fmt_a)) {
        DstState& d = core.dst;
        d.pending[d.math_sec] |= 1u << idst;
        d.round_to[d.math_sec][idst] = dest16_format(s.fmt_a);
    }
    q.head = (q.head + 1) % OperandQueue::kDepth;
    --q.count;
    ++f.events;
}

// ---- SFPU ---------------------------------------------------------------------------------------
// The SFPU calls return at once on UNPACK and PACK (a compute kernel runs on all three TRISCs);
// on MATH they check the DST state and indices (math_dst), run the tile op and round the result
// into a 16-bit DST. Failure messages are built out of line (ZYX_EMU_COLD).

// The headers no longer call it (every SFPU *_init is a no-op there: SFPU inits leave the FPU's
// configuration alone); kept in the table for kernels built against older headers.
void sfpu_init(uint32_t) {}

[[noreturn]] ZYX_EMU_COLD void unknown_sfpu_op(const char* what, uint32_t op) {
    kernel_fault(std::string(what) + " " + std::to_string(op));
}

void sfpu_unary(uint32_t op, uint32_t idst, uint32_t param) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    if (op > uint32_t(tile::SfpuUnary::ExpScaled)) [[unlikely]]
        unknown_sfpu_op("unknown SFPU op", op);
    math_read(f, idst, "SFPU unary op");
    float* t = math_dst(f, idst, "SFPU unary op");
    tile::sfpu_unary(tile::SfpuUnary(op), t, param, f.core->compute.math_approx_mode);
    // rsub_unary_tile rounds its result to bf16 (nearest even) itself in a 16-bit DST (LLK:
    // the logit correction), so the truncating store leaves it as it is.
    sfpu_store(f, t, op == uint32_t(tile::SfpuUnary::RsubScalar) ? Rounding::NearestEven : Rounding::TowardZero);
}

// A filled (uniform) operand is read as its word, without writing the tile out: generated
// kernels fill a tile with each constant and combine it with a binary op at once.
void sfpu_binary(uint32_t op, uint32_t a, uint32_t b, uint32_t out) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    if (op > uint32_t(tile::SfpuBinary::Remainder)) [[unlikely]]
        unknown_sfpu_op("unknown SFPU binary op", op);
    math_read(f, a, "SFPU binary op");
    math_read(f, b, "SFPU binary op");
    math_check(f, a, "SFPU binary op");
    math_check(f, b, "SFPU binary op");
    math_check(f, out, "SFPU binary op");
    DstState& d = f.core->dst;
    const uint32_t sec = d.math_sec, uniform = d.uniform[sec];
    const tile::SfpuBinary bop = tile::SfpuBinary(op);
    if ((uniform >> b) & 1) {  // b filled (a too: a is written out)
        const uint32_t word = d.uniform_word[sec][b];
        const float* ta = settle_dst(d, sec, a, false);
        tile::sfpu_binary_scalar(bop, ta, word, settle_dst(d, sec, out, true));
    } else if ((uniform >> a) & 1) {  // a filled
        const uint32_t word = d.uniform_word[sec][a];
        const float* tb = settle_dst(d, sec, b, false);
        tile::sfpu_binary_scalar(bop, word, tb, settle_dst(d, sec, out, true));
    } else {
        const float* ta = settle_dst(d, sec, a, false);
        const float* tb = settle_dst(d, sec, b, false);
        tile::sfpu_binary(bop, ta, tb, settle_dst(d, sec, out, true));
    }
    float* to = d.tile(sec, out);
    // fmod and remainder round their result to bf16 (nearest) before the store.
    const bool nearest = op == uint32_t(tile::SfpuBinary::Fmod) || op == uint32_t(tile::SfpuBinary::Remainder);
    sfpu_store(f, to, nearest ? Rounding::NearestEven : Rounding::TowardZero);
}

// A pure select: whole DST words move, nothing to round.
void sfpu_where(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst, uint32_t) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    math_read(f, idst0, "where_tile");
    math_read(f, idst1, "where_tile");
    math_read(f, idst2, "where_tile");
    const float* c = math_dst(f, idst0, "where_tile");
    const float* a = math_dst(f, idst1, "where_tile");
    const float* b = math_dst(f, idst2, "where_tile");
    tile::where(c, a, b, math_dst(f, odst, "where_tile", /*overwrite=*/true));
}

void sfpu_reduce(uint32_t idst, uint32_t pool, uint32_t dim, uint32_t fmt) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    if (dim != uint32_t(tile::ReduceDim::Col))  // the header's static_assert stops other dims first
        kernel_fault("Unsupported: sfpu_reduce with a reduce_dim other than REDUCE_COL");
    math_read(f, idst, "sfpu_reduce");
    float* t = math_dst(f, idst, "sfpu_reduce");
    const DataFormat df = DataFormat(fmt);
    tile::sfpu_reduce_col(tile::PoolType(pool), df, t);
    if (df == DataFormat::Float32 || df == DataFormat::Float16_b) sfpu_store(f, t);  // integer words stay as they are
}

void transpose_dest(uint32_t idst, bool is_32bit) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    math_read(f, idst, "transpose_wh_dest");
    tile::transpose_dest(math_dst(f, idst, "transpose_wh_dest"), !dest16(f), is_32bit);
}

void copy_dest(uint32_t idst, uint32_t odst) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    math_read(f, idst, "copy_dest_values");
    math_check(f, idst, "copy_dest_values");
    math_check(f, odst, "copy_dest_values");
    DstState& d = f.core->dst;
    if ((d.uniform[d.math_sec] >> idst) & 1) {  // a filled tile's copy is filled with the same word
        if (odst != idst) set_uniform(d, odst, d.uniform_word[d.math_sec][idst]);
        return;
    }
    const float* in = settle_dst(d, d.math_sec, idst, false);
    tile::copy(in, settle_dst(d, d.math_sec, odst, /*overwrite=*/true));
}

// Integer SFPU ops (api/compute/sfpu_int_ops.h). Int32 and UInt32 words need a 32-bit DST
// (fp32_dest_acc_en): a 16-bit DST cannot hold them, so such a call is a kernel fault. UInt16
// works in either. The results are integer words: never rounded into a 16-bit DST. Filled
// operands are written out first (settle_dst).
[[noreturn]] ZYX_EMU_COLD void sfpu_int_dest16_fault(uint32_t op, DataFormat df) {
    static const char* const names[] = {"add_int_tile",
                                        "sub_int_tile",
                                        "rsub_int_tile",
                                        "mul_int_tile",
                                        "bitwise_and_binary_tile",
                                        "bitwise_or_binary_tile",
                                        "bitwise_xor_binary_tile",
                                        "binary_left_shift_tile",
                                        "binary_right_shift_tile",
                                        "binary_logical_right_shift_tile",
                                        "lt_int_tile",
                                        "gt_int_tile",
                                        "le_int_tile",
                                        "ge_int_tile",
                                        "binary_max_int32_tile",
                                        "binary_min_int32_tile",
                                        "div_int32_floor_tile",
                                        "div_int32_trunc_tile",
                                        "div_int32_tile",
                                        "remainder_int32_tile",
                                        "fmod_int32_tile"};
    std::string name = names[op];
    if (op <= uint32_t(tile::SfpuBinaryInt::Ge))
        name += "<DataFormat::" + std::string(data_format_name(df)) + ">";
    else if (df == DataFormat::UInt32 && op <= uint32_t(tile::SfpuBinaryInt::Min))
        name.replace(name.find("int32"), 5, "uint32");
    kernel_fault(name + ": " + std::string(data_format_name(df)) +
                 " words need a 32-bit DST (ComputeConfig fp32_dest_acc_en = true); this program's DST is 16-bit");
}

void sfpu_binary_int(uint32_t op, uint32_t fmt, uint32_t a, uint32_t b, uint32_t out) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    if (op > uint32_t(tile::SfpuBinaryInt::Fmod)) [[unlikely]]
        unknown_sfpu_op("unknown integer SFPU op", op);
    const DataFormat df = DataFormat(fmt);
    if (dest16(f) && df != DataFormat::UInt16) [[unlikely]]
        sfpu_int_dest16_fault(op, df);
    math_read(f, a, "SFPU integer op");
    math_read(f, b, "SFPU integer op");
    math_check(f, a, "SFPU integer op");
    math_check(f, b, "SFPU integer op");
    math_check(f, out, "SFPU integer op");
    DstState& d = f.core->dst;
    const uint32_t sec = d.math_sec;
    const float* ta = settle_dst(d, sec, a, false);
    const float* tb = settle_dst(d, sec, b, false);
    tile::sfpu_binary_int(tile::SfpuBinaryInt(op), df, ta, tb, settle_dst(d, sec, out, true));
}

// Lazy (the tile becomes uniform) unless a 16-bit DST has to round the value.
void sfpu_fill(uint32_t idst, uint32_t bits, bool is_float) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    math_check(f, idst, "fill_tile");
    DstState& d = f.core->dst;
    if (is_float && dest16(f)) {
        float* t = settle_dst(d, d.math_sec, idst, /*overwrite=*/true);
        tile::fill_bits(t, bits);
        sfpu_store(f, t);
    } else {
        set_uniform(d, idst, bits);  // fill_tile's float is stored as it is: its bits
    }
}

void sfpu_typecast(uint32_t idst, uint32_t in_fmt, uint32_t out_fmt) {
    Fiber& f = cur();
    if (f.proc != Proc::Math) return;
    math_read(f, idst, "typecast_tile");
    tile::typecast(DataFormat(in_fmt), DataFormat(out_fmt), math_dst(f, idst, "typecast_tile"));
}

// ---- pack ---------------------------------------------------------------------------------------
std::string pack_call(uint32_t idst, uint32_t cb_id) {
    return "pack_tile(" + std::to_string(idst) + ", cb " + std::to_string(cb_id) + ")";
}

[[noreturn]] ZYX_EMU_COLD void pack_dst_fault(const DstState& d, uint32_t idst, uint32_t cb_id) {
    if (d.state[d.pack_sec] != DstState::Packing)
        kernel_fault(pack_call(idst, cb_id) + ": DST packed outside tile_regs_wait / tile_regs_release");
    kernel_fault(pack_call(idst, cb_id) + ": DST index " + std::to_string(idst) + " is beyond the capacity of " +
                 std::to_string(d.capacity) + " tiles");
}

[[noreturn]] ZYX_EMU_COLD void pack_cb_fault(const CbState& cb, uint32_t idst, uint32_t cb_id, uint32_t k) {
    if (k >= cb.reserved)
        kernel_fault(pack_call(idst, cb_id) + ": writes page " + std::to_string(k) + " of the CB but only " +
                     std::to_string(cb.reserved) + " pages are reserved with cb_reserve_back (overrun)");
    kernel_fault(pack_call(idst, cb_id) + ": page of " + std::to_string(cb.page_bytes) + " B is smaller than a " +
                 std::string(data_format_name(cb.format)) + " tile");
}

[[noreturn]] ZYX_EMU_COLD void pack_producer_fault(const CbState& cb, uint32_t idst, uint32_t cb_id) {
    kernel_fault(pack_call(idst, cb_id) + ": packs into a CB whose producer is " + proc_name(Proc(cb.producer)));
}

// A CB packed in another format than the packer is configured for (tt-metal: the packer writes
// the format of the CB given to the last hw-configuring init or pack_reconfig_data_format).
[[noreturn]] ZYX_EMU_COLD void pack_format_fault(const RoleConfig& c, uint32_t idst, uint32_t cb_id, DataFormat fmt) {
    kernel_fault(pack_call(idst, cb_id) + ": cb " + std::to_string(cb_id) + " holds " + std::string(data_format_name(fmt)) +
                 " tiles but the packer is configured for " + std::string(data_format_name(DataFormat(c.pack_fmt))) + " (cb " +
                 std::to_string(c.pack_fmt_cb) + ", by the last hw-configuring init or pack_reconfig_data_format); " +
                 "missing pack_reconfig_data_format(" + std::to_string(cb_id) + ")");
}

// ---- packer modes (pack_relu_config, pack_reconfig_l1_acc of tt-metal api/compute/pack.h) ------
// The ReLU config word is read as tt-llk's _llk_pack_relu_config_ (tt_llk_wormhole_b0/llk_lib/
// llk_pack_common.h) programs the packer's STACC_RELU registers: bits 3:0 select the mode (0
// NO_RELU, 3 MAX_THRESHOLD_RELU, 1 and 2 MIN_THRESHOLD_RELU; so ZERO_RELU is MIN_THRESHOLD_RELU
// with the word's threshold, 0 when the word is just ZERO_RELU), bits 31:16 are the threshold.
namespace {
uint32_t relu_hw_mode(uint32_t config) {
    const uint32_t type = config & 0xfu;
    return type == 0 ? 0u : type == 3 ? 3u : 2u;
}

// "0x0000abcd"
std::string hex32(uint32_t v) {
    std::string s = "0x00000000";
    for (int i = 9; i >= 2; --i, v >>= 4) s[size_t(i)] = "0123456789abcdef"[v & 15];
    return s;
}
}  // namespace

void pack_config(uint32_t what, uint32_t value) {
    Fiber& f = cur();
    RoleConfig& c = f.core->cfg[int(f.proc)];
    switch (what) {
        case ZYX_EMU_PACK_RELU_CONFIG: {
            const uint32_t type = value & 0xfu;
            if (type > 3)
                kernel_fault("pack_relu_config(" + hex32(value) + "): ReLU type " + std::to_string(type) +
                             " in bits 3:0 is not a ReluType (NO_RELU 0, ZERO_RELU 1, MIN_THRESHOLD_RELU 2, "
                             "MAX_THRESHOLD_RELU 3)");
            // The Tensix ISA leaves a threshold with its sign bit set undefined (bit 15 of both
            // the BF16 and the FP16 reading).
            if (type != 0 && (value >> 31))
                kernel_fault("pack_relu_config(" + hex32(value) + "): the threshold " + hex32(value >> 16) +
                             " (bits 31:16) is negative; a ReLU threshold must be >= +0");
            c.pack_relu = type == 0 ? 0u : value;
            return;
        }
        case ZYX_EMU_PACK_L1_ACC: c.pack_l1_acc = value != 0; return;
        default: kernel_fault("pack_config: unknown packer setting " + std::to_string(what));
    }
}

namespace {
// Tensix FP16 bits as a float (docs/numerics.md §2: exponent 31 is an ordinary binade, exponent 0
// reads as a zero of its sign).
float tensix_fp16(uint16_t h) {
    const uint32_t e = (h >> 10) & 0x1fu;
    const float v = e == 0 ? 0.0f : std::ldexp(1.0f + float(h & 0x3ffu) / 1024.0f, int(e) - 15);
    return (h & 0x8000u) ? -v : v;
}
}  // namespace

// pack_tile with packer ReLU and/or L1 accumulation, in the order of the Tensix packer pipeline
// (tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/Packers: DST → early format
// conversion → ReLU → … → late format conversion → accumulation into L1). The DST tile, rounded as
// pack_tile rounds it (a pending 16-bit result to nearest even), goes through the ReLU stage of
// Packers/ReLU.md (MIN_THRESHOLD_RELU: x <= T → +0; MAX_THRESHOLD_RELU: x <= 0 → +0, x > T → T);
// with L1 accumulation on, the page's current values (read in the CB's format) are then added in
// fp32, and the result is packed as pack_tile packs. T is read as FP16 when the packer's
// intermediate format is FP16 (a 16-bit DST packed into a Float16 CB), else as BF16.
ZYX_EMU_COLD void pack_with_modes(const RoleConfig& c, DstState& d, uint32_t idst, uint32_t cb_id, DataFormat fmt,
                                  bool fp32_dest, void* l1) {
    if (!is_float_format(fmt))
        kernel_fault("Unsupported: " + pack_call(idst, cb_id) + ": packer " +
                     (c.pack_relu ? "ReLU (pack_relu_config)" : "L1 accumulation") + " into a " +
                     std::string(data_format_name(fmt)) +
                     " CB (float formats only: tt-llk programs every ReLU type but NO_RELU as a threshold mode, "
                     "which the Tensix ISA defines for float data)",
                     ErrorStatus::Unsupported);
    alignas(64) float t[1024];
    if (d.pending[d.pack_sec] & (1u << idst)) {
        std::memcpy(t, d.tile(d.pack_sec, idst), sizeof t);
        tile::dest16_round(d.round_to[d.pack_sec][idst], t, Rounding::NearestEven);
    } else {
        std::memcpy(t, settle_dst(d, d.pack_sec, idst, false), sizeof t);
    }
    if (c.pack_relu) {
        const uint16_t bits = uint16_t(c.pack_relu >> 16);
        const float thr = !fp32_dest && fmt == DataFormat::Float16 ? tensix_fp16(bits) : bf16_to_f32(bits);
        if (relu_hw_mode(c.pack_relu) == 2)
            for (float& x : t) x = x <= thr ? 0.0f : x;
        else
            for (float& x : t) x = x <= 0.0f ? 0.0f : x > thr ? thr : x;
    }
    if (c.pack_l1_acc) {
        alignas(64) float old[1024];
        tile::unpack_tile(fmt, l1, old, false);
        for (uint32_t i = 0; i < 1024; ++i) t[i] += old[i];
    }
    tile::pack_tile(fmt, t, l1);
}

void pack_tile(uint32_t idst, uint32_t cb_id, uint32_t out_index, bool out_of_order) {
    Fiber& f = cur();
    if (f.proc != Proc::Pack) return;
    DstState& d = f.core->dst;
    if (d.state[d.pack_sec] != DstState::Packing || idst >= d.capacity) [[unlikely]]
        pack_dst_fault(d, idst, cb_id);
    if (!(d.written[d.pack_sec] >> idst & 1)) [[unlikely]]
        unwritten_dst_fault(d, d.pack_sec, idst, pack_call(idst, cb_id).c_str(), "tile_regs_acquire (by MATH)");
    CbState& cb = cb_checked(f, int32_t(cb_id), "pack_tile");
    if (cb.producer != int8_t(f.proc)) {
        if (cb.producer >= 0) pack_producer_fault(cb, idst, cb_id);
        cb.producer = int8_t(f.proc);
    }
    uint32_t k = out_of_order ? out_index : cb.packed;
    if (k >= cb.reserved || cb.page_bytes < cb.tile_bytes) [[unlikely]]
        pack_cb_fault(cb, idst, cb_id, k);
    if (const RoleConfig& c = f.core->cfg[int(Proc::Pack)]; c.pack_fmt >= 0 && c.pack_fmt != int32_t(cb.format))
        [[unlikely]]
        pack_format_fault(c, idst, cb_id, cb.format);
    void* l1 = reinterpret_cast<void*>(uintptr_t(cb.wr_ptr + k * cb.page_bytes));
    const uint32_t bit = 1u << idst;
    if (const RoleConfig& c = f.core->cfg[int(Proc::Pack)]; c.pack_relu || c.pack_l1_acc) [[unlikely]] {
        pack_with_modes(c, d, idst, cb_id, cb.format, f.core->compute.fp32_dest_acc_en, l1);
    } else if (d.pending[d.pack_sec] & bit)  // DST keeps its unrounded values; L1 gets the rounded ones
        tile::pack_tile_rounded(cb.format, d.round_to[d.pack_sec][idst], Rounding::NearestEven,
                                d.tile(d.pack_sec, idst), l1);
    else
        tile::pack_tile(cb.format, settle_dst(d, d.pack_sec, idst, false), l1);
    if (!out_of_order) ++cb.packed;
}

// untilize_block / pack_untilize_block (tt-metal api/compute/untilize.h, pack_untilize.h): the
// tile is packed as pack_tile would (same conversion and 16-bit DST rounding), then scattered
// into the rows of the row-major block.
std::string pack_rows_call(uint32_t idst, uint32_t cb_id, uint32_t full, uint32_t col) {
    return "pack_untilize(DST " + std::to_string(idst) + ", cb " + std::to_string(cb_id) + ", full_ct_dim " +
        std::to_string(full) + ", column " + std::to_string(col) + ")";
}

[[noreturn]] ZYX_EMU_COLD void pack_rows_fault(const DstState& d, const CbState& cb, uint32_t idst, uint32_t cb_id,
                                               uint32_t full, uint32_t col, uint64_t first) {
    const std::string call = pack_rows_call(idst, cb_id, full, col);
    if (d.state[d.pack_sec] != DstState::Packing)
        kernel_fault(call + ": DST packed outside tile_regs_wait / tile_regs_release");
    if (idst >= d.capacity)
        kernel_fault(call + ": DST index " + std::to_string(idst) + " is beyond the capacity of " +
                     std::to_string(d.capacity) + " tiles");
    if (tile::row_major_datum_bytes(cb.format) == 0)
        kernel_fault(
            call + ": data format " + std::string(data_format_name(cb.format)) +
            " has no row-major form (untilize writes Float32, Float16_b, Float16, Int32, UInt32, UInt16, UInt8)");
    if (full == 0 || col >= full) kernel_fault(call + ": the column is outside the block");
    if (cb.page_bytes < cb.tile_bytes)
        kernel_fault(call + ": page of " + std::to_string(cb.page_bytes) + " B is smaller than a " +
                     std::string(data_format_name(cb.format)) + " tile");
    kernel_fault(call + ": writes pages " + std::to_string(first) + " to " + std::to_string(first + full - 1) +
                 " of the CB but only " + std::to_string(cb.reserved) +
                 " pages are reserved with cb_reserve_back (overrun)");
}

void pack_rows(uint32_t idst, uint32_t cb_id, uint32_t page, uint32_t full, uint32_t col, bool sequential) {
    Fiber& f = cur();
    if (f.proc != Proc::Pack) return;
    DstState& d = f.core->dst;
    CbState& cb = cb_checked(f, int32_t(cb_id), "pack_untilize");
    const uint64_t first = uint64_t(page) + (sequential ? cb.packed : 0);
    const uint32_t db = tile::row_major_datum_bytes(cb.format);
    if (d.state[d.pack_sec] != DstState::Packing || idst >= d.capacity || db == 0 || full == 0 || col >= full ||
        cb.page_bytes < cb.tile_bytes || first + full > cb.reserved) [[unlikely]]
        pack_rows_fault(d, cb, idst, cb_id, full, col, first);
    if (cb.producer != int8_t(f.proc)) {
        if (cb.producer >= 0)
            kernel_fault(pack_rows_call(idst, cb_id, full, col) + ": packs into a CB whose producer is " +
                         proc_name(Proc(cb.producer)));
        cb.producer = int8_t(f.proc);
    }
    if (const RoleConfig& c = f.core->cfg[int(Proc::Pack)]; c.pack_relu || c.pack_l1_acc) [[unlikely]]
        kernel_fault("Unsupported: " + pack_rows_call(idst, cb_id, full, col) + " with packer " +
                         (c.pack_relu ? "ReLU (pack_relu_config)" : "L1 accumulation (pack_reconfig_l1_acc)") +
                         " on: the untilizing packs do not model the packer modes",
                     ErrorStatus::Unsupported);
    alignas(64) uint8_t faces[4096];
    const uint32_t bit = 1u << idst;
    if (d.pending[d.pack_sec] & bit)
        tile::pack_tile_rounded(cb.format, d.round_to[d.pack_sec][idst], Rounding::NearestEven,
                                d.tile(d.pack_sec, idst), faces);
    else
        tile::pack_tile(cb.format, settle_dst(d, d.pack_sec, idst, false), faces);
    // The block's rows are full·32 datums long, so its 32 rows fill exactly `full` tile-sized
    // pages (tt-metal's CB page convention for row-major blocks).
    const uint32_t row_bytes = full * 32 * db;
    void* l1 = reinterpret_cast<void*>(uintptr_t(cb.wr_ptr + first * cb.page_bytes + uint64_t(col) * 32 * db));
    tile::faces_to_rows(db, faces, l1, row_bytes);
    if (sequential && col + 1 == full) cb.packed += full;
}

// Reconfiguration: the emulator unpacks and packs every tile with its own CB's format, but it
// records what the hardware would be configured for, so that a missing reconfiguration faults
// (unpack_format_fault, pack_format_fault).
void pack_reconfig(uint32_t cb) {
    Fiber& f = cur();
    RoleConfig& c = f.core->cfg[int(f.proc)];
    c.pack_fmt = cb_format_or_none(f, cb), c.pack_fmt_cb = int32_t(cb);
}
void reconfig_unpack(uint32_t cb_a, uint32_t cb_b) {
    Fiber& f = cur();
    RoleConfig& c = f.core->cfg[int(f.proc)];
    if (cb_a != ~0u) set_unpack_format(f, c, 0, cb_a);
    if (cb_b != ~0u) set_unpack_format(f, c, 1, cb_b);
}

}  // namespace zyx::emu::api
