// CoreCoord / CoreRange / CoreRangeSet (tt-metalium/core_coord.hpp) and work_split.hpp.
#include <algorithm>

#include <tt-metalium/assert.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/work_split.hpp>

std::string tt_xy_pair::str() const { return "(x=" + std::to_string(x) + ",y=" + std::to_string(y) + ")"; }

CoreRange::CoreRange(const CoreCoord& point) : start_coord(point), end_coord(point) {}

CoreRange::CoreRange(const CoreCoord& start, const CoreCoord& end) : start_coord(start), end_coord(end) {
    TT_FATAL(end.x >= start.x && end.y >= start.y, "Invalid core range for start_coord: {}, end_coord: {}", start.str(),
             end.str());
}

bool CoreRange::intersects(const CoreRange& o) const {
    return start_coord.x <= o.end_coord.x && o.start_coord.x <= end_coord.x && start_coord.y <= o.end_coord.y &&
        o.start_coord.y <= end_coord.y;
}

std::optional<CoreRange> CoreRange::intersection(const CoreRange& o) const {
    if (!intersects(o)) return std::nullopt;
    return CoreRange({std::max(start_coord.x, o.start_coord.x), std::max(start_coord.y, o.start_coord.y)},
                     {std::min(end_coord.x, o.end_coord.x), std::min(end_coord.y, o.end_coord.y)});
}

bool CoreRange::contains(const CoreCoord& c) const {
    return c.x >= start_coord.x && c.x <= end_coord.x && c.y >= start_coord.y && c.y <= end_coord.y;
}
bool CoreRange::contains(const CoreRange& o) const { return contains(o.start_coord) && contains(o.end_coord); }

std::string CoreRange::str() const {
    std::string s = "[";
    s += start_coord.str();
    s += " - ";
    s += end_coord.str();
    s += "]";
    return s;
}

size_t CoreRange::size() const { return (end_coord.x - start_coord.x + 1) * (end_coord.y - start_coord.y + 1); }

CoreCoord CoreRange::grid_size() const { return {end_coord.x - start_coord.x + 1, end_coord.y - start_coord.y + 1}; }

CoreRange::CoreIterator& CoreRange::CoreIterator::operator++() {
    if (current_.x < range_->end_coord.x) {
        ++current_.x;
    } else {
        current_.x = range_->start_coord.x;
        ++current_.y;
    }
    return *this;
}
CoreRange::CoreIterator CoreRange::begin() const { return CoreIterator(start_coord, *this); }
CoreRange::CoreIterator CoreRange::end() const { return CoreIterator({start_coord.x, end_coord.y + 1}, *this); }

CoreRangeSet::CoreRangeSet(const CoreRange& r) : ranges_{r} {}
CoreRangeSet::CoreRangeSet(const std::set<CoreRange>& rs) : ranges_(rs.begin(), rs.end()) { validate_no_overlap(); }
CoreRangeSet::CoreRangeSet(const std::vector<CoreRange>& rs) : ranges_(rs) { validate_no_overlap(); }
CoreRangeSet::CoreRangeSet(std::vector<CoreRange>&& rs) : ranges_(std::move(rs)) { validate_no_overlap(); }

void CoreRangeSet::validate_no_overlap() const {
    for (size_t i = 0; i < ranges_.size(); ++i)
        for (size_t j = i + 1; j < ranges_.size(); ++j)
            TT_FATAL(!ranges_[i].intersects(ranges_[j]),
                     "Cannot create CoreRangeSet with specified core ranges because "
                     "core ranges {} and {} overlap!",
                     ranges_[i].str(), ranges_[j].str());
}

bool CoreRangeSet::intersects(const CoreCoord& c) const { return contains(c); }
bool CoreRangeSet::intersects(const CoreRange& o) const {
    return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.intersects(o); });
}
bool CoreRangeSet::contains(const CoreCoord& c) const {
    return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(c); });
}
bool CoreRangeSet::contains(const CoreRange& o) const {
    for (CoreCoord c : o)
        if (!contains(c)) return false;
    return true;
}

std::string CoreRangeSet::str() const {
    std::string s = "{";
    for (size_t i = 0; i < ranges_.size(); ++i) s += (i ? ", " : "") + ranges_[i].str();
    return s + "}";
}

uint32_t CoreRangeSet::num_cores() const {
    uint32_t n = 0;
    for (const auto& r : ranges_) n += uint32_t(r.size());
    return n;
}

CoreRange CoreRangeSet::bounding_box() const {
    TT_FATAL(!ranges_.empty(), "Cannot get bounding_box of an empty CoreRangeSet!");
    CoreCoord lo = ranges_[0].start_coord, hi = ranges_[0].end_coord;
    for (const auto& r : ranges_) {
        lo = {std::min(lo.x, r.start_coord.x), std::min(lo.y, r.start_coord.y)};
        hi = {std::max(hi.x, r.end_coord.x), std::max(hi.y, r.end_coord.y)};
    }
    return CoreRange(lo, hi);
}

CoreRangeSet CoreRangeSet::merge(const CoreRangeSet& other) const {
    std::vector<CoreRange> all = ranges_;
    all.insert(all.end(), other.ranges_.begin(), other.ranges_.end());
    return CoreRangeSet(std::move(all));
}

