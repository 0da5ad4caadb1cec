#include "backend/tenstorrent/device_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/error.hpp"

namespace zyx::tt {

std::filesystem::path DeviceLock::default_dir() {
    const char* xdg = std::getenv("XDG_RUNTIME_DIR");
    std::filesystem::path base = (xdg && *xdg && std::filesystem::path(xdg).is_absolute()) ? xdg : "/tmp";
    return base / ("zyx-" + std::to_string(::getuid()));
}

DeviceLock::DeviceLock(const std::string& target, uint32_t id, std::filesystem::path dir, Role role) {
    if (dir.empty()) dir = default_dir();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error(ErrorStatus::Io, "device lock directory " + dir.string() + ": " + ec.message());
    // In a shared /tmp the directory must be ours and closed to others, or someone else could
    // hold or replace our lock files.
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0)
        throw Error(ErrorStatus::Io, "device lock directory " + dir.string() + ": " + std::strerror(errno));
    if (st.st_uid != ::getuid())
        throw Error(
            ErrorStatus::Io,
            "device lock directory " + dir.string() + " belongs to uid " + std::to_string(st.st_uid) + ", not to us");
    if ((st.st_mode & 022) != 0) ::chmod(dir.c_str(), 0700);

    path_ = dir / ("tt-" + target + "-" + std::to_string(id) + (role == Role::runtime ? ".runtime.lock" : ".lock"));
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd_ < 0) throw Error(ErrorStatus::Io, "device lock " + path_.string() + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        char buf[32] = {};
        ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
        ::close(fd_);
        fd_ = -1;
        if (e == EWOULDBLOCK) {
            std::string holder = n > 0 ? std::string(buf, size_t(n)) : std::string("unknown");
            while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
            const char* by = role == Role::runtime ? " is served by runtime process " : " is in use by process ";
            throw Error(ErrorStatus::DeviceBusy,
                        "Tenstorrent " + target + " device " + std::to_string(id) + by + holder + " (lock file " +
                            path_.string() + ")");
        }
        throw Error(ErrorStatus::Io, "device lock " + path_.string() + ": flock: " + std::strerror(e));
    }
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
        // The lock is held; only the holder's pid could not be recorded. Not fatal.
    }
}

DeviceLock::~DeviceLock() {
    if (fd_ >= 0) {
        if (::ftruncate(fd_, 0) != 0) {}
        ::close(fd_);  // releases the flock
    }
}

}  // namespace zyx::tt
