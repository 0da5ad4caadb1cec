// tt-metal path of BufferType and the buffer configs: see buffer.hpp.
#pragma once
#include <tt-metalium/buffer.hpp>
