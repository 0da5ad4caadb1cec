#include "backend/tenstorrent/protocol.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_set>

namespace zyx::tt::protocol {

using json = nlohmann::json;

namespace {

constexpr std::array<std::string_view, 14> kCommandNames = {
    "hello",    "ping",     "arena_map",       "arena_resize", "alloc_buf",       "free_buf", "write_buf",
    "read_buf", "copy_buf", "compile_program", "run",          "release_program", "stats",    "exit"};

constexpr std::array<std::string_view, 14> kArgSourceNames = {
    "literal", "input_address", "output_address", "input_pages", "output_pages", "input_bytes", "output_bytes",
    "scalar",  "core_x",        "core_y",         "core_index",  "num_cores",    "grid_rows",   "grid_cols"};

// Nesting is limited before parsing so that no input can make the parser or the destructor of
// the parsed value recurse deeply.
constexpr int kMaxNesting = 32;

[[noreturn]] void fail(ErrorStatus s, std::string_view ctx, const std::string& what) {
    throw Error(s, std::string(ctx) + ": " + what);
}

std::string_view json_type(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number_unsigned()) return "an unsigned integer";
    if (v.is_number_integer()) return "a negative integer";
    if (v.is_number_float()) return "a floating-point number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "something else";
}

// Field readers: each names the context ("write_buf", "compile_program.kernels[1]") and the
// field in its error.
const json& field(const json& obj, std::string_view ctx, const char* key) {
    auto it = obj.find(key);
    if (it == obj.end()) fail(ErrorStatus::Protocol, ctx, std::string("missing field '") + key + "'");
    return *it;
}

uint64_t as_u64(const json& v, std::string_view ctx, const char* key) {
    if (!v.is_number_unsigned())
        fail(ErrorStatus::Protocol, ctx,
             std::string("field '") + key + "' must be an unsigned integer, got " + std::string(json_type(v)));
    return v.get<uint64_t>();
}

uint32_t as_u32(const json& v, std::string_view ctx, const char* key) {
    uint64_t x = as_u64(v, ctx, key);
    if (x > std::numeric_limits<uint32_t>::max())
        fail(ErrorStatus::Protocol, ctx,
             std::string("field '") + key + "' = " + std::to_string(x) + " does not fit 32 bits");
    return uint32_t(x);
}

uint64_t get_u64(const json& obj, std::string_view ctx, const char* key) {
    return as_u64(field(obj, ctx, key), ctx, key);
}
uint32_t get_u32(const json& obj, std::string_view ctx, const char* key) {
    return as_u32(field(obj, ctx, key), ctx, key);
}

uint32_t opt_u32(const json& obj, std::string_view ctx, const char* key, uint32_t dflt) {
    auto it = obj.find(key);
    return it == obj.end() ? dflt : as_u32(*it, ctx, key);
}

bool opt_bool(const json& obj, std::string_view ctx, const char* key, bool dflt) {
    auto it = obj.find(key);
    if (it == obj.end()) return dflt;
    if (!it->is_boolean())
        fail(ErrorStatus::Protocol, ctx,
             std::string("field '") + key + "' must be a boolean, got " + std::string(json_type(*it)));
    return it->get<bool>();
}

const std::string& get_string(const json& obj, std::string_view ctx, const char* key) {
    const json& v = field(obj, ctx, key);
    if (!v.is_string())
        fail(ErrorStatus::Protocol, ctx,
             std::string("field '") + key + "' must be a string, got " + std::string(json_type(v)));
    return v.get_ref<const std::string&>();
}

const json& get_array(const json& obj, std::string_view ctx, const char* key, size_t max_len) {
    const json& v = field(obj, ctx, key);
    if (!v.is_array())
        fail(ErrorStatus::Protocol, ctx,
             std::string("field '") + key + "' must be an array, got " + std::string(json_type(v)));
    if (v.size() > max_len)
        fail(ErrorStatus::InvalidArgument, ctx,
             std::string("field '") + key + "' has " + std::to_string(v.size()) + " entries; the limit is " +
                 std::to_string(max_len));
    return v;
}

const json* opt_array(const json& obj, std::string_view ctx, const char* key, size_t max_len) {
    if (!obj.contains(key)) return nullptr;
    return &get_array(obj, ctx, key, max_len);
}

std::vector<uint32_t> u32_array(const json& arr, std::string_view ctx, const char* key) {
    std::vector<uint32_t> out;
    out.reserve(arr.size());
    for (size_t i = 0; i < arr.size(); ++i) {
        std::string k = std::string(key) + "[" + std::to_string(i) + "]";
        out.push_back(as_u32(arr[i], ctx, k.c_str()));
    }
    return out;
}

void require_object(const json& v, std::string_view ctx) {
    if (!v.is_object()) fail(ErrorStatus::Protocol, ctx, "expected a JSON object, got " + std::string(json_type(v)));
}

// Every key of `obj` must be one of `allowed`: a misspelt field is an error, not a default.
void only_fields(const json& obj, std::string_view ctx, std::initializer_list<std::string_view> allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), std::string_view(it.key())) == allowed.end())
            fail(ErrorStatus::Protocol, ctx, "unknown field '" + it.key() + "'");
    }
}

