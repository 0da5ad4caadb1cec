// The runtime's view of the client's shared-memory staging arena.
//
// The client creates a POSIX shared-memory object (mode 0600, O_EXCL) and sends its name in
// arena_map; the runtime opens it, checks that it belongs to the runtime's own user and is
// readable by nobody else, and maps `bytes` of it. The runtime keeps the descriptor, so the
// client may unlink the name as soon as arena_map has answered; arena_resize remaps the same
// object after the client has grown it with ftruncate. Every access is bounds-checked by the
// server against size() before memory is touched.
#pragma once

#include <cstdint>
#include <string>

namespace zyx::tt::runtime {

class Arena {
public:
    Arena() = default;
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    // Replaces any current mapping. Throws zyx::Error(InvalidArgument) naming the object when it
    // cannot be opened, has the wrong owner or mode, or is smaller than `bytes`.
    void map(const std::string& name, uint64_t bytes);
    // Remaps the current object at `bytes`. Throws InvalidArgument when no arena is mapped or
    // the object is smaller than `bytes`.
    void resize(uint64_t bytes);

    bool mapped() const { return data_ != nullptr; }
    uint8_t* data() const { return data_; }
    uint64_t size() const { return size_; }
    const std::string& name() const { return name_; }

private:
    void unmap();

    int fd_ = -1;
    uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
    std::string name_;
};

}  // namespace zyx::tt::runtime
