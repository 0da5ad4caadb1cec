// UMD's cluster discovery (umd/device/cluster.h, as installed with the pinned tt-metal) for the
// emulator: the cluster is one emulated chip, id 0, of the preset's architecture
// (ZYX_EMU_PRESET). It sits behind no /dev/tenstorrent node, so get_chips_with_mmio() — which
// maps each PCIe-attached chip to the number of its device node — is empty.
#pragma once

#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <tt-metalium/tt_backend_api_types.hpp>

using chip_id_t = int;

class tt_ClusterDescriptor {
public:
    explicit tt_ClusterDescriptor(tt::ARCH arch) : arch_(arch) {}
    const std::unordered_map<chip_id_t, chip_id_t>& get_chips_with_mmio() const { return chips_with_mmio_; }
    const std::unordered_set<chip_id_t>& get_all_chips() const { return all_chips_; }
    size_t get_number_of_chips() const { return all_chips_.size(); }
    // Throws for a chip the cluster does not have.
    tt::ARCH get_arch(chip_id_t chip_id) const;

private:
    std::unordered_map<chip_id_t, chip_id_t> chips_with_mmio_;
    std::unordered_set<chip_id_t> all_chips_{0};
    tt::ARCH arch_ = tt::ARCH::Invalid;
};

namespace tt::umd {

class Cluster {
public:
    // Describes the emulated cluster; opens no device.
    static std::unique_ptr<tt_ClusterDescriptor> create_cluster_descriptor();
};

}  // namespace tt::umd
