// Name tables of the shared Tenstorrent vocabulary (tenstorrent_names.hpp).
#include "core/tenstorrent_names.hpp"

namespace zyx::tt {

std::string_view data_format_name(DataFormat f) {
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

bool data_format_from_name(std::string_view name, DataFormat* out) {
    for (DataFormat f : kWireDataFormats) {
        if (data_format_name(f) == name) {
            *out = f;
            return true;
        }
    }
    return false;
}

uint32_t tile_size_bytes(DataFormat f) {
    switch (f) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32: return 4096;
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16: return 2048;
        case DataFormat::Bfp8:
        case DataFormat::Bfp8_b: return 1088;
        case DataFormat::UInt8: return 1024;
        case DataFormat::Invalid: break;
    }
    return 0;
}

std::string_view kernel_kind_name(KernelKind k) {
    switch (k) {
        case KernelKind::data_movement_0: return "data_movement_0";
        case KernelKind::data_movement_1: return "data_movement_1";
        case KernelKind::compute: return "compute";
    }
    return "invalid";
}

bool kernel_kind_from_name(std::string_view name, KernelKind* out) {
    for (KernelKind k : kKernelKinds) {
        if (kernel_kind_name(k) == name) {
            *out = k;
            return true;
        }
    }
    return false;
}

std::string_view math_fidelity_name(MathFidelity m) {
    switch (m) {
        case MathFidelity::LoFi: return "LoFi";
        case MathFidelity::HiFi2: return "HiFi2";
        case MathFidelity::HiFi3: return "HiFi3";
        case MathFidelity::HiFi4: return "HiFi4";
    }
    return "invalid";
}

bool math_fidelity_from_name(std::string_view name, MathFidelity* out) {
    for (MathFidelity m : kMathFidelities) {
        if (math_fidelity_name(m) == name) {
            *out = m;
            return true;
        }
    }
    return false;
}

}  // namespace zyx::tt
