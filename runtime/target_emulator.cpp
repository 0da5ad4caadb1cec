// Target "emulator": zyx's Tensix emulator (emulator/src/emu/device.hpp) in this process. The
// protocol and the emulator share one Tenstorrent vocabulary (core/tenstorrent_names.hpp), so
// formats, kernel kinds and fidelities pass through unconverted.
#include <unordered_map>

#include "emu/device.hpp"
#include "target.hpp"

namespace zyx::tt::runtime {

namespace {

// The emulator names programs by its own ids ("deadlock: every kernel of program 5 is
// blocked"); with one instance per launch grid they differ from the protocol's ids. Rewrites
// "program <emu id>" and "program id <emu id>" (whole numbers only) to the protocol id.
std::string with_protocol_id(const std::string& msg, emu::ProgramId emu_id, uint32_t protocol_id) {
    std::string out;
    const std::string ours = std::to_string(protocol_id), theirs = std::to_string(emu_id);
    size_t i = 0;
    while (i < msg.size()) {
        bool replaced = false;
        for (const std::string prefix : {"program id ", "program "}) {
            const std::string pattern = prefix + theirs;
            if (msg.compare(i, pattern.size(), pattern) == 0) {
                size_t end = i + pattern.size();
                if (end == msg.size() || !(msg[end] >= '0' && msg[end] <= '9')) {
                    out += prefix + ours;
                    i = end;
                    replaced = true;
                    break;
                }
            }
        }
        if (!replaced) out += msg[i++];
    }
    return out;
}

class EmulatorTarget final : public Target {
public:
    EmulatorTarget(const emu::DeviceSpec& spec, const emu::DeviceOptions& opts) : dev_(spec, opts) {}

    std::string name() const override { return "emulator"; }

    protocol::DeviceDesc device() const override {
        const emu::DeviceSpec& s = dev_.spec();
        protocol::DeviceDesc d;
        d.name = s.name;
        d.arch = s.arch == emu::Arch::Wormhole ? "wormhole" : "blackhole";
        d.grid = {s.grid_y, s.grid_x};  // rows = y, cols = x
        d.dram_bytes = uint64_t(s.dram_banks) * s.dram_bank_bytes;
        d.dram_banks = s.dram_banks;
        d.dram_alignment = s.dram_alignment;
        // What circular buffers may use: the L1 above the reserved area (as the metal target
        // reports the L1 above tt-metal's allocator base).
        d.l1_bytes = s.l1_bytes - s.l1_unreserved_base;
        d.num_cbs = s.num_cbs;
        // The formats the emulator's unpacker and packer implement (emulator/tile/tile_math.hpp).
        d.data_formats = {protocol::DataFormat::Float32, protocol::DataFormat::Float16, protocol::DataFormat::Float16_b,
                          protocol::DataFormat::Bfp8_b,  protocol::DataFormat::Int32,   protocol::DataFormat::UInt32,
                          protocol::DataFormat::UInt16,  protocol::DataFormat::UInt8};
        return d;
    }

    TargetBuffer buffer_alloc(uint64_t bytes, uint32_t page_bytes) override {
        // Whole pages: the interleaved layout places pages, so the last one is allocated in full.
        uint64_t rounded = (bytes + page_bytes - 1) / page_bytes * page_bytes;
        emu::Buffer b = dev_.buffer_create(rounded, page_bytes);
        return {b.id, b.address};
    }
    void buffer_free(uint64_t handle) override { dev_.buffer_free(uint32_t(handle)); }
    void buffer_write(uint64_t handle, const void* src, uint64_t bytes, uint64_t offset) override {
        dev_.buffer_write(uint32_t(handle), src, bytes, offset);
    }
    void buffer_read(uint64_t handle, void* dst, uint64_t bytes, uint64_t offset) override {
        dev_.buffer_read(uint32_t(handle), dst, bytes, offset);
    }

    TargetProgram program_create(const protocol::Program& p, protocol::Grid grid, uint32_t protocol_id) override {
        emu::CoreRangeSet cores = {emu::CoreRange{{0, 0}, {grid.cols - 1, grid.rows - 1}}};
        emu::ProgramSpec spec;
        for (const protocol::CircularBuffer& cb : p.cbs)
            spec.cbs.push_back({cb.index, cb.format, cb.page_bytes, cb.num_pages, cores, {}, std::nullopt});
        for (const protocol::Kernel& k : p.kernels) {
            emu::KernelSpec ks;
            ks.name = k.name;
            ks.source = k.source;
            ks.kind = k.kind;
            ks.cores = cores;
            ks.compile_args = k.compile_args;
            ks.defines = k.defines;
            ks.noc = k.noc;
            ks.compute.fp32_dest_acc_en = p.fp32_dest_acc;
            ks.compute.dst_full_sync_en = p.dst_full_sync;
            ks.compute.math_approx_mode = p.math_approx;
            ks.compute.math_fidelity = p.math_fidelity;
            for (uint32_t cb : p.unpack_to_dest_fp32) ks.compute.unpack_to_dest_fp32(cb);
            spec.kernels.push_back(std::move(ks));
        }
        for (uint32_t v : p.semaphores) spec.semaphores.push_back({cores, v});
        emu::ProgramId id = dev_.program_create(spec);
        instances_[id] = Instance{grid, protocol_id};
        return id;
    }

    void program_free(TargetProgram p) override {
        dev_.program_free(emu::ProgramId(p));
        instances_.erase(emu::ProgramId(p));
    }

    void program_run(TargetProgram p, const LaunchArgs& args) override {
        emu::ProgramId id = emu::ProgramId(p);
        const Instance& inst = instances_.at(id);
        const protocol::Grid g = inst.grid;
        try {
            for (size_t k = 0; k < args.size(); ++k) {
                for (uint32_t y = 0; y < g.rows; ++y)
                    for (uint32_t x = 0; x < g.cols; ++x)
                        dev_.program_set_runtime_args(id, uint32_t(k), {x, y}, args[k][y * g.cols + x]);
            }
            dev_.program_launch(id);
            dev_.wait();
        } catch (const Error& e) { throw Error(e.status(), with_protocol_id(e.message(), id, inst.protocol_id)); }
    }

    TargetStats stats() const override {
        emu::DeviceStats s = dev_.stats();
        return {s.dram_bytes_allocated, s.launches};
    }

private:
    struct Instance {
        protocol::Grid grid;
        uint32_t protocol_id = 0;
    };
    emu::Device dev_;
    std::unordered_map<emu::ProgramId, Instance> instances_;
};

}  // namespace

std::unique_ptr<Target> emulator_target_create(const TargetOptions& o) {
    emu::DeviceOptions opts;
    opts.threads = o.threads;
    if (o.has_schedule_seed) opts.schedule_seed = o.schedule_seed;
    opts.check_races = o.check_races;
    return std::make_unique<EmulatorTarget>(emu::preset(o.preset), opts);
}

}  // namespace zyx::tt::runtime
