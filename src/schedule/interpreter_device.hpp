// The "interpreter" device: host memory plus the reference interpreter of the kernel IR
// (src/kernel/interpreter.hpp). Slow and exact; the device every other device is compared with
// in tests, and the host device's stand-in when the JIT host backend is not built.
//
//   InterpreterPool pool("interpreter");
//   InterpreterDevice dev(pool);
//   ProgramId p = dev.compile(kernel);          // validates; equal kernels share a program
//   dev.launch(p, {in, out}, scalars, {});       // runs kernel::interpret, synchronously
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.hpp"
#include "kernel/kernel.hpp"

namespace zyx::sched {

// Host RAM buffers, zero-filled at allocation, with reference counts.
class InterpreterPool : public backend::MemoryPool {
public:
    explicit InterpreterPool(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    uint64_t free_bytes() const override;
    backend::BufferId allocate(uint64_t bytes) override;
    void retain(backend::BufferId buffer) override;
    void release(backend::BufferId buffer) override;
    backend::Event host_to_pool(const void* src, uint64_t bytes, backend::BufferId dst,
                                std::span<const backend::Event> wait) override;
    void pool_to_host(backend::BufferId src, void* dst, uint64_t bytes, std::span<const backend::Event> wait) override;
    void* host_address(backend::BufferId buffer) override;

    uint64_t buffer_bytes(backend::BufferId buffer) const;  // throws InvalidArgument when unknown
    size_t live_buffers() const { return buffers_.size(); }

private:
    struct Block {
        std::unique_ptr<uint8_t[]> data;
        uint64_t bytes = 0;
        uint32_t refs = 0;
    };
    std::string name_;
    std::unordered_map<backend::BufferId, Block> buffers_;
    backend::BufferId next_id_ = 1;
    uint64_t used_bytes_ = 0;
};

class InterpreterDevice : public backend::Device {
public:
    explicit InterpreterDevice(InterpreterPool& pool);
    const backend::DeviceInfo& info() const override { return info_; }
    backend::MemoryPool& pool() override { return pool_; }
    // Every kernel that passes kernel::validate.
    bool supports(const kernel::Kernel& k, std::string* why = nullptr) const override;
    // Throws InvalidArgument (from validate) for an invalid kernel.
    backend::ProgramId compile(const kernel::Kernel& k) override;
    // Throws KernelLaunch for an unknown program, wrong argument counts or unknown buffers.
    backend::Event launch(backend::ProgramId program, std::span<const backend::BufferId> buffers,
                          std::span<const backend::Scalar> scalars, std::span<const backend::Event> wait) override;
    void release(backend::ProgramId program) override;

private:
    InterpreterPool& pool_;
    backend::DeviceInfo info_;
    std::unordered_map<backend::ProgramId, std::shared_ptr<const kernel::Kernel>> programs_;
    backend::ProgramId next_id_ = 1;
};

}  // namespace zyx::sched
