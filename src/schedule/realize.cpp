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
#include <unordered_set>

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

// A buffer identity for a tensor of `dtype` and `shape` in `slot`'s pool (memory comes later).
std::shared_ptr<Buffer> planned_buffer(DeviceSlot& slot, DType dtype, const graph::Shape& shape) {
    auto b = std::make_shared<Buffer>();
    b->device = slot.device;
    b->pool = slot.pool;
    b->dtype = dtype;
    b->shape = shape;
    b->bytes = graph::shape_numel(shape) == 0 ? 0 : slot.pool->tensor_bytes(dtype, shape);
    return b;
}

void allocate(Buffer& b) {
    if (b.bytes && b.id == 0) b.id = b.pool->allocate_tensor(b.dtype, b.shape);
}

// allocate() whose error also names the tensor the buffer is for.
void allocate_for(Buffer& b, const std::string& what) {
    try {
        allocate(b);
    } catch (const Error& e) { throw Error(e.status(), what + ": " + e.message()); }
}

void sync(backend::MemoryPool& pool, backend::Event e) {
    if (!e.complete()) pool.sync(std::span<const backend::Event>(&e, 1));
}

// Copies the tensor in `src` into `dst` (same dtype and shape; allocated here if needed), each in
// its own pool's layout: the same pool copies bytes, a host-addressable side is read or written
// in place, two device pools stage through host memory.
void copy_into(const Buffer& src, Buffer& dst, const std::string& why) {
    allocate(dst);
    if (src.bytes) {
        backend::MemoryPool& from = *src.pool;
        backend::MemoryPool& to = *dst.pool;
        dst.zero_padding = true;  // write_tensor pads with zeros
        if (&from == &to) {
            sync(to, to.pool_to_pool(from, src.id, dst.id, src.bytes, {}));
            dst.zero_padding = src.zero_padding;
        } else if (void* p = from.host_address(src.id); p && from.layout(src.dtype) == backend::Layout::row_major) {
            sync(to, to.write_tensor(p, src.dtype, src.shape, dst.id, {}));
        } else if (void* q = to.host_address(dst.id); q && to.layout(dst.dtype) == backend::Layout::row_major) {
            from.read_tensor(src.id, src.dtype, src.shape, q, {});
        } else {
            std::vector<uint8_t> staging(size_t(graph::shape_numel(src.shape)) * dtype_size(src.dtype));
            from.read_tensor(src.id, src.dtype, src.shape, staging.data(), {});
            sync(to, to.write_tensor(staging.data(), src.dtype, src.shape, dst.id, {}));
        }
        ++g_stats.transfers;
        g_stats.transfer_bytes += uint64_t(graph::shape_numel(src.shape)) * dtype_size(src.dtype);
    }
    ZYX_LOG(sched) << "move " << dtype_name(src.dtype) << " " << graph::shape_str(src.shape) << " " << src.device.str()
                   << " -> " << dst.device.str() << " (" << why << ")";
}

// The tensor of `src` in the pool of `dst`: the same buffer when it is already there, else a
// new buffer filled by an explicit move.
std::shared_ptr<Buffer> bytes_on(const std::shared_ptr<Buffer>& src, DeviceSlot& dst, const std::string& why) {
    if (src->device == dst.device) return src;
    std::shared_ptr<Buffer> out = planned_buffer(dst, src->dtype, src->shape);
    copy_into(*src, *out, why);
    return out;
}

