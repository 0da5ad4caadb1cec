// The emulator's execution engine: per-core state (circular buffers, DST, the UNPACK→MATH
// operand queue), the five fibers of each core, and a launch in flight.
//
// Contract of a launch (launch.cpp): every active core gets five fibers — BRISC, NCRISC, TRISC0
// (UNPACK), TRISC1 (MATH), TRISC2 (PACK); a processor without a kernel has a finished fiber.
// Worker threads claim cores one at a time (Launch::claim_order), a new one whenever nothing on
// the cores they hold can run, up to their share (Launch::claim_share) while any of their cores
// is unfinished; a claimed core stays on its worker. While another worker has nothing to run,
// a worker gives its cores' data movement fibers a turn after each core it runs (they are what
// the idle worker's cores usually wait for). A worker runs its cores'
// fibers round-robin; a fiber runs until it blocks (a Wait it records before yielding) or
// ends. The scheduler re-checks a blocked fiber's Wait without switching to it. When no fiber on
// any worker can run, the launch is a deadlock and the report lists every fiber's Wait.
//
// Polling calls (invalidate_l1_cache, cb_pages_available_at_front / _reservable_at_back when the
// answer is no) yield too (Wait::Poll, always ready again). A pass in which only pollers ran and
// none of them caused an event (Fiber::events: CB push/pop, NoC transfer or barrier, semaphore
// increment, DST hand-over …) is not progress: after kSpinPasses such passes in a row (and at
// least kSpinMinMs) the worker counts as stuck for the deadlock detection, and a launch whose
// every worker is stuck is reported as a deadlock with the pollers marked as spinning.
//
// All state of a core is touched only by the worker thread that owns the core, except L1 and
// DRAM bytes written by other cores' NoC transfers (programs order those with semaphores, as on
// silicon) and semaphore words (atomic).
#pragma once

#include <boost/context/fiber.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "emu/device.hpp"
#include "emu/device_impl.hpp"
#include "emu/races.hpp"
#include "zyx_emu/kernel_abi.h"

