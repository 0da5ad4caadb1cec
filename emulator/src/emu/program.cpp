// Programs: validation (core ranges, CBs, L1 fit, kernel placement), kernel compilation through
// the JIT cache, runtime args.
#include "emu/program.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>

#include "core/error.hpp"
#include "core/log.hpp"
#include "emu/device_impl.hpp"
#include "emu/engine.hpp"

namespace fs = std::filesystem;

namespace zyx::emu {
namespace {

std::string range_str(const CoreRange& r) { return coord_str(r.start) + "-" + coord_str(r.end); }

// Where kernels find the kernel API headers, decided once per process, first match wins:
//   a. $ZYX_EMU_INCLUDE_DIR;
//   b. <dir of the running executable>/ZYX_EMU_INSTALLED_INCLUDE_REL: the installed layout,
//      <prefix>/libexec/zyx/zyx-tt-runtime beside <prefix>/share/zyx/emulator/include;
//   c. <dir of the running executable>/emulator/include: a runtime bundled with a copy of the
//      headers (the Python package);
//   d. <dir of the shared library holding this code>/ZYX_EMU_INSTALLED_INCLUDE_REL_FROM_LIB: the
//      installed package zyx-tt-metal, <prefix>/lib/libzyx-tt-metal.so beside
//      <prefix>/share/zyx/emulator/include;
//   e. the source tree this library was built from (ZYX_EMU_INCLUDE_DIR at build time).
// b, c and d count only when the directory holds zyx_emu/kernel_abi.h.
std::string include_dir() {
    static const std::string dir = [] {
        std::string rule = "ZYX_EMU_INCLUDE_DIR";
        std::string found;
        if (const char* d = std::getenv("ZYX_EMU_INCLUDE_DIR"); d && *d) found = d;
        std::error_code ec;
        fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
        if (found.empty() && !ec && !exe_dir.empty()) {
            Dl_info self{};
            fs::path lib_dir;
            if (dladdr(reinterpret_cast<void*>(&include_dir), &self) && self.dli_fname)
                lib_dir = fs::absolute(self.dli_fname, ec).parent_path();
            const std::pair<fs::path, const char*> places[] = {
                {exe_dir / ZYX_EMU_INSTALLED_INCLUDE_REL, "installed layout"},
                {exe_dir / "emulator" / "include", "bundled beside the executable"},
                {lib_dir.empty() ? fs::path() : lib_dir / ZYX_EMU_INSTALLED_INCLUDE_REL_FROM_LIB,
                 "installed beside the shared library"}};
            for (const auto& [p, name] : places) {
                if (!p.empty() && fs::is_regular_file(p / "zyx_emu" / "kernel_abi.h", ec)) {
                    found = p.lexically_normal().string();
                    rule = name;
                    break;
                }
            }
        }
        if (found.empty()) {
            found = ZYX_EMU_INCLUDE_DIR;
            rule = "source tree";
        }
        ZYX_LOG(emu) << "kernel API headers: " << found << " (" << rule << ")";
        return found;
    }();
    return dir;
}

// Hash of every kernel API header: part of each kernel's cache key, so editing a header rebuilds
// the kernels that saw the old one.
const std::string& header_salt() {
    static std::once_flag once;
    static std::string salt;
    std::call_once(once, [] {
        std::vector<fs::path> files;
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(include_dir(), ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file()) files.push_back(it->path());
        std::sort(files.begin(), files.end());
        std::string all = "abi " + std::to_string(ZYX_EMU_ABI_VERSION) + "\n";
        for (const auto& f : files) {
            std::ifstream in(f, std::ios::binary);
            std::ostringstream ss;
            ss << in.rdbuf();
            all += f.lexically_relative(include_dir()).string() + "\n" + ss.str();
        }
        salt = jit::content_hash(all);
    });
    return salt;
}

// Names of writable data objects a kernel defines (globals, statics, function-local statics).
// One compiled kernel is shared by every core that runs it, so such state would be shared too.
std::vector<std::string> mutable_globals(const std::string& so_path) {
    std::ifstream in(so_path, std::ios::binary);
    std::string img((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> out;
    if (img.size() < sizeof(Elf64_Ehdr)) return out;
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(img.data());
    if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64) return out;
    if (eh->e_shoff + uint64_t(eh->e_shnum) * sizeof(Elf64_Shdr) > img.size()) return out;
    const auto* sh = reinterpret_cast<const Elf64_Shdr*>(img.data() + eh->e_shoff);
    const char* shstr = img.data() + sh[eh->e_shstrndx].sh_offset;
    static const char* kAllowed[] = {
        "zyx_emu_table", "__dso_handle", "__TMC_END__", "completed.0", "_GLOBAL_OFFSET_TABLE_",
        "_DYNAMIC",      "__bss_start",  "_edata",      "_end"};
    for (int i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type != SHT_SYMTAB) continue;
        const auto* syms = reinterpret_cast<const Elf64_Sym*>(img.data() + sh[i].sh_offset);
        const char* strtab = img.data() + sh[sh[i].sh_link].sh_offset;
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < n; ++k) {
            const auto& s = syms[k];
            int type = ELF64_ST_TYPE(s.st_info);
            if ((type != STT_OBJECT && type != STT_TLS) || s.st_shndx == SHN_UNDEF || s.st_shndx >= eh->e_shnum)
                continue;
            const auto& sec = sh[s.st_shndx];
            std::string secname = shstr + sec.sh_name;
            if (!(sec.sh_flags & SHF_WRITE) || secname.rfind(".data.rel.ro", 0) == 0 || secname == ".got" ||
                secname == ".got.plt" || secname == ".dynamic" || secname == ".init_array" || secname == ".fini_array")
                continue;
            std::string name = strtab + s.st_name;
            if (name.rfind("DW.ref.", 0) == 0) continue;
            if (std::find_if(std::begin(kAllowed), std::end(kAllowed), [&](const char* a) { return name == a; }) !=
                std::end(kAllowed))
                continue;
            int status = 0;
            char* dem = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
            out.push_back(status == 0 && dem ? dem : name);
            std::free(dem);
        }
    }
    return out;
}

// Macros tt-metal defines for one TRISC build only (COMPILE_FOR_TRISC=0/1/2, UCK_CHLKC_*, and
// TRISC_* from its compute headers). The emulator compiles a compute kernel once for all three
// roles, so none is defined and code testing them would silently lose its role-specific parts.
constexpr const char* kPerTriscMacros[] = {"TRISC_UNPACK",     "TRISC_MATH",     "TRISC_PACK",    "COMPILE_FOR_TRISC",
                                           "UCK_CHLKC_UNPACK", "UCK_CHLKC_MATH", "UCK_CHLKC_PACK"};

// The first identifier of `src` (outside comments, string and character literals) that is a
// per-TRISC macro, and its line; "" when there is none.
std::pair<std::string, int> find_per_trisc_macro(const std::string& src) {
    const size_t n = src.size();
    int line = 1;
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < n;) {
        char c = src[i];
        if (c == '\n') {
            ++line, ++i;
        } else if (c == '/' && i + 1 < n && src[i + 1] == '/') {
            while (i < n && src[i] != '\n') ++i;
        } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
            size_t end = src.find("*/", i + 2);
            end = end == std::string::npos ? n : end + 2;
            line += int(std::count(src.begin() + long(i), src.begin() + long(end), '\n'));
            i = end;
        } else if (c == '"' || c == '\'') {
            for (++i; i < n && src[i] != c && src[i] != '\n'; ++i)
                if (src[i] == '\\') ++i;
            ++i;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            // A number, digit separators (1'000) and exponent signs included.
            for (++i; i < n &&
                 (ident(src[i]) || src[i] == '.' || src[i] == '\'' ||
                  ((src[i] == '+' || src[i] == '-') && std::strchr("eEpP", src[i - 1])));
                 ++i) {}
        } else if (ident(c)) {
            size_t b = i;
            while (i < n && ident(src[i])) ++i;
            std::string word = src.substr(b, i - b);
            if (i < n && src[i] == '"' &&
                (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
                // Raw string literal R"delim( … )delim".
                size_t open = src.find('(', i);
                std::string close =
                    ")" + (open == std::string::npos ? std::string() : src.substr(i + 1, open - i - 1)) + "\"";
                size_t end = open == std::string::npos ? n : src.find(close, open);
                end = end == std::string::npos ? n : end + close.size();
                line += int(std::count(src.begin() + long(i), src.begin() + long(end), '\n'));
                i = end;
                continue;
            }
            for (const char* m : kPerTriscMacros)
                if (word == m) return {word, line};
        } else {
            ++i;
        }
    }
    return {"", 0};
}

