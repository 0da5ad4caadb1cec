// tt-metal's host API (tt-metalium/host_api.hpp and the headers it names) over zyx::emu::Device.
// A tt-metal Program is built before any device is named, so it keeps an emu::ProgramSpec and
// its runtime args here, and is compiled on the device at its first enqueue.
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/tt_metal.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "emu/device.hpp"
#include "device_registry.hpp"

namespace tt::tt_metal {

namespace emu = ::zyx::emu;
using ::zyx::Error;
using ::zyx::ErrorStatus;

namespace {

// Throws tt::exception carrying an emulator error, as tt-metal's TT_FATAL would at `call`.
[[noreturn]] void rethrow(const Error& e, const char* call) {
    ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_FATAL", call, e.message(),
                                  std::string(::zyx::error_status_name(e.status())).c_str());
}

[[noreturn]] void unsupported(const char* call, const std::string& what) {
    ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_THROW", call, "Unsupported: " + what, "unsupported");
}

// Runs f, turning a zyx::Error into tt::exception.
template <class F>
auto guarded(const char* call, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error& e) { rethrow(e, call); }
}

emu::CoreRangeSet to_emu(const CoreRangeSet& set) {
    emu::CoreRangeSet out;
    for (const auto& r : set.ranges())
        out.push_back({{uint32_t(r.start_coord.x), uint32_t(r.start_coord.y)},
                       {uint32_t(r.end_coord.x), uint32_t(r.end_coord.y)}});
    return out;
}

CoreRangeSet to_set(const CoreSpec& spec) {
    if (auto* c = std::get_if<CoreCoord>(&spec)) return CoreRangeSet(CoreRange(*c));
    if (auto* r = std::get_if<CoreRange>(&spec)) return CoreRangeSet(*r);
    return std::get<CoreRangeSet>(spec);
}

std::mutex g_device_mu;
IDevice* g_open_device = nullptr;
std::atomic<uint64_t> g_next_program_id{1};

// tt-metal's print-server line: "<device>:(x=<x>,y=<y>):<risc>: <text>".
void print_dprint_line(emu::CoreCoord core, unsigned processor, std::string_view line) {
    static std::mutex mu;
    static const char* risc[] = {"BR", "NC", "TR0", "TR1", "TR2"};
    std::string out = "0:(x=" + std::to_string(core.x) + ",y=" + std::to_string(core.y) +
        "):" + (processor < 5 ? risc[processor] : "?") + ": " + std::string(line) + "\n";
    std::lock_guard<std::mutex> lock(mu);
    std::fwrite(out.data(), 1, out.size(), stdout);  // allow-print: tt-metal's print server writes DPRINT to stdout
    std::fflush(stdout);
}

}  // namespace

// ---- Program ----------------------------------------------------------------------------------

// One kernel's runtime args on one core (or its common args): the values and the view
// GetRuntimeArgs hands out.
struct ArgsSlot {
    std::vector<uint32_t> values;
    RuntimeArgsData view;
    bool set = false;
    void assign(tt::stl::Span<const uint32_t> v) {
        values.assign(v.begin(), v.end());
        view = {values.data(), values.size()};
        set = true;
    }
};

struct KernelRecord {
    std::string name;
    CoreRangeSet cores;
    std::map<std::pair<size_t, size_t>, std::unique_ptr<ArgsSlot>> args;  // (x, y) → args
    ArgsSlot common;
};

struct Program::Impl {
    uint64_t id = g_next_program_id++;
    emu::ProgramSpec spec;
    std::vector<KernelRecord> kernels;
    std::vector<std::unique_ptr<CircularBufferConfig>> cb_configs;  // by CBHandle
    // Compiled state: the emulator it was compiled on, its program id there.
    std::weak_ptr<emu::Device> compiled_on;
    emu::ProgramId emu_id = 0;
    bool dirty = true;

