// The race check: clocks, releases and acquires, and the sweep at the end of a launch (races.hpp).
#include "emu/races.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "core/log.hpp"
#include "emu/engine.hpp"
#include "emu/program.hpp"

namespace zyx::emu {

void RaceLog::reset(uint32_t core_index, uint32_t num_cores) {
    core = core_index;
    clock = 1;
    poll_pending = false;
    full = false;
    known.assign(num_cores, 0);
    known_changed = false;
    snaps.assign(num_cores, 0);
    snap = 0;
    for (uint32_t i = 0; i < kSets; ++i) open_count[i] = victim[i] = 0;
    closed.clear();
}

namespace {

// Joins `from` (n clocks) into what core r knows.
void acquire_clocks(RaceLog& r, const uint32_t* from) {
    for (size_t i = 0; i < r.known.size(); ++i)
        if (from[i] > r.known[i]) r.known[i] = from[i], r.known_changed = true;
}

// Acquires what a pending poll may have seen (under L.sync.mu).
void settle_poll(Launch& L, RaceLog& r) {
    r.poll_pending = false;
    auto it = L.sync.cores.find(r.core);
    if (it != L.sync.cores.end()) acquire_clocks(r, it->second.data());
}

}  // namespace

void RaceLog::settle() {
    if (poll_pending) {
        Launch& L = *current_launch();
        std::lock_guard<std::mutex> lock(L.sync.mu);
        settle_poll(L, *this);
    }
    if (!known_changed) return;
    snaps.insert(snaps.end(), known.begin(), known.end());
    snap = uint32_t(snaps.size() / known.size()) - 1;
    known_changed = false;
}

namespace {

void join_into(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
    if (into.empty()) into.assign(from.size(), 0);
    for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

// Appends a release (under L.sync.mu).
void add_release(Launch& L, const RaceLog& r, uint32_t core, const void* word, uint32_t target, uint32_t value) {
    const size_t n = r.known.size();
    SyncWord& w = L.sync.words[word];
    // A history this long is mostly behind every waiter: forget its older half (what it carried
    // stays in the joins of the later releases).
    if (w.values.size() >= 4096) {
        const size_t drop = w.values.size() / 2;
        w.values.erase(w.values.begin(), w.values.begin() + ptrdiff_t(drop));
        w.carried.erase(w.carried.begin(), w.carried.begin() + ptrdiff_t(drop * n));
        for (auto& [core_index, taken] : w.taken) taken = taken > drop ? uint32_t(taken - drop) : 0;
    }
    const size_t at = w.carried.size();
    if (at == 0)
        w.carried.assign(r.known.begin(), r.known.end());
    else {
        w.carried.insert(w.carried.end(), w.carried.end() - ptrdiff_t(n), w.carried.end());
        for (size_t i = 0; i < n; ++i) w.carried[at + i] = std::max(w.carried[at + i], r.known[i]);
    }
    w.carried[at + core] = std::max(w.carried[at + core], r.clock);
    w.values.push_back(value);
    std::vector<uint32_t>& all = L.sync.cores[target];
    join_into(all, r.known);
    all[core] = std::max(all[core], r.clock);
}

}  // namespace

void race_release(Launch& L, Core& c, const void* word, uint32_t target, uint32_t value) {
    RaceLog& r = *c.races;
    if (!r.on) return;
    {
        std::lock_guard<std::mutex> lock(L.sync.mu);
        if (r.poll_pending) settle_poll(L, r);
        add_release(L, r, c.index, word, target, value);
    }
    ++r.clock;
}

void race_semaphore_inc(Launch& L, Core& c, uint32_t* word, uint32_t target, uint32_t incr) {
    RaceLog& r = *c.races;
    if (!r.on) {
        __atomic_fetch_add(word, incr, __ATOMIC_SEQ_CST);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(L.sync.mu);
        if (r.poll_pending) settle_poll(L, r);
        add_release(L, r, c.index, word, target, __atomic_add_fetch(word, incr, __ATOMIC_SEQ_CST));
    }
    ++r.clock;
}

void race_acquire(Launch& L, Core& c, const volatile uint32_t* word, uint32_t val, bool at_least) {
    RaceLog& r = *c.races;
    if (!r.on) return;
    std::lock_guard<std::mutex> lock(L.sync.mu);
    if (r.poll_pending) settle_poll(L, r);
    auto it = L.sync.words.find(const_cast<const uint32_t*>(word));
    if (it == L.sync.words.end()) return;  // satisfied by the initial value or a store of this core
    SyncWord& w = it->second;
    uint32_t& taken = w.taken[c.index];
    for (size_t j = taken; j < w.values.size(); ++j)
        if (at_least ? w.values[j] >= val : w.values[j] == val) {
            acquire_clocks(r, &w.carried[j * r.known.size()]);
            taken = uint32_t(j + 1);
            return;
        }
}

void race_poll(Core& c) {
    if (c.races->on) c.races->poll_pending = true;
}

namespace {

struct Item {
    const Access* a;
    const Core* core;
};

std::string hex(uint64_t v) {
    std::ostringstream os;
    os << "0x" << std::hex << v;
    return os.str();
}

// "writes (noc_async_write)": what the access did, in the kernel's terms.
std::string verb(const Access& a) {
    switch (a.op) {
    case AccessOp::NocRead: return "reads (noc_async_read)";
    case AccessOp::NocReadInto: return "writes (noc_async_read into its L1)";
    case AccessOp::NocWrite: return "writes (noc_async_write)";
    case AccessOp::NocWriteFrom: return "reads (the source of its noc_async_write)";
    case AccessOp::CbPush: return "writes (the pages it pushes with cb_push_back on CB " + std::to_string(a.tag) + ")";
    case AccessOp::CbPop: return "reads (the pages it pops with cb_pop_front from CB " + std::to_string(a.tag) + ")";
    }
    return "accesses";
}

// "page 3 byte 0" of the buffer holding byte `addr` of DRAM bank `bank` (a buffer's page i lives
// in bank i % banks at address + (i / banks) * aligned_page).
std::string buffer_byte(const Device::Impl& d, const BufferRecord& r, uint32_t bank, uint64_t addr) {
    uint64_t row = (addr - r.buf.address) / r.aligned_page, in_page = (addr - r.buf.address) % r.aligned_page;
    return "page " + std::to_string(row * d.spec.dram_banks + bank) + " byte " + std::to_string(in_page);
}

// "DRAM bank 0 bytes 0x1000 … 0x103f (buffer 3, page 0 byte 0 to page 0 byte 63)" or
// "L1 of core (1,0) bytes 0x20000 … 0x207ff (CB 2)" for [lo, hi) in the record's space.
std::string object(const Device::Impl& d, uint64_t lo, uint64_t hi) {
    const uint32_t space = uint32_t(lo >> 40);
    const uint64_t a = lo & ((1ull << 40) - 1), b = hi - (uint64_t(space) << 40);
    std::ostringstream os;
    if (space < kL1Space) {
        os << "DRAM bank " << space << " bytes " << hex(a) << " … " << hex(b - 1);
        if (const BufferRecord* r = d.dram_owner(space, a, 1))
            os << " (buffer " << r->buf.id << ", " << buffer_byte(d, *r, space, a) << " to "
               << buffer_byte(d, *r, space, b - 1) << ")";
        return os.str();
    }
    const Core& c = *d.cores[space - kL1Space];
    os << "L1 of core " << coord_str(c.logical) << " bytes " << hex(a) << " … " << hex(b - 1);
    for (uint32_t i = 0; i < 64; ++i) {
        const CbState& cb = c.cbs[i];
        const uint64_t base = cb.fifo_base - c.l1_addr, limit = cb.fifo_limit - c.l1_addr;
        if (cb.configured && a >= base && a < limit) {
            const uint64_t p0 = (a - base) / cb.page_bytes, p1 = (std::min(b, limit) - 1 - base) / cb.page_bytes;
            os << " (CB " << i << ", page " << p0;
            if (p1 != p0) os << " to " << p1;
            os << ")";
            break;
        }
    }
    return os.str();
}

std::string label(const Item& x) {
    const Fiber& f = x.core->fibers[x.a->proc];
    return "kernel '" + (f.kernel ? f.kernel->name : std::string("?")) + "' on core " + coord_str(x.core->logical) +
        " " + proc_name(f.proc);
}

}  // namespace

void check_races(Launch& L) {
    std::vector<Item> items;
    int cores_with_records = 0;
    for (const Core* c : L.cores) {
        const RaceLog& r = *c->races;
        if (!r.on) return;
        const size_t before = items.size();
        for (const Access& a : r.closed) items.push_back({&a, c});
        for (uint32_t s = 0; s < RaceLog::kSets; ++s)
            for (uint32_t w = 0; w < r.open_count[s]; ++w) items.push_back({&r.open[s][w], c});
        cores_with_records += items.size() > before;
        if (r.full) {
            ZYX_LOG(emu) << "race check: core " << coord_str(c->logical) << " made more than " << RaceLog::kMaxClosed
                         << " access records in this launch; the accesses after that are not checked";
        }
    }
    ZYX_LOG(emu) << "race check: " << items.size() << " access records from " << cores_with_records << " cores";
    if (cores_with_records < 2) return;
    std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
        if (x.a->lo != y.a->lo) return x.a->lo < y.a->lo;
        if (x.core->index != y.core->index) return x.core->index < y.core->index;
        if (x.a->proc != y.a->proc) return x.a->proc < y.a->proc;
        if (x.a->epoch != y.a->epoch) return x.a->epoch < y.a->epoch;
        return x.a->op < y.a->op;
    });
    // x happens before y: y's core had acquired x's core's clock at x's access or later.
    auto before = [](const Item& x, const Item& y) {
        const RaceLog& ry = *y.core->races;
        return ry.snaps[size_t(y.a->snap) * ry.known.size() + x.core->index] >= x.a->epoch;
    };
    // Sweep in address order; `active` holds the records reaching past the current start. A
    // record of cb_push_back stands for the producer's writes, but the pages may have been filled
    // by another core's NoC write: a race it takes part in is reported only when no other is found.
    std::vector<Item> active;
    std::optional<std::pair<Item, Item>> report;
    int report_pushes = 3;
    for (const Item& s : items) {
        size_t kept = 0;
        for (const Item& a : active) {
            if (a.a->hi <= s.a->lo) continue;
            active[kept++] = a;
            if (a.core == s.core || !(a.a->write || s.a->write) || before(a, s) || before(s, a)) continue;
            const int pushes = (a.a->op == AccessOp::CbPush) + (s.a->op == AccessOp::CbPush);
            if (pushes < report_pushes) report = std::make_pair(a, s), report_pushes = pushes;
        }
        active.resize(kept);
        if (report_pushes == 0) break;
        active.push_back(s);
    }
    if (!report) return;
    const auto& [a, s] = *report;
    const Item& first = a.core->index < s.core->index ? a : s;
    const Item& second = &first == &a ? s : a;
    const uint64_t lo = s.a->lo, hi = std::min(a.a->hi, s.a->hi);
    std::ostringstream os;
    os << label(first) << ": " << verb(*first.a) << " " << object(*L.dev, lo, hi) << ", and " << label(second) << " "
       << verb(*second.a)
       << " the same bytes in the same launch with no semaphore ordering the two: the result depends on "
          "timing. Signal after the first access (noc_semaphore_inc, noc_semaphore_set_remote) and wait "
          "before the second (noc_semaphore_wait), or make the accesses in separate launches";
    L.fail(ErrorStatus::KernelFault, os.str());
}

}  // namespace zyx::emu
