// Running a program: worker threads, five fibers per core, the scheduler with deadlock
// detection, crash reports, end-of-launch checks and the Chrome trace.
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <immintrin.h>

#include <algorithm>
#include <csetjmp>
#include <ctime>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/log.hpp"
#include "emu/engine.hpp"
#include "emu/program.hpp"

namespace ctx = boost::context;

// AddressSanitizer must be told about every stack switch, or it reports false errors when it
// meets a fiber stack (Boost.Context's fcontext does not annotate).
#if defined(ZYX_EMU_ASAN)
#include <sanitizer/common_interface_defs.h>
#define ZYX_ASAN_START(fake, bottom, size) __sanitizer_start_switch_fiber(fake, bottom, size)
#define ZYX_ASAN_FINISH(fake, bottom, size) __sanitizer_finish_switch_fiber(fake, bottom, size)
#else
#define ZYX_ASAN_START(fake, bottom, size) ((void)(fake), (void)(bottom), (void)(size))
#define ZYX_ASAN_FINISH(fake, bottom, size) ((void)(fake), (void)(bottom), (void)(size))
#endif

namespace zyx::emu {
namespace {

thread_local sigjmp_buf* t_crash_jmp = nullptr;
thread_local volatile uintptr_t t_fault_addr = 0;
thread_local volatile int t_fault_signal = 0;
thread_local std::vector<TraceEvent>* t_trace = nullptr;
thread_local const void* t_sched_bottom = nullptr;  // the worker thread's own stack (for ASan)
thread_local size_t t_sched_size = 0;

constexpr size_t kFiberStack = 256 * 1024;
constexpr size_t kGuard = 4096;

// Spin watchdog (engine.hpp): a worker whose fibers only poll, without causing any event, for
// this many scheduler passes in a row and at least this long counts as stuck.
constexpr uint64_t kSpinPasses = 20000;
constexpr int kSpinMinMs = 200;


// ---- crash reports --------------------------------------------------------------------------
// SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT while a kernel fiber runs on a worker thread: jump back to the
// scheduler (on the thread's own stack) and report kernel, core, processor and address. Any
// other fault goes to the previous handler (or the default action).
struct sigaction g_old[32];
// SIGABRT: abort() (or std::terminate) in a kernel, raised on the kernel's own thread.
const int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void fault_handler(int sig, siginfo_t* info, void* uc) {
    if (tl_fiber && t_crash_jmp) {
        t_fault_addr = uintptr_t(info->si_addr);
        t_fault_signal = sig;
        siglongjmp(*t_crash_jmp, 1);
    }
    const struct sigaction& old = g_old[sig];
    if (old.sa_flags & SA_SIGINFO) {
        if (old.sa_sigaction) return old.sa_sigaction(sig, info, uc);
    } else if (old.sa_handler != SIG_IGN && old.sa_handler != SIG_DFL) {
        return old.sa_handler(sig);
    }
    // Default action: restore it and return, so the faulting instruction faults again.
    sigaction(sig, &old, nullptr);
}

void install_fault_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa {};
        sa.sa_sigaction = fault_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (int s : kFaultSignals) sigaction(s, &sa, &g_old[s]);
    });
}

// Each worker has an alternate signal stack so a fiber's stack overflow can still be reported.
struct AltStack {
    void* mem = nullptr;
    AltStack() {
        size_t sz = 64 * 1024;
        mem = ::mmap(nullptr, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        stack_t ss{};
        ss.ss_sp = mem;
        ss.ss_size = sz;
        sigaltstack(&ss, nullptr);
    }
};

// Fiber stacks come from a per-core region allocated once and reused by every launch.
struct FixedStack {
    void* base;
    size_t size;
    ctx::stack_context allocate() {
        ctx::stack_context sc;
        sc.size = size;
        sc.sp = static_cast<char*>(base) + size;
        return sc;
    }
    void deallocate(ctx::stack_context&) noexcept {}
};

const char* kWaitApi[] = {"running",
                          "cb_reserve_back",
                          "cb_wait_front",
                          "tile_regs_acquire",
                          "tile_regs_wait",
                          "MATH waiting for UNPACK (SrcA/SrcB empty)",
                          "UNPACK waiting for MATH (SrcA/SrcB full)",
                          "noc_semaphore_wait",
                          "polling"};

}  // namespace

const char* proc_name(Proc p) {
    switch (p) {
        case Proc::Brisc: return "BRISC";
        case Proc::Ncrisc: return "NCRISC";
        case Proc::Unpack: return "TRISC0 (UNPACK)";
        case Proc::Math: return "TRISC1 (MATH)";
        case Proc::Pack: return "TRISC2 (PACK)";
    }
    return "?";
}


double trace_now_us_of(const Launch& L) {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - L.t0).count();
}

double trace_now_us() {
    Launch* L = tl_launch;
    if (!L) return 0;
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - L->t0).count();
}

std::string fiber_label(const Fiber& f) {
    return "kernel '" + (f.kernel ? f.kernel->name : std::string("?")) + "' on core " + coord_str(f.core->logical) +
        " " + proc_name(f.proc);
}

