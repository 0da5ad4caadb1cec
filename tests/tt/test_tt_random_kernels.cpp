// Seeded random kernels on the emulated chip: random index spaces (sizes around and across tile
// edges, size-1 axes), inputs read through random views of buffers of random shapes (permutes,
// broadcasts, steps, flips, pads, slices, reshapes that push a layer), random expression trees
// over the ops and dtypes the Tenstorrent code generator takes (f32, bf16, bool; integer index
// arithmetic), random reductions over any axes with epilogues, and matmul-shaped kernels; and in
// a second test, i32 kernels (Int32 words in DST: wrap-around, division by zero, shifts past
// the width, saturating casts from floats) that must agree exactly. Each
// runs through TTDevice (generated program, tiled buffers) and through the reference
// interpreter; every output must agree within the tolerance of its dtype, sums within the
// rounding their terms allow. A kernel the generator refuses is a failure here (the generator
// draws only from what the generator documents it supports).
//
// Seed 1 runs 120 kernels by default; ZYX_TT_RANDOM_KERNELS=<n> runs n, ZYX_TT_RANDOM_SEED=<s>
// another seed, ZYX_TT_RANDOM_FIRST=<i> starts at kernel i (kernel i is the same whatever runs
// before it), ZYX_TT_RANDOM_TRACE=1 prints each kernel before it runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>

#include "backend/tenstorrent/device.hpp"
#include "backend/tenstorrent/device_lock.hpp"
#include "backend/tenstorrent/memory_pool.hpp"
#include "kernel/interpreter.hpp"
#include "kernel/kernel.hpp"