namespace zyx::emu {

struct Program;
struct KernelBinary;

// The five RISC-V processors of a Tensix core. TRISC0/1/2 run one compute kernel as UNPACK,
// MATH and PACK.
enum class Proc : uint8_t { Brisc = 0, Ncrisc = 1, Unpack = 2, Math = 3, Pack = 4 };
inline constexpr int kProcs = 5;
const char* proc_name(Proc p);  // "BRISC", "NCRISC", "TRISC0 (UNPACK)", …

// L1 layout of the emulator's reserved area (below DeviceSpec::l1_unreserved_base).
inline constexpr uint32_t kL1SemaphoreBase = 0x100;  // semaphore id i at + i * 16
inline constexpr uint32_t kMaxSemaphores = 16;
inline constexpr uint32_t kL1ArgsBase = 0x1000;         // kernel slot s: unique args at + s * 0x1000,
inline constexpr uint32_t kL1CommonArgsOffset = 0x800;  //   common args at + 0x800
inline constexpr uint32_t kMaxRuntimeArgs = 341;        // unique + common, per kernel per core

// One circular buffer of one core (tt-metal docs, "Circular Buffers"): free-running 16-bit counters, pointers
// that move only on push/pop and wrap only when they land exactly on the limit.
struct CbState {
    bool configured = false;
    DataFormat format = DataFormat::Invalid;
    uint32_t page_bytes = 0, num_pages = 0;
    uint32_t tile_bytes = 0;  // tile_size_bytes(format): a page must hold one tile for unpack / pack
    uint32_t fifo_base = 0, fifo_limit = 0, fifo_size = 0;  // L1 host addresses
    uint16_t received = 0, acked = 0;
    uint32_t wr_ptr = 0, rd_ptr = 0;
    uint32_t reserved = 0;                // pages granted to the producer by cb_reserve_back, not yet pushed
    uint32_t waited = 0;                  // pages the consumer has waited for from the front, not yet popped
    uint32_t packed = 0;                  // pack_tile calls since the last cb_push_back (sequential packing)
    int8_t producer = -1, consumer = -1;  // Proc that pushes / pops (only one each)
    uint32_t available() const { return uint16_t(received - acked); }
    uint32_t free_pages() const { return num_pages - available(); }
};

// DST: `sections` (2 in half-sync, 1 in full-sync) of `capacity` tiles, each section cycling
// Free → Acquired (MATH) → Committed → Packing (PACK) → Free (released and zeroed).
//
// Three things are done lazily, and every access to a tile goes through kernel_api_compute.cpp,
// which settles them first (so what a kernel observes is exactly the eager behaviour):
// - zeroing: release marks the section's written tiles `stale` instead of clearing 4 KiB each;
//   a stale tile reads as zero (it is cleared on its first read; an op that overwrites the whole
//   tile skips the clearing);
// - 16-bit DST rounding of FPU results: a `pending` tile still has to be rounded (to nearest
//   even) to the 16-bit format `round_to`. The next MATH access rounds it in place; pack_tile
//   packs the rounded values in one pass (tile::pack_tile_rounded) without rounding DST first;
// - fills: a `uniform` tile holds `uniform_word` in every element but has not been written
//   (fill_tile into a 32-bit DST, fill_tile_bitcast, fill_tile_int). An SFPU binary op reads
//   it as that word (tile::sfpu_binary_scalar), copy_dest_values copies the mark; any other
//   access writes the tile out first.
// A tile is in at most one of the three states.
struct DstState {
    enum Section : uint8_t { Free, Acquired, Committed, Packing };
    uint32_t capacity = 8, sections = 2;
    Section state[2] = {Free, Free};
    uint32_t math_sec = 0, pack_sec = 0;
    uint32_t written[2] = {0, 0};     // tiles written since acquire (bit per tile)
    uint32_t stale[2] = {0, 0};       // tiles that read as zero but still hold old values (bit per tile)
    uint32_t pending[2] = {0, 0};     // tiles whose FPU result awaits its 16-bit rounding (bit per tile)
    DataFormat round_to[2][16] = {};  // the 16-bit format of each pending tile
    uint32_t uniform[2] = {0, 0};     // tiles that hold uniform_word everywhere, not yet written (bit per tile)
    uint32_t uniform_word[2][16] = {};
    float* tiles = nullptr;  // sections * capacity * 1024 floats
    float* tile(uint32_t sec, uint32_t i) { return tiles + (size_t(sec) * capacity + i) * 1024; }
};

// SrcA/SrcB stand-in: UNPACK pushes unpacked operand tiles, MATH pops them. MATH therefore
// really waits for UNPACK, as on silicon.
struct Operand {
    uint32_t op = 0, idst = 0, flags = 0;
    DataFormat fmt_a = DataFormat::Float16_b;
    bool has_b = false;
    // A matmul (matmul_tiles: rt = ct = 1, matmul_block: rt × ct products) keeps its rt in0 tiles
    // and then its ct in1 tiles in `mm`, 1024 floats apart: unpacked, or, when `packed_bf16`
    // (both Float16_b at HiFi4), packed by tile::pack_matmul_in0/in1_bf16 with in1 transposed
    // when `transposed`. Each tile is read from L1 once however many products use it.
    uint32_t rt = 0, ct = 0;
    bool packed_bf16 = false, transposed = false;
    std::vector<float> mm;
    alignas(64) float a[1024];
    alignas(64) float b[1024];
};
struct OperandQueue {
    static constexpr uint32_t kDepth = 2;  // SrcA/SrcB are double-buffered
    Operand slots[kDepth];
    uint32_t head = 0, count = 0;
};

// What a TRISC has been configured for by the last *_init it ran (each TRISC has its own).
struct RoleConfig {
    static constexpr uint32_t kNoOp = 0xff;
    uint32_t fpu_op = kNoOp;  // the ZYX_EMU_FPU_* op the last op init configured (kNoOp: none yet)
    uint32_t elt_flags = 0;   // op | bcast << 4
    bool acc_to_dest = false;
    uint32_t mm_transpose = 0;
    uint32_t reduce_flags = 0;
    int32_t pack_cb = -1;
    // Data formats the unpackers (SrcA, SrcB) and the packer are configured for, and the CB that
    // configured each (-1: not configured yet, unchecked): tt-metal's hw_configure inits and
    // reconfig_data_format / pack_reconfig_data_format set them.
    int32_t unpack_fmt[2] = {-1, -1}, unpack_cb[2] = {-1, -1};
    int32_t pack_fmt = -1, pack_fmt_cb = -1;
    // Packer modes (PACK's copy): ReLU on pack (pack_relu_config, ReluType: 0 none, 1 ZERO_RELU)
    // and accumulation into L1 (pack_reconfig_l1_acc).
    uint32_t pack_relu = 0;
    bool pack_l1_acc = false;
};

struct Wait {
    enum Kind : uint8_t { None, CbReserve, CbWait, DstAcquire, DstWait, OperandPop, OperandPush, Semaphore, Poll };
    // Poll: what the fiber polls (cb / n give the CB and page count of the CB polls).
    enum PollKind : uint8_t { PollL1, PollReservable, PollAvailable };
    Kind kind = None;
    int32_t cb = 0, n = 0;
    const volatile uint32_t* sem = nullptr;
    uint32_t val = 0;
    bool at_least = false;
    PollKind poll = PollL1;
};

// A NoC transfer issued by a processor and not yet covered by its barrier. `landed`: the bytes
// have already been copied (a write that landed while its issuer was blocked, or a transfer the
// seeded schedule completed early); it still counts as outstanding for the barrier checks.
struct NocTxn {
    uint8_t* dst;
    const uint8_t* src;
    uint32_t size;
    uint8_t noc;
    bool is_read;
    bool landed = false;
    bool to_dram = false;  // a write into a DRAM bank (landed with streaming stores: see land_txn)
};
// Copies a transfer's bytes now (and marks it landed). Writes into DRAM bypass the host caches
// (non-temporal stores): nothing on the device reads them back soon, and it saves reading every
// destination line before overwriting it. Same bytes either way.
void land_txn(NocTxn& t);

struct Core;

struct Fiber {
    Core* core = nullptr;
    Proc proc = Proc::Brisc;
    const KernelBinary* kernel = nullptr;  // null: nothing runs on this processor
    bool finished = true;
    bool crashed = false;  // abandoned after a fault signal: never resumed again
    bool polled = false;   // yielded from a polling call: not resumed again this pass
    // Events this processor caused that other processors can observe (CB push/pop, NoC transfer
    // issued or completed, semaphore increment, DST or operand hand-over). The scheduler tells a
    // spinning poller from a working one by whether this moved during its last run.
    uint64_t events = 0;
    uint64_t events_at_poll = 0;  // `events` when the last poll returned
    bool idle_poll = false;       // no event between the last poll's return and this poll
    Wait wait;
    std::vector<NocTxn> txns;  // outstanding NoC transfers issued by this processor
    // The DRAM buffers this processor addressed last (buffers cannot change during a launch):
    // most transfers hit one of them, which spares the lookup in Device::Impl::buffers_by_address.
    const BufferRecord* dram_seen[2] = {nullptr, nullptr};
    uint32_t dram_seen_next = 0;
    uint32_t args_addr = 0, nargs = 0, common_addr = 0, ncommon = 0;
    uint8_t noc = 0;
    // DPRINT line being built and its stream state.
    std::string dprint;
    bool dprint_hex = false, dprint_oct = false, dprint_fixed = false;
    int dprint_width = 0, dprint_precision = -1;
    // Boost.Context: `ctx` is the suspended fiber (held by the scheduler), `sched` the suspended
    // scheduler (held by the fiber while it runs).
    boost::context::fiber ctx;
    boost::context::fiber sched;
    void* stack_lo = nullptr;   // lowest address of this fiber's stack
    void* asan_fake = nullptr;  // AddressSanitizer's fake stack while the fiber is switched out
    double wait_begin_us = -1;  // trace: start of the current blocking wait
    double run_begin_us = 0;
};

struct Core {
    uint32_t index = 0;
    CoreCoord logical, noc;
    uint8_t* l1 = nullptr;
    uint32_t l1_addr = 0;
    uint8_t my_x[2] = {0, 0}, my_y[2] = {0, 0};
    uint32_t num_cbs = 32;  // the arch's CB count (index limit)
    CbState cbs[64];
    DstState dst;
    std::unique_ptr<float[], void (*)(float*)> dst_storage{nullptr, nullptr};
    std::unique_ptr<OperandQueue> opq;
    ComputeConfig compute;
    RoleConfig cfg[kProcs];
    Fiber fibers[kProcs];
    std::unique_ptr<RaceLog> races = std::make_unique<RaceLog>();  // reset when a launch starts
    bool active = false;
};

// A trace span (Chrome "X" event).
struct TraceEvent {
    uint32_t core;
    uint8_t proc;
    double ts_us, dur_us;
    std::string name;
    bool unfinished = false;  // a wait still open when the launch ended (deadlock or fault)
};

// The launch in flight.
struct Launch {
    Device::Impl* dev = nullptr;
    std::shared_ptr<Program> program;
    ProgramId program_id = 0;
    std::vector<Core*> cores;           // active cores
    std::vector<Core*> claim_order;     // the order workers claim cores in (shuffled when seeded)
    std::atomic<size_t> next_claim{0};  // claim_order[next_claim] is the next unclaimed core
    // Cores a worker may hold while one of them is unfinished: ceil(cores / workers). Without it
    // a worker whose cores all wait on another's claims the rest while they wait too, and ends
    // up doing all their work alone (example 08's receivers waiting on its senders).
    size_t claim_share = 0;
    bool randomize = false;
    uint64_t seed = 0;