void Launch::fail(ErrorStatus status, const std::string& message) {
    {
        std::lock_guard<std::mutex> lock(err_mu);
        if (!error) error = Error(status, message);
    }
    aborted.store(true);
    ZYX_LOG(emu) << "launch of program " << program_id << " failed: " << message;
    // Wake workers blocked in deadlock detection.
    std::lock_guard<std::mutex> lock(sched_mu);
    sched_cv.notify_all();
}

void Launch::fiber_fault(uint64_t key, ErrorStatus status, const std::string& message) {
    {
        std::lock_guard<std::mutex> lock(err_mu);
        if (key < fault_key) fault_key = key, fault = Error(status, message);
    }
    ZYX_LOG(emu) << "launch of program " << program_id << ": " << message;
    // A fault is an event: the workers re-check whether anything can still run.
    progress.fetch_add(1, std::memory_order_seq_cst);
    std::lock_guard<std::mutex> lock(sched_mu);
    sched_cv.notify_all();
}

bool Launch::raise_fault() {
    std::optional<Error> e;
    {
        std::lock_guard<std::mutex> lock(err_mu);
        e = fault;
    }
    if (!e) return false;
    fail(e->status(), e->message());
    return true;
}

namespace {
uint64_t fault_key_of(const Fiber& f) { return uint64_t(f.core->index) * kProcs + uint64_t(f.proc); }
}  // namespace

void kernel_fault(const std::string& what, ErrorStatus status) {
    Fiber* f = tl_fiber;
    Launch* L = tl_launch;
    if (!f || !L) throw Error(status, what);
    L->fiber_fault(fault_key_of(*f), status, fiber_label(*f) + ": " + what);
    throw KernelAbort{};
}

bool wait_ready(const Fiber& f) {
    const Core& c = *f.core;
    const Wait& w = f.wait;
    switch (w.kind) {
        case Wait::None: return true;
        case Wait::CbReserve: return c.cbs[w.cb].free_pages() >= uint32_t(w.n);
        case Wait::CbWait: return c.cbs[w.cb].available() >= uint32_t(w.n);
        case Wait::DstAcquire: return c.dst.state[c.dst.math_sec] == DstState::Free;
        case Wait::DstWait: return c.dst.state[c.dst.pack_sec] == DstState::Committed;
        case Wait::OperandPop: return c.opq->count > 0;
        case Wait::OperandPush: return c.opq->count < OperandQueue::kDepth;
        case Wait::Semaphore: {
            uint32_t v = __atomic_load_n(const_cast<const uint32_t*>(w.sem), __ATOMIC_SEQ_CST);
            return w.at_least ? v >= w.val : v == w.val;
        }
        case Wait::Poll: return true;  // a poller runs again next pass and looks for itself
    }
    return true;
}

std::string describe_wait(const Fiber& f) {
    const Core& c = *f.core;
    const Wait& w = f.wait;
    std::ostringstream os;
    if (w.kind == Wait::Poll) {
        if (w.poll == Wait::PollL1) return "spinning on L1 (invalidate_l1_cache)";
        const char* api =
            w.poll == Wait::PollReservable ? "cb_pages_reservable_at_back" : "cb_pages_available_at_front";
        uint32_t have = w.poll == Wait::PollReservable ? c.cbs[w.cb].free_pages() : c.cbs[w.cb].available();
        os << "spinning on " << api << "(cb " << w.cb << ", " << w.n << "), have " << have;
        return os.str();
    }
    os << kWaitApi[w.kind];
    switch (w.kind) {
        case Wait::CbReserve:
            os << "(cb " << w.cb << ", need " << w.n << " free, have " << c.cbs[w.cb].free_pages() << " of "
               << c.cbs[w.cb].num_pages << ")";
            break;
        case Wait::CbWait:
            os << "(cb " << w.cb << ", need " << w.n << ", have " << c.cbs[w.cb].available() << ")";
            break;
        case Wait::DstAcquire: os << "(DST section " << c.dst.math_sec << " not yet released by PACK)"; break;
        case Wait::DstWait: os << "(DST section " << c.dst.pack_sec << " not yet committed by MATH)"; break;
        case Wait::Semaphore:
            os << "(addr 0x" << std::hex << uintptr_t(w.sem) << std::dec << ", want " << (w.at_least ? ">= " : "== ")
               << w.val << ", have " << *w.sem << ")";
            break;
        default: break;
    }
    return os.str();
}

void land_txn(NocTxn& t) {
    t.landed = true;
#if defined(__AVX__)
    // DRAM pages are at least 32-byte aligned; anything else (or a short transfer) is copied
    // plainly. The sfence orders the streamed bytes before whatever this thread does next
    // (a barrier's return, a semaphore increment, the end of the launch).
    if (t.to_dram && t.size >= 256 && (uintptr_t(t.dst) & 31) == 0 && (t.size & 31) == 0) {
        auto* d = reinterpret_cast<__m256i*>(t.dst);
        auto* s = reinterpret_cast<const __m256i_u*>(t.src);
        for (uint32_t i = 0; i < t.size / 32; ++i) _mm256_stream_si256(d + i, _mm256_loadu_si256(s + i));
        _mm_sfence();
        return;
    }
#endif
    std::memmove(t.dst, t.src, t.size);
}

