// Op tables, builders, validation, structural hashing and printing of kernels.
#include "kernel/kernel.hpp"

#include <algorithm>
#include <sstream>

#include "core/error.hpp"

namespace zyx::kernel {
namespace {

constexpr std::string_view kOpNames[kNumOps] = {
    "load",       "constant",    "scalar",     "index",       "neg",        "exp",        "exp2",   "log",
    "log2",       "sqrt",        "rsqrt",      "recip",       "sin",        "cos",        "tanh",   "sigmoid",
    "erf",        "relu",        "abs",        "floor",       "ceil",       "round",      "sign",   "logical_not",
    "bit_not",    "add",         "sub",        "mul",         "div",        "pow",        "max",    "min",
    "mod",        "cmp_lt",      "cmp_le",     "cmp_gt",      "cmp_ge",     "cmp_eq",     "cmp_ne", "logical_and",
    "logical_or", "logical_xor", "bit_and",    "bit_or",      "bit_xor",    "shl",        "shr",    "where",
    "cast",       "bitcast",     "reduce_sum", "reduce_prod", "reduce_max", "reduce_min",
};

[[noreturn]] void invalid(const Kernel& k, const std::string& what) {
    (void)k;
    throw Error(ErrorStatus::InvalidArgument, "invalid kernel: " + what);
}

std::string node_name(const Kernel& k, int i) {
    const Node& n = k.nodes[size_t(i)];
    return "node %" + std::to_string(i) + " (" + std::string(op_name(n.op)) + " " + std::string(dtype_name(n.dtype)) +
        ")";
}

void check_view_rank(const View& v, const std::string& who) {
    if (v.layers.empty()) throw Error(ErrorStatus::InvalidArgument, "invalid kernel: " + who + " has an empty view");
    for (const ViewLayer& l : v.layers) {
        size_t r = l.shape.size();
        if (r > kMaxRank || l.strides.size() != r ||
            (l.has_mask() && (l.mask_begin.size() != r || l.mask_end.size() != r)) ||
            std::any_of(l.shape.begin(), l.shape.end(), [](int64_t d) { return d < 0; }))
            throw Error(ErrorStatus::InvalidArgument,
                        "invalid kernel: " + who + " has a malformed view " + view_string(v));
    }
}

// Every position `v` yields must exist: upper layers stay inside the shape of the layer below
// (else the unravel leaves that shape), and layer 0 reaches no element below 0. Counted over the
// indices each layer's mask lets through, so padding may point anywhere.
void check_view_reach(const View& v, const std::string& who) {
    if (v.numel() == 0) return;
    for (size_t li = v.layers.size(); li-- > 0;) {
        int64_t lo, hi;
        if (!v.layer_range(li, &lo, &hi)) return;  // only padding below this layer
        if (lo == INT64_MIN && hi == INT64_MAX)
            throw Error(ErrorStatus::InvalidArgument,
                        "invalid kernel: " + who + " view " + view_string(v) + ": element positions overflow 64 bits");
        if (li == 0) {
            if (lo < 0)
                throw Error(ErrorStatus::InvalidArgument,
                            "invalid kernel: " + who + " view " + view_string(v) + " reaches element " +
                                std::to_string(lo) + " (below 0)");
            return;
        }
        int64_t below = 1;
        for (int64_t d : v.layers[li - 1].shape) below *= d;
        if (lo < 0 || hi >= below)
            throw Error(ErrorStatus::InvalidArgument,
                        "invalid kernel: " + who + " view " + view_string(v) + ": layer " + std::to_string(li) +
                            " reaches positions " + std::to_string(lo) + ".." + std::to_string(hi) + " outside the " +
                            std::to_string(below) + " elements of layer " + std::to_string(li - 1));
    }
}

}  // namespace

std::string_view op_name(Op op) {
    auto i = size_t(op);
    return i < size_t(kNumOps) ? kOpNames[i] : "?";
}

bool op_is_unary(Op op) { return op >= Op::neg && op <= Op::bit_not; }
bool op_is_binary(Op op) { return op >= Op::add && op <= Op::shr; }
bool op_is_comparison(Op op) { return op >= Op::cmp_lt && op <= Op::cmp_ne; }
bool op_is_reduce(Op op) { return op >= Op::reduce_sum && op <= Op::reduce_min; }
bool op_gives_bool(Op op) {
    return op_is_comparison(op) || op == Op::logical_not || op == Op::logical_and || op == Op::logical_or ||
        op == Op::logical_xor;
}

int op_arity(Op op) {
    if (op <= Op::index) return 0;
    if (op_is_binary(op)) return 2;
    if (op == Op::where) return 3;
    return 1;
}

bool op_accepts(Op op, DType t) {
    bool f = dtype_is_float(t), i = dtype_is_int(t), b = t == DType::bool_;
    switch (op) {
        case Op::exp:
        case Op::exp2:
        case Op::log:
        case Op::log2:
        case Op::sqrt:
        case Op::rsqrt:
        case Op::recip:
        case Op::sin:
        case Op::cos:
        case Op::tanh:
        case Op::sigmoid:
        case Op::erf: return f;
        case Op::neg:
        case Op::relu:
        case Op::abs:
        case Op::floor:
        case Op::ceil:
        case Op::round:
        case Op::sign:
        case Op::add:
        case Op::sub:
        case Op::mul:
        case Op::div:
        case Op::pow:
        case Op::mod:
        case Op::reduce_sum:
        case Op::reduce_prod: return f || i;
        case Op::bit_not:
        case Op::bit_and:
        case Op::bit_or:
        case Op::bit_xor: return i || b;
        case Op::shl:
        case Op::shr: return i;
        case Op::index: return i;
        case Op::bitcast: return !b;
        default: return true;
    }
}

// ---- Kernel ------------------------------------------------------------------------------------

std::vector<int64_t> Kernel::global_shape() const {
    return std::vector<int64_t>(shape.begin(), shape.begin() + std::ptrdiff_t(global_rank()));
}
int64_t Kernel::global_numel() const {
    int64_t n = 1;
    for (size_t d = 0; d < global_rank(); ++d) n *= shape[d];
    return n;
}
int64_t Kernel::reduce_numel() const {
    int64_t n = 1;
    for (size_t d = global_rank(); d < shape.size(); ++d) n *= shape[d];
    return n;
}

int Kernel::add_input(DType dtype, const View& view, uint64_t pad_value, Storage storage) {
    inputs.push_back(Input{dtype, view, pad_value, storage});
    return int(inputs.size()) - 1;
}
int Kernel::add_scalar(DType dtype) {
    scalars.push_back(dtype);
    return int(scalars.size()) - 1;
}
int Kernel::add_output(DType dtype, const View& view, int node) {
    outputs.push_back(Output{dtype, view, node});
    return int(outputs.size()) - 1;
}
int Kernel::push(const Node& n) {
    nodes.push_back(n);
    return int(nodes.size()) - 1;
}
int Kernel::load(int input) {
    Node n;
    n.op = Op::load;
    n.arg = uint32_t(input);
    n.dtype = input >= 0 && size_t(input) < inputs.size() ? inputs[size_t(input)].dtype : DType::f32;
    return push(n);
}
int Kernel::constant_bits(DType dtype, uint64_t bits) {
    Node n;
    n.op = Op::constant;
    n.dtype = dtype;
    n.value = bits;
    return push(n);
}
int Kernel::constant(DType dtype, double v) { return constant_bits(dtype, bits_from_double(dtype, v)); }
int Kernel::constant_int(DType dtype, int64_t v) { return constant_bits(dtype, bits_from_int(dtype, v)); }
int Kernel::scalar(int slot) {
    Node n;
    n.op = Op::scalar;
    n.arg = uint32_t(slot);
    n.dtype = slot >= 0 && size_t(slot) < scalars.size() ? scalars[size_t(slot)] : DType::f32;
    return push(n);
}
int Kernel::index(int axis, DType dtype) {
    Node n;
    n.op = Op::index;
    n.arg = uint32_t(axis);
    n.dtype = dtype;
    return push(n);
}
static DType dtype_of(const Kernel& k, int i) {
    return i >= 0 && size_t(i) < k.nodes.size() ? k.nodes[size_t(i)].dtype : DType::f32;
}
int Kernel::unary(Op op, int x) {
    Node n;
    n.op = op;
    n.src[0] = x;
    n.dtype = op_gives_bool(op) ? DType::bool_ : dtype_of(*this, x);
    return push(n);
}
int Kernel::binary(Op op, int x, int y) {
    Node n;
    n.op = op;
    n.src[0] = x;
    n.src[1] = y;
    n.dtype = op_gives_bool(op) ? DType::bool_ : dtype_of(*this, x);
    return push(n);
}
int Kernel::where(int cond, int x, int y) {
    Node n;
    n.op = Op::where;
    n.src[0] = cond;
    n.src[1] = x;
    n.src[2] = y;
    n.dtype = dtype_of(*this, x);
    return push(n);
}
int Kernel::cast(int x, DType to) {
    Node n;
    n.op = Op::cast;
    n.src[0] = x;
    n.dtype = to;
    return push(n);
}
int Kernel::bitcast(int x, DType to) {
    Node n;
    n.op = Op::bitcast;
    n.src[0] = x;
    n.dtype = to;
    return push(n);
}
int Kernel::reduce(Op op, int x) {
    Node n;
    n.op = op;
    n.src[0] = x;
    n.dtype = dtype_of(*this, x);
    return push(n);
}

// ---- validation --------------------------------------------------------------------------------

std::vector<uint8_t> node_levels(const Kernel& k) {
    std::vector<uint8_t> level(k.nodes.size(), 0);
    size_t g = k.global_rank();
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        const Node& n = k.nodes[i];
        uint8_t l = 0;
        if (n.op == Op::load)
            l = k.reduce_axes > 0 && k.inputs[n.arg].view.rank() == k.shape.size();
        else if (n.op == Op::index)
            l = n.arg >= g;
        else if (op_is_reduce(n.op))
            l = 0;
        else
            for (int s = 0; s < op_arity(n.op); ++s) l = std::max(l, level[size_t(n.src[s])]);
        level[i] = l;
    }
    return level;
}