    std::mutex err_mu;
    std::optional<Error> error;  // first failure
    std::atomic<bool> aborted{false};
    // A kernel's fault ends only its own fiber; the launch runs on until every other fiber has
    // finished or blocked, then fails with the fault of the lowest (core index, processor), so
    // the error does not depend on which worker thread got there first (README "Determinism").
    uint64_t fault_key = UINT64_MAX;  // under err_mu
    std::optional<Error> fault;       // under err_mu: the lowest fault so far
    void fiber_fault(uint64_t key, ErrorStatus status, const std::string& message);
    // Turns the recorded fault (if any) into the launch's failure; true when there was one.
    bool raise_fault();

    // Deadlock detection across workers (see launch.cpp).
    std::mutex sched_mu;
    std::condition_variable sched_cv;
    std::atomic<uint64_t> progress{0};
    std::atomic<int> blocked_workers{0};
    std::vector<uint64_t> blocked_at;  // per worker: the progress count it found nothing to run at
    int live_workers = 0;
    bool deadlock = false;

    // Completion.
    std::mutex done_mu;
    std::condition_variable done_cv;
    int workers_running = 0;
    bool done = false;

    // Releases into synchronisation words, for the race check (races.hpp).
    SyncState sync;

    // Counters for the `emu` log line at the end of a launch.
    std::atomic<uint64_t> resumes{0}, passes{0}, idle_waits{0}, cpu_ns{0};

