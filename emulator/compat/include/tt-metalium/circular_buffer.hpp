// tt-metal path of the CB declarations: see circular_buffer_config.hpp.
#pragma once
#include <tt-metalium/circular_buffer_config.hpp>
