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
    if (s.dram_bank_bytes <= kDramBase) bad("dram_bank_bytes " + std::to_string(s.dram_bank_bytes) + " is too small");
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
      dram_alloc(kDramBase, s.dram_bank_bytes),
      l1_alloc(s.l1_unreserved_base, s.l1_bytes) {
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
    } catch (...) {}
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

uint8_t* Device::Impl::page_ptr(const BufferRecord& r, uint64_t page, PageLocation* where) const {
    PageLocation loc;
    loc.type = r.buf.type;
    uint8_t* p = nullptr;
    if (r.buf.type == BufferType::Dram) {
        uint32_t nb = spec.dram_banks;
        loc.bank = uint32_t(page % nb);
        loc.address = uint32_t(r.buf.address + (page / nb) * r.aligned_page);
        p = dram.bank_base(loc.bank) + loc.address;
    } else {
        uint32_t core = 0, slot = 0;
        if (r.buf.layout == BufferLayout::Interleaved) {
            loc.bank = core = uint32_t(page % num_cores());
            slot = uint32_t(page / num_cores());
        } else {
            core = r.page_core[page];
            slot = r.page_slot[page];
            for (uint32_t s = 0; s < r.shard_core.size(); ++s)
                if (r.shard_core[s] == core) loc.bank = s;
        }
        loc.core = {core % spec.grid_x, core / spec.grid_x};
        loc.address = r.buf.address + slot * r.aligned_page;
        p = l1.core_base(core) + loc.address;
    }
    if (where) *where = loc;
    return p;
}

const BufferRecord& Device::Impl::buffer_record(uint32_t id, ErrorStatus status, const char* what) const {
    auto it = buffers.find(id);
    if (it == buffers.end()) throw Error(status, std::string(what) + ": unknown buffer id " + std::to_string(id));
    return it->second;
}

Device::Device(const DeviceSpec& spec, const DeviceOptions& options) : impl_(std::make_unique<Impl>(spec, options)) {
    ZYX_LOG(emu) << "device " << spec.name << ": grid " << spec.grid_x << "x" << spec.grid_y << ", " << spec.dram_banks
                 << " DRAM banks, L1 at 0x" << std::hex << impl_->l1.core_addr(0);
}

Device::~Device() = default;

const DeviceSpec& Device::spec() const { return impl_->spec; }

CoreCoord Device::worker_core(CoreCoord logical) const {
    if (logical.x >= impl_->spec.grid_x || logical.y >= impl_->spec.grid_y)
        throw Error(ErrorStatus::InvalidArgument,
                    "worker_core: core (" + std::to_string(logical.x) + "," + std::to_string(logical.y) +
                        ") is outside the " + std::to_string(impl_->spec.grid_x) + "x" +
                        std::to_string(impl_->spec.grid_y) + " grid");
    return impl_->worker_noc(logical);
}

CoreCoord Device::dram_bank_core(uint32_t bank) const {
    if (bank >= impl_->spec.dram_banks)
        throw Error(ErrorStatus::InvalidArgument,
                    "dram_bank_core: bank " + std::to_string(bank) + " does not exist (" +
                        std::to_string(impl_->spec.dram_banks) + " banks)");
    return impl_->dram_noc(bank);
}

Buffer Device::buffer_create(uint64_t size, uint32_t page_bytes) {
    BufferConfig c;
    c.size = size;
    c.page_bytes = page_bytes;
    return buffer_create(c);
}

