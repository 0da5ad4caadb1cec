// tt-metal path api/compute/binary_max_min.h: part of the emulator compute API.
#pragma once
#include "api/compute/compute_kernel_api.h"
