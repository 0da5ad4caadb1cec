// A caching host allocator. Touching fresh pages costs about 16 µs per 4 KiB page on the machines
// we run on, so blocks that are freed are kept and handed out again to a request of the same size
// class instead of going back to the system.
//
// Size classes: 64 bytes minimum, then four classes per power of two (2^k, 1.25·2^k, 1.5·2^k,
// 1.75·2^k), so a block is at most 25 % larger than asked. Blocks are 64-byte aligned. Blocks of
// 2 MiB and more are mapped (mmap) at a 2 MiB-aligned address with exactly their class's size,
// and their whole 2 MiB pages are advised as transparent huge pages (one fault per 2 MiB instead
// of 512, fewer TLB misses); the tail keeps 4 KiB pages, so the 25 % bound holds for memory too.
// When the cached bytes would exceed `cache_limit`, a freed block is returned to the system instead.
// Not thread-safe (one pool is used by one thread at a time, backend.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace zyx::backend::host {

class HostAllocator {
public:
    explicit HostAllocator(uint64_t cache_limit = uint64_t(4) << 30) : cache_limit_(cache_limit) {}
    ~HostAllocator();
    HostAllocator(const HostAllocator&) = delete;
    HostAllocator& operator=(const HostAllocator&) = delete;

    // A block of at least `bytes` (> 0); its real size is size_class(bytes). nullptr when the
    // system has no memory.
    void* alloc(uint64_t bytes);
    // Gives back a block from alloc(bytes) (same `bytes`).
    void free(void* p, uint64_t bytes);
    // Returns every cached block to the system.
    void trim();

    static uint64_t size_class(uint64_t bytes);
    // Bytes a block for `bytes` takes from the system: its size class, rounded up to 4 KiB pages
    // for blocks of 2 MiB and more (mapped directly). At most 25 % + one page over `bytes`.
    static uint64_t system_bytes(uint64_t bytes);
    uint64_t cached_bytes() const { return cached_bytes_; }
    uint64_t reuse_count() const { return reuses_; }    // allocations served from the cache
    uint64_t system_count() const { return systems_; }  // allocations that went to the system

private:
    std::map<uint64_t, std::vector<void*>> free_;  // size class → cached blocks
    uint64_t cache_limit_;
    uint64_t cached_bytes_ = 0;
    uint64_t reuses_ = 0, systems_ = 0;
};

}  // namespace zyx::backend::host
