// The compat layer's one emulated chip is opened by CreateDevice (host_api.cpp) or by
// MeshDevice::create_unit_mesh (mesh.cpp), never by both at once.
#pragma once

#include <functional>
#include <memory>

#include <tt-metalium/device.hpp>

namespace tt::tt_metal::compat {

using MakeDevice = std::function<IDevice*(ChipId, std::shared_ptr<zyx::emu::Device>)>;

// Opens emulated chip `device_id` (only 0 exists; preset from ZYX_EMU_PRESET, DPRINT from
// TT_METAL_DPRINT_CORES) and hands it to `make`, which returns the device that now holds it.
// Throws tt::exception when the id is out of range or the chip is already open.
IDevice* open_device(ChipId device_id, const MakeDevice& make);
// Marks `device`'s chip as no longer open (no effect when it is not the open device).
void forget_device(const IDevice* device);

}  // namespace tt::tt_metal::compat