void validate(const Kernel& k) {
    if (k.shape.size() > kMaxRank)
        invalid(k, "index space rank " + std::to_string(k.shape.size()) + " > " + std::to_string(kMaxRank));
    if (k.reduce_axes > k.shape.size())
        invalid(k, std::to_string(k.reduce_axes) + " reduce axes in index space " + shape_string(k.shape));
    for (int64_t d : k.shape)
        if (d < 0) invalid(k, "negative axis in index space " + shape_string(k.shape));
    size_t full = k.shape.size();
    std::vector<int64_t> gshape = k.global_shape();
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const Input& in = k.inputs[i];
        std::string who = "input " + std::to_string(i);
        check_view_rank(in.view, who);
        if (in.view.shape() != gshape && in.view.shape() != k.shape)
            invalid(k,
                    who + " view shape " + shape_string(in.view.shape()) + " is neither the global shape " +
                        shape_string(gshape) + " nor the index space " + shape_string(k.shape));
        check_view_reach(in.view, who);
        if (in.storage.tiled && (in.storage.rows < 1 || in.storage.cols < 1))
            invalid(k,
                    who + " is tiled as " + std::to_string(in.storage.rows) + "x" + std::to_string(in.storage.cols) +
                        " (rows and cols must be at least 1)");
    }
    if (k.outputs.empty()) invalid(k, "no outputs");
    std::vector<bool> inside_reduce(k.nodes.size(), false);  // contains a reduce below it
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        const Node& n = k.nodes[i];
        if (size_t(n.op) >= size_t(kNumOps)) invalid(k, "node %" + std::to_string(i) + " has an unknown op");
        auto who = [&] { return node_name(k, int(i)); };  // built only for a message
        int arity = op_arity(n.op);
        for (int s = 0; s < 3; ++s) {
            if (s < arity && (n.src[s] < 0 || size_t(n.src[s]) >= i))
                invalid(k,
                        who() + " operand " + std::to_string(s) + " = %" + std::to_string(n.src[s]) +
                            " is not an earlier node");
            if (s >= arity && n.src[s] != -1) invalid(k, who() + " has an extra operand");
        }
        auto src_t = [&](int s) { return k.nodes[size_t(n.src[s])].dtype; };
        auto need = [&](bool ok, auto&& why) {  // `why` is a lambda: no string work when ok
            if (!ok) invalid(k, who() + ": " + why());
        };
        switch (n.op) {
            case Op::load:
                need(n.arg < k.inputs.size(), [&] { return std::string("no input " + std::to_string(n.arg)); });
                if (n.arg < k.inputs.size())
                    need(n.dtype == k.inputs[n.arg].dtype,
                         [&] { return std::string("dtype differs from input " + std::to_string(n.arg)); });
                break;
            case Op::constant: break;
            case Op::scalar:
                need(n.arg < k.scalars.size(), [&] { return std::string("no scalar " + std::to_string(n.arg)); });
                if (n.arg < k.scalars.size())
                    need(n.dtype == k.scalars[n.arg],
                         [&] { return std::string("dtype differs from scalar " + std::to_string(n.arg)); });
                break;
            case Op::index:
                need(n.arg < full,
                     [&] { return std::string("no axis " + std::to_string(n.arg) + " in " + shape_string(k.shape)); });
                need(op_accepts(n.op, n.dtype), [&] { return std::string("index needs an integer dtype"); });
                break;
            case Op::where:
                need(src_t(0) == DType::bool_, [&] { return std::string("condition must be bool"); });
                need(src_t(1) == n.dtype && src_t(2) == n.dtype,
                     [&] { return std::string("branches must have the result dtype"); });
                break;
            case Op::cast: break;
            case Op::bitcast:
                need(op_accepts(n.op, n.dtype) && op_accepts(n.op, src_t(0)) &&
                         dtype_size(n.dtype) == dtype_size(src_t(0)),
                     [&] {
                         return std::string("bitcast from " + std::string(dtype_name(src_t(0))) +
                                            " (sizes differ or bool)");
                     });
                break;
            default: {
                DType t = src_t(0);
                need(op_accepts(n.op, t), [&] { return std::string("does not accept " + std::string(dtype_name(t))); });
                if (arity == 2)
                    need(src_t(1) == t, [&] {
                        return std::string("operand dtypes differ (" + std::string(dtype_name(t)) + ", " +
                                           std::string(dtype_name(src_t(1))) + ")");
                    });
                bool to_bool = op_gives_bool(n.op);
                need(n.dtype == (to_bool ? DType::bool_ : t), [&] {
                    return std::string("result dtype must be " + std::string(dtype_name(to_bool ? DType::bool_ : t)));
                });
            }
        }
        for (int s = 0; s < arity; ++s)
            if (inside_reduce[size_t(n.src[s])] || op_is_reduce(k.nodes[size_t(n.src[s])].op)) inside_reduce[i] = true;
        if (op_is_reduce(n.op)) {
            need(k.reduce_axes > 0, [&] { return std::string("reduce in a kernel without reduce axes"); });
            need(!inside_reduce[i],
                 [&] { return std::string("reduce of a reduce (only one reduce level per kernel)"); });
        }
    }
    std::vector<uint8_t> level = node_levels(k);
    for (size_t o = 0; o < k.outputs.size(); ++o) {
        const Output& out = k.outputs[o];
        std::string who = "output " + std::to_string(o);
        check_view_rank(out.view, who);
        if (out.node < 0 || size_t(out.node) >= k.nodes.size()) invalid(k, who + " names no node");
        if (level[size_t(out.node)] != 0)
            invalid(k, who + " stores " + node_name(k, out.node) + ", which varies over the reduce axes (reduce it)");
        if (k.nodes[size_t(out.node)].dtype != out.dtype)
            invalid(k,
                    who + " dtype " + std::string(dtype_name(out.dtype)) + " differs from " + node_name(k, out.node));
        if (out.view.shape() != gshape)
            invalid(k,
                    who + " view shape " + shape_string(out.view.shape()) + " differs from the global shape " +
                        shape_string(gshape));
        const ViewLayer& l = out.view.layers[0];
        if (out.view.layers.size() != 1 || l.has_mask())
            invalid(k, who + " view must be one unmasked layer, got " + view_string(out.view));
        check_view_reach(out.view, who);
        // No two indices may write one element: sorted by |stride|, each stride must step over
        // everything the smaller ones can reach.
        std::vector<std::pair<int64_t, int64_t>> axes;  // (|stride|, size)
        bool empty = false;
        for (size_t d = 0; d < l.shape.size(); ++d) {
            if (l.shape[d] == 0) empty = true;
            if (l.shape[d] > 1) axes.push_back({l.strides[d] < 0 ? -l.strides[d] : l.strides[d], l.shape[d]});
        }
        std::sort(axes.begin(), axes.end());
        int64_t reach = 0;
        for (auto [st, sz] : axes) {
            if (!empty && st <= reach)
                invalid(k, who + " view " + view_string(out.view) + " writes some elements twice");
            reach += st * (sz - 1);
        }
    }
}

