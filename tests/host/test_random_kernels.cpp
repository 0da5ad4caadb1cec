// Seeded random kernels: random index spaces (size-1 and empty axes included), random views
// (permute, expand, pad, shrink, flip, stride, reshape that pushes a layer), random op trees in
// every dtype, random reduces with epilogues, random output views, and matmul-shaped kernels
// (transposed, windowed, batch-broadcast operands; bias/relu/scale epilogues) that take BLAS.
// The host backend must agree with the reference interpreter: bit-exact for integers and bool,
// within the tolerance of host_test_util.hpp for floats. Kernels are compiled in a few batches to keep the suite fast.
//
// By default seeds 1 and 2 run, 480 kernels each. ZYX_RANDOM_KERNELS=<n> runs n kernels per seed;
// ZYX_RANDOM_SEED=<s> runs seed s only; RandomKernels.LargeShapes runs ZYX_RANDOM_LARGE=<n>
// (default 192) kernels with bigger index spaces;
// ZYX_RANDOM_FIRST=<i> starts at kernel i (kernel i of a seed is the same whatever runs before it);
// ZYX_RANDOM_TRACE=1 prints each kernel number before it runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "host_test_util.hpp"
#include "random_data.hpp"

using namespace zyx;
using namespace zyx::kernel;
using namespace zyx::backend;
using namespace zyx::backend::host;
using namespace zyx::host_test;

namespace {

const DType kAll[] = {DType::f64, DType::f32, DType::f16, DType::bf16, DType::i8,  DType::i16,  DType::i32,
                      DType::i64, DType::u8,  DType::u16, DType::u32,  DType::u64, DType::bool_};

struct Generator {
    std::mt19937_64 rng;
    Kernel k;
    std::vector<std::vector<uint8_t>> inputs;
    std::vector<uint64_t> scalars;

    // large: index spaces up to 256K elements with axes of up to 1000 (thread-parallel loops,
    // 32-lane sums, thread-split reduces, BLAS); otherwise up to 4096 elements, axes up to 31.
    bool large = false;

    uint64_t seed = 0;

    explicit Generator(uint64_t kernel_seed, bool large_shapes = false)
        : rng(kernel_seed), large(large_shapes), seed(kernel_seed) {}

    int64_t uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }
    bool chance(int percent) { return uniform(0, 99) < percent; }
    DType any_dtype() { return kAll[size_t(uniform(0, 12))]; }

    // A random view of shape `s` over a fresh buffer (whose size the view decides).
    View random_view(const std::vector<int64_t>& s) {
        size_t r = s.size();
        std::vector<int64_t> base(s);
        std::vector<bool> expanded(r, false), strided(r, false);
        std::vector<int64_t> steps(r, 1);
        for (size_t d = 0; d < r; ++d) {
            if (s[d] > 1 && chance(20)) {
                expanded[d] = true;
                base[d] = 1;
            } else if (s[d] > 0 && chance(15)) {
                strided[d] = true;
                steps[d] = uniform(2, 3);
                base[d] = s[d] * steps[d];
            }
        }
        // Laid out in a random axis order, then permuted back.
        std::vector<int> perm(r);
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        std::vector<int64_t> laid(r);
        for (size_t d = 0; d < r; ++d) laid[d] = base[size_t(perm[d])];
        std::vector<int> inv(r);
        for (size_t d = 0; d < r; ++d) inv[size_t(perm[d])] = int(d);
        View v = View::contiguous(laid).permute(inv);
        if (chance(30))
            v = v.stride(steps);
        else if (std::any_of(strided.begin(), strided.end(), [](bool b) { return b; })) {
            std::vector<int64_t> zero(r, 0);
            v = v.shrink(
                zero, s.empty() ? zero : [&] {
                    std::vector<int64_t> e(base);
                    for (size_t d = 0; d < r; ++d)
                        if (strided[d]) e[d] = s[d];
                    return e;
                }());
        }
        std::vector<int> flips;
        for (size_t d = 0; d < r; ++d)
            if (chance(20)) flips.push_back(int(d));
        v = v.flip(flips);
        if (std::any_of(expanded.begin(), expanded.end(), [](bool b) { return b; })) {
            std::vector<int64_t> to(v.shape());
            for (size_t d = 0; d < r; ++d)
                if (expanded[d]) to[d] = s[d];
            v = v.expand(to);
        }
        if (r > 0 && chance(30)) {  // pad one axis, then slice a window of the original size
            size_t d = size_t(uniform(0, int64_t(r) - 1));
            std::vector<int64_t> before(r, 0), after(r, 0), b(r, 0), e(v.shape());
            before[d] = uniform(0, 3);
            after[d] = uniform(0, 3);
            v = v.pad(before, after);
            b[d] = uniform(0, before[d] + after[d]);
            e[d] = b[d] + s[d];
            v = v.shrink(b, e);
        }
        if (chance(25) && v.numel() > 0) {  // merge and split again: may push a second layer
            v = v.reshape({v.numel()}).reshape(s);
        }
        if (v.shape() != s) v = v.reshape(s);  // same element count by construction
        return v;
    }

