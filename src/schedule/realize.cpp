// Step 3 of realize(): build every job, compile what is new (batched per device), then launch in
// dependency order (rules in scheduler.hpp).
//
// A job is one cut node: a kernel, a device copy, an alias (the node shares a buffer it views
// contiguously) or an empty tensor. While jobs are built, each cut node gets a *planned* buffer:
// an identity that later kernels load from; its pool memory is allocated when its job runs. A
// node is marked realized (buffer set, inputs dropped) only after its job ran, so an error leaves
// the rest of the graph pending and intact.
#include <algorithm>
#include <deque>
#include <unordered_map>

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

std::shared_ptr<Buffer> planned_buffer(DeviceSlot& slot, uint64_t bytes) {
    auto b = std::make_shared<Buffer>();
    b->device = slot.device;
    b->pool = slot.pool;
    b->bytes = bytes;
    return b;
}

void allocate(Buffer& b) {
    if (b.bytes && b.id == 0) b.id = b.pool->allocate(b.bytes);
}

// allocate() whose error also names the tensor the buffer is for.
void allocate_for(Buffer& b, const std::string& what) {
    try {
        allocate(b);
    } catch (const Error& e) {
        throw Error(e.status(), what + ": " + e.message());
    }
}

void sync(DeviceSlot& slot, backend::Event e) {
    if (!e.complete()) slot.pool->sync(std::span<const backend::Event>(&e, 1));
}

// Copies all bytes of `src` into `dst` (allocated here if needed), in dst's pool.
void copy_into(const Buffer& src, Buffer& dst, DeviceSlot& dst_slot, const std::string& why) {
    allocate(dst);
    if (src.bytes) {
        sync(dst_slot, dst.pool->pool_to_pool(*src.pool, src.id, dst.id, src.bytes, {}));
        ++g_stats.transfers;
        g_stats.transfer_bytes += src.bytes;
    }
    ZYX_LOG(sched) << "move " << src.bytes << " bytes " << src.device.str() << " -> " << dst.device.str() << " ("
                   << why << ")";
}

// The bytes of `src` in the pool of `dst` (the same buffer when already there; a host copy is
// kept on the source buffer and reused).
std::shared_ptr<Buffer> bytes_on(const std::shared_ptr<Buffer>& src, DeviceSlot& dst, const std::string& why) {
    if (src->device == dst.device) return src;
    bool to_host = dst.device == Device::host();
    if (to_host && src->host_copy) return src->host_copy;
    std::shared_ptr<Buffer> out = planned_buffer(dst, src->bytes);
    copy_into(*src, *out, dst, why);
    if (to_host) src->host_copy = out;
    if (src->device == Device::host()) out->host_copy = src;  // same bytes: reads need no transfer
    return out;
}

std::string join(const std::vector<std::string>& v, size_t max) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < max; ++i) {
        if (i) s += ", ";
        s += v[i];
    }
    if (v.size() > max) s += ", … (" + std::to_string(v.size() - max) + " more)";
    return s;
}

struct Job {
    enum class Kind { kernel, copy, alias, empty } kind = Kind::kernel;
    Node* node = nullptr;             // the cut node (alive until its job ran: see realize())
    std::shared_ptr<Buffer> out;      // its planned buffer
    std::shared_ptr<Buffer> source;   // copy: the buffer copied
    std::unique_ptr<KernelBuilder> kb;
    DeviceSlot* run = nullptr;        // where the kernel runs
    backend::ProgramId program = 0;
    bool cache_hit = false;
};

class Realization {
public:
    explicit Realization(const Plan& plan) : plan_(plan) {}

    void plan_node(Node* n);
    void compile_all();
    void launch_all();

private:
    std::shared_ptr<Buffer> buffer_of(Node* n);
    void launch(Job& job);

    const Plan& plan_;
    std::vector<Job> jobs_;
    std::unordered_map<const Node*, std::shared_ptr<Buffer>> planned_;
};

