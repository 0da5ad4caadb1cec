// tt-metal's CommandQueue (tt-metalium/command_queue.hpp). The emulator runs one command at a
// time in order: EnqueueWriteBuffer / EnqueueReadBuffer complete before they return whatever
// `blocking` says, and EnqueueProgram starts the program and returns (blocking = false) or waits
// for it (blocking = true). Finish waits for the program in flight and throws what it failed
// with. Any later command also waits for the program first.
#pragma once

#include <cstdint>

namespace tt::tt_metal {

class IDevice;

class CommandQueue {
public:
    explicit CommandQueue(IDevice* device) : device_(device) {}
    IDevice* device() const { return device_; }
    uint32_t id() const { return 0; }

private:
    IDevice* device_;
};

}  // namespace tt::tt_metal
