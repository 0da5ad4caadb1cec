// tt-metal path api/compute/add_int_sfpu.h: part of the emulator compute API (sfpu_int_ops.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