std::shared_ptr<Buffer> Realization::buffer_of(Node* n) {
    if (n->buffer) return n->buffer;
    auto it = planned_.find(n);
    if (it == planned_.end()) {  // an on-the-spot cut, or a cut input not planned yet
        plan_node(n);
        it = planned_.find(n);
    }
    return it->second;
}

void Realization::plan_node(Node* n) {
    if (n->buffer || planned_.count(n)) return;
    Job job;
    DeviceSlot& home = device_slot(n->device);
    uint64_t bytes = uint64_t(n->numel()) * dtype_size(n->dtype);
    if (n->kind == graph::OpKind::copy) {
        job.kind = Job::Kind::copy;
        job.source = buffer_of(n->inputs[0].get());
        job.out = planned_buffer(home, bytes);
    } else if (bytes == 0) {
        job.kind = Job::Kind::empty;
        job.out = planned_buffer(home, 0);
    } else {
        job.kb = std::make_unique<KernelBuilder>(n, plan_, [this](Node* m) { return buffer_of(m); },
                                                 home.hoists_broadcast_reduces);
        job.kb->build();
        const kernel::Kernel& k = job.kb->kernel;
        // A kernel that only reads one buffer in order: share that buffer.
        if (k.nodes.size() == 1 && k.nodes[0].op == kernel::Op::load && k.inputs.size() == 1 &&
            k.inputs[0].view.is_contiguous() && k.inputs[0].view.numel() == n->numel() &&
            job.kb->input_buffers[0]->device == n->device) {
            job.kind = Job::Kind::alias;
            job.out = job.kb->input_buffers[0];
        } else {
            job.out = planned_buffer(home, bytes);
            job.run = &home;
            if (!home.backend->supports(k)) {
                job.run = &device_slot(Device::host());
                ++g_stats.fallbacks;
                ZYX_LOG(sched) << n->device.str() << " does not support the kernel for " << n->label()
                               << ": placed on host";
            }
        }
    }
    planned_[n] = job.out;
    job.node = n;
    jobs_.push_back(std::move(job));
}

void Realization::compile_all() {
    // Per device, the kernels whose structure it has not compiled yet, compiled in one batch.
    std::unordered_map<DeviceSlot*, std::vector<Job*>> todo;
    for (Job& j : jobs_) {
        if (j.kind != Job::Kind::kernel) continue;
        auto it = j.run->programs.find(j.kb->kernel);
        if (it != j.run->programs.end()) {
            j.program = it->second;
            j.cache_hit = true;
        } else {
            todo[j.run].push_back(&j);
        }
    }
    for (auto& [slot, list] : todo) {
        std::vector<const kernel::Kernel*> unique;
        for (Job* j : list)
            if (slot->programs.find(j->kb->kernel) == slot->programs.end() &&
                std::none_of(unique.begin(), unique.end(), [&](const kernel::Kernel* k) { return *k == j->kb->kernel; }))
                unique.push_back(&j->kb->kernel);
        for (const kernel::Kernel* k : unique) ZYX_LOG(ir) << "compiling on " << slot->device.str() << ":\n" << kernel::kernel_string(*k);
        std::vector<backend::ProgramId> ids = compile_kernels(*slot, unique);
        for (size_t i = 0; i < unique.size(); ++i) slot->programs.emplace(*unique[i], ids[i]);
        g_stats.compiles += unique.size();
        for (Job* j : list) j->program = slot->programs.at(j->kb->kernel);
    }
}

void finish(Node* n, std::shared_ptr<Buffer> buffer) {
    graph::mark_realized(*n, std::move(buffer));  // a leaf now: the graph behind it may be freed
}

