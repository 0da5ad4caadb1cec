// The devices the scheduler can place kernels and buffers on, one slot per zyx::Device.
//
//   host         the JIT host backend (src/backend/host) when it is built, else an interpreter
//   interpreter  the reference interpreter over host memory (always there)
//   tt:N         Tenstorrent device N through src/backend/tenstorrent, opened on first use when
//                that backend is built and config.json enables it
//
// Slots live for the whole process (never destroyed, so tensors that die during exit can still
// release their buffers). All functions expect graph::runtime_mutex() to be held.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "backend/backend.hpp"
#include "kernel/kernel.hpp"
#include "zyx/device.hpp"

namespace zyx::sched {

struct DeviceSlot {
    Device device;
    backend::Device* backend = nullptr;   // compiles and launches
    backend::MemoryPool* pool = nullptr;  // holds the buffers
    bool host_memory = false;             // buffers are host-addressable (host, interpreter)
    // Programs compiled on this device, by kernel structure (kernel_hash + equality).
    std::unordered_map<kernel::Kernel, backend::ProgramId, kernel::KernelHash> programs;
};

// The slot of `d`, opening the device on first use. Throws Initialization naming the device
// when it cannot be opened (backend not built, disabled in config.json, no runtime executable)
// or the backend's own error (DeviceBusy, …); a later call tries again.
DeviceSlot& device_slot(Device d);

// Compiles `kernels` on `slot`'s device in order through Device::compile_batch (one compiler
// run for all of them on the host JIT backend; one compile() each by default).
std::vector<backend::ProgramId> compile_kernels(DeviceSlot& slot, const std::vector<const kernel::Kernel*>& kernels);

// Which backend serves Device::host(): "host-jit" or "interpreter".
const char* host_backend_name();

}  // namespace zyx::sched
