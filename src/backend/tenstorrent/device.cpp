#include "backend/tenstorrent/device.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>

#include "backend/tenstorrent/codegen/emit.hpp"
#include "backend/tenstorrent/codegen/plan.hpp"
#include "backend/tenstorrent/device_lock.hpp"
#include "backend/tenstorrent/memory_pool.hpp"
#include "backend/tenstorrent/pci_boards.hpp"
#include "backend/tenstorrent/runtime_client.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace zyx::tt {

using backend::BufferId;
using backend::Event;
using backend::ProgramId;

namespace {

constexpr const char* kRuntimeName = "zyx-tt-runtime";

bool is_executable(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string grid_str(protocol::Grid g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

}  // namespace

std::filesystem::path find_runtime_executable() {
    std::vector<std::filesystem::path> tried;
    if (const char* env = std::getenv("ZYX_TT_RUNTIME"); env && *env) {
        if (is_executable(env)) return env;
        throw Error(ErrorStatus::Initialization, std::string("ZYX_TT_RUNTIME=") + env + " is not an executable file");
    }
    // Beside the object that holds this code: the shared library once installed, or the
    // executable when zyx is linked statically.
    std::filesystem::path self;
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&find_runtime_executable), &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        self = info.dli_fname;
    else {
        std::error_code ec;
        self = std::filesystem::read_symlink("/proc/self/exe", ec);
    }
    // In the build tree executables and the runtime share bin/; installed, the runtime is in
    // <prefix>/libexec/zyx/ (runtime/CMakeLists.txt), i.e. ../libexec/zyx of <prefix>/bin and of
    // <prefix>/lib.
    if (!self.empty()) {
        std::filesystem::path dir = self.parent_path();
        for (const std::filesystem::path& p : {dir / kRuntimeName, dir / ".." / "libexec" / "zyx" / kRuntimeName}) {
            if (is_executable(p)) return p.lexically_normal();
            tried.push_back(p.lexically_normal());
        }
    }
    // Where `cmake --install` puts it for the prefix this library was configured with (a static
    // library lives inside the program that links it, wherever that is).
#ifdef ZYX_TT_RUNTIME_INSTALL_PATH
    if (is_executable(ZYX_TT_RUNTIME_INSTALL_PATH)) return ZYX_TT_RUNTIME_INSTALL_PATH;
    tried.emplace_back(ZYX_TT_RUNTIME_INSTALL_PATH);
#endif
#ifdef ZYX_TT_RUNTIME_BUILD_PATH
    if (is_executable(ZYX_TT_RUNTIME_BUILD_PATH)) return ZYX_TT_RUNTIME_BUILD_PATH;
    tried.emplace_back(ZYX_TT_RUNTIME_BUILD_PATH);
#endif
    std::string list;
    for (const auto& p : tried) list += "\n  " + p.string();
    throw Error(ErrorStatus::Initialization,
                std::string("cannot find ") + kRuntimeName + " (set ZYX_TT_RUNTIME); looked at:" + list);
}

protocol::Grid grid_from_group_axes(const std::vector<uint64_t>& axes, protocol::Grid device_grid) {
    if (axes.size() > 2)
        throw Error(ErrorStatus::KernelLaunch,
                    "a Tenstorrent launch has at most 2 group axes (rows, cols), the kernel has " +
                        std::to_string(axes.size()));
    uint64_t rows = axes.size() > 0 ? axes[0] : 1, cols = axes.size() > 1 ? axes[1] : 1;
    if (rows == 0 || cols == 0) throw Error(ErrorStatus::KernelLaunch, "group axis of size 0");
    if (rows > device_grid.rows || cols > device_grid.cols)
        throw Error(ErrorStatus::KernelLaunch,
                    "grid " + std::to_string(rows) + "x" + std::to_string(cols) +
                        " (rows x cols) exceeds the device grid " + grid_str(device_grid));
    return {uint32_t(rows), uint32_t(cols)};
}

std::optional<protocol::DataFormat> data_format_of(DType t) {
    switch (t) {
        case DType::f32: return protocol::DataFormat::Float32;
        case DType::f16: return protocol::DataFormat::Float16;
        case DType::bf16: return protocol::DataFormat::Float16_b;
        case DType::i32: return protocol::DataFormat::Int32;
        case DType::u32: return protocol::DataFormat::UInt32;
        case DType::u16: return protocol::DataFormat::UInt16;
        case DType::u8: return protocol::DataFormat::UInt8;
        default: return std::nullopt;  // f64, 64-bit ints, i8, i16, bool: no Tensix data format
    }
}

std::unique_ptr<TTDevice> TTDevice::open(const OpenOptions& options) {
    const Config cfg = options.config ? *options.config : config();
    std::unique_ptr<TTDevice> dev(new TTDevice());
    dev->id_ = options.device_id;
    dev->lock_ = std::make_unique<DeviceLock>(cfg.target, options.device_id, options.lock_dir);

    RuntimeClientOptions ro;
    ro.executable = options.runtime.empty() ? find_runtime_executable() : options.runtime;
    ro.args = {"--target", cfg.target};
    if (cfg.target == "emulator") ro.args.insert(ro.args.end(), {"--preset", cfg.emulator_preset});
    ro.args.insert(ro.args.end(), {"--device-id", std::to_string(options.device_id)});
    if (!options.lock_dir.empty()) ro.args.insert(ro.args.end(), {"--lock-dir", options.lock_dir.string()});
    ro.args.insert(ro.args.end(), options.runtime_args.begin(), options.runtime_args.end());
    ro.request_timeout_ms = cfg.request_timeout_ms;
    ro.compile_timeout_ms = cfg.compile_timeout_ms;
    ro.run_timeout_ms = cfg.run_timeout_ms;
    if (options.arena_max_bytes) ro.arena_max_bytes = options.arena_max_bytes;
    if (options.transfer_chunk_bytes) ro.transfer_chunk_bytes = options.transfer_chunk_bytes;
    dev->client_ = std::make_shared<RuntimeClient>(ro);
    dev->client_->start();
    dev->desc_ = dev->client_->device();
    std::string name = "tt:" + std::to_string(options.device_id);
    dev->pool_ = std::make_unique<TTMemoryPool>(dev->client_, name);

    backend::DeviceInfo& info = dev->info_;
    info.name = name + " (" + dev->client_->target() + ", " + dev->desc_.name + ")";
    info.max_grid = {dev->desc_.grid.rows, dev->desc_.grid.cols};
    info.local_memory_bytes = dev->desc_.l1_bytes;
    // Rough peak for placement: about 1 TFLOP/s of bf16 matmul per Tensix core. The emulator
    // reports the chip it emulates, so placement decisions match what the hardware would get.
    info.compute_flops = uint64_t(dev->desc_.grid.rows) * dev->desc_.grid.cols * 1'000'000'000'000ull;
    for (int t = 0; t < kNumDTypes; ++t) {
        auto f = data_format_of(DType(t));
        bool ok = false;
        for (protocol::DataFormat have : dev->desc_.data_formats) ok = ok || (f && *f == have);
        info.dtype_supported[t] = ok;
    }
    ZYX_LOG(runtime) << "opened " << info.name << ": grid " << grid_str(dev->desc_.grid) << ", "
                     << dev->desc_.dram_bytes << " bytes DRAM";
    return dev;
}

std::vector<std::unique_ptr<TTDevice>> TTDevice::open_all(const Config& cfg) {
    std::vector<uint32_t> ids;
    if (cfg.device_ids)
        ids = *cfg.device_ids;
    else if (cfg.target == "emulator")
        ids = {0};
    else
        for (size_t i = 0; i < pci_boards().size(); ++i) ids.push_back(uint32_t(i));
    std::vector<std::unique_ptr<TTDevice>> out;
    for (uint32_t id : ids) {
        OpenOptions o;
        o.device_id = id;
        o.config = cfg;
        out.push_back(open(o));
    }
    return out;
}

TTDevice::~TTDevice() {
    programs_.clear();
    pool_.reset();    // uses the client
    client_.reset();  // ends the runtime
    lock_.reset();    // only then may another process take the device
}

backend::MemoryPool& TTDevice::pool() { return *pool_; }

const TTDevice::Generated& TTDevice::generate(const kernel::Kernel& k) const {
    auto it = generated_.find(k);
    if (it != generated_.end()) return it->second;
    Generated g;
    codegen::Target target;
    target.grid = desc_.grid;
    target.l1_bytes = desc_.l1_bytes;
    target.num_cbs = desc_.num_cbs;
    target.dram_alignment = desc_.dram_alignment;
    try {
        kernel::validate(k);
        // Launch scalars travel as runtime args of one program: at most protocol::kMaxScalars.
        if (k.scalars.size() > protocol::kMaxScalars)
            throw Error(ErrorStatus::Unsupported,
                        "Unsupported: the kernel has " + std::to_string(k.scalars.size()) +
                            " launch scalars, more than the " + std::to_string(protocol::kMaxScalars) +
                            " a program takes");
        std::optional<codegen::Plan> plan = codegen::make_plan(k, target, &g.why);
        if (plan) g.program = codegen::make_program(*plan);
    } catch (const Error& e) {  // a kernel the generator cannot write (DST slots, …) or an invalid one
        g.program.reset();
        g.why = e.message();
    }
    if (!g.program && g.why.empty()) g.why = "the code generator gave no reason";
    return generated_.emplace(k, std::move(g)).first->second;
}

bool TTDevice::supports(const kernel::Kernel& k, std::string* why) const {
    const Generated& g = generate(k);
    if (!g.program && why) *why = g.why;
    return bool(g.program);
}

const protocol::Program& TTDevice::generated_program(const kernel::Kernel& k) const {
    const Generated& g = generate(k);
    if (!g.program)
        throw Error(ErrorStatus::Unsupported, "Unsupported: " + info_.name + " cannot run the kernel: " + g.why);
    return *g.program;
}

ProgramId TTDevice::compile(const kernel::Kernel& k) {
    const protocol::Program& prog = generated_program(k);
    ZYX_LOG(asm_) << info_.name << ": generated program\n--- reader ---\n"
                  << prog.kernels[0].source << "--- compute ---\n"
                  << prog.kernels[1].source << "--- writer ---\n"
                  << prog.kernels[2].source;
    ProgramId id = compile_program(prog);
    std::lock_guard lock(mutex_);
    programs_.at(id).generated = true;
    return id;
}

ProgramId TTDevice::compile_program(const protocol::Program& program) {
    std::lock_guard lock(mutex_);
    if (program.grid.rows > desc_.grid.rows || program.grid.cols > desc_.grid.cols)
        throw Error(ErrorStatus::InvalidArgument,
                    info_.name + ": program grid " + grid_str(program.grid) +
                        " (rows x cols) exceeds the device grid " + grid_str(desc_.grid));
    Program p;
    p.desc = program;
    auto resp = client_->compile(program);
    p.runtime_id = resp.at("program").get<uint32_t>();
    p.generation = client_->generation();
    while (next_program_ == 0 || programs_.count(next_program_)) ++next_program_;
    ProgramId id = next_program_++;
    programs_.emplace(id, std::move(p));
    return id;
}

uint32_t TTDevice::runtime_program_locked(Program& p, ProgramId id) {
    if (p.generation == client_->generation() && client_->running()) return p.runtime_id;
    // The runtime that compiled it has ended: compile it again in the current one.
    ZYX_LOG(runtime) << info_.name << ": recompiling program " << id << " in a fresh runtime";
    auto resp = client_->compile(p.desc);
    p.runtime_id = resp.at("program").get<uint32_t>();
    p.generation = client_->generation();
    return p.runtime_id;
}

Event TTDevice::launch(ProgramId program, std::span<const BufferId> buffers, std::span<const backend::Scalar> scalars,
                       std::span<const Event>) {
    protocol::Grid grid;
    {
        std::lock_guard lock(mutex_);
        auto it = programs_.find(program);
        if (it == programs_.end())
            throw Error(ErrorStatus::KernelLaunch,
                        info_.name + ": launch of unknown program " + std::to_string(program));
        grid = it->second.desc.grid;
    }
    return launch_on(program, buffers, scalars, grid);
}

Event TTDevice::launch_on(ProgramId program, std::span<const BufferId> buffers,
                          std::span<const backend::Scalar> scalars, protocol::Grid grid) {
    std::lock_guard lock(mutex_);
    auto it = programs_.find(program);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, info_.name + ": launch of unknown program " + std::to_string(program));
    Program& p = it->second;
    const std::string ctx = info_.name + ": program " + std::to_string(program);
    const size_t n_in = p.desc.num_inputs, n_out = p.desc.num_outputs;
    if (buffers.size() != n_in + n_out)
        throw Error(ErrorStatus::KernelLaunch,
                    ctx + " takes " + std::to_string(n_in) + " inputs and " + std::to_string(n_out) + " outputs, got " +
                        std::to_string(buffers.size()) + " buffers");
    if (scalars.size() != p.desc.num_scalars)
        throw Error(
            ErrorStatus::KernelLaunch,
            ctx + " takes " + std::to_string(p.desc.num_scalars) + " scalars, got " + std::to_string(scalars.size()));
    grid_from_group_axes({grid.rows, grid.cols}, desc_.grid);  // throws KernelLaunch when too large

