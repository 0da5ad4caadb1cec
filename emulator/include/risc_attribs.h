// Older tt-metal path.
#pragma once
#include "internal/risc_attribs.h"
