// zyx::Device as a value: names and parsing.
#include <charconv>

#include "core/error.hpp"
#include "zyx/device.hpp"

namespace zyx {

Device Device::parse(std::string_view text) {
    if (text == "host" || text == "cpu") return host();
    if (text == "interpreter") return interpreter();
    if (text == "tt") return tt(0);
    if (text.size() > 3 && text.substr(0, 3) == "tt:") {
        uint32_t index = 0;
        std::string_view num = text.substr(3);
        auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), index);
        if (ec == std::errc() && end == num.data() + num.size()) return tt(index);
    }
    throw Error(ErrorStatus::InvalidArgument,
                "unknown device '" + std::string(text) + "' (expected host, interpreter, tt or tt:N)");
}

std::string Device::str() const {
    switch (kind_) {
        case Kind::host: return "host";
        case Kind::interpreter: return "interpreter";
        case Kind::tt: return "tt:" + std::to_string(index_);
    }
    return "?";
}

std::ostream& operator<<(std::ostream& os, const Device& d) { return os << d.str(); }

}  // namespace zyx
