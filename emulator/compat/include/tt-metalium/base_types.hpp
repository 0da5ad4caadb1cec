// tt-metal's MathFidelity and UnpackToDestMode (tt-metalium/base_types.hpp). MathFidelity is the
// zyx/emulator enum (src/core/tenstorrent_names.hpp), which has tt-metal's names and values
// (LoFi 0, HiFi2 2, HiFi3 3, HiFi4 4); tt-metal's `Invalid` is not provided.
#pragma once

#include <cstdint>

#include "core/tenstorrent_names.hpp"

using MathFidelity = ::zyx::tt::MathFidelity;

enum class UnpackToDestMode : std::uint8_t { Default, UnpackToDestFp32 };
