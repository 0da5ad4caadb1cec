// Older tt-metal path (compute_kernel_api/bcast.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
