// Test-process setup shared by the tensor tests.
//
// Device locks. zyx-tt-runtime's emulator target gives every process its own emulated device, but
// the device lock (an flock in $XDG_RUNTIME_DIR/zyx-<uid>/) still makes a second process that asks
// for tt:0 fail with DeviceBusy. ctest runs test processes in parallel, so each tensor test
// process takes a private lock directory when the configured target is the emulator. With real
// hardware (target "metal") the shared directory stays: there one device is one device.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#ifdef ZYX_TENSOR_TEST_TT
#include "backend/tenstorrent/config.hpp"
#endif

namespace zyx::test {

inline bool private_device_locks() {
#ifdef ZYX_TENSOR_TEST_TT
    try {
        if (zyx::tt::config().target != "emulator") return false;
    } catch (...) {
        return false;  // a bad config.json: the error surfaces when a device is opened
    }
    static std::string dir = [] {
        char tmpl[] = "/tmp/zyx-tensor-test-XXXXXX";
        const char* d = mkdtemp(tmpl);
        return std::string(d ? d : "");
    }();
    if (dir.empty()) return false;
    setenv("XDG_RUNTIME_DIR", dir.c_str(), 1);
    std::atexit([] {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    });
    return true;
#else
    return false;
#endif
}

inline const bool kPrivateDeviceLocks = private_device_locks();

}  // namespace zyx::test
