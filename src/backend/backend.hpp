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

// A scalar kernel argument passed by value (a "variable" in zyx 0.17, the Rust library), as raw little-endian bits.
struct Scalar {
    DType dtype = DType::f32;
    uint64_t bits = 0;
};

// How a pool stores the elements of a tensor (dtype, shape):
//   row_major  element i (row-major position in the shape) at byte i · dtype size: host memory,
//              and device buffers of dtypes the device has no tile format for;
//   tiled      the tensor seen as a batch of matrices (the last axis is the columns, the one
//              before it the rows; a missing axis counts as size 1), each padded to multiples of 32
//              and cut into 32×32 tiles of four 16×16 faces (face order 0 top-left, 1 top-right,
//              2 bottom-left, 3 bottom-right, each row-major), tiles in row-major order over
//              (batch, tile row, tile col), one tile per page: Tenstorrent DRAM (docs/tenstorrent.md).
enum class Layout : uint8_t { row_major, tiled };

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

    // ---- tensors: the calls the scheduler makes (a pool stores tensors in its own layout) ----
    // The layout this pool stores a tensor of `dtype` in. Default: row_major.
    virtual Layout layout(DType dtype) const;
    // Bytes a tensor of `dtype` and `shape` takes in this pool (row-major: numel · size; tiled:
    // tiles · tile bytes). Default: numel · size.
    virtual uint64_t tensor_bytes(DType dtype, const std::vector<int64_t>& shape) const;
    // A new buffer for such a tensor (reference count 1). Same errors as allocate(). Default:
    // allocate(tensor_bytes(dtype, shape)).
    virtual BufferId allocate_tensor(DType dtype, const std::vector<int64_t>& shape);
    // Writes a tensor given as row-major host bytes (numel · size) into `dst`, in this pool's
    // layout (padding of tiled buffers is zero). Default: host_to_pool of the bytes. Throws
    // MemoryCopyH2P.
    virtual Event write_tensor(const void* src, DType dtype, const std::vector<int64_t>& shape, BufferId dst,
                               std::span<const Event> wait);
    // Reads the tensor held by `src` as row-major host bytes (numel · size); blocking. Default:
    // pool_to_host of the bytes. Throws MemoryCopyP2H.
    virtual void read_tensor(BufferId src, DType dtype, const std::vector<int64_t>& shape, void* dst,
                             std::span<const Event> wait);

    // Blocks until every event in `events` has completed. Default: nothing to wait for.
    virtual void sync(std::span<const Event> events) { (void)events; }
};

// Static facts the scheduler uses to place and shape kernels.
struct DeviceInfo {
    std::string name;                       // "host", "tt:0 (emulator, wormhole-n150)"
    uint64_t compute_flops = 0;             // rough peak, for placement
    std::vector<uint64_t> max_grid;         // largest launch grid per axis ({} = unbounded)
    uint64_t local_memory_bytes = 0;        // per core scratch (L1 on Tenstorrent)
    bool dtype_supported[kNumDTypes] = {};  // which dtypes the device can compute in
    // How the scheduler fuses for this device (src/schedule/scheduler.hpp):
    // The device computes a value that does not vary along a kernel's last axis once per row
    // rather than once per element, and a reduce that varies along the last axis but is read
    // broadcast along other axes once per distinct value. Then a reduce broadcast along the last
    // axis (a softmax denominator), or along other axes while it varies along the last, costs
    // nothing extra in the kernel of its consumer (the JIT host backend does this).
    bool hoists_broadcast_reduces = false;
    // A reduce that its consumer would evaluate more than this many times per result (each
    // broadcast axis multiplies) gets a kernel of its own. 1 keeps every broadcast reduce apart.
    double max_reduce_recompute = 32;
};

class Device {
public:
    virtual ~Device() = default;

    virtual const DeviceInfo& info() const = 0;
    // The pool that holds this device's buffers.
    virtual MemoryPool& pool() = 0;

    // Whether compile() would accept `k`; when not, and `why` is given, a one-line reason
    // ("reduce_prod inside a tile"). Required; must be cheap and must not throw. A kernel a
    // device does not support is placed elsewhere by the scheduler (which logs the reason),
    // never aborted.
    virtual bool supports(const kernel::Kernel& k, std::string* why = nullptr) const = 0;
    // Compiles a kernel (through src/jit's cache where the device compiles C++). Kernels with
    // equal structure may share one program. Throws KernelCompilation or Unsupported.
    virtual ProgramId compile(const kernel::Kernel& k) = 0;
    // Compiles several kernels, ideally with one compiler run; ids in the order of `kernels`.
    // Optional: the default calls compile() for each. Same errors as compile().
    virtual std::vector<ProgramId> compile_batch(std::span<const kernel::Kernel* const> kernels);
    // Runs a compiled program. `buffers` follow the kernel's buffer order (inputs, then
    // outputs), `scalars` its scalar parameters. Throws KernelLaunch for an unknown program or
    // mismatched arguments.
    virtual Event launch(ProgramId program, std::span<const BufferId> buffers, std::span<const Scalar> scalars,
                         std::span<const Event> wait) = 0;
    // Frees a compiled program. Throws KernelLaunch for an unknown id.
    virtual void release(ProgramId program) = 0;
};

}  // namespace zyx::backend
