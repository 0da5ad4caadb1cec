#include "arena.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.hpp"

namespace zyx::tt::runtime {

namespace {
// Upper bound on one arena: far above any sensible staging size, below what mmap would refuse.
constexpr uint64_t kMaxArenaBytes = uint64_t(1) << 40;

[[noreturn]] void bad(const std::string& name, const std::string& what) {
    throw Error(ErrorStatus::InvalidArgument, "arena '" + name + "': " + what);
}

// The object must be a regular shm object of our own user with no group/other access, and at
// least `bytes` long.
void check_object(int fd, const std::string& name, uint64_t bytes) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) bad(name, std::string("fstat: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) bad(name, "not a shared-memory object");
    if (st.st_uid != ::geteuid())
        bad(name,
            "owned by uid " + std::to_string(st.st_uid) + ", not by this runtime's uid " + std::to_string(::geteuid()));
    if ((st.st_mode & 077) != 0) bad(name, "must have mode 0600 (no group or other access)");
    if (uint64_t(st.st_size) < bytes)
        bad(name,
            "object has " + std::to_string(st.st_size) + " bytes, fewer than the " + std::to_string(bytes) + " to map");
}
}  // namespace

Arena::~Arena() {
    unmap();
    if (fd_ >= 0) ::close(fd_);
}

void Arena::unmap() {
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
}

void Arena::map(const std::string& name, uint64_t bytes) {
    if (bytes == 0 || bytes > kMaxArenaBytes)
        bad(name, "size " + std::to_string(bytes) + " must be between 1 and 2^40 bytes");
    int fd = ::shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) bad(name, std::string("cannot open: ") + std::strerror(errno));
    try {
        check_object(fd, name, bytes);
    } catch (...) {
        ::close(fd);
        throw;
    }
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        ::close(fd);
        bad(name, std::string("mmap: ") + std::strerror(e));
    }
    unmap();
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
    data_ = static_cast<uint8_t*>(p);
    size_ = bytes;
    name_ = name;
}

void Arena::resize(uint64_t bytes) {
    if (fd_ < 0) throw Error(ErrorStatus::InvalidArgument, "arena_resize: no arena is mapped (send arena_map first)");
    if (bytes == 0 || bytes > kMaxArenaBytes)
        bad(name_, "size " + std::to_string(bytes) + " must be between 1 and 2^40 bytes");
    check_object(fd_, name_, bytes);
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) bad(name_, std::string("mmap: ") + std::strerror(errno));
    unmap();
    data_ = static_cast<uint8_t*>(p);
    size_ = bytes;
}

}  // namespace zyx::tt::runtime
