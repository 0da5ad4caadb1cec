// Target "metal": a real Tenstorrent chip through tt-metal's mesh API (a 1×1 unit mesh).
//
// UNTESTED WITHOUT HARDWARE: this file is compiled only when CMake finds TT-Metalium, and no
// machine zyx is developed on has either. It follows the API as documented in
// /work/shared/research/metalium.md §1 (MeshDevice, MeshBuffer, MeshWorkload,
// CreateKernelFromString, SetRuntimeArgs) and, for partial transfers, the public header
// tt-metalium/mesh_command_queue.hpp of tt-metal in 2025 (enqueue_write_shards /
// enqueue_read_shards with ShardDataTransfer{shard_coord, host_data, region}); expect to adjust
// names to the tt-metal release used.
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/tt_metal.hpp>

#include <cstring>
#include <optional>
#include <unordered_map>

#include "backend/tenstorrent/pci_boards.hpp"
#include "core/error.hpp"
#include "target.hpp"

namespace zyx::tt::runtime {

namespace {

namespace tm = ::tt::tt_metal;
namespace td = ::tt::tt_metal::distributed;

// The shared vocabulary (core/tenstorrent_names.hpp) has tt-metal's names and values; the
// switch keeps the mapping explicit.
::tt::DataFormat to_metal(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: return ::tt::DataFormat::Float32;
        case DataFormat::Float16: return ::tt::DataFormat::Float16;
        case DataFormat::Bfp8: return ::tt::DataFormat::Bfp8;
        case DataFormat::Float16_b: return ::tt::DataFormat::Float16_b;
        case DataFormat::Bfp8_b: return ::tt::DataFormat::Bfp8_b;
        case DataFormat::Int32: return ::tt::DataFormat::Int32;
        case DataFormat::UInt16: return ::tt::DataFormat::UInt16;
        case DataFormat::UInt32: return ::tt::DataFormat::UInt32;
        case DataFormat::UInt8: return ::tt::DataFormat::UInt8;
        case DataFormat::Invalid: break;
    }
    return ::tt::DataFormat::Invalid;
}

// tt-metal's MathFidelity is a global enum in older releases and tt::tt_metal::MathFidelity in
// newer ones; ComputeConfig::math_fidelity names it either way. (Unqualified, `MathFidelity`
// here is zyx::tt::MathFidelity.) Same enumerators and values as the shared enum.
using MetalMathFidelity = decltype(tm::ComputeConfig::math_fidelity);

MetalMathFidelity to_metal(MathFidelity m) {
    switch (m) {
        case MathFidelity::LoFi: return MetalMathFidelity::LoFi;
        case MathFidelity::HiFi2: return MetalMathFidelity::HiFi2;
        case MathFidelity::HiFi3: return MetalMathFidelity::HiFi3;
        case MathFidelity::HiFi4: return MetalMathFidelity::HiFi4;
    }
    return MetalMathFidelity::HiFi4;
}

class MetalTarget final : public Target {
public:
    explicit MetalTarget(const TargetOptions& o) {
        try {
            mesh_ = td::MeshDevice::create_unit_mesh(int(o.device_id));
        } catch (const std::exception& e) {
            throw Error(ErrorStatus::Initialization, "tt-metal device " + std::to_string(o.device_id) + ": " + e.what());
        }
        const bool blackhole = mesh_->arch() == ::tt::ARCH::BLACKHOLE;
        auto grid = mesh_->compute_with_storage_grid_size();  // harvest-aware worker grid
        desc_.arch = blackhole ? "blackhole" : "wormhole";
        desc_.grid = {uint32_t(grid.y), uint32_t(grid.x)};
        desc_.dram_banks = uint32_t(mesh_->num_dram_channels());
        desc_.dram_alignment = blackhole ? 64 : 32;
        desc_.l1_bytes = uint32_t(mesh_->l1_size_per_core());
        desc_.num_cbs = blackhole ? 64 : 32;
        desc_.dram_bytes = uint64_t(mesh_->num_dram_channels()) * mesh_->dram_size_per_channel();
        desc_.name = desc_.arch;
        // The driver does not report GDDR6 capacity; known Blackhole boards come from the table.
        auto boards = pci_boards();
        if (o.device_id < boards.size() && boards[o.device_id].dram_bytes) {
            desc_.dram_bytes = boards[o.device_id].dram_bytes;
            desc_.name = boards[o.device_id].board;
        }
        desc_.data_formats = {protocol::DataFormat::Float32, protocol::DataFormat::Float16, protocol::DataFormat::Float16_b,
                              protocol::DataFormat::Bfp8_b,  protocol::DataFormat::Int32,   protocol::DataFormat::UInt32,
                              protocol::DataFormat::UInt16,  protocol::DataFormat::UInt8};
    }

