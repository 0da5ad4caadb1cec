// Checkpoints in the safetensors format (include/zyx/checkpoint.hpp), on real files in a fresh
// temporary directory: round trips, a file built byte by byte from the format's specification,
// the saved bytes checked against it, every malformed file, and failed saves.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>

#include "zyx/checkpoint.hpp"

namespace {

namespace fs = std::filesystem;
using zyx::Device;
using zyx::DType;
using zyx::ErrorStatus;
using zyx::Shape;
using zyx::Tensor;
using Bytes = std::vector<uint8_t>;

class Safetensors : public ::testing::Test {
protected:
    void SetUp() override {
        std::string tmpl = (fs::temp_directory_path() / "zyx_safetensors_XXXXXX").string();
        ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string file(const std::string& name) const { return (dir_ / name).string(); }

    fs::path dir_;
};

// The host's bytes of `values` (the host is little-endian: the checkpoint code asserts it).
template <class T>
Bytes host_bytes(const std::vector<T>& values) {
    Bytes b(values.size() * sizeof(T));
    if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
    return b;
}

// A tensor's elements as raw bytes of its dtype.
Bytes bytes_of(const Tensor& t) {
    switch (t.dtype()) {
        case DType::f64: return host_bytes(t.to_vector<double>());
        case DType::f32: return host_bytes(t.to_vector<float>());
        case DType::f16:
        case DType::bf16: return host_bytes(t.bitcast(DType::u16).to_vector<uint16_t>());
        case DType::i8: return host_bytes(t.to_vector<int8_t>());
        case DType::i16: return host_bytes(t.to_vector<int16_t>());
        case DType::i32: return host_bytes(t.to_vector<int32_t>());
        case DType::i64: return host_bytes(t.to_vector<int64_t>());
        case DType::u8: return host_bytes(t.to_vector<uint8_t>());
        case DType::u16: return host_bytes(t.to_vector<uint16_t>());
        case DType::u32: return host_bytes(t.to_vector<uint32_t>());
        case DType::u64: return host_bytes(t.to_vector<uint64_t>());
        case DType::bool_: return host_bytes(t.to_vector<uint8_t>());
    }
    return {};
}

void write_file(const std::string& path, const Bytes& b) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    ASSERT_TRUE(f.good()) << path;
}

Bytes read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A file of the format: the length `n` (u64 little-endian), `header` padded with spaces to a
// multiple of 8 unless `pad` is false, then `data`.
Bytes file_bytes(const std::string& header, const Bytes& data, bool pad = true) {
    std::string h = header;
    if (pad) h.append((8 - h.size() % 8) % 8, ' ');
    Bytes b;
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(uint64_t(h.size()) >> (8 * i)));
    b.insert(b.end(), h.begin(), h.end());
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

// Runs `fn`; expects a zyx::Error of `status` whose message names `path` and contains each of `parts`.
void expect_error(const std::function<void()>& fn, ErrorStatus status, const std::string& path,
                  const std::vector<std::string>& parts) {
    try {
        fn();
        ADD_FAILURE() << "no error; expected one mentioning " << (parts.empty() ? path : parts[0]);
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), status) << e.what();
        EXPECT_NE(e.message().find(path), std::string::npos) << "path not in: " << e.what();
        for (const std::string& p : parts)
            EXPECT_NE(e.message().find(p), std::string::npos) << "'" << p << "' not in: " << e.what();
    }
}

struct Case {
    std::string name;
    DType dtype;
    Shape shape;
    Bytes bytes;
};

