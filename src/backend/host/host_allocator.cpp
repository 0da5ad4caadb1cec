#include "backend/host/host_allocator.hpp"

#include <sys/mman.h>

#include <cstdlib>

namespace zyx::backend::host {

HostAllocator::~HostAllocator() { trim(); }

uint64_t HostAllocator::size_class(uint64_t bytes) {
    if (bytes <= 64) return 64;
    unsigned top = 63u - unsigned(__builtin_clzll(bytes));  // 2^top <= bytes < 2^(top+1)
    uint64_t base = uint64_t(1) << top;
    if (bytes == base) return base;
    uint64_t quarter = base >> 2;  // >= 16 since bytes > 64
    return base + ((bytes - base + quarter - 1) / quarter) * quarter;
}

void* HostAllocator::alloc(uint64_t bytes) {
    uint64_t c = size_class(bytes);
    auto it = free_.find(c);
    if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cached_bytes_ -= c;
        ++reuses_;
        return p;
    }
    // Blocks of 2 MiB and more are aligned to 2 MiB and offered to the kernel as transparent huge
    // pages: one fault per 2 MiB instead of 512 (each ~16 µs here) and fewer TLB misses when a
    // kernel streams through the buffer. madvise is only advice; failure changes nothing.
    constexpr uint64_t kHuge = uint64_t(2) << 20;
    uint64_t align = c >= kHuge ? kHuge : 64;
    uint64_t sz = (c + align - 1) & ~(align - 1);  // aligned_alloc wants a multiple of the alignment
    void* p = std::aligned_alloc(align, sz);
    if (!p) {
        trim();  // give the cache back and try once more
        p = std::aligned_alloc(align, sz);
    }
    if (p && align == kHuge) ::madvise(p, sz, MADV_HUGEPAGE);
    if (p) ++systems_;
    return p;
}

void HostAllocator::free(void* p, uint64_t bytes) {
    if (!p) return;
    uint64_t c = size_class(bytes);
    if (cached_bytes_ + c > cache_limit_) {
        std::free(p);
        return;
    }
    free_[c].push_back(p);
    cached_bytes_ += c;
}

void HostAllocator::trim() {
    for (auto& [c, blocks] : free_)
        for (void* p : blocks) std::free(p);
    free_.clear();
    cached_bytes_ = 0;
}

}  // namespace zyx::backend::host
