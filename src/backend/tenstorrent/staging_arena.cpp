#include "backend/tenstorrent/staging_arena.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <random>

#include "core/error.hpp"

namespace zyx::tt {

namespace {
std::atomic<uint64_t> g_counter{0};

std::string fresh_name() {
    // pid + per-process counter + random bits: unique, and not guessable ahead of time.
    std::random_device rd;
    uint64_t r = (uint64_t(rd()) << 32) ^ rd();
    char buf[96];
    std::snprintf(buf, sizeof buf, "/zyx-arena-%d-%llu-%016llx", int(::getpid()),  // allow-print: formats into a buffer
                  (unsigned long long)g_counter.fetch_add(1), (unsigned long long)r);
    return buf;
}
}  // namespace

StagingArena::StagingArena(uint64_t bytes) {
    if (bytes == 0) bytes = 4096;
    name_ = fresh_name();
    fd_ = ::shm_open(name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) throw Error(ErrorStatus::Io, "staging arena " + name_ + ": shm_open: " + std::strerror(errno));
    linked_ = true;
    // fchmod: the umask may have removed bits, never added any, but be explicit about 0600.
    if (::fchmod(fd_, 0600) != 0) {}
    if (::ftruncate(fd_, off_t(bytes)) != 0) {
        int e = errno;
        unlink_name();
        ::close(fd_);
        throw Error(
            ErrorStatus::Io,
            "staging arena " + name_ + ": ftruncate to " + std::to_string(bytes) + " bytes: " + std::strerror(e));
    }
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        unlink_name();
        ::close(fd_);
        throw Error(ErrorStatus::Io, "staging arena " + name_ + ": mmap: " + std::strerror(e));
    }
    data_ = static_cast<uint8_t*>(p);
    size_ = bytes;
}

StagingArena::~StagingArena() {
    unlink_name();
    if (data_) ::munmap(data_, size_);
    if (fd_ >= 0) ::close(fd_);
}

void StagingArena::unlink_name() {
    if (linked_) ::shm_unlink(name_.c_str());
    linked_ = false;
}

void StagingArena::grow(uint64_t bytes) {
    if (bytes <= size_) return;
    if (::ftruncate(fd_, off_t(bytes)) != 0)
        throw Error(
            ErrorStatus::Io,
            "staging arena " + name_ + ": growing to " + std::to_string(bytes) + " bytes: " + std::strerror(errno));
    void* p = ::mremap(data_, size_, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED)
        throw Error(
            ErrorStatus::Io,
            "staging arena " + name_ + ": mremap to " + std::to_string(bytes) + " bytes: " + std::strerror(errno));
    data_ = static_cast<uint8_t*>(p);
    size_ = bytes;
}

}  // namespace zyx::tt
