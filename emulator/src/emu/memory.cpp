#include "emu/memory.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <string>

#include "core/error.hpp"

namespace zyx::emu {

L1Arena::L1Arena(uint32_t num_cores, uint32_t l1_bytes) : num_cores_(num_cores), l1_bytes_(l1_bytes) {
    mapped_ = uint64_t(num_cores) * kL1Stride;
    void* p = MAP_FAILED;
#ifdef MAP_32BIT
    p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_32BIT, -1,
               0);
#endif
    // Fallback (or MAP_32BIT's 2 GiB window is full): try hints below 4 GiB.
    for (uint64_t hint = 0x40000000ull; p == MAP_FAILED && hint + mapped_ <= (1ull << 32); hint += 0x10000000ull) {
        p = ::mmap(reinterpret_cast<void*>(hint), mapped_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    }
    if (p == MAP_FAILED)
        throw Error(ErrorStatus::Initialization,
                    "cannot map " + std::to_string(mapped_) + " B of emulated L1 below 4 GiB: " + std::strerror(errno));
    if (uint64_t(uintptr_t(p)) + mapped_ > (1ull << 32)) {
        ::munmap(p, mapped_);
        throw Error(ErrorStatus::Initialization, "emulated L1 could not be placed below 4 GiB");
    }
    base_ = static_cast<uint8_t*>(p);
    // Guard the tail of every window: L1 overruns fault instead of corrupting the next core.
    uint64_t guard_off = (uint64_t(l1_bytes) + 4095) & ~uint64_t(4095);
    for (uint32_t c = 0; c < num_cores; ++c)
        ::mprotect(base_ + uint64_t(c) * kL1Stride + guard_off, kL1Stride - guard_off, PROT_NONE);
}

L1Arena::~L1Arena() {
    if (base_) ::munmap(base_, mapped_);
}

int L1Arena::core_of(uint64_t addr, uint64_t* offset) const {
    uint64_t b = uintptr_t(base_);
    if (addr < b || addr >= b + mapped_) return -1;
    uint64_t rel = addr - b;
    if (offset) *offset = rel % kL1Stride;
    return int(rel / kL1Stride);
}

DramBanks::DramBanks(uint32_t banks, uint64_t bank_bytes) : bank_bytes_(bank_bytes) {
    for (uint32_t b = 0; b < banks; ++b) {
        void* p = ::mmap(nullptr, bank_bytes + kBankStagger * banks, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            for (auto* q : bases_) ::munmap(q, bank_bytes_ + kBankStagger * banks);
            throw Error(ErrorStatus::Initialization,
                        "cannot reserve emulated DRAM bank " + std::to_string(b) + " (" + std::to_string(bank_bytes) +
                            " B): " + std::strerror(errno));
        }
        // Huge pages where the kernel allows them: fewer TLB misses on the NoC's streaming copies
        // and a cheaper first touch (one fault per 2 MiB instead of per 4 KiB).
        ::madvise(p, bank_bytes + kBankStagger * banks, MADV_HUGEPAGE);
        bases_.push_back(static_cast<uint8_t*>(p));
    }
}

DramBanks::~DramBanks() {
    for (auto* p : bases_) ::munmap(p, bank_bytes_ + kBankStagger * bases_.size());
}

uint64_t RangeAllocator::alloc(uint64_t bytes, uint64_t align) {
    for (auto it = free_.begin(); it != free_.end(); ++it) {
        uint64_t start = (it->first + align - 1) / align * align;
        uint64_t end = it->first + it->second;
        if (start + bytes > end || start + bytes < start) continue;
        uint64_t lo = it->first;
        free_.erase(it);
        if (start > lo) free_[lo] = start - lo;
        if (start + bytes < end) free_[start + bytes] = end - (start + bytes);
        return start;
    }
    return UINT64_MAX;
}

uint64_t RangeAllocator::alloc_top(uint64_t bytes, uint64_t align) {
    for (auto it = free_.rbegin(); it != free_.rend(); ++it) {
        uint64_t lo = it->first, end = it->first + it->second;
        if (bytes > it->second) continue;
        uint64_t start = (end - bytes) / align * align;
        if (start < lo) continue;
        free_.erase(std::next(it).base());
        if (start > lo) free_[lo] = start - lo;
        if (start + bytes < end) free_[start + bytes] = end - (start + bytes);
        return start;
    }
    return UINT64_MAX;
}

void RangeAllocator::free(uint64_t start, uint64_t bytes) {
    auto [it, ok] = free_.emplace(start, bytes);
    (void)ok;
    // Merge with the following and the preceding range.
    auto next = std::next(it);
    if (next != free_.end() && it->first + it->second == next->first) {
        it->second += next->second;
        free_.erase(next);
    }
    if (it != free_.begin()) {
        auto prev = std::prev(it);
        if (prev->first + prev->second == it->first) {
            prev->second += it->second;
            free_.erase(it);
        }
    }
}

}  // namespace zyx::emu
