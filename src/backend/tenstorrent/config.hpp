// Tenstorrent settings from ${XDG_CONFIG_HOME:-~/.config}/zyx/config.json, section "tenstorrent":
//
//   {"tenstorrent": {
//       "device_ids": [0],              // null or absent: every device; []: backend disabled
//       "target": "emulator",           // "emulator" (default) or "metal"
//       "emulator_preset": "wormhole-n150",
//       "request_timeout_ms": 30000,    // small requests and transfers (a runtime's first answer,
//                                       // which waits for its device to come up: at least 30 s)
//       "compile_timeout_ms": 600000,
//       "run_timeout_ms": 600000
//   }}
//
// Every key is optional; an unknown key or a wrong type is an error naming the file and key
// (a typo must not silently fall back to a default). Other top-level sections belong to other
// parts of zyx and are ignored here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zyx::tt {

struct Config {
    std::optional<std::vector<uint32_t>> device_ids;  // nullopt = all devices
    std::string target = "emulator";
    std::string emulator_preset = "wormhole-n150";
    int request_timeout_ms = 30000;
    int compile_timeout_ms = 600000;
    int run_timeout_ms = 600000;
    std::filesystem::path origin;  // the file it was read from; empty when defaults
};

// ${XDG_CONFIG_HOME:-~/.config}/zyx/config.json (XDG_CONFIG_HOME only when absolute).
std::filesystem::path config_path();
// Parses a config.json text; `origin` names it in errors. Throws Error(InvalidArgument).
Config config_parse(std::string_view text, const std::filesystem::path& origin);
// Reads `path`; a missing file gives the defaults. Throws Error(InvalidArgument / Io).
Config config_load(const std::filesystem::path& path);
// The process-wide config, read once (thread-safe) from config_path(). A bad file throws the
// same Error on every call.
const Config& config();

}  // namespace zyx::tt