// assert() in a kernel: <assert.h> calls __assert_fail, which prints to stderr and aborts. The
// kernel is compiled with -D__assert_fail=zyx_emu_assert_fail and gets this definition appended,
// so a failed assertion becomes a KernelFault carrying the expression and the line (the kernel
// source starts at line 1 of the compiled file). kernel_fault() throws out of this noexcept
// function: compiled with -fno-exceptions it has no exception table to enforce noexcept with,
// and its unwind table lets the exception through to the fiber's base.
// (Cold and built at -O0: the optimiser spent ~10 ms of every kernel's compile on these loops.)
constexpr const char* kAssertHook = R"(
extern "C" [[noreturn, gnu::cold, gnu::optimize("O0")]] void zyx_emu_assert_fail(const char* expr, const char*, unsigned int line,
                                                 const char* function) noexcept {
    char what[512], digits[12];
    unsigned n = 0, d = 0;
    const char* parts[] = {"assert(", expr, ") failed at line ", digits, " of the kernel source, in ", function};
    do digits[d++] = char('0' + line % 10); while ((line /= 10) != 0);
    for (unsigned i = 0; i < d / 2; ++i) { char t = digits[i]; digits[i] = digits[d - 1 - i]; digits[d - 1 - i] = t; }
    digits[d] = 0;
    for (const char* p : parts)
        while (*p && n < sizeof what - 1) what[n++] = *p++;
    what[n] = 0;
    ZYX_EMU.kernel_fault(what);
    __builtin_trap();
}
)";

}  // namespace

