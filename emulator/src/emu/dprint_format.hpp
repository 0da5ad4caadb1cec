// DEVICE_PRINT / DPRINT(fmt, …) (tt-metal api/debug/device_print.h): the emulator's formatter
// for fmt-style format strings.
#pragma once

#include <string>

#include "zyx_emu/kernel_abi.h"

namespace zyx::emu {

// The text of one DEVICE_PRINT call. Replacement fields: {} and {N} (not mixed), each with an
// optional spec [[fill]align][sign][#][0][width][.precision][type] as fmt defines it: align
// < > ^; sign + - space; types d x X o b B c for integers, chars and bools, f F e E g G for
// floats (no type: the shortest text that reads back to the same value, fixed notation for
// decimal exponents -4 … 15), s for strings and bools. {{ and }} print a brace. An error (a
// field with no argument, a spec the type does not take, a nested {…} width) throws
// zyx::Error: KernelFault naming the format string, Unsupported for fmt features not modelled.
std::string format_device_print(const zyx_emu_dprint_format& m);

}  // namespace zyx::emu
