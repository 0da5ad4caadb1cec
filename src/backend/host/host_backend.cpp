#include "backend/host/host_backend.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>

#include "backend/host/host_codegen.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "jit/jit.hpp"
#include "kernel/analysis.hpp"

namespace zyx::backend::host {

using kernel::Kernel;

// ---- pool --------------------------------------------------------------------------------------

HostPool::~HostPool() {
    for (auto& [id, b] : buffers_) alloc_.free(b.ptr, b.bytes);
}

uint64_t HostPool::free_bytes() const {
    uint64_t avail = 0;
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    uint64_t kib;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") {
            avail = kib * 1024;
            break;
        }
        meminfo.ignore(256, '\n');
    }
    if (avail == 0) avail = uint64_t(sysconf(_SC_AVPHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
    return avail + alloc_.cached_bytes();
}

HostPool::Buffer& HostPool::find(BufferId id, ErrorStatus status, const char* what) {
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(status, std::string("host: ") + what + " of unknown buffer " + std::to_string(id));
    return it->second;
}

BufferId HostPool::allocate(uint64_t bytes) {
    if (bytes == 0) throw Error(ErrorStatus::MemoryAllocation, "host: allocation of 0 bytes");
    // Large requests are checked against the memory the system has available (reading
    // /proc/meminfo costs microseconds, as much as the rest of a small realize); a small one that
    // cannot be met fails in the allocator below with the same status.
    constexpr uint64_t kCheckedBytes = uint64_t(16) << 20;
    if (bytes >= kCheckedBytes) {
        uint64_t avail = free_bytes();
        if (bytes > avail)
            throw Error(ErrorStatus::MemoryAllocation,
                        "host: allocation of " + std::to_string(bytes) + " bytes exceeds the " + std::to_string(avail) +
                            " bytes available");
    }
    void* p = alloc_.alloc(bytes);
    if (!p) throw Error(ErrorStatus::MemoryAllocation, "host: the system refused " + std::to_string(bytes) + " bytes");
    BufferId id = next_id_++;
    buffers_[id] = Buffer{p, bytes, 1};
    ZYX_LOG(mem) << "host: buffer " << id << " = " << bytes << " bytes";
    return id;
}

void HostPool::retain(BufferId buffer) { ++find(buffer, ErrorStatus::MemoryDeallocation, "retain").refs; }

void HostPool::release(BufferId buffer) {
    Buffer& b = find(buffer, ErrorStatus::MemoryDeallocation, "release");
    if (--b.refs > 0) return;
    alloc_.free(b.ptr, b.bytes);
    buffers_.erase(buffer);
    ZYX_LOG(mem) << "host: buffer " << buffer << " freed";
}

Event HostPool::host_to_pool(const void* src, uint64_t bytes, BufferId dst, std::span<const Event>) {
    Buffer& b = find(dst, ErrorStatus::MemoryCopyH2P, "write");
    if (bytes > b.bytes)
        throw Error(ErrorStatus::MemoryCopyH2P,
                    "host: write of " + std::to_string(bytes) + " bytes into buffer " + std::to_string(dst) + " of " +
                        std::to_string(b.bytes) + " bytes");
    if (bytes) std::memcpy(b.ptr, src, bytes);
    return Event{};
}

void HostPool::pool_to_host(BufferId src, void* dst, uint64_t bytes, std::span<const Event>) {
    Buffer& b = find(src, ErrorStatus::MemoryCopyP2H, "read");
    if (bytes > b.bytes)
        throw Error(ErrorStatus::MemoryCopyP2H,
                    "host: read of " + std::to_string(bytes) + " bytes from buffer " + std::to_string(src) + " of " +
                        std::to_string(b.bytes) + " bytes");
    if (bytes) std::memcpy(dst, b.ptr, bytes);
}

Event HostPool::pool_to_pool(MemoryPool& src_pool, BufferId src, BufferId dst, uint64_t bytes,
                             std::span<const Event> wait) {
    void* from = src_pool.host_address(src);
    if (!from) return MemoryPool::pool_to_pool(src_pool, src, dst, bytes, wait);
    src_pool.sync(wait);
    return host_to_pool(from, bytes, dst, {});
}

void* HostPool::host_address(BufferId buffer) {
    auto it = buffers_.find(buffer);
    return it == buffers_.end() ? nullptr : it->second.ptr;
}

uint64_t HostPool::buffer_bytes(BufferId buffer) const {
    auto it = buffers_.find(buffer);
    if (it == buffers_.end())
        throw Error(ErrorStatus::InvalidArgument, "host: unknown buffer " + std::to_string(buffer));
    return it->second.bytes;
}

// ---- device ------------------------------------------------------------------------------------

using KernelFn = void (*)(void* const*, const uint64_t*);

struct HostDevice::Compiled {
    Kernel kernel;
    std::shared_ptr<jit::Library> library;
    KernelFn fn = nullptr;
    std::vector<uint64_t> required_bytes;  // per buffer argument
    bool blas = false;
};

// Kernel libraries start thread pools in libgomp and OpenBLAS. If the last kernel library using
// one were unloaded, its idle threads would return into unmapped code; so both runtimes are
// loaded once here and pinned for the life of the process (RTLD_NODELETE).
static void pin_thread_runtimes() {
    static std::once_flag once;
    std::call_once(once, [] {
        for (const char* lib : {"libgomp.so.1", "libopenblas.so.0"})
            if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) {
                ZYX_LOG(jit) << "host: cannot pin " << lib << ": " << dlerror();
            }
    });
}