// Every dtype, with edge values; a 0-d, a 3-D and two empty tensors. Out of name order, and the
// two empty tensors share their data offset with each other and with the tensor after them.
std::vector<Case> round_trip_cases() {
    std::vector<float> f32(24);
    for (size_t i = 0; i < f32.size(); ++i) f32[i] = float(i) * 0.37f - 3.f;
    f32[1] = -0.f;
    f32[2] = INFINITY;
    f32[3] = 1e-45f;  // smallest denormal
    Bytes f32b = host_bytes(f32);
    uint32_t nan = 0x7fc00123u;  // a NaN with a payload
    std::memcpy(f32b.data() + 4 * 4, &nan, 4);
    return {
        {"zeta_f32_3d", DType::f32, {2, 3, 4}, f32b},
        {"f64_scalar", DType::f64, {}, host_bytes(std::vector<double>{-1.0 / 3.0})},
        {"f16", DType::f16, {4}, host_bytes(std::vector<uint16_t>{0x3c00, 0x8000, 0x0001, 0x7bff})},
        {"bf16", DType::bf16, {2, 2}, host_bytes(std::vector<uint16_t>{0x3f80, 0xc0a0, 0x7f80, 0x0001})},
        {"i8", DType::i8, {3}, host_bytes(std::vector<int8_t>{-128, 0, 127})},
        {"i16", DType::i16, {3}, host_bytes(std::vector<int16_t>{-32768, -1, 32767})},
        {"i32", DType::i32, {1, 3}, host_bytes(std::vector<int32_t>{INT32_MIN, -7, INT32_MAX})},
        {"i64", DType::i64, {3}, host_bytes(std::vector<int64_t>{INT64_MIN, 1234567890123, INT64_MAX})},
        {"empty_f32", DType::f32, {0, 3}, {}},
        {"empty_i64", DType::i64, {0}, {}},
        {"u8", DType::u8, {2}, host_bytes(std::vector<uint8_t>{0, 255})},
        {"u16", DType::u16, {2}, host_bytes(std::vector<uint16_t>{1, 65535})},
        {"u32", DType::u32, {2}, host_bytes(std::vector<uint32_t>{2, UINT32_MAX})},
        {"u64", DType::u64, {3}, host_bytes(std::vector<uint64_t>{3, UINT64_MAX, uint64_t(1) << 63})},
        {"alpha_bool", DType::bool_, {2, 3}, Bytes{1, 0, 0, 1, 1, 0}},
    };
}

TEST_F(Safetensors, RoundTripEveryDtypeAndShape) {
    std::vector<Case> cases = round_trip_cases();
    std::vector<std::pair<std::string, Tensor>> tensors;
    for (const Case& c : cases)
        tensors.emplace_back(c.name, zyx::from_bytes(c.bytes.data(), c.bytes.size(), c.shape, c.dtype));
    std::map<std::string, std::string> meta = {
        {"format", "pt"}, {"note", "caf\xc3\xa9 \xe2\x9c\x93 \"quoted\"\n"}, {"empty", ""}, {"", "empty key"}};
    const std::string path = file("all.safetensors");
    zyx::save_safetensors(path, tensors, meta);
    EXPECT_FALSE(fs::exists(path + ".tmp"));

    for (Device device : {Device::host(), Device::interpreter()}) {
        SCOPED_TRACE(device.str());
        auto loaded = zyx::load_safetensors(path, device);
        ASSERT_EQ(loaded.size(), cases.size());
        for (size_t i = 0; i < cases.size(); ++i) {
            SCOPED_TRACE(cases[i].name);
            EXPECT_EQ(loaded[i].first, cases[i].name);  // saved order, not name order
            const Tensor& t = loaded[i].second;
            EXPECT_EQ(t.dtype(), cases[i].dtype);
            EXPECT_EQ(t.shape(), cases[i].shape);
            EXPECT_EQ(t.device(), device);
            EXPECT_TRUE(t.is_realized());
            EXPECT_EQ(bytes_of(t), cases[i].bytes);
        }
    }
    EXPECT_EQ(zyx::safetensors_metadata(path), meta);
}