    ~Impl() { release(); }
    void release() {
        if (auto d = compiled_on.lock()) {
            try {
                d->program_free(emu_id);
            } catch (const std::exception&) {}
        }
        compiled_on.reset();
    }
    KernelRecord& kernel(KernelHandle k, const char* call) {
        if (k >= kernels.size())
            ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_FATAL", call,
                                          "Kernel " + std::to_string(k) + " does not exist in program " +
                                              std::to_string(id) + " (it has " + std::to_string(kernels.size()) + ")",
                                          "invalid_argument");
        return kernels[k];
    }
    // Compiles for `device` unless already compiled there and unchanged.
    void compile(IDevice* device) {
        auto handle = device->emulator_handle();
        if (!dirty && compiled_on.lock() == handle) return;
        release();
        emu_id = guarded("CompileProgram", [&] { return handle->program_create(spec); });
        compiled_on = handle;
        dirty = false;
    }
    // Hands every kernel's runtime args to the compiled program.
    void upload_args(IDevice* device) {
        auto& d = device->emulator();
        guarded("EnqueueProgram", [&] {
            for (uint32_t k = 0; k < kernels.size(); ++k) {
                d.program_set_common_runtime_args(emu_id, k, {});
                for (const auto& [xy, slot] : kernels[k].args)
                    d.program_set_runtime_args(emu_id, k, {uint32_t(xy.first), uint32_t(xy.second)}, slot->values);
                d.program_set_common_runtime_args(emu_id, k, kernels[k].common.values);
            }
            return 0;
        });
    }
};

Program::Program() : impl_(std::make_unique<Impl>()) {}
Program::~Program() = default;
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
uint64_t Program::get_id() const { return impl_->id; }

Program CreateProgram() { return Program(); }

// ---- devices ----------------------------------------------------------------------------------

IDevice::IDevice(ChipId id, std::shared_ptr<emu::Device> e)
    : id_(id), emu_(std::move(e)), cq_(new CommandQueue(this)) {}
IDevice::~IDevice() = default;

emu::Device& IDevice::emulator() const {
    TT_FATAL(emu_ != nullptr, "Device {} is closed", id_);
    return *emu_;
}
tt::ARCH IDevice::arch() const {
    return emulator().spec().arch == emu::Arch::Blackhole ? tt::ARCH::BLACKHOLE : tt::ARCH::WORMHOLE_B0;
}
int IDevice::num_dram_channels() const { return int(emulator().spec().dram_banks); }
uint32_t IDevice::l1_size_per_core() const { return emulator().spec().l1_bytes; }
uint32_t IDevice::dram_size_per_channel() const { return uint32_t(emulator().spec().dram_bank_bytes); }
CoreCoord IDevice::compute_with_storage_grid_size() const {
    return {emulator().spec().grid_x, emulator().spec().grid_y};
}
CoreCoord IDevice::worker_core_from_logical_core(const CoreCoord& c) const {
    auto n = guarded("worker_core_from_logical_core", [&] {
        return emulator().worker_core({uint32_t(c.x), uint32_t(c.y)});
    });
    return {n.x, n.y};
}
CoreCoord IDevice::virtual_core_from_logical_core(const CoreCoord& c, const CoreType& type) const {
    if (type != CoreType::WORKER) unsupported("virtual_core_from_logical_core", "cores other than CoreType::WORKER");
    return worker_core_from_logical_core(c);
}
CommandQueue& IDevice::command_queue(std::optional<uint8_t> cq_id) {
    TT_FATAL(!cq_id || *cq_id == 0, "Device {} has 1 command queue; cq_id {} does not exist", id_, *cq_id);
    return *cq_;
}
void IDevice::queue_wait() {
    if (!in_flight_) return;
    in_flight_ = false;
    guarded("Finish", [&] {
        emulator().wait();
        return 0;
    });
}
bool IDevice::close() {
    if (!emu_) return false;
    std::optional<tt::exception> failed;
    try {
        queue_wait();
    } catch (const tt::exception& e) { failed = e; }
    emu_.reset();
    if (failed) throw *failed;
    return true;
}

size_t GetNumAvailableDevices() { return 1; }
size_t GetNumPCIeDevices() { return 1; }

ChipId GetPCIeDeviceID(ChipId device_id) {
    TT_FATAL(device_id == 0, "Device id {} is out of range: the emulator provides 1 device (id 0)", device_id);
    return device_id;  // the emulated chip is its own MMIO chip
}

