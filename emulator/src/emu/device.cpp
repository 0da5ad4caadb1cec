// zyx::emu::Device: presets, DRAM buffers, NoC coordinates. Programs: program.cpp; launches:
// launch.cpp.
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

#include "core/error.hpp"
#include "core/log.hpp"
#include "emu/device_impl.hpp"
#include "emu/engine.hpp"
#include "emu/program.hpp"

namespace zyx::emu {
namespace {

// Tensix columns of a Blackhole chip in NoC0 coordinates (columns 0 and 9 are DRAM, 8 is L2CPU).
constexpr uint32_t kBlackholeTensixX[] = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16};

// First address handed out in every DRAM bank (0 stays invalid, like a null pointer).
constexpr uint64_t kDramBase = 4096;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// A DeviceSpec the emulator can model: the limits come from its own tables and layouts (NoC
// coordinates are 6 bits, per-core state has room for 64 CBs and 64 DRAM banks, every core's L1
// window is kL1Stride apart with a guard page, kernels' reserved L1 area is 64 KiB).
const DeviceSpec& checked(const DeviceSpec& s) {
    auto bad = [&](const std::string& what) {
        throw Error(ErrorStatus::InvalidArgument, "device spec '" + s.name + "': " + what);
    };
    uint32_t max_x = s.arch == Arch::Wormhole ? 63 - 18 : uint32_t(std::size(kBlackholeTensixX));
    uint32_t max_y = s.arch == Arch::Wormhole ? 63 - 18 : 63 - 2;
    if (s.grid_x == 0 || s.grid_y == 0 || s.grid_x > max_x || s.grid_y > max_y)
        bad("grid " + std::to_string(s.grid_x) + "x" + std::to_string(s.grid_y) + " is outside 1x1 … " +
            std::to_string(max_x) + "x" + std::to_string(max_y));
    if (s.l1_unreserved_base < 0x10000 || s.l1_bytes <= s.l1_unreserved_base || s.l1_bytes > kL1Stride - 4096)
        bad("l1_bytes " + std::to_string(s.l1_bytes) + " / l1_unreserved_base " + std::to_string(s.l1_unreserved_base) +
            " (need 65536 <= base < l1_bytes <= " + std::to_string(kL1Stride - 4096) + ")");
    uint32_t max_banks = s.arch == Arch::Wormhole ? 64 : 62;
    if (s.dram_banks == 0 || s.dram_banks > max_banks)
        bad("dram_banks " + std::to_string(s.dram_banks) + " is outside 1 … " + std::to_string(max_banks));
    if (s.dram_bank_bytes <= kDramBase)
        bad("dram_bank_bytes " + std::to_string(s.dram_bank_bytes) + " is too small");
    if (!power_of_two(s.dram_alignment) || !power_of_two(s.l1_alignment))
        bad("alignments must be powers of two (dram " + std::to_string(s.dram_alignment) + ", l1 " +
            std::to_string(s.l1_alignment) + ")");
    if (s.num_cbs == 0 || s.num_cbs > 64) bad("num_cbs " + std::to_string(s.num_cbs) + " is outside 1 … 64");
    if (s.noc_max_burst == 0) bad("noc_max_burst is 0");
    return s;
}

}  // namespace

Device::Impl::Impl(const DeviceSpec& s, const DeviceOptions& o)
    : spec(checked(s)),
      options(o),
      l1(s.grid_x * s.grid_y, s.l1_bytes),
      dram(s.dram_banks, s.dram_bank_bytes),
      dram_alloc(kDramBase, s.dram_bank_bytes) {
    info.arch = s.arch == Arch::Wormhole ? 0 : 1;
    info.num_dram_banks = s.dram_banks;
    info.dram_alignment = s.dram_alignment;
    info.l1_alignment = s.l1_alignment;
    info.noc_max_burst = s.noc_max_burst;
    info.num_cbs = s.num_cbs;
    for (uint32_t b = 0; b < s.dram_banks && b < 64; ++b) {
        info.dram_bank_x[b] = uint8_t(dram_noc(b).x);
        info.dram_bank_y[b] = uint8_t(dram_noc(b).y);
    }
}

Device::Impl::~Impl() {
    try {
        join_launch();
    } catch (...) {
    }
    pool.reset();
    cores.clear();
    if (stack_region) ::munmap(stack_region, stack_region_bytes);
}

// Workers: Wormhole uses tt-metal's translated coordinates (logical + 18); Blackhole the NoC0
// position of the Tensix column and row. DRAM banks sit in column 0 (never a worker column).
CoreCoord Device::Impl::worker_noc(CoreCoord c) const {
    if (spec.arch == Arch::Wormhole) return {c.x + 18, c.y + 18};
    return {kBlackholeTensixX[c.x], c.y + 2};
}