    int add_input(DType t, bool full_rank) {
        std::vector<int64_t> s = full_rank ? k.shape : k.global_shape();
        return add_input_view(t, random_view(s));
    }

    // An input read through `v`, over a fresh buffer of random values as big as `v` reaches.
    int add_input_view(DType t, const View& v) {
        int id = k.add_input(t, v, random_bits(t, rng));
        int64_t lo = 0, hi = -1;
        size_t elements = v.offset_range(&lo, &hi) ? size_t(hi + 1) : 0;
        inputs.push_back(random_buffer(t, elements, rng));
        return id;
    }

    // View of a [batch…, rows, cols] matrix for a matmul operand: laid out row- or column-major
    // (a transpose), maybe with a wider leading dimension (a window of a bigger matrix), maybe
    // one matrix for every batch (stride 0); now and then flipped or padded, which BLAS cannot
    // take (the loop nest does it).
    View matrix_view(const std::vector<int64_t>& batch, int64_t rows, int64_t cols) {
        bool col_major = chance(50), shared = !batch.empty() && chance(30);
        int64_t extra = chance(30) ? uniform(1, 5) : 0;
        std::vector<int64_t> laid = shared ? std::vector<int64_t>(batch.size(), 1) : batch;
        laid.push_back(col_major ? cols : rows);
        laid.push_back((col_major ? rows : cols) + extra);
        View v = View::contiguous(laid);
        if (extra) {
            std::vector<int64_t> b(laid.size(), 0), e = laid;
            b.back() = uniform(0, extra);
            e.back() = b.back() + laid.back() - extra;
            v = v.shrink(b, e);
        }
        size_t r = laid.size();
        if (col_major) {
            std::vector<int> perm(r);
            std::iota(perm.begin(), perm.end(), 0);
            std::swap(perm[r - 1], perm[r - 2]);
            v = v.permute(perm);
        }
        if (shared) {
            std::vector<int64_t> to = batch;
            to.push_back(rows);
            to.push_back(cols);
            v = v.expand(to);
        }
        int64_t odd = uniform(0, 99);
        if (odd < 8) {
            v = v.flip({int(r) - 1});
        } else if (odd < 14 && rows > 1) {
            std::vector<int64_t> before(r, 0), after(r, 0), b(r, 0), e = v.shape();
            before[r - 2] = 1;
            v = v.pad(before, after).shrink(b, e);  // row 0 is padding, the last row is dropped
        }
        return v;
    }

