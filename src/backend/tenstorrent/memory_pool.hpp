// TTMemoryPool: the DRAM of one Tenstorrent device (real or emulated) as a backend::MemoryPool.
//
// - Accounting is in the device's own unit: the device lays every buffer over all DRAM banks,
//   each bank holding ceil(pages / dram_banks) pages at a stride of the page rounded up to
//   dram_alignment (both from hello), so a buffer costs
//   ceil(pages / banks) × align(page_bytes, dram_alignment) × banks bytes of DRAM — what the
//   runtime's stats count as dram_bytes_allocated. A 4 KiB buffer on a 12-bank device costs
//   48 KiB.
// - allocate: page-rounded sizes, checked against free_bytes() (DRAM size from the runtime minus
//   what live buffers cost). Freed buffers are kept in a cache by exact page-rounded size and
//   reused by the next allocation of that size without a round trip; the cache is trimmed when
//   an allocation needs the room and never holds more than a quarter of the device.
// - retain/release: 32-bit reference counts with checked arithmetic (overflow and unknown ids
//   are errors, never wrap-around).
// - Tensors (the scheduler's calls) are tiled for the dtypes tile_layout.hpp names: one tile per
//   page (a bf16 tile is 2 KiB, an f32 tile 4 KiB), tilized on write_tensor and untilized on
//   read_tensor, chunk by chunk inside the staging arena; other dtypes are stored row-major in
//   4 KiB pages.
// - host_to_pool / pool_to_host: raw bytes through the runtime's staging arena, synchronous
//   (Event{}).
// - pool_to_pool: same pool → copy_buf in the runtime; a host-addressable pool → one upload;
//   anything else is staged through a host buffer (the MemoryPool default).
// - After the runtime crashed, buffers it held are "lost": every use names the buffer and says
//   so; new allocations go to the fresh runtime.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "backend/backend.hpp"
#include "core/error.hpp"

namespace zyx::tt {

class RuntimeClient;

// Bytes are DRAM bytes as the device counts them (page and bank rounding, see above).
struct PoolStats {
    uint64_t live_buffers = 0, live_bytes = 0;
    uint64_t cached_buffers = 0, cached_bytes = 0;
    uint64_t cache_hits = 0, cache_misses = 0;
};

class TTMemoryPool final : public backend::MemoryPool {
public:
    // `name` e.g. "tt:0"; `page_bytes` is the DRAM page of every buffer this pool allocates.
    TTMemoryPool(std::shared_ptr<RuntimeClient> client, std::string name, uint32_t page_bytes = 4096);
    ~TTMemoryPool() override;

    std::string name() const override { return name_; }
    // DRAM the device can still give this pool: its size minus what live buffers cost on it
    // (cached buffers are freed when an allocation needs their room).
    uint64_t free_bytes() const override;
    backend::BufferId allocate(uint64_t bytes) override;
    void retain(backend::BufferId buffer) override;
    void release(backend::BufferId buffer) override;
    backend::Event host_to_pool(const void* src, uint64_t bytes, backend::BufferId dst,
                                std::span<const backend::Event> wait) override;
    void pool_to_host(backend::BufferId src, void* dst, uint64_t bytes, std::span<const backend::Event> wait) override;
    backend::Event pool_to_pool(MemoryPool& src_pool, backend::BufferId src, backend::BufferId dst, uint64_t bytes,
                                std::span<const backend::Event> wait) override;
    backend::Layout layout(DType dtype) const override;
    uint64_t tensor_bytes(DType dtype, const std::vector<int64_t>& shape) const override;
    backend::BufferId allocate_tensor(DType dtype, const std::vector<int64_t>& shape) override;
    backend::Event write_tensor(const void* src, DType dtype, const std::vector<int64_t>& shape, backend::BufferId dst,
                                std::span<const backend::Event> wait) override;
    void read_tensor(backend::BufferId src, DType dtype, const std::vector<int64_t>& shape, void* dst,
                     std::span<const backend::Event> wait) override;

    // ---- Tenstorrent-specific ----
    // The runtime's id of a live buffer of the current runtime. Throws `status` naming the
    // buffer when it is unknown or was lost with a crashed runtime.
    uint32_t runtime_buffer(backend::BufferId buffer, ErrorStatus status) const;
    // Bytes the buffer was allocated with (as requested, before page rounding).
    uint64_t buffer_bytes(backend::BufferId buffer) const;
    // Frees every cached device buffer.
    void trim_cache();
    // DRAM a buffer of `bytes` in pages of `page_bytes` (0: the pool's default page) costs on the
    // device (page, alignment and bank rounding); UINT64_MAX when that does not fit 64 bits.
    uint64_t device_bytes(uint64_t bytes, uint32_t page_bytes = 0) const;
    // The page size of a live buffer.
    uint32_t buffer_page_bytes(backend::BufferId buffer) const;
    PoolStats stats() const;
    RuntimeClient& client() { return *client_; }

private:
    struct Buffer {
        uint32_t runtime_id = 0;
        uint64_t generation = 0;  // the runtime generation that holds it
        uint64_t bytes = 0;       // as requested
        uint32_t page_bytes = 0;
        uint64_t capacity = 0;      // page-rounded, what the runtime allocated
        uint64_t device_bytes = 0;  // what it costs the device (device_bytes(capacity))
        uint32_t refs = 1;
    };
    struct Cached {
        uint32_t runtime_id;
        uint64_t generation;
        uint64_t device_bytes;
    };

    backend::BufferId allocate_paged(uint64_t bytes, uint32_t page_bytes);
    // Forgets every buffer and cache entry of an ended runtime generation.
    void sync_generation_locked() const;
    const Buffer& live_locked(backend::BufferId id, ErrorStatus status, std::string_view ctx) const;
    void free_runtime_buffer_locked(uint32_t runtime_id, uint64_t generation);
    void trim_cache_locked(uint64_t keep_bytes);

    std::shared_ptr<RuntimeClient> client_;
    std::string name_;
    uint32_t page_bytes_;
    uint64_t dram_bytes_ = 0;
    uint32_t dram_banks_ = 1;      // hello: device.dram_banks
    uint32_t dram_alignment_ = 1;  // hello: device.dram_alignment

    mutable std::mutex mutex_;
    mutable uint64_t seen_generation_ = 0;
    mutable std::unordered_map<backend::BufferId, Buffer> buffers_;
    mutable std::multimap<std::pair<uint64_t, uint32_t>, Cached> cache_;  // (capacity, page) → cached runtime buffer
    mutable uint64_t live_device_bytes_ = 0;    // device_bytes of live buffers of this runtime
    mutable uint64_t cached_device_bytes_ = 0;  // … and of cached ones
    mutable PoolStats counters_;
    backend::BufferId next_id_ = 1;
};

}  // namespace zyx::tt