template <size_t N>
int index_of(const std::array<std::string_view, N>& names, std::string_view s) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == s) return int(i);
    return -1;
}

template <size_t N>
std::string name_list(const std::array<std::string_view, N>& names) {
    std::string s;
    for (size_t i = 0; i < N; ++i) s.append(i ? ", " : "").append(names[i]);
    return s;
}

// "a, b, c" of the names of `values` (the known names in an error message).
template <class T, size_t N, class NameFn>
std::string name_list(const T (&values)[N], NameFn name) {
    std::string s;
    for (size_t i = 0; i < N; ++i) s.append(i ? ", " : "").append(name(values[i]));
    return s;
}

void check_nesting(std::string_view line) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : line) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > kMaxNesting)
                throw Error(ErrorStatus::Protocol,
                            "request nests deeper than " + std::to_string(kMaxNesting) + " levels");
        } else if (c == ']' || c == '}')
            --depth;
    }
}

// `refused`: the status of a well-formed grid without cores (invalid_argument for a program's
// grid, kernel_launch for a run's, as every other grid error of that command).
Grid parse_grid(const json& v, std::string_view ctx, ErrorStatus refused = ErrorStatus::InvalidArgument) {
    require_object(v, ctx);
    only_fields(v, ctx, {"rows", "cols"});
    Grid g{get_u32(v, ctx, "rows"), get_u32(v, ctx, "cols")};
    if (g.rows == 0 || g.cols == 0)
        fail(refused, ctx, "grid " + std::to_string(g.rows) + "x" + std::to_string(g.cols) + " has no cores");
    return g;
}

RuntimeArg parse_runtime_arg(const json& v, const std::string& ctx) {
    require_object(v, ctx);
    only_fields(v, ctx, {"src", "index", "value"});
    const std::string& src = get_string(v, ctx, "src");
    int k = index_of(kArgSourceNames, src);
    if (k < 0)
        fail(ErrorStatus::InvalidArgument, ctx,
             "unknown arg source '" + src + "' (known: " + name_list(kArgSourceNames) + ")");
    RuntimeArg a{ArgSource(k), 0};
    if (a.source == ArgSource::literal) {
        if (v.contains("index")) fail(ErrorStatus::Protocol, ctx, "a literal takes 'value', not 'index'");
        a.value = get_u32(v, ctx, "value");
    } else if (arg_source_has_value(a.source)) {
        if (v.contains("value")) fail(ErrorStatus::Protocol, ctx, "source '" + src + "' takes 'index', not 'value'");
        a.value = get_u32(v, ctx, "index");
    } else if (v.contains("index") || v.contains("value")) {
        fail(ErrorStatus::Protocol, ctx, "source '" + src + "' takes neither 'index' nor 'value'");
    }
    return a;
}

