// tt-metal's MeshDevice / distributed host API (mesh_device.hpp, mesh_buffer.hpp,
// mesh_workload.hpp, mesh_command_queue.hpp, distributed.hpp) over the compat layer's single
// device: the unit mesh is the emulated chip's IDevice, its MeshCommandQueue that chip's
// in-order queue, a MeshBuffer one interleaved Buffer and a MeshWorkload's program an ordinary
// Program enqueued on the chip.
#include <tt-metalium/allocator.hpp>
#include <tt-metalium/distributed.hpp>
#include <umd/device/cluster.h>

#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "device_registry.hpp"
#include "emu/device.hpp"

namespace tt::tt_metal {

namespace {

[[noreturn]] void unsupported(const char* call, const std::string& what) {
    ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_THROW", call, "Unsupported: " + what, "unsupported");
}

// Runs f, turning an emulator error into tt::exception as tt-metal's TT_FATAL would at `call`.
template <class F>
void guarded(const char* call, F&& f) {
    try {
        f();
    } catch (const ::zyx::Error& e) {
        ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_FATAL", call, e.message(),
                                      std::string(::zyx::error_status_name(e.status())).c_str());
    }
}

}  // namespace

DeviceAddr Allocator::get_base_allocator_addr(const HalMemType& mem_type) const {
    if (mem_type != HalMemType::L1)
        unsupported(
            "Allocator::get_base_allocator_addr",
            "HalMemType " + std::to_string(int(mem_type)) + ": the emulator publishes the allocator base of L1 only");
    return device_->emulator().spec().l1_unreserved_base;
}

namespace distributed {

// ---- coordinates ------------------------------------------------------------------------------

namespace {
uint32_t pick(const uint32_t (&v)[2], int32_t dim, const char* what) {
    TT_FATAL(dim >= -2 && dim < 2, "{} index {} is out of range for 2 dimensions", what, dim);
    return v[dim < 0 ? dim + 2 : dim];
}
}  // namespace

uint32_t MeshShape::operator[](int32_t dim) const { return pick(dims_, dim, "MeshShape"); }
uint32_t MeshCoordinate::operator[](int32_t dim) const { return pick(coords_, dim, "MeshCoordinate"); }
std::string MeshCoordinate::str() const {
    return "MeshCoordinate([" + std::to_string(coords_[0]) + ", " + std::to_string(coords_[1]) + "])";
}

MeshCoordinateRange::MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end)
    : start_(start), end_(end) {
    TT_FATAL(start[0] <= end[0] && start[1] <= end[1], "MeshCoordinateRange: start {} is past end {}", start.str(),
             end.str());
}

MeshCoordinateRange::MeshCoordinateRange(const MeshShape& shape) : start_(0, 0), end_(0, 0) {
    TT_FATAL(shape[0] > 0 && shape[1] > 0, "MeshCoordinateRange of an empty mesh shape ({}x{})", shape[0], shape[1]);
    end_ = MeshCoordinate(shape[0] - 1, shape[1] - 1);
}

bool MeshCoordinateRange::contains(const MeshCoordinate& c) const {
    return c[0] >= start_[0] && c[0] <= end_[0] && c[1] >= start_[1] && c[1] <= end_[1];
}

// ---- MeshDevice -------------------------------------------------------------------------------

MeshDevice::MeshDevice(ChipId id, std::shared_ptr<zyx::emu::Device> emu)
    : IDevice(id, std::move(emu)),
      cq_(std::make_unique<MeshCommandQueue>(this, 0)),
      allocator_(std::make_unique<Allocator>(this)) {}

std::shared_ptr<MeshDevice> MeshDevice::create_unit_mesh(int device_id, size_t, size_t, size_t num_command_queues,
                                                         const DispatchCoreConfig&, tt::stl::Span<const std::uint32_t>,
                                                         size_t) {
    TT_FATAL(num_command_queues == 1, "MeshDevice::create_unit_mesh: {} command queues; the emulator has 1",
             num_command_queues);
    MeshDevice* mesh = nullptr;
    compat::open_device(device_id, [&](ChipId id, std::shared_ptr<zyx::emu::Device> e) {
        mesh = new MeshDevice(id, std::move(e));
        return mesh;
    });
    return std::shared_ptr<MeshDevice>(mesh);
}

