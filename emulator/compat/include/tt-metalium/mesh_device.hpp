// tt-metal's MeshDevice (tt-metalium/mesh_device.hpp, namespace tt::tt_metal::distributed) for
// the emulator's one chip: MeshDevice::create_unit_mesh(0) opens a 1×1 mesh over emulated device
// 0 (the preset named by ZYX_EMU_PRESET, as CreateDevice does). As in tt-metal a MeshDevice is an
// IDevice; on the emulator the unit mesh and its one chip are the same object, so get_devices()
// returns the mesh itself and a Program compiled for the mesh (detail::CompileProgram(mesh, …))
// is compiled for that chip. The chip is opened exclusively: CreateDevice(0) fails while the mesh
// is open and the other way round. Multi-chip meshes (MeshDevice::create with a MeshDeviceConfig),
// submeshes, reshape, traces, events and sub-devices are not provided.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <tt-metalium/allocator.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_coord.hpp>

namespace tt::tt_metal::distributed {

class MeshCommandQueue;
using DeviceIds = std::vector<int>;

class MeshDevice : public IDevice, public std::enable_shared_from_this<MeshDevice> {
public:
    // Opens emulated chip `device_id` (only 0 exists) as a 1×1 mesh. num_command_queues must be
    // 1 (the emulator has one in-order queue); the other parameters are accepted and ignored, as
    // CreateDevice ignores them.
    static std::shared_ptr<MeshDevice> create_unit_mesh(
        int device_id, size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
        size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE, size_t num_command_queues = 1,
        const DispatchCoreConfig& dispatch_core_config = DispatchCoreConfig{},
        tt::stl::Span<const std::uint32_t> l1_bank_remap = {}, size_t worker_l1_size = DEFAULT_WORKER_L1_SIZE);
    // Closes the mesh if still open (exceptions swallowed; call close() to see them).
    ~MeshDevice();
    MeshDevice(const MeshDevice&) = delete;
    MeshDevice& operator=(const MeshDevice&) = delete;

    // Finishes outstanding work and releases the chip; false when already closed. Throws what a
    // program in flight failed with (after closing).
    bool close();

    const MeshShape& shape() const { return shape_; }
    size_t num_devices() const { return 1; }
    size_t num_rows() const { return 1; }
    size_t num_cols() const { return 1; }
    // The chips in row-major order: this mesh itself (see above).
    std::vector<IDevice*> get_devices() const;
    IDevice* get_device(const MeshCoordinate& coord) const;  // throws outside the mesh
    IDevice* get_device(size_t row_idx, size_t col_idx) const;
    DeviceIds get_device_ids() const { return {id()}; }
    // Every chip of an emulated mesh is local; throws for a coordinate outside the mesh.
    bool is_local(const MeshCoordinate& coord) const;

    // The one command queue (cq_id 0).
    MeshCommandQueue& mesh_command_queue(std::optional<uint8_t> cq_id = std::nullopt) const;
    const std::unique_ptr<Allocator>& allocator() const { return allocator_; }

private:
    MeshDevice(ChipId id, std::shared_ptr<zyx::emu::Device> emu);

    MeshShape shape_{1, 1};
    std::unique_ptr<MeshCommandQueue> cq_;
    std::unique_ptr<Allocator> allocator_;
    bool registered_ = true;  // holds the chip's exclusive open
};

}  // namespace tt::tt_metal::distributed
