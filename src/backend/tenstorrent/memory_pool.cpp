#include "backend/tenstorrent/memory_pool.hpp"

#include "backend/tenstorrent/runtime_client.hpp"
#include "backend/tenstorrent/tile_layout.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace zyx::tt {

using backend::BufferId;
using backend::Event;

namespace {
std::string shape_string(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "]";
}
}  // namespace

TTMemoryPool::TTMemoryPool(std::shared_ptr<RuntimeClient> client, std::string name, uint32_t page_bytes)
    : client_(std::move(client)), name_(std::move(name)), page_bytes_(page_bytes ? page_bytes : 4096) {
    const protocol::DeviceDesc& dev = client_->device();
    dram_bytes_ = dev.dram_bytes;
    dram_banks_ = dev.dram_banks ? dev.dram_banks : 1;
    dram_alignment_ = dev.dram_alignment ? dev.dram_alignment : 1;
    seen_generation_ = client_->generation();
}

TTMemoryPool::~TTMemoryPool() {
    // Buffers still referenced die with the runtime; only the cache is handed back explicitly.
    try {
        trim_cache();
    } catch (const Error& e) { ZYX_LOG(mem) << name_ << ": freeing the buffer cache at exit: " << e.what(); }
}

uint64_t TTMemoryPool::device_bytes(uint64_t bytes, uint32_t page_bytes) const {
    // Interleaved layout: page i in bank i % banks, so every bank reserves the same number of
    // page slots (the most any bank holds), each slot the page rounded up to the DRAM alignment.
    const uint64_t page = page_bytes ? page_bytes : page_bytes_;
    const uint64_t pages = bytes / page + (bytes % page != 0);
    const uint64_t rows = pages / dram_banks_ + (pages % dram_banks_ != 0);
    const uint64_t slot = (page + dram_alignment_ - 1) / dram_alignment_ * dram_alignment_;
    const uint64_t per_bank_limit = UINT64_MAX / dram_banks_ / slot;
    return rows > per_bank_limit ? UINT64_MAX : rows * slot * dram_banks_;
}

void TTMemoryPool::sync_generation_locked() const {
    uint64_t g = client_->generation();
    if (g == seen_generation_) return;
    // A new runtime: everything the old one held is gone. Buffers stay known (their owners
    // still hold ids) but are marked lost by their old generation; accounting starts over.
    seen_generation_ = g;
    live_device_bytes_ = 0;
    for (auto& [id, b] : buffers_)
        if (b.generation == g) live_device_bytes_ += b.device_bytes;
    cache_.clear();
    cached_device_bytes_ = 0;
}

uint64_t TTMemoryPool::free_bytes() const {
    std::lock_guard lock(mutex_);
    sync_generation_locked();
    return live_device_bytes_ >= dram_bytes_ ? 0 : dram_bytes_ - live_device_bytes_;
}

const TTMemoryPool::Buffer& TTMemoryPool::live_locked(BufferId id, ErrorStatus status, std::string_view ctx) const {
    sync_generation_locked();
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(status, name_ + ": " + std::string(ctx) + ": unknown buffer " + std::to_string(id));
    // A buffer of the current generation is lost too when that runtime has died and no new one
    // has been started yet.
    if (it->second.generation != seen_generation_ || !client_->running())
        throw Error(status,
                    name_ + ": " + std::string(ctx) + ": buffer " + std::to_string(id) +
                        " was lost when its zyx-tt-runtime ended (runtime generation " +
                        std::to_string(it->second.generation) + ")");
    return it->second;
}

void TTMemoryPool::free_runtime_buffer_locked(uint32_t runtime_id, uint64_t generation) {
    if (generation != client_->generation() || !client_->running()) return;  // died with its runtime
    protocol::Request r;
    r.cmd = protocol::Command::free_buf;
    r.buffer = runtime_id;
    client_->call(r);
}

