// Device presets and data-format facts. Sources for every figure are in emulator/README.md.
#include <string>
#include <vector>

#include "core/error.hpp"
#include "emu/device.hpp"

namespace zyx::emu {
namespace {

// L1: 1,499,136 B (1464 KiB) usable per Tensix core on both Wormhole and Blackhole. The first
// 64 KiB of each emulated L1 are the emulator's "reserved" area (semaphores, runtime args), so
// circular buffers start at 0x10000; tt-metal's real unreserved base varies by release.
constexpr uint32_t kL1Bytes = 1'499'136;
constexpr uint32_t kL1UnreservedBase = 0x10000;

const DeviceSpec kPresets[] = {
    {"wormhole-n150", Arch::Wormhole, 8, 8, kL1Bytes, kL1UnreservedBase, 12, 1ull << 30, 32, 16, 32, 8192,
     "tt-metal compute_with_storage_grid_size 8x8 on n150; 12 GB GDDR6 as 12 DRAM banks x 1 GiB; "
     "DRAM alignment 32 B, L1 16 B; NUM_CIRCULAR_BUFFERS 32; NOC_MAX_BURST_SIZE 8 KiB"},
    {"blackhole-p100a", Arch::Blackhole, 11, 10, kL1Bytes, kL1UnreservedBase, 7, 4'278'190'080ull, 64, 16, 64, 16384,
     "tt-metal grid 11x10 (12x10 minus the dispatch column); 28 GB as 7 DRAM banks; DRAM alignment 64 B; "
     "64 CBs; NOC_MAX_BURST_SIZE 16 KiB"},
    {"blackhole-p150", Arch::Blackhole, 11, 10, kL1Bytes, kL1UnreservedBase, 8, 4'278'190'080ull, 64, 16, 64, 16384,
     "grid 11x10 since firmware 19.5.0 (120 Tensix enabled, one column for dispatch); 32 GB as 8 DRAM banks "
     "x 4,278,190,080 B; DRAM alignment 64 B; 64 CBs; NOC_MAX_BURST_SIZE 16 KiB"},
};

}  // namespace

const DeviceSpec& preset(const std::string& name) {
    for (const auto& p : kPresets)
        if (p.name == name) return p;
    std::string known;
    for (const auto& p : kPresets) known += (known.empty() ? "" : ", ") + p.name;
    throw Error(ErrorStatus::InvalidArgument, "unknown emulator preset '" + name + "' (known: " + known + ")");
}

std::vector<std::string> preset_names() {
    std::vector<std::string> out;
    for (const auto& p : kPresets) out.push_back(p.name);
    return out;
}


}  // namespace zyx::emu
