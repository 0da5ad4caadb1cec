// Step 2b: the compute kernel of a plan — the skeleton's loops around DST sections, and inside
// them the expression DAG compiled to tile ops (ops.cpp) with DST slots allocated as it goes.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "backend/tenstorrent/codegen/emit.hpp"
#include "backend/tenstorrent/codegen/ops.hpp"
#include "backend/tenstorrent/tile_layout.hpp"
#include "core/error.hpp"
#include "kernel/analysis.hpp"

namespace zyx::tt::codegen {

using kernel::Kernel;
using kernel::Node;
using kernel::Op;

namespace {

constexpr uint32_t kMaxDst = 16;

// DST slots of one section. A slot is busy while it holds a value someone still needs: a value
// an op has been handed as an operand and not yet consumed (holders), or a value with uses left
// (live). It is freed when neither holds.
struct Slots {
    uint32_t n = 8;
    bool busy[kMaxDst] = {};
    int holders[kMaxDst] = {};
    bool live[kMaxDst] = {};
    uint32_t alloc() {
        for (uint32_t i = 0; i < n; ++i)
            if (!busy[i]) {
                busy[i] = true;
                return i;
            }
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: the expression needs more than " + std::to_string(n) + " DST tiles at once");
    }
    void free(uint32_t s) { busy[s] = false; }
    // Drops one holder; frees the slot when nothing else holds it and it is not `keep`.
    void drop(uint32_t s, uint32_t keep = UINT32_MAX) {
        --holders[s];
        if (holders[s] == 0 && !live[s] && s != keep) busy[s] = false;
    }
};

// A value in a DST slot, held by whoever received it from ExprCompiler::eval until it drops it.
struct Val {
    uint32_t slot = 0;
};

// Compiles parts of the kernel's expression DAG into tile ops. `level` picks the streams loads
// read from (1: the reduce operands / matmul, 0: the epilogue). Nodes with several uses stay in
// their slot until the last use; loads, constants and index tiles are made again for every use
// (cheaper than holding a DST tile). An op writes its result over its first operand when nothing
// else needs that value, else into a fresh slot.
class ExprCompiler {
public:
    ExprCompiler(const Plan& p, std::ostringstream& os, std::string ind, InitTracker& inits, Slots& slots, int level)
        : p_(p),
          k_(p.kernel),
          os_(os),
          ind_(std::move(ind)),
          inits_(inits),
          slots_(slots),
          level_(level),
          remaining_(k_.nodes.size(), 0),
          need_(k_.nodes.size(), 0) {}

    // Counts the uses of everything `roots` reach (stopping at nodes already given a slot).
    void count_uses(const std::vector<int>& roots) {
        std::vector<bool> seen(k_.nodes.size(), false);
        std::vector<int> stack(roots.begin(), roots.end());
        for (int r : roots) ++remaining_[size_t(r)];
        while (!stack.empty()) {
            int i = stack.back();
            stack.pop_back();
            if (seen[size_t(i)] || live_.count(i)) continue;
            seen[size_t(i)] = true;
            const Node& n = k_.nodes[size_t(i)];
            if (kernel::op_is_reduce(n.op)) continue;
            for (int s = 0; s < kernel::op_arity(n.op); ++s) {
                ++remaining_[size_t(n.src[s])];
                stack.push_back(n.src[s]);
            }
        }
    }
    // Node `i` is already in `slot` (a reduce result): live until its uses are counted down.
    void provide(int i, uint32_t slot) {
        live_[i] = slot;
        slots_.live[slot] = true;
    }

