// Older tt-metal path (compute_kernel_api/eltwise_binary_sfpu.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
