// Step 2 of the Tenstorrent code generator: the three kernel sources of a plan and the program
// that joins them (program.cpp). The sources are ordinary TT-Metalium kernels — `kernel_main`,
// TensorAccessor reads and writes one page per NoC transfer, the compute API — so the `metal`
// target would run them on silicon as the emulator runs them here.
//
// Runtime arguments (the protocol's runtime-arg layout fills them per core):
//   reader   core index, core count, the address of every kernel input (in input order)
//   compute  core index, core count, every launch scalar (32-bit words)
//   writer   core index, core count, the output's address
// Compile-time arguments: the TensorAccessorArgs of every input (reader), of the output (writer).
// Each kernel finds its range of output tiles from its core index (emit_work_split), the same
// way in all three.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

#include "backend/tenstorrent/codegen/ops.hpp"
#include "backend/tenstorrent/codegen/plan.hpp"

namespace zyx::tt::codegen {

std::string reader_source(const Plan& p);
std::string compute_source(const Plan& p);
std::string writer_source(const Plan& p);
// The program: kernels, circular buffers, runtime-arg layouts, grid, compute configuration.
protocol::Program make_program(const Plan& p);

const char* skeleton_name(Skeleton s);
// `start` and `count`: this core's output tiles out of `tiles`, split as evenly as possible
// (the first `tiles % cores` cores take one more), from runtime args 0 and 1.
void emit_work_split(std::ostringstream& os, const std::string& ind, uint64_t tiles);
// copy_tile of the front tile of `cb` into DST `slot`, with its init.
void emit_copy_tile(std::ostringstream& os, const std::string& ind, InitTracker& inits, uint32_t cb, uint32_t slot);

}  // namespace zyx::tt::codegen
