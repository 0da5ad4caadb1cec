// Older tt-metal path (compute_kernel_api/transpose_wh.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
