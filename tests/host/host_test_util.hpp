// Running one kernel through the reference interpreter and through the host backend, and
// comparing what they wrote. Tolerances (also in docs/ir.md §5):
//   integers, bool       bit-exact
//   f64                  |got - want| <= 1e-12·|want| + 1e-12 + slack
//   f32                  |got - want| <= 1e-5·|want|  + 1e-5  + slack
//   f16                  |got - want| <= 2e-3·|want|  + 2e-3  + slack   (one f16 ulp is ~1e-3)
//   bf16                 |got - want| <= 1.6e-2·|want| + 1.6e-2 + slack (one bf16 ulp is ~8e-3)
// NaN matches NaN; ±inf must match. The dtype whose row applies is the least precise of the
// output's dtype and of every float dtype in which a value that may differ is computed or rounded
// on the way to the output: a value differs after a library function (exp exp2 log log2 sin cos
// tanh sigmoid erf pow) or a float sum the host reorders (host_sum_reorders; float products stay in
// order), and so does every node computed from it (tanh.f32 → cast.f64 is compared with the f32
// tolerance; exact ops, loads and casts of exact values keep the output's own). An integer or bool
// output such a value reaches is not compared (a last-bit difference becomes another integer
// through a cast, bitcast, comparison or wrap).
//
// `slack` is 0 unless a float sum whose value may differ (inexact_sums: reordered by the host,
// or of terms that may differ) reaches the output. For each such sum the host's value lies in an
// interval around the exact sum of the interpreter's terms, whose half-width bounds the host's
// rounding error with the partial sums it forms (sum_interval); the interpreter runs the kernel
// again with the sum at each end of the interval, and slack is how far the output moves, summed
// over such sums (sum_slack). So a cancelling sum gets the slack its terms warrant, and an output
// no such sum reaches gets none: a zeroed or doubled result fails.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "backend/host/host_backend.hpp"
#include "backend/host/host_codegen.hpp"
#include "kernel/interpreter.hpp"

namespace zyx::host_test {

using kernel::Kernel;

// Buffers of one run: inputs then outputs (outputs pre-filled; both runs start from the same bytes).
struct Case {
    Kernel kernel;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<uint64_t> scalars;
    // same_as[i] = j < i: argument i is passed the very buffer of argument j (contents must be
    // equal); empty or -1 = its own buffer.
    std::vector<int> same_as;
};

inline std::vector<std::vector<uint8_t>> run_reference(const Case& c) {
    std::vector<std::vector<uint8_t>> bufs = c.buffers;
    std::vector<kernel::BufferRef> refs;
    for (auto& b : bufs) refs.push_back({b.data(), b.size()});
    kernel::interpret(c.kernel, refs, c.scalars);
    return bufs;
}

inline std::vector<std::vector<uint8_t>> run_host(backend::host::HostPool& pool, backend::host::HostDevice& dev,
                                                  backend::ProgramId program, const Case& c) {
    std::vector<backend::BufferId> ids;
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        if (i < c.same_as.size() && c.same_as[i] >= 0) {
            ids.push_back(ids[size_t(c.same_as[i])]);
            pool.retain(ids.back());
            continue;
        }
        ids.push_back(pool.allocate(c.buffers[i].size()));
        pool.host_to_pool(c.buffers[i].data(), c.buffers[i].size(), ids.back(), {});
    }
    std::vector<backend::Scalar> scalars;
    for (size_t s = 0; s < c.scalars.size(); ++s) scalars.push_back({c.kernel.scalars[s], c.scalars[s]});
    dev.launch(program, ids, scalars, {});
    std::vector<std::vector<uint8_t>> out = c.buffers;
    for (size_t i = 0; i < ids.size(); ++i) {
        pool.pool_to_host(ids[i], out[i].data(), out[i].size(), {});
        pool.release(ids[i]);
    }
    return out;
}

struct Tolerance {
    double rtol, atol;
};
inline Tolerance tolerance_of(DType t) {
    switch (t) {
        case DType::f64: return {1e-12, 1e-12};
        case DType::f32: return {1e-5, 1e-5};
        case DType::f16: return {2e-3, 2e-3};
        case DType::bf16: return {1.6e-2, 1.6e-2};
        default: return {0, 0};
    }
}