namespace compat {

IDevice* open_device(ChipId device_id, const MakeDevice& make) {
    std::lock_guard<std::mutex> lock(g_device_mu);
    TT_FATAL(device_id == 0, "Device id {} is out of range: the emulator provides 1 device (id 0)", device_id);
    TT_FATAL(g_open_device == nullptr,
             "Device {} is already open (by CreateDevice or MeshDevice::create_unit_mesh): close it first", device_id);
    const char* preset = std::getenv("ZYX_EMU_PRESET");
    emu::DeviceOptions options;
    if (std::getenv("TT_METAL_DPRINT_CORES")) options.dprint_sink = print_dprint_line;
    // ZYX_EMU_RACE_CHECK=0 turns the emulator's race check off (emulator/README.md "Determinism").
    if (const char* r = std::getenv("ZYX_EMU_RACE_CHECK"); r && std::string_view(r) == "0") options.check_races = false;
    auto e = guarded("CreateDevice", [&] {
        return std::make_shared<emu::Device>(emu::preset(preset && *preset ? preset : "wormhole-n150"), options);
    });
    g_open_device = make(device_id, std::move(e));
    return g_open_device;
}

void forget_device(const IDevice* device) {
    std::lock_guard<std::mutex> lock(g_device_mu);
    if (g_open_device == device) g_open_device = nullptr;
}

}  // namespace compat

IDevice* CreateDevice(ChipId device_id, uint8_t, size_t, size_t, const DispatchCoreConfig&,
                      const std::vector<uint32_t>&, size_t) {
    return compat::open_device(device_id,
                               [](ChipId id, std::shared_ptr<emu::Device> e) { return new IDevice(id, std::move(e)); });
}

bool CloseDevice(IDevice* device) {
    TT_FATAL(device != nullptr, "CloseDevice of a null device");
    TT_FATAL(dynamic_cast<distributed::MeshDevice*>(device) == nullptr,
             "CloseDevice of a MeshDevice: a mesh is closed by MeshDevice::close()");
    compat::forget_device(device);
    std::unique_ptr<IDevice> owned(device);
    return owned->close();
}

// ---- kernels ----------------------------------------------------------------------------------

namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// tt-metal's order: absolute or relative to the current directory, then $TT_METAL_KERNEL_PATH,
// then $TT_METAL_HOME.
std::filesystem::path resolve_kernel_path(const std::string& file_name) {
    namespace fs = std::filesystem;
    std::vector<fs::path> tried{fs::path(file_name)};
    for (const char* var : {"TT_METAL_KERNEL_PATH", "TT_METAL_HOME"})
        if (const char* root = std::getenv(var); root && *root && fs::path(file_name).is_relative())
            tried.push_back(fs::path(root) / file_name);
    std::error_code ec;
    for (const auto& p : tried)
        if (fs::is_regular_file(p, ec)) return p;
    std::string where;
    for (const auto& p : tried) where += (where.empty() ? "" : ", ") + fs::absolute(p, ec).string();
    ::tt::assert::throw_exception(__FILE__, __LINE__, "TT_THROW", "tt::exception",
                                  "Kernel file " + file_name + " doesn't exist in " + where +
                                      " (paths are relative to the current directory, $TT_METAL_KERNEL_PATH or "
                                      "$TT_METAL_HOME)",
                                  "io");
}

KernelHandle add_kernel(Program& program, std::string name, std::string source, const CoreSpec& core_spec,
                        const KernelConfig& config, const char* call) {
    auto& p = program.impl();
    emu::KernelSpec k;
    k.name = std::move(name);
    k.source = std::move(source);
    CoreRangeSet cores = to_set(core_spec);
    k.cores = to_emu(cores);
    const std::unordered_map<std::string, uint32_t>* named = nullptr;
    if (auto* dm = std::get_if<DataMovementConfig>(&config)) {
        k.kind = dm->processor == DataMovementProcessor::RISCV_1 ? emu::KernelKind::data_movement_1
                                                                 : emu::KernelKind::data_movement_0;
        k.noc = uint8_t(dm->noc);
        k.compile_args = dm->compile_args;
        k.defines = dm->defines;
        named = &dm->named_compile_args;
    } else if (auto* cc = std::get_if<ComputeConfig>(&config)) {
        k.kind = emu::KernelKind::compute;
        k.compute = {.fp32_dest_acc_en = cc->fp32_dest_acc_en,
                     .dst_full_sync_en = cc->dst_full_sync_en,
                     .math_approx_mode = cc->math_approx_mode,
                     .math_fidelity = cc->math_fidelity,
                     .unpack_to_dest_mode = cc->unpack_to_dest_mode};
        k.compile_args = cc->compile_args;
        k.defines = cc->defines;
        named = &cc->named_compile_args;
    } else {
        unsupported(call, "EthernetConfig (kernel '" + k.name + "'): the emulator has no Ethernet cores");
    }
    if (named) k.named_compile_args.insert(named->begin(), named->end());
    p.spec.kernels.push_back(std::move(k));
    p.kernels.push_back({p.spec.kernels.back().name, cores, {}, {}});
    p.dirty = true;
    return KernelHandle(p.kernels.size() - 1);
}

}  // namespace

KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const KernelConfig& config) {
    auto path = resolve_kernel_path(file_name);
    return add_kernel(program, path.stem().string(), read_file(path), core_spec, config, "CreateKernel");
}

KernelHandle CreateKernelFromString(Program& program, const std::string& kernel_src_code, const CoreSpec& core_spec,
                                    const KernelConfig& config) {
    std::string name = "kernel_" + std::to_string(program.impl().kernels.size());
    return add_kernel(program, name, kernel_src_code, core_spec, config, "CreateKernelFromString");
}

ReaderDataMovementConfig::ReaderDataMovementConfig(std::vector<uint32_t> ct, std::map<std::string, std::string> defs,
                                                   std::unordered_map<std::string, uint32_t> named,
                                                   KernelBuildOptLevel opt) {
    processor = DataMovementProcessor::RISCV_1;
    noc = NOC::NOC_0;
    compile_args = std::move(ct);
    defines = std::move(defs);
    named_compile_args = std::move(named);
    opt_level = opt;
}

WriterDataMovementConfig::WriterDataMovementConfig(std::vector<uint32_t> ct, std::map<std::string, std::string> defs,
                                                   std::unordered_map<std::string, uint32_t> named,
                                                   KernelBuildOptLevel opt) {
    processor = DataMovementProcessor::RISCV_0;
    noc = NOC::NOC_1;
    compile_args = std::move(ct);
    defines = std::move(defs);
    named_compile_args = std::move(named);
    opt_level = opt;
}

// ---- circular buffers and semaphores ----------------------------------------------------------

CircularBufferConfig::CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& formats)
    : total_size_(total_size) {
    for (const auto& [index, format] : formats) {
        TT_FATAL(index < NUM_CIRCULAR_BUFFERS, "Buffer index ({}) exceeds max number of circular buffers per core ({})",
                 index, NUM_CIRCULAR_BUFFERS);
        data_formats_[index] = format;
        buffer_indices_.insert(index);
    }
}

CircularBufferConfig::CircularBufferConfig(uint32_t total_size) : total_size_(total_size) {}

CircularBufferConfig::CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& formats,
                                           const Buffer& buffer)
    : CircularBufferConfig(total_size, formats) {
    set_globally_allocated_address(buffer);
}

CircularBufferConfig& CircularBufferConfig::set_page_size(uint8_t index, uint32_t page_size) {
    TT_FATAL(index < NUM_CIRCULAR_BUFFERS, "Buffer index ({}) exceeds max number of circular buffers per core ({})",
             index, NUM_CIRCULAR_BUFFERS);
    TT_FATAL(buffer_indices_.count(index),
             "Cannot set page size for buffer index {} because data format is not specified", index);
    TT_FATAL(page_size > 0 && total_size_ % page_size == 0,
             "Total circular buffer size {} B must be divisible by page size {} B", total_size_, page_size);
    TT_FATAL(page_size % sizeof(uint32_t) == 0,
             "Page size must be divisible by sizeof(uint32_t) because buffers holds "
             "uint32_t values");
    page_sizes_[index] = page_size;
    return *this;
}

CircularBufferConfig& CircularBufferConfig::set_total_size(uint32_t total_size) {
    total_size_ = total_size;
    return *this;
}

CircularBufferConfig& CircularBufferConfig::set_globally_allocated_address(const Buffer& buffer) {
    TT_FATAL(buffer.is_l1(),
             "Only L1 buffers can have an associated circular buffer! (buffer at address {} is not in L1)",
             buffer.address());
    TT_FATAL(buffer.is_allocated(), "set_globally_allocated_address: buffer at address {} was deallocated",
             buffer.address());
    globally_allocated_address_ = buffer.address();
    shadow_global_buffer = &buffer;
    return *this;
}