Kernel parse_kernel(const json& v, const std::string& ctx, uint64_t* source_bytes) {
    require_object(v, ctx);
    only_fields(v, ctx, {"name", "kind", "source_bytes", "compile_args", "defines", "runtime_args", "noc"});
    Kernel k;
    k.name = get_string(v, ctx, "name");
    if (k.name.empty() || k.name.size() > 128)
        fail(ErrorStatus::InvalidArgument, ctx, "kernel name must have 1 to 128 characters");
    const std::string& kind = get_string(v, ctx, "kind");
    if (!kernel_kind_from_name(kind, &k.kind))
        fail(ErrorStatus::InvalidArgument, ctx,
             "kernel '" + k.name + "': unknown kind '" + kind +
                 "' (known: " + name_list(kKernelKinds, kernel_kind_name) + ")");
    *source_bytes = get_u64(v, ctx, "source_bytes");
    if (*source_bytes > kMaxSourceBytes)
        fail(ErrorStatus::InvalidArgument, ctx,
             "kernel '" + k.name + "': source of " + std::to_string(*source_bytes) + " bytes exceeds the limit of " +
                 std::to_string(kMaxSourceBytes));
    if (const json* a = opt_array(v, ctx, "compile_args", kMaxCompileArgs))
        k.compile_args = u32_array(*a, ctx, "compile_args");
    if (auto it = v.find("defines"); it != v.end()) {
        if (!it->is_object()) fail(ErrorStatus::Protocol, ctx, "field 'defines' must be an object of strings");
        if (it->size() > 256) fail(ErrorStatus::InvalidArgument, ctx, "more than 256 defines");
        for (auto d = it->begin(); d != it->end(); ++d) {
            if (!d->is_string()) fail(ErrorStatus::Protocol, ctx, "define '" + d.key() + "' must be a string");
            const std::string& name = d.key();
            bool ident = !name.empty() && !(name[0] >= '0' && name[0] <= '9');
            for (char c : name)
                ident =
                    ident && (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
            if (!ident) fail(ErrorStatus::InvalidArgument, ctx, "define name '" + name + "' is not a C identifier");
            k.defines[name] = d->get<std::string>();
        }
    }
    if (const json* a = opt_array(v, ctx, "runtime_args", kMaxRuntimeArgs)) {
        for (size_t i = 0; i < a->size(); ++i)
            k.runtime_args.push_back(parse_runtime_arg((*a)[i], ctx + ".runtime_args[" + std::to_string(i) + "]"));
    }
    if (v.contains("noc")) {
        uint32_t noc = get_u32(v, ctx, "noc");
        if (noc > 1) fail(ErrorStatus::InvalidArgument, ctx, "kernel '" + k.name + "': noc must be 0 or 1");
        k.noc = uint8_t(noc);
    }
    return k;
}

CircularBuffer parse_cb(const json& v, const std::string& ctx) {
    require_object(v, ctx);
    only_fields(v, ctx, {"index", "format", "page_bytes", "num_pages"});
    CircularBuffer cb;
    cb.index = get_u32(v, ctx, "index");
    const std::string& f = get_string(v, ctx, "format");
    if (!data_format_from_name(f, &cb.format))
        fail(ErrorStatus::InvalidArgument, ctx,
             "CB " + std::to_string(cb.index) + ": unknown data format '" + f +
                 "' (known: " + name_list(kWireDataFormats, data_format_name) + ")");
    cb.page_bytes = get_u32(v, ctx, "page_bytes");
    cb.num_pages = get_u32(v, ctx, "num_pages");
    return cb;
}

void parse_program(const json& j, Request& r) {
    const std::string ctx = "compile_program";
    const json& ks = get_array(j, ctx, "kernels", kMaxKernels);
    if (ks.empty()) fail(ErrorStatus::InvalidArgument, ctx, "a program needs at least one kernel");
    bool kind_seen[3] = {};
    for (size_t i = 0; i < ks.size(); ++i) {
        uint64_t n = 0;
        Kernel k = parse_kernel(ks[i], ctx + ".kernels[" + std::to_string(i) + "]", &n);
        for (const Kernel& other : r.program.kernels)
            if (other.name == k.name) fail(ErrorStatus::InvalidArgument, ctx, "two kernels are named '" + k.name + "'");
        if (kind_seen[int(k.kind)])
            fail(ErrorStatus::InvalidArgument, ctx,
                 "kernel '" + k.name + "': a program has at most one kernel of kind " +
                     std::string(kernel_kind_name(k.kind)));
        kind_seen[int(k.kind)] = true;
        r.program.kernels.push_back(std::move(k));
        r.source_bytes.push_back(n);
    }
    if (const json* cbs = opt_array(j, ctx, "cbs", kMaxCircularBuffers)) {
        for (size_t i = 0; i < cbs->size(); ++i) {
            CircularBuffer cb = parse_cb((*cbs)[i], ctx + ".cbs[" + std::to_string(i) + "]");
            for (const CircularBuffer& o : r.program.cbs)
                if (o.index == cb.index)
                    fail(ErrorStatus::InvalidArgument, ctx, "CB " + std::to_string(cb.index) + " is declared twice");
            r.program.cbs.push_back(cb);
        }
    }
    if (const json* s = opt_array(j, ctx, "semaphores", kMaxSemaphores))
        r.program.semaphores = u32_array(*s, ctx, "semaphores");
    r.program.grid = parse_grid(field(j, ctx, "grid"), ctx + ".grid");
    r.program.num_inputs = opt_u32(j, ctx, "num_inputs", 0);
    r.program.num_outputs = opt_u32(j, ctx, "num_outputs", 0);
    r.program.num_scalars = opt_u32(j, ctx, "num_scalars", 0);
    if (uint64_t(r.program.num_inputs) + r.program.num_outputs > kMaxLaunchBuffers)
        fail(ErrorStatus::InvalidArgument, ctx,
             "more than " + std::to_string(kMaxLaunchBuffers) + " input + output buffers");
    if (r.program.num_scalars > kMaxScalars)
        fail(ErrorStatus::InvalidArgument, ctx, "more than " + std::to_string(kMaxScalars) + " scalars");
    r.program.fp32_dest_acc = opt_bool(j, ctx, "fp32_dest_acc", false);
    r.program.math_approx = opt_bool(j, ctx, "math_approx", false);
    r.program.dst_full_sync = opt_bool(j, ctx, "dst_full_sync", false);
    if (const json* u = opt_array(j, ctx, "unpack_to_dest_fp32", kMaxCircularBuffers)) {
        r.program.unpack_to_dest_fp32 = u32_array(*u, ctx, "unpack_to_dest_fp32");
        for (uint32_t cb : r.program.unpack_to_dest_fp32) {
            bool declared = false;
            for (const CircularBuffer& c : r.program.cbs) declared |= c.index == cb;
            if (!declared)
                fail(ErrorStatus::InvalidArgument, ctx,
                     "unpack_to_dest_fp32 names CB " + std::to_string(cb) + ", which the program does not declare");
        }
    }
    if (j.contains("math_fidelity")) {
        const std::string& m = get_string(j, ctx, "math_fidelity");
        if (!math_fidelity_from_name(m, &r.program.math_fidelity))
            fail(ErrorStatus::InvalidArgument, ctx,
                 "unknown math_fidelity '" + m + "' (known: " + name_list(kMathFidelities, math_fidelity_name) + ")");
    }
    // Every index a runtime arg names must exist in every launch: checked here, once.
    for (const Kernel& k : r.program.kernels) {
        for (size_t i = 0; i < k.runtime_args.size(); ++i) {
            const RuntimeArg& a = k.runtime_args[i];
            uint32_t limit = ~0u;
            switch (a.source) {
                case ArgSource::input_address:
                case ArgSource::input_pages:
                case ArgSource::input_bytes: limit = r.program.num_inputs; break;
                case ArgSource::output_address:
                case ArgSource::output_pages:
                case ArgSource::output_bytes: limit = r.program.num_outputs; break;
                case ArgSource::scalar: limit = r.program.num_scalars; break;
                default: break;
            }
            if (a.value >= limit)
                fail(ErrorStatus::InvalidArgument, ctx,
                     "kernel '" + k.name + "' runtime arg " + std::to_string(i) + " names " +
                         std::string(arg_source_name(a.source)) + " index " + std::to_string(a.value) +
                         " but the program declares only " + std::to_string(limit));
        }
    }
}

json program_json(const Program& p, const std::vector<uint64_t>& source_bytes) {
    json ks = json::array();
    for (size_t i = 0; i < p.kernels.size(); ++i) {
        const Kernel& k = p.kernels[i];
        json jk = {{"name", k.name},
                   {"kind", kernel_kind_name(k.kind)},
                   {"source_bytes", i < source_bytes.size() ? source_bytes[i] : uint64_t(k.source.size())}};
        if (!k.compile_args.empty()) jk["compile_args"] = k.compile_args;
        if (!k.defines.empty()) jk["defines"] = k.defines;
        if (!k.runtime_args.empty()) {
            json args = json::array();
            for (const RuntimeArg& a : k.runtime_args) {
                json ja = {{"src", arg_source_name(a.source)}};
                if (a.source == ArgSource::literal)
                    ja["value"] = a.value;
                else if (arg_source_has_value(a.source))
                    ja["index"] = a.value;
                args.push_back(std::move(ja));
            }
            jk["runtime_args"] = std::move(args);
        }
        if (k.noc) jk["noc"] = *k.noc;
        ks.push_back(std::move(jk));
    }
    json cbs = json::array();
    for (const CircularBuffer& cb : p.cbs)
        cbs.push_back({{"index", cb.index},
                       {"format", data_format_name(cb.format)},
                       {"page_bytes", cb.page_bytes},
                       {"num_pages", cb.num_pages}});
    json j = {{"kernels", std::move(ks)},
              {"cbs", std::move(cbs)},
              {"grid", {{"rows", p.grid.rows}, {"cols", p.grid.cols}}},
              {"num_inputs", p.num_inputs},
              {"num_outputs", p.num_outputs},
              {"num_scalars", p.num_scalars},
              {"fp32_dest_acc", p.fp32_dest_acc},
              {"math_fidelity", math_fidelity_name(p.math_fidelity)},
              {"math_approx", p.math_approx},
              {"dst_full_sync", p.dst_full_sync}};
    if (!p.semaphores.empty()) j["semaphores"] = p.semaphores;
    if (!p.unpack_to_dest_fp32.empty()) j["unpack_to_dest_fp32"] = p.unpack_to_dest_fp32;
    return j;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string_view command_name(Command c) { return kCommandNames[size_t(c)]; }
std::string_view arg_source_name(ArgSource s) { return kArgSourceNames[size_t(s)]; }

bool arg_source_has_value(ArgSource s) {
    switch (s) {
        case ArgSource::literal:
        case ArgSource::input_address:
        case ArgSource::output_address:
        case ArgSource::input_pages:
        case ArgSource::output_pages:
        case ArgSource::input_bytes:
        case ArgSource::output_bytes:
        case ArgSource::scalar: return true;
        default: return false;
    }
}

json parse_request_json(std::string_view line) {
    if (line.size() > kMaxLineBytes)
        throw Error(ErrorStatus::Protocol,
                    "request line of " + std::to_string(line.size()) + " bytes exceeds the limit of " +
                        std::to_string(kMaxLineBytes));
    // The JSON parser would stop at a NUL and accept what came before it as the whole line.
    if (size_t nul = line.find('\0'); nul != std::string_view::npos)
        throw Error(ErrorStatus::Protocol, "request line contains a NUL byte at offset " + std::to_string(nul));
    check_nesting(line);
    // The parser keeps the last of two equal keys; the callback sees every key (decoded, so
    // "c\u006dd" is "cmd") and remembers the first one that repeats in its object.
    std::vector<std::unordered_set<std::string>> open_objects;
    std::string duplicate;
    json::parser_callback_t note_keys = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) {
            open_objects.emplace_back();
        } else if (event == json::parse_event_t::object_end) {
            if (!open_objects.empty()) open_objects.pop_back();
        } else if (event == json::parse_event_t::key && !open_objects.empty() && parsed.is_string()) {
            if (!open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty())
                duplicate = parsed.get<std::string>();
        }
        return true;
    };
    json j = json::parse(line.begin(), line.end(), note_keys, /*allow_exceptions=*/false);
    if (j.is_discarded()) {
        // Re-parse with exceptions only to get the parser's own description of the fault.
        try {
            json discard = json::parse(line.begin(), line.end());
            (void)discard;
        } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
            throw Error(ErrorStatus::Protocol, std::string("malformed JSON: ") + e.what());
        }
        throw Error(ErrorStatus::Protocol, "malformed JSON");
    }
    if (!duplicate.empty())
        throw Error(ErrorStatus::Protocol,
                    "duplicate key '" + duplicate + "': a key may appear only once in an object");
    return j;
}