// Whether the host sums a float reduce of kernel k in another order than the interpreter: in 16
// (f64) or 32 (f32 carrier) lanes when the innermost reduce axis has at least that many elements,
// or in per-thread partial sums (at most 8 outputs, at least 32K reduced elements), or through
// BLAS (matmul-shaped kernels). Shorter innermost axes are summed in order
// (src/backend/host/host_codegen.cpp, emit_reduce_loops).
inline bool host_sum_reorders(const Kernel& k, DType t) {
    if (k.reduce_axes == 0) return false;
    int64_t lanes = t == DType::f64 ? 16 : 32;
    return k.shape.back() >= lanes || (k.global_numel() <= 8 && k.reduce_numel() >= (1 << 15)) ||
        backend::host::host_matmul_plan(k).use_blas;
}

// Whether the host may compute node nd of k differently from the interpreter: a library function
// (glibc's vector libm on the host, scalar libm in the interpreter) or a reordered float sum.
// IEEE-exact ops (+ - * / sqrt fmod, casts …) are computed identically (-ffp-contract=off), and so
// are float products (kept in order).
inline bool may_differ(const Kernel& k, const kernel::Node& nd) {
    using kernel::Op;
    if (!dtype_is_float(nd.dtype)) return false;
    switch (nd.op) {
        case Op::exp:
        case Op::exp2:
        case Op::log:
        case Op::log2:
        case Op::sin:
        case Op::cos:
        case Op::tanh:
        case Op::sigmoid:
        case Op::erf:
        case Op::pow: return true;
        case Op::reduce_sum: return host_sum_reorders(k, nd.dtype);
        default: return false;
    }
}

// For every node up to `root`: the rtol a difference in its value is worth (0 = computed exactly
// like the interpreter): the loosest tolerance of the float dtypes where a value that may differ
// is computed or rounded on the way to it. Integer and bool nodes pass it on unchanged.
inline std::vector<double> difference_tolerances(const Kernel& k, int root) {
    std::vector<double> err(size_t(root) + 1, 0);
    for (size_t i = 0; i <= size_t(root); ++i) {
        const kernel::Node& nd = k.nodes[i];
        double e = 0;
        for (int s = 0; s < kernel::op_arity(nd.op); ++s) e = std::max(e, err[size_t(nd.src[s])]);
        if ((e > 0 || may_differ(k, nd)) && dtype_is_float(nd.dtype)) e = std::max(e, tolerance_of(nd.dtype).rtol);
        err[i] = e;
    }
    return err;
}

// Tolerance for an output of dtype `out` holding node `root`: the loosest of `out`'s own and of
// the float dtypes where a value that may differ is computed or rounded on the way to `root`.
inline Tolerance output_tolerance(const Kernel& k, int root, DType out) {
    Tolerance t = tolerance_of(out);
    double e = difference_tolerances(k, root)[size_t(root)];
    return {std::max(t.rtol, e), std::max(t.atol, e)};
}

// Whether an integer or bool output can be compared bit for bit: not when a float value that may
// differ reaches it (a last-bit difference becomes another integer through a cast, a bitcast, a
// comparison or a wrapping multiply).
inline bool output_is_exact(const Kernel& k, size_t o) {
    int root = k.outputs[o].node;
    return dtype_is_float(k.outputs[o].dtype) || difference_tolerances(k, root)[size_t(root)] == 0;
}

// Float reduce_sum nodes of k whose value may differ between host and interpreter: the host
// reorders them (host_sum_reorders) or their terms may differ (a library function on the way).
inline std::vector<int> inexact_sums(const Kernel& k) {
    std::vector<int> out;
    if (k.nodes.empty()) return out;
    std::vector<double> err = difference_tolerances(k, int(k.nodes.size()) - 1);
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        const kernel::Node& n = k.nodes[i];
        if (n.op == kernel::Op::reduce_sum && dtype_is_float(n.dtype) &&
            (host_sum_reorders(k, n.dtype) || err[size_t(n.src[0])] > 0))
            out.push_back(int(i));
    }
    return out;
}

