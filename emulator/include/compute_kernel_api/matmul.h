// Older tt-metal path (compute_kernel_api/matmul.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