Request parse_request(std::string_view line) { return request_from_json(parse_request_json(line)); }

Request request_from_json(const json& j) {
    if (!j.is_object())
        throw Error(ErrorStatus::Protocol, "a request must be a JSON object, got " + std::string(json_type(j)));
    Request r;
    // seq first, so that even a request with a bad command can be matched to its error.
    if (auto it = j.find("seq"); it != j.end()) r.seq = as_u64(*it, "request", "seq");
    const std::string& cmd = get_string(j, "request", "cmd");
    int ci = index_of(kCommandNames, cmd);
    if (ci < 0)
        throw Error(ErrorStatus::Protocol, "unknown command '" + cmd + "' (known: " + name_list(kCommandNames) + ")");
    r.cmd = Command(ci);
    std::string_view ctx = kCommandNames[size_t(ci)];
    switch (r.cmd) {
        case Command::hello:
            only_fields(j, ctx, {"cmd", "seq", "version"});
            r.version = get_u32(j, ctx, "version");
            break;
        case Command::ping:
        case Command::stats:
        case Command::exit: only_fields(j, ctx, {"cmd", "seq"}); break;
        case Command::arena_map:
            only_fields(j, ctx, {"cmd", "seq", "name", "bytes"});
            r.arena_name = get_string(j, ctx, "name");
            r.arena_bytes = get_u64(j, ctx, "bytes");
            if (r.arena_name.size() < 2 || r.arena_name.size() > 200 || r.arena_name[0] != '/' ||
                r.arena_name.find('/', 1) != std::string::npos || r.arena_name.find('\0') != std::string::npos)
                fail(ErrorStatus::InvalidArgument, ctx,
                     "arena name must be '/' followed by 1 to 199 characters without '/'");
            break;
        case Command::arena_resize:
            only_fields(j, ctx, {"cmd", "seq", "bytes"});
            r.arena_bytes = get_u64(j, ctx, "bytes");
            break;
        case Command::alloc_buf:
            only_fields(j, ctx, {"cmd", "seq", "bytes", "page_bytes"});
            r.bytes = get_u64(j, ctx, "bytes");
            r.page_bytes = opt_u32(j, ctx, "page_bytes", 0);
            // Absent means the default; an explicit 0 is a bad value, never the default.
            if (j.contains("page_bytes") && r.page_bytes == 0)
                throw Error(ErrorStatus::InvalidArgument,
                            "alloc_buf: page_bytes 0 is not a page size (omit the field for the default)");
            break;
        case Command::free_buf:
            only_fields(j, ctx, {"cmd", "seq", "buffer"});
            r.buffer = get_u32(j, ctx, "buffer");
            break;
        case Command::write_buf:
        case Command::read_buf:
            only_fields(j, ctx, {"cmd", "seq", "buffer", "offset", "bytes", "arena_offset"});
            r.buffer = get_u32(j, ctx, "buffer");
            r.bytes = get_u64(j, ctx, "bytes");
            r.offset = j.contains("offset") ? get_u64(j, ctx, "offset") : 0;
            r.arena_offset = j.contains("arena_offset") ? get_u64(j, ctx, "arena_offset") : 0;
            break;
        case Command::copy_buf:
            only_fields(j, ctx, {"cmd", "seq", "src", "dst", "bytes"});
            r.src_buffer = get_u32(j, ctx, "src");
            r.buffer = get_u32(j, ctx, "dst");
            r.bytes = get_u64(j, ctx, "bytes");
            break;
        case Command::compile_program:
            only_fields(j, ctx,
                        {"cmd", "seq", "kernels", "cbs", "semaphores", "grid", "num_inputs", "num_outputs",
                         "num_scalars", "fp32_dest_acc", "math_fidelity", "math_approx", "dst_full_sync",
                         "unpack_to_dest_fp32"});
            parse_program(j, r);
            break;
        case Command::run:
            only_fields(j, ctx, {"cmd", "seq", "program", "inputs", "outputs", "scalars", "grid"});
            r.program_id = get_u32(j, ctx, "program");
            if (const json* a = opt_array(j, ctx, "inputs", kMaxLaunchBuffers)) r.inputs = u32_array(*a, ctx, "inputs");
            if (const json* a = opt_array(j, ctx, "outputs", kMaxLaunchBuffers))
                r.outputs = u32_array(*a, ctx, "outputs");
            if (const json* a = opt_array(j, ctx, "scalars", kMaxScalars)) r.scalars = u32_array(*a, ctx, "scalars");
            if (j.contains("grid")) r.grid = parse_grid(j["grid"], "run.grid", ErrorStatus::KernelLaunch);
            break;
        case Command::release_program:
            only_fields(j, ctx, {"cmd", "seq", "program"});
            r.program_id = get_u32(j, ctx, "program");
            break;
    }
    return r;
}