void TTMemoryPool::trim_cache_locked(uint64_t keep_bytes) {
    // Largest first: frees the most room with the fewest round trips.
    while (cached_device_bytes_ > keep_bytes && !cache_.empty()) {
        auto it = std::prev(cache_.end());
        Cached c = it->second;
        cache_.erase(it);
        cached_device_bytes_ -= c.device_bytes;
        free_runtime_buffer_locked(c.runtime_id, c.generation);
    }
}

void TTMemoryPool::trim_cache() {
    std::lock_guard lock(mutex_);
    sync_generation_locked();
    trim_cache_locked(0);
}

BufferId TTMemoryPool::allocate(uint64_t bytes) { return allocate_paged(bytes, page_bytes_); }

BufferId TTMemoryPool::allocate_paged(uint64_t bytes, uint32_t page_bytes) {
    std::lock_guard lock(mutex_);
    sync_generation_locked();
    if (bytes == 0) throw Error(ErrorStatus::MemoryAllocation, name_ + ": cannot allocate a buffer of 0 bytes");
    const uint64_t free = dram_bytes_ - std::min(dram_bytes_, live_device_bytes_);
    const uint64_t cost = bytes > dram_bytes_ ? UINT64_MAX : device_bytes(bytes, page_bytes);
    if (cost > free)
        throw Error(ErrorStatus::MemoryAllocation,
                    name_ + ": " + std::to_string(bytes) + " bytes requested" +
                        (cost == UINT64_MAX
                             ? std::string()
                             : " (" + std::to_string(cost) + " bytes of device DRAM with page and bank rounding)") +
                        ", only " + std::to_string(free) + " of " + std::to_string(dram_bytes_) + " bytes free");
    const uint64_t cap = (bytes / page_bytes + (bytes % page_bytes != 0)) * page_bytes;
    Buffer b;
    b.bytes = bytes;
    b.page_bytes = page_bytes;
    b.capacity = cap;
    b.device_bytes = cost;
    b.generation = seen_generation_;
    if (auto it = cache_.find({cap, page_bytes}); it != cache_.end() && it->second.generation == seen_generation_) {
        b.runtime_id = it->second.runtime_id;
        cached_device_bytes_ -= it->second.device_bytes;
        cache_.erase(it);
        ++counters_.cache_hits;
    } else {
        ++counters_.cache_misses;
        // Make room from the cache before asking the device (cost <= free, so no underflow).
        if (live_device_bytes_ + cached_device_bytes_ + cost > dram_bytes_)
            trim_cache_locked(dram_bytes_ - live_device_bytes_ - cost);
        protocol::Request r;
        r.cmd = protocol::Command::alloc_buf;
        r.bytes = cap;
        r.page_bytes = page_bytes;
        nlohmann::json resp;
        try {
            resp = client_->call(r);
        } catch (const Error& e) {
            if (e.status() != ErrorStatus::MemoryAllocation || cache_.empty()) throw;
            trim_cache_locked(0);  // the device is fragmented or fuller than we count: retry once
            resp = client_->call(r);
        }
        sync_generation_locked();  // the call may have started a fresh runtime
        b.generation = seen_generation_;
        b.runtime_id = resp.at("buffer").get<uint32_t>();
    }
    while (next_id_ == 0 || buffers_.count(next_id_)) ++next_id_;
    BufferId id = next_id_++;
    buffers_.emplace(id, b);
    live_device_bytes_ += cost;
    ZYX_LOG(mem) << name_ << ": buffer " << id << " = runtime buffer " << b.runtime_id << ", " << bytes << " bytes";
    return id;
}

void TTMemoryPool::retain(BufferId id) {
    std::lock_guard lock(mutex_);
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(ErrorStatus::MemoryDeallocation, name_ + ": retain of unknown buffer " + std::to_string(id));
    if (it->second.refs == UINT32_MAX)
        throw Error(ErrorStatus::InvalidArgument,
                    name_ + ": buffer " + std::to_string(id) + " reference count would overflow");
    ++it->second.refs;
}