    // A matmul-shaped kernel: out[batch…, m, n] = epilogue(Σ_k A[batch…, m, k] · B[batch…, k, n]),
    // in f32/f64 mostly (the BLAS path), sometimes f16 or i32 (the loop nest).
    Case make_matmul() {
        static const int64_t small_sizes[] = {1, 2, 3, 5, 8, 13, 31, 33};
        static const int64_t large_sizes[] = {1, 3, 16, 33, 64, 100, 129, 257};
        auto size = [&] { return large ? large_sizes[uniform(0, 7)] : small_sizes[uniform(0, 7)]; };
        int64_t cap = large ? 1 << 18 : 4096;
        std::vector<int64_t> batch;
        for (int64_t b = uniform(0, 2); b > 0; --b) batch.push_back(uniform(1, 3));
        int64_t M = size(), N = size(), K = size(), nb = 1;
        for (int64_t b : batch) nb *= b;
        while (nb * M * N * K > cap) {
            if (K >= M && K >= N)
                K = std::max<int64_t>(1, K / 2);
            else if (M >= N)
                M = std::max<int64_t>(1, M / 2);
            else
                N = std::max<int64_t>(1, N / 2);
        }
        int64_t pick = uniform(0, 99);
        DType t = pick < 45 ? DType::f32 : pick < 85 ? DType::f64 : pick < 93 ? DType::f16 : DType::i32;
        k.shape = batch;
        k.shape.insert(k.shape.end(), {M, N, K});
        k.reduce_axes = 1;
        size_t nbatch = batch.size();
        std::vector<int64_t> a_shape = batch, b_shape = batch, gs = batch;
        a_shape.insert(a_shape.end(), {M, 1, K});
        b_shape.insert(b_shape.end(), {1, N, K});
        gs.insert(gs.end(), {M, N});
        std::vector<int> transpose(nbatch + 2);
        std::iota(transpose.begin(), transpose.end(), 0);
        std::swap(transpose[nbatch], transpose[nbatch + 1]);
        int a = k.load(add_input_view(t, matrix_view(batch, M, K).reshape(a_shape).expand(k.shape)));
        int b = k.load(add_input_view(t, matrix_view(batch, K, N).permute(transpose).reshape(b_shape).expand(k.shape)));
        int sum = k.reduce(Op::reduce_sum, chance(50) ? k.binary(Op::mul, a, b) : k.binary(Op::mul, b, a));
        int out = sum;
        int64_t epilogue = uniform(0, 4);
        if (epilogue == 1) {  // + bias[n], relu
            std::vector<int64_t> ones(gs.size() - 1, 1);
            ones.push_back(N);
            int bias = k.load(add_input_view(t, View::contiguous({N}).reshape(ones).expand(gs)));
            out = k.unary(Op::relu, k.binary(Op::add, sum, bias));
        } else if (epilogue == 2) {  // · a scalar
            int sc = k.add_scalar(t);
            scalars.push_back(random_bits(t, rng));
            out = k.binary(Op::mul, sum, k.scalar(sc));
        } else if (epilogue == 3) {
            out = k.binary(Op::mul, sum, sum);
        } else if (epilogue == 4) {
            out = k.unary(Op::neg, sum);
        }
        View ov = View::contiguous(gs);
        int64_t style = uniform(0, 2);
        if (style == 1) {
            ov = ov.flip({int(gs.size()) - 1});
        } else if (style == 2) {  // a window of a wider buffer
            std::vector<int64_t> big = gs, b0(gs.size(), 0);
            big.back() += 2;
            b0.back() = 1;
            std::vector<int64_t> e = b0;
            for (size_t d = 0; d < gs.size(); ++d) e[d] += gs[d];
            ov = View::contiguous(big).shrink(b0, e);
        }
        k.add_output(t, ov, out);
        if (chance(30))
            k.add_output(t, View::contiguous(gs), sum);  // the plain product as well
        else if (chance(20))
            k.add_output(DType::f16, View::contiguous(gs), k.cast(sum, DType::f16));
        return finish();
    }

    int leaf(DType t, bool level1) {
        int64_t pick = uniform(0, 99);
        if (pick < 60) return k.load(add_input(t, level1 && chance(75)));
        if (pick < 75) return k.constant_bits(t, random_bits(t, rng));
        if (pick < 85 || !dtype_is_int(t) || k.shape.empty()) {
            int s = k.add_scalar(t);
            scalars.push_back(random_bits(t, rng));
            return k.scalar(s);
        }
        size_t axes = level1 ? k.shape.size() : k.global_rank();
        if (axes == 0) return k.constant_bits(t, random_bits(t, rng));
        return k.index(int(uniform(0, int64_t(axes) - 1)), t);
    }