std::string request_json(const Request& r) {
    json j = {{"cmd", command_name(r.cmd)}};
    if (r.seq) j["seq"] = *r.seq;
    switch (r.cmd) {
        case Command::hello: j["version"] = r.version; break;
        case Command::ping:
        case Command::stats:
        case Command::exit: break;
        case Command::arena_map:
            j["name"] = r.arena_name;
            j["bytes"] = r.arena_bytes;
            break;
        case Command::arena_resize: j["bytes"] = r.arena_bytes; break;
        case Command::alloc_buf:
            j["bytes"] = r.bytes;
            if (r.page_bytes) j["page_bytes"] = r.page_bytes;
            break;
        case Command::free_buf: j["buffer"] = r.buffer; break;
        case Command::write_buf:
        case Command::read_buf:
            j["buffer"] = r.buffer;
            j["offset"] = r.offset;
            j["bytes"] = r.bytes;
            j["arena_offset"] = r.arena_offset;
            break;
        case Command::copy_buf:
            j["src"] = r.src_buffer;
            j["dst"] = r.buffer;
            j["bytes"] = r.bytes;
            break;
        case Command::compile_program: j.update(program_json(r.program, r.source_bytes)); break;
        case Command::run:
            j["program"] = r.program_id;
            j["inputs"] = r.inputs;
            j["outputs"] = r.outputs;
            j["scalars"] = r.scalars;
            if (r.grid) j["grid"] = {{"rows", r.grid->rows}, {"cols", r.grid->cols}};
            break;
        case Command::release_program: j["program"] = r.program_id; break;
    }
    return dump(j);
}

