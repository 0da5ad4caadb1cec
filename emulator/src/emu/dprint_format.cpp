// DEVICE_PRINT's formatter (dprint_format.hpp).
#include "emu/dprint_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/error.hpp"

namespace zyx::emu {
namespace {

struct Spec {
    char fill = ' ';
    char align = 0;  // '<', '>', '^' or 0 (the type's default)
    char sign = '-';
    bool alt = false, zero = false;
    int width = 0, precision = -1;
    char type = 0;
};

[[noreturn]] void bad(const zyx_emu_dprint_format& m, const std::string& why,
                      ErrorStatus status = ErrorStatus::KernelFault) {
    std::string head = status == ErrorStatus::Unsupported ? "Unsupported: DEVICE_PRINT(\"" : "DEVICE_PRINT(\"";
    throw Error(status, head + m.format + "\"): " + why);
}

// Parses the spec between ':' and '}' of one field.
Spec parse_spec(const zyx_emu_dprint_format& m, const std::string& s) {
    Spec sp;
    size_t i = 0;
    auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
    if (s.size() >= 2 && is_align(s[1])) {
        sp.fill = s[0], sp.align = s[1], i = 2;
    } else if (!s.empty() && is_align(s[0])) {
        sp.align = s[0], i = 1;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) sp.sign = s[i++];
    if (i < s.size() && s[i] == '#') sp.alt = true, ++i;
    if (i < s.size() && s[i] == '0') sp.zero = true, ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') sp.width = sp.width * 10 + (s[i++] - '0');
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (i >= s.size() || s[i] < '0' || s[i] > '9') bad(m, "precision without digits in '{:" + s + "}'");
        sp.precision = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') sp.precision = sp.precision * 10 + (s[i++] - '0');
    }
    if (i < s.size() && std::strchr("dxXobBcfFeEgGs", s[i])) sp.type = s[i++];
    if (i != s.size()) {
        if (s.find('{') != std::string::npos || s.find('L') != std::string::npos || s.find('a') != std::string::npos)
            bad(m, "format spec '{:" + s + "}' (nested width or precision, locale, hex floats)",
                ErrorStatus::Unsupported);
        bad(m, "invalid format spec '{:" + s + "}'");
    }
    return sp;
}

std::string pad(std::string body, const Spec& sp, char default_align, size_t sign_prefix_len) {
    if (sp.width <= 0 || body.size() >= size_t(sp.width)) return body;
    size_t n = size_t(sp.width) - body.size();
    if (sp.zero && !sp.align) return body.insert(sign_prefix_len, n, '0');
    char a = sp.align ? sp.align : default_align;
    if (a == '<') return body + std::string(n, sp.fill);
    if (a == '>') return std::string(n, sp.fill) + body;
    return std::string(n / 2, sp.fill) + body + std::string(n - n / 2, sp.fill);
}

std::string sign_of(bool negative, char sign) {
    if (negative) return "-";
    return sign == '+' ? "+" : sign == ' ' ? " " : "";
}

std::string format_int(const zyx_emu_dprint_format& m, bool negative, uint64_t mag, const Spec& sp, const char* what) {
    if (sp.precision >= 0) bad(m, std::string("a precision for ") + what + " argument");
    char buf[80];
    int base = 10;
    std::string prefix;
    switch (sp.type) {
        case 0:
        case 'd': break;
        case 'x': base = 16, prefix = "0x"; break;
        case 'X': base = 16, prefix = "0X"; break;
        case 'o': base = 8, prefix = mag ? "0" : ""; break;
        case 'b': base = 2, prefix = "0b"; break;
        case 'B': base = 2, prefix = "0B"; break;
        default: bad(m, std::string("format type '") + sp.type + "' for " + what + " argument");
    }
    auto r = std::to_chars(buf, buf + sizeof buf, mag, base);
    std::string digits(buf, r.ptr);
    if (sp.type == 'X')
        for (char& c : digits) c = char(std::toupper(uint8_t(c)));
    std::string head = sign_of(negative, sp.sign) + (sp.alt ? prefix : std::string());
    return pad(head + digits, sp, '>', head.size());
}

// fmt's float output; `single` formats with float's shortest round trip.
std::string format_float(const zyx_emu_dprint_format& m, double v, bool single, const Spec& sp) {
    bool negative = std::signbit(v) && !std::isnan(v);
    double a = std::fabs(v);
    std::string body;
    if (!std::isfinite(a)) {
        body = std::isnan(a) ? "nan" : "inf";
        if (sp.type && std::isupper(uint8_t(sp.type))) body = std::isnan(a) ? "NAN" : "INF";
    } else if (!sp.type && sp.precision < 0) {
        // Shortest round trip; fixed notation for decimal exponents -4 … 15, else scientific.
        char buf[64];
        auto r = single ? std::to_chars(buf, buf + sizeof buf, float(a), std::chars_format::scientific)
                        : std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
        std::string sci(buf, r.ptr);
        int exp10 = std::atoi(sci.c_str() + sci.find('e') + 1);
        if (exp10 >= -4 && exp10 < 16) {
            r = single ? std::to_chars(buf, buf + sizeof buf, float(a), std::chars_format::fixed)
                       : std::to_chars(buf, buf + sizeof buf, a, std::chars_format::fixed);
            body.assign(buf, r.ptr);
        } else {
            body = sci;
        }
    } else {
        char conv = sp.type ? sp.type : 'g';
        if (!std::strchr("fFeEgG", conv)) bad(m, std::string("format type '") + conv + "' for a float argument");
        int prec = sp.precision >= 0 ? sp.precision : 6;
        std::string fmt = std::string("%") + (sp.alt ? "#" : "") + ".*" + conv;
        std::vector<char> buf(size_t(std::snprintf(nullptr, 0, fmt.c_str(), prec, a)) + 1);  // allow-print
        std::snprintf(buf.data(), buf.size(), fmt.c_str(), prec, a);                         // allow-print
        body = buf.data();
    }
    std::string head = sign_of(negative, sp.sign);
    Spec padding = sp;
    if (!std::isfinite(a)) padding.zero = false;  // inf and nan pad with the fill, as fmt does
    return pad(head + body, padding, '>', head.size());
}

std::string format_arg(const zyx_emu_dprint_format& m, const zyx_emu_dprint_arg& arg, const Spec& sp) {
    switch (arg.kind) {
        case ZYX_EMU_DPRINT_I64: {
            if (sp.type == 'c') return pad(std::string(1, char(arg.value)), sp, '<', 0);
            int64_t v = int64_t(arg.value);
            return format_int(m, v < 0, v < 0 ? 0 - uint64_t(v) : uint64_t(v), sp, "an integer");
        }
        case ZYX_EMU_DPRINT_U64:
            if (sp.type == 'c') return pad(std::string(1, char(arg.value)), sp, '<', 0);
            return format_int(m, false, arg.value, sp, "an integer");
        case ZYX_EMU_DPRINT_CHAR:
            if (!sp.type || sp.type == 'c') {
                if (sp.sign != '-' || sp.alt || sp.zero || sp.precision >= 0)
                    bad(m, "a sign, '#', '0' or precision for a char");
                return pad(std::string(1, char(arg.value)), sp, '<', 0);
            }
            return format_int(m, false, uint8_t(arg.value), sp, "a char");
        case ZYX_EMU_DPRINT_BOOL:
            if (!sp.type || sp.type == 's') {
                if (sp.sign != '-' || sp.alt || sp.zero || sp.precision >= 0)
                    bad(m, "a sign, '#', '0' or precision for a bool");
                return pad(arg.value ? "true" : "false", sp, '<', 0);
            }
            return format_int(m, false, arg.value ? 1 : 0, sp, "a bool");
        case ZYX_EMU_DPRINT_STR: {
            if (sp.type && sp.type != 's') bad(m, std::string("format type '") + sp.type + "' for a string");
            if (sp.sign != '-' || sp.alt || sp.zero) bad(m, "a sign, '#' or '0' for a string");
            std::string s = reinterpret_cast<const char*>(uintptr_t(arg.value));
            if (sp.precision >= 0 && s.size() > size_t(sp.precision)) s.resize(size_t(sp.precision));
            return pad(s, sp, '<', 0);
        }
        case ZYX_EMU_DPRINT_F32:
        case ZYX_EMU_DPRINT_BF16: {
            uint32_t bits = arg.kind == ZYX_EMU_DPRINT_BF16 ? uint32_t(uint16_t(arg.value)) << 16 : uint32_t(arg.value);
            float x;
            std::memcpy(&x, &bits, 4);
            return format_float(m, x, true, sp);
        }
        case ZYX_EMU_DPRINT_F64: {
            double x;
            std::memcpy(&x, &arg.value, 8);
            return format_float(m, x, false, sp);
        }
        default: bad(m, "argument of unknown kind " + std::to_string(arg.kind));
    }
}

}  // namespace

