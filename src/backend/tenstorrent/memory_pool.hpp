// TTMemoryPool: the DRAM of one Tenstorrent device (real or emulated) as a backend::MemoryPool.
//
// - allocate: page-rounded sizes, checked against free_bytes() (DRAM size from the runtime minus
//   live buffers). Freed buffers are kept in a cache by exact page-rounded size and reused by the
//   next allocation of that size without a round trip; the cache is trimmed when an allocation
//   needs the room and never holds more than a quarter of the device.
// - retain/release: 32-bit reference counts with checked arithmetic (overflow and unknown ids
//   are errors, never wrap-around).
// - host_to_pool / pool_to_host: through the runtime's staging arena, synchronous (Event{}).
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
    uint64_t free_bytes() const override;
    backend::BufferId allocate(uint64_t bytes) override;
    void retain(backend::BufferId buffer) override;
    void release(backend::BufferId buffer) override;
    backend::Event host_to_pool(const void* src, uint64_t bytes, backend::BufferId dst, std::span<const backend::Event> wait) override;
    void pool_to_host(backend::BufferId src, void* dst, uint64_t bytes, std::span<const backend::Event> wait) override;
    backend::Event pool_to_pool(MemoryPool& src_pool, backend::BufferId src, backend::BufferId dst, uint64_t bytes,
                                std::span<const backend::Event> wait) override;

    // ---- Tenstorrent-specific ----
    // The runtime's id of a live buffer of the current runtime. Throws `status` naming the
    // buffer when it is unknown or was lost with a crashed runtime.
    uint32_t runtime_buffer(backend::BufferId buffer, ErrorStatus status) const;
    // Bytes the buffer was allocated with (as requested, before page rounding).
    uint64_t buffer_bytes(backend::BufferId buffer) const;
    // Frees every cached device buffer.
    void trim_cache();
    PoolStats stats() const;
    RuntimeClient& client() { return *client_; }

private:
    struct Buffer {
        uint32_t runtime_id = 0;
        uint64_t generation = 0;   // the runtime generation that holds it
        uint64_t bytes = 0;        // as requested
        uint64_t capacity = 0;     // page-rounded, what the runtime allocated
        uint32_t refs = 1;
    };
    struct Cached {
        uint32_t runtime_id;
        uint64_t generation;
    };

    uint64_t round_up(uint64_t bytes) const;
    // Forgets every buffer and cache entry of an ended runtime generation.
    void sync_generation_locked() const;
    const Buffer& live_locked(backend::BufferId id, ErrorStatus status, std::string_view ctx) const;
    void free_runtime_buffer_locked(uint32_t runtime_id, uint64_t generation);
    void trim_cache_locked(uint64_t keep_bytes);

    std::shared_ptr<RuntimeClient> client_;
    std::string name_;
    uint32_t page_bytes_;
    uint64_t dram_bytes_ = 0;

    mutable std::mutex mutex_;
    mutable uint64_t seen_generation_ = 0;
    mutable std::unordered_map<backend::BufferId, Buffer> buffers_;
    mutable std::multimap<uint64_t, Cached> cache_;  // capacity → cached runtime buffer
    mutable uint64_t live_capacity_ = 0;
    mutable uint64_t cached_capacity_ = 0;
    mutable PoolStats counters_;
    backend::BufferId next_id_ = 1;
};

}  // namespace zyx::tt