// Completes this fiber's outstanding transfers: the data lands now (source read now).
void complete_txns(Fiber& f, int noc, bool reads, bool all_kinds) {
    auto& v = f.txns;
    size_t keep = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        NocTxn& t = v[i];
        bool match = (noc < 0 || t.noc == noc) && (all_kinds || t.is_read == reads);
        if (!match)
            v[keep++] = t;
        else if (!t.landed)
            land_txn(t);
    }
    if (keep != v.size()) ++f.events;
    v.resize(keep);
}

void land_writes(Fiber& f) {
    for (NocTxn& t : f.txns)
        if (!t.is_read && !t.landed) land_txn(t);
}

void fiber_yield(Fiber& f) {
    ZYX_ASAN_START(&f.asan_fake, t_sched_bottom, t_sched_size);
    f.sched = std::move(f.sched).resume();
    ZYX_ASAN_FINISH(f.asan_fake, &t_sched_bottom, &t_sched_size);
    if (tl_launch->aborted.load(std::memory_order_relaxed)) throw KernelAbort{};
}

void block_on_wait(Fiber& f) {
    Launch& L = *tl_launch;
    if (wait_ready(f)) {
        f.wait.kind = Wait::None;
        return;
    }
    // Time passes while a processor waits: its writes land (reads stay held until the barrier,
    // so a missing read barrier is still caught).
    if (!f.txns.empty()) land_writes(f);
    double t = L.tracing ? trace_now_us() : 0;
    // The wait's trace span; a wait the launch's end (deadlock, a fault elsewhere) cut short is
    // recorded too, marked unfinished: it is what a stuck program's trace is read for.
    auto span = [&](bool unfinished) {
        if (!L.tracing || !t_trace) return;
        std::string name = kWaitApi[f.wait.kind];
        if (f.wait.kind == Wait::CbReserve || f.wait.kind == Wait::CbWait) name += " cb " + std::to_string(f.wait.cb);
        t_trace->push_back({f.core->index, uint8_t(f.proc), t, trace_now_us() - t, std::move(name), unfinished});
    };
    try {
        do fiber_yield(f);
        while (!wait_ready(f));
    } catch (const KernelAbort&) {
        span(true);
        throw;
    }
    span(false);
    f.wait.kind = Wait::None;
}