std::string format_device_print(const zyx_emu_dprint_format& m) {
    std::string out;
    const char* s = m.format;
    uint32_t next = 0;
    bool indexed = false, plain = false;
    for (; *s; ++s) {
        if (*s == '}') {
            if (s[1] != '}') bad(m, "unmatched '}'");
            out += '}', ++s;
            continue;
        }
        if (*s != '{') {
            out += *s;
            continue;
        }
        if (s[1] == '{') {
            out += '{', ++s;
            continue;
        }
        const char* close = std::strchr(s, '}');
        if (!close) bad(m, "unterminated '{'");
        std::string field(s + 1, close);
        s = close;
        size_t colon = field.find(':');
        std::string id = field.substr(0, colon);
        uint32_t index = 0;
        if (id.empty()) {
            plain = true;
            index = next++;
        } else {
            for (char c : id)
                if (c < '0' || c > '9')
                    bad(m, "field '{" + field + "}': named arguments are not supported", ErrorStatus::Unsupported);
            indexed = true;
            index = uint32_t(std::stoul(id));
        }
        if (indexed && plain) bad(m, "indexed ({0}) and automatic ({}) fields mixed");
        if (index >= m.num_args)
            bad(m, "field {" + field + "} has no argument (" + std::to_string(m.num_args) + " given)");
        Spec sp = colon == std::string::npos ? Spec{} : parse_spec(m, field.substr(colon + 1));
        out += format_arg(m, m.args[index], sp);
    }
    return out;
}

}  // namespace zyx::emu
