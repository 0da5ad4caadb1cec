#include "jit/jit.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/subprocess.hpp"

namespace fs = std::filesystem;

namespace zyx::jit {
namespace {

std::string compiler_of(const CompileOptions& o) {
    if (!o.compiler.empty()) return o.compiler;
    if (const char* env = std::getenv("ZYX_CXX"); env && *env) return env;
    return "c++";
}

// `<compiler> --version`, asked once per compiler per process: part of every cache key so that a
// compiler upgrade never reuses objects built by the old one.
const std::string& compiler_identity(const std::string& compiler) {
    static std::mutex mu;
    static std::unordered_map<std::string, std::string> ids;
    std::lock_guard<std::mutex> lock(mu);
    auto it = ids.find(compiler);
    if (it != ids.end()) return it->second;
    std::string id;
    try {
        auto r = subprocess_run({compiler, "--version"});
        id = r.output.substr(0, r.output.find('\n'));
    } catch (const Error&) { id = "unavailable"; }
    return ids.emplace(compiler, id).first->second;
}

void write_file_atomically(const fs::path& path, std::string_view data) {
    static std::atomic<unsigned> counter{0};
    fs::path tmp = path;
    tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    {
        std::ofstream f(tmp, std::ios::binary);
        f.write(data.data(), std::streamsize(data.size()));
        if (!f) throw Error(ErrorStatus::Io, "cannot write " + tmp.string());
    }
    fs::rename(tmp, path);
}

}  // namespace

std::string content_hash(std::string_view data) {
    // Two independent 64-bit FNV-1a lanes with a final avalanche each.
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
    for (unsigned char c : data) {
        a = (a ^ c) * 0x100000001b3ull;
        b = (b ^ c) * 0x00000100000001b3ull ^ (b >> 29);
    }
    auto mix = [](uint64_t x) {
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdull;
        x ^= x >> 33;
        x *= 0xc4ceb9fe1a85ec53ull;
        return x ^ (x >> 33);
    };
    char out[33];
    std::snprintf(out, sizeof out, "%016llx%016llx", (unsigned long long)mix(a),  // allow-print: formats into a buffer
                  (unsigned long long)mix(b ^ data.size()));
    return out;
}

fs::path cache_root() {
    fs::path root;
    if (const char* d = std::getenv("ZYX_CACHE_DIR"); d && *d)
        root = d;
    else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x && x[0] == '/')
        root = fs::path(x) / "zyx";
    else if (const char* h = std::getenv("HOME"); h && *h)
        root = fs::path(h) / ".cache" / "zyx";
    else
        root = fs::temp_directory_path() / ("zyx-cache-" + std::to_string(::getuid()));
    return root;
}

std::string cache_key(std::string_view source, const CompileOptions& opts) {
    std::string compiler = compiler_of(opts);
    std::ostringstream key;
    key << compiler << '\n' << compiler_identity(compiler) << '\n' << opts.salt << '\n';
    for (const auto& f : opts.flags) key << f << '\x1f';
    key << '\n';
    for (const auto& f : opts.link_flags) key << f << '\x1f';
    key << '\n' << source;
    return content_hash(key.str());
}

fs::path compile_shared(std::string_view source, const CompileOptions& opts) {
    // Per-process memo: a hit costs one hash and one map lookup, no file system traffic.
    static std::mutex memo_mu;
    static std::unordered_map<std::string, fs::path> memo;

    std::string key = cache_key(source, opts);
    {
        std::lock_guard<std::mutex> lock(memo_mu);
        auto it = memo.find(key);
        if (it != memo.end()) return it->second;
    }

    fs::path dir = cache_root() / "jit" / opts.kind;
    fs::path so = dir / (key + ".so");
    std::error_code ec;
    if (fs::exists(so, ec)) {
        ZYX_LOG(jit) << opts.name << ": cache hit " << so.string();
    } else {
        fs::create_directories(dir, ec);
        if (ec) throw Error(ErrorStatus::Io, "cannot create cache directory " + dir.string() + ": " + ec.message());
        fs::path src = dir / (key + ".cpp");
        write_file_atomically(src, source);

        static std::atomic<unsigned> counter{0};
        fs::path tmp = so;
        tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);

        std::vector<std::string> argv{compiler_of(opts)};
        argv.insert(argv.end(), opts.flags.begin(), opts.flags.end());
        for (const char* f : {"-shared", "-fPIC", "-o"}) argv.emplace_back(f);
        argv.push_back(tmp.string());
        argv.push_back(src.string());
        argv.insert(argv.end(), opts.link_flags.begin(), opts.link_flags.end());

        if (log_enabled(LogChannel::jit)) {
            std::ostringstream cmd;
            for (const auto& a : argv) cmd << a << ' ';
            ZYX_LOG(jit) << opts.name << ": compiling: " << cmd.str();
        }
        SubprocessResult r = subprocess_run(argv);
        if (r.exit_code != 0) {
            fs::remove(tmp, ec);
            throw Error(ErrorStatus::KernelCompilation,
                        "compiling " + opts.name + " failed (exit " + std::to_string(r.exit_code) + ", source " +
                            src.string() + "):\n" + r.output);
        }
        fs::rename(tmp, so, ec);
        if (ec) throw Error(ErrorStatus::Io, "cannot move " + tmp.string() + " into the cache: " + ec.message());
    }
    std::lock_guard<std::mutex> lock(memo_mu);
    memo.emplace(key, so);
    return so;
}

Library::Library(const fs::path& path) {
    handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* err = ::dlerror();
        throw Error(ErrorStatus::KernelCompilation,
                    "cannot load " + path.string() + ": " + (err ? err : "unknown dlopen error"));
    }
}

Library::~Library() {
    if (handle_) ::dlclose(handle_);
}

Library::Library(Library&& o) noexcept : handle_(o.handle_) { o.handle_ = nullptr; }

Library& Library::operator=(Library&& o) noexcept {
    if (this != &o) {
        if (handle_) ::dlclose(handle_);
        handle_ = o.handle_;
        o.handle_ = nullptr;
    }
    return *this;
}

void* Library::symbol(const char* name) const { return handle_ ? ::dlsym(handle_, name) : nullptr; }

}  // namespace zyx::jit