CoreCoord Device::Impl::dram_noc(uint32_t bank) const {
    return spec.arch == Arch::Wormhole ? CoreCoord{0, bank} : CoreCoord{0, bank + 2};
}

int Device::Impl::core_at_noc(uint32_t x, uint32_t y) const {
    if (spec.arch == Arch::Wormhole) {
        if (x < 18 || y < 18 || x - 18 >= spec.grid_x || y - 18 >= spec.grid_y) return -1;
        return int(core_index({x - 18, y - 18}));
    }
    if (y < 2 || y - 2 >= spec.grid_y) return -1;
    for (uint32_t i = 0; i < spec.grid_x; ++i)
        if (kBlackholeTensixX[i] == x) return int(core_index({i, y - 2}));
    return -1;
}

int Device::Impl::bank_at_noc(uint32_t x, uint32_t y) const {
    if (x != 0) return -1;
    uint32_t first = spec.arch == Arch::Wormhole ? 0 : 2;
    if (y < first || y - first >= spec.dram_banks) return -1;
    return int(y - first);
}

const BufferRecord* Device::Impl::dram_owner(uint32_t bank, uint64_t addr, uint64_t bytes) const {
    // The buffer with the greatest address <= addr; bank `bank` holds pages bank, bank + nb, …
    auto it = buffers_by_address.upper_bound(addr);
    if (it == buffers_by_address.begin()) return nullptr;
    const BufferRecord& r = buffers.at(std::prev(it)->second);
    return r.holds(bank, addr, bytes) ? &r : nullptr;
}

const BufferRecord& Device::Impl::buffer_record(uint32_t id, ErrorStatus status, const char* what) const {
    auto it = buffers.find(id);
    if (it == buffers.end())
        throw Error(status, std::string(what) + ": unknown buffer id " + std::to_string(id));
    return it->second;
}

Device::Device(const DeviceSpec& spec, const DeviceOptions& options) : impl_(std::make_unique<Impl>(spec, options)) {
    ZYX_LOG(emu) << "device " << spec.name << ": grid " << spec.grid_x << "x" << spec.grid_y << ", "
                 << spec.dram_banks << " DRAM banks, L1 at 0x" << std::hex << impl_->l1.core_addr(0);
}

Device::~Device() = default;

const DeviceSpec& Device::spec() const { return impl_->spec; }

CoreCoord Device::worker_core(CoreCoord logical) const {
    if (logical.x >= impl_->spec.grid_x || logical.y >= impl_->spec.grid_y)
        throw Error(ErrorStatus::InvalidArgument, "worker_core: core (" + std::to_string(logical.x) + "," +
                                                      std::to_string(logical.y) + ") is outside the " +
                                                      std::to_string(impl_->spec.grid_x) + "x" +
                                                      std::to_string(impl_->spec.grid_y) + " grid");
    return impl_->worker_noc(logical);
}

CoreCoord Device::dram_bank_core(uint32_t bank) const {
    if (bank >= impl_->spec.dram_banks)
        throw Error(ErrorStatus::InvalidArgument, "dram_bank_core: bank " + std::to_string(bank) + " does not exist (" +
                                                      std::to_string(impl_->spec.dram_banks) + " banks)");
    return impl_->dram_noc(bank);
}

Buffer Device::buffer_create(uint64_t size, uint32_t page_bytes) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    if (size == 0) throw Error(ErrorStatus::MemoryAllocation, "buffer_create: zero-size buffer");
    if (page_bytes == 0 || size % page_bytes != 0)
        throw Error(ErrorStatus::InvalidArgument, "buffer_create: page size " + std::to_string(page_bytes) +
                                                      " B does not divide the buffer size " + std::to_string(size) + " B");
    // 64-bit, checked: a page near 2^32 must not wrap to a 0-byte stride (two buffers would share
    // an address). A page is one contiguous piece of one bank, so it must fit a bank.
    const uint64_t aligned_page = align_up(page_bytes, d.spec.dram_alignment);
    if (aligned_page > std::min<uint64_t>(d.spec.dram_bank_bytes, UINT32_MAX))
        throw Error(ErrorStatus::InvalidArgument, "buffer_create: page size " + std::to_string(page_bytes) +
                                                      " B does not fit a DRAM bank of " + std::to_string(d.spec.dram_bank_bytes) + " B");
    BufferRecord r;
    r.aligned_page = uint32_t(aligned_page);
    r.num_pages = size / page_bytes;
    const uint64_t rows = r.num_pages / d.spec.dram_banks + (r.num_pages % d.spec.dram_banks != 0);
    r.bank_span = rows <= d.spec.dram_bank_bytes / aligned_page ? rows * aligned_page : UINT64_MAX;  // UINT64_MAX: cannot fit
    r.full_rows = r.num_pages / d.spec.dram_banks;
    r.extra_pages = uint32_t(r.num_pages % d.spec.dram_banks);
    uint64_t addr = r.bank_span <= d.spec.dram_bank_bytes ? d.dram_alloc.alloc(r.bank_span, d.spec.dram_alignment) : UINT64_MAX;
    if (addr == UINT64_MAX || addr > UINT32_MAX)
        throw Error(ErrorStatus::MemoryAllocation,
                    "buffer_create: cannot allocate " + std::to_string(size) + " B (" + std::to_string(r.bank_span) +
                        " B in each of " + std::to_string(d.spec.dram_banks) + " DRAM banks): " +
                        std::to_string(d.dram_allocated) + " of " +
                        std::to_string(uint64_t(d.spec.dram_banks) * d.spec.dram_bank_bytes) + " B in use");
    r.buf = {d.next_buffer_id++, uint32_t(addr), size, page_bytes};
    d.dram_allocated += r.bank_span * d.spec.dram_banks;
    d.buffers.emplace(r.buf.id, r);
    d.buffers_by_address[r.buf.address] = r.buf.id;
    ZYX_LOG(mem) << "emu buffer " << r.buf.id << ": " << size << " B, page " << page_bytes << " B at 0x" << std::hex
                 << addr;
    return r.buf;
}

