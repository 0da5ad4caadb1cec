// tt-metal's Program (tt-metalium/program.hpp): kernels, circular buffers and semaphores, built
// up by CreateKernel / CreateCircularBuffer / CreateSemaphore before any device is named. As in
// tt-metal the kernels are compiled at the first EnqueueProgram (or detail::LaunchProgram /
// CompileProgram) on a device: that is where a CB beyond L1, a core outside the grid or a
// compile error throws. Adding kernels or CBs afterwards recompiles at the next enqueue.
// Move-only.
#pragma once

#include <cstdint>
#include <memory>

namespace tt::tt_metal {

class Program {
public:
    Program();
    ~Program();
    Program(Program&& other) noexcept;
    Program& operator=(Program&& other) noexcept;
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    uint64_t get_id() const;

    struct Impl;  // emulator/compat/src/program_impl.hpp
    Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace tt::tt_metal
