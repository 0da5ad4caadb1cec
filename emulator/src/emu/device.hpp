// Host-side API of the Tensix emulator: the calls a TT-Metalium host program makes (create
// buffers, build a program from kernels and circular buffers, set runtime args, launch, wait),
// shaped after tt-metal's host API but as plain structs. The device runtime's emulator target
// and the example programs under examples/ are its users.
//
//   zyx::emu::Device dev(zyx::emu::preset("wormhole-n150"));
//   auto a = dev.buffer_create(n_tiles * 2048, 2048);           // interleaved DRAM, page = tile
//   dev.buffer_write(a, host.data(), host.size() * 2);
//   zyx::emu::ProgramSpec spec;
//   spec.cbs.push_back({.index = 0, .format = DataFormat::Float16_b, .page_bytes = 2048, .num_pages = 2, .cores = all});
//   spec.kernels.push_back({.name = "reader", .source = reader_src, .kind = KernelKind::data_movement_0, .cores = all,
//                           .compile_args = {…}});
//   …
//   auto prog = dev.program_create(spec);                       // compiles every kernel (cached)
//   dev.program_set_runtime_args(prog, 0, {0, 0}, {a.address, n_tiles});
//   dev.program_launch(prog);
//   dev.wait();                                                 // rethrows the first check failure
//
// Every check failure is a zyx::Error (status KernelFault, Deadlock, KernelLaunch, …) whose
// message names the kernel, the core, the processor and the object (CB index, address).
// After a failed launch the device stays usable: buffers keep their contents as the kernels left
// them, other programs can still be launched.
//
// Calls behave like commands on one in-order queue: a buffer or program call made while a launch
// is in flight first waits for that launch to finish (its error is still kept for wait()). A
// Device is used from one host thread at a time; kernels run on the device's own worker threads
// (DeviceOptions::threads). The emulator's design, checks and presets: emulator/README.md.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tenstorrent_names.hpp"

