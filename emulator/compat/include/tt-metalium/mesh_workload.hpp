// tt-metal's MeshWorkload (tt-metalium/mesh_workload.hpp): programs, each bound to a range of
// mesh coordinates, enqueued together (EnqueueMeshWorkload, distributed.hpp). Ranges may not
// overlap (checked at add_program); every range must lie inside the mesh it is enqueued on
// (checked at the enqueue). Move-only.
#pragma once

#include <unordered_map>

#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_coord.hpp>

namespace tt::tt_metal::distributed {

class MeshWorkload {
public:
    MeshWorkload() = default;
    explicit MeshWorkload(Program&& program,
                          const MeshCoordinateRange& device_range = MeshCoordinateRange(MeshCoordinate(0, 0),
                                                                                        MeshCoordinate(0, 0)));
    MeshWorkload(MeshWorkload&&) noexcept = default;
    MeshWorkload& operator=(MeshWorkload&&) noexcept = default;
    MeshWorkload(const MeshWorkload&) = delete;
    MeshWorkload& operator=(const MeshWorkload&) = delete;

    // Throws when device_range overlaps a range already in the workload.
    void add_program(const MeshCoordinateRange& device_range, Program&& program);
    std::unordered_map<MeshCoordinateRange, Program>& get_programs() { return programs_; }
    const std::unordered_map<MeshCoordinateRange, Program>& get_programs() const { return programs_; }

private:
    std::unordered_map<MeshCoordinateRange, Program> programs_;
};

}  // namespace tt::tt_metal::distributed
