// zyx::Device — where a tensor's bytes live and where the kernels that compute it run.
//
//   zyx::Device::host()          the host CPU (JIT-compiled C++ kernels; the default)
//   zyx::Device::interpreter()   the host CPU through the reference interpreter of the kernel IR:
//                                slow and exact, the device every other one is tested against
//   zyx::Device::tt(0)           Tenstorrent device 0 (through the zyx-tt-runtime process)
//   zyx::Device::parse("tt:1")   the same from text: "host", "interpreter", "tt:N"
//
// A Device is a small value (kind + index); comparing two is cheap. Naming a device does not open
// it: a Tenstorrent device is opened the first time a tensor is placed on it, and a device that
// cannot be opened (no runtime executable, disabled in config.json, locked by another process)
// throws zyx::Error(Initialization / DeviceBusy) at that point and nowhere else.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace zyx {

class Device {
public:
    enum class Kind : uint8_t { host, interpreter, tt };

    constexpr Device() = default;  // host
    static constexpr Device host() { return Device(Kind::host, 0); }
    static constexpr Device interpreter() { return Device(Kind::interpreter, 0); }
    static constexpr Device tt(uint32_t index) { return Device(Kind::tt, index); }
    // "host", "interpreter", "tt" (= tt:0) or "tt:N". Throws zyx::Error(InvalidArgument) naming
    // the text otherwise.
    static Device parse(std::string_view text);

    constexpr Kind kind() const { return kind_; }
    constexpr uint32_t index() const { return index_; }
    // "host", "interpreter", "tt:0" (parse() reads it back).
    std::string str() const;

    constexpr bool operator==(const Device&) const = default;

private:
    constexpr Device(Kind k, uint32_t i) : kind_(k), index_(i) {}
    Kind kind_ = Kind::host;
    uint32_t index_ = 0;
};

std::ostream& operator<<(std::ostream& os, const Device& d);

// Devices that can run kernels in this process right now: host and interpreter always, plus
// every Tenstorrent device that config.json enables and that opens (opening them is attempted
// once; failures are logged on the `sched` channel and leave the device out of this list).
std::vector<Device> available_devices();

}  // namespace zyx