std::unique_ptr<KernelBinary> kernel_compile(const KernelSpec& k, const DeviceSpec& device) {
    auto kb = std::make_unique<KernelBinary>();
    kb->name = k.name;
    kb->kind = k.kind;
    kb->slot = k.kind == KernelKind::data_movement_0 ? 0 : k.kind == KernelKind::data_movement_1 ? 1 : 2;
    kb->noc = k.noc ? *k.noc : (k.kind == KernelKind::data_movement_1 ? 1 : 0);
    kb->compute = k.compute;
    // tt-metal sizes the modes by its NUM_CIRCULAR_BUFFERS, which may exceed the arch's CB count.
    for (size_t cb = device.num_cbs; cb < k.compute.unpack_to_dest_mode.size(); ++cb)
        if (k.compute.unpack_to_dest_mode[cb] != UnpackToDestMode::Default)
            throw Error(ErrorStatus::InvalidArgument,
                        "kernel '" + k.name + "': ComputeConfig::unpack_to_dest_mode sets UnpackToDestFp32 for CB " +
                            std::to_string(cb) + ", beyond the " + std::to_string(device.num_cbs) +
                            " circular buffers of " + device.name);
    if (k.kind == KernelKind::compute) {
        if (auto [macro, line] = find_per_trisc_macro(k.source); !macro.empty())
            throw Error(
                ErrorStatus::Unsupported,
                "Unsupported: compute kernel '" + k.name + "' uses " + macro + " (line " + std::to_string(line) +
                    "): the emulator compiles a compute kernel once for UNPACK, MATH and PACK, so the per-TRISC "
                    "macros (TRISC_UNPACK/MATH/PACK, COMPILE_FOR_TRISC, UCK_CHLKC_*) are never defined and "
                    "code that tests them would be silently dropped. Use UNPACK(…), MATH(…), PACK(…)");
    }

    jit::CompileOptions o;
    o.kind = "emu";
    o.name = "kernel '" + k.name + "'";
    o.salt = header_salt();
    // -fno-exceptions as tt-metal's kernel build (a `throw` in a kernel is a compile error). The
    // emulator's own errors still unwind through kernel frames as C++ exceptions: that needs the
    // unwind tables, asked for explicitly (the x86-64 default, not every target's).
    // -march=native -mno-avx512f: the host's vector units (a per-element loop in a data-movement
    // kernel, e.g. a format conversion, runs 8 wide), without AVX-512 (the top CMakeLists.txt says
    // why); -ffp-contract=off: no FMA the kernel did not write.
    o.flags = {"-std=c++20",
               "-O2",
               "-march=native",
               "-mno-avx512f",
               "-ffp-contract=off",
               "-g0",
               "-fPIC",
               "-w",
               "-fno-exceptions",
               "-fasynchronous-unwind-tables",
               "-I" + include_dir(),
               "-include",
               "zyx_emu/prelude.h",
               "-D__assert_fail=zyx_emu_assert_fail",
               "-DKERNEL_BUILD",
               "-DTENSIX_FIRMWARE"};
    o.flags.push_back(device.arch == Arch::Wormhole ? "-DARCH_WORMHOLE" : "-DARCH_BLACKHOLE");
    // A kernel needs the C and math libraries at most, not libstdc++ (no exceptions, no
    // allocation): leaving it out halves the link, a third of a cold kernel's build.
    o.link_flags = {"-nodefaultlibs", "-lm", "-lc", "-lgcc"};
    if (k.kind == KernelKind::compute) {
        o.flags.push_back("-DDST_ACCUM_MODE=" + std::string(k.compute.fp32_dest_acc_en ? "true" : "false"));
        o.flags.push_back(std::string("-DDST_SYNC_MODE=DstSync::") +
                          (k.compute.dst_full_sync_en ? "SyncFull" : "SyncHalf"));
        o.flags.push_back("-DMATH_FIDELITY=" + std::to_string(int(k.compute.math_fidelity)));
        o.flags.push_back("-DAPPROX=" + std::string(k.compute.math_approx_mode ? "true" : "false"));
    } else {
        o.flags.push_back(k.kind == KernelKind::data_movement_0 ? "-DCOMPILE_FOR_BRISC" : "-DCOMPILE_FOR_NCRISC");
        o.flags.push_back("-DPROCESSOR_INDEX=" + std::to_string(kb->slot));
        o.flags.push_back("-DNOC_INDEX=" + std::to_string(kb->noc));
        o.flags.push_back("-DNOC_MODE=0");
    }
    std::string ct;
    for (size_t i = 0; i < k.compile_args.size(); ++i) ct += (i ? "," : "") + std::to_string(k.compile_args[i]);
    o.flags.push_back("-DKERNEL_COMPILE_TIME_ARGS=" + ct);
    o.flags.push_back("-DZYX_EMU_NUM_CT_ARGS=" + std::to_string(k.compile_args.size()));
    for (const auto& [name, value] : k.defines) o.flags.push_back("-D" + name + "=" + value);
    if (!k.named_compile_args.empty()) {
        if (k.defines.count("KERNEL_COMPILE_TIME_ARG_MAP"))
            throw Error(ErrorStatus::InvalidArgument,
                        "kernel '" + k.name +
                            "': named_compile_args and a KERNEL_COMPILE_TIME_ARG_MAP define both "
                            "given; use named_compile_args");
        std::string map;
        for (const auto& [name, value] : k.named_compile_args) {
            if (!map.empty()) map += ',';
            map += "{\"";
            map += name;
            map += "\",";
            map += std::to_string(value);
            map += '}';
        }
        o.flags.push_back("-DKERNEL_COMPILE_TIME_ARG_MAP=" + map);
    }
    // The worker grid: L1 bank b is logical core (b % X, b / X) (api/tensor/tensor_accessor.h).
    o.flags.push_back("-DZYX_EMU_GRID_X=" + std::to_string(device.grid_x));
    o.flags.push_back("-DZYX_EMU_GRID_Y=" + std::to_string(device.grid_y));

    // #line: compiler messages (and assert's line) name the kernel and its own lines, not the
    // cache copy; what the emulator appends is named as such. ZYX_EMU_KERNEL_FILE tells ASSERT
    // (api/debug/assert.h) which __FILE__ is the kernel itself.
    std::string file = k.name;
    for (char& c : file)
        if (c == '"' || c == '\\' || c == '\n') c = '_';
    std::string source = "#define ZYX_EMU_KERNEL_FILE \"" + file + "\"\n#line 1 \"" + file + "\"\n" + k.source +
        "\n#line 1 \"zyx-emu-entry\"\n#include \"zyx_emu/entry.inc\"\n" + kAssertHook;
    kb->so_path = jit::compile_shared(source, o).string();

    if (auto globals = mutable_globals(kb->so_path); !globals.empty()) {
        std::string list;
        for (const auto& g : globals) list += (list.empty() ? "" : ", ") + g;
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: kernel '" + k.name + "' has mutable global or static variables (" + list +
                        "); one compiled kernel is shared by every core and processor that runs it, so they would be "
                        "shared too. Make them locals, or constexpr");
    }
    kb->lib = jit::Library(kb->so_path);
    auto bind = reinterpret_cast<uint32_t (*)(const zyx_emu_api*)>(kb->lib.symbol("zyx_emu_kernel_bind"));
    kb->entry = reinterpret_cast<void (*)()>(kb->lib.symbol("zyx_emu_kernel_entry"));
    if (!bind || !kb->entry)
        throw Error(ErrorStatus::KernelCompilation,
                    "kernel '" + k.name + "': " + kb->so_path + " lacks the emulator entry points");
    if (bind(kernel_api_table()) != ZYX_EMU_ABI_VERSION)
        throw Error(ErrorStatus::KernelCompilation, "kernel '" + k.name + "' was built for another emulator ABI");
    auto has_entry = reinterpret_cast<uint32_t (*)()>(kb->lib.symbol("zyx_emu_kernel_has_entry"));
    if (!has_entry || !has_entry())
        throw Error(ErrorStatus::KernelCompilation,
                    "kernel '" + k.name +
                        "' defines neither kernel_main() nor namespace NAMESPACE { void MAIN }: "
                        "it has no entry point");
    return kb;
}

