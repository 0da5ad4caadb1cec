// Older tt-metal path.
#pragma once
#include "api/compute/eltwise_unary/sfpu_split_includes.h"
