// tt-metal's host-side CB count (tt-metalium/circular_buffer_constants.h): the host sizes its
// tables for 64; a device accepts indices below its own count (Wormhole 32, Blackhole 64).
#pragma once

#include <cstdint>

constexpr static std::uint32_t NUM_CIRCULAR_BUFFERS = 64;
