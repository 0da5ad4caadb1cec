// tt-metal path api/compute/eltwise_unary/eltwise_unary.h: part of the emulator compute API.
#pragma once
#include "api/compute/compute_kernel_api.h"
