// tt-metal path api/compute/untilize.h: part of the emulator compute API (compute_kernel_api.h; layout_ops.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