namespace {

using namespace zyx;
using namespace zyx::kernel;

uint64_t env_or(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// A kernel and the tensors behind its inputs: each input's buffer is a tensor of `shape` (what
// the device tiles), read through the input's view.
struct Case {
    Kernel k;
    std::vector<std::vector<int64_t>> shapes;  // per input: its buffer tensor's shape
    std::vector<std::vector<uint8_t>> data;    // per input: row-major bytes of that tensor
    std::vector<uint64_t> scalars;
};

struct Gen {
    std::mt19937_64 rng;
    Case c;
    bool ints = false;  // i32 expressions too (the integer test)
    // Float expressions of correctly rounded ops only (no transcendental functions, whose last
    // bit may differ from the interpreter's): they feed integer casts and comparisons, where a
    // one-ulp difference would change an exactly compared result.
    bool exact = false;
    explicit Gen(uint64_t seed) : rng(seed) {}

    int64_t uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }
    bool chance(int percent) { return uniform(0, 99) < percent; }
    DType fdtype() { return chance(50) ? DType::f32 : DType::bf16; }

    uint64_t random_value(DType t) {
        if (t == DType::bool_) return rng() & 1;
        if (t == DType::i32) {  // small values, the edges, and any word
            static const int64_t edges[] = {0, 1, -1, 31, 32, 33, INT32_MAX, INT32_MIN, INT32_MIN + 1, 65536};
            int p = int(uniform(0, 99));
            int64_t v = p < 60 ? uniform(-40, 40) : p < 80 ? edges[uniform(0, 9)] : int64_t(int32_t(uint32_t(rng())));
            return uint64_t(v) & 0xffffffffu;
        }
        int p = int(uniform(0, 999));
        double v = std::uniform_real_distribution<double>(-2, 2)(rng);
        if (p < 4)
            v = NAN;
        else if (p < 8)
            v = p < 6 ? INFINITY : -INFINITY;
        else if (p < 20)
            v = double(uniform(-3, 3));
        return bits_from_double(t, v);
    }

    // A view of shape `s` over a new input buffer of dtype t, laid out in a random axis order,
    // with broadcast axes, steps, flips, a pad and a reshape now and then.
    int input(DType t, const std::vector<int64_t>& s) {
        size_t r = s.size();
        std::vector<int64_t> base(s), steps(r, 1);
        std::vector<bool> bcast(r, false);
        for (size_t d = 0; d < r; ++d) {
            if (s[d] > 1 && chance(15)) {
                bcast[d] = true;
                base[d] = 1;
            } else if (s[d] > 1 && chance(10)) {
                steps[d] = uniform(2, 3);
                base[d] = s[d] * steps[d];
            }
        }
        std::vector<int> perm(r);
        std::iota(perm.begin(), perm.end(), 0);
        if (chance(35)) std::shuffle(perm.begin(), perm.end(), rng);
        std::vector<int64_t> laid(r);
        for (size_t d = 0; d < r; ++d) laid[d] = base[size_t(perm[d])];
        // Sometimes the buffer is a bigger tensor and this a slice of it (tile-aligned or not).
        std::vector<int64_t> begin(r, 0), full = laid;
        for (size_t d = 0; d < r; ++d)
            if (chance(12)) {
                int64_t extra = chance(50) ? 32 : uniform(1, 5);
                begin[d] = chance(50) ? 0 : extra;
                full[d] += extra;
            }
        std::vector<int> inv(r);
        for (size_t d = 0; d < r; ++d) inv[size_t(perm[d])] = int(d);
        std::vector<int64_t> end(r);
        for (size_t d = 0; d < r; ++d) end[d] = begin[d] + laid[d];
        View v = View::contiguous(full).shrink(begin, end).permute(inv);
        if (std::any_of(steps.begin(), steps.end(), [](int64_t x) { return x > 1; })) v = v.stride(steps);
        std::vector<int> flips;
        for (size_t d = 0; d < r; ++d)
            if (chance(8)) flips.push_back(int(d));
        v = v.flip(flips);
        if (std::any_of(bcast.begin(), bcast.end(), [](bool b) { return b; })) v = v.expand(s);
        if (r > 0 && chance(10)) {  // pad one axis, then slice a window of the original size
            size_t d = size_t(uniform(0, int64_t(r) - 1));
            std::vector<int64_t> before(r, 0), after(r, 0), b(r, 0), e(v.shape());
            before[d] = uniform(0, 3);
            after[d] = uniform(0, 3);
            v = v.pad(before, after);
            b[d] = uniform(0, before[d] + after[d]);
            e[d] = b[d] + s[d];
            v = v.shrink(b, e);
        }
        if (chance(10) && v.numel() > 0) v = v.reshape({v.numel()}).reshape(s);  // may push a layer
        int id =
            c.k.add_input(t, v, random_value(t),
                          Storage{true, full.size() >= 2 ? full[full.size() - 2] : 1, full.empty() ? 1 : full.back()});
        c.shapes.push_back(full);
        int64_t n = 1;
        for (int64_t x : full) n *= x;
        std::vector<uint8_t> bytes(size_t(n) * dtype_size(t));
        for (int64_t i = 0; i < n; ++i) {
            uint64_t b = random_value(t);
            std::memcpy(bytes.data() + size_t(i) * dtype_size(t), &b, dtype_size(t));
        }
        c.data.push_back(std::move(bytes));
        return id;
    }

    int leaf(DType t, bool full) {
        int64_t p = uniform(0, 99);
        std::vector<int64_t> s = full ? c.k.shape : c.k.global_shape();
        if (p < 70 || t == DType::bool_) return c.k.load(input(t, s));
        const bool i = t == DType::i32;
        if (p < 82) return c.k.constant(t, i ? double(uniform(-7, 7)) : double(uniform(-4, 4)) / 2);
        if (p < 90) {
            int sc = c.k.add_scalar(t);
            c.scalars.push_back(i ? random_value(t) : bits_from_double(t, double(uniform(-6, 6)) / 4));
            return c.k.scalar(sc);
        }
        size_t axes = full ? c.k.shape.size() : c.k.global_rank();
        if (axes == 0) return c.k.constant(t, i ? 3 : 0.5);
        int idx = c.k.index(int(uniform(0, int64_t(axes) - 1)), DType::i32);  // an arange
        return i ? idx : c.k.cast(idx, t);
    }

    int int_expr(int depth, bool full) {
        const DType t = DType::i32;
        if (depth <= 0 || chance(20)) return leaf(t, full);
        int64_t kind = uniform(0, 99);
        if (kind < 25) {
            const Op un[] = {Op::neg, Op::abs, Op::relu, Op::sign, Op::bit_not, Op::floor};
            return c.k.unary(un[uniform(0, 5)], int_expr(depth - 1, full));
        }
        if (kind < 70) {
            const Op bin[] = {Op::add, Op::sub,     Op::mul,    Op::div,     Op::mod, Op::max,
                              Op::min, Op::bit_and, Op::bit_or, Op::bit_xor, Op::shl, Op::shr};
            return c.k.binary(bin[uniform(0, 11)], int_expr(depth - 1, full), int_expr(depth - 1, full));
        }
        if (kind < 76) return c.k.binary(Op::pow, int_expr(depth - 1, full), c.k.constant(t, double(uniform(0, 12))));
        if (kind < 88)
            return c.k.where(expr(DType::bool_, depth - 1, full), int_expr(depth - 1, full), int_expr(depth - 1, full));
        return c.k.cast(exact_expr(chance(70) ? fdtype() : DType::bool_, depth - 1, full), t);
    }

    int exact_expr(DType t, int depth, bool full) {
        const bool was = exact;
        exact = true;
        int e = expr(t, depth, full);
        exact = was;
        return e;
    }

    int expr(DType t, int depth, bool full) {
        if (t == DType::i32) return int_expr(depth, full);
        if (depth <= 0 || chance(20)) return leaf(t, full);
        int64_t kind = uniform(0, 99);
        if (t == DType::bool_) {
            DType f = ints && chance(50) ? DType::i32 : fdtype();
            const Op preds[] = {Op::cmp_lt, Op::cmp_le, Op::cmp_gt, Op::cmp_ge, Op::cmp_eq, Op::cmp_ne};
            if (kind < 70) {
                if (!ints) return c.k.binary(preds[uniform(0, 5)], expr(f, depth - 1, full), expr(f, depth - 1, full));
                return c.k.binary(preds[uniform(0, 5)], exact_expr(f, depth - 1, full), exact_expr(f, depth - 1, full));
            }
            const Op logic[] = {Op::logical_and, Op::logical_or, Op::logical_xor};
            if (kind < 90) {
                DType o = chance(50) ? DType::bool_ : f;  // logical ops read any dtype, the same for both
                return c.k.binary(logic[uniform(0, 2)], expr(o, depth - 1, full), expr(o, depth - 1, full));
            }
            return c.k.unary(Op::logical_not, expr(f, depth - 1, full));
        }
        if (exact && kind < 75) {
            const Op un[] = {Op::neg, Op::abs, Op::relu, Op::floor, Op::ceil, Op::round, Op::sign};
            const Op bin[] = {Op::add, Op::sub, Op::mul, Op::max, Op::min};
            if (kind < 35) return c.k.unary(un[uniform(0, 6)], expr(t, depth - 1, full));
            return c.k.binary(bin[uniform(0, 4)], expr(t, depth - 1, full), expr(t, depth - 1, full));
        }
        if (kind < 35) {
            const Op un[] = {Op::neg,   Op::exp,     Op::log,   Op::sqrt,  Op::sin,   Op::cos,
                             Op::tanh,  Op::sigmoid, Op::relu,  Op::abs,   Op::floor, Op::ceil,
                             Op::round, Op::sign,    Op::recip, Op::rsqrt, Op::exp2,  Op::log2};
            return c.k.unary(un[uniform(0, 17)], expr(t, depth - 1, full));
        }
        if (kind < 75) {
            const Op bin[] = {Op::add, Op::sub, Op::mul, Op::div, Op::max, Op::min, Op::add, Op::mul, Op::mod, Op::pow};
            return c.k.binary(bin[uniform(0, 9)], expr(t, depth - 1, full), expr(t, depth - 1, full));
        }
        if (kind < 88)
            return c.k.where(expr(DType::bool_, depth - 1, full), expr(t, depth - 1, full), expr(t, depth - 1, full));
        return c.k.cast(expr(ints && chance(50) ? DType::i32
                                 : chance(70)   ? fdtype()
                                                : DType::bool_,
                             depth - 1, full),
                        t);
    }

    // out[..., m, n] = epilogue(Σ_k A[..., m, k] · B[..., k, n]), A and B in one float dtype.
    void matmul() {
        static const int64_t sizes[] = {1, 5, 31, 32, 33, 40, 64, 70};
        int64_t M = sizes[uniform(0, 7)], N = sizes[uniform(0, 7)], K = sizes[uniform(0, 7)];
        std::vector<int64_t> batch;
        if (chance(30)) batch.push_back(uniform(1, 3));
        DType t = fdtype();
        Kernel& k = c.k;
        k.shape = batch;
        k.shape.insert(k.shape.end(), {M, N, K});
        k.reduce_axes = 1;
        std::vector<int64_t> as = batch, bs = batch, gs = batch;
        as.insert(as.end(), {M, K});
        bs.insert(bs.end(), {N, K});  // B read through (n, k)
        gs.insert(gs.end(), {M, N});
        size_t nb = batch.size();
        // A [.., M, K] or stored transposed; B [.., K, N] or stored [.., N, K] (x @ w.T).
        auto operand = [&](std::vector<int64_t> s, bool is_b) {
            bool trans = chance(40);
            std::vector<int64_t> laid = s;
            if (trans != is_b) std::swap(laid[nb], laid[nb + 1]);
            View v = View::contiguous(laid);
            if (trans != is_b) {
                std::vector<int> p(laid.size());
                std::iota(p.begin(), p.end(), 0);
                std::swap(p[nb], p[nb + 1]);
                v = v.permute(p);
            }
            std::vector<int64_t> sh = s;  // [.., rows, K] → [.., rows, 1, K] or [.., 1, rows, K]
            sh.insert(sh.begin() + long(nb) + (is_b ? 0 : 1), 1);
            v = v.reshape(sh).expand(k.shape);
            int id = k.add_input(t, v, 0, Storage{true, laid[nb], laid[nb + 1]});
            c.shapes.push_back(laid);
            int64_t n = 1;
            for (int64_t x : laid) n *= x;
            std::vector<uint8_t> bytes(size_t(n) * dtype_size(t));
            for (int64_t i = 0; i < n; ++i) {
                uint64_t b = bits_from_double(t, std::uniform_real_distribution<double>(-2, 2)(rng));
                std::memcpy(bytes.data() + size_t(i) * dtype_size(t), &b, dtype_size(t));
            }
            c.data.push_back(std::move(bytes));
            return k.load(id);
        };
        int a = operand(as, false), b = operand(bs, true);
        int sum = k.reduce(Op::reduce_sum, k.binary(Op::mul, a, b));
        int out = sum;
        if (chance(50)) out = k.unary(Op::relu, k.binary(Op::add, sum, leaf(t, false)));
        k.add_output(t, View::contiguous(gs), out);
    }

    Case make() {
        if (!ints && chance(12)) {
            matmul();
            return c;
        }
        static const int64_t sizes[] = {1, 2, 3, 5, 8, 31, 32, 33, 40, 64, 70};
        size_t g = size_t(uniform(0, 3)), r = chance(45) ? size_t(uniform(1, 2)) : 0;
        int64_t numel = 1;
        for (size_t d = 0; d < g + r; ++d) {
            int64_t s = sizes[uniform(0, 10)];
            if (numel * s > 8192) s = 1;
            numel *= s;
            c.k.shape.push_back(s);
        }
        c.k.reduce_axes = uint32_t(r);
        DType t = ints && chance(70) ? DType::i32 : fdtype();
        int node;
        if (r > 0) {
            const Op rops[] = {Op::reduce_sum, Op::reduce_max, Op::reduce_min, Op::reduce_sum, Op::reduce_prod};
            Op rop = rops[uniform(0, 4)];
            // Products of many terms overflow: a prod multiplies values near 1.
            int operand = rop == Op::reduce_prod && t != DType::i32
                ? c.k.binary(Op::add, c.k.constant(t, 1.0),
                             c.k.binary(Op::mul, c.k.constant(t, 0.01), expr(t, 1, true)))
                : expr(t, int(uniform(0, 2)), true);
            node = c.k.reduce(rop, operand);
            if (chance(50)) node = c.k.binary(chance(50) ? Op::add : Op::mul, node, expr(t, 1, false));
        } else {
            node = expr(chance(15) ? DType::bool_ : t, int(uniform(1, 3)), false);
        }
        c.k.add_output(c.k.nodes[size_t(node)].dtype, View::contiguous(c.k.global_shape()), node);
        return c;
    }
};

// Σ|terms| of every reduce_sum output element: the same kernel with |operand| summed and no
// epilogue (run on the interpreter in f64).
std::vector<double> abs_sums(const Case& cs) {
    const Kernel& k = cs.k;
    int red = -1;
    for (size_t i = 0; i < k.nodes.size(); ++i)
        if (k.nodes[i].op == Op::reduce_sum) red = int(i);
    if (red < 0) return {};
    Kernel a = k;
    a.outputs.clear();
    Node abs_node{Op::abs, k.nodes[size_t(red)].dtype, {k.nodes[size_t(red)].src[0], -1, -1}, 0, 0};
    int ab = a.push(abs_node);
    int cast = a.cast(ab, DType::f64);
    int s = a.reduce(Op::reduce_sum, cast);
    a.add_output(DType::f64, View::contiguous(k.global_shape()), s);
    std::vector<std::vector<uint8_t>> bufs = cs.data;
    size_t n = size_t(std::max<int64_t>(1, k.global_numel()));
    bufs.push_back(std::vector<uint8_t>(n * 8));
    std::vector<BufferRef> refs;
    for (auto& b : bufs) refs.push_back({b.data(), b.size()});
    interpret(a, refs, cs.scalars);
    std::vector<double> out(n);
    std::memcpy(out.data(), bufs.back().data(), n * 8);
    return out;
}

class TtRandom : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        char tmpl[] = "/tmp/zyx-tt-random-XXXXXX";
        lock_dir_ = mkdtemp(tmpl);
        tt::OpenOptions o;
        o.lock_dir = lock_dir_;
        tt::Config cfg;  // the emulator target whatever config.json says
        cfg.target = "emulator";
        o.config = cfg;
        dev_ = tt::TTDevice::open(o).release();
    }
    static void TearDownTestSuite() {
        delete dev_;
        std::error_code ec;
        std::filesystem::remove_all(lock_dir_, ec);
    }
    static tt::TTDevice* dev_;
    static std::string lock_dir_;
};
tt::TTDevice* TtRandom::dev_ = nullptr;
std::string TtRandom::lock_dir_;

