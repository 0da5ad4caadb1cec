// DRAM size of a Tenstorrent board from its PCI subsystem id.
//
// The kernel driver does not report GDDR6 capacity, so real boards are looked up in a table of
// known Blackhole subsystem ids (from the zyx 0.17 seed; sources: docs.tenstorrent.com Blackhole
// specifications, tt-umd's board tables, tt-metal blackhole_140_arch.yaml). Unknown boards get
// no guess: the caller falls back to what tt-metal reports.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace zyx::tt {

inline constexpr uint16_t kTenstorrentPciVendor = 0x1e52;

struct PciBoard {
    std::string pci_address;  // sysfs directory name, e.g. "0000:01:00.0"
    uint16_t subsystem_device = 0;
    std::string board;        // "p150a" …, empty when unknown
    uint64_t dram_bytes = 0;  // 0 when unknown
};

// DRAM bytes of a board by subsystem id, or nullopt for an unknown id.
std::optional<uint64_t> dram_bytes_for_subsystem(uint16_t subsystem_device, std::string* board_name = nullptr);

// Every Tenstorrent PCI function under `sysfs_devices` (normally /sys/bus/pci/devices), sorted by
// address. Unreadable entries are skipped, never fatal.
std::vector<PciBoard> pci_boards(const std::filesystem::path& sysfs_devices = "/sys/bus/pci/devices");

}  // namespace zyx::tt