// ---- hashing and printing ------------------------------------------------------------------------

namespace {
struct Hasher {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    void add(uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    void add_vec(const std::vector<int64_t>& v) {
        add(v.size());
        for (int64_t x : v) add(uint64_t(x));
    }
    void add_view(const View& v) {
        add(v.layers.size());
        for (const ViewLayer& l : v.layers) {
            add_vec(l.shape);
            add_vec(l.strides);
            add(uint64_t(l.offset));
            add_vec(l.mask_begin);
            add_vec(l.mask_end);
        }
    }
};
}  // namespace

uint64_t kernel_hash(const Kernel& k) {
    Hasher h;
    h.add_vec(k.shape);
    h.add(k.reduce_axes);
    h.add(k.inputs.size());
    for (const Input& in : k.inputs) {
        h.add(uint64_t(in.dtype));
        h.add_view(in.view);
        h.add(in.pad_value);
        h.add(uint64_t(in.storage.tiled));
        if (in.storage.tiled) {
            h.add(uint64_t(in.storage.rows));
            h.add(uint64_t(in.storage.cols));
            h.add(uint64_t(in.storage.zero_padding));
        }
    }
    h.add(k.scalars.size());
    for (DType t : k.scalars) h.add(uint64_t(t));
    h.add(k.nodes.size());
    for (const Node& n : k.nodes) {
        h.add(uint64_t(n.op) | uint64_t(n.dtype) << 8 | uint64_t(n.arg) << 32);
        h.add(uint64_t(uint32_t(n.src[0])) | uint64_t(uint32_t(n.src[1])) << 32);
        h.add(uint64_t(uint32_t(n.src[2])));
        h.add(n.value);
    }
    h.add(k.outputs.size());
    for (const Output& o : k.outputs) {
        h.add(uint64_t(o.dtype) | uint64_t(uint32_t(o.node)) << 8);
        h.add_view(o.view);
    }
    return h.h;
}

std::string kernel_string(const Kernel& k) {
    std::ostringstream os;
    os << "kernel " << shape_string(k.global_shape());
    if (k.reduce_axes) {
        std::vector<int64_t> r(k.shape.begin() + std::ptrdiff_t(k.global_rank()), k.shape.end());
        os << " reduce " << shape_string(r);
    }
    os << "\n";
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        const Input& in = k.inputs[i];
        os << "  in" << i << ": " << dtype_name(in.dtype) << " " << view_string(in.view);
        if (in.storage.tiled)
            os << " tiled " << in.storage.rows << "x" << in.storage.cols
               << (in.storage.zero_padding ? " zero-padded" : "");
        os << "\n";
    }
    for (size_t i = 0; i < k.scalars.size(); ++i) os << "  s" << i << ": " << dtype_name(k.scalars[i]) << "\n";
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        const Node& n = k.nodes[i];
        os << "  %" << i << " = " << op_name(n.op) << "." << dtype_name(n.dtype);
        for (int s = 0; s < op_arity(n.op); ++s) os << " %" << n.src[s];
        if (n.op == Op::load) os << " in" << n.arg;
        if (n.op == Op::scalar) os << " s" << n.arg;
        if (n.op == Op::index) os << " axis " << n.arg;
        if (n.op == Op::constant) os << " " << double_from_bits(n.dtype, n.value);
        os << "\n";
    }
    for (size_t i = 0; i < k.outputs.size(); ++i)
        os << "  out" << i << " = %" << k.outputs[i].node << ": " << dtype_name(k.outputs[i].dtype) << " "
           << view_string(k.outputs[i].view) << "\n";
    return os.str();
}

}  // namespace zyx::kernel
