// tt-metal path experimental/noc.h: the Device 2.0 object API, all of it in zyx_emu/device2_api.h.
#pragma once
#include "zyx_emu/device2_api.h"
