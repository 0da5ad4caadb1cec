#include "metal_rules.hpp"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace zyx::tt::runtime::metal {

static_assert(metal_version_number({0, 74, 0}) == ZYX_TT_METAL_API_2026_SINCE_NUM);

namespace {

// Reads a decimal number of at most three digits from the front of `s`.
std::optional<uint32_t> take_part(std::string_view& s) {
    size_t n = 0;
    uint32_t v = 0;
    while (n < s.size() && n < 4 && std::isdigit(static_cast<unsigned char>(s[n]))) v = v * 10 + uint32_t(s[n++] - '0');
    if (n == 0 || n > 3) return std::nullopt;
    s.remove_prefix(n);
    return v;
}

std::string normalized_pci_address(std::string_view a) {
    std::string s(a);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    // "bb:dd.f" has one colon; the full form "dddd:bb:dd.f" has two.
    if (std::count(s.begin(), s.end(), ':') == 1) s = "0000:" + s;
    return s;
}

bool looks_like_pci_address(std::string_view s) {
    return std::count(s.begin(), s.end(), ':') >= 1 && s.find('.') != std::string_view::npos;
}

}  // namespace

std::optional<MetalVersion> parse_metal_version(std::string_view text) {
    if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
    MetalVersion v;
    auto major = take_part(text);
    if (!major || text.empty() || text.front() != '.') return std::nullopt;
    text.remove_prefix(1);
    auto minor = take_part(text);
    if (!minor) return std::nullopt;
    v.major = *major;
    v.minor = *minor;
    if (!text.empty() && text.front() == '.') {
        text.remove_prefix(1);
        auto patch = take_part(text);
        if (!patch) return std::nullopt;
        v.patch = *patch;
    }
    if (!text.empty() && text.front() != '-' && text.front() != '+') return std::nullopt;
    return v;
}

MetalApiFlavour metal_api_flavour(MetalVersion v) {
    const bool api_2026 = metal_version_number(v) >= ZYX_TT_METAL_API_2026_SINCE_NUM;
    return {.shard_transfer_builder = api_2026, .compile_program = !api_2026};
}

const std::vector<MetalErrorRule>& metal_error_rules() {
    // Fragments of tt-metal's own TT_THROW / TT_FATAL texts (tenstorrent/tt-metal). Kernel build
    // rows come first: a build failure's message quotes the compiler's log, which may contain
    // anything.
    static const std::vector<MetalErrorRule> rules = {
        // detail::GenerateBinaries wraps every JIT build failure: "Failed to generate binaries for <kernel> …"
        {"Failed to generate binaries", ErrorStatus::KernelCompilation, "tt_metal/impl/program/program.cpp"},
        // the JIT build of one RISC-V target: "<trisc0|brisc|ncrisc…> build failed. Log: …"
        {" build failed", ErrorStatus::KernelCompilation, "tt_metal/jit_build/build.cpp"},
        // CB allocation: "Statically allocated circular buffers on core range … grow to N B which is
        // beyond max L1 size of M B"
        {"beyond max L1 size", ErrorStatus::InvalidArgument, "tt_metal/impl/program/program.cpp"},
        // CircularBufferConfig: "Total circular buffer size N B must be divisible by page size M B"
        {"must be divisible by page size", ErrorStatus::InvalidArgument,
         "tt_metal/impl/buffers/circular_buffer_config.cpp"},
        // CircularBufferConfig: "Buffer index (i) exceeds max number of circular buffers per core (n)"
        {"exceeds max number of circular buffers", ErrorStatus::InvalidArgument,
         "tt_metal/impl/buffers/circular_buffer_config.cpp"},
        // CircularBufferConfig::set_page_size: "Illegal circular buffer index i. Page size can only be …"
        {"Illegal circular buffer index", ErrorStatus::InvalidArgument,
         "tt_metal/impl/buffers/circular_buffer_config.cpp"},
    };
    return rules;
}

ErrorStatus classify_metal_error(std::string_view message, MetalPhase phase) {
    for (const MetalErrorRule& r : metal_error_rules())
        if (message.find(r.fragment) != std::string_view::npos) return r.status;
    return phase == MetalPhase::Build ? ErrorStatus::KernelCompilation : ErrorStatus::KernelLaunch;
}

uint32_t unreserved_l1_bytes(uint64_t l1_size, uint64_t unreserved_base) {
    if (unreserved_base >= l1_size)
        throw Error(ErrorStatus::Initialization,
                    "tt-metal reports the unreserved L1 base " + std::to_string(unreserved_base) +
                        " at or above the L1 size " + std::to_string(l1_size));
    const uint64_t free = l1_size - unreserved_base;
    if (free > UINT32_MAX)
        throw Error(
            ErrorStatus::Initialization,
            "tt-metal reports " + std::to_string(free) + " unreserved L1 bytes per core, more than 32 bits hold");
    return uint32_t(free);
}

std::optional<size_t> board_for_chip(const std::vector<PciBoard>& boards, const OpenedChip& chip,
                                     const MmioPciAddresses& mmio) {
    auto it = mmio.find(chip.mmio_chip_id);
    if (it == mmio.end() || it->second.empty()) return std::nullopt;
    const std::string want = normalized_pci_address(it->second);
    for (size_t i = 0; i < boards.size(); ++i)
        if (normalized_pci_address(boards[i].pci_address) == want) return i;
    return std::nullopt;
}

std::optional<std::string> pci_address_of_device_number(int device_number, const std::filesystem::path& sysfs_class) {
    if (device_number < 0) return std::nullopt;
    const std::string n = std::to_string(device_number);
    for (const std::string& name : {"tenstorrent!" + n, "tenstorrent" + n}) {
        std::error_code ec;
        auto target = std::filesystem::read_symlink(sysfs_class / name / "device", ec);
        if (ec) continue;
        std::string address = target.filename().string();
        if (looks_like_pci_address(address)) return address;
    }
    return std::nullopt;
}

std::chrono::milliseconds run_timeout_from_env(const char* env_value) {
    if (!env_value || !*env_value) return kDefaultRunTimeout;
    std::string_view s(env_value);
    uint64_t v = 0;
    bool ok = s.size() <= 7;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            ok = false;
        else
            v = v * 10 + uint64_t(c - '0');
    }
    if (!ok || v < 1 || v > 3600000)
        throw Error(ErrorStatus::Initialization,
                    "ZYX_TT_METAL_RUN_TIMEOUT_MS=" + std::string(s) +
                        " is not a whole number of milliseconds from 1 to 3600000");
    return std::chrono::milliseconds(v);
}

void run_bounded(std::string_view what, std::chrono::milliseconds deadline, std::function<void()> fn) {
    // Shared with the thread, which may outlive this call when the deadline expires.
    struct State {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        std::exception_ptr error;
        std::function<void()> fn;
    };
    auto st = std::make_shared<State>();
    st->fn = std::move(fn);
    std::thread worker([st] {
        std::exception_ptr error;
        try {
            st->fn();
        } catch (...) { error = std::current_exception(); }
        std::lock_guard lock(st->m);
        st->error = error;
        st->done = true;
        st->cv.notify_all();
    });
    std::unique_lock lock(st->m);
    if (!st->cv.wait_for(lock, deadline, [&] { return st->done; })) {
        lock.unlock();
        worker.detach();
        throw Error(ErrorStatus::Timeout,
                    std::string(what) + " did not finish within " + std::to_string(deadline.count()) + " ms");
    }
    lock.unlock();
    worker.join();
    if (st->error) std::rethrow_exception(st->error);
}

}  // namespace zyx::tt::runtime::metal
