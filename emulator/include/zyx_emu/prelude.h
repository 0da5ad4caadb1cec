// Force-included before every kernel (-include zyx_emu/prelude.h), as tt-metal's firmware
// wrappers include the kernel API before the kernel source: kernels without #includes compile.
// Also declares both entry forms weakly so the emulator can call whichever the kernel defines:
//   void kernel_main()                               (current)
//   namespace NAMESPACE { void MAIN { … } }          (older; NAMESPACE and MAIN are macros)
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"
#include "internal/risc_attribs.h"
#include "api/debug/assert.h"
#include "api/debug/waypoint.h"

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"
#else
#include "api/compute/compute_kernel_api.h"
#endif

#define NAMESPACE chlkc_emu
#define MAIN zyx_emu_main()

void kernel_main() __attribute__((weak));
namespace chlkc_emu {
void zyx_emu_main() __attribute__((weak));
}