    // Trace, one vector per worker (no locking).
    bool tracing = false;
    std::vector<std::vector<TraceEvent>> trace;
    std::chrono::steady_clock::time_point t0;

    void fail(ErrorStatus status, const std::string& message);
};

// Persistent worker threads of a Device.
class WorkerPool {
public:
    explicit WorkerPool(unsigned n);
    ~WorkerPool();
    unsigned size() const { return unsigned(threads_.size()); }
    // Runs `launch` on every worker; returns at once.
    void start(const std::shared_ptr<Launch>& launch);

private:
    void loop(unsigned id);
    std::vector<std::thread> threads_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::shared_ptr<Launch> job_;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

// The fiber running on this thread (null outside kernels) and its launch; set by the scheduler
// around every switch into a fiber. Inline: the kernel API asks on every call.
// initial-exec: one %fs-relative load instead of a __tls_get_addr call per kernel API call (the
// objects are PIC; 16 bytes of static TLS also fit a module loaded with dlopen).
[[gnu::tls_model("initial-exec")]] inline thread_local Fiber* tl_fiber = nullptr;
[[gnu::tls_model("initial-exec")]] inline thread_local Launch* tl_launch = nullptr;
inline Fiber* current_fiber() { return tl_fiber; }
inline Launch* current_launch() { return tl_launch; }
// Throws KernelAbort after recording a KernelFault naming the kernel, core and processor.
[[noreturn]] void kernel_fault(const std::string& what, ErrorStatus status = ErrorStatus::KernelFault);
// "kernel 'reader' on core (0,0) BRISC"
std::string fiber_label(const Fiber& f);
// Blocks the running fiber `f` until the scheduler finds f.wait (filled in by the caller)
// satisfied. block_on fills in the common kinds; the arguments travel in registers (a Wait
// built on the caller's stack and copied whole stalled on store forwarding).
void block_on_wait(Fiber& f);
inline void block_on(Fiber& f, Wait::Kind kind, int32_t cb = 0, int32_t n = 0) {
    f.wait.kind = kind;
    f.wait.cb = cb;
    f.wait.n = n;
    block_on_wait(f);
}
// Switches from the running fiber back to its scheduler (throws KernelAbort when the launch was
// aborted meanwhile).
void fiber_yield(Fiber& f);
bool wait_ready(const Fiber& f);
std::string describe_wait(const Fiber& f);
double trace_now_us();
double trace_now_us_of(const Launch& L);
// Barrier: lands (if not yet) and forgets this fiber's transfers on `noc` (-1: all) of one kind.
void complete_txns(Fiber& f, int noc, bool is_read_filter, bool all_kinds);
// Lands this fiber's outstanding writes without forgetting them (time passes while it waits).
void land_writes(Fiber& f);

// Thrown inside a fiber to end it after a recorded failure; caught at the fiber's base.
struct KernelAbort {};

const zyx_emu_api* kernel_api_table();

}  // namespace zyx::emu
