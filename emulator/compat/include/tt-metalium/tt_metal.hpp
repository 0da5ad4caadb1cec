// tt-metal's slow-dispatch helpers (tt-metalium/tt_metal.hpp, namespace tt::tt_metal::detail;
// tt-metal moved them to slow_dispatch:: in 2026). On the emulator they are the same in-order
// commands as the CommandQueue ones (host_api.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tt-metalium/host_api.hpp>

namespace tt::tt_metal::detail {

void WriteToBuffer(Buffer& buffer, tt::stl::Span<const uint8_t> host_buffer);
template <typename DType>
void WriteToBuffer(Buffer& buffer, const std::vector<DType>& host_buffer) {
    WriteToBuffer(buffer,
                  tt::stl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(host_buffer.data()),
                                               host_buffer.size() * sizeof(DType)));
}
template <typename DType>
void WriteToBuffer(const std::shared_ptr<Buffer>& buffer, const std::vector<DType>& host_buffer) {
    WriteToBuffer(*buffer, host_buffer);
}

// Reads buffer.size() bytes.
void ReadFromBuffer(Buffer& buffer, uint8_t* host_buffer);
// Resizes host_buffer to the buffer's pages and reads them.
template <typename DType>
void ReadFromBuffer(Buffer& buffer, std::vector<DType>& host_buffer) {
    host_buffer.resize(buffer.page_size() * buffer.num_pages() / sizeof(DType));
    ReadFromBuffer(buffer, reinterpret_cast<uint8_t*>(host_buffer.data()));
}
template <typename DType>
void ReadFromBuffer(const std::shared_ptr<Buffer>& buffer, std::vector<DType>& host_buffer) {
    ReadFromBuffer(*buffer, host_buffer);
}

// Compiles the program's kernels for the device (EnqueueProgram / LaunchProgram do it on demand).
void CompileProgram(IDevice* device, Program& program, bool force_slow_dispatch = false);
// Runs the program; waits for it (throwing what it failed with) when wait_until_cores_done.
void LaunchProgram(IDevice* device, Program& program, bool wait_until_cores_done = true,
                   bool force_slow_dispatch = false);
void LaunchProgram(IDevice* device, const std::shared_ptr<Program>& program, bool wait_until_cores_done = true,
                   bool force_slow_dispatch = false);
void WaitProgramDone(IDevice* device, Program& program, bool read_device_profiler_results = true);

}  // namespace tt::tt_metal::detail