// The terms of float sum node s of k, as the interpreter computes them: out[g * n + j] is term j
// (row-major over the reduce axes) of global element g, exactly, in f64. Runs a copy of the sum's
// body as a kernel without reduce axes over the full index space (level-0 inputs broadcast
// along the reduce axes).
inline std::vector<double> sum_terms(const Case& c, int s) {
    using kernel::Op;
    const Kernel& k = c.kernel;
    size_t G = k.global_rank();
    Kernel t;
    t.shape = k.shape;
    t.reduce_axes = 0;
    t.scalars = k.scalars;
    t.inputs = k.inputs;
    for (kernel::Input& in : t.inputs) {
        if (in.view.rank() == k.shape.size()) continue;
        kernel::ViewLayer& top = in.view.layers.back();  // append the reduce axes with stride 0
        for (size_t d = G; d < k.shape.size(); ++d) {
            top.shape.push_back(k.shape[d]);
            top.strides.push_back(0);
            if (top.has_mask()) {
                top.mask_begin.push_back(0);
                top.mask_end.push_back(k.shape[d]);
            }
        }
    }
    std::vector<bool> body(k.nodes.size(), false);
    body[size_t(k.nodes[size_t(s)].src[0])] = true;
    for (size_t i = size_t(s); i-- > 0;)
        if (body[i])
            for (int a = 0; a < kernel::op_arity(k.nodes[i].op); ++a) body[size_t(k.nodes[i].src[a])] = true;
    std::vector<int> map(k.nodes.size(), -1);
    for (size_t i = 0; i < size_t(s); ++i) {
        if (!body[i]) continue;
        kernel::Node n = k.nodes[i];
        for (int a = 0; a < kernel::op_arity(n.op); ++a) n.src[a] = map[size_t(n.src[a])];
        map[i] = t.push(n);
    }
    int64_t count = 1;
    for (int64_t d : k.shape) count *= d;
    t.add_output(DType::f64, kernel::View::contiguous(k.shape),
                 t.cast(map[size_t(k.nodes[size_t(s)].src[0])], DType::f64));
    Case tc;
    tc.kernel = t;
    tc.scalars = c.scalars;
    tc.buffers.assign(c.buffers.begin(), c.buffers.begin() + std::ptrdiff_t(k.inputs.size()));
    tc.buffers.push_back(std::vector<uint8_t>(size_t(count) * 8 + 1, 0));
    std::vector<std::vector<uint8_t>> out = run_reference(tc);
    std::vector<double> terms(static_cast<size_t>(count));
    std::memcpy(terms.data(), out.back().data(), size_t(count) * 8);
    return terms;
}

// For float sum node s (dtype t) and each of its global elements, the interval the host's value
// lies in: centre = the exact sum of the interpreter's terms (long double), half-width = a bound
// of the host's rounding error against it, + the term tolerance (library functions on the way
// to the terms) · Σ|terms|. The rounding error of a sum is at most u · Σ over its additions of
// |partial result| (first order); the host's partial results (host_codegen.cpp) are bounded with
// the exact prefix sums P of the terms in row-major order (the interpreter's order):
//   - in order (innermost reduce axis < 16 f64 / 32 f32 elements): prefix sums, |P| <= M;
//   - a thread's part of a split reduce (<= 8 outputs, >= 32K terms; the first reduce axis of >= 16
//     elements is cut) starts at a prefix, so its running sum is a difference of prefixes (<= 2M)
//     when that axis is the outermost reduce axis, else a scattered subset (<= Σ|t|); the <= 64
//     thread partials are then added;
//   - lanes (innermost axis >= 16/32 elements, L = 16/32 lanes): lane l of a row (of a thread's
//     slice of it) adds the terms of one residue class mod L, its partials are differences of that
//     class's prefix sums within the row (<= 2·M_class); after the row the accumulator adds the L
//     lanes and up to L-1 remaining terms (<= running sum + Σ 2·M_class + Σ|t| of L neighbours),
//     once per thread that shares the row (<= 64 when the innermost axis is the one cut);
//   - BLAS: unknown order (and FMA): every partial <= Σ|t|.
struct SumInterval {
    std::vector<double> interpreter, centre, half_width;  // per global element
};
inline SumInterval sum_interval(const Case& c, int s) {
    const Kernel& k = c.kernel;
    DType t = k.nodes[size_t(s)].dtype;
    std::vector<double> terms = sum_terms(c, s);
    int64_t n = k.reduce_numel(), g_count = k.global_numel();
    int64_t inner = k.shape.back(), outer = n / inner;  // (n > 0 here)
    int64_t L = t == DType::f64 ? 16 : 32;
    double u = t == DType::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
    bool blas = backend::host::host_matmul_plan(k).use_blas;
    size_t G = k.global_rank(), split_axis = G;
    while (split_axis < k.shape.size() && k.shape[split_axis] < 16) ++split_axis;
    bool split = g_count <= 8 && n >= (1 << 15) && split_axis < k.shape.size();
    bool scattered = split && split_axis != G;
    double row_threads = split && split_axis + 1 == k.shape.size() ? 64 : 1;
    double term_tol = difference_tolerances(k, s)[size_t(k.nodes[size_t(s)].src[0])];
    SumInterval r;
    std::vector<double> class_sum(static_cast<size_t>(L)), class_max(static_cast<size_t>(L));
    for (int64_t g = 0; g < g_count; ++g) {
        const double* x = terms.data() + g * n;
        float acc_f = 0;
        double acc_d = 0;
        long double exact = 0;
        double abs_sum = 0, max_prefix = 0;
        for (int64_t j = 0; j < n; ++j) {
            if (t == DType::f64)
                acc_d = acc_d + x[j];
            else
                acc_f = acc_f + float(x[j]);  // the interpreter's f32 accumulator, in its order
            exact += x[j];
            abs_sum += std::fabs(x[j]);
            max_prefix = std::max(max_prefix, std::fabs(double(exact)));
        }
        double run = scattered ? abs_sum : split ? 2 * max_prefix : max_prefix;  // a running sum
        double partials;  // Σ over the host's additions of |partial result|
        if (blas) {
            partials = double(n + 64) * abs_sum;
        } else if (inner < L) {
            partials = double(n + 64) * run;
        } else {
            partials = 64 * run;  // thread partials
            for (int64_t row = 0; row < outer; ++row) {
                const double* y = x + row * inner;
                std::fill(class_sum.begin(), class_sum.end(), 0.0);
                std::fill(class_max.begin(), class_max.end(), 0.0);
                double window = 0, window_max = 0;  // Σ|t| of L neighbours
                for (int64_t j = 0; j < inner; ++j) {
                    size_t cl = size_t(j % L);
                    class_sum[cl] += y[j];
                    class_max[cl] = std::max(class_max[cl], std::fabs(class_sum[cl]));
                    window += std::fabs(y[j]) - (j >= L ? std::fabs(y[j - L]) : 0.0);
                    window_max = std::max(window_max, window);
                }
                double lanes_total = 0;
                for (double m : class_max) lanes_total += 2 * m;
                partials += double((inner + L - 1) / L) * lanes_total;                       // lane additions
                partials += row_threads * double(2 * L) * (run + lanes_total + window_max);  // folds, remainder
            }
        }
        r.interpreter.push_back(t == DType::f64 ? acc_d : double(acc_f));
        r.centre.push_back(double(exact));
        r.half_width.push_back(u * partials + term_tol * abs_sum + double(n + 2) * std::ldexp(1.0, -63) * abs_sum);
    }
    return r;
}

