// A compiled program: its kernels (loaded shared objects), circular-buffer plan, semaphores and
// runtime args. Built by Device::program_create (program.cpp).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "emu/device.hpp"
#include "jit/jit.hpp"

namespace zyx::emu {

struct KernelBinary {
    std::string name;
    KernelKind kind = KernelKind::data_movement_0;
    uint32_t slot = 0;  // 0 BRISC, 1 NCRISC, 2 compute: where its args live in L1
    uint8_t noc = 0;
    ComputeConfig compute;
    std::string so_path;
    jit::Library lib;
    void (*entry)() = nullptr;
};

struct CbPlacement {
    uint32_t index;
    DataFormat format;
    uint32_t page_bytes, num_pages;
    uint32_t offset;      // L1 offset of the FIFO start (same on every core of the CB's range)
    uint32_t spec;        // index in ProgramSpec::cbs (aliases of one config share it)
    int64_t buffer = -1;  // >= 0: placed on this L1 buffer; `offset` is set at each launch
};

struct Program {
    ProgramSpec spec;
    std::vector<std::unique_ptr<KernelBinary>> kernels;
    // Per core (index y * grid_x + x): kernel index per slot (-1: none), CBs, semaphore values.
    std::vector<std::array<int, 3>> core_kernels;
    std::vector<std::vector<CbPlacement>> core_cbs;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> core_semaphores;  // (id, initial value)
    // Runtime args: rt_args[kernel][core], common_args[kernel].
    std::vector<std::vector<std::vector<uint32_t>>> rt_args;
    std::vector<std::vector<uint32_t>> common_args;
};

// Before a launch (the device lock held): places the CBs that name an L1 buffer at that
// buffer's address and checks every statically placed CB against the live L1 buffers. Throws
// InvalidArgument naming the CB, the core and the buffer.
void program_place_l1(Device::Impl& d, Program& p, ProgramId id);

// Compiles one kernel source for the emulator (through the JIT cache) and loads it. Throws
// KernelCompilation with the compiler's message, Unsupported for kernels with mutable globals.
std::unique_ptr<KernelBinary> kernel_compile(const KernelSpec& spec, const DeviceSpec& device);

}  // namespace zyx::emu