void TTMemoryPool::release(BufferId id) {
    std::lock_guard lock(mutex_);
    sync_generation_locked();
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(ErrorStatus::MemoryDeallocation, name_ + ": release of unknown buffer " + std::to_string(id));
    if (--it->second.refs > 0) return;
    Buffer b = it->second;
    buffers_.erase(it);
    if (b.generation != seen_generation_) return;  // lost with a crashed runtime: nothing to free
    live_device_bytes_ -= b.device_bytes;
    cache_.emplace(std::make_pair(b.capacity, b.page_bytes), Cached{b.runtime_id, b.generation, b.device_bytes});
    cached_device_bytes_ += b.device_bytes;
    trim_cache_locked(dram_bytes_ / 4);
}

uint32_t TTMemoryPool::runtime_buffer(BufferId id, ErrorStatus status) const {
    std::lock_guard lock(mutex_);
    return live_locked(id, status, "launch").runtime_id;
}

uint64_t TTMemoryPool::buffer_bytes(BufferId id) const {
    std::lock_guard lock(mutex_);
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(ErrorStatus::InvalidArgument, name_ + ": unknown buffer " + std::to_string(id));
    return it->second.bytes;
}

uint32_t TTMemoryPool::buffer_page_bytes(BufferId id) const {
    std::lock_guard lock(mutex_);
    auto it = buffers_.find(id);
    if (it == buffers_.end())
        throw Error(ErrorStatus::InvalidArgument, name_ + ": unknown buffer " + std::to_string(id));
    return it->second.page_bytes;
}

backend::Layout TTMemoryPool::layout(DType dtype) const {
    return tile_format(dtype) ? backend::Layout::tiled : backend::Layout::row_major;
}

uint64_t TTMemoryPool::tensor_bytes(DType dtype, const std::vector<int64_t>& shape) const {
    if (layout(dtype) == backend::Layout::row_major) return MemoryPool::tensor_bytes(dtype, shape);
    return tiled_shape(shape).tiles() * tile_bytes(dtype);
}

BufferId TTMemoryPool::allocate_tensor(DType dtype, const std::vector<int64_t>& shape) {
    if (layout(dtype) == backend::Layout::row_major) return allocate(tensor_bytes(dtype, shape));
    return allocate_paged(tensor_bytes(dtype, shape), tile_bytes(dtype));
}

Event TTMemoryPool::write_tensor(const void* src, DType dtype, const std::vector<int64_t>& shape, BufferId dst,
                                 std::span<const Event> wait) {
    if (layout(dtype) == backend::Layout::row_major) return MemoryPool::write_tensor(src, dtype, shape, dst, wait);
    const TiledShape ts = tiled_shape(shape);
    const uint64_t tile = tile_bytes(dtype), bytes = ts.tiles() * tile;
    std::lock_guard lock(mutex_);
    const Buffer& b = live_locked(dst, ErrorStatus::MemoryCopyH2P, "write_tensor");
    if (bytes > b.bytes || b.page_bytes != tile)
        throw Error(ErrorStatus::MemoryCopyH2P,
                    name_ + ": write_tensor: a " + std::string(dtype_name(dtype)) + " tensor " + shape_string(shape) +
                        " (" + std::to_string(bytes) + " bytes in tiles of " + std::to_string(tile) +
                        ") does not fit buffer " + std::to_string(dst) + " of " + std::to_string(b.bytes) +
                        " bytes in pages of " + std::to_string(b.page_bytes));
    client_->write_with(b.generation, b.runtime_id, bytes, tile, [&](uint8_t* slot, uint64_t off, uint64_t n) {
        tilize(src, dtype, ts, off / tile, n / tile, slot);
    });
    return Event{};
}

