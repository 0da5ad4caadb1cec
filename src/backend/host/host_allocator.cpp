#include "backend/host/host_allocator.hpp"

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
    uint64_t sz = (c + 63) & ~uint64_t(63);  // aligned_alloc wants a multiple of the alignment
    void* p = std::aligned_alloc(64, sz);
    if (!p) {
        trim();  // give the cache back and try once more
        p = std::aligned_alloc(64, sz);
    }
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
