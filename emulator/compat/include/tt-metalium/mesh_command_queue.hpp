// tt-metal's MeshCommandQueue (tt-metalium/mesh_command_queue.hpp) of an emulated unit mesh: the
// chip's in-order queue (command_queue.hpp). Writes and reads complete before they return
// whatever `blocking` says; enqueue_mesh_workload starts the program and returns (blocking =
// false) or waits for it; finish() waits and throws what a program failed with. Events, traces
// and enqueue_write_shard_to_sub_grid are not provided.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tt-metalium/buffer.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/mesh_workload.hpp>

namespace tt::tt_metal::distributed {

class MeshCommandQueue {
public:
    MeshCommandQueue(MeshDevice* mesh_device, uint32_t id) : mesh_device_(mesh_device), id_(id) {}
    MeshDevice* device() const { return mesh_device_; }
    uint32_t id() const { return id_; }

    // Runs every program of the workload on its range (the whole workload must lie in the mesh).
    void enqueue_mesh_workload(MeshWorkload& mesh_workload, bool blocking);

    // Host data for one shard of a MeshBuffer: the whole shard, or `region` of it. As tt-metal
    // requires for a region of an interleaved buffer, its offset and size are whole pages and it
    // lies inside the buffer.
    struct ShardDataTransfer {
        MeshCoordinate shard_coord;
        void* host_data = nullptr;
        std::optional<BufferRegion> region;
    };

    // Writes buffer.size() bytes from host_data to every chip.
    void enqueue_write_mesh_buffer(const std::shared_ptr<MeshBuffer>& buffer, const void* host_data, bool blocking);
    void enqueue_write_shards(const std::shared_ptr<MeshBuffer>& mesh_buffer,
                              const std::vector<ShardDataTransfer>& shard_data_transfers, bool blocking);
    // Reads buffer.size() bytes (a replicated buffer: from the chip at (0, 0)).
    void enqueue_read_mesh_buffer(void* host_data, const std::shared_ptr<MeshBuffer>& buffer, bool blocking);
    void enqueue_read_shards(const std::vector<ShardDataTransfer>& shard_data_transfers,
                             const std::shared_ptr<MeshBuffer>& mesh_buffer, bool blocking);
    void finish(tt::stl::Span<const SubDeviceId> sub_device_ids = {});

private:
    MeshDevice* mesh_device_;
    uint32_t id_;
};

}  // namespace tt::tt_metal::distributed
