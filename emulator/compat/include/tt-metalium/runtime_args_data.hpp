// tt-metal's RuntimeArgsData (tt-metalium/runtime_args_data.hpp): a view of one kernel's runtime
// args on one core, which GetRuntimeArgs hands out so a host can patch them (a new buffer
// address, say) before enqueueing the program again. The view stays valid until the next
// SetRuntimeArgs of that kernel and core with a different number of args.
#pragma once

#include <cstddef>
#include <cstdint>

#include <tt-metalium/assert.hpp>

namespace tt::tt_metal {

struct RuntimeArgsData {
    uint32_t* rt_args_data = nullptr;
    size_t rt_args_count = 0;

    uint32_t& operator[](size_t index) { return at(index); }
    const uint32_t& operator[](size_t index) const { return at(index); }
    // Throws (TT_FATAL) for an index at or beyond size().
    uint32_t& at(size_t index) {
        TT_FATAL(index < rt_args_count, "Index {} exceeds runtime args size {}", index, rt_args_count);
        return rt_args_data[index];
    }
    const uint32_t& at(size_t index) const {
        TT_FATAL(index < rt_args_count, "Index {} exceeds runtime args size {}", index, rt_args_count);
        return rt_args_data[index];
    }
    uint32_t* data() noexcept { return rt_args_data; }
    const uint32_t* data() const noexcept { return rt_args_data; }
    size_t size() const noexcept { return rt_args_count; }
};

}  // namespace tt::tt_metal
