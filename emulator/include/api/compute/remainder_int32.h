// tt-metal path api/compute/remainder_int32.h (where remainder_int32_tile lived before
// binary_remainder.h): part of the emulator compute API (sfpu_int_ops.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