    protocol::Request r;
    r.cmd = protocol::Command::run;
    for (size_t i = 0; i < scalars.size(); ++i) {
        size_t size = dtype_size(scalars[i].dtype);
        if (size > 4)
            throw Error(ErrorStatus::Unsupported,
                        "Unsupported: " + ctx + ": scalar " + std::to_string(i) + " is " +
                            std::string(dtype_name(scalars[i].dtype)) + "; runtime args are 32-bit words");
        uint64_t mask = size == 4 ? 0xffffffffull : (1ull << (8 * size)) - 1;
        r.scalars.push_back(uint32_t(scalars[i].bits & mask));
        if (p.generated && dtype_is_int(scalars[i].dtype) && !codegen::words(scalars[i].dtype)) {
            // Generated kernels compute integers other than i32 as exact f32 values (docs/numerics.md).
            double v = kernel::double_from_bits(scalars[i].dtype, scalars[i].bits);
            if (std::fabs(v) > codegen::kIntScalarLimit)
                throw Error(ErrorStatus::Unsupported,
                            "Unsupported: " + ctx + ": integer scalar " + std::to_string(i) + " = " +
                                std::to_string(int64_t(v)) + " is beyond ±2^22, the range in which " + info_.name +
                                " computes integers exactly (as f32)");
        }
    }
    r.program_id = runtime_program_locked(p, program);
    for (size_t i = 0; i < buffers.size(); ++i) {
        uint32_t rt = pool_->runtime_buffer(buffers[i], ErrorStatus::KernelLaunch);
        (i < n_in ? r.inputs : r.outputs).push_back(rt);
    }
    r.grid = grid;
    nlohmann::json resp = client_->call(r);
    last_launch_us_ = resp.value("launch_us", 0.0);
    return Event{};
}

void TTDevice::release(ProgramId program) {
    std::lock_guard lock(mutex_);
    auto it = programs_.find(program);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, info_.name + ": release of unknown program " + std::to_string(program));
    Program p = std::move(it->second);
    programs_.erase(it);
    if (p.generation == client_->generation() && client_->running()) {
        protocol::Request r;
        r.cmd = protocol::Command::release_program;
        r.program_id = p.runtime_id;
        client_->call(r);
    }
}

}  // namespace zyx::tt