namespace {

void check_ranges(const DeviceSpec& d, const CoreRangeSet& set, const std::string& what) {
    if (set.empty()) throw Error(ErrorStatus::InvalidArgument, what + ": empty core range set");
    for (const auto& r : set) {
        if (r.start.x > r.end.x || r.start.y > r.end.y)
            throw Error(ErrorStatus::InvalidArgument, what + ": core range " + range_str(r) + " is inverted");
        if (r.end.x >= d.grid_x || r.end.y >= d.grid_y)
            throw Error(ErrorStatus::InvalidArgument,
                        what + ": core range " + range_str(r) + " is outside the " + std::to_string(d.grid_x) + "x" +
                            std::to_string(d.grid_y) + " grid of " + d.name);
    }
}

template <class F>
void for_each_core(const DeviceSpec& d, const CoreRangeSet& set, F&& f) {
    std::vector<bool> seen(d.grid_x * d.grid_y, false);
    for (const auto& r : set)
        for (uint32_t y = r.start.y; y <= r.end.y; ++y)
            for (uint32_t x = r.start.x; x <= r.end.x; ++x) {
                uint32_t i = y * d.grid_x + x;
                if (!seen[i]) seen[i] = true, f(i, CoreCoord{x, y});
            }
}

}  // namespace

ProgramId Device::program_create(const ProgramSpec& spec) {
    auto& d = *impl_;
    const DeviceSpec& ds = d.spec;
    const uint32_t ncores = d.num_cores();
    auto p = std::make_shared<Program>();
    p->spec = spec;
    p->core_kernels.assign(ncores, {-1, -1, -1});
    p->core_cbs.resize(ncores);
    p->core_semaphores.resize(ncores);

    // Circular buffers: each CB sits at the same offset on every core of its range, above
    // everything already placed on any of those cores (CBs are allocated upward from the
    // unreserved base, as tt-metal's static CB allocator does).
    std::vector<uint32_t> top(ncores, ds.l1_unreserved_base);
    for (size_t i = 0; i < spec.cbs.size(); ++i) {
        const auto& cb = spec.cbs[i];
        std::string what = "circular buffer " + std::to_string(cb.index);
        check_ranges(ds, cb.cores, what);
        // The config's indices: its own and its aliases (one L1 region, tt-metal's several-index
        // CircularBufferConfig), each checked as a CB of its own.
        std::vector<CircularBufferSpec::Alias> views{{cb.index, cb.format, cb.page_bytes}};
        views.insert(views.end(), cb.aliases.begin(), cb.aliases.end());
        if (cb.num_pages == 0 || cb.num_pages > 0xffff)
            throw Error(
                ErrorStatus::InvalidArgument,
                what + ": " + std::to_string(cb.num_pages) + " pages do not fit the 16-bit page counters (1..65535)");
        const uint64_t bytes = uint64_t(cb.page_bytes) * cb.num_pages;
        for (size_t a = 0; a < views.size(); ++a)
            for (size_t b = a + 1; b < views.size(); ++b)
                if (views[a].index == views[b].index)
                    throw Error(ErrorStatus::InvalidArgument,
                                "circular buffer " + std::to_string(views[a].index) +
                                    " is configured twice in one config (an alias of itself)");
        for (const auto& v : views) {
            std::string vwhat = "circular buffer " + std::to_string(v.index);
            if (v.index >= ds.num_cbs)
                throw Error(
                    ErrorStatus::InvalidArgument,
                    vwhat + ": index is beyond the " + std::to_string(ds.num_cbs) + " circular buffers of " + ds.name);
            if (v.page_bytes == 0 || v.page_bytes % 4 != 0)
                throw Error(ErrorStatus::InvalidArgument,
                            vwhat + ": page size " + std::to_string(v.page_bytes) +
                                " B is not a non-zero multiple of 4 B (sizeof(uint32_t))");
            if (bytes % v.page_bytes != 0 || bytes / v.page_bytes > 0xffff)
                throw Error(ErrorStatus::InvalidArgument,
                            vwhat + ": page size " + std::to_string(v.page_bytes) +
                                " B does not divide the region of " + std::to_string(bytes) + " B into 1..65535 pages");
            if (tile_size_bytes(v.format) == 0)
                throw Error(ErrorStatus::InvalidArgument, vwhat + ": invalid data format");
        }
        if (cb.buffer) {
            std::lock_guard<std::mutex> lock(d.mu);
            const BufferRecord& r = d.buffer_record(*cb.buffer, ErrorStatus::InvalidArgument, what.c_str());
            if (r.buf.type != BufferType::L1)
                throw Error(ErrorStatus::InvalidArgument,
                            what + " is placed on buffer " + std::to_string(*cb.buffer) +
                                ", a DRAM buffer; a globally allocated CB needs an L1 buffer");
        }
        uint32_t at = 0;
        for_each_core(ds, cb.cores, [&](uint32_t c, CoreCoord xy) {
            for (const auto& other : p->core_cbs[c])
                for (const auto& v : views)
                    if (other.index == v.index)
                        throw Error(ErrorStatus::InvalidArgument,
                                    "circular buffer " + std::to_string(v.index) + " is configured twice on core " +
                                        coord_str(xy));
            at = std::max(at, top[c]);
        });
        at = (at + ds.l1_alignment - 1) / ds.l1_alignment * ds.l1_alignment;
        for_each_core(ds, cb.cores, [&](uint32_t c, CoreCoord xy) {
            if (!cb.buffer && at + bytes > ds.l1_bytes) {
                std::string r;
                for (const auto& cr : cb.cores) r += (r.empty() ? "" : ", ") + range_str(cr);
                throw Error(ErrorStatus::InvalidArgument,
                            "statically allocated circular buffers on core " + coord_str(xy) + " (CB range " + r +
                                ") grow to " + std::to_string(at + bytes) + " B, beyond the L1 size of " +
                                std::to_string(ds.l1_bytes) + " B (circular buffer " + std::to_string(cb.index) + ": " +
                                std::to_string(bytes) + " B at " + std::to_string(at) + ")");
            }
            for (const auto& v : views)
                p->core_cbs[c].push_back({v.index, v.format, v.page_bytes, uint32_t(bytes / v.page_bytes),
                                          cb.buffer ? 0u : at, uint32_t(i), cb.buffer ? int64_t(*cb.buffer) : -1});
            if (!cb.buffer) top[c] = at + uint32_t(bytes);
        });
    }
    {
        std::lock_guard<std::mutex> lock(d.mu);
        program_place_l1(d, *p, 0);
    }

    // Semaphores.
    if (spec.semaphores.size() > kMaxSemaphores)
        throw Error(ErrorStatus::InvalidArgument,
                    "program has " + std::to_string(spec.semaphores.size()) + " semaphores; the emulator provides " +
                        std::to_string(kMaxSemaphores));
    for (size_t i = 0; i < spec.semaphores.size(); ++i) {
        check_ranges(ds, spec.semaphores[i].cores, "semaphore " + std::to_string(i));
        for_each_core(ds, spec.semaphores[i].cores, [&](uint32_t c, CoreCoord) {
            p->core_semaphores[c].push_back({uint32_t(i), spec.semaphores[i].initial_value});
        });
    }

    // Kernels: at most one per processor slot per core.
    static const char* kSlot[] = {"BRISC (data_movement_0)", "NCRISC (data_movement_1)", "TRISC0-2 (compute)"};
    for (size_t k = 0; k < spec.kernels.size(); ++k) {
        const auto& ks = spec.kernels[k];
        std::string name = ks.name.empty() ? "kernel" + std::to_string(k) : ks.name;
        check_ranges(ds, ks.cores, "kernel '" + name + "'");
        int slot = ks.kind == KernelKind::data_movement_0 ? 0 : ks.kind == KernelKind::data_movement_1 ? 1 : 2;
        if (ks.noc && *ks.noc > 1)
            throw Error(ErrorStatus::InvalidArgument,
                        "kernel '" + name + "': NoC " + std::to_string(*ks.noc) + " does not exist");
        for_each_core(ds, ks.cores, [&](uint32_t c, CoreCoord xy) {
            int prev = p->core_kernels[c][slot];
            if (prev >= 0)
                throw Error(ErrorStatus::InvalidArgument,
                            "kernels '" + spec.kernels[prev].name + "' and '" + name + "' both run on " + kSlot[slot] +
                                " of core " + coord_str(xy));
            p->core_kernels[c][slot] = int(k);
        });
    }

    // Compile (two at a time: the JIT cache makes repeats free).
    p->kernels.resize(spec.kernels.size());
    std::vector<std::optional<Error>> errors(spec.kernels.size());
    auto compile_one = [&](size_t k) {
        try {
            KernelSpec ks = spec.kernels[k];
            if (ks.name.empty()) ks.name = "kernel" + std::to_string(k);
            p->kernels[k] = kernel_compile(ks, ds);
        } catch (const Error& e) { errors[k] = e; } catch (const std::exception& e) {
            errors[k] = Error(ErrorStatus::KernelCompilation, e.what());
        }
    };
    for (size_t k = 0; k < spec.kernels.size(); k += 2) {
        std::thread second;
        if (k + 1 < spec.kernels.size()) second = std::thread(compile_one, k + 1);
        compile_one(k);
        if (second.joinable()) second.join();
    }
    for (auto& e : errors)
        if (e) throw *e;

    p->rt_args.assign(spec.kernels.size(), std::vector<std::vector<uint32_t>>(ncores));
    p->common_args.assign(spec.kernels.size(), {});

    std::lock_guard<std::mutex> lock(d.mu);
    ProgramId id = d.next_program_id++;
    d.programs.emplace(id, std::move(p));
    ZYX_LOG(emu) << "program " << id << ": " << spec.kernels.size() << " kernels, " << spec.cbs.size() << " CBs";
    return id;
}

