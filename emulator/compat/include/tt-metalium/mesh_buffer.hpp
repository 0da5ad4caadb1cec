// tt-metal's MeshBuffer (tt-metalium/mesh_buffer.hpp): a buffer allocated at the same address on
// every chip of a mesh. On the emulator's unit mesh it is backed by one interleaved Buffer
// (CreateBuffer(InterleavedBufferConfig), DRAM or L1, buffer.hpp). Provided: replicated buffers
// (ReplicatedBufferConfig) with a DeviceLocalBufferConfig of page_size and buffer_type. Not
// provided: mesh-sharded buffers (distributed::ShardedBufferConfig), per-device sharding
// (DeviceLocalBufferConfig::sharding_args), bottom_up / sub_device_id, and MeshBuffer views over
// an existing address (create(..., address) throws Unsupported).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>

#include <tt-metalium/buffer.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>

namespace tt::tt_metal::distributed {

// How the buffer is laid out over the banks of one chip.
struct DeviceLocalBufferConfig {
    DeviceAddr page_size = 0;
    BufferType buffer_type = BufferType::DRAM;  // DRAM or L1 (others throw Unsupported)
};

// The same `size` bytes on every chip; writes of the whole buffer go to every chip.
struct ReplicatedBufferConfig {
    DeviceAddr size = 0;
};

enum class MeshBufferLayout : uint8_t { REPLICATED, SHARDED };
using MeshBufferConfig = std::variant<ReplicatedBufferConfig>;

class MeshBuffer {
public:
    // Allocates the buffer on every chip of mesh_device. Errors as CreateBuffer's (size, page
    // size, out of memory) as tt::exception.
    static std::shared_ptr<MeshBuffer> create(const MeshBufferConfig& mesh_buffer_config,
                                              const DeviceLocalBufferConfig& device_local_config,
                                              MeshDevice* mesh_device,
                                              std::optional<DeviceAddr> address = std::nullopt);
    ~MeshBuffer();
    MeshBuffer(const MeshBuffer&) = delete;
    MeshBuffer& operator=(const MeshBuffer&) = delete;

    bool is_allocated() const;
    void deallocate();           // frees the memory now; later transfers throw
    MeshDevice* device() const;  // throws when the mesh was destroyed
    DeviceAddr size() const { return size_; }
    DeviceAddr device_local_size() const { return size_; }
    DeviceAddr address() const { return address_; }
    MeshBufferLayout global_layout() const { return MeshBufferLayout::REPLICATED; }
    const MeshBufferConfig& global_config() const { return config_; }
    const DeviceLocalBufferConfig& device_local_config() const { return local_; }
    // The chip's buffer at `device_coord` (throws outside the mesh).
    Buffer* get_device_buffer(const MeshCoordinate& device_coord) const;
    Buffer* get_reference_buffer() const { return backing_.get(); }
    Buffer* get_backing_buffer() const { return backing_.get(); }
    uint32_t page_size() const { return uint32_t(local_.page_size); }
    uint32_t num_pages() const { return page_size() == 0 ? 0 : uint32_t(size_ / page_size()); }

private:
    MeshBuffer(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local, MeshDevice* mesh,
               std::shared_ptr<Buffer> backing);

    MeshBufferConfig config_;
    DeviceLocalBufferConfig local_;
    std::weak_ptr<MeshDevice> mesh_;
    MeshShape shape_;
    DeviceAddr address_ = 0, size_ = 0;
    std::shared_ptr<Buffer> backing_;
};

}  // namespace tt::tt_metal::distributed
