#include "core/error.hpp"

#include <array>
#include <utility>

namespace zyx {
namespace {
constexpr std::array<std::pair<ErrorStatus, std::string_view>, 18> kNames{{
    {ErrorStatus::Initialization, "initialization"},
    {ErrorStatus::Deinitialization, "deinitialization"},
    {ErrorStatus::MemoryAllocation, "memory_allocation"},
    {ErrorStatus::MemoryDeallocation, "memory_deallocation"},
    {ErrorStatus::MemoryCopyH2P, "memory_copy_h2p"},
    {ErrorStatus::MemoryCopyP2H, "memory_copy_p2h"},
    {ErrorStatus::KernelCompilation, "kernel_compilation"},
    {ErrorStatus::KernelLaunch, "kernel_launch"},
    {ErrorStatus::KernelFault, "kernel_fault"},
    {ErrorStatus::Deadlock, "deadlock"},
    {ErrorStatus::Unsupported, "unsupported"},
    {ErrorStatus::InvalidArgument, "invalid_argument"},
    {ErrorStatus::DeviceBusy, "device_busy"},
    {ErrorStatus::Timeout, "timeout"},
    {ErrorStatus::RuntimeCrashed, "runtime_crashed"},
    {ErrorStatus::Protocol, "protocol"},
    {ErrorStatus::Io, "io"},
    {ErrorStatus::Internal, "internal"},
}};
}  // namespace

std::string_view error_status_name(ErrorStatus s) {
    for (const auto& [st, name] : kNames)
        if (st == s) return name;
    return "internal";
}

ErrorStatus error_status_from_name(std::string_view name) {
    for (const auto& [st, n] : kNames)
        if (n == name) return st;
    return ErrorStatus::Internal;
}

namespace {
std::string with_status(ErrorStatus status, const std::string& message) {
    std::string s;
    s.reserve(message.size() + 24);
    s.append(1, '[').append(error_status_name(status)).append("] ").append(message);
    return s;
}
}  // namespace

Error::Error(ErrorStatus status, const std::string& message)
    : std::runtime_error(with_status(status, message)), status_(status), message_(message) {}

}  // namespace zyx
