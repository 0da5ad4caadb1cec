// Helpers shared by the runtime tests: the runtime of this build tree, a line-by-line driver
// for raw protocol tests, and private lock directories so parallel tests never collide.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/tenstorrent/device.hpp"
#include "backend/tenstorrent/runtime_process.hpp"
#include "backend/tenstorrent/staging_arena.hpp"

namespace zyx::tt::test {

// $ZYX_BUILD_DIR/bin/zyx-tt-runtime (set by ctest), else find_runtime_executable().
std::filesystem::path runtime_path();
// A fresh, empty directory under /tmp unique to this process and tag.
std::filesystem::path temp_dir(const std::string& tag);
// Open options for a private device: own lock directory, default config with short timeouts.
OpenOptions open_options(const std::string& tag);

// Drives a runtime by writing request lines and reading response lines.
struct RawRuntime {
    explicit RawRuntime(std::vector<std::string> extra_args = {});
    // Sends `line` + '\n' (plus optional raw bytes) and returns the parsed response line.
    nlohmann::json request(const std::string& line, const std::string& raw = "");
    // As request(), and asserts "ok": true.
    nlohmann::json ok(const std::string& line, const std::string& raw = "");
    // hello + an arena of `arena_bytes`.
    void start(uint64_t arena_bytes = 1 << 20);

    std::unique_ptr<RuntimeProcess> proc;
    std::unique_ptr<StagingArena> arena;
};

}  // namespace zyx::tt::test
