// tt-metal path api/debug/device_print.h: DEVICE_PRINT and the format form of DPRINT live in
// api/debug/dprint.h here (one header serves both generations).
#pragma once
#include "api/debug/dprint.h"