TEST_F(Safetensors, SavesLazyTensorsFromAnyDeviceAndReplacesTheFile) {
    const std::string path = file("lazy.safetensors");
    zyx::save_safetensors(path, {{"old", zyx::ones({5})}}, {{"v", "1"}});
    Tensor x = zyx::arange(0, 6, 1, DType::f32, Device::interpreter()).reshape({2, 3}) * 2;
    Tensor y = (zyx::arange(4) > 1);  // bool, host, unrealized
    zyx::save_safetensors(path, {{"x", x}, {"y", y}});
    EXPECT_FALSE(fs::exists(path + ".tmp"));
    auto loaded = zyx::load_safetensors(path);
    ASSERT_EQ(loaded.size(), 2u);
    EXPECT_EQ(loaded[0].first, "x");
    EXPECT_EQ(loaded[0].second.shape(), (Shape{2, 3}));
    EXPECT_EQ(loaded[0].second.to_vector<float>(), (std::vector<float>{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(loaded[1].first, "y");
    EXPECT_EQ(loaded[1].second.dtype(), DType::bool_);
    EXPECT_EQ(loaded[1].second.to_vector<bool>(), (std::vector<bool>{false, false, true, true}));
    EXPECT_TRUE(zyx::safetensors_metadata(path).empty());  // the old file's metadata is gone
    // An empty checkpoint is a valid file too.
    zyx::save_safetensors(path, {});
    EXPECT_TRUE(zyx::load_safetensors(path).empty());
}

// A file written byte by byte from the specification: header keys out of buffer order, metadata
// between the entries, a 0-d BOOL holding 2 (nonzero: true), a BF16, and space padding.
TEST_F(Safetensors, LoadsAHandBuiltFile) {
    const std::string header =
        "{\"b\":{\"dtype\":\"I16\",\"shape\":[2],\"data_offsets\":[8,12]},"
        "\"__metadata__\":{\"k\":\"v\"},"
        "\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
        "\"c\":{\"dtype\":\"BOOL\",\"shape\":[],\"data_offsets\":[12,13]},"
        "\"d\":{\"dtype\":\"BF16\",\"shape\":[1,1],\"data_offsets\":[13,15]}}"
        "  ";  // 246 bytes of JSON + 2 spaces = 248
    ASSERT_EQ(header.size(), 248u);
    Bytes bytes = {0xf8, 0, 0, 0, 0, 0, 0, 0};  // 248
    bytes.insert(bytes.end(), header.begin(), header.end());
    const Bytes data = {
        0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0,  // a: F32 1.0, -2.5
        0xfe, 0xff, 0x02, 0x01,                          // b: I16 -2, 258
        0x02,                                            // c: BOOL true
        0xc0, 0xbf,                                      // d: BF16 -1.5
    };
    bytes.insert(bytes.end(), data.begin(), data.end());
    const std::string path = file("hand.safetensors");
    write_file(path, bytes);

    auto loaded = zyx::load_safetensors(path);
    ASSERT_EQ(loaded.size(), 4u);
    EXPECT_EQ(loaded[0].first, "a");
    EXPECT_EQ(loaded[0].second.dtype(), DType::f32);
    EXPECT_EQ(loaded[0].second.shape(), Shape{2});
    EXPECT_EQ(loaded[0].second.to_vector<float>(), (std::vector<float>{1.f, -2.5f}));
    EXPECT_EQ(loaded[1].first, "b");
    EXPECT_EQ(loaded[1].second.dtype(), DType::i16);
    EXPECT_EQ(loaded[1].second.to_vector<int16_t>(), (std::vector<int16_t>{-2, 258}));
    EXPECT_EQ(loaded[2].first, "c");
    EXPECT_EQ(loaded[2].second.dtype(), DType::bool_);
    EXPECT_EQ(loaded[2].second.shape(), Shape{});
    EXPECT_EQ(loaded[2].second.to_vector<uint8_t>(), (std::vector<uint8_t>{1}));
    EXPECT_EQ(loaded[3].first, "d");
    EXPECT_EQ(loaded[3].second.dtype(), DType::bf16);
    EXPECT_EQ(loaded[3].second.shape(), (Shape{1, 1}));
    EXPECT_EQ(loaded[3].second.to_vector<float>(), (std::vector<float>{-1.5f}));
    EXPECT_EQ(zyx::safetensors_metadata(path), (std::map<std::string, std::string>{{"k", "v"}}));

    // The format does not require padding: the same file unpadded loads the same values.
    const std::string unpadded = file("unpadded.safetensors");
    write_file(unpadded, file_bytes(header.substr(0, 246), data, false));
    auto again = zyx::load_safetensors(unpadded);
    ASSERT_EQ(again.size(), 4u);
    EXPECT_EQ(again[1].second.to_vector<int16_t>(), (std::vector<int16_t>{-2, 258}));
}

TEST_F(Safetensors, SavedBytesFollowTheSpecification) {
    const std::string path = file("spec.safetensors");
    zyx::save_safetensors(path,
                          {{"w", zyx::tensor(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3})},
                           {"flag", zyx::tensor(std::vector<bool>{true, false, true})},
                           {"h", zyx::full({1}, 1.0, DType::f16)},
                           {"s", zyx::scalar_tensor(-2, DType::i64)}},
                          {{"epoch", "3"}});
    const Bytes b = read_file(path);
    ASSERT_GE(b.size(), 8u);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | b[size_t(i)];
    EXPECT_EQ(n % 8, 0u);
    ASSERT_LE(8 + n, b.size());
    const std::string header(b.begin() + 8, b.begin() + 8 + int64_t(n));
    ASSERT_FALSE(header.empty());
    EXPECT_EQ(header[0], '{');
    size_t close = header.find_last_of('}');
    ASSERT_NE(close, std::string::npos);
    EXPECT_LT(header.size() - close - 1, 8u);
    EXPECT_EQ(header.substr(close + 1), std::string(header.size() - close - 1, ' '));  // padding: spaces

    const nlohmann::json h = nlohmann::json::parse(header);
    const nlohmann::json want = nlohmann::json::parse(R"({
        "__metadata__": {"epoch": "3"},
        "w": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
        "flag": {"dtype": "BOOL", "shape": [3], "data_offsets": [24, 27]},
        "h": {"dtype": "F16", "shape": [1], "data_offsets": [27, 29]},
        "s": {"dtype": "I64", "shape": [], "data_offsets": [29, 37]}})");
    EXPECT_EQ(h, want) << h.dump();

    ASSERT_EQ(b.size(), 8 + n + 37);  // the buffer holds exactly the tensors
    const Bytes data(b.begin() + 8 + int64_t(n), b.end());
    const Bytes want_data = {
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,  // w: 0 1 2
        0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0xa0, 0x40,  // w: 3 4 5
        0x01, 0x00, 0x01,                                                        // flag
        0x00, 0x3c,                                                              // h: f16 1.0
        0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,                          // s: -2
    };
    EXPECT_EQ(data, want_data);
}

TEST_F(Safetensors, UnreadableFiles) {
    const std::string missing = file("missing.safetensors");
    expect_error([&] { zyx::load_safetensors(missing); }, ErrorStatus::Io, missing,
                 {"load_safetensors", "cannot open"});
    expect_error([&] { zyx::safetensors_metadata(missing); }, ErrorStatus::Io, missing,
                 {"safetensors_metadata", "cannot open"});
    const std::string dir = file("a_directory");
    fs::create_directory(dir);
    expect_error([&] { zyx::load_safetensors(dir); }, ErrorStatus::Io, dir, {"not a regular file"});

    const std::string short_file = file("short.safetensors");
    write_file(short_file, Bytes{1, 0, 0, 0, 0});
    expect_error([&] { zyx::load_safetensors(short_file); }, ErrorStatus::InvalidArgument, short_file,
                 {"5 bytes", "shorter than the 8-byte header length"});
    const std::string empty_file = file("empty.safetensors");
    write_file(empty_file, Bytes{});
    expect_error([&] { zyx::load_safetensors(empty_file); }, ErrorStatus::InvalidArgument, empty_file, {"0 bytes"});
}

TEST_F(Safetensors, HeaderLengthBeyondTheFileOrTheLimit) {
    const std::string past = file("past.safetensors");
    Bytes b = file_bytes("{}", {});  // 8-byte header "{}      "
    b[0] = 17;                       // claims 17 header bytes, the file has 8
    write_file(past, b);
    expect_error([&] { zyx::load_safetensors(past); }, ErrorStatus::InvalidArgument, past,
                 {"header length 17", "runs past the end of the file (16 bytes)"});

    const std::string huge = file("huge.safetensors");
    b = file_bytes("{}", {});
    b[5] = 1;  // 2^40
    write_file(huge, b);
    expect_error([&] { zyx::load_safetensors(huge); }, ErrorStatus::InvalidArgument, huge,
                 {"header length 1099511627784", "above the limit of 100000000 bytes"});

    // Just above the limit, with the file really that long (sparse): the limit, not the file size, refuses it.
    const std::string over = file("over.safetensors");
    b = file_bytes("{}", {});
    uint64_t n = 100'000'001;
    for (int i = 0; i < 8; ++i) b[size_t(i)] = uint8_t(n >> (8 * i));
    write_file(over, b);
    fs::resize_file(over, 8 + n);
    expect_error([&] { zyx::safetensors_metadata(over); }, ErrorStatus::InvalidArgument, over, {"above the limit"});
}

struct Malformed {
    const char* label;
    std::string header;
    size_t data_size;
    ErrorStatus status;
    std::vector<std::string> parts;
};

std::string entry(const std::string& dtype, const std::string& shape, const std::string& offsets) {
    return "{\"dtype\":" + dtype + ",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}";
}

TEST_F(Safetensors, MalformedHeaders) {
    const auto IA = ErrorStatus::InvalidArgument;
    const std::string ok = entry("\"F32\"", "[1]", "[0,4]");
    std::string deep;
    for (int i = 0; i < 20; ++i) deep += "[";
    for (int i = 0; i < 20; ++i) deep += "]";
    const std::vector<Malformed> cases = {
        {"not_json", "{\"a\": ", 0, IA, {"not valid JSON"}},
        {"empty_header", "", 0, IA, {"not valid JSON"}},
        {"trailing_garbage", "{} x", 0, IA, {"not valid JSON"}},
        {"bad_utf8", "{\"\xff\":" + ok + "}", 4, IA, {"not valid JSON"}},
        {"not_object", "[1, 2]", 0, IA, {"header is an array, not a JSON object"}},
        {"too_deep", "{\"a\":" + deep + "}", 0, IA, {"nests deeper than 16 levels"}},
        {"entry_not_object", "{\"a\": 3}", 0, IA, {"tensor 'a'", "entry is an integer, not an object"}},
        {"no_dtype", "{\"a\":{\"shape\":[1],\"data_offsets\":[0,4]}}", 4, IA, {"tensor 'a'", "no \"dtype\""}},
        {"no_shape", "{\"a\":{\"dtype\":\"F32\",\"data_offsets\":[0,4]}}", 4, IA, {"tensor 'a'", "no \"shape\""}},
        {"no_offsets", "{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4, IA, {"tensor 'a'", "no \"data_offsets\""}},
        {"dtype_not_string",
         "{\"a\":" + entry("5", "[1]", "[0,4]") + "}",
         4,
         IA,
         {"\"dtype\" is an integer, not a string"}},
        {"shape_not_array",
         "{\"a\":" + entry("\"F32\"", "1", "[0,4]") + "}",
         4,
         IA,
         {"\"shape\" is an integer, not an array"}},
        {"shape_float",
         "{\"a\":" + entry("\"F32\"", "[1.0]", "[0,4]") + "}",
         4,
         IA,
         {"floating-point number, not an integer"}},
        {"shape_string", "{\"a\":" + entry("\"F32\"", "[\"1\"]", "[0,4]") + "}", 4, IA, {"a string, not an integer"}},
        {"shape_negative",
         "{\"a\":" + entry("\"F32\"", "[-1,2]", "[0,4]") + "}",
         4,
         IA,
         {"tensor 'a'", "[-1,2]", "negative size"}},
        {"shape_overflow",
         "{\"a\":" + entry("\"F32\"", "[4611686018427387904,2]", "[0,4]") + "}",
         4,
         IA,
         {"tensor 'a'", "needs more than 2^63 - 1 bytes"}},
        {"shape_beyond_i64",
         "{\"a\":" + entry("\"U8\"", "[18446744073709551615]", "[0,4]") + "}",
         4,
         IA,
         {"needs more than 2^63 - 1 bytes"}},
        {"unknown_dtype",
         "{\"a\":" + entry("\"F33\"", "[1]", "[0,4]") + "}",
         4,
         IA,
         {"tensor 'a'", "unknown dtype 'F33'"}},
        {"unsupported_dtype",
         "{\"a\":" + entry("\"F8_E4M3\"", "[4]", "[0,4]") + "}",
         4,
         ErrorStatus::Unsupported,
         {"tensor 'a'", "F8_E4M3", "not supported"}},
        {"offsets_not_array",
         "{\"a\":" + entry("\"F32\"", "[1]", "\"0,4\"") + "}",
         4,
         IA,
         {"a string, not [begin, end]"}},
        {"offsets_three", "{\"a\":" + entry("\"F32\"", "[1]", "[0,4,4]") + "}", 4, IA, {"[0,4,4], not [begin, end]"}},
        {"offsets_one", "{\"a\":" + entry("\"F32\"", "[1]", "[4]") + "}", 4, IA, {"[4], not [begin, end]"}},
        {"offsets_float",
         "{\"a\":" + entry("\"F32\"", "[1]", "[0,4.0]") + "}",
         4,
         IA,
         {"floating-point number, not a non-negative integer"}},
        {"offsets_negative", "{\"a\":" + entry("\"F32\"", "[1]", "[-4,0]") + "}", 4, IA, {"negative integer"}},
        {"begin_after_end",
         "{\"a\":" + entry("\"F32\"", "[0]", "[4,0]") + "}",
         4,
         IA,
         {"tensor 'a'", "[4,0]", "begin is after end"}},
        {"wrong_byte_count",
         "{\"a\":" + entry("\"F32\"", "[2]", "[0,4]") + "}",
         4,
         IA,
         {"tensor 'a'", "hold 4 bytes, F32 [2] needs 8"}},
        {"past_the_data",
         "{\"a\":" + entry("\"F32\"", "[2]", "[0,8]") + "}",
         4,
         IA,
         {"tensor 'a'", "\"data_offsets\" [0,8] run past the data buffer of 4 bytes"}},
        {"overlap",
         "{\"a\":" + entry("\"F32\"", "[2]", "[0,8]") + ",\"b\":" + entry("\"F32\"", "[2]", "[4,12]") + "}",
         12,
         IA,
         {"tensor 'b' at bytes [4, 12) overlaps tensor 'a' at bytes [0, 8)"}},
        {"same_region", "{\"a\":" + ok + ",\"b\":" + ok + "}", 4, IA, {"overlaps"}},
        {"empty_inside_another",
         "{\"a\":" + entry("\"F32\"", "[2]", "[0,8]") + ",\"e\":" + entry("\"F32\"", "[0]", "[4,4]") + "}",
         8,
         IA,
         {"tensor 'e'", "overlaps tensor 'a'"}},
        {"gap",
         "{\"a\":" + ok + ",\"b\":" + entry("\"F32\"", "[1]", "[8,12]") + "}",
         12,
         IA,
         {"data bytes [4, 8) before tensor 'b' belong to no tensor"}},
        {"gap_at_start",
         "{\"b\":" + entry("\"F32\"", "[1]", "[4,8]") + "}",
         8,
         IA,
         {"data bytes [0, 4) before tensor 'b'"}},
        {"trailing_data", "{\"a\":" + ok + "}", 8, IA, {"data bytes [4, 8) after the last tensor belong to no tensor"}},
        {"data_without_tensors", "{}", 3, IA, {"data bytes [0, 3) after the last tensor"}},
        {"repeated_tensor", "{\"a\":" + ok + ",\"a\":" + ok + "}", 4, IA, {"repeats the key 'a'"}},
        {"repeated_field",
         "{\"a\":{\"dtype\":\"F32\",\"dtype\":\"I32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
         4,
         IA,
         {"repeats the key 'dtype'"}},
        {"repeated_metadata_key", "{\"__metadata__\":{\"k\":\"1\",\"k\":\"2\"}}", 0, IA, {"repeats the key 'k'"}},
        {"metadata_not_object",
         "{\"__metadata__\":[\"k\"]}",
         0,
         IA,
         {"\"__metadata__\" is an array, not an object of strings"}},
        {"metadata_not_strings",
         "{\"__metadata__\":{\"k\":1}}",
         0,
         IA,
         {"value of key 'k' is an integer, not a string"}},
    };
    for (const Malformed& c : cases) {
        SCOPED_TRACE(c.label);
        const std::string path = file(std::string(c.label) + ".safetensors");
        write_file(path, file_bytes(c.header, Bytes(c.data_size, 0)));
        expect_error([&] { zyx::load_safetensors(path); }, c.status, path, c.parts);
        expect_error([&] { zyx::safetensors_metadata(path); }, c.status, path, c.parts);
    }
    // The control: the `ok` entry and null metadata load.
    const std::string path = file("control.safetensors");
    write_file(path, file_bytes("{\"__metadata__\":null,\"a\":" + ok + "}", host_bytes(std::vector<float>{7.5f})));
    auto loaded = zyx::load_safetensors(path);
    ASSERT_EQ(loaded.size(), 1u);
    EXPECT_EQ(loaded[0].second.to_vector<float>(), std::vector<float>{7.5f});
}

