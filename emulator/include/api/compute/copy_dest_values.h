// tt-metal path api/compute/copy_dest_values.h: part of the emulator compute API (sfpu_ops.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
