// tt-metal's logical core coordinates (tt-metalium/core_coord.hpp): CoreCoord (UMD's
// tt_xy_pair), CoreRange (an inclusive rectangle), CoreRangeSet (non-overlapping rectangles),
// and corerange_to_cores / grid_to_cores. Global names, also visible in tt::tt_metal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

struct tt_xy_pair {
    constexpr tt_xy_pair() : x{}, y{} {}
    constexpr tt_xy_pair(std::size_t x, std::size_t y) : x(x), y(y) {}
    std::size_t x;
    std::size_t y;
    std::string str() const;  // "(x=1,y=2)"
};
constexpr bool operator==(const tt_xy_pair& a, const tt_xy_pair& b) { return a.x == b.x && a.y == b.y; }
constexpr bool operator!=(const tt_xy_pair& a, const tt_xy_pair& b) { return !(a == b); }
constexpr bool operator<(const tt_xy_pair& a, const tt_xy_pair& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

using CoreCoord = tt_xy_pair;
constexpr bool operator<=(const CoreCoord& a, const CoreCoord& b) { return a < b || a == b; }

class CoreRangeSet;

class CoreRange {
public:
    CoreCoord start_coord;
    CoreCoord end_coord;
    CoreRange(const CoreCoord& point);
    // Throws (TT_FATAL) when end is below or left of start.
    CoreRange(const CoreCoord& start_coord, const CoreCoord& end_coord);

    bool intersects(const CoreRange& other) const;
    std::optional<CoreRange> intersection(const CoreRange& other) const;
    bool contains(const CoreCoord& other) const;
    bool contains(const CoreRange& other) const;
    std::string str() const;  // "[(x=0,y=0) - (x=1,y=1)]"
    size_t size() const;      // number of cores
    CoreCoord grid_size() const;

    // Cores in row-major order (x fastest).
    class CoreIterator {
    public:
        CoreIterator(const CoreCoord& current, const CoreRange& range) : current_(current), range_(&range) {}
        CoreCoord& operator*() { return current_; }
        CoreIterator& operator++();
        bool operator==(const CoreIterator& o) const { return current_ == o.current_; }
        bool operator!=(const CoreIterator& o) const { return !(*this == o); }

    private:
        CoreCoord current_;
        const CoreRange* range_;
    };
    CoreIterator begin() const;
    CoreIterator end() const;
};
inline bool operator==(const CoreRange& a, const CoreRange& b) {
    return a.start_coord == b.start_coord && a.end_coord == b.end_coord;
}
inline bool operator!=(const CoreRange& a, const CoreRange& b) { return !(a == b); }
inline bool operator<(const CoreRange& a, const CoreRange& b) {
    return a.start_coord < b.start_coord || (a.start_coord == b.start_coord && a.end_coord < b.end_coord);
}

class CoreRangeSet {
public:
    CoreRangeSet() = default;
    // Throw (TT_FATAL) when two ranges overlap, as tt-metal's do.
    CoreRangeSet(const CoreRange& core_range);
    CoreRangeSet(const std::set<CoreRange>& core_ranges);
    CoreRangeSet(const std::vector<CoreRange>& core_ranges);
    CoreRangeSet(std::vector<CoreRange>&& core_ranges);

    bool empty() const { return ranges_.empty(); }
    size_t size() const { return ranges_.size(); }  // number of ranges
    bool intersects(const CoreCoord& other) const;
    bool intersects(const CoreRange& other) const;
    bool contains(const CoreCoord& other) const;
    bool contains(const CoreRange& other) const;
    const std::vector<CoreRange>& ranges() const { return ranges_; }
    std::string str() const;
    uint32_t num_cores() const;
    CoreRange bounding_box() const;
    // The union with other (its ranges appended; they must not overlap these).
    CoreRangeSet merge(const CoreRangeSet& other) const;

private:
    void validate_no_overlap() const;
    std::vector<CoreRange> ranges_;
};
bool operator==(const CoreRangeSet& a, const CoreRangeSet& b);
inline bool operator!=(const CoreRangeSet& a, const CoreRangeSet& b) { return !(a == b); }

inline std::ostream& operator<<(std::ostream& os, const CoreCoord& c) { return os << c.str(); }
inline std::ostream& operator<<(std::ostream& os, const CoreRange& r) { return os << r.str(); }
inline std::ostream& operator<<(std::ostream& os, const CoreRangeSet& s) { return os << s.str(); }

// The first num_cores cores of a grid_size_x × grid_size_y grid, row by row (row_wise) or column
// by column.
std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y,
                                     bool row_wise = false);
// The cores of the rectangle start..end (inclusive), row by row or column by column.
std::vector<CoreCoord> grid_to_cores(CoreCoord start, CoreCoord end, bool row_wise = false);
// The cores of crs, range by range, each range row by row or column by column; at most max_cores.
std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores = std::nullopt,
                                          bool row_wise = false);

namespace tt::tt_metal {
using ::CoreCoord;
using ::CoreRange;
using ::CoreRangeSet;
}  // namespace tt::tt_metal
