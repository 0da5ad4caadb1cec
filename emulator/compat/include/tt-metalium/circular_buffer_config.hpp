// tt-metal's CircularBufferConfig (tt-metalium/circular_buffer_config.hpp): a CB's total size,
// and per buffer index its data format and page size.
//
//   CircularBufferConfig(2 * tile_bytes, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
//       .set_page_size(tt::CBIndex::c_0, tile_bytes);
//
// Checked as tt-metal checks them: an index below NUM_CIRCULAR_BUFFERS, a page size that
// divides the total size and is a multiple of 4 B. A config naming several buffer indices gives
// CBs sharing one L1 region, each index with its own format, page size and pointers. A globally
// allocated address (set_globally_allocated_address, or the constructor taking a Buffer) puts
// the CB at that L1 buffer's address on every core instead of the static CB region (a sharded
// buffer: each core's shard).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <unordered_set>

#include <tt-metalium/circular_buffer_constants.h>
#include <tt-metalium/tt_backend_api_types.hpp>

namespace tt::tt_metal {

class Buffer;
using CBHandle = uintptr_t;

class CircularBufferConfig {
public:
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec);
    // For the index(…) builder.
    explicit CircularBufferConfig(uint32_t total_size);
    // A CB placed in an L1 buffer (set_globally_allocated_address).
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec,
                         const Buffer& buffer);

    CircularBufferConfig& set_page_size(uint8_t buffer_index, uint32_t page_size);
    CircularBufferConfig& set_total_size(uint32_t total_size);
    CircularBufferConfig& set_globally_allocated_address(const Buffer& buffer);

    uint32_t total_size() const { return total_size_; }
    std::optional<uint32_t> globally_allocated_address() const { return globally_allocated_address_; }
    const std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS>& data_formats() const {
        return data_formats_;
    }
    const std::array<std::optional<uint32_t>, NUM_CIRCULAR_BUFFERS>& page_sizes() const { return page_sizes_; }
    const std::unordered_set<uint8_t>& buffer_indices() const { return buffer_indices_; }

    class Builder {
    public:
        const Builder& set_data_format(tt::DataFormat data_format) const;
        const Builder& set_total_size(uint32_t total_size) const;
        const Builder& set_page_size(uint32_t page_size) const;

    private:
        friend class CircularBufferConfig;
        Builder(CircularBufferConfig& parent, uint8_t buffer_index) : parent_(parent), buffer_index_(buffer_index) {}
        CircularBufferConfig& parent_;
        uint8_t buffer_index_;
    };
    Builder index(uint8_t buffer_index);

    // The buffer a globally allocated CB lives in (tt-metal's member of the same name).
    const Buffer* shadow_global_buffer = nullptr;

private:
    std::optional<uint32_t> globally_allocated_address_;
    uint32_t total_size_ = 0;
    std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS> data_formats_;
    std::array<std::optional<uint32_t>, NUM_CIRCULAR_BUFFERS> page_sizes_;
    std::unordered_set<uint8_t> buffer_indices_;
};

}  // namespace tt::tt_metal