// k with float sum node s moved by `delta` (a new f64 input, one value per global element):
// s' = s + cast(delta). (For a 16-bit sum the delta is rounded to that dtype; the sum itself stays
// carried in f32.)
inline Kernel shifted_kernel(const Kernel& k, int s) {
    using kernel::Op;
    Kernel p = k;
    p.nodes.clear();
    int delta_input = p.add_input(DType::f64, kernel::View::contiguous(k.global_shape()));
    std::vector<int> map(k.nodes.size(), -1);
    for (size_t i = 0; i < k.nodes.size(); ++i) {
        kernel::Node n = k.nodes[i];
        for (int a = 0; a < kernel::op_arity(n.op); ++a) n.src[a] = map[size_t(n.src[a])];
        int id = p.push(n);
        if (int(i) == s) {
            int d = p.load(delta_input);
            id = p.binary(Op::add, id, n.dtype == DType::f64 ? d : p.cast(d, n.dtype));
        }
        map[i] = id;
    }
    for (kernel::Output& o : p.outputs) o.node = map[size_t(o.node)];
    return p;
}

// slack[o][i]: how far element i of output o may move when every sum of inexact_sums(k) takes
// any value of its interval (sum_interval), one sum at a time (both ends), summed over the sums;
// 0 where no such sum reaches. +inf where the output leaves the finite range.
inline std::vector<std::vector<double>> sum_slack(const Case& c, const std::vector<std::vector<uint8_t>>& want) {
    const Kernel& k = c.kernel;
    std::vector<std::vector<double>> slack(k.outputs.size());
    size_t nin = k.inputs.size();
    for (size_t o = 0; o < k.outputs.size(); ++o)
        slack[o].assign(want[nin + o].size() / dtype_size(k.outputs[o].dtype), 0.0);
    if (k.global_numel() == 0 || k.reduce_numel() == 0) return slack;
    for (int s : inexact_sums(k)) {
        SumInterval iv = sum_interval(c, s);
        std::vector<std::vector<double>> move(k.outputs.size());
        for (double side : {-1.0, 1.0}) {
            Case p = c;
            p.kernel = shifted_kernel(k, s);
            std::vector<uint8_t> delta(iv.centre.size() * 8 + 1);
            for (size_t g = 0; g < iv.centre.size(); ++g) {
                double d = iv.centre[g] + side * iv.half_width[g] - iv.interpreter[g];
                std::memcpy(delta.data() + 8 * g, &d, 8);
            }
            p.buffers.insert(p.buffers.begin() + std::ptrdiff_t(nin), delta);
            p.same_as.clear();  // (the interpreter reads buffers by contents only)
            std::vector<std::vector<uint8_t>> out = run_reference(p);
            for (size_t o = 0; o < k.outputs.size(); ++o) {
                DType t = k.outputs[o].dtype;
                if (!dtype_is_float(t)) continue;
                size_t sz = dtype_size(t);
                move[o].resize(slack[o].size(), 0.0);
                for (size_t i = 0; i < slack[o].size(); ++i) {
                    uint64_t wb = 0, pb = 0;
                    std::memcpy(&wb, want[nin + o].data() + i * sz, sz);
                    std::memcpy(&pb, out[nin + 1 + o].data() + i * sz, sz);
                    if (wb == pb) continue;
                    double w = kernel::double_from_bits(t, wb), v = kernel::double_from_bits(t, pb);
                    double d = std::isfinite(w) && std::isfinite(v) ? std::fabs(v - w) : INFINITY;
                    move[o][i] = std::max(move[o][i], d);
                }
            }
        }
        for (size_t o = 0; o < k.outputs.size(); ++o)
            for (size_t i = 0; i < move[o].size(); ++i) slack[o][i] += move[o][i];
    }
    return slack;
}

