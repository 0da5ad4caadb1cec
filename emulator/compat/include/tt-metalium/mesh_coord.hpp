// tt-metal's mesh coordinates (tt-metalium/mesh_coord.hpp): MeshShape, MeshCoordinate and
// MeshCoordinateRange, two-dimensional only (rows, columns). The emulator opens unit meshes
// (MeshDevice::create_unit_mesh), whose shape is 1×1 and whose one coordinate is (0, 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace tt::tt_metal::distributed {

class MeshShape {
public:
    MeshShape(uint32_t num_rows, uint32_t num_cols) : dims_{num_rows, num_cols} {}
    size_t dims() const { return 2; }
    uint32_t operator[](int32_t dim) const;  // dim 0 rows, 1 columns (negative counts from the end)
    size_t mesh_size() const { return size_t(dims_[0]) * dims_[1]; }
    bool operator==(const MeshShape& o) const { return dims_[0] == o.dims_[0] && dims_[1] == o.dims_[1]; }
    bool operator!=(const MeshShape& o) const { return !(*this == o); }

private:
    uint32_t dims_[2];
};

class MeshCoordinate {
public:
    MeshCoordinate(uint32_t row, uint32_t col) : coords_{row, col} {}
    size_t dims() const { return 2; }
    uint32_t operator[](int32_t dim) const;
    bool operator==(const MeshCoordinate& o) const { return coords_[0] == o.coords_[0] && coords_[1] == o.coords_[1]; }
    bool operator!=(const MeshCoordinate& o) const { return !(*this == o); }
    std::string str() const;  // "MeshCoordinate([r, c])"

private:
    uint32_t coords_[2];
};

// An inclusive rectangle of coordinates [start, end].
class MeshCoordinateRange {
public:
    // Throws when start is past end in either dimension.
    MeshCoordinateRange(const MeshCoordinate& start, const MeshCoordinate& end);
    // Every coordinate of a mesh of `shape`.
    explicit MeshCoordinateRange(const MeshShape& shape);
    const MeshCoordinate& start_coord() const { return start_; }
    const MeshCoordinate& end_coord() const { return end_; }
    MeshShape shape() const { return {end_[0] - start_[0] + 1, end_[1] - start_[1] + 1}; }
    bool contains(const MeshCoordinate& c) const;
    bool contains(const MeshCoordinateRange& r) const { return contains(r.start_) && contains(r.end_); }
    bool operator==(const MeshCoordinateRange& o) const { return start_ == o.start_ && end_ == o.end_; }
    bool operator!=(const MeshCoordinateRange& o) const { return !(*this == o); }

private:
    MeshCoordinate start_, end_;
};

}  // namespace tt::tt_metal::distributed

template <>
struct std::hash<tt::tt_metal::distributed::MeshCoordinate> {
    size_t operator()(const tt::tt_metal::distributed::MeshCoordinate& c) const noexcept {
        return (size_t(c[0]) << 32) ^ size_t(c[1]);
    }
};
template <>
struct std::hash<tt::tt_metal::distributed::MeshCoordinateRange> {
    size_t operator()(const tt::tt_metal::distributed::MeshCoordinateRange& r) const noexcept {
        std::hash<tt::tt_metal::distributed::MeshCoordinate> h;
        return h(r.start_coord()) * 31 + h(r.end_coord());
    }
};
