// Step 3 of realize(): placement, transfers, compile cache, launch (rules in scheduler.hpp).
#include <deque>
#include <sstream>

#include "core/error.hpp"
#include "core/log.hpp"
#include "schedule/devices.hpp"
#include "schedule/plan.hpp"
#include "schedule/scheduler.hpp"

namespace zyx::sched {

using graph::Buffer;
using graph::Node;

namespace {

Stats g_stats;
std::deque<KernelRecord> g_records;
uint64_t g_kernel_number = 0;
constexpr size_t kKeptRecords = 256;

std::shared_ptr<Buffer> new_buffer(DeviceSlot& slot, uint64_t bytes) {
    auto b = std::make_shared<Buffer>();
    b->device = slot.device;
    b->pool = slot.pool;
    b->bytes = bytes;
    if (bytes) b->id = slot.pool->allocate(bytes);
    return b;
}

void sync(DeviceSlot& slot, backend::Event e) {
    if (!e.complete()) slot.pool->sync(std::span<const backend::Event>(&e, 1));
}

// The bytes of `src` in the pool of `dst` (the same buffer when already there; a host copy is
// kept on the source buffer and reused).
std::shared_ptr<Buffer> transfer(const std::shared_ptr<Buffer>& src, DeviceSlot& dst, const std::string& why) {
    if (src->device == dst.device) return src;
    bool to_host = dst.device == Device::host();
    if (to_host && src->host_copy) return src->host_copy;
    std::shared_ptr<Buffer> out = new_buffer(dst, src->bytes);
    if (src->bytes) {
        backend::Event e = dst.pool->pool_to_pool(*src->pool, src->id, out->id, src->bytes, {});
        sync(dst, e);
        ++g_stats.transfers;
        g_stats.transfer_bytes += src->bytes;
    }
    ZYX_LOG(sched) << "move " << src->bytes << " bytes " << src->device.str() << " -> " << dst.device.str() << " ("
                   << why << ")";
    if (to_host) src->host_copy = out;
    return out;
}

void finish(Node* n, std::shared_ptr<Buffer> buffer) {
    n->buffer = std::move(buffer);
    n->inputs.clear();  // a realized node is a leaf: the graph behind it may be freed
}

void realize_copy(Node* n) {
    Node* src = n->inputs[0].get();
    if (!src->buffer) throw Error(ErrorStatus::Internal, "scheduler: copy " + n->label() + " of unrealized " + src->label());
    DeviceSlot& dst = device_slot(n->device);
    std::shared_ptr<Buffer> out;
    if (dst.device == Device::host() && src->buffer->host_copy) {
        out = src->buffer->host_copy;
    } else {
        out = transfer(src->buffer, dst, "to() of " + src->label());
    }
    finish(n, out);
}

std::string join(const std::vector<std::string>& v, size_t max) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < max; ++i) s += (i ? ", " : "") + v[i];
    if (v.size() > max) s += ", … (" + std::to_string(v.size() - max) + " more)";
    return s;
}

