#include "core/error.hpp"
#include "emu/device_impl.hpp"
namespace zyx::emu {
void Device::Impl::join_launch() {}
ProgramId Device::program_create(const ProgramSpec&) { throw Error(ErrorStatus::Unsupported, "Unsupported: programs are not implemented yet"); }
void Device::program_free(ProgramId) { throw Error(ErrorStatus::Unsupported, "Unsupported: programs are not implemented yet"); }
void Device::program_set_runtime_args(ProgramId, uint32_t, CoreCoord, std::vector<uint32_t>) { throw Error(ErrorStatus::Unsupported, "Unsupported: programs are not implemented yet"); }
void Device::program_set_common_runtime_args(ProgramId, uint32_t, std::vector<uint32_t>) { throw Error(ErrorStatus::Unsupported, "Unsupported: programs are not implemented yet"); }
void Device::program_launch(ProgramId) { throw Error(ErrorStatus::Unsupported, "Unsupported: programs are not implemented yet"); }
void Device::wait() {}
}
