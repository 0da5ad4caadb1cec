// Target "metal": a real Tenstorrent chip through tt-metal's mesh API (a 1×1 unit mesh).
//
// UNTESTED ON HARDWARE: no machine zyx is developed on has a chip or tt-metal. Without
// TT-Metalium this file is built against the emulator's tt-metal compat layer (emulator/compat,
// which follows the pinned release) and the runtime tests run through it (tests/runtime,
// ZYX_TEST_RUNTIME_TARGET=metal). It is written against the pinned tt-metal release
// (ZYX_TT_METAL_PINNED_VERSION in metal_rules.hpp, runtime/README.md) and its public headers
// tt_metal/api/tt-metalium/{mesh_device,mesh_buffer,mesh_command_queue,distributed,host_api,
// allocator}.hpp: MeshDevice, MeshBuffer, MeshWorkload, CreateKernelFromString, SetRuntimeArgs,
// enqueue_write_shards / enqueue_read_shards with a BufferRegion. Where a newer tt-metal differs
// (the ShardDataTransfer builder, no detail::CompileProgram) the code is guarded by
// ZYX_TT_METAL_VERSION_NUM, which CMake sets from the release it found.
//
// Everything here that needs no tt-metal (error classification, unreserved L1, board choice,
// bounded waits, version flavours) lives in metal_rules.{hpp,cpp} and is tested on every build
// (tests/runtime/test_metal_rules.cpp).
#include "metal_rules.hpp"

#if !defined(ZYX_TT_METAL_VERSION_NUM) || !defined(ZYX_TT_METAL_VERSION_STRING)
#error \
    "ZYX_TT_METAL_VERSION_NUM (major*1000000+minor*1000+patch) and ZYX_TT_METAL_VERSION_STRING come from runtime/CMakeLists.txt"
#endif
#define ZYX_TT_METAL_API_2026 (ZYX_TT_METAL_VERSION_NUM >= ZYX_TT_METAL_API_2026_SINCE_NUM)

#include <tt-metalium/allocator.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/hal_types.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_command_queue.hpp>
#include <tt-metalium/mesh_device.hpp>
#if ZYX_TT_METAL_API_2026
// The builder ShardDataTransfer has its own header once the aggregate is gone (tt-metal PR #53719).
#if __has_include(<tt-metalium/shard_data_transfer.hpp>)
#include <tt-metalium/shard_data_transfer.hpp>
#endif
#else
#include <tt-metalium/tt_metal.hpp>  // tt::tt_metal::detail::CompileProgram
#endif
// UMD, installed with tt-metal: its cluster descriptor maps each PCIe-attached chip to the number
// of its /dev/tenstorrent/<n> node. The header was renamed from .h to .hpp during 2025.
#if __has_include(<umd/device/cluster.hpp>)
#include <umd/device/cluster.hpp>
#define ZYX_TT_HAVE_UMD_CLUSTER 1
#elif __has_include(<umd/device/cluster.h>)
#include <umd/device/cluster.h>
#define ZYX_TT_HAVE_UMD_CLUSTER 1
#endif

#include <cstdlib>
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

// PCI address of every PCIe-attached chip, by tt-metal chip id: UMD's cluster descriptor gives the
// /dev/tenstorrent/<n> number of each, sysfs the address behind that node. Empty when UMD's
// cluster header is not installed or discovery fails; the caller then uses tt-metal's own numbers.
metal::MmioPciAddresses mmio_pci_addresses() {
    metal::MmioPciAddresses out;
#ifdef ZYX_TT_HAVE_UMD_CLUSTER
    try {
        auto desc = ::tt::umd::Cluster::create_cluster_descriptor();
        for (const auto& [chip, device_number] : desc->get_chips_with_mmio())
            if (auto address = metal::pci_address_of_device_number(int(device_number))) out[int(chip)] = *address;
    } catch (const std::exception&) {
        out.clear();  // no board entry: DRAM size and name come from tt-metal
    }
#endif
    return out;
}

