#include "backend/backend.hpp"

#include <vector>

namespace zyx::backend {

Event MemoryPool::pool_to_pool(MemoryPool& src_pool, BufferId src, BufferId dst, uint64_t bytes,
                               std::span<const Event> wait) {
    std::vector<uint8_t> staging(bytes);
    src_pool.pool_to_host(src, staging.data(), bytes, wait);
    Event e = host_to_pool(staging.data(), bytes, dst, {});
    sync(std::span<const Event>(&e, 1));  // staging dies at return
    return Event{};
}

std::vector<ProgramId> Device::compile_batch(std::span<const kernel::Kernel* const> kernels) {
    std::vector<ProgramId> ids;
    for (const kernel::Kernel* k : kernels) ids.push_back(compile(*k));
    return ids;
}

}  // namespace zyx::backend
