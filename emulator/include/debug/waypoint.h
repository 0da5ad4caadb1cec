// Older tt-metal path.
#pragma once
#include "api/debug/waypoint.h"