CircularBufferConfig::Builder CircularBufferConfig::index(uint8_t index) {
    TT_FATAL(index < NUM_CIRCULAR_BUFFERS, "Buffer index ({}) exceeds max number of circular buffers per core ({})",
             index, NUM_CIRCULAR_BUFFERS);
    buffer_indices_.insert(index);
    return Builder(*this, index);
}
const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_data_format(tt::DataFormat f) const {
    parent_.data_formats_[buffer_index_] = f;
    return *this;
}
const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_total_size(uint32_t total_size) const {
    parent_.total_size_ = total_size;
    return *this;
}
const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_page_size(uint32_t page_size) const {
    parent_.set_page_size(buffer_index_, page_size);
    return *this;
}

CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config) {
    auto& p = program.impl();
    TT_FATAL(!config.buffer_indices().empty(), "Circular buffer config names no buffer index");
    // Several indices share the region (tt-metal's multi-index config): the lowest is the spec's
    // own, the others its aliases; each keeps its format and page size.
    std::set<uint8_t> indices(config.buffer_indices().begin(), config.buffer_indices().end());
    emu::CircularBufferSpec cb;
    bool first = true;
    for (uint8_t index : indices) {
        TT_FATAL(config.data_formats()[index].has_value(), "Data format of circular buffer index {} is not set", index);
        TT_FATAL(config.page_sizes()[index].has_value(),
                 "Page size of circular buffer index {} is not set: call set_page_size", index);
        uint32_t page = *config.page_sizes()[index];
        TT_FATAL(config.total_size() % page == 0, "Total circular buffer size {} B must be divisible by page size {} B",
                 config.total_size(), page);
        if (first) {
            cb.index = index;
            cb.format = *config.data_formats()[index];
            cb.page_bytes = page;
            cb.num_pages = config.total_size() / page;
            first = false;
        } else {
            cb.aliases.push_back({index, *config.data_formats()[index], page});
        }
    }
    cb.cores = to_emu(to_set(core_spec));
    if (const Buffer* b = config.shadow_global_buffer) {
        TT_FATAL(b->is_allocated(), "CreateCircularBuffer: the globally allocated buffer at address {} was deallocated",
                 b->address());
        cb.buffer = b->emulator_id();
    }
    p.spec.cbs.push_back(cb);
    p.cb_configs.push_back(std::make_unique<CircularBufferConfig>(config));
    p.dirty = true;
    return CBHandle(p.cb_configs.size() - 1);
}

const CircularBufferConfig& GetCircularBufferConfig(Program& program, CBHandle cb_handle) {
    auto& p = program.impl();
    TT_FATAL(cb_handle < p.cb_configs.size(), "No circular buffer with handle {} in program {}", cb_handle, p.id);
    return *p.cb_configs[cb_handle];
}

uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type) {
    if (core_type != CoreType::WORKER)
        unsupported("CreateSemaphore", "semaphores on cores other than CoreType::WORKER");
    auto& p = program.impl();
    CoreRangeSet cores = std::holds_alternative<CoreRange>(core_spec) ? CoreRangeSet(std::get<CoreRange>(core_spec))
                                                                      : std::get<CoreRangeSet>(core_spec);
    p.spec.semaphores.push_back({to_emu(cores), initial_value});
    p.dirty = true;
    return uint32_t(p.spec.semaphores.size() - 1);
}

// ---- runtime args -----------------------------------------------------------------------------

namespace {

size_t max_unique_args(const KernelRecord& k) {
    size_t n = 0;
    for (const auto& [xy, slot] : k.args) n = std::max(n, slot->values.size());
    return n;
}

void set_core_args(Program::Impl& p, KernelHandle kernel, const CoreCoord& core, tt::stl::Span<const uint32_t> args) {
    KernelRecord& k = p.kernel(kernel, "SetRuntimeArgs");
    TT_FATAL(k.cores.contains(core), "SetRuntimeArgs: kernel '{}' (handle {}) does not run on core {}; it runs on {}",
             k.name, kernel, core.str(), k.cores.str());
    TT_FATAL(args.size() + k.common.values.size() <= max_runtime_args,
             "SetRuntimeArgs: kernel '{}' on core {}: {} unique + {} common runtime args exceed the limit of {}",
             k.name, core.str(), args.size(), k.common.values.size(), max_runtime_args);
    auto& slot = k.args[{core.x, core.y}];
    if (!slot) slot = std::make_unique<ArgsSlot>();
    slot->assign(args);
}

}  // namespace

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    tt::stl::Span<const uint32_t> runtime_args) {
    const CoreRangeSet cores = to_set(core_spec);
    for (const auto& r : cores.ranges())
        for (CoreCoord c : r) set_core_args(program.impl(), kernel, c, runtime_args);
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args) {
    SetRuntimeArgs(program, kernel, core_spec,
                   tt::stl::Span<const uint32_t>(runtime_args.begin(), runtime_args.size()));
}

