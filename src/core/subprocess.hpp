// Running other programs without a shell: an argument vector, posix_spawn, nothing else.
#pragma once

#include <string>
#include <vector>

namespace zyx {

struct SubprocessResult {
    int exit_code = -1;  // exit status, or 128+signal when the child was killed by a signal
    std::string output;  // stdout and stderr, interleaved as the child wrote them
};

// Runs argv[0] (looked up in PATH when it has no '/') with the given arguments, waits for it and
// returns its exit code and combined output. Throws zyx::Error(Io) when the program cannot be
// started at all.
SubprocessResult subprocess_run(const std::vector<std::string>& argv);

}  // namespace zyx
