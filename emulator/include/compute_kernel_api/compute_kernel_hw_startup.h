// Older tt-metal path (compute_kernel_api/compute_kernel_hw_startup.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
