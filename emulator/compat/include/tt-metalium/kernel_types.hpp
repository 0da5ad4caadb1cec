// tt-metal's kernel configurations (tt-metalium/kernel_types.hpp; DataMovementProcessor, NOC,
// NOC_MODE were in data_types.hpp before). What the emulator does with each field:
// - DataMovementConfig: processor RISCV_0 → BRISC, RISCV_1 → NCRISC; noc; compile_args →
//   get_compile_time_arg_val(i); defines → -D; named_compile_args →
//   get_named_compile_time_arg_val("name"). noc_mode and opt_level are accepted and ignored.
// - ComputeConfig: math_fidelity, fp32_dest_acc_en, dst_full_sync_en, math_approx_mode,
//   compile_args, defines, named_compile_args, unpack_to_dest_mode (per CB: copy_tile of a
//   Float32 CB set to UnpackToDestFp32 is exact, else TF32; an FPU op reading such a CB faults);
//   bfp8_pack_precise and opt_level are ignored.
// - EthernetConfig: CreateKernel throws Unsupported (the emulator has no Ethernet cores).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <tt-metalium/base_types.hpp>

namespace tt::tt_metal {

// 341 = 4096 B dispatch packet / (3 kernels × 4 B): unique + common runtime args per kernel per core.
constexpr uint32_t max_runtime_args = 341;

using KernelHandle = std::uint32_t;

enum class DataMovementProcessor { RISCV_0 = 0, RISCV_1 = 1 };

enum NOC : uint8_t { RISCV_0_default = 0, RISCV_1_default = 1, NOC_0 = 0, NOC_1 = 1 };

enum NOC_MODE : uint8_t { DM_DEDICATED_NOC = 0, DM_DYNAMIC_NOC = 1 };

enum class KernelBuildOptLevel : uint8_t { O1, O2, O3, O0, Os, Ofast, Oz };

enum class CoreType { WORKER = 0, ETH = 1, DRAM = 2 };

struct DataMovementConfig {
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    NOC noc = NOC::RISCV_0_default;
    NOC_MODE noc_mode = NOC_MODE::DM_DEDICATED_NOC;
    std::vector<uint32_t> compile_args = {};
    std::map<std::string, std::string> defines = {};
    std::unordered_map<std::string, uint32_t> named_compile_args = {};
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2;
};

// A reader: NCRISC (RISCV_1), on NoC 0 (tt-metal's preferred NoC for DRAM reads on Wormhole and Blackhole).
struct ReaderDataMovementConfig : public DataMovementConfig {
    ReaderDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2);
};

// A writer: BRISC (RISCV_0), on NoC 1 (tt-metal's preferred NoC for DRAM writes).
struct WriterDataMovementConfig : public DataMovementConfig {
    WriterDataMovementConfig(std::vector<uint32_t> compile_args = {}, std::map<std::string, std::string> defines = {},
                             std::unordered_map<std::string, uint32_t> named_compile_args = {},
                             KernelBuildOptLevel opt_level = KernelBuildOptLevel::O2);
};

struct ComputeConfig {
    MathFidelity math_fidelity = MathFidelity::HiFi4;
    bool fp32_dest_acc_en = false;
    bool dst_full_sync_en = false;
    std::vector<UnpackToDestMode> unpack_to_dest_mode = {};
    bool bfp8_pack_precise = false;
    bool math_approx_mode = false;
    std::vector<uint32_t> compile_args = {};
    std::map<std::string, std::string> defines = {};
    std::unordered_map<std::string, uint32_t> named_compile_args = {};
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::O3;
};

enum Eth : uint8_t { SENDER = 0, RECEIVER = 1, IDLE = 2 };

// Declared so that programs naming it compile; CreateKernel with it throws Unsupported.
struct EthernetConfig {
    Eth eth_mode = Eth::SENDER;
    NOC noc = NOC::NOC_0;
    DataMovementProcessor processor = DataMovementProcessor::RISCV_0;
    std::vector<uint32_t> compile_args = {};
    std::map<std::string, std::string> defines = {};
    std::unordered_map<std::string, uint32_t> named_compile_args = {};
    KernelBuildOptLevel opt_level = KernelBuildOptLevel::Os;
};

}  // namespace tt::tt_metal
