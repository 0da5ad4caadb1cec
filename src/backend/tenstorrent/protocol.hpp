// The zyx-tt-runtime protocol in C++ types: the one definition of the wire format that both the
// runtime (which parses requests) and the client (which writes them) use.
//
// docs/protocol.md is the specification; this header mirrors it. In short:
//   - the client writes one JSON object per line to the runtime's stdin, the runtime answers each
//     with one JSON object per line on its stdout, in order;
//   - every response has "ok"; a failure is {"ok":false,"error":{"status":…,"message":…}} with a
//     status named by zyx::error_status_name;
//   - compile_program is followed by the kernel sources as raw bytes (lengths in the JSON), then
//     one '\n';
//   - bulk data moves through a shared-memory staging arena that the client creates and the
//     runtime maps (arena_map / arena_resize); write_buf and read_buf name arena offsets.
//
// parse_request() is strict: a missing field, a field of the wrong JSON type, a number that does
// not fit its integer type, an unknown name, or a limit exceeded throws zyx::Error(Protocol or
// InvalidArgument) whose message names the command and the field. It never touches a device, so
// it is what the fuzz target exercises.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/tenstorrent_names.hpp"

namespace zyx::tt::protocol {

// Bumped on any incompatible change; hello refuses a client that speaks another version.
inline constexpr uint32_t kVersion = 1;

// Limits the runtime enforces before it reads or allocates anything.
inline constexpr size_t kMaxLineBytes = 1u << 20;       // one request line, newline excluded
inline constexpr uint64_t kMaxSourceBytes = 16u << 20;  // one kernel source
inline constexpr size_t kMaxKernels = 3;                // one per processor kind
inline constexpr size_t kMaxRuntimeArgs = 341;          // per kernel per core (tt-metal's limit)
inline constexpr size_t kMaxCompileArgs = 256;
inline constexpr size_t kMaxLaunchBuffers = 64;  // inputs + outputs of one run
inline constexpr size_t kMaxScalars = 256;
inline constexpr size_t kMaxCircularBuffers = 64;
inline constexpr size_t kMaxSemaphores = 16;

enum class Command : uint8_t {
    hello,            // version handshake; device facts
    ping,             // empty round trip
    arena_map,        // map the client's staging arena by name
    arena_resize,     // remap the arena after the client grew it
    alloc_buf,        // allocate an interleaved DRAM buffer
    free_buf,         // free it
    write_buf,        // arena → buffer
    read_buf,         // buffer → arena
    copy_buf,         // buffer → buffer on the same device
    compile_program,  // compile kernels + circular buffers into a program (sources follow)
    run,              // launch a program with buffers, scalars and a grid
    release_program,  // drop a program
    stats,            // counters
    exit,             // answer, then end the process
};
std::string_view command_name(Command c);

// The Tenstorrent vocabulary of the protocol is the shared one (core/tenstorrent_names.hpp):
// tt::DataFormat (on the wire the names of kWireDataFormats), the kernel kinds data_movement_0 =
// BRISC (RISCV_0, NoC 0 by default), data_movement_1 = NCRISC (RISCV_1, NoC 1 by default),
// compute = the three TRISCs, and the math fidelities. The wire carries their names only.
using DataFormat = ::zyx::tt::DataFormat;
using KernelKind = ::zyx::tt::KernelKind;
using MathFidelity = ::zyx::tt::MathFidelity;
using ::zyx::tt::data_format_from_name;
using ::zyx::tt::data_format_name;
using ::zyx::tt::kernel_kind_from_name;
using ::zyx::tt::kernel_kind_name;
using ::zyx::tt::math_fidelity_from_name;
using ::zyx::tt::math_fidelity_name;

// Where one runtime-arg word of a kernel comes from at launch. The code generator describes each
// kernel's runtime args as a list of these; `run` turns the list into the words of every core.
enum class ArgSource : uint8_t {
    literal,         // `value` itself
    input_address,   // device address of launch input buffer `value`
    output_address,  // device address of launch output buffer `value`
    input_pages,     // number of pages of input buffer `value` (= tiles when page = tile)
    output_pages,    // number of pages of output buffer `value`
    input_bytes,     // size in bytes of input buffer `value`
    output_bytes,    // size in bytes of output buffer `value`
    scalar,          // launch scalar `value` (32 raw bits)
    core_x,          // this core's logical x (column), 0 ≤ x < grid cols
    core_y,          // this core's logical y (row), 0 ≤ y < grid rows
    core_index,      // y * cols + x: this core's rank in the launch grid
    num_cores,       // rows * cols of the launch grid
    grid_rows,       // rows of the launch grid
    grid_cols,       // cols of the launch grid
};
std::string_view arg_source_name(ArgSource s);
// True for the sources whose `value` is an index or a literal.
bool arg_source_has_value(ArgSource s);

struct RuntimeArg {
    ArgSource source = ArgSource::literal;
    uint32_t value = 0;  // index (input/output/scalar) or the literal; 0 otherwise
    bool operator==(const RuntimeArg&) const = default;
};

struct CircularBuffer {
    uint32_t index = 0;  // CB id, below the device's num_cbs
    DataFormat format = DataFormat::Float16_b;
    uint32_t page_bytes = 0;
    uint32_t num_pages = 0;
    bool operator==(const CircularBuffer&) const = default;
};

struct Kernel {
    std::string name;  // shown in every error about this kernel
    KernelKind kind = KernelKind::data_movement_0;
    std::string source;  // C++ text; on the wire it follows the JSON line
    std::vector<uint32_t> compile_args;
    std::map<std::string, std::string> defines;
    std::vector<RuntimeArg> runtime_args;  // the per-core runtime-arg layout
    std::optional<uint8_t> noc;            // 0 or 1; default by kind
    bool operator==(const Kernel&) const = default;
};

// The grid of cores a program runs on: cores (x, y) with 0 ≤ x < cols, 0 ≤ y < rows. Kernel group
// axis 0 maps to rows, axis 1 to cols.
struct Grid {
    uint32_t rows = 1;
    uint32_t cols = 1;
    bool operator==(const Grid&) const = default;
};

struct Program {
    std::vector<Kernel> kernels;
    std::vector<CircularBuffer> cbs;
    std::vector<uint32_t> semaphores;  // initial values; semaphore id = index
    Grid grid;                         // the grid it is compiled for (run may pick another)
    uint32_t num_inputs = 0;           // buffers a run passes as "inputs"
    uint32_t num_outputs = 0;          // … and as "outputs"
    uint32_t num_scalars = 0;          // 32-bit scalar values a run passes
    bool fp32_dest_acc = false;        // compute: DST holds fp32
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool math_approx = false;
    bool dst_full_sync = false;
    // compute: CBs copy_tile unpacks straight into DST (tt-metal UnpackToDestMode::UnpackToDestFp32:
    // Float32 tiles exact, not TF32; the FPU must not read them). Each names a declared CB.
    std::vector<uint32_t> unpack_to_dest_fp32;
    bool operator==(const Program&) const = default;
};

// One request. Which fields are meaningful depends on `cmd` (see docs/protocol.md); the others
// keep their defaults and are not written by request_json.
struct Request {
    Command cmd = Command::ping;
    std::optional<uint64_t> seq;         // echoed in the response when present
    uint32_t version = kVersion;         // hello
    std::string arena_name;              // arena_map: POSIX shm name, "/zyx-…"
    uint64_t arena_bytes = 0;            // arena_map, arena_resize
    uint64_t bytes = 0;                  // alloc_buf, write_buf, read_buf, copy_buf
    uint32_t page_bytes = 0;             // alloc_buf (0 = absent: the runtime's default, 4096)
    uint32_t buffer = 0;                 // free_buf, write_buf, read_buf; copy_buf destination
    uint32_t src_buffer = 0;             // copy_buf source
    uint64_t offset = 0;                 // write_buf, read_buf: byte offset in the buffer
    uint64_t arena_offset = 0;           // write_buf, read_buf: byte offset in the arena
    uint32_t program_id = 0;             // run, release_program
    Program program;                     // compile_program (kernel sources filled in separately)
    std::vector<uint64_t> source_bytes;  // compile_program: length of each kernel's source on the wire
    std::vector<uint32_t> inputs;        // run: buffer ids
    std::vector<uint32_t> outputs;       // run: buffer ids
    std::vector<uint32_t> scalars;       // run: raw 32-bit values
    std::optional<Grid> grid;            // run: launch grid (default: the compiled grid)
};

// Parses one request line (without its '\n'). For compile_program the kernels' `source` fields
// stay empty and `source_bytes` holds the declared lengths; the caller reads the bytes.
// = request_from_json(parse_request_json(line)).
Request parse_request(std::string_view line);
// The first step: the line as a JSON value. Throws Error(Protocol) for a line longer than
// kMaxLineBytes, nesting deeper than 32 levels, malformed JSON, or a key that appears twice in
// one object (naming the key: JSON parsers disagree on which of the two wins, so neither does).
nlohmann::json parse_request_json(std::string_view line);
// The second step: the request a JSON value describes (strict, as above).
Request request_from_json(const nlohmann::json& j);

// The JSON line for a request, without the trailing '\n'. For compile_program it declares each
// kernel's source length; the caller writes the sources themselves after the line.
std::string request_json(const Request& r);

// ---- responses ----------------------------------------------------------------------------

// Facts the runtime reports in hello.
struct DeviceDesc {
    std::string name;  // preset or board name, e.g. "wormhole-n150"
    std::string arch;  // "wormhole" or "blackhole"
    Grid grid;         // harvest-aware worker grid
    uint64_t dram_bytes = 0;
    uint32_t dram_banks = 0;
    uint32_t dram_alignment = 0;
    uint32_t l1_bytes = 0;
    uint32_t num_cbs = 0;
    std::vector<DataFormat> data_formats;
};
nlohmann::json device_desc_to_json(const DeviceDesc& d);
DeviceDesc device_desc_from_json(const nlohmann::json& j);

nlohmann::json response_ok(std::optional<uint64_t> seq);
nlohmann::json response_error(std::optional<uint64_t> seq, ErrorStatus status, std::string_view message);

// Parses a response line. Returns the object when "ok" is true; throws zyx::Error with the
// runtime's status and message when it is false, and Error(Protocol) when the line is not a
// response at all or its "seq" differs from `expected_seq`.
nlohmann::json parse_response(std::string_view line, std::optional<uint64_t> expected_seq);

}  // namespace zyx::tt::protocol
