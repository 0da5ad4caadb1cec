// tt-metal's MathFidelity and UnpackToDestMode (tt-metalium/base_types.hpp): the zyx/emulator
// enums (src/core/tenstorrent_names.hpp), which have tt-metal's names and values (LoFi 0, HiFi2 2,
// HiFi3 3, HiFi4 4; Default 0, UnpackToDestFp32 1); tt-metal's MathFidelity::Invalid is not provided.
#pragma once

#include <cstdint>

#include "core/tenstorrent_names.hpp"

using MathFidelity = ::zyx::tt::MathFidelity;

using UnpackToDestMode = ::zyx::tt::UnpackToDestMode;
