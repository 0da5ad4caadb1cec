// tt-metal's device buffers (tt-metalium/buffer.hpp, buffer_types.hpp): interleaved DRAM and L1
// buffers (page i in bank i % banks at address + (i / banks) × aligned page size, the same
// address in every bank; L1 bank b is worker core b, row-major) and height-, width- and
// block-sharded L1 buffers (ShardSpecBuffer), laid out as zyx::emu::Device lays them out
// (emulator/src/emu/device.hpp, emulator/README.md "L1 buffers"). L1_SMALL, SYSTEM_MEMORY,
// TRACE and sharded DRAM buffers throw Unsupported. A Buffer frees its memory when the last
// shared_ptr to it goes (or at DeallocateBuffer); after CloseDevice it only holds its numbers.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>

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

// tt-metal's ShardSpec: the cores, the shard shape in elements (height, width) and the order in
// which shards are laid onto the cores.
struct ShardSpec {
    CoreRangeSet grid;
    std::array<uint32_t, 2> shape{};
    ShardOrientation orientation = ShardOrientation::ROW_MAJOR;
    ShardSpec(const CoreRangeSet& core_sets, const std::array<uint32_t, 2>& shard_shape,
              const ShardOrientation& shard_orientation = ShardOrientation::ROW_MAJOR)
        : grid(core_sets), shape(shard_shape), orientation(shard_orientation) {}
    uint32_t num_cores() const { return uint32_t(grid.num_cores()); }
    uint32_t numel() const { return shape[0] * shape[1]; }
};

// tt-metal's ShardSpecBuffer: a ShardSpec plus the page shape (elements) and the tensor's 2-D
// shape in pages.
struct ShardSpecBuffer {
    ShardSpec tensor_shard_spec;
    std::array<uint32_t, 2> page_shape{};
    std::array<uint32_t, 2> tensor2d_shape_in_pages{};
    ShardSpecBuffer(const CoreRangeSet& core_sets, const std::array<uint32_t, 2>& shard_shape,
                    const ShardOrientation& shard_orientation, const std::array<uint32_t, 2>& page_shape_,
                    const std::array<uint32_t, 2>& tensor2d_shape_in_pages_)
        : tensor_shard_spec(core_sets, shard_shape, shard_orientation),
          page_shape(page_shape_),
          tensor2d_shape_in_pages(tensor2d_shape_in_pages_) {}
    ShardSpecBuffer(const ShardSpec& shard_spec, const std::array<uint32_t, 2>& page_shape_,
                    const std::array<uint32_t, 2>& tensor2d_shape_in_pages_)
        : tensor_shard_spec(shard_spec), page_shape(page_shape_), tensor2d_shape_in_pages(tensor2d_shape_in_pages_) {}
    CoreRangeSet grid() const { return tensor_shard_spec.grid; }
    std::array<uint32_t, 2> shape() const { return tensor_shard_spec.shape; }
    ShardOrientation orientation() const { return tensor_shard_spec.orientation; }
    void set_shard_spec(const ShardSpec& shard_spec) { tensor_shard_spec = shard_spec; }
    std::array<uint32_t, 2> shape_in_pages() const {
        return {page_shape[0] ? shape()[0] / page_shape[0] : 0, page_shape[1] ? shape()[1] / page_shape[1] : 0};
    }
    DeviceAddr num_pages() const { return DeviceAddr(shape_in_pages()[0]) * shape_in_pages()[1]; }
};

struct ShardedBufferConfig {
    IDevice* device{};
    DeviceAddr size{};
    DeviceAddr page_size{};
    BufferType buffer_type = BufferType::L1;
    TensorMemoryLayout buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED;
    ShardSpecBuffer shard_parameters;
};

class Buffer {
public:
    Buffer(IDevice* device, std::weak_ptr<zyx::emu::Device> emu, uint32_t id, uint32_t address, DeviceAddr size,
           DeviceAddr page_size, uint32_t alignment, BufferType type = BufferType::DRAM,
           TensorMemoryLayout layout = TensorMemoryLayout::INTERLEAVED,
           std::optional<ShardSpecBuffer> shard = std::nullopt);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    IDevice* device() const { return device_; }
    DeviceAddr size() const { return size_; }
    bool is_allocated() const { return allocated_; }
    uint32_t address() const { return address_; }  // in every bank
    DeviceAddr page_size() const { return page_size_; }
    uint32_t num_pages() const { return page_size_ ? uint32_t((size_ + page_size_ - 1) / page_size_) : 0; }
    BufferType buffer_type() const { return type_; }
    TensorMemoryLayout buffer_layout() const { return layout_; }
    bool is_dram() const { return type_ == BufferType::DRAM; }
    bool is_l1() const { return type_ == BufferType::L1; }
    bool is_sharded() const { return layout_ != TensorMemoryLayout::INTERLEAVED; }
    // Sharded buffers only (tt-metal throws for interleaved ones too).
    const ShardSpecBuffer& shard_spec() const;
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
    BufferType type_;
    TensorMemoryLayout layout_;
    std::optional<ShardSpecBuffer> shard_;
    bool allocated_ = true;
};

}  // namespace tt::tt_metal
