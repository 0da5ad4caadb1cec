// Facts about tt::DataFormat values (declared in emu/device.hpp). They live in the tile library,
// the lowest layer of the emulator, so that it and everything above it share one definition.
#include "emu/device.hpp"

namespace zyx::emu {

uint32_t tile_size_bytes(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: case DataFormat::Int32: case DataFormat::UInt32: return 4096;
        case DataFormat::Float16: case DataFormat::Float16_b: case DataFormat::UInt16: return 2048;
        case DataFormat::Bfp8: case DataFormat::Bfp8_b: return 1088;
        case DataFormat::UInt8: return 1024;
        case DataFormat::Invalid: break;
    }
    return 0;
}

const char* data_format_name(DataFormat f) {
    switch (f) {
        case DataFormat::Float32: return "Float32";
        case DataFormat::Float16: return "Float16";
        case DataFormat::Bfp8: return "Bfp8";
        case DataFormat::Float16_b: return "Float16_b";
        case DataFormat::Bfp8_b: return "Bfp8_b";
        case DataFormat::Int32: return "Int32";
        case DataFormat::UInt16: return "UInt16";
        case DataFormat::UInt32: return "UInt32";
        case DataFormat::UInt8: return "UInt8";
        case DataFormat::Invalid: break;
    }
    return "Invalid";
}

}  // namespace zyx::emu