void Device::buffer_free(uint32_t buffer_id) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    const BufferRecord& r = d.buffer_record(buffer_id, ErrorStatus::MemoryDeallocation, "buffer_free");
    d.dram_alloc.free(r.buf.address, r.bank_span);
    d.dram_allocated -= r.bank_span * d.spec.dram_banks;
    d.buffers_by_address.erase(r.buf.address);
    d.buffers.erase(buffer_id);
}

namespace {

// Visits the bank memory behind the logical bytes [offset, offset + bytes) of a buffer, one page
// piece at a time: page i lives in bank i % banks at address + (i / banks) * aligned_page.
// `status` / `api` name the failure when the range does not fit the buffer.
template <class F>
void for_each_page_piece(Device::Impl& d, uint32_t buffer_id, uint64_t bytes, uint64_t offset, ErrorStatus status,
                         const char* api, F&& piece) {
    const BufferRecord& r = d.buffer_record(buffer_id, status, api);
    if (offset > r.buf.size || bytes > r.buf.size - offset)
        throw Error(status, std::string(api) + ": " + std::to_string(bytes) + " B at offset " + std::to_string(offset) +
                                " exceed buffer " + std::to_string(buffer_id) + " of " + std::to_string(r.buf.size) + " B");
    uint32_t nb = d.spec.dram_banks;
    for (uint64_t done = 0; done < bytes;) {
        uint64_t page = offset / r.buf.page_bytes, in_page = offset % r.buf.page_bytes;
        uint64_t n = std::min<uint64_t>(bytes - done, r.buf.page_bytes - in_page);
        piece(d.dram.bank_base(uint32_t(page % nb)) + r.buf.address + (page / nb) * r.aligned_page + in_page, done, n);
        done += n, offset += n;
    }
}

}  // namespace

void Device::buffer_write(uint32_t buffer_id, const void* src, uint64_t bytes, uint64_t offset) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    for_each_page_piece(d, buffer_id, bytes, offset, ErrorStatus::MemoryCopyH2P, "buffer_write",
                        [&](uint8_t* bank, uint64_t at, uint64_t n) { std::memcpy(bank, s + at, n); });
}

void Device::buffer_read(uint32_t buffer_id, void* dst, uint64_t bytes, uint64_t offset) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    uint8_t* o = static_cast<uint8_t*>(dst);
    for_each_page_piece(d, buffer_id, bytes, offset, ErrorStatus::MemoryCopyP2H, "buffer_read",
                        [&](uint8_t* bank, uint64_t at, uint64_t n) { std::memcpy(o + at, bank, n); });
}

const Buffer& Device::buffer(uint32_t buffer_id) const {
    std::lock_guard<std::mutex> lock(impl_->mu);
    return impl_->buffer_record(buffer_id, ErrorStatus::InvalidArgument, "buffer").buf;
}

std::vector<uint32_t> Device::tensor_accessor_args(uint32_t buffer_id) const {
    std::lock_guard<std::mutex> lock(impl_->mu);
    const BufferRecord& r = impl_->buffer_record(buffer_id, ErrorStatus::InvalidArgument, "tensor_accessor_args");
    return {kTensorAccessorIsDram, r.aligned_page};
}

DeviceStats Device::stats() const {
    std::lock_guard<std::mutex> lock(impl_->mu);
    DeviceStats s;
    s.dram_bytes_total = uint64_t(impl_->spec.dram_banks) * impl_->spec.dram_bank_bytes;
    s.dram_bytes_allocated = impl_->dram_allocated;
    s.buffers = uint32_t(impl_->buffers.size());
    s.programs = uint32_t(impl_->programs.size());
    s.launches = impl_->launches;
    return s;
}

}  // namespace zyx::emu
