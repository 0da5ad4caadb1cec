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

Layout MemoryPool::layout(DType) const { return Layout::row_major; }

uint64_t MemoryPool::tensor_bytes(DType dtype, const std::vector<int64_t>& shape) const {
    uint64_t n = 1;
    for (int64_t d : shape) n *= uint64_t(d);
    return n * dtype_size(dtype);
}

BufferId MemoryPool::allocate_tensor(DType dtype, const std::vector<int64_t>& shape) {
    return allocate(tensor_bytes(dtype, shape));
}

Event MemoryPool::write_tensor(const void* src, DType dtype, const std::vector<int64_t>& shape, BufferId dst,
                               std::span<const Event> wait) {
    return host_to_pool(src, MemoryPool::tensor_bytes(dtype, shape), dst, wait);
}

void MemoryPool::read_tensor(BufferId src, DType dtype, const std::vector<int64_t>& shape, void* dst,
                             std::span<const Event> wait) {
    pool_to_host(src, dst, MemoryPool::tensor_bytes(dtype, shape), wait);
}

std::vector<ProgramId> Device::compile_batch(std::span<const kernel::Kernel* const> kernels) {
    std::vector<ProgramId> ids;
    for (const kernel::Kernel* k : kernels) ids.push_back(compile(*k));
    return ids;
}

}  // namespace zyx::backend
