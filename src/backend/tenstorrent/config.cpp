#include "backend/tenstorrent/config.hpp"

#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace zyx::tt {

using json = nlohmann::json;

std::filesystem::path config_path() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    std::filesystem::path base;
    if (xdg && *xdg && std::filesystem::path(xdg).is_absolute())
        base = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        base = std::filesystem::path(home) / ".config";
    else
        base = "/nonexistent/.config";
    return base / "zyx" / "config.json";
}

Config config_parse(std::string_view text, const std::filesystem::path& origin) {
    auto bad = [&](const std::string& what) -> Error {
        return Error(ErrorStatus::InvalidArgument, "config " + origin.string() + ": " + what);
    };
    json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (j.is_discarded()) throw bad("not valid JSON");
    if (!j.is_object()) throw bad("the top level must be an object");
    Config c;
    c.origin = origin;
    auto it = j.find("tenstorrent");
    if (it == j.end() || it->is_null()) return c;
    if (!it->is_object()) throw bad("'tenstorrent' must be an object");
    for (auto f = it->begin(); f != it->end(); ++f) {
        const std::string& k = f.key();
        const json& v = *f;
        auto timeout = [&]() -> int {
            if (!v.is_number_unsigned() || v.get<uint64_t>() < 1 || v.get<uint64_t>() > 86400000)
                throw bad("tenstorrent." + k + " must be an integer from 1 to 86400000 (milliseconds)");
            return int(v.get<uint64_t>());
        };
        if (k == "device_ids") {
            if (v.is_null()) continue;
            if (!v.is_array()) throw bad("tenstorrent.device_ids must be null or an array of device numbers");
            std::vector<uint32_t> ids;
            for (const json& d : v) {
                if (!d.is_number_unsigned() || d.get<uint64_t>() > 0xffff)
                    throw bad("tenstorrent.device_ids entries must be integers 0..65535");
                ids.push_back(uint32_t(d.get<uint64_t>()));
            }
            c.device_ids = std::move(ids);
        } else if (k == "target") {
            if (!v.is_string() || (v != "emulator" && v != "metal"))
                throw bad("tenstorrent.target must be \"emulator\" or \"metal\"");
            c.target = v.get<std::string>();
        } else if (k == "emulator_preset") {
            if (!v.is_string() || v.get<std::string>().empty())
                throw bad("tenstorrent.emulator_preset must be a preset name");
            c.emulator_preset = v.get<std::string>();
        } else if (k == "request_timeout_ms") {
            c.request_timeout_ms = timeout();
        } else if (k == "compile_timeout_ms") {
            c.compile_timeout_ms = timeout();
        } else if (k == "run_timeout_ms") {
            c.run_timeout_ms = timeout();
        } else {
            throw bad("unknown key tenstorrent." + k);
        }
    }
    return c;
}

Config config_load(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Config{};
    std::ifstream f(path);
    if (!f) throw Error(ErrorStatus::Io, "config " + path.string() + ": cannot be read");
    std::stringstream ss;
    ss << f.rdbuf();
    return config_parse(ss.str(), path);
}

const Config& config() {
    static std::once_flag once;
    static Config cfg;
    static std::optional<Error> failure;
    std::call_once(once, [] {
        try {
            cfg = config_load(config_path());
        } catch (const Error& e) { failure = e; }
    });
    if (failure) throw *failure;
    return cfg;
}

}  // namespace zyx::tt
