// zyx::Error — the one exception type every layer throws.
//
// Contract: every failure a user can provoke (bad shape, unknown buffer id, kernel compile error,
// emulator check, dead runtime …) is reported as a zyx::Error whose status says which category it
// belongs to and whose message names the object involved (buffer id, program id, core, CB index,
// shapes). Throwing an Error never leaves other tensors, buffers or the runtime unusable.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace zyx {

enum class ErrorStatus {
    Initialization,      // a backend, device or runtime could not be brought up
    Deinitialization,    // tearing something down failed
    MemoryAllocation,    // out of device/host memory, zero-size or oversize allocation
    MemoryDeallocation,  // freeing an unknown or already-freed buffer
    MemoryCopyH2P,       // host → pool transfer failed
    MemoryCopyP2H,       // pool → host transfer failed
    KernelCompilation,   // the compiler rejected generated or user kernel source
    KernelLaunch,        // a launch was refused (bad grid, bad arguments, unknown program)
    KernelFault,         // a running kernel broke a hardware rule (emulator check, crash)
    Deadlock,            // every kernel of a launch is blocked (emulator)
    Unsupported,         // valid request that zyx does not implement (yet)
    InvalidArgument,     // the caller passed something wrong: shape, axis, dtype, index
    DeviceBusy,          // another process holds the device lock
    Timeout,             // a bounded wait expired
    RuntimeCrashed,      // the device runtime process died
    Protocol,            // a malformed message on the runtime protocol
    Io,                  // file system or pipe failure
    Internal,            // a bug in zyx itself
};

// Stable lower-case name of a status, e.g. "kernel_fault"; used in protocol messages.
std::string_view error_status_name(ErrorStatus s);
// Inverse of error_status_name; unknown names map to Internal.
ErrorStatus error_status_from_name(std::string_view name);

class Error : public std::runtime_error {
public:
    Error(ErrorStatus status, const std::string& message);
    ErrorStatus status() const noexcept { return status_; }
    // The message without the "[status] " prefix that what() carries.
    const std::string& message() const noexcept { return message_; }

private:
    ErrorStatus status_;
    std::string message_;
};

}  // namespace zyx