void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& cores,
                    const std::vector<std::vector<uint32_t>>& runtime_args) {
    TT_FATAL(cores.size() == runtime_args.size(), "Mismatch between number of cores {} and number of runtime args {}",
             cores.size(), runtime_args.size());
    for (size_t i = 0; i < cores.size(); ++i) set_core_args(program.impl(), kernel, cores[i], runtime_args[i]);
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, tt::stl::Span<const uint32_t> runtime_args) {
    KernelRecord& k = program.impl().kernel(kernel, "SetCommonRuntimeArgs");
    TT_FATAL(runtime_args.size() + max_unique_args(k) <= max_runtime_args,
             "SetCommonRuntimeArgs: kernel '{}': {} common + up to {} unique runtime args exceed the limit of {}",
             k.name, runtime_args.size(), max_unique_args(k), max_runtime_args);
    k.common.assign(runtime_args);
}

void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args) {
    SetCommonRuntimeArgs(program, kernel, tt::stl::Span<const uint32_t>(runtime_args.begin(), runtime_args.size()));
}

RuntimeArgsData& GetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreCoord& core) {
    KernelRecord& k = program.impl().kernel(kernel, "GetRuntimeArgs");
    auto it = k.args.find({core.x, core.y});
    TT_FATAL(it != k.args.end(), "GetRuntimeArgs: kernel '{}' has no runtime args set on core {}", k.name, core.str());
    return it->second->view;
}

RuntimeArgsData& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel) {
    return program.impl().kernel(kernel, "GetCommonRuntimeArgs").common.view;
}

// ---- buffers ----------------------------------------------------------------------------------

Buffer::Buffer(IDevice* device, std::weak_ptr<emu::Device> e, uint32_t id, uint32_t address, DeviceAddr size,
               DeviceAddr page_size, uint32_t alignment, BufferType type, TensorMemoryLayout layout,
               std::optional<ShardSpecBuffer> shard)
    : device_(device),
      emu_(std::move(e)),
      id_(id),
      address_(address),
      size_(size),
      page_size_(page_size),
      alignment_(alignment),
      type_(type),
      layout_(layout),
      shard_(std::move(shard)) {}

const ShardSpecBuffer& Buffer::shard_spec() const {
    TT_FATAL(shard_.has_value(), "Buffer at address {} is not sharded: it has no shard spec", address_);
    return *shard_;
}

Buffer::~Buffer() {
    try {
        deallocate();
    } catch (const std::exception&) {}
}

void Buffer::deallocate() {
    if (!allocated_) return;
    allocated_ = false;
    if (auto d = emu_.lock())
        guarded("DeallocateBuffer", [&] {
            d->buffer_free(id_);
            return 0;
        });
}

namespace {

std::shared_ptr<Buffer> create_buffer(IDevice* dev, const emu::BufferConfig& c, BufferType type,
                                      TensorMemoryLayout layout, std::optional<ShardSpecBuffer> shard) {
    dev->queue_wait();
    auto& d = dev->emulator();
    emu::Buffer b = guarded("CreateBuffer", [&] { return d.buffer_create(c); });
    uint32_t align = type == BufferType::L1 ? d.spec().l1_alignment : d.spec().dram_alignment;
    return std::make_shared<Buffer>(dev, dev->emulator_handle(), b.id, b.address, c.size, c.page_bytes, align, type,
                                    layout, std::move(shard));
}

void check_buffer_type(BufferType t, const char* what) {
    if (t != BufferType::DRAM && t != BufferType::L1)
        unsupported("CreateBuffer",
                    std::string(what) + " of BufferType " + std::to_string(int(t)) +
                        " (L1_SMALL, SYSTEM_MEMORY or TRACE): the emulator has DRAM and L1 buffers");
}

}  // namespace

