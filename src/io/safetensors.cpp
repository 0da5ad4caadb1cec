// Checkpoints in the safetensors format: the contracts are in include/zyx/checkpoint.hpp.
#include "zyx/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

#include "graph/graph.hpp"

namespace zyx {

namespace {

static_assert(std::endian::native == std::endian::little,
              "tensor bytes are written as they are held: the host must be little-endian like the format");

// ordered_json keeps the header's key order, which orders tensors that share a data offset.
using json = nlohmann::ordered_json;

constexpr uint64_t kMaxHeaderBytes = 100'000'000;  // the reference implementation's limit
constexpr int kMaxNesting = 16;                    // valid headers nest 3 levels
constexpr std::string_view kMetadataKey = "__metadata__";

struct FormatDType {
    std::string_view name;
    DType dtype;
};
constexpr FormatDType kDTypes[] = {
    {"F64", DType::f64}, {"F32", DType::f32}, {"F16", DType::f16},    {"BF16", DType::bf16}, {"I64", DType::i64},
    {"I32", DType::i32}, {"I16", DType::i16}, {"I8", DType::i8},      {"U64", DType::u64},   {"U32", DType::u32},
    {"U16", DType::u16}, {"U8", DType::u8},   {"BOOL", DType::bool_},
};
// Dtypes of the format that zyx has no DType for.
constexpr std::string_view kUnsupportedDTypes[] = {"F8_E4M3", "F8_E5M2", "F8_E8M0", "F6_E2M3", "F6_E3M2", "F4", "C64"};

// The format's name of `t`; empty when it has none.
std::string_view format_name(DType t) {
    for (const FormatDType& d : kDTypes)
        if (d.dtype == t) return d.name;
    return {};
}

std::string known_dtypes() {
    std::string s;
    for (const FormatDType& d : kDTypes) {
        if (!s.empty()) s += ", ";
        s += d.name;
    }
    return s;
}

// Throws "<fn>: <path>: <what>".
[[noreturn]] void fail(ErrorStatus status, const char* fn, const std::string& path, const std::string& what) {
    throw Error(status, std::string(fn) + ": " + path + ": " + what);
}

std::string errno_text(int e) { return std::strerror(e); }

std::string tensor_label(const std::string& name) { return "tensor '" + name + "'"; }

std::string json_type(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return "a boolean";
    if (v.is_number_integer()) return "an integer";
    if (v.is_number_float()) return "a floating-point number";
    if (v.is_string()) return "a string";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return "something else";
}

bool valid_utf8(const std::string& s) {
    try {
        (void)json(s).dump();
        return true;
    } catch (const json::type_error&) { return false; }
}

// ---- reading ---------------------------------------------------------------------------------------

// A regular file opened for reading; every failure is Io naming the path.
class InFile {
public:
    InFile(const char* fn, const std::string& path) : fn_(fn), path_(path) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) fail(ErrorStatus::Io, fn_, path_, "cannot open: " + errno_text(errno));
        struct stat st;
        if (::fstat(fd_, &st) != 0) {
            int e = errno;
            ::close(fd_);
            fail(ErrorStatus::Io, fn_, path_, "cannot stat: " + errno_text(e));
        }
        if (!S_ISREG(st.st_mode)) {
            ::close(fd_);
            fail(ErrorStatus::Io, fn_, path_, "not a regular file");
        }
        size_ = uint64_t(st.st_size);
    }
    ~InFile() { ::close(fd_); }
    InFile(const InFile&) = delete;
    InFile& operator=(const InFile&) = delete;

    uint64_t size() const { return size_; }

    // Exactly `n` bytes from `offset`.
    void read(uint64_t offset, void* dst, uint64_t n) const {
        auto* out = static_cast<char*>(dst);
        while (n > 0) {
            size_t chunk = size_t(std::min<uint64_t>(n, uint64_t(1) << 30));
            ssize_t got = ::pread(fd_, out, chunk, off_t(offset));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0)
                fail(ErrorStatus::Io, fn_, path_,
                     "read failed at byte " + std::to_string(offset) + ": " + errno_text(errno));
            if (got == 0)
                fail(ErrorStatus::Io, fn_, path_,
                     "unexpected end of file at byte " + std::to_string(offset) + " (did it change while being read?)");
            out += got;
            offset += uint64_t(got);
            n -= uint64_t(got);
        }
    }

private:
    const char* fn_;
    const std::string& path_;
    int fd_ = -1;
    uint64_t size_ = 0;
};

struct Entry {
    std::string name;
    DType dtype;
    Shape shape;
    uint64_t begin, end;
};

struct Header {
    uint64_t data_start = 0;     // file offset of the data buffer
    std::vector<Entry> entries;  // in load order
    std::map<std::string, std::string> metadata;
};

