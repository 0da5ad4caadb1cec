// Kernel API, data-movement side: arguments, circular buffers, NoC transfers, semaphores,
// DPRINT. Every rule a kernel can break is checked here and reported through kernel_fault(),
// which names the kernel, core and processor.
#include <cmath>
#include <cstring>
#include <iomanip>
#include <sstream>

#include "core/log.hpp"
#include "emu/dprint_format.hpp"
#include "emu/kernel_api.hpp"
#include "emu/program.hpp"
#include "core/tenstorrent_names.hpp"
#include "tile_math.hpp"

namespace zyx::emu::api {
namespace {

Fiber& cur() { return *current_fiber(); }
Device::Impl& dev() { return *current_launch()->dev; }

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

bool is_compute(const Fiber& f) { return f.proc >= Proc::Unpack; }

// ---- arguments --------------------------------------------------------------------------------
int role() { return int(cur().proc); }
const zyx_emu_device_info* device_info() { return &dev().info; }
uint8_t noc_index() { return cur().noc; }
const uint8_t* my_x() { return cur().core->my_x; }
const uint8_t* my_y() { return cur().core->my_y; }
uint32_t logical_x() { return cur().core->logical.x; }
uint32_t logical_y() { return cur().core->logical.y; }

// get_arg_val and get_arg_addr both come here (the table has one entry for both), so an index
// out of range names both.
uint32_t arg_addr(int idx) {
    Fiber& f = cur();
    if (idx < 0 || uint32_t(idx) >= f.nargs)
        kernel_fault("get_arg_val/get_arg_addr(" + std::to_string(idx) + "): runtime arg index out of range (" +
                     std::to_string(f.nargs) + " runtime args set for this kernel on this core)");
    return f.args_addr + uint32_t(idx) * 4;
}
uint32_t common_arg_addr(int idx) {
    Fiber& f = cur();
    if (idx < 0 || uint32_t(idx) >= f.ncommon)
        kernel_fault("get_common_arg_val/get_common_arg_addr(" + std::to_string(idx) +
                     "): common runtime arg index out of range (" + std::to_string(f.ncommon) +
                     " common runtime args set for this kernel)");
    return f.common_addr + uint32_t(idx) * 4;
}
uint32_t get_semaphore(uint32_t id) {
    Fiber& f = cur();
    const auto& sems = current_launch()->program->core_semaphores[f.core->index];
    for (auto [sid, v] : sems)
        if (sid == id) return f.core->l1_addr + kL1SemaphoreBase + id * 16;
    kernel_fault("get_semaphore(" + std::to_string(id) + "): no semaphore " + std::to_string(id) +
                 " exists on this core (the program created " +
                 std::to_string(current_launch()->program->spec.semaphores.size()) + ")");
}

// ---- circular buffers -------------------------------------------------------------------------
// Each check is one condition on the hot path; the message is built out of line (ZYX_EMU_COLD).

std::string cb_call(const char* api, int32_t id, int32_t n) {
    return std::string(api) + "(cb " + std::to_string(id) + ", " + std::to_string(n) + ")";
}

[[noreturn]] ZYX_EMU_COLD void claim_fault(int32_t id, int8_t owner, bool producer, const char* api) {
    kernel_fault(std::string(api) + "(cb " + std::to_string(id) + "): " + (producer ? "pushes into" : "pops from") +
                 " a CB whose " + (producer ? "producer" : "consumer") + " is " + proc_name(Proc(owner)) +
                 " (only one processor may " + (producer ? "push" : "pop") + ")");
}

// The first processor to push (pop) a CB becomes its producer (consumer); no other may.
inline void claim(Fiber& f, CbState& cb, int32_t id, bool producer, const char* api) {
    int8_t& owner = producer ? cb.producer : cb.consumer;
    if (owner == int8_t(f.proc)) [[likely]]
        return;
    if (owner >= 0) claim_fault(id, owner, producer, api);
    owner = int8_t(f.proc);
}

[[noreturn]] ZYX_EMU_COLD void reserve_fault(const CbState& cb, int32_t id, int32_t n) {
    if (n <= 0 || uint32_t(n) > cb.num_pages)
        kernel_fault(cb_call("cb_reserve_back", id, n) + ": asks for more pages than the CB holds (" +
                     std::to_string(cb.num_pages) + "); this hangs forever on silicon");
    const uint32_t at = uint32_t((cb.wr_ptr - cb.fifo_base) / cb.page_bytes);
    kernel_fault(
        cb_call("cb_reserve_back", id, n) + ": the reservation at page " + std::to_string(at) +
        " crosses the end of the " + std::to_string(cb.num_pages) + "-page CB (overrun): only " +
        std::to_string(cb.num_pages - at) +
        " pages remain before its end. Every cb_reserve_back / cb_push_back on one CB must use the same page count, "
        "and that count must divide the CB's size (tt-metal docs, cb_reserve_back)");
}

void cb_reserve_back(int32_t id, int32_t n) {
    Fiber& f = cur();
    if (is_compute(f) && f.proc != Proc::Pack) return;
    CbState& cb = cb_checked(f, id, "cb_reserve_back");
    claim(f, cb, id, true, "cb_reserve_back");
    if (n <= 0 || uint32_t(n) > cb.num_pages || cb.wr_ptr + uint64_t(n) * cb.page_bytes > cb.fifo_limit) [[unlikely]]
        reserve_fault(cb, id, n);
    if (cb.free_pages() < uint32_t(n)) block_on(f, Wait::CbReserve, id, n);
    if (uint32_t(n) > cb.reserved) cb.reserved = uint32_t(n);
}

[[noreturn]] ZYX_EMU_COLD void push_fault(const CbState& cb, int32_t id, int32_t n) {
    if (n <= 0 || uint32_t(n) > cb.reserved)
        kernel_fault(cb_call("cb_push_back", id, n) + ": pushes more pages than were reserved with cb_reserve_back (" +
                     std::to_string(cb.reserved) + ")");
    kernel_fault(cb_call("cb_push_back", id, n) + ": overruns the end of the CB");
}

[[noreturn]] ZYX_EMU_COLD void push_read_fault(int32_t id, int32_t n, const NocTxn& t) {
    kernel_fault(cb_call("cb_push_back", id, n) + ": a NoC read into these pages (" + std::to_string(t.size) +
                 " B at " + hex(uintptr_t(t.dst)) +
                 ") is still outstanding: missing noc_async_read_barrier before cb_push_back");
}

void cb_push_back(int32_t id, int32_t n) {
    Fiber& f = cur();
    if (is_compute(f) && f.proc != Proc::Pack) return;
    CbState& cb = cb_checked(f, id, "cb_push_back");
    claim(f, cb, id, true, "cb_push_back");
    uint64_t bytes = uint64_t(n) * cb.page_bytes;
    if (n <= 0 || uint32_t(n) > cb.reserved || cb.wr_ptr + bytes > cb.fifo_limit) [[unlikely]]
        push_fault(cb, id, n);
    for (const NocTxn& t : f.txns) {
        uint64_t d = uintptr_t(t.dst);
        if (t.is_read && d < cb.wr_ptr + bytes && d + t.size > cb.wr_ptr) push_read_fault(id, n, t);
    }
    f.core->races->record(kL1Space + f.core->index, cb.wr_ptr - f.core->l1_addr, uint32_t(bytes), true,
                          AccessOp::CbPush, uint8_t(f.proc), uint8_t(id));
    cb.wr_ptr += uint32_t(bytes);
    if (cb.wr_ptr == cb.fifo_limit) cb.wr_ptr = cb.fifo_base;
    cb.received = uint16_t(cb.received + n);
    cb.reserved -= uint32_t(n);
    cb.packed = 0;
    ++f.events;
}

[[noreturn]] ZYX_EMU_COLD void wait_fault(const CbState& cb, int32_t id, int32_t n) {
    if (n <= 0 || uint32_t(n) > cb.num_pages)
        kernel_fault(cb_call("cb_wait_front", id, n) + ": waits for more pages than the CB holds (" +
                     std::to_string(cb.num_pages) + "); this hangs forever on silicon");
    const uint32_t at = uint32_t((cb.rd_ptr - cb.fifo_base) / cb.page_bytes);
    kernel_fault(cb_call("cb_wait_front", id, n) + ": the window at page " + std::to_string(at) +
                 " crosses the end of the " + std::to_string(cb.num_pages) + "-page CB (overrun): only " +
                 std::to_string(cb.num_pages - at) + " pages remain before its end, " + std::to_string(cb.available()) +
                 " of them available now. Every cb_wait_front on one CB must use the same page count, and that count "
                 "must divide the CB's size (tt-metal docs, cb_wait_front)");
}

void cb_wait_front(int32_t id, int32_t n) {
    Fiber& f = cur();
    if (is_compute(f) && f.proc != Proc::Unpack) return;
    CbState& cb = cb_checked(f, id, "cb_wait_front");
    claim(f, cb, id, false, "cb_wait_front");
    if (n <= 0 || uint32_t(n) > cb.num_pages || cb.rd_ptr + uint64_t(n) * cb.page_bytes > cb.fifo_limit) [[unlikely]]
        wait_fault(cb, id, n);
    if (cb.available() < uint32_t(n)) block_on(f, Wait::CbWait, id, n);
    if (uint32_t(n) > cb.waited) cb.waited = uint32_t(n);
}

[[noreturn]] ZYX_EMU_COLD void pop_fault(const CbState& cb, int32_t id, int32_t n) {
    kernel_fault(cb_call("cb_pop_front", id, n) + ": pops more pages than were waited for with cb_wait_front (" +
                 std::to_string(cb.waited) + "); waits are cumulative from the front");
}

[[noreturn]] ZYX_EMU_COLD void pop_write_fault(int32_t id, int32_t n, const NocTxn& t) {
    kernel_fault(cb_call("cb_pop_front", id, n) + ": a NoC write from these pages (" + std::to_string(t.size) +
                 " B at " + hex(uintptr_t(t.src)) +
                 ") is still outstanding: missing noc_async_write_barrier before cb_pop_front");
}

void cb_pop_front(int32_t id, int32_t n) {
    Fiber& f = cur();
    if (is_compute(f) && f.proc != Proc::Unpack) return;
    CbState& cb = cb_checked(f, id, "cb_pop_front");
    claim(f, cb, id, false, "cb_pop_front");
    if (n <= 0 || uint32_t(n) > cb.waited) [[unlikely]]
        pop_fault(cb, id, n);
    uint64_t bytes = uint64_t(n) * cb.page_bytes;
    for (const NocTxn& t : f.txns) {
        uint64_t s = uintptr_t(t.src);
        if (!t.is_read && s < cb.rd_ptr + bytes && s + t.size > cb.rd_ptr) pop_write_fault(id, n, t);
    }
    f.core->races->record(kL1Space + f.core->index, cb.rd_ptr - f.core->l1_addr, uint32_t(bytes), false,
                          AccessOp::CbPop, uint8_t(f.proc), uint8_t(id));
    cb.rd_ptr += uint32_t(bytes);
    if (cb.rd_ptr == cb.fifo_limit) cb.rd_ptr = cb.fifo_base;
    cb.acked = uint16_t(cb.acked + n);
    cb.waited -= uint32_t(n);
    ++f.events;
}

uint32_t get_write_ptr(int32_t id) { return cb_checked(cur(), id, "get_write_ptr").wr_ptr; }
uint32_t get_read_ptr(int32_t id) { return cb_checked(cur(), id, "get_read_ptr").rd_ptr; }

// Polling calls yield when the answer is "no", so a polling loop lets the other fibers run (the
// scheduler does not resume the poller again in the same pass). The Wait says what it polls, for
// the deadlock report of a launch where nothing but polling happens any more (engine.hpp).
void poll_yield(Fiber& f, Wait::PollKind what, int32_t cb = 0, int32_t n = 0) {
    f.wait.kind = Wait::Poll;
    f.wait.poll = what;
    f.wait.cb = cb;
    f.wait.n = n;
    f.polled = true;
    // Idle: nothing happened since the previous poll returned (a first poll after a blocking
    // wait may count as busy once: the events before the wait are counted too).
    f.idle_poll = f.events == f.events_at_poll;
    fiber_yield(f);
    f.events_at_poll = f.events;
    f.wait.kind = Wait::None;
}
bool cb_pages_reservable_at_back(int32_t id, int32_t n) {
    Fiber& f = cur();
    bool ok = cb_checked(f, id, "cb_pages_reservable_at_back").free_pages() >= uint32_t(n);
    if (!ok) poll_yield(f, Wait::PollReservable, id, n);
    return ok;
}
bool cb_pages_available_at_front(int32_t id, int32_t n) {
    Fiber& f = cur();
    bool ok = cb_checked(f, id, "cb_pages_available_at_front").available() >= uint32_t(n);
    if (!ok) poll_yield(f, Wait::PollAvailable, id, n);
    return ok;
}
// get_tile_size(cb) (dataflow_api.h calls it through the cb_tile_size entry): as
// tt-metal's, the size of one tile in the CB's data format (2048 B for Float16_b), whatever the
// CB's page size.
uint32_t cb_tile_size(int32_t id) { return cb_checked(cur(), id, "get_tile_size").tile_bytes; }
uint32_t cb_data_format(int32_t id) { return uint32_t(cb_checked(cur(), id, "get_dataformat").format); }

// ---- NoC ----------------------------------------------------------------------------------------
struct Target {
    uint8_t* ptr;
    uint64_t addr;  // L1 offset or DRAM bank address (what alignment is judged on)
    bool dram;
    uint32_t bank = 0;                    // DRAM: the bank
    const BufferRecord* owner = nullptr;  // DRAM: the live buffer holding the bytes
    uint32_t core = 0;                    // L1: the core
    // The race check's address space for these bytes (races.hpp).
    uint32_t space() const { return dram ? bank : kL1Space + core; }
    // A semaphore word (noc_semaphore_set_remote / _multicast write one): a release, not data.
    bool sync_word() const { return !dram && addr >= kL1SemaphoreBase && addr < kL1SemaphoreBase + kMaxSemaphores * 16; }
};

// The live buffer holding [addr, addr + bytes) of DRAM bank `bank`, or null. A buffer's range in
// every bank is [address, address + bank_span), and ranges never overlap, so when addr falls in
// the range of a buffer this processor used recently, that buffer alone decides.
const BufferRecord* find_dram_owner(Fiber& f, const Device::Impl& d, uint32_t bank, uint64_t addr, uint64_t bytes) {
    for (const BufferRecord* r : f.dram_seen)
        if (r && addr - r->buf.address < r->bank_span) return r->holds(bank, addr, bytes) ? r : nullptr;
    const BufferRecord* r = d.dram_owner(bank, addr, bytes);
    if (r) f.dram_seen[f.dram_seen_next++ % 2] = r;
    return r;
}

[[noreturn]] ZYX_EMU_COLD void resolve_fault(uint64_t noc_addr, uint32_t size, const char* api) {
    Device::Impl& d = dev();
    uint32_t x = uint32_t(noc_addr >> 36) & 63, y = uint32_t(noc_addr >> 42) & 63;
    uint64_t local = noc_addr & ((1ull << 36) - 1);
    std::string where =
        std::string(api) + ": NoC (" + std::to_string(x) + "," + std::to_string(y) + ") address " + hex(local);
    if (d.core_at_noc(x, y) >= 0) {
        uint64_t off = 0;
        if (!d.l1_offset(local, &off))
            kernel_fault(where +
                         " is not an L1 address (kernels address L1 with the values get_write_ptr / "
                         "get_read_ptr / get_semaphore return, or an L1 buffer's address)");
        kernel_fault(where + ": " + std::to_string(size) + " B at L1 offset " + std::to_string(off) +
                     " run past the end of L1 (" + std::to_string(d.spec.l1_bytes) + " B): out of bounds");
    }
    if (int b = d.bank_at_noc(x, y); b >= 0)
        kernel_fault(where + ": " + std::to_string(size) + " B in DRAM bank " + std::to_string(b) +
                     " are not inside any live buffer: out of bounds");
    kernel_fault(where + ": (" + std::to_string(x) + "," + std::to_string(y) +
                 ") is neither a worker core nor a DRAM bank");
}

// A NoC address (y << 42 | x << 36 | local) → host memory, bounds-checked against the target's
// L1 or the live DRAM buffers.
Target resolve(Fiber& f, uint64_t noc_addr, uint32_t size, const char* api) {
    Device::Impl& d = dev();
    uint32_t x = uint32_t(noc_addr >> 36) & 63, y = uint32_t(noc_addr >> 42) & 63;
    uint64_t local = noc_addr & ((1ull << 36) - 1);
    if (int c = d.core_at_noc(x, y); c >= 0) {
        uint64_t off = 0;
        if (!d.l1_offset(local, &off) || off + size > d.spec.l1_bytes) [[unlikely]]
            resolve_fault(noc_addr, size, api);
        return {d.l1.core_base(uint32_t(c)) + off, off, false, 0, nullptr, uint32_t(c)};
    }
    if (int b = d.bank_at_noc(x, y); b >= 0) {
        const BufferRecord* owner = find_dram_owner(f, d, uint32_t(b), local, size);
        if (!owner) [[unlikely]]
            resolve_fault(noc_addr, size, api);
        return {d.dram.bank_base(uint32_t(b)) + local, local, true, uint32_t(b), owner};
    }
    resolve_fault(noc_addr, size, api);
}

[[noreturn]] ZYX_EMU_COLD void own_l1_fault(const Fiber& f, uint64_t addr, uint32_t size, const char* api,
                                            const char* role) {
    kernel_fault(std::string(api) + ": " + role + " " + hex(addr) + " (+" + std::to_string(size) +
                 " B) is outside this core's L1 [" + hex(f.core->l1_addr) + ", " +
                 hex(f.core->l1_addr + dev().spec.l1_bytes) + "): out of bounds");
}

// `addr`: 64-bit, so a wild pointer (noc_semaphore_wait takes one) is reported whole.
uint8_t* own_l1(Fiber& f, uint64_t addr, uint32_t size, const char* api, const char* role) {
    // An L1 buffer's address (an offset in [l1_unreserved_base, l1_bytes)) names this core's L1 too.
    if (addr >= dev().spec.l1_unreserved_base && addr < dev().spec.l1_bytes) addr += f.core->l1_addr;
    uint64_t off = uint64_t(addr) - f.core->l1_addr;
    if (addr < f.core->l1_addr || off + size > dev().spec.l1_bytes) [[unlikely]]
        own_l1_fault(f, addr, size, api, role);
    return f.core->l1 + off;
}

[[noreturn]] ZYX_EMU_COLD void alignment_fault(const char* api, uint64_t a, uint64_t b, bool dram, uint32_t A) {
    kernel_fault(std::string(api) + ": misaligned NoC transfer: source " + hex(a) + " and destination " + hex(b) +
                 " differ modulo " + std::to_string(A) + " B (" + (dram ? "DRAM" : "L1") +
                 " alignment); silicon silently drops the low address bits");
}

void check_alignment(const char* api, uint64_t a, uint64_t b, bool dram) {
    uint32_t A = dram ? dev().spec.dram_alignment : dev().spec.l1_alignment;
    if (((a ^ b) & (A - 1)) != 0) [[unlikely]]
        alignment_fault(api, a, b, dram, A);  // A: a power of two (DeviceSpec)
}

[[noreturn]] ZYX_EMU_COLD void zero_length_fault(const char* api, uint64_t noc_addr, uint32_t l1) {
    kernel_fault(std::string(api) + ": zero-length transfer (NoC address " + hex(noc_addr) + ", L1 address " + hex(l1) +
                 ")");
}

void noc_read(uint64_t src, uint32_t dst_l1, uint32_t size, uint8_t noc) {
    Fiber& f = cur();
    if (size == 0) [[unlikely]]
        zero_length_fault("noc_async_read", src, dst_l1);
    Target s = resolve(f, src, size, "noc_async_read");
    uint8_t* d = own_l1(f, dst_l1, size, "noc_async_read", "destination");
    check_alignment("noc_async_read", s.addr, uint64_t(d - f.core->l1), s.dram);
    // The copy happens at the barrier; start pulling the source into the host cache now, as the
    // NoC would start moving it (up to 8 KiB, 64 B lines). Into L2 only (locality 1): prefetches
    // into L1 ran out of miss buffers and stalled the reader (measured: 18.8 vs 15.1 ms of
    // worker CPU for bench_emu eltwise).
    for (uint32_t off = 0; off < size && off < 8192; off += 64) __builtin_prefetch(s.ptr + off, 0, 1);
    // Readers mostly walk an interleaved buffer page after page: pull the same bytes of the next
    // page too (page i + 1 is in the next bank at the same address, or in bank 0 one page on),
    // so they are on their way before that read is issued.
    if (s.dram) {
        uint32_t bank = s.bank + 1;
        uint64_t addr = s.addr;
        if (bank == dev().spec.dram_banks) bank = 0, addr += s.owner->aligned_page;
        if (s.owner->holds(bank, addr, size)) {
            const uint8_t* p = dev().dram.bank_base(bank) + addr;
            for (uint32_t off = 0; off < size && off < 8192; off += 64) __builtin_prefetch(p + off, 0, 1);
        }
    }
    f.txns.push_back({d, s.ptr, size, noc, true, false, false});
    RaceLog& r = *f.core->races;
    r.record(s.space(), s.addr, size, false, AccessOp::NocRead, uint8_t(f.proc), uint8_t(f.proc));
    r.record(kL1Space + f.core->index, uint64_t(d - f.core->l1), size, true, AccessOp::NocReadInto, uint8_t(f.proc),
             uint8_t(f.proc));
    ++f.events;
}

void noc_write(uint32_t src_l1, uint64_t dst, uint32_t size, uint8_t noc) {
    Fiber& f = cur();
    if (size == 0) [[unlikely]]
        zero_length_fault("noc_async_write", dst, src_l1);
    uint8_t* s = own_l1(f, src_l1, size, "noc_async_write", "source");
    Target t = resolve(f, dst, size, "noc_async_write");
    check_alignment("noc_async_write", uint64_t(s - f.core->l1), t.addr, t.dram);
    f.txns.push_back({t.ptr, s, size, noc, false, false, t.dram});
    RaceLog& r = *f.core->races;
    r.record(kL1Space + f.core->index, uint64_t(s - f.core->l1), size, false, AccessOp::NocWriteFrom, uint8_t(f.proc),
             uint8_t(f.proc));
    if (t.sync_word())
        race_release(*current_launch(), *f.core, t.ptr, t.core, *reinterpret_cast<const uint32_t*>(s));
    else
        r.record(t.space(), t.addr, size, true, AccessOp::NocWrite, uint8_t(f.proc), uint8_t(f.proc));
    ++f.events;
}

[[noreturn]] ZYX_EMU_COLD void mcast_corner_fault(const char* api, uint8_t noc, uint32_t x0, uint32_t y0, uint32_t x1,
                                                  uint32_t y1) {
    auto corner = [](uint32_t x, uint32_t y) { return "(" + std::to_string(x) + "," + std::to_string(y) + ")"; };
    const bool up = noc == 0;
    const std::string start =
        corner(up ? std::min(x0, x1) : std::max(x0, x1), up ? std::min(y0, y1) : std::max(y0, y1));
    const std::string end = corner(up ? std::max(x0, x1) : std::min(x0, x1), up ? std::max(y0, y1) : std::min(y0, y1));
    kernel_fault(std::string(api) + ": the multicast rectangle " + corner(x0, y0) + "-" + corner(x1, y1) +
                 " has its corners in the wrong order for NoC " + std::to_string(noc) + ": on NoC " +
                 std::to_string(noc) + " the start corner must be " + (up ? "<=" : ">=") +
                 " the end corner in x and y (NoC 0 runs towards larger coordinates, NoC 1 towards smaller; " +
                 "swap the corners on the host for NOC_1), here " + start + "-" + end);
}

void noc_write_multicast(uint32_t src_l1, uint64_t mcast, uint32_t size, uint32_t num_dests, bool loopback,
                         uint8_t noc) {
    Fiber& f = cur();
    Device::Impl& d = dev();
    const char* api = loopback ? "noc_async_write_multicast_loopback_src" : "noc_async_write_multicast";
    if (size == 0) zero_length_fault(api, mcast, src_l1);
    uint8_t* s = own_l1(f, src_l1, size, api, "source");
    uint32_t x0 = uint32_t(mcast >> 48) & 63, y0 = uint32_t(mcast >> 54) & 63;
    uint32_t x1 = uint32_t(mcast >> 36) & 63, y1 = uint32_t(mcast >> 42) & 63;
    uint64_t local = mcast & ((1ull << 36) - 1);
    // The start corner is the one the NoC reaches first: NoC 0 runs towards larger x and y, so its
    // rectangles go start <= end; NoC 1 runs the other way, so start >= end (tt-metal host code
    // swaps the corners for NOC_1; tt-metal issue #2977). A 1-wide side fits either order.
    if (noc == 0 ? (x0 > x1 || y0 > y1) : (x0 < x1 || y0 < y1)) [[unlikely]]
        mcast_corner_fault(api, noc, x0, y0, x1, y1);
    uint64_t off = 0;
    if (!d.l1_offset(local, &off) || off + size > d.spec.l1_bytes)
        kernel_fault(std::string(api) + ": destination " + hex(local) + " (+" + std::to_string(size) +
                     " B) is not inside L1");
    check_alignment(api, uint64_t(s - f.core->l1), off, false);
    uint32_t count = 0;
    std::vector<uint32_t> dst_cores;  // core indices; each receives at core_base + off
    for (uint32_t y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
        for (uint32_t x = std::min(x0, x1); x <= std::max(x0, x1); ++x) {
            int c = d.core_at_noc(x, y);
            if (c < 0)
                kernel_fault(std::string(api) + ": the rectangle (" + std::to_string(x0) + "," + std::to_string(y0) +
                             ")-(" + std::to_string(x1) + "," + std::to_string(y1) + ") includes (" +
                             std::to_string(x) + "," + std::to_string(y) + "), which is not a worker core");
            if (uint32_t(c) == f.core->index && !loopback) continue;
            ++count;
            dst_cores.push_back(uint32_t(c));
        }
    if (count != num_dests)
        kernel_fault(std::string(api) + " to L1 " + hex(local) + " of the NoC rectangle (" + std::to_string(x0) + "," +
                     std::to_string(y0) + ")-(" + std::to_string(x1) + "," + std::to_string(y1) + "): num_dests is " +
                     std::to_string(num_dests) + " but the rectangle holds " + std::to_string(count) +
                     " destination cores" +
                     (loopback ? " (loopback counts the sender)" : " (the sender is not written and not counted)") +
                     "; silicon hangs waiting for the missing acks");
    for (uint32_t c : dst_cores) f.txns.push_back({d.l1.core_base(c) + off, s, size, noc, false, false, false});
    RaceLog& r = *f.core->races;
    r.record(kL1Space + f.core->index, uint64_t(s - f.core->l1), size, false, AccessOp::NocWriteFrom, uint8_t(f.proc),
             uint8_t(f.proc));
    const bool sync = off >= kL1SemaphoreBase && off < kL1SemaphoreBase + kMaxSemaphores * 16;
    for (uint32_t c : dst_cores) {
        if (sync)
            race_release(*current_launch(), *f.core, d.l1.core_base(c) + off, c, *reinterpret_cast<const uint32_t*>(s));
        else
            r.record(kL1Space + c, off, size, true, AccessOp::NocWrite, uint8_t(f.proc), uint8_t(f.proc));
    }
    ++f.events;
}

void noc_read_barrier(uint8_t noc) { complete_txns(cur(), noc, true, false); }
void noc_write_barrier(uint8_t noc) { complete_txns(cur(), noc, false, false); }

void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t) {
    Fiber& f = cur();
    Target t = resolve(f, addr, 4, "noc_semaphore_inc");
    if (t.dram) kernel_fault("noc_semaphore_inc: target " + hex(addr) + " is in DRAM; semaphores live in L1");
    if (t.addr % 4) kernel_fault("noc_semaphore_inc: address " + hex(t.addr) + " is not 4-byte aligned");
    race_semaphore_inc(*current_launch(), *f.core, reinterpret_cast<uint32_t*>(t.ptr), t.core, incr);
    ++f.events;
}

void noc_semaphore_wait(const volatile uint32_t* addr, uint32_t val, bool at_least) {
    Fiber& f = cur();
    // invalidate_l1_cache() (dataflow_api.h): the kernel polls an L1 word; step aside.
    if (!addr && at_least && val == 0) {
        poll_yield(f, Wait::PollL1);
        return race_poll(*f.core);  // the polled word is not known
    }
    own_l1(f, uintptr_t(addr), 4, at_least ? "noc_semaphore_wait_min" : "noc_semaphore_wait", "semaphore");
    f.wait.kind = Wait::Semaphore;
    f.wait.sem = addr;
    f.wait.val = val;
    f.wait.at_least = at_least;
    block_on_wait(f);
    race_acquire(*current_launch(), *f.core, addr, val, at_least);
}

void noc_inline_dw_write(uint64_t addr, uint32_t val, uint8_t) {
    Fiber& f = cur();
    Target t = resolve(f, addr, 4, "noc_inline_dw_write");
    if (t.dram)
        kernel_fault("noc_inline_dw_write: target " + hex(addr) + " is in DRAM, which inline writes do not support");
    race_release(*current_launch(), *f.core, t.ptr, t.core, val);
    __atomic_store_n(reinterpret_cast<uint32_t*>(t.ptr), val, __ATOMIC_SEQ_CST);
    ++f.events;
}

void header_fault(const char* what) {
    std::string w = what;
    kernel_fault(w, w.rfind("Unsupported:", 0) == 0 ? ErrorStatus::Unsupported : ErrorStatus::KernelFault);
}

// ---- DPRINT ----------------------------------------------------------------------------------
// Appends text to the fiber's current line and logs every line the text completes ("\n" ends a
// line, as on tt-metal's print server; ENDL() prints "\n").
void dprint_text(Fiber& f, const std::string& s) {
    size_t from = 0;
    for (size_t nl = s.find('\n'); nl != std::string::npos; nl = s.find('\n', from)) {
        f.dprint.append(s, from, nl - from);
        ZYX_LOG(emu) << "core (" << f.core->logical.x << "," << f.core->logical.y << ") " << proc_name(f.proc) << ": "
                     << f.dprint;
        if (const auto& sink = dev().options.dprint_sink) sink(f.core->logical, unsigned(f.proc), f.dprint);
        f.dprint.clear();
        from = nl + 1;
    }
    f.dprint.append(s, from, std::string::npos);
}

float bits_f32(uint64_t v) {
    float x;
    uint32_t b = uint32_t(v);
    std::memcpy(&x, &b, 4);
    return x;
}
float bf16_f32(uint64_t v) { return bits_f32(uint64_t(uint16_t(v)) << 16); }
double bits_f64(uint64_t v) {
    double x;
    std::memcpy(&x, &v, 8);
    return x;
}

// DPRINT << TileSlice(…): the text tt-metal's print server makes of it (its PrintTileSlice):
// values separated by spaces, a newline after each row when endl_rows, and a note when the
// slice holds more values than the print buffer takes (max_bytes).
std::string tile_slice_text(Fiber& f, const zyx_emu_dprint_tile_slice& t) {
    if (f.proc == Proc::Math) return "Warning: MATH core does not support TileSlice printing, omitting print...\n";
    const CbState& cb = cb_checked(f, int32_t(t.cb), "TileSlice");
    std::string cb_name = "cb " + std::to_string(t.cb);
    uint32_t bytes = 0;
    bool floats = true;
    switch (cb.format) {
        case DataFormat::Float16_b: bytes = 2; break;
        case DataFormat::Float32: bytes = 4; break;
        case DataFormat::Bfp8_b: bytes = 2; break;  // tt-metal sends exponent and mantissa
        case DataFormat::Int32:
        case DataFormat::UInt32: bytes = 4, floats = false; break;
        case DataFormat::UInt16: bytes = 2, floats = false; break;
        case DataFormat::UInt8: bytes = 1, floats = false; break;
        default:  // the formats tt-metal's TileSlice does not print either (Float16 …)
            return "Tried printing " + cb_name + ": Unsupported data format (" +
                std::string(data_format_name(cb.format)) + ")\n";
    }
    // Which pointer: 0 read, 1 write, 2 the processor's own (UNPACK reads, PACK writes).
    bool read = t.ptr == 0 || (t.ptr == 2 && f.proc != Proc::Pack);
    uint64_t addr = uint64_t(read ? cb.rd_ptr : cb.wr_ptr) + int64_t(t.tile) * int64_t(cb.tile_bytes);
    if (t.tile < 0 || addr < cb.fifo_base || addr + cb.tile_bytes > cb.fifo_limit)
        return "Tried printing " + cb_name + ": BAD TILE POINTER (ptr=" + std::to_string(addr) + ", count=0)\n";
    const uint8_t* l1 = reinterpret_cast<const uint8_t*>(uintptr_t(addr));
    float tile[1024];
    if (floats) tile::unpack_tile(cb.format, l1, tile);
    // The L1 index of element (row, col) (tiles are stored face by face), and back.
    auto l1_index = [](uint32_t row, uint32_t col) {
        return ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16;
    };
    std::ostringstream os;
    if (f.dprint_precision >= 0) os << std::setprecision(f.dprint_precision);
    if (f.dprint_fixed) os << std::fixed;
    if (f.dprint_hex) os << std::hex;
    if (f.dprint_oct) os << std::oct;
    const uint32_t max_count = t.max_bytes / bytes;
    uint32_t count = 0;
    const uint32_t hs = t.hs ? t.hs : 1, ws = t.ws ? t.ws : 1;
    for (uint32_t h = t.h0; h < t.h1; h += hs) {
        for (uint32_t w = t.w0; w < t.w1; w += ws) {
            if (count == max_count) {
                os << "<TileSlice data truncated due to exceeding max count (" << max_count << ")>\n";
                return os.str();
            }
            uint32_t i = t.untilized ? l1_index(h, w) : w + h * 32;  // the element's place in L1
            if (h >= 32 || w >= 32) i = 1024;
            if (i >= 1024) {
                os << "<TileSlice index beyond the tile>";
            } else if (floats) {
                uint32_t face = i / 256, row = (face / 2) * 16 + (i % 256) / 16, col = (face % 2) * 16 + i % 16;
                os << tile[row * 32 + col];
            } else {
                switch (cb.format) {
                    case DataFormat::Int32: {
                        int32_t v;
                        std::memcpy(&v, l1 + 4 * i, 4);
                        os << v;
                        break;
                    }
                    case DataFormat::UInt32: {
                        uint32_t v;
                        std::memcpy(&v, l1 + 4 * i, 4);
                        os << v;
                        break;
                    }
                    case DataFormat::UInt16: {
                        uint16_t v;
                        std::memcpy(&v, l1 + 2 * i, 2);
                        os << unsigned(v);
                        break;
                    }
                    default: os << unsigned(l1[i]); break;
                }
            }
            if (w + ws < t.w1) os << ' ';
            ++count;
        }
        if (t.endl_rows) os << '\n';
    }
    return os.str();
}

// Stream form: one item with the fiber's stream state (std::ostream semantics, as tt-metal's
// print server formats it).
void dprint(uint32_t kind, uint64_t v) {
    Fiber& f = cur();
    if (kind == ZYX_EMU_DPRINT_FORMAT) {
        std::string text;
        try {
            text = format_device_print(*reinterpret_cast<const zyx_emu_dprint_format*>(uintptr_t(v)));
        } catch (const Error& e) { kernel_fault(e.message(), e.status()); }
        dprint_text(f, text);
        return;
    }
    if (kind == ZYX_EMU_DPRINT_TILESLICE) {
        dprint_text(f, tile_slice_text(f, *reinterpret_cast<const zyx_emu_dprint_tile_slice*>(uintptr_t(v))));
        return;
    }
    std::ostringstream os;
    if (f.dprint_width > 0) os << std::setw(f.dprint_width);
    if (f.dprint_precision >= 0) os << std::setprecision(f.dprint_precision);
    if (f.dprint_fixed) os << std::fixed;
    if (f.dprint_hex) os << std::hex;
    if (f.dprint_oct) os << std::oct;
    switch (kind) {
        case ZYX_EMU_DPRINT_STR: os << reinterpret_cast<const char*>(uintptr_t(v)); break;
        case ZYX_EMU_DPRINT_I64: os << int64_t(v); break;
        case ZYX_EMU_DPRINT_U64: os << v; break;
        case ZYX_EMU_DPRINT_F32: os << bits_f32(v); break;
        case ZYX_EMU_DPRINT_BF16: os << bf16_f32(v); break;
        case ZYX_EMU_DPRINT_F64: os << bits_f64(v); break;
        case ZYX_EMU_DPRINT_CHAR: os << char(v); break;
        case ZYX_EMU_DPRINT_ENDL: dprint_text(f, "\n"); return;
        case ZYX_EMU_DPRINT_HEX: f.dprint_hex = true, f.dprint_oct = false; return;
        case ZYX_EMU_DPRINT_OCT: f.dprint_oct = true, f.dprint_hex = false; return;
        case ZYX_EMU_DPRINT_DEC: f.dprint_hex = f.dprint_oct = false; return;
        case ZYX_EMU_DPRINT_SETW: f.dprint_width = int(v); return;
        case ZYX_EMU_DPRINT_SETPRECISION: f.dprint_precision = int(v); return;
        case ZYX_EMU_DPRINT_FIXED: f.dprint_fixed = true; return;
        case ZYX_EMU_DPRINT_DEFAULTFLOAT: f.dprint_fixed = false; return;
        default: return;
    }
    f.dprint_width = 0;  // like std::setw, the width applies to one item
    dprint_text(f, os.str());
}

}  // namespace

ZYX_EMU_COLD void cb_index_fault(const Fiber& f, int32_t id, const char* api) {
    uint32_t n = f.core->num_cbs;
    if (id < 0 || uint32_t(id) >= n)
        kernel_fault(std::string(api) + "(cb " + std::to_string(id) + "): CB index beyond the " + std::to_string(n) +
                     " circular buffers of this device");
    kernel_fault(std::string(api) + "(cb " + std::to_string(id) + "): circular buffer " + std::to_string(id) +
                 " is not configured on this core");
}

}  // namespace zyx::emu::api

