// The device a runtime drives, behind one small interface. Two implementations:
//   emulator  zyx's Tensix emulator (emulator/src/emu/device.hpp), the default
//   metal     real silicon through tt-metal's mesh API; compiled only when CMake finds
//             TT-Metalium, untested without hardware (see runtime/README.md)
//
// The server checks every id, size and offset against its own records before it calls a
// target, so a target may assume its arguments are in range. A target reports failures by
// throwing zyx::Error; after a throw it must still serve every other buffer and program.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend/tenstorrent/protocol.hpp"

namespace zyx::tt::runtime {

struct TargetBuffer {
    uint64_t handle = 0;   // the target's own id
    uint32_t address = 0;  // base address kernels see (same in every DRAM bank)
};

struct TargetStats {
    uint64_t dram_bytes_allocated = 0;
    uint64_t launches = 0;
};

// A program instantiated on one grid of cores.
using TargetProgram = uint64_t;

// Per-kernel, per-core runtime args of one launch: args[kernel][core_index] where core_index =
// y * cols + x in the launch grid.
using LaunchArgs = std::vector<std::vector<std::vector<uint32_t>>>;

class Target {
public:
    virtual ~Target() = default;

    virtual std::string name() const = 0;  // "emulator" or "metal"
    virtual protocol::DeviceDesc device() const = 0;

    // Allocates `bytes` (> 0, already checked against nothing else) of interleaved DRAM in pages
    // of `page_bytes`. Throws MemoryAllocation when the device is full.
    virtual TargetBuffer buffer_alloc(uint64_t bytes, uint32_t page_bytes) = 0;
    virtual void buffer_free(uint64_t handle) = 0;
    // Host → device and back at a byte offset; the range is inside the buffer.
    virtual void buffer_write(uint64_t handle, const void* src, uint64_t bytes, uint64_t offset) = 0;
    virtual void buffer_read(uint64_t handle, void* dst, uint64_t bytes, uint64_t offset) = 0;

    // Builds `program` on the cores of `grid` (inside the device grid), compiling every kernel.
    // Throws KernelCompilation with the compiler's message, or InvalidArgument naming the CB or
    // kernel the device rejects. Called again for the same program and another grid, it must
    // not rebuild kernel binaries that are already built (both targets cache them by content).
    // `protocol_id` is the program's id in the protocol: every error about this instance (here
    // and in program_run) names the program by it, never by the target's own ids.
    virtual TargetProgram program_create(const protocol::Program& program, protocol::Grid grid,
                                         uint32_t protocol_id) = 0;
    virtual void program_free(TargetProgram p) = 0;
    // Sets the runtime args of every kernel on every core, launches, waits for completion.
    // Throws the device's error (KernelFault, Deadlock, KernelLaunch …) naming kernel and core.
    virtual void program_run(TargetProgram p, const LaunchArgs& args) = 0;

    virtual TargetStats stats() const = 0;
};

struct TargetOptions {
    std::string target = "emulator";
    std::string preset = "wormhole-n150";  // emulator only
    uint32_t device_id = 0;                // metal only: which chip
    unsigned threads = 0;                  // emulator worker threads (0 = hardware)
    bool has_schedule_seed = false;
    uint64_t schedule_seed = 0;
    bool check_races = true;  // emulator: the end-of-launch race check (emulator/README.md "Determinism")
};

// Creates the target named in `options`. Throws Initialization when it cannot be brought up and
// Unsupported when this runtime was built without it.
std::unique_ptr<Target> target_create(const TargetOptions& options);
// Names of the targets compiled into this runtime.
std::vector<std::string> target_names();

}  // namespace zyx::tt::runtime
