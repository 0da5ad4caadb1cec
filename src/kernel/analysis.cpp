#include "kernel/analysis.hpp"

#include <cmath>
#include <map>
#include <tuple>

#include "core/error.hpp"

namespace zyx::kernel {

Kernel merge_common_subexpressions(const Kernel& in) {
    Kernel k = in;
    std::map<std::tuple<int, int, int, int, int, uint32_t, uint64_t>, int> first;
    std::vector<int> canon(k.nodes.size());
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        Node& nd = k.nodes[i];
        for (int s = 0; s < op_arity(nd.op); ++s) nd.src[s] = canon[size_t(nd.src[s])];
        auto key = std::make_tuple(int(nd.op), int(nd.dtype), nd.src[0], nd.src[1], nd.src[2], nd.arg, nd.value);
        auto [it, inserted] = first.emplace(key, int(i));
        canon[i] = inserted ? int(i) : it->second;
    }
    for (Output& o : k.outputs) o.node = canon[size_t(o.node)];
    return k;
}

std::vector<bool> needed_nodes(const Kernel& k) {
    std::vector<bool> needed(k.nodes.size(), false);
    for (const Output& o : k.outputs) needed[size_t(o.node)] = true;
    for (size_t i = k.nodes.size(); i-- > 0;) {
        if (!needed[i]) continue;
        for (int s = 0; s < op_arity(k.nodes[i].op); ++s) needed[size_t(k.nodes[i].src[s])] = true;
    }
    return needed;
}

std::vector<uint32_t> use_counts(const Kernel& k) {
    std::vector<bool> needed = needed_nodes(k);
    std::vector<uint32_t> uses(k.nodes.size(), 0);
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        if (!needed[i]) continue;
        for (int s = 0; s < op_arity(k.nodes[i].op); ++s) ++uses[size_t(k.nodes[i].src[s])];
    }
    for (const Output& o : k.outputs) ++uses[size_t(o.node)];
    return uses;
}

uint64_t view_varying_axes(const View& v) {
    const ViewLayer& top = v.layers.back();
    if (top.shape.size() > 64)
        throw Error(ErrorStatus::InvalidArgument,
                    "view_varying_axes: view " + view_string(v) + " has more than 64 axes");
    uint64_t axes = 0;
    for (size_t d = 0; d < top.shape.size(); ++d) {
        if (top.shape[d] <= 1) continue;
        bool walks = top.strides[d] != 0;
        bool masked = top.has_mask() && (top.mask_begin[d] > 0 || top.mask_end[d] < top.shape[d]);
        if (walks || masked) axes |= uint64_t(1) << d;
    }
    return axes;
}

std::vector<uint64_t> node_axes(const Kernel& k) {
    if (k.shape.size() > 64)
        throw Error(ErrorStatus::InvalidArgument,
                    "node_axes: index space " + shape_string(k.shape) + " has more than 64 axes");
    size_t G = k.global_rank();
    uint64_t global_axes = G == 64 ? ~uint64_t(0) : (uint64_t(1) << G) - 1;
    std::vector<uint64_t> axes(k.nodes.size(), 0);
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        const Node& nd = k.nodes[i];
        uint64_t a = 0;
        if (nd.op == Op::load) {
            a = view_varying_axes(k.inputs[nd.arg].view);
        } else if (nd.op == Op::index) {
            a = nd.arg < k.shape.size() ? uint64_t(1) << nd.arg : 0;
        } else {
            for (int s = 0; s < op_arity(nd.op); ++s) a |= axes[size_t(nd.src[s])];
            if (op_is_reduce(nd.op)) a &= global_axes;
        }
        axes[i] = a;
    }
    return axes;
}

Op reduce_combine_op(Op reduce) {
    switch (reduce) {
        case Op::reduce_sum: return Op::add;
        case Op::reduce_prod: return Op::mul;
        case Op::reduce_max: return Op::max;
        case Op::reduce_min: return Op::min;
        default: break;
    }
    throw Error(ErrorStatus::Internal, "reduce_combine_op: " + std::string(op_name(reduce)) + " is not a reduce");
}

uint64_t reduce_identity_bits(Op reduce, DType t) {
    switch (reduce) {
        case Op::reduce_sum: return bits_from_int(t, 0);
        case Op::reduce_prod: return bits_from_int(t, 1);
        case Op::reduce_max:
        case Op::reduce_min: break;
        default:
            throw Error(ErrorStatus::Internal,
                        "reduce_identity_bits: " + std::string(op_name(reduce)) + " is not a reduce");
    }
    bool is_max = reduce == Op::reduce_max;
    if (dtype_is_float(t)) return bits_from_double(t, is_max ? -INFINITY : INFINITY);
    if (t == DType::bool_) return is_max ? 0 : 1;
    unsigned bits = unsigned(8 * dtype_size(t));
    uint64_t all_ones = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    if (dtype_is_unsigned_int(t)) return is_max ? 0 : all_ones;
    uint64_t lowest = uint64_t(1) << (bits - 1);  // sign bit alone: the most negative value
    return is_max ? lowest : lowest - 1;
}

uint64_t view_required_bytes(const View& view, DType dtype, const std::string& who) {
    int64_t lo, hi;
    if (!view.offset_range(&lo, &hi)) return 0;
    if (lo < 0)
        throw Error(ErrorStatus::InvalidArgument,
                    who + " view " + view_string(view) + " reaches element " + std::to_string(lo) + " (below 0)");
    return uint64_t(hi + 1) * dtype_size(dtype);
}

}  // namespace zyx::kernel
