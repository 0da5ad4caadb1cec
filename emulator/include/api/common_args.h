// Kernel arguments, shared by data-movement and compute kernels (tt-metal:
// api/dataflow/dataflow_api.h and api/compile_time_args.h).
//
// Runtime args live in the core's L1 (get_arg_addr returns their L1 address, as on silicon);
// every index is checked against the number of args the host set for this kernel on this core.
// Compile-time args come from -DKERNEL_COMPILE_TIME_ARGS=v0,v1,… and are constexpr.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif
#ifndef ZYX_EMU_NUM_CT_ARGS
#define ZYX_EMU_NUM_CT_ARGS 0
#endif

namespace zyx_emu_detail {
inline constexpr uint32_t ct_args[ZYX_EMU_NUM_CT_ARGS + 1] = {KERNEL_COMPILE_TIME_ARGS};
template <uint32_t Idx>
constexpr uint32_t get_ct_arg() {
    static_assert(Idx < ZYX_EMU_NUM_CT_ARGS, "Index out of range: compile-time arg index >= number of compile-time args");
    return ct_args[Idx];
}
}  // namespace zyx_emu_detail

#define get_compile_time_arg_val(arg_idx) (::zyx_emu_detail::get_ct_arg<(arg_idx)>())

inline uint32_t get_arg_addr(int arg_idx) { return ZYX_EMU.arg_addr(arg_idx); }
inline uint32_t get_common_arg_addr(int arg_idx) { return ZYX_EMU.common_arg_addr(arg_idx); }

template <typename T>
inline T get_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_arg_val: T must be 4 bytes");
    return *reinterpret_cast<volatile T*>(uintptr_t(ZYX_EMU.arg_addr(arg_idx)));
}
template <typename T>
inline T get_common_arg_val(int arg_idx) {
    static_assert(sizeof(T) == 4, "get_common_arg_val: T must be 4 bytes");
    return *reinterpret_cast<volatile T*>(uintptr_t(ZYX_EMU.common_arg_addr(arg_idx)));
}

// tt::DataFormat as kernels name it (DataFormat::Float16_b …).
enum class DataFormat : uint8_t {
    Float32 = 0, Float16 = 1, Bfp8 = 2, Bfp4 = 3, Tf32 = 4, Float16_b = 5, Bfp8_b = 6, Bfp4_b = 7,
    Int32 = 8, UInt16 = 9, Lf8 = 10, Bfp2 = 11, Int8 = 14, Bfp2_b = 15, UInt32 = 24, UInt8 = 30,
    Invalid = 0xff,
};

namespace tt {
// CB ids (tt::CBIndex::c_0 … c_63) and the legacy names (tt::CB::c_in0 …).
enum CBIndex : uint8_t {
    c_0, c_1, c_2, c_3, c_4, c_5, c_6, c_7, c_8, c_9, c_10, c_11, c_12, c_13, c_14, c_15,
    c_16, c_17, c_18, c_19, c_20, c_21, c_22, c_23, c_24, c_25, c_26, c_27, c_28, c_29, c_30, c_31,
    c_32, c_33, c_34, c_35, c_36, c_37, c_38, c_39, c_40, c_41, c_42, c_43, c_44, c_45, c_46, c_47,
    c_48, c_49, c_50, c_51, c_52, c_53, c_54, c_55, c_56, c_57, c_58, c_59, c_60, c_61, c_62, c_63,
};
enum CB : uint8_t {
    c_in0 = 0, c_in1, c_in2, c_in3, c_in4, c_in5, c_in6, c_in7,
    c_out0 = 16, c_out1, c_out2, c_out3, c_out4, c_out5, c_out6, c_out7,
    c_intermed0 = 24, c_intermed1, c_intermed2, c_intermed3, c_intermed4, c_intermed5, c_intermed6, c_intermed7,
};
}  // namespace tt