class MetalTarget final : public Target {
public:
    explicit MetalTarget(const TargetOptions& o) : device_id_(o.device_id) {
        run_timeout_ = metal::run_timeout_from_env(std::getenv("ZYX_TT_METAL_RUN_TIMEOUT_MS"));
        // Read before tt-metal opens the device, so that discovery does not run beside dispatch.
        const metal::MmioPciAddresses mmio = mmio_pci_addresses();
        const std::string what = "tt-metal " ZYX_TT_METAL_VERSION_STRING " device " + std::to_string(o.device_id);
        try {
            mesh_ = td::MeshDevice::create_unit_mesh(int(o.device_id));
        } catch (const std::exception& e) { throw Error(ErrorStatus::Initialization, what + ": " + e.what()); }
        try {
            describe(mmio);
        } catch (const Error&) {
            mesh_->close();
            throw;
        } catch (const std::exception& e) {
            mesh_->close();
            throw Error(ErrorStatus::Initialization, what + ": describing the device: " + e.what());
        }
    }

    ~MetalTarget() override {
        if (hung_) {
            // Closing the device waits for its command queue, which the hung program never drains,
            // and freeing buffers or programs may wait for it too. Every tt-metal object stays alive
            // (deliberately leaked) until the process exits; the watchdog thread stays blocked.
            static_cast<void>(
                new Retired{std::move(mesh_), std::move(programs_), std::move(buffers_), std::move(retired_)});
            return;
        }
        programs_.clear();
        buffers_.clear();
        // close() finishes the queue and may throw (tt-metal's TT_FATAL); a destructor must not.
        try {
            if (mesh_) mesh_->close();
        } catch (const std::exception&) {}
    }

    std::string name() const override { return "metal"; }
    protocol::DeviceDesc device() const override { return desc_; }

    TargetBuffer buffer_alloc(uint64_t bytes, uint32_t page_bytes) override {
        require_usable();
        // page_bytes <= l1_bytes and bytes <= dram_bytes: the server checked both.
        uint64_t rounded = (bytes + page_bytes - 1) / page_bytes * page_bytes;
        td::DeviceLocalBufferConfig local{.page_size = page_bytes, .buffer_type = tm::BufferType::DRAM};
        td::ReplicatedBufferConfig rep{.size = rounded};
        std::shared_ptr<td::MeshBuffer> buf;
        try {
            buf = td::MeshBuffer::create(rep, local, mesh_.get());
        } catch (const std::exception& e) {
            throw Error(ErrorStatus::MemoryAllocation,
                        "tt-metal: allocating " + std::to_string(rounded) + " bytes: " + e.what());
        }
        // What the allocator reserves: every bank holds ceil(pages / banks) pages, each rounded up
        // to the DRAM alignment (docs/protocol.md, alloc_buf), the unit stats reports.
        const uint64_t pages = rounded / page_bytes, banks = desc_.dram_banks ? desc_.dram_banks : 1;
        const uint64_t slot =
            (uint64_t(page_bytes) + desc_.dram_alignment - 1) / desc_.dram_alignment * desc_.dram_alignment;
        uint64_t id = next_buffer_++;
        buffers_[id] = Buf{buf, rounded, page_bytes, (pages + banks - 1) / banks * slot * banks};
        return {id, uint32_t(buf->address())};
    }

    void buffer_free(uint64_t handle) override {
        auto it = buffers_.find(handle);
        if (it == buffers_.end()) return;
        if (hung_) retired_.buffers.push_back(std::move(it->second.buf));  // freeing may wait for the hung queue
        buffers_.erase(it);
    }

    // Partial transfers move only the pages they touch. tt-metal moves a region of an
    // interleaved buffer when the region's offset and size are whole pages (tt-metal PR #16102;
    // ShardDataTransfer's region), so a range is widened to whole pages; a write that starts or
    // ends inside a page first reads that page (at most two pages) so the bytes around the range
    // stay as they were.
    void buffer_write(uint64_t handle, const void* src, uint64_t bytes, uint64_t offset) override {
        require_usable();
        Buf& b = buffers_.at(handle);
        const uint64_t page = b.page_bytes, first = offset / page * page,
                       end = (offset + bytes + page - 1) / page * page;
        const bool head_partial = offset != first, tail_partial = offset + bytes != end;
        if (!head_partial && !tail_partial) {
            transfer_pages(b, const_cast<void*>(src), first, end - first, true);
            return;
        }
        std::vector<uint8_t> staged(end - first);
        if (head_partial) transfer_pages(b, staged.data(), first, page, false);
        if (tail_partial && !(head_partial && end - page == first))
            transfer_pages(b, staged.data() + (end - page - first), end - page, page, false);
        std::memcpy(staged.data() + (offset - first), src, bytes);
        transfer_pages(b, staged.data(), first, end - first, true);
    }

