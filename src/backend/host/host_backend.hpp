// The host CPU backend: a caching memory pool in host RAM and a device that runs kernels as
// JIT-compiled C++ (host_codegen.hpp) through src/jit's cache, with OpenMP threads and OpenBLAS
// for matmul-shaped kernels.
//
//   HostPool pool;
//   HostDevice dev(pool);
//   BufferId x = pool.allocate(n * 4), y = pool.allocate(n * 4);
//   pool.host_to_pool(data, n * 4, x, {});
//   ProgramId p = dev.compile(kernel);            // equal kernels share one compiled program
//   BufferId args[] = {x, y};
//   dev.launch(p, args, {}, {});                   // synchronous: returns a complete Event
//   pool.pool_to_host(y, out, n * 4, {});
//
// Everything is synchronous; events are always Event{} (complete).
#pragma once

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "backend/backend.hpp"
#include "backend/host/host_allocator.hpp"
#include "core/error.hpp"
#include "kernel/kernel.hpp"

namespace zyx::backend::host {

class HostPool : public MemoryPool {
public:
    HostPool() = default;
    ~HostPool() override;

    std::string name() const override { return "host"; }
    // Available system memory (MemAvailable) plus what the allocator holds in its cache.
    uint64_t free_bytes() const override;
    BufferId allocate(uint64_t bytes) override;
    void retain(BufferId buffer) override;
    void release(BufferId buffer) override;
    Event host_to_pool(const void* src, uint64_t bytes, BufferId dst, std::span<const Event> wait) override;
    void pool_to_host(BufferId src, void* dst, uint64_t bytes, std::span<const Event> wait) override;
    // A direct copy when the source pool is host-addressable, else the staged default.
    Event pool_to_pool(MemoryPool& src_pool, BufferId src, BufferId dst, uint64_t bytes,
                       std::span<const Event> wait) override;
    void* host_address(BufferId buffer) override;

    // Size a buffer was allocated with; throws InvalidArgument naming an unknown id.
    uint64_t buffer_bytes(BufferId buffer) const;
    // Number of live buffers (for leak checks in tests).
    size_t live_buffers() const { return buffers_.size(); }
    const HostAllocator& allocator() const { return alloc_; }

private:
    struct Buffer {
        void* ptr = nullptr;
        uint64_t bytes = 0;
        uint32_t refs = 0;
    };
    Buffer& find(BufferId id, ErrorStatus status, const char* what);
    std::unordered_map<BufferId, Buffer> buffers_;
    BufferId next_id_ = 1;
    HostAllocator alloc_;
};

class HostDevice : public Device {
public:
    explicit HostDevice(HostPool& pool);
    ~HostDevice() override;

    const DeviceInfo& info() const override { return info_; }
    MemoryPool& pool() override { return pool_; }
    // Every valid kernel: the host computes every op in every dtype.
    bool supports(const kernel::Kernel& k, std::string* why = nullptr) const override;
    // Throws InvalidArgument for an invalid kernel, KernelCompilation when the compiler rejects
    // the generated source (a bug: the message carries the compiler output and source path).
    ProgramId compile(const kernel::Kernel& k) override;
    // Compiles several kernels with one compiler run (one translation unit); ids in order.
    // Kernels already compiled are not compiled again.
    std::vector<ProgramId> compile_batch(std::span<const kernel::Kernel* const> kernels) override;
    Event launch(ProgramId program, std::span<const BufferId> buffers, std::span<const Scalar> scalars,
                 std::span<const Event> wait) override;
    void release(ProgramId program) override;

    // Distinct compiled kernels held (kernels of equal structure count once).
    size_t compiled_kernels() const { return by_structure_.size(); }
    // Whether a compiled program calls BLAS (for tests and logs).
    bool program_uses_blas(ProgramId program) const;

private:
    struct Compiled;
    HostPool& pool_;
    DeviceInfo info_;
    std::unordered_map<ProgramId, std::shared_ptr<Compiled>> programs_;
    std::unordered_map<kernel::Kernel, std::shared_ptr<Compiled>, kernel::KernelHash> by_structure_;
    ProgramId next_id_ = 1;
};

}  // namespace zyx::backend::host