void program_place_l1(Device::Impl& d, Program& p, ProgramId id) {
    const DeviceSpec& ds = d.spec;
    auto prog = [&] { return id ? "program " + std::to_string(id) : std::string("the program"); };
    for (uint32_t c = 0; c < d.num_cores(); ++c) {
        const CoreCoord xy{c % ds.grid_x, c / ds.grid_x};
        for (auto& pl : p.core_cbs[c]) {
            const uint64_t bytes = uint64_t(pl.page_bytes) * pl.num_pages;
            if (pl.buffer >= 0) {
                auto it = d.buffers.find(uint32_t(pl.buffer));
                if (it == d.buffers.end())
                    throw Error(ErrorStatus::InvalidArgument,
                                "circular buffer " + std::to_string(pl.index) + " of " + prog() +
                                    " is placed on buffer " + std::to_string(pl.buffer) + ", which was freed");
                const BufferRecord& r = it->second;
                if (bytes > r.bank_span)
                    throw Error(ErrorStatus::InvalidArgument,
                                "circular buffer " + std::to_string(pl.index) + " of " + prog() + " on core " +
                                    coord_str(xy) + ": " + std::to_string(bytes) + " B do not fit the " +
                                    std::to_string(r.bank_span) + " B that L1 buffer " + std::to_string(pl.buffer) +
                                    " holds on each core");
                pl.offset = r.buf.address;
                continue;
            }
            // tt-metal: "Statically allocated circular buffers in program N clash with L1 buffers
            // on core range …" (every L1 buffer reserves its address range on every core).
            for (const auto& [bid, r] : d.buffers) {
                if (r.buf.type != BufferType::L1) continue;
                if (pl.offset < r.buf.address + r.bank_span && r.buf.address < pl.offset + bytes)
                    throw Error(ErrorStatus::InvalidArgument,
                                "statically allocated circular buffers in " + prog() +
                                    " clash with L1 buffers on core " + coord_str(xy) + ": circular buffer " +
                                    std::to_string(pl.index) + " occupies [" + std::to_string(pl.offset) + ", " +
                                    std::to_string(pl.offset + bytes) + ") and L1 buffer " + std::to_string(bid) +
                                    " is allocated at " + std::to_string(r.buf.address) + " (" +
                                    std::to_string(r.bank_span) + " B)");
            }
        }
    }
}

