// tt-metal's distributed host API (tt-metalium/distributed.hpp) over an emulated unit mesh:
// MeshWorkload helpers, shard and mesh-buffer transfers, EnqueueMeshWorkload, Finish and
// Synchronize. Events, traces and sockets are not provided.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tt-metalium/assert.hpp>
#include <tt-metalium/buffer.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_command_queue.hpp>
#include <tt-metalium/mesh_coord.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/mesh_workload.hpp>

namespace tt::tt_metal::distributed {

MeshWorkload CreateMeshWorkload();
void AddProgramToMeshWorkload(MeshWorkload& mesh_workload, Program&& program, const MeshCoordinateRange& device_range);
void EnqueueMeshWorkload(MeshCommandQueue& mesh_cq, MeshWorkload& mesh_workload, bool blocking);

// Writes src (at least one shard's bytes) to the shard at coord.
template <typename DType>
void WriteShard(MeshCommandQueue& mesh_cq, const std::shared_ptr<MeshBuffer>& mesh_buffer, std::vector<DType>& src,
                const MeshCoordinate& coord, bool blocking = false) {
    TT_FATAL(src.size() * sizeof(DType) >= mesh_buffer->size(), "WriteShard: {} B of host data for a shard of {} B",
             src.size() * sizeof(DType), mesh_buffer->size());
    std::vector<MeshCommandQueue::ShardDataTransfer> t = {
        {.shard_coord = coord, .host_data = src.data(), .region = std::nullopt}};
    mesh_cq.enqueue_write_shards(mesh_buffer, t, blocking);
}

// Resizes dst to the shard's pages and reads the shard at coord.
template <typename DType>
void ReadShard(MeshCommandQueue& mesh_cq, std::vector<DType>& dst, const std::shared_ptr<MeshBuffer>& mesh_buffer,
               const MeshCoordinate& coord, bool blocking = true) {
    if (!mesh_cq.device()->is_local(coord)) return;
    Buffer* shard = mesh_buffer->get_device_buffer(coord);
    dst.resize(shard->page_size() * shard->num_pages() / sizeof(DType));
    std::vector<MeshCommandQueue::ShardDataTransfer> t = {
        {.shard_coord = coord, .host_data = dst.data(), .region = std::nullopt}};
    mesh_cq.enqueue_read_shards(t, mesh_buffer, blocking);
}

// Writes src (at least buffer.size() bytes) to every chip of a replicated buffer.
template <typename DType>
void EnqueueWriteMeshBuffer(MeshCommandQueue& mesh_cq, std::shared_ptr<MeshBuffer>& mesh_buffer,
                            const std::vector<DType>& src, bool blocking = false) {
    TT_FATAL(src.size() * sizeof(DType) >= mesh_buffer->size(),
             "EnqueueWriteMeshBuffer: {} B of host data for a buffer of {} B", src.size() * sizeof(DType),
             mesh_buffer->size());
    mesh_cq.enqueue_write_mesh_buffer(mesh_buffer, src.data(), blocking);
}

// Reads a replicated buffer of a one-chip mesh into dst, which must already hold buffer.size()
// bytes (tt-metal resizes dst only for sharded buffers).
template <typename DType>
void EnqueueReadMeshBuffer(MeshCommandQueue& mesh_cq, std::vector<DType>& dst, std::shared_ptr<MeshBuffer>& mesh_buffer,
                           bool blocking = true) {
    TT_FATAL(mesh_buffer->device()->num_devices() == 1, "Can only read a Sharded MeshBuffer from a MeshDevice.");
    TT_FATAL(dst.size() * sizeof(DType) >= mesh_buffer->size(),
             "EnqueueReadMeshBuffer: a host vector of {} B for a buffer of {} B", dst.size() * sizeof(DType),
             mesh_buffer->size());
    mesh_cq.enqueue_read_mesh_buffer(dst.data(), mesh_buffer, blocking);
}

// Waits for the mesh's queue (cq_id 0 or unset).
void Synchronize(MeshDevice* device, std::optional<uint8_t> cq_id,
                 tt::stl::Span<const SubDeviceId> sub_device_ids = {});
void Finish(MeshCommandQueue& mesh_cq, tt::stl::Span<const SubDeviceId> sub_device_ids = {});

}  // namespace tt::tt_metal::distributed