// Whether a node of `shape` may share `buf` (its elements in row-major order, same count): the
// pool stores both tensors alike (row-major always; tiled when the last two sizes agree).
bool shares_layout(const Buffer& buf, const graph::Shape& shape) {
    if (graph::shape_numel(shape) != graph::shape_numel(buf.shape)) return false;
    if (buf.pool->layout(buf.dtype) == backend::Layout::row_major) return true;
    auto last2 = [](const graph::Shape& s) {
        return std::make_pair(s.size() >= 2 ? s[s.size() - 2] : 1, s.empty() ? int64_t(1) : s.back());
    };
    return last2(shape) == last2(buf.shape);
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

// At most this many splits of one kernel before it goes to the host.
constexpr int kMaxSplits = 16;

// Whether a device's reason for refusing a kernel is its size, which a smaller kernel cures:
// the Tenstorrent generator's "needs more than N DST tiles at once" (codegen/compute.cpp) and
// "launch scalars, more than the N a program takes" (tenstorrent/device.cpp).
bool splitting_helps(const std::string& why) {
    return why.find("DST tiles") != std::string::npos || why.find("launch scalars") != std::string::npos;
}

// The fused node (not the root, fused[0]) whose fused sub-DAG is closest to half of the kernel:
// cutting there leaves two kernels of about equal size. Null when nothing but the root is fused.
const Node* split_point(const std::vector<const Node*>& fused) {
    if (fused.size() < 2) return nullptr;
    std::unordered_set<const Node*> in_kernel(fused.begin(), fused.end());
    const Node* best = nullptr;
    size_t best_balance = 0;
    for (size_t i = 1; i < fused.size(); ++i) {
        // Fused nodes reachable from fused[i] through fused nodes, itself included.
        std::unordered_set<const Node*> seen;
        std::vector<const Node*> stack = {fused[i]};
        while (!stack.empty()) {
            const Node* m = stack.back();
            stack.pop_back();
            if (!in_kernel.count(m) || !seen.insert(m).second) continue;
            for (const graph::NodePtr& in : m->inputs) stack.push_back(in.get());
        }
        size_t balance = std::min(seen.size(), fused.size() - seen.size());
        if (!best || balance > best_balance) best = fused[i], best_balance = balance;
    }
    return best;
}

struct Job {
    enum class Kind { kernel, copy, alias, empty } kind = Kind::kernel;
    Node* node = nullptr;            // the cut node (alive until its job ran: see realize())
    std::shared_ptr<Buffer> out;     // its planned buffer
    std::shared_ptr<Buffer> source;  // copy: the buffer copied
    std::unique_ptr<KernelBuilder> kb;
    DeviceSlot* run = nullptr;  // where the kernel runs
    backend::ProgramId program = 0;
    bool cache_hit = false;
    std::string refused;  // why the node's device did not take the kernel
};

class Realization {
public:
    explicit Realization(const Plan& plan) : plan_(plan) {}  // a copy: splits add cuts

    void plan_node(Node* n);
    void compile_all();
    void launch_all();

private:
    std::shared_ptr<Buffer> buffer_of(Node* n);
    void launch(Job& job);

    Plan plan_;
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
    if (n->kind == graph::OpKind::copy) {
        job.kind = Job::Kind::copy;
        job.source = buffer_of(n->inputs[0].get());
        job.out = planned_buffer(home, n->dtype, n->shape);
    } else if (n->numel() == 0) {
        job.kind = Job::Kind::empty;
        job.out = planned_buffer(home, n->dtype, n->shape);
    } else {
        // Placement before lowering: build for the node's device; when it refuses the kernel,
        // build again for the host (the device's flags and layout shaped the first build).
        auto build = [&](DeviceSlot& on) {
            job.kb = std::make_unique<KernelBuilder>(
                n, plan_, [this](Node* m) { return buffer_of(m); }, *on.backend);
            job.kb->build();
        };
        job.run = &home;
        build(home);
        std::string why;
        bool ok = home.backend->supports(job.kb->kernel, &why);
        // A kernel refused for its size (more registers than the device has, a Tenstorrent core's
        // DST tiles; more launch scalars than a program takes) is split rather than sent to the
        // host: a fused node near the middle gets a buffer of its own on the device, and both
        // parts are planned again (each split alike when it is still too large).
        for (int split = 0; !ok && split < kMaxSplits && splitting_helps(why); ++split) {
            const Node* at = split_point(job.kb->fused_nodes);
            if (!at) break;
            plan_.cut.insert(at);
            ZYX_LOG(sched) << n->device.str() << " does not fit the kernel for " << n->label() << " (" << why
                           << "): split at " << at->label();
            build(home);
            ok = home.backend->supports(job.kb->kernel, &why);
        }
        if (!ok) {
            job.run = &device_slot(Device::host());
            ++g_stats.fallbacks;
            ZYX_LOG(sched) << n->device.str() << " does not support the kernel for " << n->label() << " (" << why
                           << "): placed on host";
            job.refused = why;
            build(*job.run);
        }
        const kernel::Kernel& k = job.kb->kernel;
        const std::shared_ptr<Buffer>& in0 = job.kb->input_buffers.empty() ? nullptr : job.kb->input_buffers[0];
        // A kernel that only reads one buffer in order: share that buffer.
        if (k.nodes.size() == 1 && k.nodes[0].op == kernel::Op::load && k.inputs.size() == 1 &&
            k.inputs[0].view.is_contiguous() && k.inputs[0].view.numel() == n->numel() && in0->device == n->device &&
            in0->dtype == n->dtype && shares_layout(*in0, n->shape)) {
            job.kind = Job::Kind::alias;
            job.out = in0;
            job.run = nullptr;
        } else {
            job.out = planned_buffer(home, n->dtype, n->shape);
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
                std::none_of(unique.begin(), unique.end(),
                             [&](const kernel::Kernel* k) { return *k == j->kb->kernel; }))
                unique.push_back(&j->kb->kernel);
        for (const kernel::Kernel* k : unique)
            ZYX_LOG(ir) << "compiling on " << slot->device.str() << ":\n" << kernel::kernel_string(*k);
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
        case Job::Kind::copy: copy_into(*job.source, *job.out, "to() of " + n->label()); break;
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
            std::shared_ptr<Buffer> out = fallback ? planned_buffer(run, n->dtype, n->shape) : job.out;
            allocate_for(*out, "result of " + n->label());
            ids.push_back(out->id);
            sync(*run.pool, run.backend->launch(job.program, ids, kb.scalars, {}));
            ++g_stats.kernels;
            ++g_stats.kernels_on[run.device.str()];
            if (fallback) copy_into(*out, *job.out, "result of " + n->label());
            KernelRecord rec;
            rec.number = ++g_kernel_number;
            rec.device = run.device.str();
            rec.cache_hit = job.cache_hit;
            rec.node_device = n->device.str();
            rec.fallback = job.refused;
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
    uint64_t holds = uint64_t(graph::shape_numel(b->shape)) * dtype_size(b->dtype);
    if (bytes != holds)
        throw Error(ErrorStatus::Internal,
                    "scheduler: read of " + std::to_string(bytes) + " bytes from " + node->label() + " holding " +
                        std::to_string(holds));
    b->pool->read_tensor(b->id, b->dtype, b->shape, dst, {});
}

void open_device(Device d) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    device_slot(d);
}

graph::NodePtr upload(const void* src, uint64_t bytes, DType dtype, const graph::Shape& shape, Device device) {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    DeviceSlot& slot = device_slot(device);
    if (bytes != uint64_t(graph::shape_numel(shape)) * dtype_size(dtype))
        throw Error(ErrorStatus::Internal,
                    "scheduler: upload of " + std::to_string(bytes) + " bytes for a " + std::string(dtype_name(dtype)) +
                        " tensor " + kernel::shape_string(shape));
    std::shared_ptr<Buffer> b = planned_buffer(slot, dtype, shape);
    allocate_for(
        *b, "new " + std::string(dtype_name(dtype)) + " tensor " + kernel::shape_string(shape) + " on " + device.str());
    if (bytes) sync(*slot.pool, slot.pool->write_tensor(src, dtype, shape, b->id, {}));
    b->zero_padding = true;
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