// ---- the scheduler ----------------------------------------------------------------------------
namespace {

// "L1 0x12340 of core (1,0)" / "DRAM bank 3 address 0x1000" for a host address a transfer names.
std::string where_is(const Device::Impl& d, const uint8_t* p) {
    std::ostringstream os;
    os << std::hex;
    uint64_t off = 0;
    if (int c = d.l1.core_of(uintptr_t(p), &off); c >= 0) {
        os << "L1 0x" << uintptr_t(p) << " of core "
           << coord_str({uint32_t(c) % d.spec.grid_x, uint32_t(c) / d.spec.grid_x});
        return os.str();
    }
    for (uint32_t b = 0; b < d.dram.banks(); ++b)
        if (p >= d.dram.bank_base(b) && p < d.dram.bank_base(b) + d.dram.bank_bytes()) {
            os << "DRAM bank " << std::dec << b << " address 0x" << std::hex << (p - d.dram.bank_base(b));
            return os.str();
        }
    os << "host address 0x" << uintptr_t(p);
    return os.str();
}

void fiber_body(Fiber& f) {
    Launch& L = *tl_launch;
    try {
        f.kernel->entry();
        // Kernel exit: nothing may be left in flight or half-done.
        Core& c = *f.core;
        if (!f.txns.empty()) {
            size_t reads = std::count_if(f.txns.begin(), f.txns.end(), [](const NocTxn& t) { return t.is_read; });
            const NocTxn& t = f.txns.front();
            kernel_fault("kernel exit with " + std::to_string(reads) + " NoC reads and " +
                         std::to_string(f.txns.size() - reads) +
                         " NoC writes outstanding (the first: " + (t.is_read ? "a read of " : "a write of ") +
                         std::to_string(t.size) + " B from " + where_is(*L.dev, t.src) + " to " +
                         where_is(*L.dev, t.dst) + ") (missing noc_async_read_barrier / noc_async_write_barrier)");
        }
        for (uint32_t i = 0; i < 64; ++i) {
            const CbState& cb = c.cbs[i];
            if (!cb.configured) continue;
            if (cb.producer == int8_t(f.proc) && cb.reserved > 0)
                kernel_fault("kernel exit with cb " + std::to_string(i) + " dirty: " + std::to_string(cb.reserved) +
                             " pages reserved by cb_reserve_back but never pushed");
            if (cb.consumer == int8_t(f.proc) && cb.waited > 0)
                kernel_fault("kernel exit with cb " + std::to_string(i) + " dirty: " + std::to_string(cb.waited) +
                             " pages waited for by cb_wait_front but never popped");
        }
        if (f.proc == Proc::Math && c.dst.state[c.dst.math_sec] == DstState::Acquired)
            kernel_fault("kernel exit with DST acquired (tile_regs_acquire without tile_regs_commit)");
        if (f.proc == Proc::Pack && c.dst.state[c.dst.pack_sec] == DstState::Packing)
            kernel_fault("kernel exit with DST held by PACK (tile_regs_wait without tile_regs_release)");
        if (f.proc == Proc::Math && c.opq->count > 0)
            kernel_fault("kernel exit with " + std::to_string(c.opq->count) +
                         " operand tiles unpacked by UNPACK but never used by MATH");
    } catch (const KernelAbort&) {
    } catch (const ctx::detail::forced_unwind&) { throw; } catch (const Error& e) {
        L.fiber_fault(fault_key_of(f), e.status(), fiber_label(f) + ": " + e.message());
    } catch (const std::exception& e) {
        L.fiber_fault(fault_key_of(f), ErrorStatus::Internal, fiber_label(f) + ": " + e.what());
    }
    f.finished = true;
}

// Resumes one fiber until it blocks or ends. Returns false when it crashed.
bool resume(Fiber& f, sigjmp_buf& jb) {
    tl_fiber = &f;
    // savesigs = 0: no sigprocmask syscall per resume. The handler runs with SA_NODEFER, so no
    // signal is left blocked after the jump.
    if (sigsetjmp(jb, 0) == 0) {
        void* fake = nullptr;
        ZYX_ASAN_START(&fake, f.stack_lo, kFiberStack);
        f.ctx = std::move(f.ctx).resume();
        ZYX_ASAN_FINISH(fake, nullptr, nullptr);
    } else {
        // The kernel faulted; its stack is abandoned (the fiber handle was emptied by resume()).
        // `sched` still names this scheduler's stale context: leak it, never destroy it (that
        // would try to unwind a stack that no longer exists).
        new ctx::fiber(std::move(f.sched));
        f.crashed = f.finished = true;
        Launch& L = *tl_launch;
        std::ostringstream os;
        if (t_fault_signal == SIGABRT) {
            os << fiber_label(f) << ": called abort() (SIGABRT; abort, std::terminate or a failed check in a library)";
            L.fiber_fault(fault_key_of(f), ErrorStatus::KernelFault, os.str());
            tl_fiber = nullptr;
            return false;
        }
        os << fiber_label(f) << ": crashed with " << strsignal(t_fault_signal) << " at address 0x" << std::hex
           << t_fault_addr;
        uint64_t off = 0;
        int owner = L.dev->l1.core_of(t_fault_addr, &off);
        uintptr_t lo = uintptr_t(f.stack_lo);
        if (owner >= 0 && off >= L.dev->spec.l1_bytes)
            os << " (beyond the end of L1 of core " << std::dec << owner << ")";
        else if (t_fault_addr < 4096)
            os << " (null pointer)";
        else if (t_fault_addr >= lo - kGuard && t_fault_addr < lo)
            os << " (stack overflow: the emulator gives each processor " << std::dec << kFiberStack / 1024
               << " KiB of stack)";
        L.fiber_fault(fault_key_of(f), ErrorStatus::KernelFault, os.str());
        tl_fiber = nullptr;
        return false;
    }
    tl_fiber = nullptr;
    if (f.ctx && f.finished) f.ctx = ctx::fiber();  // never happens: a finished fiber returns empty
    return true;
}

void startl_fiber(Fiber& f, void* stack) {
    f.stack_lo = stack;
    f.ctx = ctx::fiber(std::allocator_arg, FixedStack{stack, kFiberStack}, [&f](ctx::fiber&& sched) {
        ZYX_ASAN_FINISH(nullptr, &t_sched_bottom, &t_sched_size);
        f.sched = std::move(sched);
        // A fiber first resumed after the launch failed never runs its kernel.
        if (!tl_launch->aborted.load()) {
            double t = tl_launch->tracing ? trace_now_us() : 0;
            fiber_body(f);
            if (tl_launch->tracing && t_trace)
                t_trace->push_back({f.core->index, uint8_t(f.proc), t, trace_now_us() - t, "kernel " + f.kernel->name});
        }
        f.finished = true;
        ZYX_ASAN_START(nullptr, t_sched_bottom, t_sched_size);  // this stack is done
        return std::move(f.sched);
    });
}

// Deadlock report: what every unfinished fiber of the launch waits on.
std::string deadlock_report(Launch& L) {
    bool spinning = false;
    for (Core* c : L.cores)
        for (auto& f : c->fibers) spinning |= f.kernel && !f.finished && f.wait.kind == Wait::Poll;
    std::ostringstream os;
    os << "deadlock: every kernel of program " << L.program_id << " is blocked";
    if (spinning)
        os << " or spinning (polling for " << kSpinPasses << " scheduler passes and " << kSpinMinMs
           << " ms without a CB, semaphore, NoC or DST event anywhere)";
    for (Core* c : L.cores)
        for (auto& f : c->fibers) {
            if (!f.kernel) continue;
            os << "\n  core " << coord_str(c->logical) << " " << proc_name(f.proc) << " [" << f.kernel->name << "]: ";
            os << (f.finished ? std::string("finished") : describe_wait(f));
        }
    return os.str();
}

void run_worker(Launch& L, unsigned wid, std::vector<void*>& stacks) {
    static thread_local AltStack alt;
    (void)alt;
    tl_launch = &L;
    t_trace = L.tracing ? &L.trace[wid] : nullptr;
    sigjmp_buf jb;
    t_crash_jmp = &jb;

    // This worker's cores and their fibers. Cores are claimed from L.claim_order one at a time:
    // one to start with, then another whenever nothing on the claimed ones can run (all finished
    // or all blocked), up to L.claim_share while any of them is unfinished (`all_finished`: past
    // it). So no worker idles with nothing to do while unstarted cores remain, and the work is
    // split evenly even when the first cores wait on each other. A claimed core stays on its worker.
    std::vector<Core*> cores;
    std::vector<Fiber*> fibers;
    auto claim_core = [&](bool all_finished) {
        if (!all_finished && cores.size() >= L.claim_share) return false;
        size_t i = L.next_claim.fetch_add(1, std::memory_order_relaxed);
        if (i >= L.claim_order.size()) return false;
        Core* c = L.claim_order[i];
        cores.push_back(c);
        for (auto& f : c->fibers)
            if (f.kernel) {
                startl_fiber(f, stacks[c->index * kProcs + size_t(f.proc)]);
                fibers.push_back(&f);
            }
        return true;
    };
    claim_core(true);
    std::mt19937_64 rng(L.seed * 0x9e3779b97f4a7c15ull + wid + 1);
    int order[kProcs] = {0, 1, 2, 3, 4};

    uint64_t n_resumes = 0, n_passes = 0, n_idle = 0;
    auto thread_cpu_ns = [] {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
    };
    uint64_t cpu0 = thread_cpu_ns();
    const double start_us = trace_now_us_of(L);
    // Spin watchdog (engine.hpp): passes in a row in which only pollers ran, without an event.
    uint64_t spin_passes = 0;
    std::chrono::steady_clock::time_point spin_start;
    while (!L.aborted.load(std::memory_order_relaxed)) {
        ++n_passes;
        uint64_t seen = L.progress.load(std::memory_order_seq_cst);
        if (L.randomize) std::shuffle(cores.begin(), cores.end(), rng);
        // progress: some fiber ran and did more than poll; polling: some fiber only polled.
        bool progress = false, live = false, polling = false;
        // Runs core c's fibers of processors procs[0..n) while any can (at most `max_rounds`
        // rounds; a seeded schedule shuffles `order` before each), then clears their polled marks.
        auto run_core = [&](Core* c, const int* procs, int n, int max_rounds) {
            for (int rounds = 0; rounds < max_rounds && !L.aborted.load(std::memory_order_relaxed); ++rounds) {
                if (L.randomize && procs == order) std::shuffle(std::begin(order), std::end(order), rng);
                bool ran = false;
                for (int k = 0; k < n; ++k) {
                    Fiber* f = &c->fibers[procs[k]];
                    if (f->finished) continue;
                    live = true;
                    if (f->polled || !wait_ready(*f)) continue;
                    if (L.randomize && !f->txns.empty()) {
                        // Seeded NoC completion: each outstanding transfer lands now or later, in
                        // random order (it stays outstanding for the barrier checks).
                        for (size_t i = f->txns.size(); i > 1; --i) std::swap(f->txns[i - 1], f->txns[rng() % i]);
                        for (auto& t : f->txns)
                            if (!t.landed && (rng() & 1)) land_txn(t), ++f->events;
                    }
                    ran = true;
                    ++n_resumes;
                    if (!resume(*f, jb) || L.aborted.load(std::memory_order_relaxed)) {
                        progress = true;
                        break;
                    }
                    // It polled again without causing any event: it is spinning (so far).
                    if (f->wait.kind == Wait::Poll && f->idle_poll) [[unlikely]]
                        polling = true;
                    else
                        progress = true;
                }
                if (!ran) break;
            }
            for (auto& f : c->fibers) f.polled = false;
        };
        // Tells workers waiting for progress (in the deadlock check below) to look again.
        auto wake_waiting_workers = [&] {
            L.progress.fetch_add(1, std::memory_order_seq_cst);
            if (L.blocked_workers.load(std::memory_order_seq_cst) > 0) {
                std::lock_guard<std::mutex> lock(L.sched_mu);
                L.sched_cv.notify_all();
            }
        };
        static constexpr int kDataMovement[] = {int(Proc::Brisc), int(Proc::Ncrisc)};
        // A core keeps running while any of its fibers can (bounded, for fairness): its CBs,
        // DST and operand queue stay in the host's caches instead of being evicted by the
        // other cores of this worker between every step.
        for (Core* c : cores) {
            run_core(c, order, kProcs, 4096);
            if (L.aborted.load(std::memory_order_relaxed)) break;
            // Another worker has nothing to run: its cores likely wait on data or a semaphore from
            // this worker's data movement kernels (a multicast sender, say), which would otherwise
            // wait for the rest of this pass, each core's compute in turn. Give them a turn now.
            if (L.blocked_workers.load(std::memory_order_relaxed) > 0) {
                for (Core* d : cores)
                    if (d != c && !L.aborted.load(std::memory_order_relaxed)) run_core(d, kDataMovement, 2, 64);
                if (L.aborted.load(std::memory_order_relaxed)) break;
                if (progress) wake_waiting_workers();
            }
        }
        if (progress) wake_waiting_workers();
        if (progress) spin_passes = 0;
        if ((!progress || !live) && claim_core(!live)) continue;  // nothing to run here: take a new core
        if (!live) break;
        if (progress) continue;
        if (polling) {
            // Only pollers ran, and none caused an event. Keep polling for a long stretch (a
            // poller may be waiting for a plain L1 store by another poller of its core); then
            // count as stuck like a worker whose fibers are all blocked.
            if (spin_passes++ == 0) spin_start = std::chrono::steady_clock::now();
            if (spin_passes < kSpinPasses ||
                std::chrono::steady_clock::now() - spin_start < std::chrono::milliseconds(kSpinMinMs))
                continue;
            spin_passes = 0;
        }
        // Nothing on this worker can run. Deadlock when every worker with live fibers found
        // nothing to run at the current progress count (a worker blocked at an older count may
        // be about to wake up and run something).
        std::unique_lock<std::mutex> lock(L.sched_mu);
        if (L.progress.load(std::memory_order_seq_cst) != seen || L.aborted) continue;
        ++n_idle;
        L.blocked_workers.fetch_add(1, std::memory_order_seq_cst);
        L.blocked_at[wid] = seen;
        int stuck = 0;
        for (uint64_t b : L.blocked_at) stuck += b == seen;
        if (stuck == L.live_workers && !L.deadlock) {
            L.deadlock = true;
            lock.unlock();
            // Blocked after a fault: the fault is the error (its partners wait for it), not a deadlock.
            if (!L.raise_fault()) L.fail(ErrorStatus::Deadlock, deadlock_report(L));
            lock.lock();
        } else {
            L.sched_cv.wait(lock, [&] { return L.progress.load() != seen || L.aborted.load() || L.deadlock; });
        }
        L.blocked_at[wid] = UINT64_MAX;
        L.blocked_workers.fetch_sub(1, std::memory_order_seq_cst);
    }
    const uint64_t cpu = thread_cpu_ns() - cpu0;
    L.resumes += n_resumes, L.passes += n_passes, L.idle_waits += n_idle;
    L.cpu_ns += cpu;
    ZYX_LOG(emu) << "worker " << wid << ": " << cores.size() << " cores, CPU " << cpu / 1000
                 << " us, from " << start_us << " to " << trace_now_us_of(L) << " us, " << n_idle << " idle waits";
    {
        std::lock_guard<std::mutex> lock(L.sched_mu);
        --L.live_workers;  // a finished worker no longer counts for deadlock detection
        L.progress.fetch_add(1, std::memory_order_seq_cst);  // wake blocked workers to re-check
        L.sched_cv.notify_all();
    }
    // After a failure, end whatever did not finish: resumed once more, a blocked fiber sees the
    // abort and throws KernelAbort out of its wait, unwinding the kernel's frames (destructors of
    // kernel locals run); a fiber that never ran returns at once.
    for (Fiber* f : fibers) {
        while (f->ctx && !f->crashed) resume(*f, jb);
        f->finished = true;
    }
    t_crash_jmp = nullptr;
    tl_launch = nullptr;
    t_trace = nullptr;
}

}  // namespace

