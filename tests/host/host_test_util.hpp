// Running one kernel through the reference interpreter and through the host backend, and
// comparing what they wrote. Tolerances (also in docs/ir.md):
//   integers, bool       bit-exact
//   f64                  |got - want| <= 1e-12·|want| + 1e-12·scale
//   f32                  |got - want| <= 1e-5·|want|  + 1e-5·scale
//   f16                  |got - want| <= 2e-3·|want|  + 2e-3·scale   (one f16 ulp is ~1e-3)
//   bf16                 |got - want| <= 1.6e-2·|want| + 1.6e-2·scale (one bf16 ulp is ~8e-3)
// where scale is 1, or for kernels with a sum reduce, max(1, largest |want| in the buffer)
// times the reduced element count (reordered float sums). NaN matches NaN; ±inf must match.
// The dtype whose tolerance applies is the least precise of the output's dtype and of every float
// dtype in which a value that may differ is computed or rounded on the way to the output: a value
// differs after a library function (exp exp2 log log2 sin cos tanh sigmoid pow) or a float sum
// the host reorders (host_sum_reorders; float products stay in order), and so does every node
// computed from it
// (tanh.f32 → cast.f64 is compared with the f32 tolerance; exact ops, loads and casts of exact
// values keep the output's own). An integer or bool output such a value reaches is not compared
// (a last-bit difference becomes another integer through a cast, bitcast, comparison or wrap).
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
        case Op::exp: case Op::exp2: case Op::log: case Op::log2: case Op::sin: case Op::cos: case Op::tanh:
        case Op::sigmoid: case Op::pow: return true;
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
        if ((e > 0 || may_differ(k, nd)) && dtype_is_float(nd.dtype))
            e = std::max(e, tolerance_of(nd.dtype).rtol);
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

// "" when the output buffers agree within tolerance, else a description of the first mismatch.
// Integer and bool outputs that are not output_is_exact are not compared; `unchecked` (if given)
// counts them.
inline std::string compare_outputs(const Kernel& k, const std::vector<std::vector<uint8_t>>& want,
                                   const std::vector<std::vector<uint8_t>>& got, size_t* unchecked = nullptr) {
    bool sums = false;
    for (const kernel::Node& n : k.nodes) sums = sums || n.op == kernel::Op::reduce_sum;
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
        double scale = 1;
        if (sums && dtype_is_float(t)) {
            double big = 1;
            for (size_t i = 0; i < n; ++i) {
                double v = std::fabs(kernel::double_from_bits(t, value(want[b], i)));
                if (std::isfinite(v)) big = std::max(big, v);
            }
            scale = big * double(std::max<int64_t>(1, k.reduce_numel()));
        }
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
            bool ok = std::isfinite(w) && std::isfinite(g) && std::fabs(g - w) <= tol.rtol * std::fabs(w) + tol.atol * scale;
            if (!ok) {
                why.precision(17);
                why << "want " << w << ", got " << g;
                return why.str();
            }
        }
    }
    return "";
}

}  // namespace zyx::host_test
