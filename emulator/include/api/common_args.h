// Kernel arguments, shared by data-movement and compute kernels (tt-metal:
// api/dataflow/dataflow_api.h and api/compile_time_args.h).
//
// Runtime args live in the core's L1 (get_arg_addr returns their L1 address, as on silicon);
// every index is checked against the number of args the host set for this kernel on this core.
// Compile-time args come from -DKERNEL_COMPILE_TIME_ARGS=v0,v1,… and are constexpr.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"
#include "hostdevcommon/common_values.hpp"
#include "hostdevcommon/kernel_structs.h"

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
    static_assert(Idx < ZYX_EMU_NUM_CT_ARGS,
                  "Index out of range: compile-time arg index >= number of compile-time args");
    return ct_args[Idx];
}
}  // namespace zyx_emu_detail

// The compile-time args as tt-metal's api/compile_time_args.h offers them, a constexpr array:
// kernel_compile_time_args[i], .size(), .data(), range-for. Not a std::array: <array> alone
// doubles the time to compile a kernel (it pulls in ~15k lines), and every kernel includes this.
namespace zyx_emu_detail {
template <uint32_t N>
struct CtArgArray {
    uint32_t v[N + 1];  // one spare element: a kernel may have no compile-time args
    constexpr uint32_t operator[](uint32_t i) const { return v[i]; }
    static constexpr uint32_t size() { return N; }
    static constexpr bool empty() { return N == 0; }
    constexpr const uint32_t* data() const { return v; }
    constexpr const uint32_t* begin() const { return v; }
    constexpr const uint32_t* end() const { return v + N; }
};
}  // namespace zyx_emu_detail
inline constexpr zyx_emu_detail::CtArgArray<ZYX_EMU_NUM_CT_ARGS> kernel_compile_time_args = {
    {KERNEL_COMPILE_TIME_ARGS}};

#define get_compile_time_arg_val(arg_idx) (::zyx_emu_detail::get_ct_arg<(arg_idx)>())

// Named compile-time args (tt-metal api/compile_time_args.h): get_named_compile_time_arg_val("n")
// looks "n" up in KERNEL_COMPILE_TIME_ARG_MAP, which tt-metal's JIT defines as
// {"name",value},{"name2",value2}… The emulator's KernelSpec has no field for them yet: a kernel
// gets the map through KernelSpec::defines["KERNEL_COMPILE_TIME_ARG_MAP"]. A name not in the map
// (or no map) is a compile error naming zyx_emu_named_compile_time_arg_not_found.
namespace zyx_emu_detail {
struct NamedCtArg {
    const char* name;
    uint32_t value;
};
#ifdef KERNEL_COMPILE_TIME_ARG_MAP
inline constexpr NamedCtArg named_ct_args[] = {KERNEL_COMPILE_TIME_ARG_MAP};
#else
inline constexpr NamedCtArg named_ct_args[] = {{nullptr, 0}};
#endif
// Not constexpr: reaching it in a constant expression is the compile error for an unknown name.
inline uint32_t zyx_emu_named_compile_time_arg_not_found() { return 0; }
constexpr bool ct_name_eq(const char* a, const char* b) {
    for (;; ++a, ++b) {
        if (*a != *b) return false;
        if (!*a) return true;
    }
}
constexpr uint32_t named_ct_arg(const char* name) {
    for (const NamedCtArg& a : named_ct_args)
        if (a.name && ct_name_eq(a.name, name)) return a.value;
    return zyx_emu_named_compile_time_arg_not_found();
}
template <uint32_t V>
inline constexpr uint32_t ct_value = V;
}  // namespace zyx_emu_detail

#define get_named_compile_time_arg_val(name) (::zyx_emu_detail::ct_value<::zyx_emu_detail::named_ct_arg(name)>)

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
    Float32 = 0,
    Float16 = 1,
    Bfp8 = 2,
    Bfp4 = 3,
    Tf32 = 4,
    Float16_b = 5,
    Bfp8_b = 6,
    Bfp4_b = 7,
    Int32 = 8,
    UInt16 = 9,
    Lf8 = 10,
    Bfp2 = 11,
    Int8 = 14,
    Bfp2_b = 15,
    UInt32 = 24,
    UInt8 = 30,
    Invalid = 0xff,
};
