// Private state of zyx::emu::Device (see device.hpp). Shared by device.cpp (buffers, programs),
// launch.cpp (running a program) and the kernel API implementation.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "emu/device.hpp"
#include "emu/memory.hpp"
#include "zyx_emu/kernel_abi.h"

namespace zyx::emu {

// "(x,y)" for messages. (Built by appending: GCC 12 warns falsely on "(" + std::string&&.)
inline std::string coord_str(CoreCoord c) {
    std::string s = "(";
    s += std::to_string(c.x);
    s += ',';
    s += std::to_string(c.y);
    s += ')';
    return s;
}

struct BufferRecord {
    Buffer buf;
    uint32_t aligned_page = 0;  // page stride inside a bank: align(page_bytes, DRAM / L1 alignment)
    uint64_t num_pages = 0;
    uint64_t bank_span = 0;    // bytes reserved at `address` in every bank
    uint64_t full_rows = 0;    // num_pages / banks: pages every bank holds
    uint32_t extra_pages = 0;  // num_pages % banks: banks 0 … extra_pages-1 hold one page more
    // Sharded L1 buffers: per page, the core index (y * grid_x + x) and the page slot in its
    // shard; per shard, its core index.
    std::vector<uint32_t> page_core, page_slot, shard_core;
    // True when the bytes [addr, addr + bytes) of DRAM bank `bank` lie inside this buffer's pages
    // in that bank (page i is in bank i % banks).
    bool holds(uint32_t bank, uint64_t addr, uint64_t bytes) const {
        uint64_t end = buf.address + (full_rows + (bank < extra_pages ? 1 : 0)) * aligned_page;
        return addr >= buf.address && addr <= end && bytes <= end - addr;
    }
};

struct Program;    // program.hpp
struct Launch;     // engine.hpp
struct Core;       // engine.hpp
class WorkerPool;  // engine.hpp

struct Device::Impl {
    DeviceSpec spec;
    DeviceOptions options;
    L1Arena l1;
    DramBanks dram;
    RangeAllocator dram_alloc;
    RangeAllocator l1_alloc;  // L1 buffers: [l1_unreserved_base, l1_bytes), the same range on every core
    mutable std::mutex mu;    // guards buffers / programs against the launch thread's lookups

    std::map<uint32_t, BufferRecord> buffers;
    std::map<uint64_t, uint32_t> buffers_by_address;  // DRAM address → buffer id (NoC bounds checks)
    uint32_t next_buffer_id = 1;
    uint64_t dram_allocated = 0;  // bank_span * banks summed over live buffers

    std::map<ProgramId, std::shared_ptr<Program>> programs;
    ProgramId next_program_id = 1;
    uint64_t launches = 0;

    std::unique_ptr<WorkerPool> pool;  // created on first launch
    std::shared_ptr<Launch> running;   // the launch in flight (or finished, not yet joined)
    std::optional<Error> unreported;   // failure of a finished launch, thrown by the next wait()

    // Per-core engine state and fiber stacks, created on the first launch and reused.
    std::vector<std::unique_ptr<Core>> cores;
    void* stack_region = nullptr;
    size_t stack_region_bytes = 0;
    std::vector<void*> fiber_stacks;  // [core * 5 + processor]
    zyx_emu_device_info info{};       // what kernels' address generators read

    Impl(const DeviceSpec& s, const DeviceOptions& o);
    ~Impl();

    uint32_t num_cores() const { return spec.grid_x * spec.grid_y; }
    uint32_t core_index(CoreCoord c) const { return c.y * spec.grid_x + c.x; }
    CoreCoord worker_noc(CoreCoord logical) const;
    CoreCoord dram_noc(uint32_t bank) const;
    // Lookups for the NoC: logical core of a NoC (x,y), or -1; DRAM bank of a NoC (x,y), or -1.
    int core_at_noc(uint32_t x, uint32_t y) const;
    int bank_at_noc(uint32_t x, uint32_t y) const;
    // The live buffer covering [addr, addr+bytes) of `bank`, or nullptr.
    const BufferRecord* dram_owner(uint32_t bank, uint64_t addr, uint64_t bytes) const;
    // Finishes the launch in flight (if any) without consuming its error.
    void join_launch();

    const BufferRecord& buffer_record(uint32_t id, ErrorStatus status, const char* what) const;
    // Host memory of page `page` of a buffer (with its logical core or DRAM bank in *where).
    uint8_t* page_ptr(const BufferRecord& r, uint64_t page, PageLocation* where = nullptr) const;
    // A kernel's L1 address → offset in a core's L1: a host address inside some core's window,
    // or a value in [l1_unreserved_base, l1_bytes), the address of an L1 buffer. False otherwise.
    bool l1_offset(uint64_t addr, uint64_t* off) const {
        if (addr >= spec.l1_unreserved_base && addr < spec.l1_bytes) return *off = addr, true;
        return l1.core_of(addr, off) >= 0;
    }
};

}  // namespace zyx::emu
