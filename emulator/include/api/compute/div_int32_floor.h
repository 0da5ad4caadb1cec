// tt-metal path api/compute/div_int32_floor.h: part of the emulator compute API (sfpu_int_ops.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