    ~MetalTarget() override {
        programs_.clear();
        buffers_.clear();
        if (mesh_) mesh_->close();
    }

    std::string name() const override { return "metal"; }
    protocol::DeviceDesc device() const override { return desc_; }

    TargetBuffer buffer_alloc(uint64_t bytes, uint32_t page_bytes) override {
        // page_bytes <= l1_bytes and bytes <= dram_bytes: the server checked both.
        uint64_t rounded = (bytes + page_bytes - 1) / page_bytes * page_bytes;
        td::DeviceLocalBufferConfig local{.page_size = page_bytes, .buffer_type = tm::BufferType::DRAM};
        td::ReplicatedBufferConfig rep{.size = rounded};
        std::shared_ptr<td::MeshBuffer> buf;
        try {
            buf = td::MeshBuffer::create(rep, local, mesh_.get());
        } catch (const std::exception& e) {
            throw Error(ErrorStatus::MemoryAllocation, "tt-metal: allocating " + std::to_string(rounded) + " bytes: " + e.what());
        }
        // What the allocator reserves: every bank holds ceil(pages / banks) pages, each rounded up
        // to the DRAM alignment (docs/protocol.md, alloc_buf), the unit stats reports.
        const uint64_t pages = rounded / page_bytes, banks = desc_.dram_banks ? desc_.dram_banks : 1;
        const uint64_t slot = (uint64_t(page_bytes) + desc_.dram_alignment - 1) / desc_.dram_alignment * desc_.dram_alignment;
        uint64_t id = next_buffer_++;
        buffers_[id] = Buf{buf, rounded, page_bytes, (pages + banks - 1) / banks * slot * banks};
        return {id, uint32_t(buf->address())};
    }

    void buffer_free(uint64_t handle) override { buffers_.erase(handle); }

    // Partial transfers move only the pages they touch. tt-metal moves a region of an
    // interleaved buffer when the region's offset and size are whole pages (tt-metal PR #16102;
    // MeshCommandQueue::ShardDataTransfer::region), so a range is widened to whole pages; a
    // write that starts or ends inside a page first reads that page (at most two pages) so the
    // bytes around the range stay as they were.
    void buffer_write(uint64_t handle, const void* src, uint64_t bytes, uint64_t offset) override {
        Buf& b = buffers_.at(handle);
        const uint64_t page = b.page_bytes, first = offset / page * page, end = (offset + bytes + page - 1) / page * page;
        const bool head_partial = offset != first, tail_partial = offset + bytes != end;
        if (!head_partial && !tail_partial) {
            transfer_pages(b, const_cast<void*>(src), first, end - first, true);
            return;
        }
        std::vector<uint8_t> staged(end - first);
        if (head_partial) transfer_pages(b, staged.data(), first, page, false);
        if (tail_partial && !(head_partial && end - page == first)) transfer_pages(b, staged.data() + (end - page - first), end - page, page, false);
        std::memcpy(staged.data() + (offset - first), src, bytes);
        transfer_pages(b, staged.data(), first, end - first, true);
    }

    void buffer_read(uint64_t handle, void* dst, uint64_t bytes, uint64_t offset) override {
        Buf& b = buffers_.at(handle);
        const uint64_t page = b.page_bytes, first = offset / page * page, end = (offset + bytes + page - 1) / page * page;
        if (first == offset && end == offset + bytes) {
            transfer_pages(b, dst, first, end - first, false);
            return;
        }
        std::vector<uint8_t> staged(end - first);
        transfer_pages(b, staged.data(), first, end - first, false);
        std::memcpy(dst, staged.data() + (offset - first), bytes);
    }

