// tt-metal's host API (tt-metalium/host_api.hpp) over the Tensix emulator: the legacy
// single-device flow of tt-metal's programming examples —
//
//   IDevice* device = CreateDevice(0);
//   CommandQueue& cq = device->command_queue();
//   Program program = CreateProgram();
//   auto dram = CreateBuffer(InterleavedBufferConfig{device, bytes, tile_bytes, BufferType::DRAM});
//   CreateCircularBuffer(program, core, CircularBufferConfig(2 * tile_bytes, {{tt::CBIndex::c_0,
//                        tt::DataFormat::Float16_b}}).set_page_size(tt::CBIndex::c_0, tile_bytes));
//   KernelHandle reader = CreateKernel(program, "kernels/reader.cpp", core, ReaderDataMovementConfig{});
//   SetRuntimeArgs(program, reader, core, {dram->address(), n_tiles});
//   EnqueueWriteBuffer(cq, dram, host, false);
//   EnqueueProgram(cq, program, false);
//   Finish(cq);
//   EnqueueReadBuffer(cq, dram, result, true);
//   CloseDevice(device);
//
// Names and signatures follow tt-metal's public headers of mid-2025 (IDevice, CommandQueue; the
// form tt-metal's programming examples used before they moved to MeshDevice): emulator/README.md
// ("tt-metal host programs on the emulator") lists what is provided and the versions checked.
//
// Errors: what tt-metal reports with TT_FATAL / TT_THROW (bad CB sizes, a core outside the
// grid, a CB region beyond L1, too many runtime args, unknown kernel handles, a failed kernel
// compile or launch) throws tt::exception (a std::runtime_error, tt-metalium/assert.hpp) whose
// message carries the emulator's own, naming the kernel, core, CB or buffer. What the emulator
// does not model throws tt::exception whose message starts "Unsupported:" and category() is
// "unsupported".
//
// Kernel paths (CreateKernel): as tt-metal resolves them — an absolute path, else relative to
// the current directory, else relative to $TT_METAL_KERNEL_PATH, else relative to $TT_METAL_HOME;
// the first that names an existing file wins, and the error lists every place tried. The file
// is read at CreateKernel; #include "…" of files beside the kernel is not resolved (the emulator
// compiles the text): kernels include the API headers only.
//
// DPRINT: with TT_METAL_DPRINT_CORES set (any value: every core is printed), each kernel line
// is written to stdout as tt-metal's print server writes it, "0:(x=0,y=0):BR: text" (BR, NC,
// TR0, TR1, TR2).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <variant>
#include <vector>

#include "hostdevcommon/common_values.hpp"
#include <tt-metalium/assert.hpp>
#include <tt-metalium/buffer.hpp>
#include <tt-metalium/circular_buffer_config.hpp>
#include <tt-metalium/command_queue.hpp>
#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/device.hpp>
#include <tt-metalium/kernel_types.hpp>
#include <tt-metalium/program.hpp>
#include <tt-metalium/runtime_args_data.hpp>
#include <tt_stl/span.hpp>
#include <tt-logger/tt-logger.hpp>

