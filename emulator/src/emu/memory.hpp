// Emulated device memory: every core's L1 below 4 GiB, DRAM banks reserved lazily.
//
// L1: one mapping holds all cores' L1 windows, `kL1Stride` bytes apart, placed with MAP_32BIT
// (or an address hint below 4 GiB) so the uint32_t addresses kernels get from get_write_ptr /
// get_read_ptr / get_semaphore are real host addresses they can dereference. Window i covers
// [base + i*stride, base + i*stride + l1_bytes); the rest of the stride is PROT_NONE, so a kernel
// that runs off the end of its L1 faults (and is reported) instead of scribbling on a neighbour.
//
// DRAM: one MAP_NORESERVE mapping per bank; pages cost nothing until first touched. Interleaved
// buffers have the same address in every bank; the allocator hands out address ranges of the
// per-bank space (first fit, merged on free).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace zyx::emu {

// 2 MiB + 12 KiB per core window: not a power of two, so the same L1 offset on different cores
// (every core's CBs sit at the same offsets) falls into different host cache sets.
inline constexpr uint64_t kL1Stride = (2ull << 20) + 12 * 1024;

class L1Arena {
public:
    L1Arena() = default;
    L1Arena(uint32_t num_cores, uint32_t l1_bytes);
    ~L1Arena();
    L1Arena(const L1Arena&) = delete;
    L1Arena& operator=(const L1Arena&) = delete;

    uint8_t* core_base(uint32_t core) const { return base_ + uint64_t(core) * kL1Stride; }
    uint32_t core_addr(uint32_t core) const { return uint32_t(uintptr_t(core_base(core))); }
    // Core index whose window contains host address `addr`, or -1.
    int core_of(uint64_t addr, uint64_t* offset = nullptr) const;
    uint32_t l1_bytes() const { return l1_bytes_; }

private:
    uint8_t* base_ = nullptr;
    uint64_t mapped_ = 0;
    uint32_t num_cores_ = 0;
    uint32_t l1_bytes_ = 0;
};

class DramBanks {
public:
    DramBanks(uint32_t banks, uint64_t bank_bytes);
    ~DramBanks();
    DramBanks(const DramBanks&) = delete;
    DramBanks& operator=(const DramBanks&) = delete;

    // Bank b's byte 0. Banks are staggered by b * 4160 B inside their mappings so that page i
    // and page i+1 (same address, neighbouring banks) do not share host cache sets.
    uint8_t* bank_base(uint32_t bank) const { return bases_[bank] + kBankStagger * bank; }
    static constexpr uint64_t kBankStagger = 4096 + 64;
    uint32_t banks() const { return uint32_t(bases_.size()); }
    uint64_t bank_bytes() const { return bank_bytes_; }

private:
    std::vector<uint8_t*> bases_;
    uint64_t bank_bytes_ = 0;
};

// First-fit allocator over one bank's address range [lo, hi).
class RangeAllocator {
public:
    RangeAllocator(uint64_t lo, uint64_t hi) { free_[lo] = hi - lo; }
    // Returns the start of a free range of `bytes` aligned to `align`, or UINT64_MAX.
    uint64_t alloc(uint64_t bytes, uint64_t align);
    // Top-down: the highest aligned start whose range fits (tt-metal allocates L1 buffers from
    // the end of L1 downward), or UINT64_MAX.
    uint64_t alloc_top(uint64_t bytes, uint64_t align);
    void free(uint64_t start, uint64_t bytes);

private:
    std::map<uint64_t, uint64_t> free_;  // start → length
};

}  // namespace zyx::emu