    TargetProgram program_create(const protocol::Program& p, protocol::Grid grid, uint32_t protocol_id) override {
        auto prog = std::make_unique<Prog>();
        prog->grid = grid;
        prog->protocol_id = protocol_id;
        tm::CoreRange cores({0, 0}, {grid.cols - 1, grid.rows - 1});
        tm::Program program = tm::CreateProgram();
        try {
            for (const protocol::CircularBuffer& cb : p.cbs) {
                // page_bytes x num_pages <= l1_bytes: the server checked it in 64 bits.
                tm::CircularBufferConfig cfg(cb.page_bytes * cb.num_pages, {{uint8_t(cb.index), to_metal(cb.format)}});
                cfg.set_page_size(uint8_t(cb.index), cb.page_bytes);
                tm::CreateCircularBuffer(program, cores, cfg);
            }
            for (uint32_t v : p.semaphores) tm::CreateSemaphore(program, cores, v);
            for (const protocol::Kernel& k : p.kernels) {
                if (k.kind == protocol::KernelKind::compute) {
                    tm::ComputeConfig cfg{.math_fidelity = to_metal(p.math_fidelity),
                                          .fp32_dest_acc_en = p.fp32_dest_acc,
                                          .dst_full_sync_en = p.dst_full_sync,
                                          .math_approx_mode = p.math_approx,
                                          .compile_args = k.compile_args,
                                          .defines = k.defines};
                    prog->kernels.push_back(tm::CreateKernelFromString(program, k.source, cores, cfg));
                } else {
                    bool dm0 = k.kind == protocol::KernelKind::data_movement_0;
                    uint8_t noc = k.noc ? *k.noc : (dm0 ? 0 : 1);
                    tm::DataMovementConfig cfg{.processor = dm0 ? tm::DataMovementProcessor::RISCV_0 : tm::DataMovementProcessor::RISCV_1,
                                               .noc = noc == 0 ? tm::NOC::NOC_0 : tm::NOC::NOC_1,
                                               .compile_args = k.compile_args,
                                               .defines = k.defines};
                    prog->kernels.push_back(tm::CreateKernelFromString(program, k.source, cores, cfg));
                }
            }
            // Compile now, so that errors surface at compile_program and not at the first run.
            tm::detail::CompileProgram(mesh_.get(), program);
        } catch (const std::exception& e) {
            throw Error(ErrorStatus::KernelCompilation, "tt-metal: program " + std::to_string(protocol_id) + ": " + e.what());
        }
        prog->workload.add_program(td::MeshCoordinateRange(mesh_->shape()), std::move(program));
        uint64_t id = next_program_++;
        programs_[id] = std::move(prog);
        return id;
    }

    void program_free(TargetProgram p) override { programs_.erase(p); }

    void program_run(TargetProgram p, const LaunchArgs& args) override {
        Prog& prog = *programs_.at(p);
        try {
            tm::Program& program = prog.workload.get_programs().begin()->second;
            for (size_t k = 0; k < args.size(); ++k)
                for (uint32_t y = 0; y < prog.grid.rows; ++y)
                    for (uint32_t x = 0; x < prog.grid.cols; ++x)
                        tm::SetRuntimeArgs(program, prog.kernels[k], tm::CoreCoord{x, y}, args[k][y * prog.grid.cols + x]);
            td::EnqueueMeshWorkload(mesh_->mesh_command_queue(), prog.workload, false);
            td::Finish(mesh_->mesh_command_queue());
        } catch (const std::exception& e) {
            throw Error(ErrorStatus::KernelLaunch, "tt-metal: program " + std::to_string(prog.protocol_id) + ": " + e.what());
        }
        ++launches_;
    }

    TargetStats stats() const override {
        uint64_t bytes = 0;
        for (const auto& [id, b] : buffers_) bytes += b.device_bytes;
        return {bytes, launches_};
    }

private:
    struct Buf {
        std::shared_ptr<td::MeshBuffer> buf;
        uint64_t bytes = 0;         // whole pages
        uint32_t page_bytes = 0;
        uint64_t device_bytes = 0;  // DRAM reserved over all banks
    };

    // Blocking transfer of [offset, offset + bytes) (whole pages) between `host` and the one
    // shard of the unit mesh; the whole buffer goes without a region.
    void transfer_pages(Buf& b, void* host, uint64_t offset, uint64_t bytes, bool write) {
        std::optional<tm::BufferRegion> region;
        if (offset != 0 || bytes != b.bytes) region = tm::BufferRegion(offset, bytes);
        std::vector<td::MeshCommandQueue::ShardDataTransfer> t = {{.shard_coord = td::MeshCoordinate(0, 0), .host_data = host, .region = region}};
        try {
            if (write) mesh_->mesh_command_queue().enqueue_write_shards(b.buf, t, /*blocking=*/true);
            else mesh_->mesh_command_queue().enqueue_read_shards(t, b.buf, /*blocking=*/true);
        } catch (const std::exception& e) {
            throw Error(write ? ErrorStatus::MemoryCopyH2P : ErrorStatus::MemoryCopyP2H,
                        std::string("tt-metal: ") + (write ? "writing " : "reading ") + std::to_string(bytes) + " bytes at offset " +
                            std::to_string(offset) + ": " + e.what());
        }
    }
    struct Prog {
        td::MeshWorkload workload;
        std::vector<tm::KernelHandle> kernels;
        protocol::Grid grid;
        uint32_t protocol_id = 0;  // named in errors
    };
    std::shared_ptr<td::MeshDevice> mesh_;
    protocol::DeviceDesc desc_;
    std::unordered_map<uint64_t, Buf> buffers_;
    std::unordered_map<uint64_t, std::unique_ptr<Prog>> programs_;
    uint64_t next_buffer_ = 1, next_program_ = 1, launches_ = 0;
};

}  // namespace

std::unique_ptr<Target> metal_target_create(const TargetOptions& o) { return std::make_unique<MetalTarget>(o); }

}  // namespace zyx::tt::runtime
