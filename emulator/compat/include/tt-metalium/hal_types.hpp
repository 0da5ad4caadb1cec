// tt-metal's HalMemType (tt-metalium/hal_types.hpp): the memory kinds the allocator is asked
// about (Allocator::get_base_allocator_addr). Only the enum; the rest of the HAL's types are
// not provided.
#pragma once

#include <cstdint>

namespace tt::tt_metal {

enum class HalMemType : uint8_t { L1 = 0, DRAM = 1, HOST = 2, COUNT = 3 };

}  // namespace tt::tt_metal