namespace {

const char* layout_name(BufferLayout l) {
    switch (l) {
        case BufferLayout::Interleaved: return "interleaved";
        case BufferLayout::HeightSharded: return "height-sharded";
        case BufferLayout::WidthSharded: return "width-sharded";
        case BufferLayout::BlockSharded: return "block-sharded";
    }
    return "?";
}

// The cores of a shard grid in shard order, as tt-metal's corerange_to_cores(grid, n, row_wise):
// range by range, row by row (RowMajor) or column by column (ColMajor), each core once.
std::vector<CoreCoord> shard_cores(const DeviceSpec& d, const ShardSpec& s) {
    std::vector<CoreCoord> out;
    std::vector<bool> seen(size_t(d.grid_x) * d.grid_y, false);
    for (const auto& r : s.cores) {
        if (r.start.x > r.end.x || r.start.y > r.end.y || r.end.x >= d.grid_x || r.end.y >= d.grid_y)
            throw Error(ErrorStatus::InvalidArgument,
                        "buffer_create: shard core range " + coord_str(r.start) + "-" + coord_str(r.end) +
                            " is inverted or outside the " + std::to_string(d.grid_x) + "x" + std::to_string(d.grid_y) +
                            " grid");
        bool row = s.orientation == ShardOrientation::RowMajor;
        uint32_t outer_n = row ? r.end.y - r.start.y + 1 : r.end.x - r.start.x + 1;
        uint32_t inner_n = row ? r.end.x - r.start.x + 1 : r.end.y - r.start.y + 1;
        for (uint32_t o = 0; o < outer_n; ++o)
            for (uint32_t i = 0; i < inner_n; ++i) {
                CoreCoord c = row ? CoreCoord{r.start.x + i, r.start.y + o} : CoreCoord{r.start.x + o, r.start.y + i};
                if (!seen[c.y * d.grid_x + c.x]) seen[c.y * d.grid_x + c.x] = true, out.push_back(c);
            }
    }
    return out;
}

// Page → (shard core, slot) of a sharded buffer, as tt-metal's generate_buffer_page_mapping for
// a ShardSpecBuffer (tt_metal/impl/buffers/buffer.cpp, core_to_host_pages): shards row-major
// over the shard grid, shard s on the s-th shard core, slot = row * shard width + column.
void plan_shards(const DeviceSpec& d, const BufferConfig& c, BufferRecord& r) {
    const ShardSpec& s = c.shard;
    auto bad = [&](const std::string& what) {
        throw Error(ErrorStatus::InvalidArgument,
                    std::string("buffer_create: ") + layout_name(c.layout) + " buffer: " + what);
    };
    if (c.type != BufferType::L1) bad("sharded buffers live in L1 (BufferType::L1)");
    if (s.page_shape[0] == 0 || s.page_shape[1] == 0 || s.shard_shape[0] % s.page_shape[0] != 0 ||
        s.shard_shape[1] % s.page_shape[1] != 0 || s.shard_shape[0] == 0 || s.shard_shape[1] == 0)
        bad("shard shape " + std::to_string(s.shard_shape[0]) + "x" + std::to_string(s.shard_shape[1]) +
            " is not a non-zero multiple of the page shape " + std::to_string(s.page_shape[0]) + "x" +
            std::to_string(s.page_shape[1]));
    const uint32_t sh = s.shard_shape[0] / s.page_shape[0], sw = s.shard_shape[1] / s.page_shape[1];
    const uint32_t th = s.tensor_shape_in_pages[0], tw = s.tensor_shape_in_pages[1];
    if (uint64_t(th) * tw != r.num_pages)
        bad("tensor shape in pages " + std::to_string(th) + "x" + std::to_string(tw) + " does not hold the buffer's " +
            std::to_string(r.num_pages) + " pages");
    if (c.layout == BufferLayout::HeightSharded && sw != tw)
        bad("a height-sharded shard spans the full width (" + std::to_string(tw) + " pages), not " +
            std::to_string(sw));
    if (c.layout == BufferLayout::WidthSharded && sh != th)
        bad("a width-sharded shard spans the full height (" + std::to_string(th) + " pages), not " +
            std::to_string(sh));
    const uint32_t grid_h = (th + sh - 1) / sh, grid_w = (tw + sw - 1) / sw;
    std::vector<CoreCoord> cores = shard_cores(d, s);
    if (uint64_t(grid_h) * grid_w > cores.size())
        bad(std::to_string(grid_h * grid_w) + " shards (" + std::to_string(grid_h) + "x" + std::to_string(grid_w) +
            ") do not fit the " + std::to_string(cores.size()) + " cores of the shard grid");
    for (uint32_t i = 0; i < grid_h * grid_w; ++i) r.shard_core.push_back(cores[i].y * d.grid_x + cores[i].x);
    r.page_core.resize(r.num_pages);
    r.page_slot.resize(r.num_pages);
    for (uint64_t p = 0; p < r.num_pages; ++p) {
        uint32_t row = uint32_t(p / tw), col = uint32_t(p % tw);
        r.page_core[p] = r.shard_core[(row / sh) * grid_w + col / sw];
        r.page_slot[p] = (row % sh) * sw + col % sw;
    }
    r.bank_span = uint64_t(sh) * sw * r.aligned_page;
}

}  // namespace