// Throws InvalidArgument when `text` nests deeper than kMaxNesting (before parsing, so no input
// can make the parser or the parsed value's destructor recurse deeply).
void check_nesting(const std::string& text, const char* fn, const std::string& path) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            if (++depth > kMaxNesting)
                fail(ErrorStatus::InvalidArgument, fn, path,
                     "header nests deeper than " + std::to_string(kMaxNesting) + " levels");
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
}

// Parses the header text; InvalidArgument for invalid JSON, a non-object or a repeated key.
json parse_header(const std::string& text, const char* fn, const std::string& path) {
    check_nesting(text, fn, path);
    // nlohmann keeps one value of a repeated key: the callback records the keys of every open
    // object to find repeats.
    std::vector<std::set<std::string>> open_objects;
    std::string repeated;
    auto callback = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) {
            open_objects.emplace_back();
        } else if (event == json::parse_event_t::object_end) {
            if (!open_objects.empty()) open_objects.pop_back();
        } else if (event == json::parse_event_t::key && !open_objects.empty()) {
            const std::string& key = parsed.get_ref<const std::string&>();
            if (!open_objects.back().insert(key).second && repeated.empty()) repeated = key;
        }
        return true;
    };
    json h;
    try {
        h = json::parse(text, callback);
    } catch (const json::exception& e) {
        fail(ErrorStatus::InvalidArgument, fn, path, std::string("header is not valid JSON: ") + e.what());
    }
    if (!h.is_object())
        fail(ErrorStatus::InvalidArgument, fn, path, "header is " + json_type(h) + ", not a JSON object");
    if (!repeated.empty()) fail(ErrorStatus::InvalidArgument, fn, path, "header repeats the key '" + repeated + "'");
    return h;
}

Entry parse_entry(const std::string& name, const json& v, const char* fn, const std::string& path) {
    const std::string who = tensor_label(name) + ": ";
    auto bad = [&](const std::string& what) { fail(ErrorStatus::InvalidArgument, fn, path, who + what); };
    if (!v.is_object()) bad("entry is " + json_type(v) + ", not an object");
    auto field = [&](const char* key) -> const json& {
        auto it = v.find(key);
        if (it == v.end()) bad(std::string("entry has no \"") + key + "\"");
        return *it;
    };
    Entry e;
    e.name = name;

    const json& dtype = field("dtype");
    if (!dtype.is_string()) bad("\"dtype\" is " + json_type(dtype) + ", not a string");
    const std::string& dname = dtype.get_ref<const std::string&>();
    auto known =
        std::find_if(std::begin(kDTypes), std::end(kDTypes), [&](const FormatDType& d) { return d.name == dname; });
    if (known == std::end(kDTypes)) {
        if (std::find(std::begin(kUnsupportedDTypes), std::end(kUnsupportedDTypes), dname) !=
            std::end(kUnsupportedDTypes))
            fail(ErrorStatus::Unsupported, fn, path, who + "dtype " + dname + " is not supported by zyx");
        bad("unknown dtype '" + dname + "' (known: " + known_dtypes() + ")");
    }
    e.dtype = known->dtype;

    const json& shape = field("shape");
    if (!shape.is_array()) bad("\"shape\" is " + json_type(shape) + ", not an array");
    int64_t bytes = int64_t(dtype_size(e.dtype));
    for (const json& d : shape) {
        if (!d.is_number_integer()) bad("\"shape\" " + shape.dump() + " holds " + json_type(d) + ", not an integer");
        if (!d.is_number_unsigned()) bad("\"shape\" " + shape.dump() + " has a negative size");
        uint64_t u = d.get<uint64_t>();
        if (u > uint64_t(std::numeric_limits<int64_t>::max()) || __builtin_mul_overflow(bytes, int64_t(u), &bytes))
            bad("shape " + shape.dump() + " of dtype " + dname + " needs more than 2^63 - 1 bytes");
        e.shape.push_back(int64_t(u));
    }

    const json& offsets = field("data_offsets");
    if (!offsets.is_array() || offsets.size() != 2)
        bad("\"data_offsets\" is " + (offsets.is_array() ? offsets.dump() : json_type(offsets)) + ", not [begin, end]");
    for (const json& o : offsets)
        if (!o.is_number_unsigned())
            bad("\"data_offsets\" " + offsets.dump() + " holds " +
                (o.is_number_integer() ? "a negative integer" : json_type(o)) + ", not a non-negative integer");
    e.begin = offsets[0].get<uint64_t>();
    e.end = offsets[1].get<uint64_t>();
    if (e.begin > e.end) bad("\"data_offsets\" " + offsets.dump() + ": begin is after end");
    if (e.end - e.begin != uint64_t(bytes))
        bad("\"data_offsets\" " + offsets.dump() + " hold " + std::to_string(e.end - e.begin) + " bytes, " + dname +
            " " + graph::shape_str(e.shape) + " needs " + std::to_string(bytes));
    return e;
}

