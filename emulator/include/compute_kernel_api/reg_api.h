// Older tt-metal path (compute_kernel_api/reg_api.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
