// The PCI-subsystem DRAM table, read from a sysfs-shaped directory tree made by the test.
#include <gtest/gtest.h>

#include <fstream>

#include "backend/tenstorrent/pci_boards.hpp"

using namespace zyx::tt;

namespace {
void write_file(const std::filesystem::path& p, const std::string& text) {
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
}
}  // namespace

TEST(PciBoards, KnownBlackholeBoardsHaveTheirDram) {
    std::string name;
    EXPECT_EQ(dram_bytes_for_subsystem(0x0043, &name), uint64_t(28) << 30);
    EXPECT_EQ(name, "p100a");
    EXPECT_EQ(dram_bytes_for_subsystem(0x0040), uint64_t(32) << 30);
    EXPECT_EQ(dram_bytes_for_subsystem(0x0045), uint64_t(64) << 30);
    EXPECT_FALSE(dram_bytes_for_subsystem(0x1234).has_value()) << "an unknown board must not get a guessed size";
}

TEST(PciBoards, ScansOnlyTenstorrentFunctions) {
    auto root = std::filesystem::temp_directory_path() / ("zyx-pci-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root);
    write_file(root / "0000:03:00.0" / "vendor", "0x1e52\n");
    write_file(root / "0000:03:00.0" / "subsystem_device", "0x0040\n");
    write_file(root / "0000:01:00.0" / "vendor", "0x1e52\n");
    write_file(root / "0000:01:00.0" / "subsystem_device", "0x0999\n");
    write_file(root / "0000:02:00.0" / "vendor", "0x10de\n");  // another vendor
    write_file(root / "0000:02:00.0" / "subsystem_device", "0x0040\n");
    write_file(root / "0000:04:00.0" / "vendor", "garbage");  // unreadable: skipped
    auto boards = pci_boards(root);
    ASSERT_EQ(boards.size(), 2u);
    EXPECT_EQ(boards[0].pci_address, "0000:01:00.0");
    EXPECT_EQ(boards[0].dram_bytes, 0u);
    EXPECT_EQ(boards[1].board, "p150a");
    EXPECT_EQ(boards[1].dram_bytes, uint64_t(32) << 30);
    EXPECT_TRUE(pci_boards(root / "missing").empty());
    std::filesystem::remove_all(root);
}