bool operator==(const CoreRangeSet& a, const CoreRangeSet& b) { return a.ranges() == b.ranges(); }

std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y, bool row_wise) {
    TT_FATAL(num_cores <= grid_size_x * grid_size_y, "Number of cores {} exceeds the {}x{} grid", num_cores,
             grid_size_x, grid_size_y);
    std::vector<CoreCoord> cores;
    for (uint32_t i = 0; i < num_cores; ++i)
        cores.push_back(row_wise ? CoreCoord{i % grid_size_x, i / grid_size_x}
                                 : CoreCoord{i / grid_size_y, i % grid_size_y});
    return cores;
}

std::vector<CoreCoord> grid_to_cores(CoreCoord start, CoreCoord end, bool row_wise) {
    std::vector<CoreCoord> cores;
    if (row_wise) {
        for (size_t y = start.y; y <= end.y; ++y)
            for (size_t x = start.x; x <= end.x; ++x) cores.push_back({x, y});
    } else {
        for (size_t x = start.x; x <= end.x; ++x)
            for (size_t y = start.y; y <= end.y; ++y) cores.push_back({x, y});
    }
    return cores;
}

std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores, bool row_wise) {
    std::vector<CoreCoord> cores;
    for (const auto& r : crs.ranges())
        for (CoreCoord c : grid_to_cores(r.start_coord, r.end_coord, row_wise)) {
            if (max_cores && cores.size() >= *max_cores) return cores;
            cores.push_back(c);
        }
    return cores;
}

namespace tt::tt_metal {

CoreRangeSet num_cores_to_corerangeset(CoreCoord start, uint32_t target, CoreCoord grid, bool row_wise) {
    const size_t nx = grid.x, ny = grid.y;
    TT_FATAL(start.x < nx && start.y < ny, "Start core must be within grid size");
    size_t available = row_wise ? (ny - 1 - start.y) * nx + (nx - start.x) : (nx - 1 - start.x) * ny + (ny - start.y);
    TT_FATAL(target <= available, "Target number of cores {} is greater than total number of available cores {}",
             target, available);
    std::vector<CoreRange> ranges;
    size_t left = target;
    CoreCoord s = start;
    if (row_wise) {
        if (s.x != 0 && left > nx - s.x) {
            ranges.emplace_back(s, CoreCoord(nx - 1, s.y));
            left -= ranges.back().size();
            s = {0, s.y + 1};
        }
        if (left > nx) {
            size_t rows = left / nx;
            ranges.emplace_back(s, CoreCoord(nx - 1, s.y + rows - 1));
            left -= ranges.back().size();
            s = {0, s.y + rows};
        }
        if (left > 0) ranges.emplace_back(s, CoreCoord(s.x + left - 1, s.y));
    } else {
        if (s.y != 0 && left > ny - s.y) {
            ranges.emplace_back(s, CoreCoord(s.x, ny - 1));
            left -= ranges.back().size();
            s = {s.x + 1, 0};
        }
        if (left > ny) {
            size_t cols = left / ny;
            ranges.emplace_back(s, CoreCoord(s.x + cols - 1, ny - 1));
            left -= ranges.back().size();
            s = {s.x + cols, 0};
        }
        if (left > 0) ranges.emplace_back(s, CoreCoord(s.x, s.y + left - 1));
    }
    return CoreRangeSet(std::move(ranges));
}

CoreRangeSet num_cores_to_corerangeset(uint32_t target, CoreCoord grid, bool row_wise) {
    return num_cores_to_corerangeset({0, 0}, target, grid, row_wise);
}

std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(CoreCoord grid,
                                                                                                       uint32_t units,
                                                                                                       bool row_wise) {
    if (units == 0) return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    const uint32_t nx = uint32_t(grid.x), ny = uint32_t(grid.y), max_cores = nx * ny;
    uint32_t cores;
    CoreRangeSet all;
    if (units >= max_cores) {
        cores = max_cores;
        all = CoreRangeSet(CoreRange({0, 0}, {nx - 1, ny - 1}));
    } else {
        cores = units;
        all = num_cores_to_corerangeset(cores, grid, row_wise);
    }
    uint32_t per_core_1 = units / cores, per_core_2 = 0, more = units % cores;
    CoreRangeSet group_1, group_2;
    if (more == 0) {
        group_1 = all;
    } else {
        // The first `more` cores take one unit more; the rest start right after them.
        group_1 = num_cores_to_corerangeset(more, grid, row_wise);
        CoreCoord last = group_1.ranges().back().end_coord;
        CoreCoord next = row_wise ? (last.x != nx - 1 ? CoreCoord{last.x + 1, last.y} : CoreCoord{0, last.y + 1})
                                  : (last.y != ny - 1 ? CoreCoord{last.x, last.y + 1} : CoreCoord{last.x + 1, 0});
        group_2 = num_cores_to_corerangeset(next, cores - more, grid, row_wise);
        per_core_2 = per_core_1;
        ++per_core_1;
    }
    return {cores, all, group_1, group_2, per_core_1, per_core_2};
}

}  // namespace tt::tt_metal