    // A random expression of dtype t; level1 allows values that vary over the reduce axes.
    int expr(DType t, int depth, bool level1) {
        if (depth <= 0 || chance(25)) return leaf(t, level1);
        int64_t kind = uniform(0, 99);
        if (kind < 30) {  // unary
            std::vector<Op> ops;
            for (int o = 0; o < kNumOps; ++o)
                if (op_is_unary(Op(o)) && Op(o) != Op::logical_not && op_accepts(Op(o), t)) ops.push_back(Op(o));
            if (!ops.empty())
                return k.unary(ops[size_t(uniform(0, int64_t(ops.size()) - 1))], expr(t, depth - 1, level1));
        }
        if (kind < 65 || t != DType::bool_) {
            if (kind < 75) {  // binary with result t
                std::vector<Op> ops;
                for (int o = 0; o < kNumOps; ++o) {
                    Op op = Op(o);
                    if (op_is_binary(op) && !op_gives_bool(op) && op_accepts(op, t)) ops.push_back(op);
                }
                if (!ops.empty()) {
                    Op op = ops[size_t(uniform(0, int64_t(ops.size()) - 1))];
                    return k.binary(op, expr(t, depth - 1, level1), expr(t, depth - 1, level1));
                }
            }
            if (kind < 85) {  // where
                int c = expr(DType::bool_, depth - 1, level1);
                return k.where(c, expr(t, depth - 1, level1), expr(t, depth - 1, level1));
            }
            if (kind < 95 || t == DType::bool_) return k.cast(expr(any_dtype(), depth - 1, level1), t);
            std::vector<DType> same;  // bitcast from a same-size dtype
            for (DType f : kAll)
                if (f != DType::bool_ && dtype_size(f) == dtype_size(t)) same.push_back(f);
            return k.bitcast(expr(same[size_t(uniform(0, int64_t(same.size()) - 1))], depth - 1, level1), t);
        }
        // bool from a comparison, logical op or logical_not of another dtype
        DType f = any_dtype();
        int64_t which = uniform(0, 9);
        if (which == 9) return k.unary(Op::logical_not, expr(f, depth - 1, level1));
        const Op preds[] = {Op::cmp_lt, Op::cmp_le,      Op::cmp_gt,     Op::cmp_ge,     Op::cmp_eq,
                            Op::cmp_ne, Op::logical_and, Op::logical_or, Op::logical_xor};
        return k.binary(preds[which], expr(f, depth - 1, level1), expr(f, depth - 1, level1));
    }

    Case make() {
        // A matmul-shaped kernel for 5 % (15 % of large ones), decided by a draw of its own so
        // that every other kernel of a seed is what it was before this branch existed.
        if (std::mt19937_64(seed ^ 0x6d61746d756cull)() % 100 < (large ? 15u : 5u)) return make_matmul();
        static const int64_t sizes[] = {0, 1, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 33, 64, 100, 257, 1000};
        size_t g = size_t(uniform(0, 3)), r = chance(55) ? size_t(uniform(1, 2)) : 0;
        int64_t numel = 1, cap = large ? 1 << 18 : 4096;
        for (size_t d = 0; d < g + r; ++d) {
            int64_t s = sizes[size_t(uniform(0, large ? 17 : 11))];
            if (s == 0 && !chance(20)) s = 3;  // empty axes, but not too often
            if (numel * std::max<int64_t>(s, 1) > cap) s = 1;
            numel *= std::max<int64_t>(s, 1);
            k.shape.push_back(s);
        }
        k.reduce_axes = uint32_t(r);
        size_t nout = size_t(uniform(1, 2));
        for (size_t o = 0; o < nout; ++o) {
            DType t = any_dtype();
            int node;
            if (r > 0 && chance(85)) {
                const Op rops[] = {Op::reduce_sum, Op::reduce_prod, Op::reduce_max, Op::reduce_min};
                Op rop = rops[size_t(uniform(0, 3))];
                DType rt = any_dtype();
                while (!op_accepts(rop, rt)) rt = any_dtype();
                int red = k.reduce(rop, expr(rt, int(uniform(0, 3)), true));
                node = red;
                if (chance(60)) {  // elementwise epilogue
                    int c = k.cast(red, t);
                    if (dtype_is_float(t) || dtype_is_int(t))
                        node = k.binary(chance(50) ? Op::add : Op::mul, c, expr(t, 1, false));
                    else
                        node = k.binary(Op::bit_xor, c, expr(t, 1, false));
                } else {
                    t = rt;
                }
            } else {
                node = expr(t, int(uniform(1, 4)), false);
            }
            // Output view: contiguous, permuted, flipped, or a window of a bigger buffer.
            std::vector<int64_t> gs = k.global_shape();
            View ov = View::contiguous(gs);
            int64_t style = uniform(0, 3);
            if (style == 1 && gs.size() > 1) {
                std::vector<int> perm(gs.size());
                std::iota(perm.begin(), perm.end(), 0);
                std::reverse(perm.begin(), perm.end());
                std::vector<int64_t> laid(gs.rbegin(), gs.rend());
                ov = View::contiguous(laid).permute(perm);
            } else if (style == 2 && !gs.empty()) {
                ov = ov.flip({0});
            } else if (style == 3 && !gs.empty()) {
                std::vector<int64_t> big(gs), b(gs.size(), 0);
                big.back() += 3;
                b.back() = 2;
                std::vector<int64_t> e(b);
                for (size_t d = 0; d < gs.size(); ++d) e[d] += gs[d];
                ov = View::contiguous(big).shrink(b, e);
            }
            k.add_output(k.nodes[size_t(node)].dtype, ov, node);
        }
        return finish();
    }