TEST_F(Safetensors, InvalidSavesWriteNothing) {
    const std::string path = file("keep.safetensors");
    zyx::save_safetensors(path, {{"a", zyx::ones({2})}});
    const Bytes before = read_file(path);
    const Tensor x = zyx::zeros({3});
    const auto IA = ErrorStatus::InvalidArgument;
    expect_error(
        [&] {
            zyx::save_safetensors(path, {{"a", x}, {"b", x}, {"a", x}});
        },
        IA, path, {"save_safetensors", "tensor 'a' is given twice"});
    expect_error([&] { zyx::save_safetensors(path, {{"a", x}, {"", x}}); }, IA, path, {"tensor 1 has an empty name"});
    expect_error(
        [&] {
            zyx::save_safetensors(path, {{"__metadata__", x}});
        },
        IA, path, {"tensor 0", "'__metadata__'", "reserves"});
    expect_error([&] { zyx::save_safetensors(path, {{"u", Tensor()}}); }, IA, path, {"tensor 'u' is undefined"});
    expect_error([&] { zyx::save_safetensors(path, {{"bad\xff", x}}); }, IA, path, {"not valid UTF-8"});
    expect_error(
        [&] {
            zyx::save_safetensors(path, {{"a", x}}, {{"k", "\xc3"}});
        },
        IA, path, {"metadata value of key 'k' is not valid UTF-8"});
    EXPECT_EQ(read_file(path), before);
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST_F(Safetensors, FailedSavesLeaveNoFile) {
    const Tensor x = zyx::ones({4});
    // The directory does not exist: nothing can be created.
    const std::string nowhere = file("no_such_dir/m.safetensors");
    expect_error(
        [&] {
            zyx::save_safetensors(nowhere, {{"x", x}});
        },
        ErrorStatus::Io, nowhere, {"save_safetensors", "cannot create"});
    EXPECT_FALSE(fs::exists(nowhere));
    EXPECT_FALSE(fs::exists(nowhere + ".tmp"));
    EXPECT_FALSE(fs::exists(file("no_such_dir")));
    // The path is a directory: the data is written to the .tmp file, the rename fails, and the
    // .tmp file is removed.
    const std::string target = file("target");
    fs::create_directory(target);
    expect_error([&] { zyx::save_safetensors(target, {{"x", x}}); }, ErrorStatus::Io, target, {"cannot rename"});
    EXPECT_TRUE(fs::is_directory(target));
    EXPECT_FALSE(fs::exists(target + ".tmp"));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);  // only `target`
}

}  // namespace
