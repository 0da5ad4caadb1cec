#include "backend/tenstorrent/pci_boards.hpp"

#include <algorithm>
#include <fstream>

namespace zyx::tt {

namespace {
struct Entry {
    uint16_t subsystem;
    const char* board;
    uint64_t gib;
};
// Blackhole boards: 8 GDDR6 channels of 4 GiB each; P100/P100A have one channel harvested.
constexpr Entry kBoards[] = {
    {0x0036, "p100", 28},  {0x0040, "p150a", 32}, {0x0041, "p150b", 32}, {0x0042, "p150c", 32},
    {0x0043, "p100a", 28}, {0x0044, "p300b", 64}, {0x0045, "p300a", 64}, {0x0046, "p300c", 64},
};

std::optional<uint32_t> read_hex(const std::filesystem::path& p) {
    std::ifstream f(p);
    std::string s;
    if (!(f >> s)) return std::nullopt;
    try {
        size_t used = 0;
        unsigned long v = std::stoul(s, &used, 16);  // accepts the "0x" prefix sysfs writes
        if (used != s.size() || v > 0xffffffffUL) return std::nullopt;
        return uint32_t(v);
    } catch (...) { return std::nullopt; }
}
}  // namespace

std::optional<uint64_t> dram_bytes_for_subsystem(uint16_t subsystem_device, std::string* board_name) {
    for (const Entry& e : kBoards) {
        if (e.subsystem == subsystem_device) {
            if (board_name) *board_name = e.board;
            return e.gib << 30;
        }
    }
    return std::nullopt;
}

std::vector<PciBoard> pci_boards(const std::filesystem::path& sysfs_devices) {
    std::vector<PciBoard> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(sysfs_devices, ec)) {
        auto vendor = read_hex(entry.path() / "vendor");
        if (!vendor || *vendor != kTenstorrentPciVendor) continue;
        auto sub = read_hex(entry.path() / "subsystem_device");
        if (!sub || *sub > 0xffff) continue;
        PciBoard b;
        b.pci_address = entry.path().filename().string();
        b.subsystem_device = uint16_t(*sub);
        if (auto bytes = dram_bytes_for_subsystem(b.subsystem_device, &b.board)) b.dram_bytes = *bytes;
        out.push_back(std::move(b));
    }
    std::sort(out.begin(), out.end(),
              [](const PciBoard& a, const PciBoard& b) { return a.pci_address < b.pci_address; });
    return out;
}

}  // namespace zyx::tt