std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config) {
    TT_FATAL(config.device != nullptr, "CreateBuffer: InterleavedBufferConfig::device is null");
    check_buffer_type(config.buffer_type, "an interleaved buffer");
    TT_FATAL(config.page_size > 0 && config.page_size <= UINT32_MAX, "CreateBuffer: page size {} B is out of range",
             config.page_size);
    emu::BufferConfig c;
    c.size = config.size;
    c.page_bytes = uint32_t(config.page_size);
    c.type = config.buffer_type == BufferType::L1 ? emu::BufferType::L1 : emu::BufferType::Dram;
    return create_buffer(config.device, c, config.buffer_type, TensorMemoryLayout::INTERLEAVED, std::nullopt);
}

std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& config) {
    TT_FATAL(config.device != nullptr, "CreateBuffer: ShardedBufferConfig::device is null");
    check_buffer_type(config.buffer_type, "a sharded buffer");
    if (config.buffer_type != BufferType::L1)
        unsupported("CreateBuffer", "a sharded DRAM buffer: the emulator shards buffers over L1 only");
    TT_FATAL(config.page_size > 0 && config.page_size <= UINT32_MAX, "CreateBuffer: page size {} B is out of range",
             config.page_size);
    const ShardSpecBuffer& sp = config.shard_parameters;
    emu::BufferConfig c;
    c.size = config.size;
    c.page_bytes = uint32_t(config.page_size);
    c.type = emu::BufferType::L1;
    switch (config.buffer_layout) {
        case TensorMemoryLayout::HEIGHT_SHARDED: c.layout = emu::BufferLayout::HeightSharded; break;
        case TensorMemoryLayout::WIDTH_SHARDED: c.layout = emu::BufferLayout::WidthSharded; break;
        case TensorMemoryLayout::BLOCK_SHARDED: c.layout = emu::BufferLayout::BlockSharded; break;
        default: TT_THROW("CreateBuffer: ShardedBufferConfig with an interleaved layout");
    }
    c.shard.cores = to_emu(sp.grid());
    c.shard.shard_shape = sp.shape();
    c.shard.orientation = sp.orientation() == ShardOrientation::ROW_MAJOR ? emu::ShardOrientation::RowMajor
                                                                          : emu::ShardOrientation::ColMajor;
    c.shard.page_shape = sp.page_shape;
    c.shard.tensor_shape_in_pages = sp.tensor2d_shape_in_pages;
    return create_buffer(config.device, c, BufferType::L1, config.buffer_layout, sp);
}

void DeallocateBuffer(Buffer& buffer) { buffer.deallocate(); }

// ---- the command queue ------------------------------------------------------------------------

namespace {

Buffer& buffer_of(const BufferRef& ref) {
    if (auto* p = std::get_if<std::shared_ptr<Buffer>>(&ref)) {
        TT_FATAL(*p != nullptr, "Buffer is null");
        return **p;
    }
    return std::get<std::reference_wrapper<Buffer>>(ref).get();
}

// The emulator behind buffer, after the queue's earlier work.
emu::Device& ready(CommandQueue& cq, Buffer& buffer, const char* call) {
    TT_FATAL(buffer.is_allocated(), "{}: buffer at address {} was deallocated", call, buffer.address());
    TT_FATAL(buffer.device() == cq.device(), "{}: the buffer belongs to another device", call);
    cq.device()->queue_wait();
    return cq.device()->emulator();
}

void write_buffer(CommandQueue& cq, Buffer& buffer, const void* src, uint64_t src_bytes) {
    auto& d = ready(cq, buffer, "EnqueueWriteBuffer");
    TT_FATAL(src_bytes >= buffer.size(), "EnqueueWriteBuffer: {} B of host data for a buffer of {} B", src_bytes,
             buffer.size());
    guarded("EnqueueWriteBuffer", [&] {
        d.buffer_write(buffer.emulator_id(), src, buffer.size());
        return 0;
    });
}

}  // namespace

void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, std::vector<uint32_t>& src, bool) {
    write_buffer(cq, buffer_of(buffer), src.data(), uint64_t(src.size()) * 4);
}

void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, HostDataType src, bool) {
    Buffer& b = buffer_of(buffer);
    std::visit(
        [&](const auto& s) {
            using S = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<S, const void*>) {
                write_buffer(cq, b, s, b.size());
            } else {
                TT_FATAL(s != nullptr, "EnqueueWriteBuffer: null host vector");
                write_buffer(cq, b, s->data(), uint64_t(s->size()) * sizeof((*s)[0]));
            }
        },
        src);
}