// Reads and checks the whole header (see load_safetensors for the list of checks).
Header read_header(const InFile& f, const char* fn, const std::string& path) {
    auto bad = [&](const std::string& what) { fail(ErrorStatus::InvalidArgument, fn, path, what); };
    if (f.size() < 8) bad("file of " + std::to_string(f.size()) + " bytes is shorter than the 8-byte header length");
    unsigned char len[8];
    f.read(0, len, 8);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | len[i];
    if (n > kMaxHeaderBytes)
        bad("header length " + std::to_string(n) + " is above the limit of " + std::to_string(kMaxHeaderBytes) +
            " bytes");
    if (n > f.size() - 8)
        bad("header length " + std::to_string(n) + " runs past the end of the file (" + std::to_string(f.size()) +
            " bytes)");
    std::string text(size_t(n), '\0');
    f.read(8, text.data(), n);
    json h = parse_header(text, fn, path);

    Header out;
    out.data_start = 8 + n;
    uint64_t data_size = f.size() - out.data_start;
    for (const auto& [key, value] : h.items()) {
        if (key == kMetadataKey) {
            if (value.is_null()) continue;
            if (!value.is_object()) bad("\"__metadata__\" is " + json_type(value) + ", not an object of strings");
            for (const auto& [k, v] : value.items()) {
                if (!v.is_string())
                    bad("\"__metadata__\" value of key '" + k + "' is " + json_type(v) + ", not a string");
                out.metadata.emplace(k, v.get<std::string>());
            }
            continue;
        }
        Entry e = parse_entry(key, value, fn, path);
        if (e.end > data_size)
            bad(tensor_label(key) + ": \"data_offsets\" [" + std::to_string(e.begin) + "," + std::to_string(e.end) +
                "] run past the data buffer of " + std::to_string(data_size) + " bytes");
        out.entries.push_back(std::move(e));
    }

    // Regions in buffer order must tile [0, data_size) exactly.
    std::stable_sort(out.entries.begin(), out.entries.end(), [](const Entry& a, const Entry& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    uint64_t covered = 0;
    const Entry* previous = nullptr;
    for (const Entry& e : out.entries) {
        auto range = [](const Entry& x) { return "[" + std::to_string(x.begin) + ", " + std::to_string(x.end) + ")"; };
        if (e.begin < covered)
            bad(tensor_label(e.name) + " at bytes " + range(e) + " overlaps " + tensor_label(previous->name) +
                " at bytes " + range(*previous));
        if (e.begin > covered)
            bad("data bytes [" + std::to_string(covered) + ", " + std::to_string(e.begin) + ") before " +
                tensor_label(e.name) + " belong to no tensor (a gap)");
        covered = e.end;
        previous = &e;
    }
    if (covered != data_size)
        bad("data bytes [" + std::to_string(covered) + ", " + std::to_string(data_size) +
            ") after the last tensor belong to no tensor");
    return out;
}

// ---- writing ---------------------------------------------------------------------------------------

template <class T>
void read_into(const Tensor& t, std::vector<uint8_t>& out) {
    t.to_buffer(reinterpret_cast<T*>(out.data()), out.size() / sizeof(T));
}

// The tensor's elements as the format stores them (row-major, little-endian; bool as 0/1 bytes).
std::vector<uint8_t> tensor_bytes(const Tensor& t) {
    std::vector<uint8_t> out(size_t(t.numel()) * dtype_size(t.dtype()));
    switch (t.dtype()) {
        case DType::f64: read_into<double>(t, out); break;
        case DType::f32: read_into<float>(t, out); break;
        case DType::f16:
        case DType::bf16: read_into<uint16_t>(t.bitcast(DType::u16), out); break;
        case DType::i8: read_into<int8_t>(t, out); break;
        case DType::i16: read_into<int16_t>(t, out); break;
        case DType::i32: read_into<int32_t>(t, out); break;
        case DType::i64: read_into<int64_t>(t, out); break;
        case DType::u8:
        case DType::bool_: read_into<uint8_t>(t, out); break;
        case DType::u16: read_into<uint16_t>(t, out); break;
        case DType::u32: read_into<uint32_t>(t, out); break;
        case DType::u64: read_into<uint64_t>(t, out); break;
    }
    return out;
}

void write_all(int fd, const void* data, size_t n, const char* fn, const std::string& path, const std::string& tmp) {
    auto* p = static_cast<const char*>(data);
    while (n > 0) {
        ssize_t put = ::write(fd, p, std::min<size_t>(n, size_t(1) << 30));
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) fail(ErrorStatus::Io, fn, path, "cannot write " + tmp + ": " + errno_text(errno));
        p += put;
        n -= size_t(put);
    }
}

}  // namespace

