#include "backend/tenstorrent/codegen/plan.hpp"

#include <algorithm>
#include <cmath>

#include "backend/tenstorrent/codegen/ops.hpp"
#include "backend/tenstorrent/tile_layout.hpp"
#include "kernel/analysis.hpp"

namespace zyx::tt::codegen {

using kernel::Kernel;
using kernel::Node;
using kernel::Op;
using kernel::View;

const char* read_name(Read r) {
    switch (r) {
        case Read::tile: return "tile";
        case Read::transposed: return "transposed";
        case Read::bcast_row: return "bcast_row";
        case Read::bcast_col: return "bcast_col";
        case Read::bcast_scalar: return "bcast_scalar";
        case Read::gather: return "gather";
        case Read::index: return "index";
    }
    return "?";
}

int stream_of(const Plan& p, int input, int level) {
    for (size_t i = 0; i < p.streams.size(); ++i)
        if (p.streams[i].input == input && p.streams[i].level == level) return int(i);
    return -1;
}

namespace {

constexpr int64_t kT = kTileDim;

TileDim make_dim(const Kernel& k, std::vector<int> axes) {
    TileDim d;
    d.axes = std::move(axes);
    for (int a : d.axes) d.size *= k.shape[size_t(a)];
    d.tiles = (d.size + kT - 1) / kT;
    return d;
}

// How a stride moves through a tiled buffer of rows × cols matrices: whole matrices, whole rows
// (within a matrix), or columns (within a row). False for a stride that mixes them or is negative.
struct Move {
    int64_t m = 0, r = 0, c = 0;
};
bool decompose(int64_t s, int64_t R, int64_t C, Move* out) {
    *out = Move{};
    if (s == 0) return true;
    if (s < 0) return false;
    if (s % (R * C) == 0) {
        out->m = s / (R * C);
        return true;
    }
    if (s % C == 0 && s / C < R) {
        out->r = s / C;
        return true;
    }
    if (s < C) {
        out->c = s;
        return true;
    }
    return false;
}

// Chooses the Read of stream `s` over index space `k` and fills its offset and strides.
// `dims` are the plan's tile dims; the stream's view is `v` (over the full index space: a
// global-rank view read inside the reduce gets zero strides for the reduce axes).
void classify(const Kernel& k, const kernel::Input& in, const View& v, const TileDim dims[], Stream& s) {
    s.read = Read::gather;
    if (v.layers.size() != 1 || v.layers[0].has_mask()) return;
    const kernel::ViewLayer& l = v.layers[0];
    const TileDim& rd = dims[int(s.rows)];
    const TileDim& cd = dims[int(s.cols)];
    if (rd.axes.size() > 1 || cd.axes.size() > 1) return;  // a flattened dimension: only a gather walks it
    const int64_t R = in.storage.rows, C = in.storage.cols;
    s.offset = l.offset;
    s.strides = l.strides;
    // Every axis's move, and the furthest row / column any index reaches from the origin.
    std::vector<Move> mv(l.shape.size());
    Move o{l.offset / (R * C), (l.offset / C) % R, l.offset % C};
    int64_t reach_r = o.r, reach_c = o.c;
    for (size_t d = 0; d < l.shape.size(); ++d) {
        if (l.shape[d] <= 1) continue;
        if (!decompose(l.strides[d], R, C, &mv[d])) return;
        reach_r += (l.shape[d] - 1) * mv[d].r;
        reach_c += (l.shape[d] - 1) * mv[d].c;
    }
    if (reach_r >= R || reach_c >= C) return;  // a move would carry into the next row / matrix
    int ra = rd.axes.empty() ? -1 : rd.axes[0], ca = cd.axes.empty() ? -1 : cd.axes[0];
    // Axes outside the tile must move by whole tiles.
    for (size_t d = 0; d < l.shape.size(); ++d) {
        if (int(d) == ra || int(d) == ca || l.shape[d] <= 1) continue;
        if (mv[d].r % kT != 0 || mv[d].c % kT != 0) return;
    }
    // What the tile's rows and columns walk in the buffer: its rows ('r'), its columns ('c'),
    // nothing (a broadcast: '0'), or, for a dimension of size 1, anything ('1').
    auto walk = [&](int a) -> char {
        if (a < 0 || k.shape[size_t(a)] <= 1) return '1';
        const Move& m = mv[size_t(a)];
        if (m.m == 0 && m.r == 1 && m.c == 0) return 'r';
        if (m.m == 0 && m.r == 0 && m.c == 1) return 'c';
        if (m.m == 0 && m.r == 0 && m.c == 0) return '0';
        return '?';
    };
    char wr = walk(ra), wc = walk(ca);
    bool row0 = o.r % kT == 0, col0 = o.c % kT == 0;
    if ((wr == 'r' || wr == '1') && (wc == 'c' || wc == '1') && row0 && col0)
        s.read = Read::tile;
    else if (wr == 'c' && wc == 'r' && row0 && col0)
        s.read = Read::transposed;
    else if ((wr == '0' || wr == '1') && (wc == 'c' || (wc == '1' && col0)) && col0)
        s.read = Read::bcast_row;
    else if ((wc == '0' || wc == '1') && (wr == 'r' || (wr == '1' && row0)) && row0)
        s.read = Read::bcast_col;
    else if ((wr == '0' || wr == '1') && (wc == '0' || wc == '1'))
        s.read = Read::bcast_scalar;
}

// The view of input `in` over the full index space of `k` (a global-rank view gets zero strides
// for the reduce axes).
View full_view(const Kernel& k, const kernel::Input& in) {
    View v = in.view;
    if (v.rank() == k.shape.size()) return v;
    kernel::ViewLayer& top = v.layers.back();
    for (size_t d = v.rank(); d < k.shape.size(); ++d) {
        top.shape.push_back(k.shape[d]);
        top.strides.push_back(0);
        if (top.has_mask()) {
            top.mask_begin.push_back(0);
            top.mask_end.push_back(k.shape[d]);
        }
    }
    return v;
}

bool fail(std::string* why, const std::string& reason) {
    if (why) *why = reason;
    return false;
}

// Integers the plan computes in f32: exact while every value stays below 2^24 in magnitude.
constexpr double kExactInt = 16777216.0;

// Checks every needed node against what the tile engine does (ops.hpp), with integer nodes
// bounded in magnitude (bound[i]; infinite = unknown). i32 nodes are Int32 words (exact at any
// size); the other integer dtypes are f32 values and must stay below 2^24.
bool check_nodes(const Kernel& k, const std::vector<bool>& needed, std::string* why) {
    std::vector<double> bound(k.nodes.size(), INFINITY);
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        if (!needed[i]) continue;
        const Node& n = k.nodes[i];
        auto src = [&](int s) -> const Node& { return k.nodes[size_t(n.src[s])]; };
        auto b = [&](int s) { return bound[size_t(n.src[s])]; };
        std::string what = std::string(kernel::op_name(n.op)) + "." + std::string(dtype_name(n.dtype));
        if (!tile_dtype_ok(n.dtype)) return fail(why, what + ": no tile form for " + std::string(dtype_name(n.dtype)));
        std::string reason;
        if (!tile_op_ok(k, int(i), &reason)) return fail(why, what + ": " + reason);
        if (!dtype_is_int(n.dtype)) continue;
        if (words(n.dtype)) {  // exact as words; a bound only where a cast to f32 integers will need one
            bound[i] = n.op == Op::constant                      ? std::fabs(kernel::double_from_bits(n.dtype, n.value))
                : n.op == Op::index                              ? double(std::max<int64_t>(k.shape[n.arg], 1) - 1)
                : n.op == Op::cast && dtype_is_int(src(0).dtype) ? b(0)
                : n.op == Op::cast && src(0).dtype == DType::bool_ ? 1
                                                                   : INFINITY;
            continue;
        }
        switch (n.op) {
            case Op::constant: bound[i] = std::fabs(kernel::double_from_bits(n.dtype, n.value)); break;
            case Op::index: bound[i] = double(std::max<int64_t>(k.shape[n.arg], 1) - 1); break;
            case Op::scalar: bound[i] = kIntScalarLimit; break;  // TTDevice::launch checks it
            case Op::load: {
                // An integer buffer is only read to be converted, or copied to an output of its
                // dtype bit for bit (its values are not bounded).
                if (only_feeds_output(k, int(i))) {
                    bound[i] = 0;
                    break;
                }
                for (size_t j = i + 1; j < k.nodes.size(); ++j) {
                    const Node& u = k.nodes[j];
                    if (!needed[j]) continue;
                    bool converts = (u.op == Op::cast && !dtype_is_int(u.dtype)) || u.op == Op::bitcast;
                    for (int s = 0; s < kernel::op_arity(u.op); ++s)
                        if (u.src[s] == int(i) && !converts)
                            return fail(why,
                                        what + ": an integer input is only converted on the tile engine (" +
                                            std::string(kernel::op_name(u.op)) + " reads it)");
                }
                bound[i] = 0;  // checked above: only casts to floats read it
                break;
            }
            case Op::bitcast: bound[i] = 0; break;  // stored bits, only stored (tile_op_ok)
            case Op::cast:                          // bool → 0 / 1; float → int only feeds the output (tile_op_ok)
                bound[i] = dtype_is_int(src(0).dtype) ? b(0) : src(0).dtype == DType::bool_ ? 1 : 0;
                break;
            case Op::neg:
            case Op::abs:
            case Op::relu:
            case Op::sign: bound[i] = n.op == Op::sign ? 1 : b(0); break;
            case Op::floor:
            case Op::ceil:
            case Op::round: bound[i] = b(0); break;
            case Op::add:
            case Op::sub: bound[i] = b(0) + b(1); break;
            case Op::mul: bound[i] = b(0) * b(1); break;
            case Op::max:
            case Op::min: bound[i] = std::max(b(0), b(1)); break;
            case Op::where: bound[i] = std::max(b(1), b(2)); break;
            case Op::reduce_sum: bound[i] = b(0) * double(std::max<int64_t>(1, k.reduce_numel())); break;
            case Op::reduce_prod: bound[i] = b(0) <= 1 ? b(0) : INFINITY; break;
            case Op::reduce_max:
            case Op::reduce_min: bound[i] = b(0); break;
            default: break;
        }
        if ((n.op == Op::cast && !dtype_is_int(src(0).dtype)) || n.op == Op::bitcast)
            continue;  // stored, not computed on
        if (!(bound[i] < kExactInt))
            return fail(why, what + ": integer values may reach 2^24 (computed in f32 on the tile engine)");
    }
    return true;
}

// Whether every reduce of a reduce plan is a sum of a page-read load whose padding holds zeros
// exactly where the partial plane tiles reach past the data (the buffer was written from the host
// and the reduced dimensions run to the end of its rows / columns): then no mask is needed.
bool sum_of_zero_padding(const Plan& p) {
    const Kernel& k = p.kernel;
    for (int r : p.reduce_nodes) {
        const Node& rd = k.nodes[size_t(r)];
        int x = rd.src[0];
        while (k.nodes[size_t(x)].op == Op::cast && dtype_is_float(k.nodes[size_t(x)].dtype) &&
               dtype_is_float(k.nodes[size_t(k.nodes[size_t(x)].src[0])].dtype))
            x = k.nodes[size_t(x)].src[0];
        if (rd.op != Op::reduce_sum || k.nodes[size_t(x)].op != Op::load) return false;
        int si = stream_of(p, int(k.nodes[size_t(x)].arg), 1);
        if (si < 0) return false;
        const Stream& s = p.streams[size_t(si)];
        const kernel::Storage& st = k.inputs[size_t(s.input)].storage;
        if (s.read != Read::tile || !st.zero_padding) return false;
        if (p.reduce_cols && p.dims[int(Dim::red_cols)].size % kT && p.dims[int(Dim::red_cols)].size != st.cols)
            return false;
        if (p.reduce_rows && p.dims[int(Dim::red_rows)].size % kT && p.dims[int(Dim::red_rows)].size != st.rows)
            return false;
    }
    return true;
}

}  // namespace