    void buffer_read(uint64_t handle, void* dst, uint64_t bytes, uint64_t offset) override {
        require_usable();
        Buf& b = buffers_.at(handle);
        const uint64_t page = b.page_bytes, first = offset / page * page,
                       end = (offset + bytes + page - 1) / page * page;
        if (first == offset && end == offset + bytes) {
            transfer_pages(b, dst, first, end - first, false);
            return;
        }
        std::vector<uint8_t> staged(end - first);
        transfer_pages(b, staged.data(), first, end - first, false);
        std::memcpy(dst, staged.data() + (offset - first), bytes);
    }

    TargetProgram program_create(const protocol::Program& p, protocol::Grid grid, uint32_t protocol_id) override {
        require_usable();
        auto prog = std::make_shared<Prog>();
        prog->grid = grid;
        prog->protocol_id = protocol_id;
        const std::string name = "program " + std::to_string(protocol_id);
        tm::CoreRange cores({0, 0}, {grid.cols - 1, grid.rows - 1});
        tm::Program program = tm::CreateProgram();
        // Each piece is named in its error; the status comes from tt-metal's message
        // (metal_rules.cpp: a CB or kernel configuration tt-metal rejects is InvalidArgument).
        auto fail = [&](const std::string& what, const std::exception& e) {
            return Error(metal::classify_metal_error(e.what(), metal::MetalPhase::Build),
                         "tt-metal: " + name + ", " + what + ": " + e.what());
        };
        for (const protocol::CircularBuffer& cb : p.cbs) {
            try {
                // page_bytes x num_pages <= l1_bytes (the unreserved L1): the server checked it in 64 bits.
                tm::CircularBufferConfig cfg(cb.page_bytes * cb.num_pages, {{uint8_t(cb.index), to_metal(cb.format)}});
                cfg.set_page_size(uint8_t(cb.index), cb.page_bytes);
                tm::CreateCircularBuffer(program, cores, cfg);
            } catch (const std::exception& e) { throw fail("circular buffer " + std::to_string(cb.index), e); }
        }
        for (size_t i = 0; i < p.semaphores.size(); ++i) {
            try {
                tm::CreateSemaphore(program, cores, p.semaphores[i]);
            } catch (const std::exception& e) { throw fail("semaphore " + std::to_string(i), e); }
        }
        for (size_t i = 0; i < p.kernels.size(); ++i) {
            const protocol::Kernel& k = p.kernels[i];
            try {
                if (k.kind == protocol::KernelKind::compute) {
                    // One mode per CB, as tt-metal's programs size it (NUM_CIRCULAR_BUFFERS).
                    std::vector<UnpackToDestMode> unpack(NUM_CIRCULAR_BUFFERS, UnpackToDestMode::Default);
                    for (uint32_t cb : p.unpack_to_dest_fp32) {
                        if (cb >= unpack.size()) unpack.resize(cb + 1, UnpackToDestMode::Default);
                        unpack[cb] = UnpackToDestMode::UnpackToDestFp32;
                    }
                    tm::ComputeConfig cfg{.math_fidelity = to_metal(p.math_fidelity),
                                          .fp32_dest_acc_en = p.fp32_dest_acc,
                                          .dst_full_sync_en = p.dst_full_sync,
                                          .unpack_to_dest_mode = std::move(unpack),
                                          .math_approx_mode = p.math_approx,
                                          .compile_args = k.compile_args,
                                          .defines = k.defines};
                    prog->kernels.push_back(tm::CreateKernelFromString(program, k.source, cores, cfg));
                } else {
                    bool dm0 = k.kind == protocol::KernelKind::data_movement_0;
                    uint8_t noc = k.noc ? *k.noc : (dm0 ? 0 : 1);
                    tm::DataMovementConfig cfg{
                        .processor = dm0 ? tm::DataMovementProcessor::RISCV_0 : tm::DataMovementProcessor::RISCV_1,
                        .noc = noc == 0 ? tm::NOC::NOC_0 : tm::NOC::NOC_1,
                        .compile_args = k.compile_args,
                        .defines = k.defines};
                    prog->kernels.push_back(tm::CreateKernelFromString(program, k.source, cores, cfg));
                }
            } catch (const std::exception& e) { throw fail("kernel " + std::to_string(i), e); }
        }
#if !ZYX_TT_METAL_API_2026
        // Compile now, so that errors surface at compile_program and not at the first run. (From
        // the 2026 API on, CompileProgram is not public: kernels compile at the first launch, and
        // a build failure there is reported as KernelCompilation by program_run.)
        try {
            tm::detail::CompileProgram(mesh_.get(), program);
        } catch (const std::exception& e) { throw fail("compiling", e); }
#endif
        prog->workload.add_program(td::MeshCoordinateRange(mesh_->shape()), std::move(program));
        uint64_t id = next_program_++;
        programs_[id] = std::move(prog);
        return id;
    }