void run_kernel(Node* root, KernelBuilder& kb) {
    DeviceSlot& home = device_slot(root->device);
    uint64_t bytes = uint64_t(root->numel()) * dtype_size(root->dtype);
    if (bytes == 0) {
        finish(root, new_buffer(home, 0));
        return;
    }
    const kernel::Kernel& k = kb.kernel;
    // A kernel that only reads one buffer in order: share that buffer.
    if (k.nodes.size() == 1 && k.nodes[0].op == kernel::Op::load && k.inputs.size() == 1 &&
        k.inputs[0].view.is_contiguous() && k.inputs[0].view.numel() == root->numel() &&
        kb.input_buffers[0]->device == root->device) {
        ++g_stats.aliases;
        ZYX_LOG(sched) << "no kernel for " << root->label() << ": shares the buffer it views";
        finish(root, kb.input_buffers[0]);
        return;
    }
    DeviceSlot* run = &home;
    if (!home.backend->supports(k)) {
        run = &device_slot(Device::host());
        ++g_stats.fallbacks;
        ZYX_LOG(sched) << root->device.str() << " does not support the kernel for " << root->label()
                       << ": placed on host";
    }
    std::vector<std::shared_ptr<Buffer>> keep;
    std::vector<backend::BufferId> ids;
    for (const std::shared_ptr<Buffer>& b : kb.input_buffers) {
        keep.push_back(transfer(b, *run, "input of " + root->label()));
        ids.push_back(keep.back()->id);
    }
    std::shared_ptr<Buffer> out = new_buffer(*run, bytes);
    ids.push_back(out->id);

    bool hit = true;
    auto it = run->programs.find(k);
    if (it == run->programs.end()) {
        hit = false;
        ZYX_LOG(ir) << "compiling on " << run->device.str() << ":\n" << kernel::kernel_string(k);
        backend::ProgramId id = run->backend->compile(k);
        it = run->programs.emplace(k, id).first;
        ++g_stats.compiles;
    }
    backend::Event e = run->backend->launch(it->second, ids, kb.scalars, {});
    sync(*run, e);
    ++g_stats.kernels;

    KernelRecord rec;
    rec.number = ++g_kernel_number;
    rec.device = run->device.str();
    rec.root = root->label();
    rec.fused = kb.fused;
    rec.kernel = k;
    rec.cache_hit = hit;
    ZYX_LOG(sched) << "kernel " << rec.number << " on " << rec.device << (hit ? " (cached)" : " (compiled)") << ": "
                   << rec.root << " = fused [" << join(rec.fused, 24) << "], " << k.inputs.size() << " inputs, "
                   << k.scalars.size() << " scalars, index space " << kernel::shape_string(k.shape)
                   << (k.reduce_axes ? " reducing the last " + std::to_string(k.reduce_axes) : std::string());
    g_records.push_back(std::move(rec));
    if (g_records.size() > kKeptRecords) g_records.pop_front();

    if (run != &home) {
        std::shared_ptr<Buffer> result = transfer(out, home, "result of " + root->label());
        result->host_copy = out;
        finish(root, result);
    } else {
        finish(root, out);
    }
}

void realize_node(Node* n, const Plan& plan) {
    if (n->buffer) return;
    if (n->kind == graph::OpKind::copy) {
        Node* src = n->inputs[0].get();
        if (!src->buffer) realize_node(src, plan);
        realize_copy(n);
        return;
    }
    KernelBuilder kb(n, plan, [&plan](Node* m) { realize_node(m, plan); });
    kb.build();
    run_kernel(n, kb);
}

}  // namespace

void realize(const std::vector<graph::NodePtr>& targets) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    Plan plan = plan_realization(targets);
    if (plan.order.empty()) return;
    for (Node* n : plan.order)
        if (plan.cut.count(n) && !n->buffer) realize_node(n, plan);
}

void read_to_host(const graph::NodePtr& node, void* dst, uint64_t bytes) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    if (!node->buffer) realize({node});
    const std::shared_ptr<Buffer>& b = node->buffer;
    if (bytes == 0) return;
    if (bytes > b->bytes)
        throw Error(ErrorStatus::Internal, "scheduler: read of " + std::to_string(bytes) + " bytes from " +
                                               node->label() + " holding " + std::to_string(b->bytes));
    const std::shared_ptr<Buffer>& src = b->host_copy ? b->host_copy : b;
    src->pool->pool_to_host(src->id, dst, bytes, {});
}

void open_device(Device d) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    device_slot(d);
}

graph::NodePtr upload(const void* src, uint64_t bytes, DType dtype, const graph::Shape& shape, Device device) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    DeviceSlot& slot = device_slot(device);
    std::shared_ptr<Buffer> b = new_buffer(slot, bytes);
    if (bytes) sync(slot, slot.pool->host_to_pool(src, bytes, b->id, {}));
    ZYX_LOG(mem) << "upload " << bytes << " bytes to " << device.str();
    return graph::make_buffer(std::move(b), dtype, shape);
}

Stats stats() {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return g_stats;
}

void reset_stats() {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    g_stats = Stats{};
}

std::vector<KernelRecord> recent_kernels() {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return std::vector<KernelRecord>(g_records.begin(), g_records.end());
}

}  // namespace zyx::sched