MeshDevice::~MeshDevice() {
    try {
        close();
    } catch (const std::exception&) {}
}

bool MeshDevice::close() {
    if (registered_) {
        compat::forget_device(this);
        registered_ = false;
    }
    return IDevice::close();
}

std::vector<IDevice*> MeshDevice::get_devices() const { return {const_cast<MeshDevice*>(this)}; }

IDevice* MeshDevice::get_device(const MeshCoordinate& coord) const {
    TT_FATAL(MeshCoordinateRange(shape_).contains(coord), "MeshDevice: {} is outside the {}x{} mesh", coord.str(),
             shape_[0], shape_[1]);
    return const_cast<MeshDevice*>(this);
}

IDevice* MeshDevice::get_device(size_t row_idx, size_t col_idx) const {
    return get_device(MeshCoordinate(uint32_t(row_idx), uint32_t(col_idx)));
}

bool MeshDevice::is_local(const MeshCoordinate& coord) const { return get_device(coord) != nullptr; }

MeshCommandQueue& MeshDevice::mesh_command_queue(std::optional<uint8_t> cq_id) const {
    TT_FATAL(!cq_id || *cq_id == 0, "MeshDevice has 1 command queue; cq_id {} does not exist", *cq_id);
    return *cq_;
}

// ---- MeshBuffer -------------------------------------------------------------------------------

MeshBuffer::MeshBuffer(const MeshBufferConfig& config, const DeviceLocalBufferConfig& local, MeshDevice* mesh,
                       std::shared_ptr<Buffer> backing)
    : config_(config),
      local_(local),
      mesh_(mesh->shared_from_this()),
      shape_(mesh->shape()),
      address_(backing->address()),
      size_(backing->size()),
      backing_(std::move(backing)) {}

std::shared_ptr<MeshBuffer> MeshBuffer::create(const MeshBufferConfig& mesh_buffer_config,
                                               const DeviceLocalBufferConfig& device_local_config,
                                               MeshDevice* mesh_device, std::optional<DeviceAddr> address) {
    TT_FATAL(mesh_device != nullptr, "MeshBuffer::create: the mesh device is null");
    if (address)
        unsupported("MeshBuffer::create",
                    "a MeshBuffer over an existing address (" + std::to_string(*address) +
                        "): the emulator allocates every buffer itself");
    const auto& rep = std::get<ReplicatedBufferConfig>(mesh_buffer_config);
    auto backing = CreateBuffer(InterleavedBufferConfig{.device = mesh_device,
                                                        .size = rep.size,
                                                        .page_size = device_local_config.page_size,
                                                        .buffer_type = device_local_config.buffer_type});
    return std::shared_ptr<MeshBuffer>(
        new MeshBuffer(mesh_buffer_config, device_local_config, mesh_device, std::move(backing)));
}

MeshBuffer::~MeshBuffer() = default;

bool MeshBuffer::is_allocated() const { return backing_->is_allocated(); }
void MeshBuffer::deallocate() { backing_->deallocate(); }

MeshDevice* MeshBuffer::device() const {
    auto mesh = mesh_.lock();
    TT_FATAL(mesh != nullptr, "MeshBuffer at address {}: its MeshDevice was destroyed", address_);
    return mesh.get();
}

Buffer* MeshBuffer::get_device_buffer(const MeshCoordinate& device_coord) const {
    TT_FATAL(MeshCoordinateRange(shape_).contains(device_coord), "MeshBuffer: {} is outside the {}x{} mesh",
             device_coord.str(), shape_[0], shape_[1]);
    return backing_.get();
}

