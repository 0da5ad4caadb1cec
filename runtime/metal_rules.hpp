// The parts of the metal target (target_metal.cpp) that do not need tt-metal, so that they are
// compiled and tested on every machine: which tt-metal API flavour a version has, how a tt-metal
// exception maps to an ErrorStatus, the unreserved L1 size, which PCI board the opened chip sits
// on, and a bounded wait for calls into tt-metal that can block forever.
//
// No tt-metal header is included here.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/tenstorrent/pci_boards.hpp"
#include "core/error.hpp"

// ---- tt-metal versions ---------------------------------------------------------------------------
// The release the metal target is written and pinned against (runtime/README.md). CMake refuses
// another major.minor unless ZYX_TT_METAL_ALLOW_UNPINNED is on (runtime/CMakeLists.txt).
#define ZYX_TT_METAL_PINNED_VERSION "0.62.0"
// A version as one number for `#if`: major * 1000000 + minor * 1000 + patch. CMake defines
// ZYX_TT_METAL_VERSION_NUM the same way for the tt-metal it found.
// From this version on, target_metal.cpp uses the 2026 API: the builder
// distributed::ShardDataTransfer{coord}.host_data(p).region(r) instead of the aggregate
// MeshCommandQueue::ShardDataTransfer (deprecated by tt-metal PR #28957, removed by PR #53719),
// and no tt::tt_metal::detail::CompileProgram (EnqueueMeshWorkload compiles on first use).
#define ZYX_TT_METAL_API_2026_SINCE_NUM 74000  // 0.74.0

namespace zyx::tt::runtime::metal {

struct MetalVersion {
    uint32_t major = 0, minor = 0, patch = 0;
    friend bool operator==(const MetalVersion&, const MetalVersion&) = default;
};

// Parses "0.62.0", "v0.62.0", "0.62" (patch 0), and tags with a suffix such as "0.62.0-rc3" or
// "0.62.0+12.abcdef" (the suffix is ignored). Nullopt for anything else or a part above 999.
std::optional<MetalVersion> parse_metal_version(std::string_view text);

constexpr uint32_t metal_version_number(MetalVersion v) { return v.major * 1000000 + v.minor * 1000 + v.patch; }

// Which side of each API difference a tt-metal version is on.
struct MetalApiFlavour {
    bool shard_transfer_builder = false;  // distributed::ShardDataTransfer builder (else the aggregate)
    bool compile_program = true;          // tt::tt_metal::detail::CompileProgram is callable
};
MetalApiFlavour metal_api_flavour(MetalVersion v);

// ---- tt-metal exceptions → ErrorStatus --------------------------------------------------------------
enum class MetalPhase {
    Build,   // program_create: circular buffers, semaphores, kernels, compiling them
    Launch,  // program_run: runtime args, enqueue, waiting for completion
};

// One row of the table: a tt-metal message containing `fragment` (case-sensitive) is `status`.
// `source` names the tt-metal file whose TT_THROW/TT_FATAL text the fragment is taken from.
struct MetalErrorRule {
    std::string_view fragment;
    ErrorStatus status;
    std::string_view source;
};

// The table, in the order it is searched (the first row that matches wins).
const std::vector<MetalErrorRule>& metal_error_rules();

// The status of a tt-metal exception message raised in `phase`: the first matching row, else
// KernelCompilation for Build and KernelLaunch for Launch.
ErrorStatus classify_metal_error(std::string_view message, MetalPhase phase);

// ---- L1 ----------------------------------------------------------------------------------------------
// The L1 bytes per core that circular buffers may use: `l1_size` minus `unreserved_base`, the
// lowest address the allocator hands out (below it sit firmware, mailboxes and dispatch data).
// Throws Initialization when the base is not below the size or the result does not fit 32 bits.
uint32_t unreserved_l1_bytes(uint64_t l1_size, uint64_t unreserved_base);

// ---- which PCI board the opened chip is on ----------------------------------------------------------
// The chip a unit mesh opened, as tt-metal names it.
struct OpenedChip {
    int chip_id = 0;       // tt-metal's id of the chip
    int mmio_chip_id = 0;  // the chip tt-metal reaches it through over PCIe (== chip_id when local)
};

// PCI address ("0000:05:00.0") of every PCIe-attached chip tt-metal knows, by its chip id.
using MmioPciAddresses = std::map<int, std::string>;

// The entry of `boards` (pci_boards()) holding the opened chip: the card whose PCI address is that
// of the chip's MMIO chip, so the remote chip of an n300 resolves to its card. Addresses compare
// case-insensitively and a missing "0000:" domain counts as domain 0. Nullopt when the MMIO chip
// has no known address or no board has it; never a guess by position.
std::optional<size_t> board_for_chip(const std::vector<PciBoard>& boards, const OpenedChip& chip,
                                     const MmioPciAddresses& mmio);

// The PCI address of /dev/tenstorrent/<device_number>: the last component of the `device` link of
// the driver's class entry "tenstorrent!<n>" (or "tenstorrent<n>") under `sysfs_class`. Nullopt when
// neither exists or the link does not name a PCI address.
std::optional<std::string> pci_address_of_device_number(
    int device_number, const std::filesystem::path& sysfs_class = "/sys/class/tenstorrent");

// ---- bounded waits -----------------------------------------------------------------------------------
// The deadline for one launch. `env_value` is ZYX_TT_METAL_RUN_TIMEOUT_MS (null or empty: the
// default); it must be a whole number of milliseconds from 1 to 3600000, else Initialization.
inline constexpr std::chrono::milliseconds kDefaultRunTimeout{300000};
std::chrono::milliseconds run_timeout_from_env(const char* env_value);

// Runs `fn` on a new thread and waits at most `deadline` for it. Returns when it returns; rethrows
// its exception as is. On expiry throws Error(Timeout, "<what> did not finish within N ms") and
// leaves `fn` running on the detached thread: everything `fn` refers to must outlive it (capture
// shared_ptrs, not references to locals).
void run_bounded(std::string_view what, std::chrono::milliseconds deadline, std::function<void()> fn);

// run_bounded for a callable with a result.
template <class F>
auto run_with_deadline(std::string_view what, std::chrono::milliseconds deadline, F fn) -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    if constexpr (std::is_void_v<R>) {
        run_bounded(what, deadline, std::move(fn));
    } else {
        auto out = std::make_shared<std::optional<R>>();
        run_bounded(what, deadline, [out, fn = std::move(fn)]() mutable { out->emplace(fn()); });
        return std::move(**out);
    }
}

}  // namespace zyx::tt::runtime::metal
