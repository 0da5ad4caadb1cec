// Older tt-metal path of DataMovementProcessor, NOC, NOC_MODE: see kernel_types.hpp.
#pragma once
#include <tt-metalium/kernel_types.hpp>
