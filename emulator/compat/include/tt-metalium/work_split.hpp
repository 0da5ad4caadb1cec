// tt-metal's work splitting (tt-metalium/work_split.hpp), with tt-metal's results.
#pragma once

#include <cstdint>
#include <tuple>

#include <tt-metalium/core_coord.hpp>

namespace tt::tt_metal {

// The first target_num_cores cores of the grid from start_core on, column by column (row by row
// when row_wise), as at most three rectangles. Throws (TT_FATAL) when they do not fit.
CoreRangeSet num_cores_to_corerangeset(CoreCoord start_core, uint32_t target_num_cores, CoreCoord grid_size,
                                       bool row_wise = false);
CoreRangeSet num_cores_to_corerangeset(uint32_t target_num_cores, CoreCoord grid_size, bool row_wise = false);

// Splits units_to_divide over the grid starting at (0, 0): returns {number of cores used, all
// of them, core group 1, core group 2, units per group-1 core, units per group-2 core}. Group 1
// gets one unit more than group 2 when the split is uneven; when it is even, group 1 is all
// cores and group 2 is empty with 0 units. 0 units gives {0, {}, {}, {}, 0, 0}.
std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    CoreCoord grid_size, uint32_t units_to_divide, bool row_wise = false);

}  // namespace tt::tt_metal
