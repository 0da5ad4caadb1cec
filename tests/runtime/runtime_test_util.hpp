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
// The runtime target the tests drive: $ZYX_TEST_RUNTIME_TARGET ("emulator" when unset or empty,
// or "metal": the metal target, built against the emulator's tt-metal compat layer when no
// tt-metal is installed). Any other value fails the calling test, naming the value.
std::string runtime_target();
// Skips the calling test under the metal target, naming why (a behaviour only the emulator
// target has, e.g. its own fault messages or presets).
#define ZYX_SKIP_UNLESS_EMULATOR_TARGET(why)                                                               \
    do {                                                                                                   \
        if (::zyx::tt::test::runtime_target() != "emulator")                                               \
            GTEST_SKIP() << "emulator target only (running --target " << ::zyx::tt::test::runtime_target() \
                         << "): " << why;                                                                  \
    } while (0)
// A fresh, empty directory under /tmp unique to this process and tag.
std::filesystem::path temp_dir(const std::string& tag);
// Open options for a private device: own lock directory, default config with short timeouts,
// the target runtime_target().
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
