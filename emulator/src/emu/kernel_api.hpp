// Implementation of the kernel API table (zyx_emu/kernel_abi.h), split by area:
// kernel_api_dataflow.cpp (args, CBs, NoC, semaphores, DPRINT) and kernel_api_compute.cpp
// (DST, FPU/SFPU ops, pack).
#pragma once

#include <cstdint>

#include "emu/engine.hpp"

namespace zyx::emu::api {

// compute
void tile_regs_acquire();
void tile_regs_commit();
void tile_regs_wait();
void tile_regs_release();
void fpu_init(uint32_t op, uint32_t cb_a, uint32_t cb_b, int32_t cb_out, uint32_t flags, bool acc_to_dest);
void fpu_op(uint32_t op, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst, uint32_t flags);
void fpu_matmul_block(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst, uint32_t flags,
                      uint32_t ct, uint32_t rt, uint32_t kt);
void sfpu_init(uint32_t op);
void sfpu_unary(uint32_t op, uint32_t idst, uint32_t param);
void sfpu_binary(uint32_t op, uint32_t a, uint32_t b, uint32_t out);
void sfpu_fill(uint32_t idst, uint32_t bits, bool is_float);
void sfpu_typecast(uint32_t idst, uint32_t in_fmt, uint32_t out_fmt);
void sfpu_where(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst, uint32_t fmt);
void sfpu_reduce(uint32_t idst, uint32_t pool, uint32_t dim, uint32_t fmt);
void transpose_dest(uint32_t idst, bool is_32bit);
void copy_dest(uint32_t idst, uint32_t odst);
void sfpu_binary_int(uint32_t op, uint32_t fmt, uint32_t a, uint32_t b, uint32_t out);
void pack_tile(uint32_t idst, uint32_t cb, uint32_t out_index, bool out_of_order);
void pack_reconfig(uint32_t cb);
void pack_config(uint32_t what, uint32_t value);
void reconfig_unpack(uint32_t cb_a, uint32_t cb_b);

// shared helpers

// Failure paths (message building, kernel_fault) are kept out of line, so a check costs the
// hot path a compare and a branch: kernels make dozens of API calls per tile.
#define ZYX_EMU_COLD __attribute__((cold, noinline))

// Reports a CB index beyond the arch's count or a CB not configured on this core.
[[noreturn]] void cb_index_fault(const Fiber& f, int32_t cb, const char* api);
inline CbState& cb_checked(Fiber& f, int32_t cb, const char* api) {
    if (uint32_t(cb) >= f.core->num_cbs || !f.core->cbs[cb].configured) [[unlikely]]
        cb_index_fault(f, cb, api);
    return f.core->cbs[cb];
}

}  // namespace zyx::emu::api
