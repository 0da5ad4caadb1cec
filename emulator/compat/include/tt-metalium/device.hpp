// tt-metal's IDevice (tt-metalium/device.hpp) for one emulated chip. CreateDevice(id) opens
// it with the emulator preset named by ZYX_EMU_PRESET ("wormhole-n150" when unset;
// "blackhole-p100a", "blackhole-p150"); only device id 0 exists. Members are the subset of
// tt-metal's IDevice a host program of this slice uses; the figures are the preset's
// (emulator/README.md, "Presets and their sources").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <tt-metalium/core_coord.hpp>
#include <tt-metalium/kernel_types.hpp>
#include <tt-metalium/tt_backend_api_types.hpp>

namespace zyx::emu {
class Device;
}

namespace tt::tt_metal {

using ChipId = int;
using chip_id_t = int;
class CommandQueue;

class IDevice {
public:
    IDevice(ChipId id, std::shared_ptr<zyx::emu::Device> emu);
    virtual ~IDevice();  // a MeshDevice is an IDevice too (mesh_device.hpp)
    IDevice(const IDevice&) = delete;
    IDevice& operator=(const IDevice&) = delete;

    ChipId id() const { return id_; }
    tt::ARCH arch() const;
    uint8_t num_hw_cqs() const { return 1; }
    bool is_initialized() const { return emu_ != nullptr; }
    int num_dram_channels() const;
    uint32_t l1_size_per_core() const;
    uint32_t dram_size_per_channel() const;
    // The Tensix worker grid (x columns × y rows): what kernels may be placed on.
    CoreCoord compute_with_storage_grid_size() const;
    CoreCoord logical_grid_size() const { return compute_with_storage_grid_size(); }
    // NoC coordinates a kernel must use for a logical core (get_noc_addr(x, y, …)).
    CoreCoord worker_core_from_logical_core(const CoreCoord& logical_core) const;
    CoreCoord virtual_core_from_logical_core(const CoreCoord& logical_coord, const CoreType& core_type) const;
    // The single command queue (cq_id 0).
    CommandQueue& command_queue(std::optional<uint8_t> cq_id = std::nullopt);
    // Finishes the queue and releases the emulator; CloseDevice calls it.
    bool close();

    // zyx: the emulated chip behind this device.
    zyx::emu::Device& emulator() const;
    const std::shared_ptr<zyx::emu::Device>& emulator_handle() const { return emu_; }
    // zyx: the in-order queue. queue_wait() finishes the program in flight (if any), throwing
    // what it failed with as tt::exception; every command calls it first. queue_launched()
    // records that a program was started.
    void queue_wait();
    void queue_launched() { in_flight_ = true; }

private:
    ChipId id_;
    bool in_flight_ = false;
    std::shared_ptr<zyx::emu::Device> emu_;
    std::unique_ptr<CommandQueue> cq_;
};

}  // namespace tt::tt_metal