HostDevice::HostDevice(HostPool& pool) : pool_(pool) {
    pin_thread_runtimes();
    info_.name = "host";
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    info_.compute_flops = uint64_t(threads) * 3'000'000'000ull * 32;  // rough: AVX-512 FMA per core
    info_.local_memory_bytes = 1 << 20;
    for (bool& b : info_.dtype_supported) b = true;
    info_.hoists_broadcast_reduces = true;  // host_codegen.cpp: row-invariant values and hoisted reduces
}

HostDevice::~HostDevice() = default;

bool HostDevice::supports(const Kernel& k, std::string* why) const {
    try {
        kernel::validate(k);
        return true;
    } catch (const Error& e) {
        if (why) *why = e.message();
        return false;
    }
}

std::vector<ProgramId> HostDevice::compile_batch(std::span<const Kernel* const> kernels) {
    std::vector<const Kernel*> todo;
    std::vector<std::string> names;
    for (const Kernel* k : kernels) {
        kernel::validate(*k);
        if (by_structure_.count(*k)) continue;
        bool dup = false;
        for (const Kernel* t : todo) dup = dup || *t == *k;
        if (dup) continue;
        todo.push_back(k);
        names.push_back("zyx_host_kernel_" + std::to_string(todo.size() - 1));
    }
    if (!todo.empty()) {
        std::string source = host_source(todo, names);
        bool blas = false;
        for (const Kernel* k : todo) blas = blas || host_matmul_plan(*k).use_blas;
        jit::CompileOptions opts;
        opts.kind = "host";
        opts.name = todo.size() == 1 ? "host kernel " + kernel::shape_string(todo[0]->shape)
                                     : "host batch of " + std::to_string(todo.size()) + " kernels";
        // -ffp-contract=off: no fused multiply-add, so float arithmetic rounds exactly like the
        // reference interpreter (only library functions and reduction order may differ).
        // -mno-avx512f: GCC 12 miscompiles some constant vectors with AVX-512 (see the top
        // CMakeLists.txt); AVX2 kernels run as fast on the CPUs we target.
        // -fno-math-errno/-fno-trapping-math: nothing reads errno or FP flags, and without them
        // math calls and conversions do not vectorise.
        opts.flags = {"-std=c++20",         "-O3",
                      "-march=native",      "-mno-avx512f",
                      "-fopenmp",           "-fno-math-errno",
                      "-fno-trapping-math", "-ffp-contract=off"};
        opts.link_flags = {"-lm"};
        if (blas) opts.link_flags.push_back("-lopenblas");
        for (const Kernel* k : todo) ZYX_LOG(ir) << kernel::kernel_string(*k);
        ZYX_LOG(asm_) << source;
        auto path = jit::compile_shared(source, opts);
        auto lib = std::make_shared<jit::Library>(path);
        for (size_t i = 0; i < todo.size(); ++i) {
            auto c = std::make_shared<Compiled>();
            c->kernel = *todo[i];
            c->library = lib;
            c->fn = reinterpret_cast<KernelFn>(lib->symbol(names[i].c_str()));
            if (!c->fn)
                throw Error(ErrorStatus::KernelCompilation, "host: " + path.string() + " lacks symbol " + names[i]);
            c->blas = host_matmul_plan(*todo[i]).use_blas;
            const Kernel& k = *todo[i];
            for (size_t b = 0; b < k.inputs.size(); ++b)
                c->required_bytes.push_back(
                    kernel::view_required_bytes(k.inputs[b].view, k.inputs[b].dtype, "input " + std::to_string(b)));
            for (size_t o = 0; o < k.outputs.size(); ++o)
                c->required_bytes.push_back(
                    kernel::view_required_bytes(k.outputs[o].view, k.outputs[o].dtype, "output " + std::to_string(o)));
            by_structure_.emplace(c->kernel, c);
        }
    }
    std::vector<ProgramId> ids;
    for (const Kernel* k : kernels) {
        ProgramId id = next_id_++;
        programs_[id] = by_structure_.at(*k);
        ids.push_back(id);
    }
    return ids;
}