void TTMemoryPool::read_tensor(BufferId src, DType dtype, const std::vector<int64_t>& shape, void* dst,
                               std::span<const Event> wait) {
    if (layout(dtype) == backend::Layout::row_major) return MemoryPool::read_tensor(src, dtype, shape, dst, wait);
    const TiledShape ts = tiled_shape(shape);
    const uint64_t tile = tile_bytes(dtype), bytes = ts.tiles() * tile;
    std::lock_guard lock(mutex_);
    const Buffer& b = live_locked(src, ErrorStatus::MemoryCopyP2H, "read_tensor");
    if (bytes > b.bytes || b.page_bytes != tile)
        throw Error(ErrorStatus::MemoryCopyP2H,
                    name_ + ": read_tensor: a " + std::string(dtype_name(dtype)) + " tensor " + shape_string(shape) +
                        " (" + std::to_string(bytes) + " bytes in tiles of " + std::to_string(tile) +
                        ") is not what buffer " + std::to_string(src) + " holds (" + std::to_string(b.bytes) +
                        " bytes in pages of " + std::to_string(b.page_bytes) + ")");
    client_->read_with(b.generation, b.runtime_id, bytes, tile, [&](uint8_t* slot, uint64_t off, uint64_t n) {
        untilize(slot, dtype, ts, off / tile, n / tile, dst);
    });
}

Event TTMemoryPool::host_to_pool(const void* src, uint64_t bytes, BufferId dst, std::span<const Event>) {
    std::lock_guard lock(mutex_);
    const Buffer& b = live_locked(dst, ErrorStatus::MemoryCopyH2P, "host_to_pool");
    if (bytes > b.bytes)
        throw Error(ErrorStatus::MemoryCopyH2P,
                    name_ + ": host_to_pool: " + std::to_string(bytes) + " bytes do not fit buffer " +
                        std::to_string(dst) + " of " + std::to_string(b.bytes) + " bytes");
    client_->write(b.generation, b.runtime_id, src, bytes);
    return Event{};
}

void TTMemoryPool::pool_to_host(BufferId src, void* dst, uint64_t bytes, std::span<const Event>) {
    std::lock_guard lock(mutex_);
    const Buffer& b = live_locked(src, ErrorStatus::MemoryCopyP2H, "pool_to_host");
    if (bytes > b.bytes)
        throw Error(ErrorStatus::MemoryCopyP2H,
                    name_ + ": pool_to_host: " + std::to_string(bytes) + " bytes requested from buffer " +
                        std::to_string(src) + " of " + std::to_string(b.bytes) + " bytes");
    client_->read(b.generation, b.runtime_id, dst, bytes);
}

Event TTMemoryPool::pool_to_pool(MemoryPool& src_pool, BufferId src, BufferId dst, uint64_t bytes,
                                 std::span<const Event> wait) {
    if (&src_pool == this) {
        std::lock_guard lock(mutex_);
        const Buffer& s = live_locked(src, ErrorStatus::MemoryCopyP2H, "pool_to_pool source");
        const Buffer& d = live_locked(dst, ErrorStatus::MemoryCopyH2P, "pool_to_pool destination");
        if (bytes > s.bytes || bytes > d.bytes)
            throw Error(ErrorStatus::MemoryCopyH2P,
                        name_ + ": pool_to_pool: " + std::to_string(bytes) + " bytes exceed buffer " +
                            std::to_string(bytes > s.bytes ? src : dst));
        protocol::Request r;
        r.cmd = protocol::Command::copy_buf;
        r.src_buffer = s.runtime_id;
        r.buffer = d.runtime_id;
        r.bytes = bytes;
        client_->call(r);
        return Event{};
    }
    if (const void* host = src_pool.host_address(src)) {
        src_pool.sync(wait);
        return host_to_pool(host, bytes, dst, {});
    }
    return MemoryPool::pool_to_pool(src_pool, src, dst, bytes, wait);
}

PoolStats TTMemoryPool::stats() const {
    std::lock_guard lock(mutex_);
    sync_generation_locked();
    PoolStats s = counters_;
    for (const auto& [id, b] : buffers_)
        if (b.generation == seen_generation_) ++s.live_buffers;
    s.live_bytes = live_device_bytes_;
    s.cached_buffers = cache_.size();
    s.cached_bytes = cached_device_bytes_;
    return s;
}

}  // namespace zyx::tt
