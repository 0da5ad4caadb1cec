// One user per device: an advisory lock (flock) on a per-device lock file.
//
// The file is ${XDG_RUNTIME_DIR:-/tmp}/zyx-<uid>/tt-<target>-<device id>.lock unless a directory
// is given. The holder writes its pid into the file, so a second process gets
// Error(DeviceBusy) naming that pid. The lock belongs to the client process (not to its runtime),
// so it survives runtime restarts, and the kernel releases it when the process ends, however it
// ends. The descriptor is close-on-exec: children never hold it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace zyx::tt {

class DeviceLock {
public:
    // Takes the lock for device `id` of `target` ("emulator", "metal"). `dir` empty = default.
    // Throws DeviceBusy (held by another process) or Io (the directory or file is unusable).
    DeviceLock(const std::string& target, uint32_t id, std::filesystem::path dir = {});
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
