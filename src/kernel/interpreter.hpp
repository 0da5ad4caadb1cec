// The reference interpreter: the executable definition of the kernel IR.
//
// It evaluates a kernel one index at a time with plain C++ arithmetic, slowly and exactly, and
// every backend is tested against it. The rules it implements (docs/ir.md):
//   - f16/bf16 values are carried as f32 inside a kernel; a load converts exactly, a store, a
//     cast to f16/bf16 and a bitcast round to nearest even. f64 → 16-bit goes through f32.
//   - a bitcast of a load, constant, scalar or (recursively) bitcast reinterprets the stored bits
//     exactly (16-bit float sNaNs and payloads included); a bitcast of a computed float value
//     reads its NaN as the canonical quiet NaN of its dtype. NaN sign and payload of arithmetic
//     are otherwise unspecified (constant folding and run time make different ones).
//   - integers wrap (two's complement); x/0 = x%0 = 0; MIN/-1 = MIN; MIN%-1 = 0;
//     shifts by a negative amount or >= the bit width give 0 (shr of a negative signed value: -1).
//   - float → integer casts truncate toward zero, saturate at the target's range, NaN → 0;
//     anything → bool is x != 0 (NaN → true); integer → float rounds to nearest.
//   - max/min propagate NaN; comparisons follow IEEE; floats follow C (<cmath>) otherwise;
//     logical ops read any non-zero value (NaN included) as true.
//   - reductions run in row-major order over the reduce axes, accumulating 16-bit floats in
//     f32; an empty reduction gives the op's identity (0, 1, lowest, highest).
#pragma once

#include <cstdint>
#include <span>

#include "kernel/kernel.hpp"

namespace zyx::kernel {

// A host buffer argument.
struct BufferRef {
    void* data = nullptr;
    uint64_t bytes = 0;
};

// Runs `k` on host memory. `buffers` holds the inputs, then the outputs (kernel order); `scalars`
// holds the scalar arguments as raw bits of their dtypes. Outputs must not overlap inputs.
// Throws zyx::Error(InvalidArgument) for an invalid kernel, a wrong argument count, or a buffer
// too small for its view (naming the argument and the bytes it needs).
void interpret(const Kernel& k, std::span<const BufferRef> buffers, std::span<const uint64_t> scalars);

}  // namespace zyx::kernel