Buffer Device::buffer_create(const BufferConfig& c) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    const uint64_t size = c.size;
    const uint32_t page_bytes = c.page_bytes;
    const bool l1 = c.type == BufferType::L1;
    if (size == 0) throw Error(ErrorStatus::MemoryAllocation, "buffer_create: zero-size buffer");
    if (page_bytes == 0 || size % page_bytes != 0)
        throw Error(ErrorStatus::InvalidArgument,
                    "buffer_create: page size " + std::to_string(page_bytes) + " B does not divide the buffer size " +
                        std::to_string(size) + " B");
    if (!l1 && c.layout != BufferLayout::Interleaved)
        throw Error(ErrorStatus::InvalidArgument,
                    std::string("buffer_create: a ") + layout_name(c.layout) +
                        " DRAM buffer: sharded buffers live in L1 in the emulator");
    // 64-bit, checked: a page near 2^32 must not wrap to a 0-byte stride (two buffers would share
    // an address). A page is one contiguous piece of one bank, so it must fit a bank.
    const uint64_t bank_bytes = l1 ? d.spec.l1_bytes - d.spec.l1_unreserved_base : d.spec.dram_bank_bytes;
    const uint32_t align = l1 ? d.spec.l1_alignment : d.spec.dram_alignment;
    const uint32_t banks = l1 ? d.num_cores() : d.spec.dram_banks;
    const char* where = l1 ? "L1 bank" : "DRAM bank";
    const uint64_t aligned_page = align_up(page_bytes, align);
    if (aligned_page > std::min<uint64_t>(bank_bytes, UINT32_MAX))
        throw Error(ErrorStatus::InvalidArgument,
                    "buffer_create: page size " + std::to_string(page_bytes) + " B does not fit a " + where + " of " +
                        std::to_string(bank_bytes) + " B");
    BufferRecord r;
    r.aligned_page = uint32_t(aligned_page);
    r.num_pages = size / page_bytes;
    if (c.layout == BufferLayout::Interleaved) {
        const uint64_t rows = r.num_pages / banks + (r.num_pages % banks != 0);
        r.bank_span = rows <= bank_bytes / aligned_page ? rows * aligned_page : UINT64_MAX;  // UINT64_MAX: cannot fit
        r.full_rows = r.num_pages / banks;
        r.extra_pages = uint32_t(r.num_pages % banks);
    } else {
        plan_shards(d.spec, c, r);
    }
    uint64_t addr = UINT64_MAX;
    if (r.bank_span <= bank_bytes)
        addr = l1 ? d.l1_alloc.alloc_top(r.bank_span, align) : d.dram_alloc.alloc(r.bank_span, align);
    if (addr == UINT64_MAX || addr > UINT32_MAX) {
        std::string in_use = l1 ? std::string()
                                : ": " + std::to_string(d.dram_allocated) + " of " +
                std::to_string(uint64_t(banks) * bank_bytes) + " B in use";
        throw Error(ErrorStatus::MemoryAllocation,
                    "buffer_create: cannot allocate " + std::to_string(size) + " B (" + std::to_string(r.bank_span) +
                        " B in each of " + std::to_string(banks) + " " + where + "s)" + in_use);
    }
    r.buf = {d.next_buffer_id++, uint32_t(addr), size, page_bytes, c.type, c.layout};
    if (!l1) {
        d.dram_allocated += r.bank_span * d.spec.dram_banks;
        d.buffers_by_address[r.buf.address] = r.buf.id;
    }
    d.buffers.emplace(r.buf.id, r);
    ZYX_LOG(mem) << "emu buffer " << r.buf.id << ": " << size << " B " << (l1 ? "L1 " : "DRAM ")
                 << layout_name(c.layout) << ", page " << page_bytes << " B at 0x" << std::hex << addr;
    return r.buf;
}