void Realization::launch(Job& job) {
    Node* n = job.node;
    switch (job.kind) {
        case Job::Kind::empty: break;
        case Job::Kind::alias:
            ++g_stats.aliases;
            ZYX_LOG(sched) << "no kernel for " << n->label() << ": shares the buffer it views";
            break;
        case Job::Kind::copy: {
            DeviceSlot& dst = device_slot(n->device);
            if (dst.device == Device::host() && job.source->host_copy) {
                // The planned buffer is the identity later kernels of this realization already
                // hold as their input: it shares the host copy's pool buffer (one more reference)
                // rather than being replaced by it.
                const Buffer& hc = *job.source->host_copy;
                if (hc.id) hc.pool->retain(hc.id);
                job.out->id = hc.id;
                ZYX_LOG(sched) << "no move for to() of " << n->label() << ": shares the host copy of its source";
            } else {
                copy_into(*job.source, *job.out, dst, "to() of " + n->label());
                if (dst.device == Device::host()) job.source->host_copy = job.out;
                if (job.source->device == Device::host()) job.out->host_copy = job.source;
            }
            break;
        }
        case Job::Kind::kernel: {
            KernelBuilder& kb = *job.kb;
            DeviceSlot& run = *job.run;
            std::vector<std::shared_ptr<Buffer>> keep;
            std::vector<backend::BufferId> ids;
            for (const std::shared_ptr<Buffer>& b : kb.input_buffers) {
                keep.push_back(bytes_on(b, run, "input of " + n->label()));
                ids.push_back(keep.back()->id);
            }
            bool fallback = !(run.device == n->device);
            std::shared_ptr<Buffer> out = fallback ? planned_buffer(run, job.out->bytes) : job.out;
            allocate_for(*out, "result of " + n->label());
            ids.push_back(out->id);
            sync(run, run.backend->launch(job.program, ids, kb.scalars, {}));
            ++g_stats.kernels;
            if (fallback) {
                copy_into(*out, *job.out, device_slot(n->device), "result of " + n->label());
                job.out->host_copy = out;
            }
            KernelRecord rec;
            rec.number = ++g_kernel_number;
            rec.device = run.device.str();
            rec.cache_hit = job.cache_hit;
            if (log_enabled(LogChannel::sched)) {
                rec.root = n->label();
                rec.fused = std::move(kb.fused);
                const kernel::Kernel& k = kb.kernel;
                ZYX_LOG(sched) << "kernel " << rec.number << " on " << rec.device
                               << (job.cache_hit ? " (cached)" : " (compiled)") << ": " << rec.root << " = fused ["
                               << join(rec.fused, 24) << "], " << k.inputs.size() << " inputs, " << k.scalars.size()
                               << " scalars, index space " << kernel::shape_string(k.shape)
                               << (k.reduce_axes ? " reducing the last " + std::to_string(k.reduce_axes)
                                                 : std::string());
            }
            rec.kernel = std::move(kb.kernel);  // the job is done with it
            g_records.push_back(std::move(rec));
            if (g_records.size() > kKeptRecords) g_records.pop_front();
            break;
        }
    }
    finish(n, job.out);
    job.kb.reset();  // drop input buffer references as early as possible
    job.source.reset();
    job.out.reset();
}

void Realization::launch_all() {
    planned_.clear();  // every job holds what it needs
    for (Job& j : jobs_) launch(j);
}

}  // namespace

void realize(const std::vector<graph::NodePtr>& targets) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    Plan plan = plan_realization(targets);
    if (plan.order.empty()) return;
    // Nodes are used through raw pointers. Each stays alive until its own job ran: it is a target
    // or reachable from one, and the only thing that drops references is a job finishing (its
    // node's inputs), which can only free nodes upstream of it — whose jobs ran before, since
    // jobs are created inputs-first (cut nodes in topological order, on-the-spot cuts before the
    // kernel that needed them).
    Realization r(plan);
    for (Node* n : plan.order)
        if (plan.cut.count(n)) r.plan_node(n);
    r.compile_all();
    r.launch_all();
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
    std::shared_ptr<Buffer> b = planned_buffer(slot, bytes);
    allocate_for(*b, "new " + std::string(dtype_name(dtype)) + " tensor " + kernel::shape_string(shape) + " on " +
                         device.str());
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