namespace tt::tt_metal {

using SubDeviceId = uint8_t;
struct DispatchCoreConfig {};

// ---- devices ----------------------------------------------------------------------------------
size_t GetNumAvailableDevices();  // 1
size_t GetNumPCIeDevices();       // 1
// The chip through which device_id is reached over PCIe: the emulated chip is its own (0).
ChipId GetPCIeDeviceID(ChipId device_id);
// Opens emulated device `device_id` (only 0 exists); the other parameters are accepted and
// ignored. Throws when device 0 is already open.
IDevice* CreateDevice(ChipId device_id, uint8_t num_hw_cqs = 1, size_t l1_small_size = DEFAULT_L1_SMALL_SIZE,
                      size_t trace_region_size = DEFAULT_TRACE_REGION_SIZE,
                      const DispatchCoreConfig& dispatch_core_config = DispatchCoreConfig{},
                      const std::vector<uint32_t>& l1_bank_remap = {}, size_t worker_l1_size = DEFAULT_WORKER_L1_SIZE);
// Finishes outstanding work (throwing a failed program's error after the device is closed)
// and frees the device.
bool CloseDevice(IDevice* device);

// ---- programs ---------------------------------------------------------------------------------
Program CreateProgram();

using CoreSpec = std::variant<CoreCoord, CoreRange, CoreRangeSet>;
using KernelConfig = std::variant<DataMovementConfig, ComputeConfig, EthernetConfig>;

// Adds the kernel in file `file_name` (resolved as the top of this file says). The kernel's
// name in errors is the file name without directory and extension.
KernelHandle CreateKernel(Program& program, const std::string& file_name, const CoreSpec& core_spec,
                          const KernelConfig& config);
// Adds a kernel from its source text (named "kernel_<handle>" in errors).
KernelHandle CreateKernelFromString(Program& program, const std::string& kernel_src_code, const CoreSpec& core_spec,
                                    const KernelConfig& config);

CBHandle CreateCircularBuffer(Program& program, const CoreSpec& core_spec, const CircularBufferConfig& config);
const CircularBufferConfig& GetCircularBufferConfig(Program& program, CBHandle cb_handle);

// Returns the semaphore id kernels pass to get_semaphore(id). Only CoreType::WORKER.
uint32_t CreateSemaphore(Program& program, const std::variant<CoreRange, CoreRangeSet>& core_spec,
                         uint32_t initial_value, CoreType core_type = CoreType::WORKER);

// ---- buffers ----------------------------------------------------------------------------------
std::shared_ptr<Buffer> CreateBuffer(const InterleavedBufferConfig& config);
std::shared_ptr<Buffer> CreateBuffer(const ShardedBufferConfig& config);  // L1 only
void DeallocateBuffer(Buffer& buffer);

// ---- runtime args -----------------------------------------------------------------------------
// The same args on every core of core_spec. Each core must run the kernel; unique + common args
// at most max_runtime_args (341).
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    tt::stl::Span<const uint32_t> runtime_args);
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreSpec& core_spec,
                    std::initializer_list<uint32_t> runtime_args);
// Different args per core: runtime_args[i] for core_spec[i].
void SetRuntimeArgs(const Program& program, KernelHandle kernel, const std::vector<CoreCoord>& core_spec,
                    const std::vector<std::vector<uint32_t>>& runtime_args);
void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, tt::stl::Span<const uint32_t> runtime_args);
void SetCommonRuntimeArgs(const Program& program, KernelHandle kernel, std::initializer_list<uint32_t> runtime_args);
// The args set for the kernel on that core (throws when none were set), writable in place.
RuntimeArgsData& GetRuntimeArgs(const Program& program, KernelHandle kernel, const CoreCoord& logical_core);
RuntimeArgsData& GetCommonRuntimeArgs(const Program& program, KernelHandle kernel);

// ---- the command queue ------------------------------------------------------------------------
using BufferRef = std::variant<std::reference_wrapper<Buffer>, std::shared_ptr<Buffer>>;
using HostDataType =
    std::variant<const std::shared_ptr<std::vector<uint8_t>>, const std::shared_ptr<std::vector<uint16_t>>,
                 const std::shared_ptr<std::vector<int32_t>>, const std::shared_ptr<std::vector<uint32_t>>,
                 const std::shared_ptr<std::vector<float>>, const void*>;

// Writes the whole buffer (buffer.size() bytes) from host memory.
void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, std::vector<uint32_t>& src, bool blocking);
void EnqueueWriteBuffer(CommandQueue& cq, const BufferRef& buffer, HostDataType src, bool blocking);
// Reads the whole buffer into dst (buffer.size() bytes).
void EnqueueReadBuffer(CommandQueue& cq, const BufferRef& buffer, void* dst, bool blocking);
// Resizes dst to the buffer's pages and reads them.
template <typename DType>
void EnqueueReadBuffer(CommandQueue& cq, Buffer& buffer, std::vector<DType>& dst, bool blocking) {
    dst.resize(buffer.page_size() * buffer.num_pages() / sizeof(DType));
    EnqueueReadBuffer(cq, BufferRef(std::ref(buffer)), static_cast<void*>(dst.data()), blocking);
}
template <typename DType>
void EnqueueReadBuffer(CommandQueue& cq, const std::shared_ptr<Buffer>& buffer, std::vector<DType>& dst,
                       bool blocking) {
    EnqueueReadBuffer(cq, *buffer, dst, blocking);
}
// Compiles the program for this device on first use, sets its runtime args and starts it.
void EnqueueProgram(CommandQueue& cq, Program& program, bool blocking);
// Waits for everything enqueued; throws what a program failed with.
void Finish(CommandQueue& cq, tt::stl::Span<const SubDeviceId> sub_device_ids = {});

}  // namespace tt::tt_metal
