// tt::DataFormat and tt::ARCH (tt-metalium/tt_backend_api_types.hpp, UMD's arch.hpp), and the CB
// index names tt::CBIndex / tt::CB.
//
// tt::DataFormat IS the emulator's enum (src/core/tenstorrent_names.hpp: zyx::tt::DataFormat,
// tt-metal's values): Float32 0, Float16 1, Bfp8 2, Float16_b 5, Bfp8_b 6, Int32 8, UInt16 9,
// UInt32 24, UInt8 30, Invalid 0xff. tt-metal's other formats (Bfp4_b, Tf32, Lf8, …) are not
// provided: the emulator does not model them. tt::CBIndex comes from the emulator's kernel
// headers (emulator/include/hostdevcommon/kernel_structs.h), the same file kernels see.
#pragma once

#include <cstdint>
#include <ostream>

#include "core/tenstorrent_names.hpp"
#include "hostdevcommon/kernel_structs.h"

namespace tt {

using DataFormat = ::zyx::tt::DataFormat;

// UMD's tt::ARCH (values as UMD numbers them).
enum class ARCH { GRAYSKULL = 1, WORMHOLE_B0 = 2, BLACKHOLE = 3, QUASAR = 4, Invalid = 0xFF };

}  // namespace tt

namespace zyx::tt {
// fmt-style printing of a format (TT_FATAL / log_info arguments) by its tt-metal name.
inline std::ostream& operator<<(std::ostream& os, DataFormat f) { return os << data_format_name(f); }
}  // namespace zyx::tt