void Device::program_free(ProgramId program) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    if (!d.programs.erase(program))
        throw Error(ErrorStatus::InvalidArgument, "program_free: unknown program id " + std::to_string(program));
}

namespace {
Program& program_of(Device::Impl& d, ProgramId id, const char* what) {
    auto it = d.programs.find(id);
    if (it == d.programs.end())
        throw Error(ErrorStatus::InvalidArgument, std::string(what) + ": unknown program id " + std::to_string(id));
    return *it->second;
}
}  // namespace

void Device::program_set_runtime_args(ProgramId program, uint32_t kernel, CoreCoord core, std::vector<uint32_t> args) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    Program& p = program_of(d, program, "program_set_runtime_args");
    if (kernel >= p.kernels.size())
        throw Error(ErrorStatus::InvalidArgument,
                    "program_set_runtime_args: program " + std::to_string(program) + " has no kernel " +
                        std::to_string(kernel));
    const auto& name = p.kernels[kernel]->name;
    if (core.x >= d.spec.grid_x || core.y >= d.spec.grid_y)
        throw Error(
            ErrorStatus::InvalidArgument,
            "program_set_runtime_args: kernel '" + name + "': core " + coord_str(core) + " is outside the grid");
    uint32_t c = d.core_index(core);
    if (p.core_kernels[c][p.kernels[kernel]->slot] != int(kernel))
        throw Error(ErrorStatus::InvalidArgument,
                    "program_set_runtime_args: kernel '" + name + "' does not run on core " + coord_str(core));
    if (args.size() + p.common_args[kernel].size() > kMaxRuntimeArgs)
        throw Error(ErrorStatus::InvalidArgument,
                    "program_set_runtime_args: kernel '" + name + "' on core " + coord_str(core) + ": " +
                        std::to_string(args.size()) + " unique + " + std::to_string(p.common_args[kernel].size()) +
                        " common runtime args exceed the limit of " + std::to_string(kMaxRuntimeArgs));
    p.rt_args[kernel][c] = std::move(args);
}

void Device::program_set_common_runtime_args(ProgramId program, uint32_t kernel, std::vector<uint32_t> args) {
    auto& d = *impl_;
    d.join_launch();
    std::lock_guard<std::mutex> lock(d.mu);
    Program& p = program_of(d, program, "program_set_common_runtime_args");
    if (kernel >= p.kernels.size())
        throw Error(ErrorStatus::InvalidArgument,
                    "program_set_common_runtime_args: program " + std::to_string(program) + " has no kernel " +
                        std::to_string(kernel));
    size_t max_unique = 0;
    for (const auto& a : p.rt_args[kernel]) max_unique = std::max(max_unique, a.size());
    if (args.size() + max_unique > kMaxRuntimeArgs)
        throw Error(ErrorStatus::InvalidArgument,
                    "program_set_common_runtime_args: kernel '" + p.kernels[kernel]->name +
                        "': " + std::to_string(args.size()) + " common + up to " + std::to_string(max_unique) +
                        " unique runtime args exceed the limit of " + std::to_string(kMaxRuntimeArgs));
    p.common_args[kernel] = std::move(args);
}

}  // namespace zyx::emu
