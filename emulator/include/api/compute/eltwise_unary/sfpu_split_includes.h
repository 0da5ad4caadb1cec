// tt-metal path api/compute/eltwise_unary/sfpu_split_includes.h. In tt-metal it includes the
// op headers selected by SFPU_OP_*_INCLUDE defines; here every SFPU op is always declared.
#pragma once
#include "api/compute/compute_kernel_api.h"
