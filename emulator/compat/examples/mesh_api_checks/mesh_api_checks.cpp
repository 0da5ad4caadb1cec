// The MeshDevice layer's contract beyond the happy path (emulator/README.md, "MeshDevice and the
// distributed API"), each item checked and reported: the chip opens once (mesh or CreateDevice);
// coordinates outside the 1×1 mesh, overlapping workload ranges, regions that are not whole
// pages and short host vectors throw tt::exception naming the problem; a region write touches
// only its pages; the allocator reports the preset's L1 base; UMD sees one chip behind no PCIe
// node. Exits non-zero when any check fails.
#include <cstdio>
#include <cstring>
#include <string>

#include <tt-metalium/allocator.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <umd/device/cluster.h>

using namespace tt;
using namespace tt::tt_metal;
namespace td = tt::tt_metal::distributed;

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) ++failures;
    std::printf("%s: %s\n", ok ? "ok  " : "FAIL", what.c_str());  // allow-print: the check report
}

// Runs f; true when it throws tt::exception whose text contains `needle`.
template <class F>
bool throws_with(F&& f, const char* needle) {
    try {
        f();
    } catch (const tt::exception& e) {
        if (std::strstr(e.what(), needle)) return true;
        std::printf("      unexpected message: %s\n", e.what());  // allow-print: the check report
        return false;
    }
    return false;
}

}  // namespace

int main() {
    auto desc = tt::umd::Cluster::create_cluster_descriptor();
    check(desc->get_number_of_chips() == 1 && desc->get_chips_with_mmio().empty(),
          "UMD: one chip, behind no /dev/tenstorrent node");

    std::shared_ptr<td::MeshDevice> mesh = td::MeshDevice::create_unit_mesh(0);
    check(throws_with([] { td::MeshDevice::create_unit_mesh(0); }, "already open"), "a second unit mesh is refused");
    check(throws_with([] { CreateDevice(0); }, "already open"), "CreateDevice while the mesh is open is refused");
    check(throws_with([] { td::MeshDevice::create_unit_mesh(1); }, "out of range"), "device 1 does not exist");
    check(mesh->shape() == td::MeshShape(1, 1) && mesh->num_devices() == 1 && mesh->get_devices().size() == 1,
          "the mesh is 1x1 with one chip");
    check(throws_with([&] { mesh->get_device(td::MeshCoordinate(0, 1)); }, "outside the 1x1 mesh"),
          "a coordinate outside the mesh is refused");
    check(mesh->allocator()->get_base_allocator_addr(HalMemType::L1) > 0 &&
              mesh->allocator()->get_base_allocator_addr(HalMemType::L1) < mesh->l1_size_per_core(),
          "the L1 allocator base lies inside L1");
    check(throws_with([&] { mesh->allocator()->get_base_allocator_addr(HalMemType::DRAM); }, "Unsupported:"),
          "the DRAM allocator base is Unsupported");

    // Region writes: whole pages inside the buffer; the rest of the buffer stays as it was.
    constexpr uint32_t page = 256, pages = 6;
    td::DeviceLocalBufferConfig local{.page_size = page, .buffer_type = BufferType::DRAM};
    auto buf = td::MeshBuffer::create(td::ReplicatedBufferConfig{.size = page * pages}, local, mesh.get());
    td::MeshCommandQueue& cq = mesh->mesh_command_queue();
    std::vector<uint32_t> base(page * pages / 4);
    for (size_t i = 0; i < base.size(); ++i) base[i] = uint32_t(i * 2654435761u);
    td::EnqueueWriteMeshBuffer(cq, buf, base, true);
    std::vector<uint32_t> patch(page / 4 * 2, 0xDEADBEEF);
    std::vector<td::MeshCommandQueue::ShardDataTransfer> t = {{.shard_coord = td::MeshCoordinate(0, 0),
                                                               .host_data = patch.data(),
                                                               .region = BufferRegion(2 * page, 2 * page)}};
    cq.enqueue_write_shards(buf, t, true);
    std::vector<uint32_t> back;
    td::ReadShard(cq, back, buf, td::MeshCoordinate(0, 0));
    bool region_ok = back.size() == base.size();
    for (size_t i = 0; region_ok && i < base.size(); ++i) {
        const bool in = i >= 2 * page / 4 && i < 4 * page / 4;
        region_ok = back[i] == (in ? 0xDEADBEEF : base[i]);
    }
    check(region_ok, "a region write changes exactly its pages");
    t[0].region = BufferRegion(page / 2, page);
    check(throws_with([&] { cq.enqueue_write_shards(buf, t, true); }, "must be whole pages"),
          "a region not of whole pages is refused");
    t[0].region = BufferRegion(5 * page, 2 * page);
    check(throws_with([&] { cq.enqueue_read_shards(t, buf, true); }, "is outside the buffer"),
          "a region beyond the buffer is refused");
    t[0].region = std::nullopt;
    t[0].shard_coord = td::MeshCoordinate(1, 0);
    check(throws_with([&] { cq.enqueue_read_shards(t, buf, true); }, "outside the 1x1 mesh"),
          "a shard outside the mesh is refused");
    std::vector<uint32_t> small(3);
    check(throws_with([&] { td::EnqueueReadMeshBuffer(cq, small, buf); }, "a host vector of 12 B"),
          "a host vector shorter than the buffer is refused");

    // Workloads: ranges may not overlap and must lie inside the mesh.
    td::MeshWorkload w;
    w.add_program(td::MeshCoordinateRange(mesh->shape()), CreateProgram());
    check(throws_with(
              [&] {
                  w.add_program(td::MeshCoordinateRange({0, 0}, {0, 0}), CreateProgram());
              },
              "overlaps"),
          "overlapping workload ranges are refused");
    td::MeshWorkload outside;
    outside.add_program(td::MeshCoordinateRange({0, 0}, {1, 0}), CreateProgram());
    check(throws_with([&] { td::EnqueueMeshWorkload(cq, outside, true); }, "is outside the 1x1 mesh"),
          "a workload range outside the mesh is refused");
    td::MeshWorkload empty;
    check(throws_with([&] { td::EnqueueMeshWorkload(cq, empty, true); }, "has no programs"),
          "an empty workload is refused");

    check(throws_with([&] { CloseDevice(mesh.get()); }, "a mesh is closed by MeshDevice::close()"),
          "CloseDevice of a mesh is refused");
    check(mesh->close(), "close() closes the mesh");
    IDevice* again = CreateDevice(0);
    check(again != nullptr, "the chip can be opened again after close()");
    CloseDevice(again);

    std::printf("%d check(s) failed\n", failures);  // allow-print: the check report
    return failures == 0 ? 0 : 1;
}