json device_desc_to_json(const DeviceDesc& d) {
    json formats = json::array();
    for (DataFormat f : d.data_formats) formats.push_back(data_format_name(f));
    return {{"name", d.name},
            {"arch", d.arch},
            {"grid", {{"rows", d.grid.rows}, {"cols", d.grid.cols}}},
            {"dram_bytes", d.dram_bytes},
            {"dram_banks", d.dram_banks},
            {"dram_alignment", d.dram_alignment},
            {"l1_bytes", d.l1_bytes},
            {"num_cbs", d.num_cbs},
            {"data_formats", std::move(formats)}};
}

DeviceDesc device_desc_from_json(const json& j) {
    const std::string ctx = "hello.device";
    require_object(j, ctx);
    DeviceDesc d;
    d.name = get_string(j, ctx, "name");
    d.arch = get_string(j, ctx, "arch");
    d.grid = parse_grid(field(j, ctx, "grid"), ctx + ".grid");
    d.dram_bytes = get_u64(j, ctx, "dram_bytes");
    d.dram_banks = get_u32(j, ctx, "dram_banks");
    d.dram_alignment = get_u32(j, ctx, "dram_alignment");
    d.l1_bytes = get_u32(j, ctx, "l1_bytes");
    d.num_cbs = get_u32(j, ctx, "num_cbs");
    const json& formats = get_array(j, ctx, "data_formats", 64);
    for (const json& f : formats) {
        DataFormat df;
        if (f.is_string() && data_format_from_name(f.get<std::string>(), &df)) d.data_formats.push_back(df);
        // A format this client does not know is skipped: newer runtimes may report more.
    }
    return d;
}