// "" when the output buffers agree within tolerance, else a description of the first mismatch.
// Integer and bool outputs that are not output_is_exact are not compared; `unchecked` (if given)
// counts them. The interpreter reruns for sum_slack only when an element misses the plain
// tolerance.
inline std::string compare_outputs(const Case& c, const std::vector<std::vector<uint8_t>>& want,
                                   const std::vector<std::vector<uint8_t>>& got, size_t* unchecked = nullptr) {
    const Kernel& k = c.kernel;
    std::vector<std::vector<double>> slack;
    bool have_slack = false;
    for (size_t o = 0; o < k.outputs.size(); ++o) {
        if (!output_is_exact(k, o)) {
            if (unchecked) ++*unchecked;
            continue;
        }
        size_t b = k.inputs.size() + o;
        DType t = k.outputs[o].dtype;
        size_t sz = dtype_size(t), n = want[b].size() / sz;
        auto value = [&](const std::vector<uint8_t>& buf, size_t i) {
            uint64_t bits = 0;
            std::memcpy(&bits, buf.data() + i * sz, sz);
            return bits;
        };
        Tolerance tol = output_tolerance(k, k.outputs[o].node, t);
        for (size_t i = 0; i < n; ++i) {
            uint64_t wb = value(want[b], i), gb = value(got[b], i);
            if (wb == gb) continue;
            std::ostringstream why;
            why << "output " << o << " (" << dtype_name(t) << ") element " << i << ": ";
            if (!dtype_is_float(t)) {
                why << "want bits 0x" << std::hex << wb << ", got 0x" << gb;
                return why.str();
            }
            double w = kernel::double_from_bits(t, wb), g = kernel::double_from_bits(t, gb);
            if (std::isnan(w) && std::isnan(g)) continue;
            bool finite = std::isfinite(w) && std::isfinite(g);
            double bound = tol.rtol * std::fabs(w) + tol.atol;
            if (finite && std::fabs(g - w) <= bound) continue;
            if (finite) {
                if (!have_slack) {
                    slack = sum_slack(c, want);
                    have_slack = true;
                }
                bound += slack[o][i];
                if (std::fabs(g - w) <= bound) continue;
            }
            why.precision(17);
            why << "want " << w << ", got " << g << " (tolerance " << bound << ")";
            return why.str();
        }
    }
    return "";
}

// A copy of the buffers `out` where every finite element of output `o` is replaced by f(value)
// (for tests that the comparison catches a wrong result).
inline std::vector<std::vector<uint8_t>> rewrite_output(const Kernel& k, std::vector<std::vector<uint8_t>> out,
                                                        size_t o, double (*f)(double)) {
    DType t = k.outputs[o].dtype;
    size_t sz = dtype_size(t), b = k.inputs.size() + o;
    for (size_t e = 0; e + sz <= out[b].size(); e += sz) {
        uint64_t bits = 0;
        std::memcpy(&bits, &out[b][e], sz);
        double v = kernel::double_from_bits(t, bits);
        if (!std::isfinite(v)) continue;
        uint64_t nb = kernel::bits_from_double(t, f(v));
        std::memcpy(&out[b][e], &nb, sz);
    }
    return out;
}

}  // namespace zyx::host_test