    // The slot holding node i's value, with one more holder (the caller's).
    Val eval(int i) {
        if (auto it = live_.find(i); it != live_.end()) {
            uint32_t s = it->second;
            ++slots_.holders[s];
            if (--remaining_[size_t(i)] == 0) {
                live_.erase(it);
                slots_.live[s] = false;
            }
            return {s};
        }
        const Node& n = k_.nodes[size_t(i)];
        uint32_t out;
        if (int c = scalar_operand(n); c >= 0) {
            // x op c with c a constant or launch scalar: the SFPU's binop-with-scalar form, no
            // tile of c (binop_with_scalar.h: add / sub / rsub / mul / div_unary_tile).
            const Node& cn = k_.nodes[size_t(n.src[c])];
            Val x = eval(n.src[1 - c]);
            --remaining_[size_t(n.src[c])];
            out = slots_.holders[x.slot] == 1 && !slots_.live[x.slot] ? x.slot : slots_.alloc();
            emit_copy(os_, ind_, inits_, x.slot, out);
            // x / c by a power of two c is x · (1/c), exactly (div_unary_tile multiplies by its
            // parameter: tt-metal's hosts pass the reciprocal).
            const char* fn = n.op == Op::add         ? "add_unary_tile"
                : n.op == Op::mul || n.op == Op::div ? "mul_unary_tile"
                : c == 1                             ? "sub_unary_tile"
                                                     : "rsub_unary_tile";
            emit_init(os_, ind_, inits_, "binop_with_scalar_tile_init();");
            os_ << ind_ << fn << "(" << out << ", ";
            if (cn.op == Op::scalar) {
                os_ << "scalar" << cn.arg;
            } else {
                double v = kernel::double_from_bits(cn.dtype, cn.value);
                uint32_t bits = n.op == Op::div ? f32_bits_of(DType::f32, kernel::bits_from_double(DType::f32, 1.0 / v))
                                                : f32_bits_of(cn.dtype, cn.value);
                os_ << "0x" << std::hex << bits << std::dec << "u";
            }
            os_ << ");\n";
            slots_.drop(x.slot, out);
        } else if (kernel::op_arity(n.op) == 0) {
            out = slots_.alloc();
            leaf(i, out);
        } else {
            // Operands, the one needing more slots first (Sethi–Ullman order).
            int arity = kernel::op_arity(n.op);
            int order[3] = {0, 1, 2};
            std::stable_sort(order, order + arity, [&](int x, int y) { return need(n.src[x]) > need(n.src[y]); });
            Val ops[3];
            for (int j = 0; j < arity; ++j) ops[order[j]] = eval(n.src[order[j]]);
            const uint32_t a = ops[0].slot;
            bool over_a = slots_.holders[a] == 1 && !slots_.live[a];
            for (int j = 1; j < arity; ++j) over_a = over_a && ops[j].slot != a;
            out = over_a ? a : slots_.alloc();
            uint32_t scratch[2] = {0, 0};
            uint32_t ns = op_scratch(k_, i);
            for (uint32_t s = 0; s < ns; ++s) scratch[s] = slots_.alloc();
            emit_op(os_, ind_, inits_, k_, i, a, arity > 1 ? ops[1].slot : 0, arity > 2 ? ops[2].slot : 0, out,
                    scratch);
            for (uint32_t s = 0; s < ns; ++s) slots_.free(scratch[s]);
            for (int j = 0; j < arity; ++j) slots_.drop(ops[j].slot, out);
        }
        slots_.holders[out] = 1;
        if (--remaining_[size_t(i)] > 0 && kernel::op_arity(n.op) > 0) {
            live_[i] = out;  // a computed value with uses left stays; a leaf is made again
            slots_.live[out] = true;
        }
        return {out};
    }

private:
    // Which operand (0 or 1) of `n` is a constant or launch scalar that its binop-with-scalar
    // form takes as a parameter, or -1: float add / sub / mul (either side), div by it.
    int scalar_operand(const Node& n) const {
        if (n.op != Op::add && n.op != Op::sub && n.op != Op::mul && n.op != Op::div) return -1;
        if (!dtype_is_float(n.dtype)) return -1;
        auto is_scalar = [&](int s) {
            Op op = k_.nodes[size_t(n.src[s])].op;
            return op == Op::constant || op == Op::scalar;
        };
        if (n.op == Op::div) {  // only by a constant power of two (its reciprocal is exact)
            const Node& c = k_.nodes[size_t(n.src[1])];
            if (c.op != Op::constant) return -1;
            int e = 0;
            double v = kernel::double_from_bits(c.dtype, c.value);
            return std::isfinite(v) && v != 0 && std::fabs(std::frexp(v, &e)) == 0.5 && e > -125 && e < 127 ? 1 : -1;
        }
        if (is_scalar(1)) return 1;
        if (is_scalar(0)) return 0;
        return -1;
    }