namespace zyx::emu {

// The shared Tenstorrent vocabulary (core/tenstorrent_names.hpp) under the emulator's names:
// tt::DataFormat codes with tt-metal's values, KernelKind, MathFidelity, and the format facts
// tile_size_bytes (bytes of one 32×32 tile: Float16_b 2048, Float32 4096, Bfp8_b 1088 …) and
// data_format_name.
using DataFormat = ::zyx::tt::DataFormat;
using KernelKind = ::zyx::tt::KernelKind;
using MathFidelity = ::zyx::tt::MathFidelity;
using UnpackToDestMode = ::zyx::tt::UnpackToDestMode;
using ::zyx::tt::data_format_name;
using ::zyx::tt::tile_size_bytes;

enum class Arch : uint8_t { Wormhole, Blackhole };

// One emulated chip. Figures and their sources are in emulator/README.md.
struct DeviceSpec {
    std::string name;  // "wormhole-n150", "blackhole-p100a", "blackhole-p150"
    Arch arch;
    uint32_t grid_x, grid_y;      // worker (Tensix) grid as tt-metal reports it, harvesting applied
    uint32_t l1_bytes;            // usable L1 per core (1,499,136 on WH and BH)
    uint32_t l1_unreserved_base;  // first L1 byte available to circular buffers
    uint32_t dram_banks;          // interleaving banks (WH 12, BH p100a 7, BH p150 8)
    uint64_t dram_bank_bytes;     // bytes per bank
    uint32_t dram_alignment;      // WH 32 B, BH 64 B
    uint32_t l1_alignment;        // 16 B
    uint32_t num_cbs;             // WH 32, BH 64
    uint32_t noc_max_burst;       // WH 8 KiB, BH 16 KiB
    const char* source;           // where the figures come from
};

// Known presets: "wormhole-n150", "blackhole-p100a", "blackhole-p150". Throws InvalidArgument
// naming the known presets for anything else.
const DeviceSpec& preset(const std::string& name);
std::vector<std::string> preset_names();

struct CoreCoord {
    uint32_t x = 0, y = 0;
    bool operator==(const CoreCoord&) const = default;
};
// Inclusive rectangle of logical cores, as tt-metal's CoreRange.
struct CoreRange {
    CoreCoord start, end;
};
using CoreRangeSet = std::vector<CoreRange>;

// One CB config. `aliases` are further CB indices sharing its L1 region, as tt-metal's
// CircularBufferConfig whose data_format_spec names several indices: each index keeps its own
// format, page size, page counters and read/write pointers; its page count is the region's
// size (page_bytes * num_pages) over its own page size. `buffer` set: the region is not placed in
// the static CB area but at that L1 buffer's address on each core (tt-metal's
// set_globally_allocated_address; a sharded buffer's shard), resolved at every launch.
struct CircularBufferSpec {
    uint32_t index = 0;  // CB id, below DeviceSpec::num_cbs
    DataFormat format = DataFormat::Float16_b;
    uint32_t page_bytes = 0;  // % 4 == 0
    uint32_t num_pages = 0;   // total size = page_bytes * num_pages
    CoreRangeSet cores;
    struct Alias {
        uint32_t index = 0;
        DataFormat format = DataFormat::Float16_b;
        uint32_t page_bytes = 0;  // % 4 == 0, divides page_bytes * num_pages
    };
    std::vector<Alias> aliases;
    std::optional<uint32_t> buffer;  // id of an L1 buffer
};

struct ComputeConfig {
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    bool math_approx_mode = false;
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    // Per CB index (entries past the end: Default); at most the device's CB count.
    std::vector<UnpackToDestMode> unpack_to_dest_mode;
    // Sets CB cb's mode to UnpackToDestFp32 (growing the vector as needed).
    void unpack_to_dest_fp32(uint32_t cb) {
        if (unpack_to_dest_mode.size() <= cb) unpack_to_dest_mode.resize(cb + 1, UnpackToDestMode::Default);
        unpack_to_dest_mode[cb] = UnpackToDestMode::UnpackToDestFp32;
    }
};

struct KernelSpec {
    std::string name;                               // shown in every error that concerns this kernel
    std::string source;                             // the kernel's C++ text (as CreateKernelFromString takes it)
    KernelKind kind = KernelKind::data_movement_0;  // which processors (core/tenstorrent_names.hpp)
    CoreRangeSet cores;
    std::vector<uint32_t> compile_args;          // → get_compile_time_arg_val(i)
    std::map<std::string, std::string> defines;  // → -D name=value
    // tt-metal's named_compile_args → get_named_compile_time_arg_val("name"); passed as the
    // KERNEL_COMPILE_TIME_ARG_MAP define ({"name",value},… sorted by name), which must then not
    // also be given in `defines`.
    std::map<std::string, uint32_t> named_compile_args;
    std::optional<uint8_t> noc;  // default: 0 for data_movement_0, 1 for data_movement_1
    ComputeConfig compute;       // compute kernels only
};

struct SemaphoreSpec {
    CoreRangeSet cores;
    uint32_t initial_value = 0;
};

struct ProgramSpec {
    std::vector<CircularBufferSpec> cbs;
    std::vector<KernelSpec> kernels;        // kernel id = index in this vector
    std::vector<SemaphoreSpec> semaphores;  // semaphore id = index in this vector
};

enum class BufferType : uint8_t { Dram, L1 };
enum class BufferLayout : uint8_t { Interleaved, HeightSharded, WidthSharded, BlockSharded };
enum class ShardOrientation : uint8_t { RowMajor, ColMajor };

// A sharded buffer's layout, as tt-metal's ShardSpecBuffer: the buffer is a 2-D tensor of
// tensor_shape_in_pages[0] x [1] pages (row-major page ids), cut into shards of shard_shape
// elements (page_shape elements per page, so shard_shape / page_shape pages per shard). Shards
// are numbered row-major over the shard grid; shard s goes to the s-th core of `cores` taken
// row by row (RowMajor) or column by column (ColMajor) within each range, and holds its pages
// row-major with the full shard width as the stride (a partial edge shard leaves gaps).
struct ShardSpec {
    CoreRangeSet cores;
    std::array<uint32_t, 2> shard_shape{};  // elements: height, width
    ShardOrientation orientation = ShardOrientation::RowMajor;
    std::array<uint32_t, 2> page_shape{};             // elements per page: height, width
    std::array<uint32_t, 2> tensor_shape_in_pages{};  // pages: height, width
};

struct BufferConfig {
    uint64_t size = 0;
    uint32_t page_bytes = 0;
    BufferType type = BufferType::Dram;
    BufferLayout layout = BufferLayout::Interleaved;  // sharded layouts: L1 only
    ShardSpec shard;                                  // sharded layouts only
};

// A device buffer; `address` is what kernels get as its base, the same in every bank.
// - DRAM interleaved: page i in bank i % dram_banks at address + (i / dram_banks) *
//   align(page_bytes, dram_alignment).
// - L1 interleaved: L1 bank b is worker core b in row-major order over the grid (tt-metal's
//   L1 banking allocator, one bank per worker core); page i on bank i % banks at
//   address + (i / banks) * align(page_bytes, l1_alignment).
// - L1 sharded: page i on the core of its shard at address + slot * align(page_bytes,
//   l1_alignment) (ShardSpec).
// L1 addresses are tt-metal's: offsets into a core's L1, allocated top-down from the end of L1
// (the same range reserved on every core, whatever the layout), above the CB region. Kernels use
// them with the NoC (get_noc_addr, noc_async_read/write destinations and sources on their own
// core) and through CBs placed on the buffer; they are not host pointers a kernel can
// dereference (get_write_ptr of such a CB is).
struct Buffer {
    uint32_t id = 0;
    uint32_t address = 0;
    uint64_t size = 0;
    uint32_t page_bytes = 0;
    BufferType type = BufferType::Dram;
    BufferLayout layout = BufferLayout::Interleaved;
};

// Where one page of a buffer lives: DRAM bank `bank`, or L1 of logical core `core` (L1 bank
// `bank` for interleaved buffers, the shard index for sharded ones), at `address`.
struct PageLocation {
    BufferType type = BufferType::Dram;
    uint32_t bank = 0;
    CoreCoord core;
    uint32_t address = 0;
};

using ProgramId = uint32_t;

// TensorAccessorArgs config bits (tt-metal ArgConfig): Sharded = 1, IsDram = 2.
inline constexpr uint32_t kTensorAccessorSharded = 1;
inline constexpr uint32_t kTensorAccessorIsDram = 2;

// Determinism contract (emulator/README.md, "Determinism"):
// - A race-free program (every two accesses by different processors to the same bytes, one of
//   them a write, ordered by CB hand-over, semaphores or NoC barriers) gives identical results
//   run to run, for every `threads` value and every seed, the default options included.
//   When several cores fault in one launch, the lowest (core, processor) is reported.
// - A seeded run reproduces exactly, racy or not: it runs on one worker thread whatever
//   `threads` says, so the seed alone fixes the schedule. threads = 1 without a seed is one
//   fixed schedule too.
// - Two cores touching the same DRAM or L1 bytes in one launch, one of them writing, with no
//   semaphore ordering the two, is an error (KernelFault naming both kernels, cores, processors
//   and the bytes: bank and buffer pages, or core and CB pages), unless check_races is off.
//   Plain loads and stores and races inside one core are not seen (emu/races.hpp).
struct DeviceOptions {
    unsigned threads = 0;                   // host worker threads for cores; 0 = hardware concurrency
    std::optional<uint64_t> schedule_seed;  // set: seeded random fiber schedule and NoC completion, one worker
    std::string trace_path;                 // non-empty: write a Chrome/Perfetto JSON trace of each launch
    // The race check (README "Determinism"): two cores touching the same DRAM or L1 bytes in one
    // launch, one of them writing, unordered by semaphores, fail the launch. Off: not looked for.
    bool check_races = true;
    // Set: each completed DPRINT / DEVICE_PRINT line (without its "\n") is also handed here, with
    // the logical core and the processor (0 BRISC, 1 NCRISC, 2 TRISC0, 3 TRISC1, 4 TRISC2);
    // ZYX_DEBUG=emu logging is unchanged. Called from the device's worker threads, possibly at
    // the same time for different cores: the callee serialises what it shares. It must not
    // throw or call back into the Device. (The tt-metal host API layer, emulator/compat, prints
    // through it as tt-metal's print server does.)
    std::function<void(CoreCoord core, unsigned processor, std::string_view line)> dprint_sink;
};

struct DeviceStats {
    uint64_t dram_bytes_total = 0;
    uint64_t dram_bytes_allocated = 0;
    uint32_t buffers = 0;
    uint32_t programs = 0;
    uint64_t launches = 0;
};

class Device {
public:
    // A spec other than a preset is checked against what the emulator can model (grid within
    // the NoC coordinates, at most 64 CBs and 64 DRAM banks, power-of-two alignments, L1 that
    // fits its window); InvalidArgument names the field otherwise.
    explicit Device(const DeviceSpec& spec, const DeviceOptions& options = {});
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const DeviceSpec& spec() const;

