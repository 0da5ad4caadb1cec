// Host code generation: kernel IR → one C++ translation unit, compiled by src/jit and dlopen()ed.
//
// Each kernel becomes
//     extern "C" void <name>(void* const* buffers, const uint64_t* scalars);
// with buffers in kernel order (inputs, then outputs) and scalars as raw bits of their dtypes.
//
// Shape of the generated code (the contract the backend relies on):
//   - the global index space is walked as rows × (last axis), cut into tasks of one row block;
//     tasks run under `#pragma omp parallel for` when the kernel is big enough, and the inner
//     loop over the last axis is plain strided code the compiler vectorises;
//   - values that do not vary along the last axis (e.g. a row's softmax denominator) are computed
//     once per task, before the inner loop;
//   - a reduce is a loop nest over the reduce axes with an `omp simd` reduction on the innermost
//     axis; when there are only a few outputs and many reduced elements, the reduce itself is
//     split across threads and the per-thread partials are combined in thread order;
//   - matmul-shaped kernels (MatmulPlan) call cblas_sgemm/dgemm per batch and then run the
//     elementwise epilogue over the product in the same call;
//   - f16/bf16 are carried as float and rounded to nearest even on store; integer arithmetic
//     wraps; every rule matches the reference interpreter (docs/ir.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "kernel/kernel.hpp"

namespace zyx::backend::host {

// How a kernel of the form out = epilogue(sum_k A[.., m, k] * B[.., k, n]) maps onto BLAS.
struct MatmulPlan {
    bool use_blas = false;
    int reduce_node = -1;  // the reduce_sum node the GEMM computes
    int a_input = -1, b_input = -1;
    bool a_trans = false, b_trans = false;
    int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0;
    int direct_output = -1;  // output the GEMM writes into (contiguous, same dtype), or -1
    bool epilogue = true;    // false when the product is stored as it is
};

// Whether (and how) `k` takes the BLAS path: f32/f64, one reduce axis, at least two global
// axes, the reduce is sum(load * load) over unmasked single-layer views whose strides fit a
// row- or column-major matrix with a leading dimension BLAS accepts.
MatmulPlan host_matmul_plan(const kernel::Kernel& k);

// Source of one translation unit defining names[i] for kernels[i]. Kernels must be valid.
std::string host_source(std::span<const kernel::Kernel* const> kernels, std::span<const std::string> names);

}  // namespace zyx::backend::host
