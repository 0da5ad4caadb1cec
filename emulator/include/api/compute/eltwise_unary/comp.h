// tt-metal path api/compute/eltwise_unary/comp.h: part of the emulator compute API.
#pragma once
#include "api/compute/compute_kernel_api.h"