    // The case: the kernel, its input buffers, output buffers as big as their views reach
    // (filled with 0x5a), the scalars.
    Case finish() {
        Case c;
        c.kernel = k;
        c.buffers = inputs;
        for (const Output& o : k.outputs) {
            int64_t lo = 0, hi = -1;
            size_t elements = o.view.offset_range(&lo, &hi) ? size_t(hi + 1) : 0;
            c.buffers.push_back(std::vector<uint8_t>(elements * dtype_size(o.dtype) + 1, 0x5a));
        }
        c.scalars = scalars;
        return c;
    }
};

uint64_t env_or(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// Kernels start … count-1 of `seed` on the host and in the interpreter.
void check_random_kernels(uint64_t seed, uint64_t start, uint64_t count, bool large = false) {
    const size_t batch = 96;  // kernels per compiler run
    HostPool pool;
    HostDevice dev(pool);
    size_t failures = 0, with_reduce = 0, with_layers = 0, with_empty = 0, outputs = 0, unchecked = 0, with_threads = 0;
    size_t after_sum = 0, wrong_passed = 0;  // float outputs after a sum; zeroed/doubled ones that passed
    size_t with_blas = 0;                    // programs that call BLAS (matmul-shaped f32/f64 kernels)
    for (uint64_t first = start; first < count; first += batch) {
        std::vector<Case> cases;
        for (uint64_t i = first; i < std::min<uint64_t>(count, first + batch); ++i) {
            Generator g(seed * 1000003 + i, large);
            cases.push_back(g.make());
            ASSERT_NO_THROW(validate(cases.back().kernel)) << "generator bug, kernel " << i << "\n"
                                                           << kernel_string(cases.back().kernel);
        }
        std::vector<const Kernel*> kernels;
        for (const Case& c : cases) kernels.push_back(&c.kernel);
        std::vector<ProgramId> ids = dev.compile_batch(kernels);
        for (size_t i = 0; i < cases.size(); ++i) {
            const Case& c = cases[i];
            with_reduce += c.kernel.reduce_axes > 0;
            with_blas += dev.program_uses_blas(ids[i]);
            with_empty += c.kernel.global_numel() == 0 || c.kernel.reduce_numel() == 0;
            with_threads += c.kernel.global_numel() * std::max<int64_t>(1, c.kernel.reduce_numel()) >= (1 << 15);
            for (const Input& in : c.kernel.inputs) with_layers += in.view.layers.size() > 1;
            if (std::getenv("ZYX_RANDOM_TRACE")) std::fprintf(stderr, "kernel %llu\n", (unsigned long long)(first + i));
            outputs += c.kernel.outputs.size();
            std::vector<std::vector<uint8_t>> want = run_reference(c);
            std::string diff = compare_outputs(c, want, run_host(pool, dev, ids[i], c), &unchecked);
            if (!diff.empty() && ++failures <= 5)
                ADD_FAILURE() << "kernel " << first + i << " (seed " << seed << "): " << diff << "\n"
                              << kernel_string(c.kernel);
            // The comparison is not vacuous: a float output after a sum, zeroed or doubled, fails.
            bool sums = std::any_of(c.kernel.nodes.begin(), c.kernel.nodes.end(),
                                    [](const Node& n) { return n.op == Op::reduce_sum; });
            for (size_t o = 0; sums && o < c.kernel.outputs.size(); ++o) {
                DType t = c.kernel.outputs[o].dtype;
                const std::vector<uint8_t>& buf = want[c.kernel.inputs.size() + o];
                bool big = false;  // a value well above the absolute tolerance
                for (size_t e = 0; dtype_is_float(t) && e + dtype_size(t) <= buf.size(); e += dtype_size(t)) {
                    uint64_t bits = 0;
                    std::memcpy(&bits, &buf[e], dtype_size(t));
                    double v = double_from_bits(t, bits);
                    big = big || (std::isfinite(v) && std::fabs(v) > 100 * tolerance_of(t).atol);
                }
                if (!big) continue;
                ++after_sum;
                for (auto f : {+[](double) { return 0.0; }, +[](double v) { return 2 * v; }})
                    if (compare_outputs(c, want, rewrite_output(c.kernel, want, o, f)).empty()) {
                        ++wrong_passed;
                        if (std::getenv("ZYX_RANDOM_TRACE"))
                            std::fprintf(stderr, "kernel %llu output %zu: a wrong result passes\n%s",
                                         (unsigned long long)(first + i), o, kernel_string(c.kernel).c_str());
                    }
            }
        }
    }
    std::printf(
        "random %skernels (seed %llu): %zu with >= 32K element-steps (threads), %zu outputs, %zu integer "
        "outputs not comparable; %zu float outputs after a sum, zeroed or doubled %zu times passed; %zu BLAS "
        "kernels\n",
        large ? "large " : "", (unsigned long long)seed, with_threads, outputs, unchecked, after_sum, wrong_passed,
        with_blas);
    EXPECT_EQ(failures, 0u);
    // The generator really produces the interesting cases (checked on runs long enough to).
    if (count >= start + 200) {
        EXPECT_GT(with_reduce, (count - start) / 4);
        EXPECT_GT(with_layers, 0u);
        EXPECT_GT(with_empty, 0u);
        // Integer outputs fed by a value that may differ (host_test_util.hpp) are not compared.
        EXPECT_LT(unchecked, outputs / 20) << "of " << outputs << " outputs";
    }
    // Matmul-shaped kernels (5 % of small, 15 % of large ones) reach BLAS.
    if (count >= start + 150) { EXPECT_GT(with_blas, 0u); }
    // A zeroed or doubled float output after a sum fails: none passed in seeds 1-10 (7-45 such
    // outputs per run); one could only where a cancelling sum's error bound is as large as its
    // value.
    EXPECT_LE(wrong_passed, after_sum / 50) << "of " << after_sum << " outputs (ZYX_RANDOM_TRACE=1 names them)";
}

}  // namespace

