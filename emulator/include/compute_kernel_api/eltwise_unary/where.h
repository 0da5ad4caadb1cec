// Older tt-metal path.
#pragma once
#include "api/compute/compute_kernel_api.h"
