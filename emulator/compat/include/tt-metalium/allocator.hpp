// tt-metal's Allocator (tt-metalium/allocator.hpp), reached through MeshDevice::allocator(): the
// facts of the emulated chip's bank allocator a host program may ask. Allocation itself goes
// through CreateBuffer / MeshBuffer::create.
#pragma once

#include <cstdint>

#include <tt-metalium/hal_types.hpp>

namespace tt::tt_metal {

using DeviceAddr = uint64_t;
class IDevice;

class Allocator {
public:
    explicit Allocator(const IDevice* device) : device_(device) {}
    // HalMemType::L1: the first L1 byte buffers and circular buffers may use (below it sit
    // firmware, mailboxes and the kernel config area) — the emulator preset's
    // l1_unreserved_base. DRAM and HOST throw Unsupported: the emulator does not publish its
    // DRAM allocator's base.
    DeviceAddr get_base_allocator_addr(const HalMemType& mem_type) const;

private:
    const IDevice* device_;
};

}  // namespace tt::tt_metal
