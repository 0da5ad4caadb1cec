// tt-metal's device buffers (tt-metalium/buffer.hpp, buffer_types.hpp). The emulator has
// interleaved DRAM buffers: page i in bank i % banks at address + (i / banks) × aligned page
// size, the same address in every bank (emulator/README.md, "Memory and the NoC").
// CreateBuffer of an L1 buffer (BufferType::L1 / L1_SMALL) or a sharded one throws Unsupported.
// A Buffer frees its DRAM when the last shared_ptr to it goes (or at DeallocateBuffer); after
// CloseDevice it only holds its numbers.
#pragma once

#include <cstdint>
#include <memory>

#include <tt-metalium/core_coord.hpp>

namespace zyx::emu {
class Device;
}

namespace tt::tt_metal {

using DeviceAddr = uint64_t;
class IDevice;

enum class BufferType { DRAM, L1, SYSTEM_MEMORY, L1_SMALL, TRACE };
enum class TensorMemoryLayout { INTERLEAVED = 0, HEIGHT_SHARDED = 2, WIDTH_SHARDED = 3, BLOCK_SHARDED = 4 };
enum class ShardOrientation { ROW_MAJOR, COL_MAJOR };

struct BufferRegion {
    DeviceAddr offset = 0;
    DeviceAddr size = 0;
    BufferRegion() = delete;
    BufferRegion(DeviceAddr offset, DeviceAddr size) : offset(offset), size(size) {}
};

struct InterleavedBufferConfig {
    IDevice* device;
    DeviceAddr size;       // bytes
    DeviceAddr page_size;  // bytes of the unit interleaved over the banks
    BufferType buffer_type;
};

// Declared so that programs naming it compile; CreateBuffer with it throws Unsupported.
struct ShardedBufferConfig {
    IDevice* device{};
    DeviceAddr size{};
    DeviceAddr page_size{};
    BufferType buffer_type = BufferType::L1;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED;
};

class Buffer {
public:
    Buffer(IDevice* device, std::weak_ptr<zyx::emu::Device> emu, uint32_t id, uint32_t address, DeviceAddr size,
           DeviceAddr page_size, uint32_t alignment);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    IDevice* device() const { return device_; }
    DeviceAddr size() const { return size_; }
    bool is_allocated() const { return allocated_; }
    uint32_t address() const { return address_; }  // in every bank
    DeviceAddr page_size() const { return page_size_; }
    uint32_t num_pages() const { return page_size_ ? uint32_t((size_ + page_size_ - 1) / page_size_) : 0; }
    BufferType buffer_type() const { return BufferType::DRAM; }
    TensorMemoryLayout buffer_layout() const { return TensorMemoryLayout::INTERLEAVED; }
    bool is_dram() const { return true; }
    bool is_l1() const { return false; }
    uint32_t alignment() const { return alignment_; }
    DeviceAddr aligned_page_size() const { return (page_size_ + alignment_ - 1) / alignment_ * alignment_; }
    bool is_valid_region(const BufferRegion& region) const { return region.offset + region.size <= size_; }

    // zyx: the emulator's id of this buffer (zyx::emu::Device::buffer_*).
    uint32_t emulator_id() const { return id_; }
    // Frees the DRAM now (DeallocateBuffer); later uses throw.
    void deallocate();

private:
    IDevice* device_;
    std::weak_ptr<zyx::emu::Device> emu_;
    uint32_t id_, address_;
    DeviceAddr size_, page_size_;
    uint32_t alignment_;
    bool allocated_ = true;
};

}  // namespace tt::tt_metal