namespace zyx::emu::api {
void pack_rows(uint32_t idst, uint32_t cb, uint32_t page, uint32_t full_ct_dim, uint32_t col,
               bool sequential);  // kernel_api_compute.cpp
}  // namespace zyx::emu::api

namespace zyx::emu {

const zyx_emu_api* kernel_api_table() {
    using namespace api;
    static const zyx_emu_api table = [] {
        zyx_emu_api t{};
        t.abi_version = ZYX_EMU_ABI_VERSION;
        t.table_size = sizeof(zyx_emu_api);
        t.role = role;
        t.device_info = device_info;
        t.noc_index = noc_index;
        t.my_x = my_x;
        t.my_y = my_y;
        t.logical_x = logical_x;
        t.logical_y = logical_y;
        t.arg_addr = arg_addr;
        t.common_arg_addr = common_arg_addr;
        t.get_semaphore = get_semaphore;
        t.cb_reserve_back = cb_reserve_back;
        t.cb_push_back = cb_push_back;
        t.cb_wait_front = cb_wait_front;
        t.cb_pop_front = cb_pop_front;
        t.get_write_ptr = get_write_ptr;
        t.get_read_ptr = get_read_ptr;
        t.cb_pages_reservable_at_back = cb_pages_reservable_at_back;
        t.cb_pages_available_at_front = cb_pages_available_at_front;
        t.cb_tile_size = cb_tile_size;
        t.cb_data_format = cb_data_format;
        t.noc_read = noc_read;
        t.noc_write = noc_write;
        t.noc_write_multicast = noc_write_multicast;
        t.noc_read_barrier = noc_read_barrier;
        t.noc_write_barrier = noc_write_barrier;
        t.noc_semaphore_inc = noc_semaphore_inc;
        t.noc_semaphore_wait = noc_semaphore_wait;
        t.noc_inline_dw_write = noc_inline_dw_write;
        t.kernel_fault = header_fault;
        t.dprint = dprint;
        t.tile_regs_acquire = tile_regs_acquire;
        t.tile_regs_commit = tile_regs_commit;
        t.tile_regs_wait = tile_regs_wait;
        t.tile_regs_release = tile_regs_release;
        t.fpu_init = fpu_init;
        t.fpu_op = fpu_op;
        t.sfpu_init = sfpu_init;
        t.sfpu_unary = sfpu_unary;
        t.sfpu_binary = sfpu_binary;
        t.sfpu_fill = sfpu_fill;
        t.sfpu_typecast = sfpu_typecast;
        t.pack_tile = pack_tile;
        t.pack_reconfig = pack_reconfig;
        t.reconfig_unpack = reconfig_unpack;
        t.sfpu_where = sfpu_where;
        t.sfpu_reduce = sfpu_reduce;
        t.transpose_dest = transpose_dest;
        t.copy_dest = copy_dest;
        t.sfpu_binary_int = sfpu_binary_int;
        t.pack_rows = pack_rows;
        t.pack_config = pack_config;
        t.fpu_matmul_block = fpu_matmul_block;
        return t;
    }();
    return &table;
}

}  // namespace zyx::emu
