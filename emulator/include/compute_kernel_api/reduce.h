// Older tt-metal path (compute_kernel_api/reduce.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