void finish_launch(Launch& L);

// ---- worker pool ------------------------------------------------------------------------------
WorkerPool::WorkerPool(unsigned n) {
    for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this, i] { loop(i); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
}

void WorkerPool::start(const std::shared_ptr<Launch>& launch) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        job_ = launch;
        ++generation_;
    }
    cv_.notify_all();
}

void WorkerPool::loop(unsigned id) {
    uint64_t seen = 0;
    for (;;) {
        std::shared_ptr<Launch> job;
        {
            std::unique_lock<std::mutex> lock(mu_);
            cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            job = job_;
        }
        run_worker(*job, id, job->dev->fiber_stacks);
        bool last = false;
        {
            std::lock_guard<std::mutex> lock(job->done_mu);
            last = --job->workers_running == 0;
        }
        if (last) finish_launch(*job);
    }
}

}  // namespace zyx::emu

// ---- host side: launch, wait ------------------------------------------------------------------
namespace zyx::emu {
namespace {

void write_trace(Launch& L) {
    std::ofstream out(L.dev->options.trace_path, std::ios::trunc);
    auto esc = [](const std::string& s) {
        std::string o;
        for (char c : s) {
            if (c == '"' || c == '\\') o += '\\';
            if (uint8_t(c) >= 0x20) o += c;
        }
        return o;
    };
    out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    bool first = true;
    auto sep = [&] {
        if (!first) out << ",\n";
        first = false;
    };
    for (Core* c : L.cores) {
        sep();
        out << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << c->index << ",\"args\":{\"name\":\"core "
            << coord_str(c->logical) << "\"}}";
        for (int p = 0; p < kProcs; ++p) {
            if (!c->fibers[p].kernel) continue;
            sep();
            out << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << c->index << ",\"tid\":" << p
                << ",\"args\":{\"name\":\"" << proc_name(Proc(p)) << "\"}}";
        }
    }
    for (const auto& v : L.trace)
        for (const auto& e : v) {
            sep();
            out << "{\"ph\":\"X\",\"name\":\"" << esc(e.name) << (e.unfinished ? " (unfinished)" : "")
                << "\",\"pid\":" << e.core << ",\"tid\":" << int(e.proc) << ",\"ts\":" << e.ts_us
                << ",\"dur\":" << e.dur_us;
            if (e.unfinished) out << ",\"args\":{\"unfinished\":true}";
            out << "}";
        }
    out << "\n]}\n";
}

}  // namespace

void finish_launch(Launch& L) {
    ZYX_LOG(emu) << "launch of program " << L.program_id << " done in " << trace_now_us_of(L) << " us (worker CPU time "
                 << L.cpu_ns.load() / 1000 << " us): " << L.resumes.load() << " fiber resumes, " << L.passes.load()
                 << " scheduler passes, " << L.idle_waits.load() << " idle waits";
    if (!L.error) L.raise_fault();
    if (!L.error) check_races(L);
    if (!L.error) {
        // Program end: every page pushed into a CB must have been popped.
        for (Core* c : L.cores)
            for (uint32_t i = 0; i < 64 && !L.error; ++i) {
                const CbState& cb = c->cbs[i];
                if (!cb.configured || cb.available() == 0) continue;
                // Blame the consumer that did not pop them, or else the producer nobody popped for.
                std::string who = "core " + coord_str(c->logical);
                for (int8_t p : {cb.consumer, cb.producer})
                    if (p >= 0 && c->fibers[p].kernel) {
                        who = fiber_label(c->fibers[p]);
                        break;
                    }
                L.fail(ErrorStatus::KernelFault,
                       who + ": at program end cb " + std::to_string(i) + " still holds " +
                           std::to_string(cb.available()) + " pages pushed by " +
                           (cb.producer >= 0 ? proc_name(Proc(cb.producer)) : "nobody") + " and never popped" +
                           (cb.consumer >= 0 ? std::string(" by ") + proc_name(Proc(cb.consumer)) : std::string()) +
                           " (dirty CB)");
            }
    }
    if (L.tracing) {
        try {
            write_trace(L);
        } catch (...) {}
    }
    std::lock_guard<std::mutex> lock(L.done_mu);
    L.done = true;
    L.done_cv.notify_all();
}

void Device::Impl::join_launch() {
    if (!running) return;
    {
        std::unique_lock<std::mutex> lock(running->done_mu);
        running->done_cv.wait(lock, [&] { return running->done; });
    }
    if (running->error && !unreported) unreported = running->error;
    running.reset();
}

namespace {

// Core state for a launch: CBs from the program's plan, DST sized by the compute config, the
// operand queue emptied, semaphores and runtime args written into L1.
void core_setup(Core& c, const Program& p, const Device::Impl& d) {
    for (auto& cb : c.cbs) cb = CbState{};
    c.races->reset(c.index, d.num_cores());
    c.races->on = d.options.check_races;
    for (const auto& pl : p.core_cbs[c.index]) {
        CbState& cb = c.cbs[pl.index];
        cb.configured = true;
        cb.format = pl.format;
        cb.page_bytes = pl.page_bytes;
        cb.tile_bytes = tile_size_bytes(pl.format);
        cb.num_pages = pl.num_pages;
        cb.fifo_base = c.l1_addr + pl.offset;
        cb.fifo_size = pl.page_bytes * pl.num_pages;
        cb.fifo_limit = cb.fifo_base + cb.fifo_size;
        cb.wr_ptr = cb.rd_ptr = cb.fifo_base;
    }
    std::memset(c.l1 + kL1SemaphoreBase, 0, kMaxSemaphores * 16);
    for (auto [id, v] : p.core_semaphores[c.index]) *reinterpret_cast<uint32_t*>(c.l1 + kL1SemaphoreBase + id * 16) = v;

    int ck = p.core_kernels[c.index][2];
    c.compute = ck >= 0 ? p.kernels[ck]->compute : ComputeConfig{};
    c.dst.sections = c.compute.dst_full_sync_en ? 1 : 2;
    c.dst.capacity = (c.compute.fp32_dest_acc_en ? 4 : 8) * (c.compute.dst_full_sync_en ? 2 : 1);
    c.dst.state[0] = c.dst.state[1] = DstState::Free;
    c.dst.math_sec = c.dst.pack_sec = 0;
    c.dst.written[0] = c.dst.written[1] = 0;
    c.dst.pending[0] = c.dst.pending[1] = 0;
    c.dst.uniform[0] = c.dst.uniform[1] = 0;
    c.dst.stale[0] = c.dst.stale[1] = 0xffffu;  // DST starts at zero (cleared on first read)
    c.opq->head = c.opq->count = 0;
    for (auto& r : c.cfg) r = RoleConfig{};

    for (int pi = 0; pi < kProcs; ++pi) {
        Fiber& f = c.fibers[pi];
        f.core = &c;
        f.proc = Proc(pi);
        int slot = pi < 2 ? pi : 2;
        int k = p.core_kernels[c.index][slot];
        f.kernel = k >= 0 ? p.kernels[k].get() : nullptr;
        f.finished = f.kernel == nullptr;
        f.crashed = false;
        f.polled = false;
        f.wait = Wait{};
        f.txns.clear();
        f.dram_seen[0] = f.dram_seen[1] = nullptr;
        f.dprint.clear();
        f.dprint_hex = f.dprint_oct = f.dprint_fixed = false;
        f.dprint_width = 0;
        f.dprint_precision = -1;
        f.noc = f.kernel ? f.kernel->noc : 0;
        f.args_addr = c.l1_addr + kL1ArgsBase + uint32_t(slot) * 0x1000;
        f.common_addr = f.args_addr + kL1CommonArgsOffset;
        f.nargs = f.ncommon = 0;
        if (k >= 0) {
            const auto& a = p.rt_args[k][c.index];
            const auto& ca = p.common_args[k];
            f.nargs = uint32_t(a.size());
            f.ncommon = uint32_t(ca.size());
            if (!a.empty()) std::memcpy(reinterpret_cast<void*>(uintptr_t(f.args_addr)), a.data(), a.size() * 4);
            if (!ca.empty()) std::memcpy(reinterpret_cast<void*>(uintptr_t(f.common_addr)), ca.data(), ca.size() * 4);
        }
    }
}

void cores_create(Device::Impl& d) {
    if (!d.cores.empty()) return;
    uint32_t n = d.num_cores();
    size_t per = kFiberStack + kGuard;
    d.stack_region_bytes = size_t(n) * kProcs * per;
    void* r = ::mmap(nullptr, d.stack_region_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (r == MAP_FAILED) throw Error(ErrorStatus::Initialization, "cannot map fiber stacks");
    d.stack_region = r;
    for (size_t i = 0; i < size_t(n) * kProcs; ++i) {
        char* s = static_cast<char*>(r) + i * per;
        ::mprotect(s, kGuard, PROT_NONE);  // stack overflow faults (and is reported)
        d.fiber_stacks.push_back(s + kGuard);
    }
    for (uint32_t i = 0; i < n; ++i) {
        auto c = std::make_unique<Core>();
        c->index = i;
        c->logical = {i % d.spec.grid_x, i / d.spec.grid_x};
        c->noc = d.worker_noc(c->logical);
        c->l1 = d.l1.core_base(i);
        c->l1_addr = d.l1.core_addr(i);
        c->my_x[0] = c->my_x[1] = uint8_t(c->noc.x);
        c->my_y[0] = c->my_y[1] = uint8_t(c->noc.y);
        c->num_cbs = d.spec.num_cbs;
        void* mem = nullptr;
        if (posix_memalign(&mem, 64, 16 * 1024 * sizeof(float)) != 0) throw std::bad_alloc();
        c->dst_storage =
            std::unique_ptr<float[], void (*)(float*)>(static_cast<float*>(mem), [](float* p) { std::free(p); });
        c->dst.tiles = c->dst_storage.get();
        c->opq = std::make_unique<OperandQueue>();
        d.cores.push_back(std::move(c));
    }
}

}  // namespace

void Device::program_launch(ProgramId program) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    auto it = d.programs.find(program);
    if (it == d.programs.end())
        throw Error(ErrorStatus::KernelLaunch, "program_launch: unknown program id " + std::to_string(program));
    program_place_l1(d, *it->second, program);
    install_fault_handlers();
    cores_create(d);
    auto L = std::make_shared<Launch>();
    L->dev = &d;
    L->program = it->second;
    L->program_id = program;
    L->randomize = d.options.schedule_seed.has_value();
    L->seed = d.options.schedule_seed.value_or(0) + d.launches;
    L->tracing = !d.options.trace_path.empty();
    L->t0 = std::chrono::steady_clock::now();
    const Program& p = *L->program;
    for (uint32_t i = 0; i < d.num_cores(); ++i) {
        const auto& k = p.core_kernels[i];
        if (k[0] < 0 && k[1] < 0 && k[2] < 0) continue;
        core_setup(*d.cores[i], p, d);
        L->cores.push_back(d.cores[i].get());
    }
    if (!d.pool) {
        // A seeded schedule runs on one worker, whatever `threads` says: with several, the OS
        // would interleave the workers differently each run and the seed would not fix the result.
        unsigned n = L->randomize ? 1u
            : d.options.threads   ? d.options.threads
                                  : std::max(1u, std::thread::hardware_concurrency());
        if (L->randomize && d.options.threads > 1) {
            ZYX_LOG(emu) << "schedule_seed set: running on 1 worker thread instead of " << d.options.threads
                         << " (a seeded schedule is reproducible only on one)";
        }
        d.pool = std::make_unique<WorkerPool>(n);
    }
    unsigned nw = d.pool->size();
    L->trace.resize(nw);
    L->blocked_at.assign(nw, UINT64_MAX);
    // Every worker counts as live until it leaves (it may claim cores until none are left).
    L->live_workers = int(nw);
    L->claim_order = L->cores;
    L->claim_share = (L->cores.size() + nw - 1) / nw;
    if (L->randomize) std::shuffle(L->claim_order.begin(), L->claim_order.end(), std::mt19937_64(L->seed));
    L->workers_running = int(nw);
    ++d.launches;
    d.running = L;
    ZYX_LOG(emu) << "launch of program " << program << " on " << L->cores.size() << " cores, " << nw << " workers"
                 << (L->randomize ? ", seeded schedule" : "");
    d.pool->start(L);
}

void Device::wait() {
    auto& d = *impl_;
    d.join_launch();
    if (d.unreported) {
        Error e = *d.unreported;
        d.unreported.reset();
        throw e;
    }
}

}  // namespace zyx::emu