// ---- MeshWorkload -----------------------------------------------------------------------------

MeshWorkload::MeshWorkload(Program&& program, const MeshCoordinateRange& device_range) {
    add_program(device_range, std::move(program));
}

void MeshWorkload::add_program(const MeshCoordinateRange& device_range, Program&& program) {
    for (const auto& [range, p] : programs_) {
        const bool apart = device_range.end_coord()[0] < range.start_coord()[0] ||
            range.end_coord()[0] < device_range.start_coord()[0] ||
            device_range.end_coord()[1] < range.start_coord()[1] ||
            range.end_coord()[1] < device_range.start_coord()[1];
        TT_FATAL(apart, "MeshWorkload: the range {}..{} overlaps the range {}..{} of a program already added",
                 device_range.start_coord().str(), device_range.end_coord().str(), range.start_coord().str(),
                 range.end_coord().str());
    }
    programs_.emplace(device_range, std::move(program));
}

MeshWorkload CreateMeshWorkload() { return MeshWorkload(); }

void AddProgramToMeshWorkload(MeshWorkload& mesh_workload, Program&& program, const MeshCoordinateRange& device_range) {
    mesh_workload.add_program(device_range, std::move(program));
}

// ---- MeshCommandQueue -------------------------------------------------------------------------

namespace {

// The chip buffer behind `buffer` on `mesh`, after checking it may be used there.
Buffer& usable(MeshDevice* mesh, const std::shared_ptr<MeshBuffer>& buffer, const char* call) {
    TT_FATAL(buffer != nullptr, "{}: the MeshBuffer is null", call);
    TT_FATAL(buffer->device() == mesh, "{}: the MeshBuffer belongs to another MeshDevice", call);
    TT_FATAL(buffer->is_allocated(), "{}: the MeshBuffer at address {} was deallocated", call, buffer->address());
    return *buffer->get_backing_buffer();
}

// [offset, offset + bytes) of the shard: the whole shard, or a region of whole pages inside it.
std::pair<uint64_t, uint64_t> shard_span(const Buffer& b, const std::optional<BufferRegion>& region, const char* call) {
    if (!region) return {0, b.size()};
    TT_FATAL(b.is_valid_region(*region), "{}: region [{}, {}) is outside the buffer of {} B", call, region->offset,
             region->offset + region->size, b.size());
    TT_FATAL(region->offset % b.page_size() == 0 && region->size % b.page_size() == 0,
             "{}: region offset {} and size {} must be whole pages of {} B", call, region->offset, region->size,
             b.page_size());
    return {region->offset, region->size};
}

void transfer(MeshDevice* mesh, const std::shared_ptr<MeshBuffer>& buffer,
              const std::vector<MeshCommandQueue::ShardDataTransfer>& transfers, bool write, const char* call) {
    Buffer& b = usable(mesh, buffer, call);
    const MeshCoordinateRange all(mesh->shape());
    for (const auto& t : transfers) {
        TT_FATAL(all.contains(t.shard_coord), "{}: shard {} is outside the {}x{} mesh", call, t.shard_coord.str(),
                 mesh->shape()[0], mesh->shape()[1]);
        TT_FATAL(t.host_data != nullptr, "{}: null host data for shard {}", call, t.shard_coord.str());
        const auto [offset, bytes] = shard_span(b, t.region, call);
        mesh->queue_wait();
        guarded(call, [&] {
            if (write)
                mesh->emulator().buffer_write(b.emulator_id(), t.host_data, bytes, offset);
            else
                mesh->emulator().buffer_read(b.emulator_id(), t.host_data, bytes, offset);
        });
    }
}

}  // namespace

