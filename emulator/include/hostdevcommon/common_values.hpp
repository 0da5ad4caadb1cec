// tt-metal path hostdevcommon/common_values.hpp (tt_metal/hostdevcommon/api/hostdevcommon/):
// values shared by host and kernel code. The L1 / trace region defaults are host-side settings
// the emulator does not use; they are here so code naming them compiles.
#pragma once

#include <cstddef>
#include <cstdint>

constexpr static std::uint32_t INVALID = 0;
constexpr static std::uint32_t VALID = 1;
constexpr static std::size_t DEFAULT_L1_SMALL_SIZE = 0;
constexpr static std::size_t DEFAULT_TRACE_REGION_SIZE = 0;
constexpr static std::size_t DEFAULT_WORKER_L1_SIZE = 0;
