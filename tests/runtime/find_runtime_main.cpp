// tt_find_runtime: prints the path find_runtime_executable() returns when called from this
// executable, wherever it has been copied to (test_install.cpp copies it into install-like
// trees). Exit status 1 with the error on stderr when nothing is found.
#include <cstdio>

#include "backend/tenstorrent/device.hpp"
#include "core/error.hpp"

int main() {
    try {
        std::printf("%s\n", zyx::tt::find_runtime_executable().c_str());
        return 0;
    } catch (const zyx::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
