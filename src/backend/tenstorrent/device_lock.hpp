// One user per device: an advisory lock (flock) on a per-device lock file.
//
// Two locks guard each device, one per role:
//   client   ${XDG_RUNTIME_DIR:-/tmp}/zyx-<uid>/tt-<target>-<device id>.lock, taken by the zyx
//            client (TTDevice::open); it survives restarts of the client's runtime;
//   runtime  …/tt-<target>-<device id>.runtime.lock, taken by zyx-tt-runtime at start, whoever
//            started it (our client, zyx 0.17's Rust client, a test), so two runtimes never drive one device.
// A directory may be given instead of the default. The holder writes its pid into the file, so a
// second process gets Error(DeviceBusy) naming that pid; the kernel releases the lock when the
// holder ends, however it ends. The descriptor is close-on-exec: children never hold it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace zyx::tt {

class DeviceLock {
public:
    enum class Role { client, runtime };

    // Takes the `role` lock for device `id` of `target` ("emulator", "metal"). `dir` empty =
    // default. Throws DeviceBusy (held by another process) or Io (the directory or file is unusable).
    DeviceLock(const std::string& target, uint32_t id, std::filesystem::path dir = {}, Role role = Role::client);
    ~DeviceLock();
    DeviceLock(const DeviceLock&) = delete;
    DeviceLock& operator=(const DeviceLock&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // ${XDG_RUNTIME_DIR:-/tmp}/zyx-<uid>
    static std::filesystem::path default_dir();

private:
    std::filesystem::path path_;
    int fd_ = -1;
};

}  // namespace zyx::tt