json response_ok(std::optional<uint64_t> seq) {
    json j = {{"ok", true}};
    if (seq) j["seq"] = *seq;
    return j;
}

json response_error(std::optional<uint64_t> seq, ErrorStatus status, std::string_view message) {
    json j = {{"ok", false}};
    if (seq) j["seq"] = *seq;
    j["error"] = {{"status", error_status_name(status)}, {"message", message}};
    return j;
}

json parse_response(std::string_view line, std::optional<uint64_t> expected_seq) {
    json j = json::parse(line.begin(), line.end(), nullptr, false);
    auto excerpt = [&] { return std::string(line.substr(0, 200)); };
    if (j.is_discarded() || !j.is_object() || !j.contains("ok") || !j["ok"].is_boolean())
        throw Error(ErrorStatus::Protocol, "the runtime sent something that is not a response: '" + excerpt() + "'");
    if (expected_seq) {
        auto it = j.find("seq");
        if (it == j.end() || !it->is_number_unsigned() || it->get<uint64_t>() != *expected_seq)
            throw Error(
                ErrorStatus::Protocol,
                "response out of order: expected seq " + std::to_string(*expected_seq) + ", got '" + excerpt() + "'");
    }
    if (j["ok"].get<bool>()) return j;
    const json* err = j.contains("error") && j["error"].is_object() ? &j["error"] : nullptr;
    if (!err || !err->contains("status") || !(*err)["status"].is_string() || !err->contains("message") ||
        !(*err)["message"].is_string())
        throw Error(ErrorStatus::Protocol, "malformed error response: '" + excerpt() + "'");
    throw Error(error_status_from_name((*err)["status"].get<std::string>()), (*err)["message"].get<std::string>());
}

}  // namespace zyx::tt::protocol