    // NoC coordinates of a logical worker core (what kernels see in my_x/my_y and pass to
    // get_noc_addr), as tt-metal's worker_core_from_logical_core. Wormhole: logical + 18
    // (translated coordinates); Blackhole: the NoC0 column/row of the Tensix.
    CoreCoord worker_core(CoreCoord logical) const;
    // NoC coordinates of a DRAM bank (column 0 of the NoC grid in this emulator).
    CoreCoord dram_bank_core(uint32_t bank) const;
    // Logical core of L1 bank `bank` (row-major over the grid; grid_x * grid_y banks).
    CoreCoord l1_bank_core(uint32_t bank) const;
    // Compile-time args a kernel's TensorAccessorArgs<offset>() reads for this buffer, as
    // tt-metal's TensorAccessorArgs(buffer).append_to(ct_args) appends them for an interleaved
    // buffer: {ArgConfig bits (IsDram = 2 for DRAM, 0 for L1), aligned page size}. Sharded
    // buffers throw Unsupported (kernels reach their shards through CBs placed on the buffer).
    std::vector<uint32_t> tensor_accessor_args(uint32_t buffer_id) const;

    // Allocates an interleaved DRAM buffer of `size` bytes split into pages of `page_bytes`.
    // Throws MemoryAllocation when size is 0 or the banks are full, InvalidArgument for a bad page.
    Buffer buffer_create(uint64_t size, uint32_t page_bytes);
    // Any buffer (BufferConfig). Throws MemoryAllocation when the banks / L1 are full,
    // InvalidArgument naming the field for a bad page, shard spec or layout.
    Buffer buffer_create(const BufferConfig& config);
    // Where page `page` of a buffer lives (InvalidArgument past the end).
    PageLocation buffer_page_location(uint32_t buffer_id, uint64_t page) const;
    // Frees a buffer; throws MemoryDeallocation for an unknown id.
    void buffer_free(uint32_t buffer_id);
    // Host → device and back; bytes are the buffer's logical bytes (pages back to back).
    // Throws MemoryCopyH2P / MemoryCopyP2H when offset + bytes exceeds the buffer.
    void buffer_write(uint32_t buffer_id, const void* src, uint64_t bytes, uint64_t offset = 0);
    void buffer_read(uint32_t buffer_id, void* dst, uint64_t bytes, uint64_t offset = 0);
    const Buffer& buffer(uint32_t buffer_id) const;