void Device::buffer_free(uint32_t buffer_id) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    const BufferRecord& r = d.buffer_record(buffer_id, ErrorStatus::MemoryDeallocation, "buffer_free");
    if (r.buf.type == BufferType::L1) {
        d.l1_alloc.free(r.buf.address, r.bank_span);
    } else {
        d.dram_alloc.free(r.buf.address, r.bank_span);
        d.dram_allocated -= r.bank_span * d.spec.dram_banks;
        d.buffers_by_address.erase(r.buf.address);
    }
    d.buffers.erase(buffer_id);
}

namespace {

// Visits the bank memory behind the logical bytes [offset, offset + bytes) of a buffer, one page
// piece at a time (Impl::page_ptr).
// `status` / `api` name the failure when the range does not fit the buffer.
template <class F>
void for_each_page_piece(Device::Impl& d, uint32_t buffer_id, uint64_t bytes, uint64_t offset, ErrorStatus status,
                         const char* api, F&& piece) {
    const BufferRecord& r = d.buffer_record(buffer_id, status, api);
    if (offset > r.buf.size || bytes > r.buf.size - offset)
        throw Error(status,
                    std::string(api) + ": " + std::to_string(bytes) + " B at offset " + std::to_string(offset) +
                        " exceed buffer " + std::to_string(buffer_id) + " of " + std::to_string(r.buf.size) + " B");
    for (uint64_t done = 0; done < bytes;) {
        uint64_t page = offset / r.buf.page_bytes, in_page = offset % r.buf.page_bytes;
        uint64_t n = std::min<uint64_t>(bytes - done, r.buf.page_bytes - in_page);
        piece(d.page_ptr(r, page) + in_page, done, n);
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
    if (r.buf.layout != BufferLayout::Interleaved)
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: tensor_accessor_args of " + std::string(layout_name(r.buf.layout)) + " buffer " +
                        std::to_string(buffer_id) +
                        ": the emulator's TensorAccessor is interleaved only; reach a shard "
                        "through a circular buffer placed on the buffer");
    return {r.buf.type == BufferType::Dram ? kTensorAccessorIsDram : 0u, r.aligned_page};
}

PageLocation Device::buffer_page_location(uint32_t buffer_id, uint64_t page) const {
    std::lock_guard<std::mutex> lock(impl_->mu);
    const BufferRecord& r = impl_->buffer_record(buffer_id, ErrorStatus::InvalidArgument, "buffer_page_location");
    if (page >= r.num_pages)
        throw Error(ErrorStatus::InvalidArgument,
                    "buffer_page_location: page " + std::to_string(page) + " is past the " +
                        std::to_string(r.num_pages) + " pages of buffer " + std::to_string(buffer_id));
    PageLocation loc;
    impl_->page_ptr(r, page, &loc);
    return loc;
}

CoreCoord Device::l1_bank_core(uint32_t bank) const {
    if (bank >= impl_->num_cores())
        throw Error(ErrorStatus::InvalidArgument,
                    "l1_bank_core: bank " + std::to_string(bank) + " does not exist (" +
                        std::to_string(impl_->num_cores()) + " L1 banks)");
    return {bank % impl_->spec.grid_x, bank / impl_->spec.grid_x};
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