void MeshCommandQueue::enqueue_mesh_workload(MeshWorkload& mesh_workload, bool blocking) {
    TT_FATAL(!mesh_workload.get_programs().empty(), "EnqueueMeshWorkload: the MeshWorkload has no programs");
    const MeshCoordinateRange all(mesh_device_->shape());
    for (const auto& [range, program] : mesh_workload.get_programs())
        TT_FATAL(all.contains(range), "EnqueueMeshWorkload: program range {}..{} is outside the {}x{} mesh",
                 range.start_coord().str(), range.end_coord().str(), mesh_device_->shape()[0],
                 mesh_device_->shape()[1]);
    for (auto& [range, program] : mesh_workload.get_programs())
        EnqueueProgram(mesh_device_->command_queue(), program, blocking);
}

void MeshCommandQueue::enqueue_write_mesh_buffer(const std::shared_ptr<MeshBuffer>& buffer, const void* host_data,
                                                 bool blocking) {
    std::vector<ShardDataTransfer> t;
    for (uint32_t r = 0; r < mesh_device_->shape()[0]; ++r)
        for (uint32_t c = 0; c < mesh_device_->shape()[1]; ++c)
            t.push_back({MeshCoordinate(r, c), const_cast<void*>(host_data), std::nullopt});
    transfer(mesh_device_, buffer, t, true, "EnqueueWriteMeshBuffer");
    if (blocking) finish();
}

void MeshCommandQueue::enqueue_write_shards(const std::shared_ptr<MeshBuffer>& mesh_buffer,
                                            const std::vector<ShardDataTransfer>& shard_data_transfers, bool blocking) {
    transfer(mesh_device_, mesh_buffer, shard_data_transfers, true, "enqueue_write_shards");
    if (blocking) finish();
}

void MeshCommandQueue::enqueue_read_mesh_buffer(void* host_data, const std::shared_ptr<MeshBuffer>& buffer, bool) {
    transfer(mesh_device_, buffer, {{MeshCoordinate(0, 0), host_data, std::nullopt}}, false, "EnqueueReadMeshBuffer");
}

void MeshCommandQueue::enqueue_read_shards(const std::vector<ShardDataTransfer>& shard_data_transfers,
                                           const std::shared_ptr<MeshBuffer>& mesh_buffer, bool) {
    transfer(mesh_device_, mesh_buffer, shard_data_transfers, false, "enqueue_read_shards");
}

void MeshCommandQueue::finish(tt::stl::Span<const SubDeviceId>) { mesh_device_->queue_wait(); }

void EnqueueMeshWorkload(MeshCommandQueue& mesh_cq, MeshWorkload& mesh_workload, bool blocking) {
    mesh_cq.enqueue_mesh_workload(mesh_workload, blocking);
}

void Finish(MeshCommandQueue& mesh_cq, tt::stl::Span<const SubDeviceId> sub_device_ids) {
    mesh_cq.finish(sub_device_ids);
}

void Synchronize(MeshDevice* device, std::optional<uint8_t> cq_id, tt::stl::Span<const SubDeviceId> sub_device_ids) {
    TT_FATAL(device != nullptr, "Synchronize of a null MeshDevice");
    device->mesh_command_queue(cq_id).finish(sub_device_ids);
}

}  // namespace distributed
}  // namespace tt::tt_metal

// ---- UMD --------------------------------------------------------------------------------------

tt::ARCH tt_ClusterDescriptor::get_arch(chip_id_t chip_id) const {
    TT_FATAL(all_chips_.count(chip_id) == 1, "Chip {} is not in the cluster (the emulator has chip 0)", chip_id);
    return arch_;
}

std::unique_ptr<tt_ClusterDescriptor> tt::umd::Cluster::create_cluster_descriptor() {
    const char* preset = std::getenv("ZYX_EMU_PRESET");
    tt::ARCH arch = tt::ARCH::Invalid;
    tt::tt_metal::guarded("create_cluster_descriptor", [&] {
        arch = zyx::emu::preset(preset && *preset ? preset : "wormhole-n150").arch == zyx::emu::Arch::Blackhole
            ? tt::ARCH::BLACKHOLE
            : tt::ARCH::WORMHOLE_B0;
    });
    return std::make_unique<tt_ClusterDescriptor>(arch);
}
