// The client's shared-memory staging arena: the one region through which bulk data moves
// between this process and its zyx-tt-runtime (docs/protocol.md, "Staging arena").
//
// Created with shm_open(O_CREAT | O_EXCL, 0600) under a fresh name, so no other user can open
// it and no existing object is ever reused by accident. The runtime maps it by name
// (arena_map); after that the client unlinks the name (unlink_name), so nothing is left in
// /dev/shm even if both processes die. The object is reused for every transfer and only grows:
// grow() extends it with ftruncate and remaps it here; the runtime remaps it on arena_resize.
#pragma once

#include <cstdint>
#include <string>

namespace zyx::tt {

class StagingArena {
public:
    // Creates and maps an object of `bytes`. Throws Error(Io) naming the object on failure.
    explicit StagingArena(uint64_t bytes);
    ~StagingArena();
    StagingArena(const StagingArena&) = delete;
    StagingArena& operator=(const StagingArena&) = delete;

    const std::string& name() const { return name_; }
    uint8_t* data() const { return data_; }
    uint64_t size() const { return size_; }

    // Extends the object to `bytes` (no-op when it is already that large) and remaps it; data
    // already in it is kept. Throws Error(Io).
    void grow(uint64_t bytes);
    // Removes the name; the mapping and descriptor stay valid. Idempotent.
    void unlink_name();

private:
    int fd_ = -1;
    uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
    std::string name_;
    bool linked_ = false;
};

}  // namespace zyx::tt