void EnqueueReadBuffer(CommandQueue& cq, const BufferRef& buffer, void* dst, bool) {
    Buffer& b = buffer_of(buffer);
    auto& d = ready(cq, b, "EnqueueReadBuffer");
    guarded("EnqueueReadBuffer", [&] {
        d.buffer_read(b.emulator_id(), dst, b.size());
        return 0;
    });
}

void EnqueueProgram(CommandQueue& cq, Program& program, bool blocking) {
    IDevice* dev = cq.device();
    dev->queue_wait();
    auto& p = program.impl();
    p.compile(dev);
    p.upload_args(dev);
    guarded("EnqueueProgram", [&] {
        dev->emulator().program_launch(p.emu_id);
        return 0;
    });
    dev->queue_launched();
    if (blocking) dev->queue_wait();
}

void Finish(CommandQueue& cq, tt::stl::Span<const SubDeviceId>) { cq.device()->queue_wait(); }

// ---- slow dispatch (tt_metal.hpp) -------------------------------------------------------------

namespace detail {

void WriteToBuffer(Buffer& buffer, tt::stl::Span<const uint8_t> host_buffer) {
    write_buffer(buffer.device()->command_queue(), buffer, host_buffer.data(), host_buffer.size());
}

void ReadFromBuffer(Buffer& buffer, uint8_t* host_buffer) {
    EnqueueReadBuffer(buffer.device()->command_queue(), BufferRef(std::ref(buffer)), host_buffer, true);
}

void CompileProgram(IDevice* device, Program& program, bool) {
    device->queue_wait();
    program.impl().compile(device);
}

void LaunchProgram(IDevice* device, Program& program, bool wait_until_cores_done, bool) {
    EnqueueProgram(device->command_queue(), program, wait_until_cores_done);
}

void LaunchProgram(IDevice* device, const std::shared_ptr<Program>& program, bool wait_until_cores_done, bool force) {
    LaunchProgram(device, *program, wait_until_cores_done, force);
}

void WaitProgramDone(IDevice* device, Program&, bool) { device->queue_wait(); }

}  // namespace detail

// ---- TensorAccessorArgs -----------------------------------------------------------------------

namespace {
void check_args_config(tensor_accessor::ArgsConfig c) {
    if (c.raw() != 0)
        unsupported("TensorAccessorArgs",
                    "ArgsConfig bits " + std::to_string(c.raw()) +
                        " (runtime rank, shapes, banks or coordinates: sharded tensors); "
                        "the emulator's TensorAccessor is interleaved only");
}
}  // namespace

TensorAccessorArgs::TensorAccessorArgs(const Buffer& buffer, tensor_accessor::ArgsConfig c) : buffer_(&buffer) {
    check_args_config(c);
}
TensorAccessorArgs::TensorAccessorArgs(const Buffer* buffer, tensor_accessor::ArgsConfig c) : buffer_(buffer) {
    check_args_config(c);
}
TensorAccessorArgs::TensorAccessorArgs(const std::shared_ptr<Buffer>& buffer, tensor_accessor::ArgsConfig c)
    : buffer_(buffer.get()) {
    check_args_config(c);
}
TensorAccessorArgs TensorAccessorArgs::create_dram_interleaved() { return TensorAccessorArgs(); }
TensorAccessorArgs TensorAccessorArgs::create_l1_interleaved() {
    TensorAccessorArgs a;
    a.l1_ = true;
    return a;
}

std::vector<uint32_t> TensorAccessorArgs::get_compile_time_args() const {
    if (!buffer_) return {l1_ ? 0u : uint32_t(tensor_accessor::ArgConfig::IsDram), 0};
    TT_FATAL(buffer_->is_allocated(), "TensorAccessorArgs: buffer at address {} was deallocated", buffer_->address());
    return guarded("TensorAccessorArgs",
                   [&] { return buffer_->device()->emulator().tensor_accessor_args(buffer_->emulator_id()); });
}

void TensorAccessorArgs::append_to(std::vector<uint32_t>& ct) const {
    auto v = get_compile_time_args();
    ct.insert(ct.end(), v.begin(), v.end());
}
void TensorAccessorArgs::append_to(std::vector<uint32_t>& ct, std::vector<uint32_t>&) const { append_to(ct); }

}  // namespace tt::tt_metal
