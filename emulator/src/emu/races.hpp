// The race check (README "Determinism"): two different cores touching the same DRAM or L1 bytes
// in one launch, at least one of them writing, with nothing in the program ordering the two.
//
// Happens-before is tracked with vector clocks, one per core. The five processors of a core run
// on one host thread and are ordered among themselves by CBs and DST, so a core counts as one
// thread of the model (races between the processors of one core are not looked for).
// - Each core has a clock. Every recorded access carries the clock and a snapshot of what the
//   core knows of the other cores' clocks.
// - A release — noc_semaphore_inc, a NoC write into a semaphore word (noc_semaphore_set_remote,
//   noc_semaphore_set_multicast), noc_inline_dw_write — appends to the target word's history the
//   value it leaves there and what the core knows, its own clock included; then the core's clock
//   advances.
// - An acquire — noc_semaphore_wait / noc_semaphore_wait_min once satisfied — takes the earliest
//   release in the word's history, after the ones this core acquired before, whose value
//   satisfies the wait, and joins what that release and every one before it carried into what the
//   core knows. (Not simply everything released into the word so far: a counter that went on past
//   the value waited for must not order what its later releases follow.) Polling L1
//   (invalidate_l1_cache) acquires everything released into the polling core's words, since the
//   polled address is not known; a plain load that finds a flag already set is not seen at all.
// Access a (core A, clock e) happens before access b (another core) when b's snapshot knows A's
// clock to be at least e. Two accesses of which neither happens before the other race.
//
// Recorded: each NoC transfer at both ends (DRAM, another core's L1, the issuer's own L1), the
// pages of every cb_push_back (written by the producer) and cb_pop_front (read by the consumer).
// Loads and stores through plain pointers are not seen, and an access counts as made when it is
// issued: a signal sent before the NoC barrier of a write it should follow is not caught.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace zyx::emu {

struct Launch;
struct Core;

// What made an access (named in the report).
enum class AccessOp : uint8_t {
    NocRead,       // noc_async_read, at its source
    NocReadInto,   // noc_async_read, at its destination in the issuer's L1
    NocWrite,      // noc_async_write / multicast, at a destination
    NocWriteFrom,  // noc_async_write / multicast, at its source in the issuer's L1
    CbPush,        // the pages cb_push_back hands on (written by the producer)
    CbPop,         // the pages cb_pop_front frees (read by the consumer)
};

// Accessed bytes [lo, hi) in "space << 40 | address" form: space b < 64 is DRAM bank b (bank
// address), space kL1Space + i is core i's L1 (L1 offset).
inline constexpr uint32_t kL1Space = 64;
struct Access {
    uint64_t lo = 0, hi = 0;
    uint32_t epoch = 0;  // the core's clock
    uint32_t snap = 0;   // index of the core's snapshot of the other clocks
    uint8_t proc = 0;
    AccessOp op = AccessOp::NocRead;
    bool write = false;
    uint8_t tag = 0;  // the stream that merges into one record: the CB (CbPush/CbPop) or the processor
};

// One core's clocks and accesses for one launch (touched only by the core's worker thread).
struct RaceLog {
    bool on = true;  // DeviceOptions::check_races
    uint32_t core = 0;
    uint32_t clock = 1;
    std::vector<uint32_t> known;  // known[i]: the clock of core i this core has acquired
    bool known_changed = false;   // since the last snapshot
    // invalidate_l1_cache polled: the plain load after it may see any release into this core's
    // words up to the next kernel API call, which acquires them (settle()).
    bool poll_pending = false;
    std::vector<uint32_t> snaps;  // snapshots of `known`, known.size() apart
    uint32_t snap = 0;            // the current snapshot
    // Consecutive accesses of one stream at one clock merge into one open record. Open records
    // live in kSets sets of kWays (a stream hashes to a set; the ways hold the streams that share
    // it, such as two buffers read page by page in one bank); a record is closed when its way is
    // taken by another.
    static constexpr uint32_t kSets = 16, kWays = 4;
    // Closed records per core and launch at most (4 MiB): a core that reaches it records no more
    // in that launch (what it did before is still checked; the end-of-launch log says so).
    static constexpr size_t kMaxClosed = size_t(1) << 17;
    bool full = false;
    Access open[kSets][kWays];
    uint8_t open_count[kSets] = {};  // ways in use
    uint8_t victim[kSets] = {};      // the way taken next when all are in use
    std::vector<Access> closed;

    void reset(uint32_t core_index, uint32_t num_cores);
    // Acquires a pending poll's releases and snapshots what the core knows, if it changed.
    void settle();
    // Records [addr, addr + size) of `space` (the hot path: a hash, up to kWays compares, an extend).
    void record(uint32_t space, uint64_t addr, uint32_t size, bool write, AccessOp op, uint8_t proc, uint8_t tag) {
        if (!on) return;
        if (known_changed || poll_pending) [[unlikely]]
            settle();
        const uint64_t lo = uint64_t(space) << 40 | addr, hi = lo + size;
        const uint32_t key = ((space * 64u + tag) * 8u + uint32_t(op)) * 2u + write;
        const uint32_t set = (key * 0x9E3779B1u) >> 28;
        Access* ways = open[set];
        const uint32_t n = open_count[set];
        for (uint32_t w = 0; w < n; ++w) {
            Access& o = ways[w];
            // Overlapping or adjacent, same stream, same clock and knowledge: one record.
            if (lo <= o.hi && hi >= o.lo && o.epoch == clock && o.snap == snap && o.tag == tag && o.op == op &&
                o.write == write && o.proc == proc) {
                if (lo < o.lo) o.lo = lo;
                if (hi > o.hi) o.hi = hi;
                return;
            }
        }
        uint32_t w = n;
        if (n == kWays) {
            if (closed.size() >= kMaxClosed) [[unlikely]] {
                full = true;
                return;
            }
            w = victim[set];
            victim[set] = uint8_t((w + 1) % kWays);
            closed.push_back(ways[w]);
        } else {
            open_count[set] = uint8_t(n + 1);
        }
        ways[w] = {lo, hi, clock, snap, proc, op, write, tag};
    }
};

// The releases into each synchronisation word, for one launch (shared by all workers, under mu).
struct SyncWord {
    std::vector<uint32_t> values;    // the value each release left in the word
    std::vector<uint32_t> carried;   // per release: the join of what it and every earlier one carried
    std::unordered_map<uint32_t, uint32_t> taken;  // per acquiring core: releases already acquired
};
struct SyncState {
    std::mutex mu;
    std::unordered_map<const void*, SyncWord> words;
    std::unordered_map<uint32_t, std::vector<uint32_t>> cores;  // per target core: every release joined
};

// A release by core `c` into the word at `word` (host address) of core `target`, leaving `value`
// there; advances c's clock.
void race_release(Launch& L, Core& c, const void* word, uint32_t target, uint32_t value);
// noc_semaphore_inc: the atomic add and its release as one step (the history keeps the order of
// the values the word really took).
void race_semaphore_inc(Launch& L, Core& c, uint32_t* word, uint32_t target, uint32_t incr);
// The acquire of a satisfied noc_semaphore_wait (at_least: _min) on `word` by core `c`.
void race_acquire(Launch& L, Core& c, const volatile uint32_t* word, uint32_t val, bool at_least);
// An invalidate_l1_cache poll: the core's next kernel API call acquires every release into its
// words up to then (the plain load the poll precedes sees those).
void race_poll(Core& c);
// The end-of-launch sweep: fails the launch with KernelFault naming the first racing pair.
void check_races(Launch& L);

}  // namespace zyx::emu