    int need(int i) {
        if (need_[size_t(i)]) return need_[size_t(i)];
        const Node& n = k_.nodes[size_t(i)];
        int r = 1;
        if (live_.count(i) || kernel::op_is_reduce(n.op))
            r = 1;
        else if (int c = scalar_operand(n); c >= 0)
            r = need(n.src[1 - c]);
        else if (kernel::op_arity(n.op) == 1)
            r = need(n.src[0]);
        else if (kernel::op_arity(n.op) >= 2) {
            int a = need(n.src[0]), b = need(n.src[1]);
            r = a == b ? a + 1 : std::max(a, b);
            if (kernel::op_arity(n.op) == 3) r = std::max(r, need(n.src[2]) + 2);
        }
        r += int(op_scratch(k_, i));
        need_[size_t(i)] = r;
        return r;
    }

    void leaf(int i, uint32_t slot) {
        const Node& n = k_.nodes[size_t(i)];
        switch (n.op) {
            case Op::constant:
                emit_fill(os_, ind_, inits_, slot, words(n.dtype) ? uint32_t(n.value) : f32_bits_of(n.dtype, n.value));
                return;
            case Op::scalar:  // scalar<n> holds its f32 bits or Int32 word (compute_source)
                emit_init(os_, ind_, inits_, "fill_tile_init();");
                os_ << ind_ << "fill_tile_bitcast(" << slot << ", scalar" << n.arg << ");\n";
                return;
            case Op::load:
            case Op::index: {
                int st = -1;
                for (size_t s = 0; s < p_.streams.size(); ++s) {
                    const Stream& x = p_.streams[s];
                    bool match = n.op == Op::load ? x.input == int(n.arg) : x.input < 0 && x.index_axis == int(n.arg);
                    if (match && x.level == level_) st = int(s);
                }
                if (st < 0)
                    throw Error(
                        ErrorStatus::Internal,
                        "tt codegen: no level-" + std::to_string(level_) + " stream for node %" + std::to_string(i));
                const Stream& x = p_.streams[size_t(st)];
                emit_copy_tile(os_, ind_, inits_, x.cb, slot);
                if (x.read == Read::transposed) {
                    emit_init(os_, ind_, inits_, "transpose_wh_dest_init_short<true>();");
                    os_ << ind_ << "transpose_wh_dest<true>(" << slot << ");\n";
                }
                // An Int32 load stays words; an index tile holds f32 positions.
                if (n.op == Op::index && words(n.dtype)) emit_typecast(os_, ind_, inits_, true, slot);
                return;
            }
            default: break;
        }
        throw Error(ErrorStatus::Internal, "tt codegen: leaf " + std::string(kernel::op_name(n.op)));
    }

