// Kernel JIT: turns C++ source into a loaded shared object, through a content-addressed cache
// that many processes can share.
//
// Cache layout: ${ZYX_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/zyx}/jit/<kind>/<key>.so, with the
// source beside it as <key>.cpp (handy when a kernel misbehaves). <key> is a hash of the source,
// the flags, the compiler's identity and the caller's salt, so the same text compiled the same
// way is built once per machine. Writers compile to a private temporary name and rename() it into
// place, so concurrent processes never see a half-written file; the loser of a race just uses the
// winner's identical output.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace zyx::jit {

struct CompileOptions {
    std::string kind = "misc";            // cache subfolder, e.g. "emu" or "host"
    std::string name = "kernel";          // shown in error messages and logs
    std::vector<std::string> flags;       // compiler flags: -O2, -I…, -D…, -include …
    std::vector<std::string> link_flags;  // after the source: -L…, -l…
    std::string salt;                     // anything else that changes the output (header digest)
    std::string compiler;                 // empty: $ZYX_CXX, else "c++"
};

// Returns the path of a shared object built from `source`, compiling it on a cache miss.
// Throws zyx::Error(KernelCompilation) carrying the compiler's own message on failure.
std::filesystem::path compile_shared(std::string_view source, const CompileOptions& opts);

// The cache key compile_shared would use (hex); exposed for tests and logs.
std::string cache_key(std::string_view source, const CompileOptions& opts);

// Root of the on-disk cache (see the layout above). Created on demand.
std::filesystem::path cache_root();

// 128-bit content hash as 32 hex digits (not cryptographic; stable across runs and machines).
std::string content_hash(std::string_view data);

// A dlopen()ed shared object. Symbols resolve against already-loaded libraries (the emulator's
// kernel runtime, libm …); the object is unloaded when the last Library for it goes away.
class Library {
public:
    Library() = default;
    explicit Library(const std::filesystem::path& path);
    ~Library();
    Library(Library&& o) noexcept;
    Library& operator=(Library&& o) noexcept;
    Library(const Library&) = delete;
    Library& operator=(const Library&) = delete;

    // Address of `name`, or nullptr when absent.
    void* symbol(const char* name) const;
    bool loaded() const { return handle_ != nullptr; }

private:
    void* handle_ = nullptr;
};

}  // namespace zyx::jit
