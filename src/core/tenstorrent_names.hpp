// The Tenstorrent vocabulary zyx uses everywhere: tt::DataFormat codes, which processors a kernel
// runs on, and math fidelity. One definition shared by the emulator (emulator/src/emu/device.hpp,
// emulator/tile/tile_math.hpp), the device runtime (runtime/) and the runtime protocol
// (src/backend/tenstorrent/protocol.hpp), which name these types `zyx::emu::DataFormat`,
// `zyx::tt::protocol::DataFormat`, … through aliases.
//
// Names and numeric values are tt-metal's (its `tt::DataFormat` and `MathFidelity`, tt-metal's
// public host API headers), so a value can be handed to tt-metal or to a kernel's
// `DataFormat` / typecast template argument unchanged. The runtime protocol carries names, never
// the numbers (docs/protocol.md): the wire names below are its spellings.
#pragma once

#include <cstdint>
#include <string_view>

namespace zyx::tt {

// tt::DataFormat codes of the formats zyx uses, with tt-metal's numeric values.
enum class DataFormat : uint8_t {
    Float32 = 0,
    Float16 = 1,    // Tensix FP16 (docs/numerics.md)
    Bfp8 = 2,       // block float with 5-bit exponents: not implemented by the emulator
    Float16_b = 5,  // bfloat16
    Bfp8_b = 6,
    Int32 = 8,
    UInt16 = 9,
    UInt32 = 24,
    UInt8 = 30,
    Invalid = 0xff,
};

// tt-metal's spelling ("Float16_b", "Bfp8_b", …); "Invalid" for Invalid and for any value not
// listed above.
std::string_view data_format_name(DataFormat f);

// The formats the runtime protocol names (docs/protocol.md: CB formats, hello's data_formats),
// in the order the protocol lists them. Bfp8 and Invalid are not among them.
inline constexpr DataFormat kWireDataFormats[] = {
    DataFormat::Float32, DataFormat::Float16, DataFormat::Float16_b, DataFormat::Bfp8_b,
    DataFormat::Int32,   DataFormat::UInt32,  DataFormat::UInt16,    DataFormat::UInt8,
};

// The format a wire name (an element of kWireDataFormats, spelt as data_format_name spells it)
// stands for. False, and *out untouched, for any other string, "Bfp8" and "Invalid" included.
bool data_format_from_name(std::string_view name, DataFormat* out);

// Bytes of one 32×32 tile: Float32 / Int32 / UInt32 4096, Float16 / Float16_b / UInt16 2048,
// UInt8 1024, Bfp8 / Bfp8_b 1088 (1024 mantissa bytes + 64 shared exponents); 0 for Invalid and
// any value not listed above.
uint32_t tile_size_bytes(DataFormat f);

// Which processors run a kernel: data_movement_0 = BRISC (RISCV_0, NoC 0 by default),
// data_movement_1 = NCRISC (RISCV_1, NoC 1 by default), compute = TRISC0/1/2 (the same source
// run as UNPACK, MATH and PACK). The values index per-kind tables (0, 1, 2).
enum class KernelKind : uint8_t {
    data_movement_0,
    data_movement_1,
    compute,
    // Older emulator spellings of the same three values, still used by examples/ and bench/.
    // New code uses the names above; these go once those callers have moved.
    DataMovement0 = data_movement_0,
    DataMovement1 = data_movement_1,
    Compute = compute,
};
inline constexpr KernelKind kKernelKinds[] = {KernelKind::data_movement_0, KernelKind::data_movement_1,
                                              KernelKind::compute};
// "data_movement_0", "data_movement_1", "compute" (the protocol's names); "invalid" otherwise.
std::string_view kernel_kind_name(KernelKind k);
// Inverse of kernel_kind_name for the three kinds; false (and *out untouched) otherwise.
bool kernel_kind_from_name(std::string_view name, KernelKind* out);

// Math fidelity: how many of the multiplier's phases the FPU runs (docs/numerics.md §5).
// tt-metal's values.
enum class MathFidelity : uint8_t { LoFi = 0, HiFi2 = 2, HiFi3 = 3, HiFi4 = 4 };
inline constexpr MathFidelity kMathFidelities[] = {MathFidelity::LoFi, MathFidelity::HiFi2, MathFidelity::HiFi3,
                                                   MathFidelity::HiFi4};
// "LoFi", "HiFi2", "HiFi3", "HiFi4"; "invalid" for any other value.
std::string_view math_fidelity_name(MathFidelity m);

// How copy_tile (and the other datacopies to DST) unpacks a CB, per CB (tt-metal's values;
// docs/numerics.md §2): Default goes through SrcA, which holds a Float32 tile as TF32;
// UnpackToDestFp32 writes a Float32 tile into DST whole, and the FPU can no longer read that CB.
enum class UnpackToDestMode : uint8_t { Default = 0, UnpackToDestFp32 = 1 };
// Inverse of math_fidelity_name for the four fidelities; false (and *out untouched) otherwise.
bool math_fidelity_from_name(std::string_view name, MathFidelity* out);

}  // namespace zyx::tt
