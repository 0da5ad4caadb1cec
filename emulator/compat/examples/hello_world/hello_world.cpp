// Hello world: one data-movement kernel on each of the two data-movement RISC-Vs of core (0,0)
// and a compute kernel on its TRISCs, printing through DPRINT. Run with TT_METAL_DPRINT_CORES
// set to see the lines ("0:(x=0,y=0):BR: Hello, …"); the ctest test checks them
// (expect_output). Kernel paths are relative to TT_METAL_HOME (the zyx source tree).
#include <tt-metalium/host_api.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    // The same source on both data-movement processors: BRISC (RISCV_0, NoC 0) and NCRISC
    // (RISCV_1, NoC 1). A kernel learns which one it is on from noc_index.
    const std::string dm = "emulator/compat/examples/hello_world/kernels/void_dataflow_kernel.cpp";
    KernelHandle brisc =
        CreateKernel(program, dm, core,
                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_0, .noc = NOC::RISCV_0_default});
    KernelHandle ncrisc =
        CreateKernel(program, dm, core,
                     DataMovementConfig{.processor = DataMovementProcessor::RISCV_1, .noc = NOC::RISCV_1_default});
    CreateKernel(program, "emulator/compat/examples/hello_world/kernels/void_compute_kernel.cpp", core,
                 ComputeConfig{});

    SetRuntimeArgs(program, brisc, core, {7});
    SetRuntimeArgs(program, ncrisc, core, {11});

    EnqueueProgram(cq, program, false);
    log_info(tt::LogTest, "Hello, Core {} on Device {}, I am sending you a program. Standby awaiting communication.",
             core.str(), device->id());
    Finish(cq);
    log_info(tt::LogTest, "Thank you, Core {} on Device {}, for the completed task.", core.str(), device->id());
    CloseDevice(device);
    return 0;
}
