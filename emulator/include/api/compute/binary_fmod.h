// tt-metal path api/compute/binary_fmod.h: part of the emulator compute API (compute_kernel_api.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