    // Validates the program (CB sizes and counts, L1 fit, core ranges inside the grid) and
    // compiles every kernel through the JIT cache. Throws KernelCompilation with the compiler's
    // message, or InvalidArgument naming the CB / kernel / core range at fault.
    ProgramId program_create(const ProgramSpec& spec);
    void program_free(ProgramId program);

    // Runtime args of one kernel on one core (at most 341 unique + common words per kernel).
    void program_set_runtime_args(ProgramId program, uint32_t kernel, CoreCoord core, std::vector<uint32_t> args);
    void program_set_common_runtime_args(ProgramId program, uint32_t kernel, std::vector<uint32_t> args);

    // Starts the program on every core it names. Returns at once; wait() finishes it. Throws
    // InvalidArgument (before starting) when a statically placed CB overlaps a live L1 buffer
    // ("statically allocated circular buffers … clash with L1 buffers", naming the CB, the core
    // and the buffer) or a CB placed on a buffer names a freed or non-L1 buffer or outgrows it.
    void program_launch(ProgramId program);
    // Blocks until the launched program has finished; rethrows the first error of the launch
    // (check failure, deadlock report, crash report). One launch is in flight at a time.
    void wait();

    DeviceStats stats() const;

    struct Impl;  // opaque engine state (emulator/src/emu/device_impl.hpp)

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace zyx::emu