ProgramId HostDevice::compile(const Kernel& k) {
    const Kernel* one = &k;
    return compile_batch(std::span<const Kernel* const>(&one, 1))[0];
}

bool HostDevice::program_uses_blas(ProgramId program) const {
    auto it = programs_.find(program);
    return it != programs_.end() && it->second->blas;
}

Event HostDevice::launch(ProgramId program, std::span<const BufferId> buffers, std::span<const Scalar> scalars,
                         std::span<const Event> wait) {
    auto it = programs_.find(program);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, "host: launch of unknown program " + std::to_string(program));
    const Compiled& c = *it->second;
    const Kernel& k = c.kernel;
    std::string who = "host: program " + std::to_string(program) + " (kernel " + kernel::shape_string(k.shape) + ")";
    size_t nin = k.inputs.size(), nbuf = nin + k.outputs.size();
    if (buffers.size() != nbuf)
        throw Error(ErrorStatus::KernelLaunch,
                    who + " takes " + std::to_string(nbuf) + " buffers, got " + std::to_string(buffers.size()));
    if (scalars.size() != k.scalars.size())
        throw Error(
            ErrorStatus::KernelLaunch,
            who + " takes " + std::to_string(k.scalars.size()) + " scalars, got " + std::to_string(scalars.size()));
    std::vector<uint64_t> scalar_bits;
    for (size_t s = 0; s < scalars.size(); ++s) {
        if (scalars[s].dtype != k.scalars[s])
            throw Error(ErrorStatus::KernelLaunch,
                        who + " scalar " + std::to_string(s) + " must be " + std::string(dtype_name(k.scalars[s])) +
                            ", got " + std::string(dtype_name(scalars[s].dtype)));
        scalar_bits.push_back(scalars[s].bits);
    }
    std::vector<void*> ptrs(nbuf + 1, nullptr);
    for (size_t b = 0; b < nbuf; ++b) {
        std::string arg = b < nin ? "input " + std::to_string(b) : "output " + std::to_string(b - nin);
        void* p = pool_.host_address(buffers[b]);
        if (!p)
            throw Error(ErrorStatus::KernelLaunch, who + " " + arg + ": unknown buffer " + std::to_string(buffers[b]));
        uint64_t have = pool_.buffer_bytes(buffers[b]);
        if (have < c.required_bytes[b])
            throw Error(ErrorStatus::KernelLaunch,
                        who + " " + arg + ": buffer " + std::to_string(buffers[b]) + " has " + std::to_string(have) +
                            " bytes, the view needs " + std::to_string(c.required_bytes[b]));
        if (b >= nin)
            for (size_t o = 0; o < b; ++o)
                if (buffers[o] == buffers[b])
                    throw Error(ErrorStatus::KernelLaunch,
                                who + " " + arg + ": buffer " + std::to_string(buffers[b]) + " is also argument " +
                                    std::to_string(o) + " (outputs must not alias other arguments)");
        ptrs[b] = p;
    }
    pool_.sync(wait);
    try {
        c.fn(ptrs.data(), scalar_bits.data());
    } catch (const std::bad_alloc&) {  // only a hoisted reduce's scratch rows allocate in a kernel
        throw Error(ErrorStatus::MemoryAllocation, who + ": out of host memory for the kernel's scratch rows");
    }
    return Event{};
}

void HostDevice::release(ProgramId program) {
    if (programs_.erase(program) == 0)
        throw Error(ErrorStatus::KernelLaunch, "host: release of unknown program " + std::to_string(program));
}

}  // namespace zyx::backend::host