    const Plan& p_;
    const Kernel& k_;
    std::ostringstream& os_;
    std::string ind_;
    InitTracker& inits_;
    Slots& slots_;
    int level_;
    std::vector<uint32_t> remaining_;
    std::vector<int> need_;
    std::map<int, uint32_t> live_;
};

const char* pool_of(Op op) {
    switch (op) {
        case Op::reduce_sum: return "PoolType::SUM";
        case Op::reduce_max: return "PoolType::MAX";
        case Op::reduce_min: return "PoolType::MIN";
        default: break;
    }
    throw Error(ErrorStatus::Internal, "tt codegen: no in-tile reduction for " + std::string(kernel::op_name(op)));
}

// acc reduced inside the tile: along rows (result in row 0), along columns (result in
// column 0), or both (result at [0][0]); sfpu_reduce reduces columns into row 0, so a row
// reduction goes through transposes. `nan` (a free slot, or UINT32_MAX) keeps NaN where the
// reduced values held one: the SFPU's max / min skip NaN, the IR's give NaN.
void in_tile_reduce(const Plan& p, std::ostringstream& os, const std::string& ind, InitTracker& t, Op op, DType dt,
                    uint32_t acc, uint32_t scratch0, uint32_t scratch1) {
    const std::string fmt = words(dt) ? "DataFormat::Int32" : "DataFormat::Float32";
    auto reduce_once = [&](const char* pool, uint32_t slot) {
        emit_init(os, ind, t, std::string("sfpu_reduce_init<") + pool + ", " + fmt + ">();");
        os << ind << "sfpu_reduce<" << pool << ", " << fmt << ">(" << slot << ");\n";
    };
    auto transpose = [&](uint32_t slot) {
        emit_init(os, ind, t, "transpose_wh_dest_init_short<true>();");
        os << ind << "transpose_wh_dest<true>(" << slot << ");\n";
    };
    auto run = [&](const char* pool, uint32_t slot) {
        if (p.reduce_cols) transpose(slot);
        reduce_once(pool, slot);
        if (p.reduce_rows && p.reduce_cols) {
            transpose(slot);
            reduce_once(pool, slot);
        } else if (p.reduce_cols) {
            transpose(slot);
        }
    };
    const bool nan_guard = (op == Op::reduce_max || op == Op::reduce_min) && !words(dt);
    if (nan_guard) {  // count NaNs the same way
        emit_copy(os, ind, t, acc, scratch0);
        emit_unary(os, ind, t, "isnan", scratch0);
        run("PoolType::SUM", scratch0);
    }
    run(pool_of(op), acc);
    if (nan_guard) {
        emit_fill(os, ind, t, scratch1, 0x7fc00000u);
        emit_init(os, ind, t, "where_tile_init();");
        os << ind << "where_tile<DataFormat::Float32>(" << scratch0 << ", " << scratch1 << ", " << acc << ", " << acc
           << ");\n";
    }
}

}  // namespace

void emit_copy_tile(std::ostringstream& os, const std::string& ind, InitTracker& t, uint32_t cb, uint32_t slot) {
    // copy_tile_to_dst_init_short keeps the unpacker's SrcA format (tt-metal api/compute/
    // tile_move_copy.h; only the _with_dt form reconfigures it), which is that of the CB the last
    // init named: streams of other formats need the reconfiguration.
    const std::string c = std::to_string(cb);
    emit_init(os, ind, t, "reconfig_data_format_srca(" + c + ");\n" + ind + "copy_tile_to_dst_init_short(" + c + ");");
    os << ind << "copy_tile(" << cb << ", 0, " << slot << ");\n";
}

namespace {

// The identity of reduce node rn as the DST word it starts from.
uint32_t identity_bits(const Node& rn) {
    uint64_t bits = kernel::reduce_identity_bits(rn.op, rn.dtype);
    return words(rn.dtype) ? uint32_t(bits) : f32_bits_of(rn.dtype, bits);
}

// The value in `v` as a slot its holder may write over (a copy when someone else still needs it).
uint32_t exclusive(std::ostringstream& os, const std::string& ind, InitTracker& inits, Slots& slots, Val v) {
    if (slots.holders[v.slot] == 1 && !slots.live[v.slot]) return v.slot;
    uint32_t c = slots.alloc();
    emit_copy(os, ind, inits, v.slot, c);
    slots.drop(v.slot);
    slots.holders[c] = 1;
    return c;
}

}  // namespace

std::string compute_source(const Plan& p) {
    const Kernel& k = p.kernel;
    std::ostringstream os;
    os << "// zyx: generated compute kernel (" << skeleton_name(p.skeleton) << " skeleton).\n"
       << "// Runtime args: core index, core count, then the launch scalars.\n"
       << "#include \"api/compute/common.h\"\n"
       << "#include \"api/compute/tile_move_copy.h\"\n"
       << "#include \"api/compute/eltwise_binary_sfpu.h\"\n"
       << "#include \"api/compute/eltwise_unary/eltwise_unary.h\"\n"
       << "#include \"api/compute/eltwise_unary/fill.h\"\n"
       << "#include \"api/compute/eltwise_unary/where.h\"\n"
       << "#include \"api/compute/eltwise_unary/typecast.h\"\n"
       << "#include \"api/compute/eltwise_unary/comp.h\"\n"
       << "#include \"api/compute/eltwise_unary/binop_with_scalar.h\"\n"
       << "#include \"api/compute/binary_fmod.h\"\n"
       << "#include \"api/compute/add_int_sfpu.h\"\n"
       << "#include \"api/compute/sub_int_sfpu.h\"\n"
       << "#include \"api/compute/mul_int_sfpu.h\"\n"
       << "#include \"api/compute/binary_bitwise_sfpu.h\"\n"
       << "#include \"api/compute/binary_shift.h\"\n"
       << "#include \"api/compute/binary_comp.h\"\n"
       << "#include \"api/compute/binary_max_min.h\"\n"
       << "#include \"api/compute/div_int32_floor.h\"\n"
       << "#include \"api/compute/copy_dest_values.h\"\n"
       << "#include \"api/compute/transpose_wh_dest.h\"\n"
       << "#include \"api/compute/matmul.h\"\n"
       << "#include \"api/compute/compute_kernel_api.h\"\n\n"
       << "void kernel_main() {\n";
    const std::string I1 = "    ";
    emit_work_split(os, I1, p.out_tiles);
    for (size_t s = 0; s < k.scalars.size(); ++s) {
        DType t = k.scalars[s];
        std::string arg = "get_arg_val<uint32_t>(" + std::to_string(2 + s) + ")";
        if (words(t)) {
            os << I1 << "const uint32_t scalar" << s << " = " << arg << ";  // Int32 word\n";
            continue;
        }
        if (dtype_is_int(t)) {  // the value as an f32 (exact: the launch checks it is below 2^22)
            std::string w =
                dtype_is_signed_int(t) ? "int" + std::to_string(8 * dtype_size(t)) + "_t(" + arg + ")" : arg;
            os << I1 << "const float scalar" << s << "f = float(" << w << ");\n"
               << I1 << "uint32_t scalar" << s << ";  // f32 bits\n"
               << I1 << "__builtin_memcpy(&scalar" << s << ", &scalar" << s << "f, 4);\n";
            continue;
        }
        os << I1 << "const uint32_t scalar" << s << " = ";
        if (t == DType::f32)
            os << arg;
        else if (t == DType::bf16)
            os << "(" << arg << " << 16)";
        else if (t == DType::bool_)
            os << "(" << arg << " ? 0x3f800000u : 0u)";
        else
            throw Error(ErrorStatus::Internal, "tt codegen: scalar of dtype " + std::string(dtype_name(t)));
        os << ";  // f32 bits\n";
    }
    const Stream* first = p.streams.empty() ? nullptr : &p.streams[0];
    if (p.skeleton == Skeleton::matmul) {
        const Stream& a = p.streams[size_t(p.matmul_a)];
        const Stream& b = p.streams[size_t(p.matmul_b)];
        os << I1 << "mm_init(" << a.cb << ", " << b.cb << ", " << p.out_cb << ", " << (p.transpose_b ? 1 : 0) << ");\n";
    } else {
        os << I1 << "init_sfpu(" << (first ? first->cb : p.out_cb) << ", " << p.out_cb << ");\n";
    }
    os << I1 << "for (uint32_t t = 0; t < count; ++t) {\n";
    const std::string I2 = I1 + "    ", I3 = I2 + "    ";
    InitTracker inits;
    Slots slots;
    slots.n = p.dst_tiles;
    os << I2 << "tile_regs_acquire();\n";
    std::map<int, uint32_t> reduced;  // reduce node → its slot
    if (p.skeleton == Skeleton::matmul) {
        const Stream& a = p.streams[size_t(p.matmul_a)];
        const Stream& b = p.streams[size_t(p.matmul_b)];
        uint32_t acc = slots.alloc();
        reduced[p.reduce_nodes[0]] = acc;
        const int tb = p.transpose_b ? 1 : 0;
        // f32 operands as sums of parts the FPU reads exactly (plan.hpp, split_f32), the products
        // that matter, small ones first.
        std::vector<std::pair<uint32_t, uint32_t>> products;
        if (p.split_f32) products = {{a.lo_cb, b.lo_cb}, {a.lo_cb, b.cb}, {a.cb, b.lo2_cb}, {a.cb, b.lo_cb}};
        products.push_back({a.cb, b.cb});
        os << I2 << "for (uint32_t kt = 0; kt < " << p.steps << "; ++kt) {\n";
        std::vector<uint32_t> cbs = {a.cb, b.cb};
        if (p.split_f32) cbs = {a.cb, a.lo_cb, b.cb, b.lo_cb, b.lo2_cb};
        for (uint32_t c : cbs) os << I3 << "cb_wait_front(" << c << ", 1);\n";
        // matmul unpacks in1 into SrcA and in0 into SrcB (tt-metal api/compute/matmul.h); an
        // epilogue's copy_tile or another product's CBs may have left other formats there.
        for (auto [x, y] : products)
            os << I3 << "reconfig_data_format(" << y << ", " << x << ");\n"
               << I3 << "mm_init_short(" << x << ", " << y << ", " << tb << ");\n"
               << I3 << "matmul_tiles(" << x << ", " << y << ", 0, 0, " << acc << ");\n";
        for (uint32_t c : cbs) os << I3 << "cb_pop_front(" << c << ", 1);\n";
        os << I2 << "}\n";
    } else if (p.skeleton == Skeleton::reduce) {
        // Accumulators start at the identity; every step combines one operand tile into them.
        std::vector<uint32_t> acc;
        for (int r : p.reduce_nodes) {
            const Node& rn = k.nodes[size_t(r)];
            acc.push_back(slots.alloc());
            emit_fill(os, I2, inits, acc.back(), identity_bits(rn));
            reduced[r] = acc.back();
        }
        os << I2 << "for (uint32_t s = 0; s < " << p.steps << "; ++s) {\n";
        inits.reset();
        const TileDim& rr = p.dims[int(Dim::red_rows)];
        const TileDim& rc = p.dims[int(Dim::red_cols)];
        bool mask = p.mask_cb != UINT32_MAX;
        if (mask) {
            os << I3 << "const bool edge = false";
            if (p.reduce_cols && rc.size % kTileDim) os << " || s % " << rc.tiles << " == " << rc.tiles - 1;
            if (p.reduce_rows && rr.size % kTileDim)
                os << " || (s / " << rc.tiles << ") % " << rr.tiles << " == " << rr.tiles - 1;
            os << ";\n";
        }
        for (const Stream& s : p.streams)
            if (s.level == 1) os << I3 << "cb_wait_front(" << s.cb << ", 1);\n";
        ExprCompiler ec(p, os, I3, inits, slots, 1);
        std::vector<int> roots;
        for (int r : p.reduce_nodes) roots.push_back(k.nodes[size_t(r)].src[0]);
        ec.count_uses(roots);
        std::vector<Val> vals;
        for (int r : roots) vals.push_back(ec.eval(r));
        for (Val& v : vals) v.slot = exclusive(os, I3, inits, slots, v);  // the mask writes them
        if (mask) {  // the partial last tile of the reduced axes: padding becomes the identity
            uint32_t m = slots.alloc(), id = slots.alloc();
            os << I3 << "if (edge) {\n";
            std::string I4 = I3 + "    ";
            InitTracker in_edge = inits;
            os << I4 << "cb_wait_front(" << p.mask_cb << ", 1);\n";
            emit_copy_tile(os, I4, in_edge, p.mask_cb, m);
            for (size_t j = 0; j < vals.size(); ++j) {
                const Node& rn = k.nodes[size_t(p.reduce_nodes[j])];
                emit_fill(os, I4, in_edge, id, identity_bits(rn));
                emit_init(os, I4, in_edge, "where_tile_init();");
                os << I4 << "where_tile<DataFormat::" << (words(rn.dtype) ? "Int32" : "Float32") << ">(" << m << ", "
                   << vals[j].slot << ", " << id << ", " << vals[j].slot << ");\n";
            }
            os << I4 << "cb_pop_front(" << p.mask_cb << ", 1);\n" << I3 << "}\n";
            inits.reset();
            slots.free(m);
            slots.free(id);
        }
        // acc = combine(acc, value)
        for (size_t j = 0; j < vals.size(); ++j) {
            const Node& rn = k.nodes[size_t(p.reduce_nodes[j])];
            uint32_t scratch[2] = {0, 0};
            uint32_t ns = combine_scratch(rn.op, rn.dtype);
            for (uint32_t s = 0; s < ns; ++s) scratch[s] = slots.alloc();
            emit_combine(os, I3, inits, rn.op, rn.dtype, acc[j], vals[j].slot, scratch);
            for (uint32_t s = 0; s < ns; ++s) slots.free(scratch[s]);
            slots.drop(vals[j].slot);
        }
        for (const Stream& s : p.streams)
            if (s.level == 1) os << I3 << "cb_pop_front(" << s.cb << ", 1);\n";
        os << I2 << "}\n";
        inits.reset();
        if (p.reduce_rows || p.reduce_cols)
            for (size_t j = 0; j < acc.size(); ++j) {
                uint32_t s0 = slots.alloc(), s1 = slots.alloc();
                const Node& rn = k.nodes[size_t(p.reduce_nodes[j])];
                in_tile_reduce(p, os, I2, inits, rn.op, rn.dtype, acc[j], s0, s1);
                slots.free(s0);
                slots.free(s1);
            }
    }
    for (auto [node, slot] : reduced) slots.busy[slot] = true;
    // The epilogue: the output's expression over the reduce results and the level-0 streams.
    for (const Stream& s : p.streams)
        if (s.level == 0) os << I2 << "cb_wait_front(" << s.cb << ", 1);\n";
    // (An Int32 output is an i32 node, on words already; a bitcast keeps the bits it is given.)
    ExprCompiler ec(p, os, I2, inits, slots, 0);
    for (auto [node, slot] : reduced) ec.provide(node, slot);
    ec.count_uses({p.out_node});
    uint32_t res = ec.eval(p.out_node).slot;
    for (const Stream& s : p.streams)
        if (s.level == 0) os << I2 << "cb_pop_front(" << s.cb << ", 1);\n";
    os << I2 << "tile_regs_commit();\n"
       << I2 << "cb_reserve_back(" << p.out_cb << ", 1);\n"
       << I2 << "tile_regs_wait();\n"
       << I2 << "pack_tile(" << res << ", " << p.out_cb << ");\n"
       << I2 << "tile_regs_release();\n"
       << I2 << "cb_push_back(" << p.out_cb << ", 1);\n"
       << I1 << "}\n"
       << "}\n";
    return os.str();
}

}  // namespace zyx::tt::codegen
