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

namespace {

constexpr uint64_t kHuge = uint64_t(2) << 20;  // x86-64 huge page
constexpr uint64_t kPage = 4096;

// A block of `bytes` (a multiple of 4 KiB) at a 2 MiB-aligned address: a mapping 2 MiB larger is
// trimmed at both ends. Only the whole 2 MiB pages are advised as huge pages: a huge page over
// the tail would make memory up to 2 MiB larger than the block (madvise is only advice; failure
// changes nothing).
void* map_aligned(uint64_t bytes) {
    uint64_t over = bytes + kHuge - kPage;
    void* raw = ::mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    uintptr_t begin = reinterpret_cast<uintptr_t>(raw), at = (begin + kHuge - 1) & ~(kHuge - 1);
    uintptr_t end = begin + over;
    if (at > begin) ::munmap(raw, at - begin);
    if (end > at + bytes) ::munmap(reinterpret_cast<void*>(at + bytes), end - (at + bytes));
    uint64_t whole = bytes & ~(kHuge - 1);
    if (whole) ::madvise(reinterpret_cast<void*>(at), whole, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(at);
}

// aligned_alloc's size must be a multiple of the alignment (C11; ASan enforces it).
void* system_alloc(uint64_t c) {
    return c >= kHuge ? map_aligned(HostAllocator::system_bytes(c)) : std::aligned_alloc(64, (c + 63) & ~uint64_t(63));
}

void system_free(void* p, uint64_t c) {
    if (c >= kHuge)
        ::munmap(p, HostAllocator::system_bytes(c));
    else
        std::free(p);
}

}  // namespace

uint64_t HostAllocator::system_bytes(uint64_t bytes) {
    uint64_t c = size_class(bytes);
    return c >= kHuge ? (c + kPage - 1) & ~(kPage - 1) : c;
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
    void* p = system_alloc(c);
    if (!p) {
        trim();  // give the cache back and try once more
        p = system_alloc(c);
    }
    if (p) ++systems_;
    return p;
}

void HostAllocator::free(void* p, uint64_t bytes) {
    if (!p) return;
    uint64_t c = size_class(bytes);
    if (cached_bytes_ + c > cache_limit_) {
        system_free(p, c);
        return;
    }
    free_[c].push_back(p);
    cached_bytes_ += c;
}

void HostAllocator::trim() {
    for (auto& [c, blocks] : free_)
        for (void* p : blocks) system_free(p, c);
    free_.clear();
    cached_bytes_ = 0;
}

}  // namespace zyx::backend::host
