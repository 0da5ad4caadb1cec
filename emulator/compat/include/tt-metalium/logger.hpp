// Older tt-metal path of the logger: see tt-logger/tt-logger.hpp.
#pragma once
#include <tt-logger/tt-logger.hpp>