// "" or what differs: output element i within tol(dtype) · (|want| + Σ|terms|).
std::string compare(const Case& cs, const std::vector<uint8_t>& want, const std::vector<uint8_t>& got) {
    DType t = cs.k.outputs[0].dtype;
    size_t sz = dtype_size(t), n = want.size() / sz;
    std::vector<double> sums = abs_sums(cs);
    double rtol = t == DType::bf16 ? 1.6e-2 : 2e-5;
    for (size_t i = 0; i < n; ++i) {
        uint64_t wb = 0, gb = 0;
        std::memcpy(&wb, want.data() + i * sz, sz);
        std::memcpy(&gb, got.data() + i * sz, sz);
        if (t == DType::bool_) {
            if ((wb != 0) != (gb != 0))
                return "element " + std::to_string(i) + ": want " + std::to_string(wb) + ", got " + std::to_string(gb);
            continue;
        }
        if (dtype_is_int(t)) {  // exact
            if (wb != gb)
                return "element " + std::to_string(i) + ": want " + std::to_string(int64_t(double_from_bits(t, wb))) +
                    ", got " + std::to_string(int64_t(double_from_bits(t, gb)));
            continue;
        }
        double w = double_from_bits(t, wb), g = double_from_bits(t, gb);
        if (std::isnan(w) && std::isnan(g)) continue;
        if (std::isinf(w) && g == w) continue;
        double scale = std::fabs(w) + (sums.empty() ? 0 : sums[i]) + 1e-3;
        if (std::isfinite(w) && std::isfinite(g) && std::fabs(g - w) <= rtol * scale) continue;
        char buf[160];
        std::snprintf(buf, sizeof buf, "element %zu: want %.9g, got %.9g (tolerance %.3g)", i, w, g, rtol * scale);
        return buf;
    }
    return "";
}