// The default run is seeds 1 and 2 (two tests, so ctest runs them side by side); ZYX_RANDOM_SEED
// replaces the second by the seed given and skips the first.
TEST(RandomKernels, HostAgreesWithInterpreter) {
    if (std::getenv("ZYX_RANDOM_SEED"))
        GTEST_SKIP() << "ZYX_RANDOM_SEED set: RandomKernels.HostAgreesWithInterpreterSeed2OrGiven runs it";
    check_random_kernels(1, env_or("ZYX_RANDOM_FIRST", 0), env_or("ZYX_RANDOM_KERNELS", 480));
}

TEST(RandomKernels, HostAgreesWithInterpreterSeed2OrGiven) {
    check_random_kernels(env_or("ZYX_RANDOM_SEED", 2), env_or("ZYX_RANDOM_FIRST", 0),
                         env_or("ZYX_RANDOM_KERNELS", 480));
}

// Larger index spaces (up to 256K elements), for the thread-parallel, 32-lane and thread-split
// paths the small kernels never reach, and bigger BLAS calls: ZYX_RANDOM_LARGE=<n> kernels
// (default 192: ~15 % of them multithreaded, ~15 % matmul-shaped, most of those on BLAS), seed
// ZYX_RANDOM_SEED (default 1).
TEST(RandomKernels, LargeShapes) {
    uint64_t count = env_or("ZYX_RANDOM_LARGE", 192);
    if (count == 0) GTEST_SKIP() << "ZYX_RANDOM_LARGE=0";
    check_random_kernels(env_or("ZYX_RANDOM_SEED", 1), env_or("ZYX_RANDOM_FIRST", 0), count, true);
}