std::optional<Plan> make_plan(const Kernel& in, const Target& target, std::string* why) {
    Plan p;
    p.kernel = kernel::merge_common_subexpressions(in);
    const Kernel& k = p.kernel;
    if (k.outputs.size() != 1) return fail(why, std::to_string(k.outputs.size()) + " outputs"), std::nullopt;
    const kernel::Output& out = k.outputs[0];
    if (!out.view.is_contiguous()) return fail(why, "the output view is not contiguous"), std::nullopt;
    auto of = tile_format(out.dtype);
    if (!of) return fail(why, "no tile format for a " + std::string(dtype_name(out.dtype)) + " result"), std::nullopt;
    p.out_node = out.node;
    p.out_dtype = out.dtype;
    p.out_format = *of;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const kernel::Input& x = k.inputs[i];
        if (!x.storage.tiled || !tile_format(x.dtype))
            return fail(why,
                        "input " + std::to_string(i) + " is a " + std::string(dtype_name(x.dtype)) +
                            " buffer stored row-major"),
                   std::nullopt;
    }
    const std::vector<bool> needed = kernel::needed_nodes(k);
    if (!check_nodes(k, needed, why)) return std::nullopt;
    const std::vector<uint64_t> axes = kernel::node_axes(k);

    // ---- the skeleton -------------------------------------------------------------------------
    const int G = int(k.global_rank()), N = int(k.shape.size());
    for (size_t i = 0; i < k.nodes.size(); ++i)
        if (needed[i] && kernel::op_is_reduce(k.nodes[i].op)) p.reduce_nodes.push_back(int(i));
    p.skeleton = p.reduce_nodes.empty() ? Skeleton::map : Skeleton::reduce;
    p.dims[int(Dim::out_rows)] = make_dim(k, G >= 2 ? std::vector<int>{G - 2} : std::vector<int>{});
    p.dims[int(Dim::out_cols)] = make_dim(k, G >= 1 ? std::vector<int>{G - 1} : std::vector<int>{});
    for (int a = 0; a + 2 < G; ++a) p.out_outer.push_back(a);
    const uint64_t gR = G >= 2 ? uint64_t(1) << (G - 2) : 0, gC = G >= 1 ? uint64_t(1) << (G - 1) : 0;
    uint64_t red_mask = 0;
    for (int a = G; a < N; ++a) red_mask |= uint64_t(1) << a;

    // A matmul: reduce_sum(a · b) of two loads (through float casts) where a does not walk the
    // output's columns and b not its rows.
    int mm_a = -1, mm_b = -1;
    if (p.reduce_nodes.size() == 1 && G >= 1 && k.reduce_axes >= 1) {
        const Node& rd = k.nodes[size_t(p.reduce_nodes[0])];
        const Node& mul = k.nodes[size_t(rd.src[0])];
        auto peel = [&](int i) {
            while (k.nodes[size_t(i)].op == Op::cast && dtype_is_float(k.nodes[size_t(i)].dtype) &&
                   dtype_is_float(k.nodes[size_t(k.nodes[size_t(i)].src[0])].dtype))
                i = k.nodes[size_t(i)].src[0];
            return i;
        };
        if (rd.op == Op::reduce_sum && dtype_is_float(rd.dtype) && mul.op == Op::mul) {
            int x = peel(mul.src[0]), y = peel(mul.src[1]);
            auto is_load = [&](int i) { return k.nodes[size_t(i)].op == Op::load; };
            if (is_load(x) && is_load(y)) {
                if (axes[size_t(x)] & gC) std::swap(x, y);
                uint64_t ax = axes[size_t(x)], ay = axes[size_t(y)];
                bool ok = !(ax & gC) && !(ay & gR) && (ax & red_mask) && (ay & red_mask) && (ay & gC);
                if (ok) {
                    mm_a = x;
                    mm_b = y;
                }
            }
        }
    }
    if (mm_a >= 0) p.skeleton = Skeleton::matmul;

    // ---- streams -------------------------------------------------------------------------------
    // Which loads and index nodes the reduce operands read (level 1) and the epilogue reads
    // (level 0); one stream for each.
    std::vector<uint8_t> scope(k.nodes.size(), 0);  // bit 0: epilogue, bit 1: operand
    scope[size_t(p.out_node)] |= 1;
    for (size_t i = k.nodes.size(); i-- > 0;) {
        if (!scope[i]) continue;
        const Node& n = k.nodes[i];
        uint8_t down = kernel::op_is_reduce(n.op) ? 2 : scope[i];
        for (int s = 0; s < kernel::op_arity(n.op); ++s) scope[size_t(n.src[s])] |= down;
    }

    if (p.skeleton == Skeleton::reduce) {
        // The operand plane: a reduce axis takes the place of an output dimension of size 1, the
        // one the biggest operand input walks its buffer's columns (rows) along.
        int main_input = -1;
        int64_t main_size = -1;
        for (size_t i = 0; i < k.nodes.size(); ++i)
            if ((scope[i] & 2) && k.nodes[i].op == Op::load) {
                const kernel::Input& x = k.inputs[k.nodes[i].arg];
                int64_t sz = x.view.numel();
                if (sz > main_size) {
                    main_size = sz;
                    main_input = int(k.nodes[i].arg);
                }
            }
        std::vector<int> free_red;
        for (int a = G; a < N; ++a) free_red.push_back(a);
        auto stride_of = [&](int a) -> int64_t {
            if (main_input < 0) return 0;
            View v = full_view(k, k.inputs[size_t(main_input)]);
            if (v.layers.size() != 1) return 0;
            return v.layers[0].strides[size_t(a)];
        };
        auto take = [&](int64_t want) {
            int pick = -1;
            for (int a : free_red)
                if (k.shape[size_t(a)] > 1 && stride_of(a) == want) pick = a;
            if (pick < 0)
                for (int a : free_red)
                    if (k.shape[size_t(a)] > 1) pick = a;
            if (pick >= 0) free_red.erase(std::find(free_red.begin(), free_red.end(), pick));
            return pick;
        };
        // A product has no in-tile form: it walks every reduced element as a step of its own.
        bool any_prod = false;
        for (int r : p.reduce_nodes) any_prod = any_prod || k.nodes[size_t(r)].op == Op::reduce_prod;
        int rc = -1, rr = -1;
        if (p.dims[int(Dim::out_cols)].size == 1 && !any_prod) rc = take(1);
        if (p.dims[int(Dim::out_rows)].size == 1 && !any_prod)
            rr = take(main_input >= 0 ? k.inputs[size_t(main_input)].storage.cols : 1);
        p.reduce_cols = rc >= 0;
        p.reduce_rows = rr >= 0;
        p.dims[int(Dim::red_cols)] = make_dim(k, rc >= 0 ? std::vector<int>{rc} : std::vector<int>{});
        p.dims[int(Dim::red_rows)] = make_dim(k, rr >= 0 ? std::vector<int>{rr} : std::vector<int>{});
        for (int a : free_red) p.red_outer.push_back(a);
        std::sort(p.red_outer.begin(), p.red_outer.end());
        p.steps = uint64_t(p.dims[int(Dim::red_rows)].tiles * p.dims[int(Dim::red_cols)].tiles);
        for (int a : p.red_outer) p.steps *= uint64_t(k.shape[size_t(a)]);
    }
    if (p.skeleton == Skeleton::matmul) {
        std::vector<int> red;
        for (int a = G; a < N; ++a) red.push_back(a);
        p.dims[int(Dim::k)] = make_dim(k, red);
        p.steps = uint64_t(p.dims[int(Dim::k)].tiles);
    }

    auto add_stream = [&](int input, int index_axis, int level) {
        Stream s;
        s.input = input;
        s.index_axis = index_axis;
        s.level = level;
        if (level == 1 && p.skeleton == Skeleton::reduce) {
            s.rows = p.reduce_rows ? Dim::red_rows : Dim::out_rows;
            s.cols = p.reduce_cols ? Dim::red_cols : Dim::out_cols;
        }
        if (input < 0) {
            s.read = Read::index;
            s.format = protocol::DataFormat::Float32;
        } else {
            const kernel::Input& x = k.inputs[size_t(input)];
            s.format = *tile_format(x.dtype);
            classify(k, x, full_view(k, x), p.dims, s);
        }
        p.streams.push_back(s);
        return int(p.streams.size()) - 1;
    };
    if (p.skeleton == Skeleton::matmul) {
        auto mm_stream = [&](int node, Dim rows, Dim cols) {
            Stream s;
            s.input = int(k.nodes[size_t(node)].arg);
            s.level = 1;
            s.rows = rows;
            s.cols = cols;
            const kernel::Input& x = k.inputs[size_t(s.input)];
            s.format = *tile_format(x.dtype);
            classify(k, x, full_view(k, x), p.dims, s);
            p.streams.push_back(s);
            return int(p.streams.size()) - 1;
        };
        p.matmul_a = mm_stream(mm_a, Dim::out_rows, Dim::k);
        p.matmul_b = mm_stream(mm_b, Dim::k, Dim::out_cols);
        // B read transposed (x @ w.T): matmul_tiles transposes it; A must be a plain tile.
        if (p.streams[size_t(p.matmul_b)].read == Read::transposed)
            p.transpose_b = true;
        else if (p.streams[size_t(p.matmul_b)].read != Read::tile)
            p.streams[size_t(p.matmul_b)].read = Read::gather;
        if (p.streams[size_t(p.matmul_a)].read != Read::tile) p.streams[size_t(p.matmul_a)].read = Read::gather;
        if (p.streams[size_t(p.matmul_a)].format != p.streams[size_t(p.matmul_b)].format)
            return fail(why, "matmul operands of different tile formats"), std::nullopt;
        p.split_f32 = p.streams[size_t(p.matmul_a)].format == protocol::DataFormat::Float32;
        // The K padding of the last K tile must read zero: a gather writes zeros there; a page
        // read brings the buffer's padding, which is zero only when the buffer was written from
        // the host and K runs to the end of its rows / columns.
        for (int m : {p.matmul_a, p.matmul_b}) {
            Stream& s = p.streams[size_t(m)];
            const kernel::Storage& st = k.inputs[size_t(s.input)].storage;
            const int64_t K = p.dims[int(Dim::k)].size;
            const bool k_in_cols = (s.cols == Dim::k) != (s.read == Read::transposed);
            const bool padding_is_zero =
                s.read != Read::gather && st.zero_padding && K == (k_in_cols ? st.cols : st.rows);
            s.zero_k_padding = K % kT != 0 && s.read != Read::gather && !padding_is_zero;
        }
    }
    for (int level : {1, 0}) {
        std::vector<int> seen_inputs, seen_axes;
        for (size_t i = 0; i < k.nodes.size(); ++i) {
            const Node& n = k.nodes[i];
            if (!needed[i] || !(scope[i] & (level ? 2 : 1))) continue;
            if (p.skeleton == Skeleton::matmul && level == 1) continue;  // the A and B streams
            if (n.op == Op::load &&
                std::find(seen_inputs.begin(), seen_inputs.end(), int(n.arg)) == seen_inputs.end()) {
                seen_inputs.push_back(int(n.arg));
                add_stream(int(n.arg), -1, level);
            }
            if (n.op == Op::index && std::find(seen_axes.begin(), seen_axes.end(), int(n.arg)) == seen_axes.end()) {
                seen_axes.push_back(int(n.arg));
                add_stream(-1, int(n.arg), level);
            }
        }
    }

    // ---- circular buffers, grid ------------------------------------------------------------------
    uint32_t cb = 0;
    uint64_t l1 = 0;
    for (Stream& s : p.streams) {
        s.cb = cb++;
        l1 += uint64_t(kStreamPages) * tile_size_bytes(s.format);
    }
    for (Stream& s : p.streams)
        if (s.read == Read::gather) {
            s.scratch_cb = cb++;
            l1 += uint64_t(kGatherCacheTiles) * tile_size_bytes(s.format);
        }
    if (p.split_f32) {
        p.streams[size_t(p.matmul_a)].lo_cb = cb++;
        p.streams[size_t(p.matmul_b)].lo_cb = cb++;
        p.streams[size_t(p.matmul_b)].lo2_cb = cb++;
        l1 += 6ull * tile_size_bytes(protocol::DataFormat::Float32);
    }
    if (p.skeleton == Skeleton::reduce &&
        ((p.reduce_rows && p.dims[int(Dim::red_rows)].size % kT) ||
         (p.reduce_cols && p.dims[int(Dim::red_cols)].size % kT)) &&
        !sum_of_zero_padding(p)) {
        p.mask_cb = cb++;
        l1 += 2ull * tile_size_bytes(protocol::DataFormat::Float16_b);
    } else {
        p.mask_cb = UINT32_MAX;
    }
    p.out_cb = cb++;
    p.out_cb_format = p.out_dtype == DType::bf16 ? protocol::DataFormat::Float32 : p.out_format;
    l1 += uint64_t(kStreamPages) * tile_size_bytes(p.out_cb_format);
    if (p.out_dtype == DType::bf16) {
        p.out_staging_cb = cb++;
        l1 += tile_size_bytes(p.out_format);
    }
    if (cb > target.num_cbs)
        return fail(why,
                    std::to_string(cb) + " circular buffers (the device has " + std::to_string(target.num_cbs) + ")"),
               std::nullopt;
    if (l1 > target.l1_bytes)
        return fail(why,
                    std::to_string(l1) + " bytes of circular buffers (L1 holds " + std::to_string(target.l1_bytes) +
                        ")"),
               std::nullopt;

    p.out_tiles = uint64_t(p.dims[int(Dim::out_rows)].tiles * p.dims[int(Dim::out_cols)].tiles);
    for (int a : p.out_outer) p.out_tiles *= uint64_t(k.shape[size_t(a)]);
    if (p.out_tiles == 0) return fail(why, "an empty output"), std::nullopt;
    uint64_t cores = std::min<uint64_t>(p.out_tiles, uint64_t(target.grid.rows) * target.grid.cols);
    p.grid.cols = uint32_t(std::min<uint64_t>(cores, target.grid.cols));
    p.grid.rows = uint32_t((cores + p.grid.cols - 1) / p.grid.cols);
    return p;
}

}  // namespace zyx::tt::codegen