void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata) {
    const char* fn = "save_safetensors";
    auto bad = [&](const std::string& what) { fail(ErrorStatus::InvalidArgument, fn, path, what); };

    // Every argument is checked and the header built before the file is created.
    json h = json::object();
    if (!metadata.empty()) {
        json m = json::object();
        for (const auto& [k, v] : metadata) {
            if (!valid_utf8(k)) bad("metadata key '" + k + "' is not valid UTF-8");
            if (!valid_utf8(v)) bad("metadata value of key '" + k + "' is not valid UTF-8");
            m[k] = v;
        }
        h[std::string(kMetadataKey)] = std::move(m);
    }
    std::set<std::string> names;
    uint64_t offset = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const auto& [name, t] = tensors[i];
        if (name.empty()) bad("tensor " + std::to_string(i) + " has an empty name");
        if (name == kMetadataKey)
            bad("tensor " + std::to_string(i) + " is named '__metadata__', which the format reserves for metadata");
        if (!names.insert(name).second) bad(tensor_label(name) + " is given twice");
        if (!valid_utf8(name)) bad(tensor_label(name) + ": the name is not valid UTF-8");
        if (!t.defined()) bad(tensor_label(name) + " is undefined");
        std::string_view dname = format_name(t.dtype());
        if (dname.empty())
            bad(tensor_label(name) + ": dtype " + std::string(dtype_name(t.dtype())) + " has no safetensors name");
        uint64_t bytes = uint64_t(t.numel()) * dtype_size(t.dtype());
        uint64_t end;
        if (__builtin_add_overflow(offset, bytes, &end))
            bad("the tensors up to " + tensor_label(name) + " hold more than 2^64 - 1 bytes");
        json e = json::object();
        e["dtype"] = std::string(dname);
        e["shape"] = t.shape();
        e["data_offsets"] = json::array({offset, end});
        h[name] = std::move(e);
        offset = end;
    }
    std::string text = h.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    if (text.size() > kMaxHeaderBytes)
        bad("header of " + std::to_string(text.size()) + " bytes is above the limit of " +
            std::to_string(kMaxHeaderBytes) + " bytes that readers enforce");

    const std::string tmp = path + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail(ErrorStatus::Io, fn, path, "cannot create " + tmp + ": " + errno_text(errno));
    try {
        unsigned char len[8];
        for (int i = 0; i < 8; ++i) len[i] = uint8_t(uint64_t(text.size()) >> (8 * i));
        write_all(fd, len, 8, fn, path, tmp);
        write_all(fd, text.data(), text.size(), fn, path, tmp);
        for (const auto& [name, t] : tensors) {
            std::vector<uint8_t> bytes = tensor_bytes(t);
            write_all(fd, bytes.data(), bytes.size(), fn, path, tmp);
        }
        if (::fsync(fd) != 0) fail(ErrorStatus::Io, fn, path, "cannot flush " + tmp + ": " + errno_text(errno));
        int rc = ::close(fd);
        fd = -1;
        if (rc != 0) fail(ErrorStatus::Io, fn, path, "cannot close " + tmp + ": " + errno_text(errno));
        if (std::rename(tmp.c_str(), path.c_str()) != 0)
            fail(ErrorStatus::Io, fn, path, "cannot rename " + tmp + " to it: " + errno_text(errno));
    } catch (...) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
}

std::vector<std::pair<std::string, Tensor>> load_safetensors(const std::string& path, Device device) {
    const char* fn = "load_safetensors";
    InFile f(fn, path);
    Header h = read_header(f, fn, path);
    std::vector<std::pair<std::string, Tensor>> out;
    out.reserve(h.entries.size());
    for (const Entry& e : h.entries) {
        std::vector<uint8_t> bytes(size_t(e.end - e.begin));
        f.read(h.data_start + e.begin, bytes.data(), bytes.size());
        if (e.dtype == DType::bool_)
            for (uint8_t& b : bytes) b = b != 0;
        Tensor t = from_bytes(bytes.data(), bytes.size(), e.shape, e.dtype, device);
        t.realize();
        out.emplace_back(e.name, std::move(t));
    }
    return out;
}

std::map<std::string, std::string> safetensors_metadata(const std::string& path) {
    const char* fn = "safetensors_metadata";
    InFile f(fn, path);
    return read_header(f, fn, path).metadata;
}

}  // namespace zyx