    void program_free(TargetProgram p) override {
        auto it = programs_.find(p);
        if (it == programs_.end()) return;
        if (hung_) retired_.programs.push_back(std::move(it->second));  // its workload may still be in the hung queue
        programs_.erase(it);
    }

    void program_run(TargetProgram p, const LaunchArgs& args) override {
        require_usable();
        std::shared_ptr<Prog> prog = programs_.at(p);
        const std::string name = "program " + std::to_string(prog->protocol_id);
        try {
            tm::Program& program = prog->workload.get_programs().begin()->second;
            for (size_t k = 0; k < args.size(); ++k)
                for (uint32_t y = 0; y < prog->grid.rows; ++y)
                    for (uint32_t x = 0; x < prog->grid.cols; ++x)
                        tm::SetRuntimeArgs(program, prog->kernels[k], tm::CoreCoord{x, y},
                                           args[k][y * prog->grid.cols + x]);
        } catch (const std::exception& e) {
            throw Error(metal::classify_metal_error(e.what(), metal::MetalPhase::Launch),
                        "tt-metal: " + name + ": setting runtime args: " + e.what());
        }
        // Enqueue and Finish block until the device is done; a hung kernel would block them for
        // ever. They run on a watchdog thread that holds its own references to the device and the
        // program, so that both outlive a timeout.
        try {
            std::shared_ptr<td::MeshDevice> mesh = mesh_;
            metal::run_bounded(name + " on tt-metal device " + std::to_string(device_id_), run_timeout_, [mesh, prog] {
                td::EnqueueMeshWorkload(mesh->mesh_command_queue(), prog->workload, false);
                td::Finish(mesh->mesh_command_queue());
            });
        } catch (const Error& e) {
            if (e.status() != ErrorStatus::Timeout) throw;
            hung_ = e.message();
            throw Error(ErrorStatus::Timeout,
                        "tt-metal: " + e.message() + " (set ZYX_TT_METAL_RUN_TIMEOUT_MS for longer launches); " +
                            "the device is hung and this runtime will not use it again: restart it");
        } catch (const std::exception& e) {
            throw Error(metal::classify_metal_error(e.what(), metal::MetalPhase::Launch),
                        "tt-metal: " + name + ": " + e.what());
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
        uint64_t bytes = 0;  // whole pages
        uint32_t page_bytes = 0;
        uint64_t device_bytes = 0;  // DRAM reserved over all banks
    };
    struct Prog {
        td::MeshWorkload workload;
        std::vector<tm::KernelHandle> kernels;
        protocol::Grid grid;
        uint32_t protocol_id = 0;  // named in errors
    };
    // Objects freed after a timeout: kept, never destroyed (see ~MetalTarget).
    struct RetiredObjects {
        std::vector<std::shared_ptr<td::MeshBuffer>> buffers;
        std::vector<std::shared_ptr<Prog>> programs;
    };
    struct Retired {
        std::shared_ptr<td::MeshDevice> mesh;
        std::unordered_map<uint64_t, std::shared_ptr<Prog>> programs;
        std::unordered_map<uint64_t, Buf> buffers;
        RetiredObjects freed;
    };

    // Fills desc_ from the opened device.
    void describe(const metal::MmioPciAddresses& mmio) {
        const bool blackhole = mesh_->arch() == ::tt::ARCH::BLACKHOLE;
        auto grid = mesh_->compute_with_storage_grid_size();  // harvest-aware worker grid
        desc_.arch = blackhole ? "blackhole" : "wormhole";
        desc_.grid = {uint32_t(grid.y), uint32_t(grid.x)};
        desc_.dram_banks = uint32_t(mesh_->num_dram_channels());
        desc_.dram_alignment = blackhole ? 64 : 32;
        // Circular buffers may use L1 only from the allocator's base up: below it sit firmware,
        // mailboxes and the kernel config area (tt-metalium/allocator.hpp).
        desc_.l1_bytes = metal::unreserved_l1_bytes(mesh_->l1_size_per_core(),
                                                    mesh_->allocator()->get_base_allocator_addr(tm::HalMemType::L1));
        desc_.num_cbs = blackhole ? 64 : 32;
        desc_.dram_bytes = uint64_t(mesh_->num_dram_channels()) * mesh_->dram_size_per_channel();
        desc_.name = desc_.arch;
        // The driver does not report GDDR6 capacity; known boards come from the PCI table. The
        // entry is the card tt-metal opened the chip through (chip ids do not follow PCI order).
        tm::IDevice* chip = mesh_->get_devices().front();
        metal::OpenedChip opened{.chip_id = int(chip->id()), .mmio_chip_id = int(tm::GetPCIeDeviceID(chip->id()))};
        const std::vector<PciBoard> boards = pci_boards();
        if (auto i = metal::board_for_chip(boards, opened, mmio); i && boards[*i].dram_bytes) {
            desc_.dram_bytes = boards[*i].dram_bytes;
            desc_.name = boards[*i].board;
        }
        desc_.data_formats = {protocol::DataFormat::Float32,   protocol::DataFormat::Float16,
                              protocol::DataFormat::Float16_b, protocol::DataFormat::Bfp8_b,
                              protocol::DataFormat::Int32,     protocol::DataFormat::UInt32,
                              protocol::DataFormat::UInt16,    protocol::DataFormat::UInt8};
    }

    // After a launch timed out the device cannot be trusted: every request that would touch it
    // fails at once, naming the launch that hung, instead of hanging again.
    void require_usable() const {
        if (hung_)
            throw Error(ErrorStatus::Timeout,
                        "tt-metal device " + std::to_string(device_id_) + " is hung (" + *hung_ +
                            "); this runtime no longer uses it: restart it");
    }

    // Blocking transfer of [offset, offset + bytes) (whole pages) between `host` and the one
    // shard of the unit mesh; the whole buffer goes without a region.
    void transfer_pages(Buf& b, void* host, uint64_t offset, uint64_t bytes, bool write) {
        std::optional<tm::BufferRegion> region;
        if (offset != 0 || bytes != b.bytes) region = tm::BufferRegion(offset, bytes);
#if ZYX_TT_METAL_API_2026
        std::vector<td::ShardDataTransfer> t;
        t.push_back(td::ShardDataTransfer{td::MeshCoordinate(0, 0)}.host_data(host).region(region));
#else
        std::vector<td::MeshCommandQueue::ShardDataTransfer> t = {
            {.shard_coord = td::MeshCoordinate(0, 0), .host_data = host, .region = region}};
#endif
        try {
            if (write)
                mesh_->mesh_command_queue().enqueue_write_shards(b.buf, t, /*blocking=*/true);
            else
                mesh_->mesh_command_queue().enqueue_read_shards(t, b.buf, /*blocking=*/true);
        } catch (const std::exception& e) {
            throw Error(write ? ErrorStatus::MemoryCopyH2P : ErrorStatus::MemoryCopyP2H,
                        std::string("tt-metal: ") + (write ? "writing " : "reading ") + std::to_string(bytes) +
                            " bytes at offset " + std::to_string(offset) + ": " + e.what());
        }
    }

    uint32_t device_id_ = 0;
    std::chrono::milliseconds run_timeout_{metal::kDefaultRunTimeout};
    std::shared_ptr<td::MeshDevice> mesh_;
    protocol::DeviceDesc desc_;
    std::unordered_map<uint64_t, Buf> buffers_;
    std::unordered_map<uint64_t, std::shared_ptr<Prog>> programs_;
    RetiredObjects retired_;
    std::optional<std::string> hung_;  // the timeout that made the device unusable
    uint64_t next_buffer_ = 1, next_program_ = 1, launches_ = 0;
};

}  // namespace

std::unique_ptr<Target> metal_target_create(const TargetOptions& o) { return std::make_unique<MetalTarget>(o); }

}  // namespace zyx::tt::runtime
