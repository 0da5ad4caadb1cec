// The Tenstorrent backend: one TTDevice per Tenstorrent device (real or emulated), each with its
// own TTMemoryPool, its own zyx-tt-runtime process and its own device lock.
//
//   auto dev = zyx::tt::TTDevice::open({.device_id = 0});     // config.json decides the target
//   auto& pool = dev->pool();
//   BufferId a = pool.allocate(4096);
//   pool.host_to_pool(host, 4096, a, {});
//   ProgramId p = dev->compile_program(description);            // protocol::Program: sources,
//   dev->launch(p, {a, out}, {}, {});                           //   CBs, runtime-arg layout
//
// Kernels of the IR go through the code generator (codegen/): supports() answers from it (and
// says why not), compile() hands its program to compile_program(). Hand-built programs use
// compile_program() directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backend/backend.hpp"
#include "backend/tenstorrent/config.hpp"
#include "backend/tenstorrent/protocol.hpp"
#include "kernel/kernel.hpp"

namespace zyx::tt {

class RuntimeClient;
class TTMemoryPool;
class DeviceLock;

struct OpenOptions {
    uint32_t device_id = 0;
    // Settings; default: the process-wide config (config.json).
    std::optional<Config> config;
    // The runtime executable; empty: find_runtime_executable().
    std::filesystem::path runtime;
    // Extra runtime arguments (tests: --debug-delay, --raw-timeout-ms …).
    std::vector<std::string> runtime_args;
    // Directory of the device lock files; empty: DeviceLock::default_dir().
    std::filesystem::path lock_dir;
    // Transfer tuning (see RuntimeClientOptions); 0 = default.
    uint64_t arena_max_bytes = 0;
    uint64_t transfer_chunk_bytes = 0;
};

// Where the runtime executable is, in this order: $ZYX_TT_RUNTIME; beside the executable or
// shared object that contains zyx (the build tree's bin/), or in ../libexec/zyx of it (an
// installed tree: <prefix>/bin or <prefix>/lib beside <prefix>/libexec/zyx); the install
// location of the prefix zyx was configured with (${CMAKE_INSTALL_FULL_LIBEXECDIR}/zyx); the
// build tree this library was built in. Throws Initialization listing the places it looked.
std::filesystem::path find_runtime_executable();

// The launch grid for a kernel's group axes: axis 0 → rows, axis 1 → cols (missing axes are 1).
// Throws KernelLaunch when there are more than two axes, an axis is 0, or the grid exceeds
// `device_grid`.
protocol::Grid grid_from_group_axes(const std::vector<uint64_t>& axes, protocol::Grid device_grid);

// dtype → the DataFormat a TT device stores it in, when there is one.
std::optional<protocol::DataFormat> data_format_of(DType t);

class TTDevice final : public backend::Device {
public:
    // Takes the device lock, starts the runtime, reads the device facts. Throws DeviceBusy,
    // Initialization (no runtime executable, target cannot start), or the runtime's error.
    static std::unique_ptr<TTDevice> open(const OpenOptions& options = {});
    // One device per configured id (config.device_ids; all = {0} for the emulator target, every
    // Tenstorrent PCI board for metal). An empty list disables the backend: returns {}.
    static std::vector<std::unique_ptr<TTDevice>> open_all(const Config& config);
    ~TTDevice() override;

    const backend::DeviceInfo& info() const override { return info_; }
    backend::MemoryPool& pool() override;
    TTMemoryPool& tt_pool() { return *pool_; }

    // Whether the code generator can make a program of `k` for this device (the reason when
    // not: a dtype without a tile format, an op without a tile form, …). The generated program
    // is kept for compile().
    bool supports(const kernel::Kernel& k, std::string* why = nullptr) const override;
    // The generated program of `k`, compiled in the runtime. Throws Unsupported (with the
    // generator's reason) or the runtime's KernelCompilation error.
    backend::ProgramId compile(const kernel::Kernel& k) override;
    // The program the code generator makes of `k` (throws Unsupported with its reason).
    const protocol::Program& generated_program(const kernel::Kernel& k) const;

    // Compiles a TT program description in the runtime (errors carry the compiler's message).
    // Its grid is checked against the device grid here.
    backend::ProgramId compile_program(const protocol::Program& program);
    // Runs a program: `buffers` are its inputs then its outputs, in order; scalars are 8-, 16- or
    // 32-bit values passed as their raw bits. Runs on the program's grid unless `grid` is given.
    backend::Event launch(backend::ProgramId program, std::span<const backend::BufferId> buffers,
                          std::span<const backend::Scalar> scalars, std::span<const backend::Event> wait) override;
    backend::Event launch_on(backend::ProgramId program, std::span<const backend::BufferId> buffers,
                             std::span<const backend::Scalar> scalars, protocol::Grid grid);
    void release(backend::ProgramId program) override;

    const protocol::DeviceDesc& device_desc() const { return desc_; }
    // Microseconds the last launch spent inside the device's launch + wait (runtime-measured).
    double last_launch_us() const { return last_launch_us_; }
    RuntimeClient& client() { return *client_; }
    uint32_t device_id() const { return id_; }

private:
    TTDevice() = default;
    struct Program {
        protocol::Program desc;  // kept so a restarted runtime can compile it again
        uint32_t runtime_id = 0;
        uint64_t generation = 0;
        bool generated = false;  // by the code generator: integer scalars are computed in f32
    };
    uint32_t runtime_program_locked(Program& p, backend::ProgramId id);
    // Code generator results by kernel structure: the program, or why there is none.
    struct Generated {
        std::optional<protocol::Program> program;
        std::string why;
    };
    const Generated& generate(const kernel::Kernel& k) const;

    uint32_t id_ = 0;
    std::unique_ptr<DeviceLock> lock_;
    std::shared_ptr<RuntimeClient> client_;
    std::unique_ptr<TTMemoryPool> pool_;
    protocol::DeviceDesc desc_;
    backend::DeviceInfo info_;
    std::mutex mutex_;
    std::unordered_map<backend::ProgramId, Program> programs_;
    mutable std::unordered_map<kernel::Kernel, Generated, kernel::KernelHash> generated_;
    backend::ProgramId next_program_ = 1;
    double last_launch_us_ = 0;
};

}  // namespace zyx::tt
