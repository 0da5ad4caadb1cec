// Older tt-metal path (compute_kernel_api/tile_move_copy.h).
#pragma once
#include "api/compute/compute_kernel_api.h"
