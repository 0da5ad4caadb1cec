#include "core/dtype.hpp"

namespace zyx {
namespace {
constexpr std::string_view kNames[kNumDTypes] = {"f64", "f32", "f16", "bf16", "i8",  "i16", "i32",
                                                 "i64", "u8",  "u16", "u32",  "u64", "bool"};
}

std::string_view dtype_name(DType t) {
    auto i = static_cast<unsigned>(t);
    return i < kNumDTypes ? kNames[i] : "?";
}

bool dtype_from_name(std::string_view name, DType* out) {
    for (int i = 0; i < kNumDTypes; ++i)
        if (kNames[i] == name) {
            *out = static_cast<DType>(i);
            return true;
        }
    return false;
}

}  // namespace zyx
