#include "schedule/interpreter_device.hpp"

#include <unistd.h>

#include <cstring>

#include "core/error.hpp"
#include "kernel/interpreter.hpp"

namespace zyx::sched {

uint64_t InterpreterPool::free_bytes() const {
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t avail = pages > 0 && size > 0 ? uint64_t(pages) * uint64_t(size) : (uint64_t(1) << 34);
    return avail;
}

backend::BufferId InterpreterPool::allocate(uint64_t bytes) {
    if (bytes == 0) throw Error(ErrorStatus::MemoryAllocation, name_ + ": allocation of 0 bytes");
    if (bytes > free_bytes())
        throw Error(ErrorStatus::MemoryAllocation,
                    name_ + ": allocation of " + std::to_string(bytes) + " bytes exceeds the " +
                        std::to_string(free_bytes()) + " bytes available");
    Block b;
    b.data.reset(new (std::nothrow) uint8_t[bytes]());
    if (!b.data)
        throw Error(ErrorStatus::MemoryAllocation, name_ + ": out of memory for " + std::to_string(bytes) + " bytes");
    b.bytes = bytes;
    b.refs = 1;
    backend::BufferId id = next_id_++;
    used_bytes_ += bytes;
    buffers_.emplace(id, std::move(b));
    return id;
}

void InterpreterPool::retain(backend::BufferId buffer) {
    auto it = buffers_.find(buffer);
    if (it == buffers_.end())
        throw Error(ErrorStatus::MemoryDeallocation, name_ + ": retain of unknown buffer " + std::to_string(buffer));
    ++it->second.refs;
}

void InterpreterPool::release(backend::BufferId buffer) {
    auto it = buffers_.find(buffer);
    if (it == buffers_.end())
        throw Error(ErrorStatus::MemoryDeallocation, name_ + ": release of unknown buffer " + std::to_string(buffer));
    if (--it->second.refs == 0) {
        used_bytes_ -= it->second.bytes;
        buffers_.erase(it);
    }
}

backend::Event InterpreterPool::host_to_pool(const void* src, uint64_t bytes, backend::BufferId dst,
                                             std::span<const backend::Event>) {
    auto it = buffers_.find(dst);
    if (it == buffers_.end() || it->second.bytes < bytes)
        throw Error(ErrorStatus::MemoryCopyH2P,
                    name_ + ": write of " + std::to_string(bytes) + " bytes into " +
                        (it == buffers_.end() ? "unknown buffer " : "smaller buffer ") + std::to_string(dst));
    if (bytes) std::memcpy(it->second.data.get(), src, bytes);
    return {};
}

void InterpreterPool::pool_to_host(backend::BufferId src, void* dst, uint64_t bytes, std::span<const backend::Event>) {
    auto it = buffers_.find(src);
    if (it == buffers_.end() || it->second.bytes < bytes)
        throw Error(ErrorStatus::MemoryCopyP2H,
                    name_ + ": read of " + std::to_string(bytes) + " bytes from " +
                        (it == buffers_.end() ? "unknown buffer " : "smaller buffer ") + std::to_string(src));
    if (bytes) std::memcpy(dst, it->second.data.get(), bytes);
}

void* InterpreterPool::host_address(backend::BufferId buffer) {
    auto it = buffers_.find(buffer);
    return it == buffers_.end() ? nullptr : it->second.data.get();
}

uint64_t InterpreterPool::buffer_bytes(backend::BufferId buffer) const {
    auto it = buffers_.find(buffer);
    if (it == buffers_.end())
        throw Error(ErrorStatus::InvalidArgument, name_ + ": unknown buffer " + std::to_string(buffer));
    return it->second.bytes;
}

InterpreterDevice::InterpreterDevice(InterpreterPool& pool) : pool_(pool) {
    info_.name = pool.name() + " (reference interpreter)";
    info_.compute_flops = 100'000'000;  // about 1e8 simple ops per second
    for (int t = 0; t < kNumDTypes; ++t) info_.dtype_supported[t] = true;
}

bool InterpreterDevice::supports(const kernel::Kernel& k, std::string* why) const {
    try {
        kernel::validate(k);
        return true;
    } catch (const Error& e) {
        if (why) *why = e.message();
        return false;
    }
}

backend::ProgramId InterpreterDevice::compile(const kernel::Kernel& k) {
    kernel::validate(k);
    backend::ProgramId id = next_id_++;
    programs_.emplace(id, std::make_shared<const kernel::Kernel>(k));
    return id;
}

backend::Event InterpreterDevice::launch(backend::ProgramId program, std::span<const backend::BufferId> buffers,
                                         std::span<const backend::Scalar> scalars, std::span<const backend::Event>) {
    auto it = programs_.find(program);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, "interpreter: launch of unknown program " + std::to_string(program));
    const kernel::Kernel& k = *it->second;
    if (buffers.size() != k.inputs.size() + k.outputs.size() || scalars.size() != k.scalars.size())
        throw Error(ErrorStatus::KernelLaunch,
                    "interpreter: program " + std::to_string(program) + " takes " +
                        std::to_string(k.inputs.size() + k.outputs.size()) + " buffers and " +
                        std::to_string(k.scalars.size()) + " scalars, got " + std::to_string(buffers.size()) + " and " +
                        std::to_string(scalars.size()));
    std::vector<kernel::BufferRef> refs;
    for (backend::BufferId b : buffers) {
        void* p = pool_.host_address(b);
        if (!p)
            throw Error(ErrorStatus::KernelLaunch,
                        "interpreter: program " + std::to_string(program) + " launched with unknown buffer " +
                            std::to_string(b));
        refs.push_back({p, pool_.buffer_bytes(b)});
    }
    std::vector<uint64_t> bits;
    for (size_t i = 0; i < scalars.size(); ++i) {
        if (scalars[i].dtype != k.scalars[i])
            throw Error(ErrorStatus::KernelLaunch,
                        "interpreter: program " + std::to_string(program) + " scalar " + std::to_string(i) + " is " +
                            std::string(dtype_name(scalars[i].dtype)) + ", expected " +
                            std::string(dtype_name(k.scalars[i])));
        bits.push_back(scalars[i].bits);
    }
    kernel::interpret(k, refs, bits);
    return {};
}

void InterpreterDevice::release(backend::ProgramId program) {
    if (programs_.erase(program) == 0)
        throw Error(ErrorStatus::KernelLaunch, "interpreter: release of unknown program " + std::to_string(program));
}

}  // namespace zyx::sched
