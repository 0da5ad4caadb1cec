// The backend interface: what every device zyx can run kernels on provides.
//
// A backend contributes one MemoryPool (where tensor bytes live) and one or more Devices (which
// compile and launch kernels whose buffers live in that pool). The scheduler talks to backends
// only through these two classes, in the spirit of ggml's backend vtable: each member says what
// it must do, which members are optional, and what the default does.
//
// Threading: a pool or device is used by one thread at a time (the scheduler serialises); an
// implementation need not lock unless it has background work of its own.
//
// Errors: every member reports failure by throwing zyx::Error with the status named in its
// comment. After a throw, every other buffer and program of the backend is still valid.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace zyx::kernel {
struct Kernel;  // src/kernel/kernel.hpp
}

namespace zyx::backend {

using BufferId = uint32_t;   // unique within its pool
using ProgramId = uint32_t;  // unique within its device

// Completion of asynchronous work. A backend whose operations finish before they return hands
// out Event{} (id 0 = already complete); sync() on it is free.
struct Event {
    uint64_t id = 0;
    bool complete() const { return id == 0; }
};

// A scalar kernel argument passed by value (a "variable" in the seed), as raw little-endian bits.
struct Scalar {
    DType dtype = DType::f32;
    uint64_t bits = 0;
};

class MemoryPool {
public:
    virtual ~MemoryPool() = default;

    // Human-readable pool name for logs and errors: "host", "tt:0".
    virtual std::string name() const = 0;
    // Bytes still available for allocate(). Required.
    virtual uint64_t free_bytes() const = 0;

    // A new buffer of `bytes` (> 0) with a reference count of 1. Throws MemoryAllocation when
    // bytes is 0 or exceeds free_bytes(). Pools may round the size up internally.
    virtual BufferId allocate(uint64_t bytes) = 0;
    // Reference counting: retain adds one, release drops one and frees the buffer at zero.
    // Both throw MemoryDeallocation for an unknown buffer.
    virtual void retain(BufferId buffer) = 0;
    virtual void release(BufferId buffer) = 0;

    // Copies `bytes` from host memory into `dst` at offset 0 after the events in `wait` complete.
    // `src` must stay valid until the returned event completes. Throws MemoryCopyH2P when the
    // buffer is unknown or too small.
    virtual Event host_to_pool(const void* src, uint64_t bytes, BufferId dst, std::span<const Event> wait) = 0;
    // Copies `bytes` from `src` (offset 0) to host memory; blocking. Throws MemoryCopyP2H.
    virtual void pool_to_host(BufferId src, void* dst, uint64_t bytes, std::span<const Event> wait) = 0;
    // Copies between pools. Optional: the default stages through a host buffer
    // (src_pool.pool_to_host, then this->host_to_pool) and is synchronous.
    virtual Event pool_to_pool(MemoryPool& src_pool, BufferId src, BufferId dst, uint64_t bytes,
                               std::span<const Event> wait);
    // Host address of a buffer when the pool is host-addressable, else nullptr. Optional.
    virtual void* host_address(BufferId) { return nullptr; }

    // Blocks until every event in `events` has completed. Default: nothing to wait for.
    virtual void sync(std::span<const Event> events) { (void)events; }
};

// Static facts the scheduler uses to place and shape kernels.
struct DeviceInfo {
    std::string name;                 // "host", "tt:0 (emulator, wormhole-n150)"
    uint64_t compute_flops = 0;       // rough peak, for placement
    std::vector<uint64_t> max_grid;   // largest launch grid per axis ({} = unbounded)
    uint64_t local_memory_bytes = 0;  // per core scratch (L1 on Tenstorrent)
    bool dtype_supported[kNumDTypes] = {};  // which dtypes the device can compute in
};

class Device {
public:
    virtual ~Device() = default;

    virtual const DeviceInfo& info() const = 0;
    // The pool that holds this device's buffers.
    virtual MemoryPool& pool() = 0;

    // Whether compile() would accept `k`. Required; must be cheap and must not throw. A kernel
    // a device does not support is placed elsewhere by the scheduler, never aborted.
    virtual bool supports(const kernel::Kernel& k) const = 0;
    // Compiles a kernel (through src/jit's cache where the device compiles C++). Kernels with
    // equal structure may share one program. Throws KernelCompilation or Unsupported.
    virtual ProgramId compile(const kernel::Kernel& k) = 0;
    // Compiles several kernels, ideally with one compiler run; ids in the order of `kernels`.
    // Optional: the default calls compile() for each. Same errors as compile().
    virtual std::vector<ProgramId> compile_batch(std::span<const kernel::Kernel* const> kernels);
    // Runs a compiled program. `buffers` follow the kernel's buffer order (inputs, then
    // outputs), `scalars` its scalar parameters. Throws KernelLaunch for an unknown program or
    // mismatched arguments.
    virtual Event launch(ProgramId program, std::span<const BufferId> buffers,
                         std::span<const Scalar> scalars, std::span<const Event> wait) = 0;
    // Frees a compiled program. Throws KernelLaunch for an unknown id.
    virtual void release(ProgramId program) = 0;
};

}  // namespace zyx::backend