// Runs `count` kernels of the seed (ints: the integer generator) on the chip and the interpreter.
void run_random(tt::TTDevice* dev_, bool ints, uint64_t default_count) {
    const uint64_t seed = env_or("ZYX_TT_RANDOM_SEED", 1), count = env_or("ZYX_TT_RANDOM_KERNELS", default_count),
                   first = env_or("ZYX_TT_RANDOM_FIRST", 0);
    const bool trace = env_or("ZYX_TT_RANDOM_TRACE", 0) != 0;
    tt::TTMemoryPool& pool = dev_->tt_pool();
    int failures = 0;
    for (uint64_t i = first; i < first + count && failures < 5; ++i) {
        Gen g(seed * 1000003 + i + (ints ? 500000 : 0));
        g.ints = ints;
        Case cs = g.make();
        const Kernel& k = cs.k;
        validate(k);
        std::string where = std::string(ints ? "integer " : "") + "seed " + std::to_string(seed) + " kernel " +
            std::to_string(i) + ":\n" + kernel_string(k);
        if (trace) std::printf("%s", where.c_str());
        std::string why;
        if (!dev_->supports(k, &why)) {
            ADD_FAILURE() << "refused (" << why << ") " << where;
            ++failures;
            continue;
        }
        // The reference: the interpreter over the row-major tensors.
        std::vector<std::vector<uint8_t>> bufs = cs.data;
        size_t n = size_t(k.global_numel());
        DType ot = k.outputs[0].dtype;
        bufs.push_back(std::vector<uint8_t>(n * dtype_size(ot) + 1, 0));
        std::vector<BufferRef> refs;
        for (auto& b : bufs) refs.push_back({b.data(), b.size()});
        interpret(k, refs, cs.scalars);
        // The chip: tiled buffers, the generated program.
        std::vector<backend::BufferId> ids;
        for (size_t b = 0; b < cs.data.size(); ++b) {
            ids.push_back(pool.allocate_tensor(k.inputs[b].dtype, cs.shapes[b]));
            pool.write_tensor(cs.data[b].data(), k.inputs[b].dtype, cs.shapes[b], ids.back(), {});
        }
        ids.push_back(pool.allocate_tensor(ot, k.global_shape()));
        std::vector<backend::Scalar> scalars;
        for (size_t s = 0; s < cs.scalars.size(); ++s) scalars.push_back({k.scalars[s], cs.scalars[s]});
        std::vector<uint8_t> got(n * dtype_size(ot) + 1, 0);
        try {
            backend::ProgramId p = dev_->compile(k);
            dev_->launch(p, ids, scalars, {});
            pool.read_tensor(ids.back(), ot, k.global_shape(), got.data(), {});
            dev_->release(p);
        } catch (const std::exception& e) {
            ADD_FAILURE() << e.what() << "\n" << where;
            ++failures;
        }
        for (backend::BufferId id : ids) pool.release(id);
        std::string diff = compare(cs, bufs.back(), got);
        if (!diff.empty()) {
            ADD_FAILURE() << diff << "\n" << where;
            ++failures;
        }
    }
}

TEST_F(TtRandom, GeneratedProgramsAgreeWithTheInterpreter) { run_random(dev_, false, 120); }
TEST_F(TtRandom, IntegerProgramsAgreeExactly) { run_random(dev_, true, 60); }

}  // namespace
