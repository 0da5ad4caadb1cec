// zyx::data: read_idx on hand-built files (every type code, several ranks, plain and gzip, every
// malformed case), load_fashion_mnist (a fake dataset, the missing-dataset error, the real Debian
// files when installed) and DataLoader (batch counts, epochs, seeds, devices, misuse).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tensor_test_env.hpp"
#include "zyx/data.hpp"
#include "zyx/tensor.hpp"

namespace {

namespace fs = std::filesystem;
using zyx::Device;
using zyx::DType;
using zyx::Error;
using zyx::ErrorStatus;
using zyx::Shape;
using zyx::Tensor;
using zyx::data::DataLoader;

using Bytes = std::vector<uint8_t>;

// ---- building IDX files ----------------------------------------------------------------------------

void put_be(Bytes& out, uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) out.push_back(uint8_t(v >> (8 * i)));
}
Bytes header(uint8_t type, const std::vector<uint32_t>& dims) {
    Bytes out = {0, 0, type, uint8_t(dims.size())};
    for (uint32_t d : dims) put_be(out, d, 4);
    return out;
}
Bytes idx_u8(const std::vector<uint32_t>& dims, const std::vector<uint8_t>& v) {
    Bytes out = header(0x08, dims);
    out.insert(out.end(), v.begin(), v.end());
    return out;
}
Bytes idx_i8(const std::vector<uint32_t>& dims, const std::vector<int8_t>& v) {
    Bytes out = header(0x09, dims);
    for (int8_t x : v) out.push_back(uint8_t(x));
    return out;
}
Bytes idx_i16(const std::vector<uint32_t>& dims, const std::vector<int16_t>& v) {
    Bytes out = header(0x0B, dims);
    for (int16_t x : v) put_be(out, uint16_t(x), 2);
    return out;
}
Bytes idx_i32(const std::vector<uint32_t>& dims, const std::vector<int32_t>& v) {
    Bytes out = header(0x0C, dims);
    for (int32_t x : v) put_be(out, uint32_t(x), 4);
    return out;
}
Bytes idx_f32(const std::vector<uint32_t>& dims, const std::vector<float>& v) {
    Bytes out = header(0x0D, dims);
    for (float x : v) {
        uint32_t u;
        std::memcpy(&u, &x, 4);
        put_be(out, u, 4);
    }
    return out;
}
Bytes idx_f64(const std::vector<uint32_t>& dims, const std::vector<double>& v) {
    Bytes out = header(0x0E, dims);
    for (double x : v) {
        uint64_t u;
        std::memcpy(&u, &x, 8);
        put_be(out, u, 8);
    }
    return out;
}

void write_plain(const fs::path& p, const Bytes& b) {
    std::ofstream f(p, std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    ASSERT_TRUE(f.good()) << p;
}
void write_gzip(const fs::path& p, const Bytes& b) {
    gzFile f = gzopen(p.c_str(), "wb");
    ASSERT_NE(f, nullptr) << p;
    ASSERT_EQ(gzwrite(f, b.data(), unsigned(b.size())), int(b.size())) << p;
    ASSERT_EQ(gzclose(f), Z_OK) << p;
}
Bytes read_all(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// A fresh directory per test, removed afterwards; ZYX_FASHION_MNIST_DIR restored.
class DataTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/zyx-test-data-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        const char* env = std::getenv("ZYX_FASHION_MNIST_DIR");
        had_env_ = env != nullptr;
        if (env) old_env_ = env;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
        if (had_env_)
            setenv("ZYX_FASHION_MNIST_DIR", old_env_.c_str(), 1);
        else
            unsetenv("ZYX_FASHION_MNIST_DIR");
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }

    fs::path dir_;
    bool had_env_ = false;
    std::string old_env_;
};

// Runs f, expects a zyx::Error of `status` whose message contains every one of `parts`.
template <class F>
void expect_error(F&& f, ErrorStatus status, const std::vector<std::string>& parts) {
    try {
        f();
        ADD_FAILURE() << "no error; expected " << zyx::error_status_name(status);
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), status) << e.what();
        for (const std::string& p : parts)
            EXPECT_NE(e.message().find(p), std::string::npos) << "'" << p << "' not in: " << e.what();
    }
}

// ---- read_idx ------------------------------------------------------------------------------------

TEST_F(DataTest, ReadsEveryTypeCodeAndRank) {
    write_plain(path("u8"), idx_u8({5}, {0, 1, 127, 128, 255}));
    write_plain(path("i8"), idx_i8({2, 2}, {-128, -1, 0, 127}));
    write_plain(path("i16"), idx_i16({2, 1, 3}, {-32768, -2, 0, 1, 258, 32767}));
    write_plain(path("i32"), idx_i32({3, 1}, {INT32_MIN, -65536, 0x01020304}));
    write_plain(path("f32"), idx_f32({2, 2}, {-1.5f, 0.f, 3.25f, 1e30f}));
    write_plain(path("f64"), idx_f64({1, 2, 1, 2}, {-0.1, 2.0, 1e300, -7.25}));
    write_plain(path("scalar"), idx_u8({}, {42}));
    write_plain(path("empty"), idx_i16({0, 3}, {}));

    Tensor u8 = zyx::data::read_idx(path("u8"));
    EXPECT_EQ(u8.dtype(), DType::u8);
    EXPECT_EQ(u8.shape(), Shape({5}));
    EXPECT_EQ(u8.device(), Device::host());
    EXPECT_TRUE(u8.is_realized());
    EXPECT_EQ(u8.to_vector<uint8_t>(), (std::vector<uint8_t>{0, 1, 127, 128, 255}));

    Tensor i8 = zyx::data::read_idx(path("i8"));
    EXPECT_EQ(i8.dtype(), DType::i8);
    EXPECT_EQ(i8.shape(), Shape({2, 2}));
    EXPECT_EQ(i8.to_vector<int8_t>(), (std::vector<int8_t>{-128, -1, 0, 127}));

    Tensor i16 = zyx::data::read_idx(path("i16"));
    EXPECT_EQ(i16.dtype(), DType::i16);
    EXPECT_EQ(i16.shape(), Shape({2, 1, 3}));
    EXPECT_EQ(i16.to_vector<int16_t>(), (std::vector<int16_t>{-32768, -2, 0, 1, 258, 32767}));

    Tensor i32 = zyx::data::read_idx(path("i32"));
    EXPECT_EQ(i32.dtype(), DType::i32);
    EXPECT_EQ(i32.shape(), Shape({3, 1}));
    EXPECT_EQ(i32.to_vector<int32_t>(), (std::vector<int32_t>{INT32_MIN, -65536, 0x01020304}));

    Tensor f32 = zyx::data::read_idx(path("f32"));
    EXPECT_EQ(f32.dtype(), DType::f32);
    EXPECT_EQ(f32.shape(), Shape({2, 2}));
    EXPECT_EQ(f32.to_vector<float>(), (std::vector<float>{-1.5f, 0.f, 3.25f, 1e30f}));

    Tensor f64 = zyx::data::read_idx(path("f64"));
    EXPECT_EQ(f64.dtype(), DType::f64);
    EXPECT_EQ(f64.shape(), Shape({1, 2, 1, 2}));
    EXPECT_EQ(f64.to_vector<double>(), (std::vector<double>{-0.1, 2.0, 1e300, -7.25}));

    Tensor scalar = zyx::data::read_idx(path("scalar"));
    EXPECT_EQ(scalar.shape(), Shape{});
    EXPECT_EQ(scalar.item<int>(), 42);

    Tensor empty = zyx::data::read_idx(path("empty"));
    EXPECT_EQ(empty.dtype(), DType::i16);
    EXPECT_EQ(empty.shape(), Shape({0, 3}));
}

TEST_F(DataTest, GzipIsRecognisedByContentNotName) {
    std::vector<int32_t> values;
    for (int i = 0; i < 3000; ++i) values.push_back(i * 7919 - 1000000);
    write_gzip(path("compressed.idx"), idx_i32({30, 100}, values));  // gzip without a .gz name
    write_plain(path("plain.gz"), idx_u8({2}, {9, 8}));              // .gz name, not compressed
    ASSERT_EQ(read_all(path("compressed.idx"))[0], 0x1f);

    Tensor t = zyx::data::read_idx(path("compressed.idx"));
    EXPECT_EQ(t.dtype(), DType::i32);
    EXPECT_EQ(t.shape(), Shape({30, 100}));
    EXPECT_EQ(t.to_vector<int32_t>(), values);

    Tensor p = zyx::data::read_idx(path("plain.gz"));
    EXPECT_EQ(p.to_vector<uint8_t>(), (std::vector<uint8_t>{9, 8}));
}

TEST_F(DataTest, MissingFileIsAnIoErrorNamingThePath) {
    std::string missing = path("no-such-file");
    expect_error([&] { zyx::data::read_idx(missing); }, ErrorStatus::Io, {missing});
    expect_error([&] { zyx::data::read_idx(dir_.string()); }, ErrorStatus::Io, {dir_.string(), "directory"});
}

TEST_F(DataTest, MalformedFilesAreInvalidArgumentsNamingThePath) {
    struct Case {
        const char* name;
        Bytes bytes;
        bool gzip;
        const char* what;
    };
    Bytes good = idx_i16({2, 3}, {1, 2, 3, 4, 5, 6});
    Bytes wrong_magic = good;
    wrong_magic[1] = 0x01;
    Bytes unknown_type = good;
    unknown_type[2] = 0x0A;
    Bytes short_data(good.begin(), good.end() - 1);
    Bytes long_data = good;
    long_data.push_back(0);
    long_data.push_back(7);
    Bytes short_sizes = header(0x08, {4, 4, 4});
    short_sizes.resize(short_sizes.size() - 5);
    Bytes overflow = header(0x0E, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu});
    Bytes huge_claim = header(0x08, {0xFFFFFFFFu, 0x7FFFFFFFu});  // fits in int64, not in the file
    Bytes corrupt_gzip = {0x1f, 0x8b, 0x08, 0x00, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02};
    std::vector<Case> cases = {
        {"empty", {}, false, "truncated"},
        {"short-header", {0, 0, 8}, false, "truncated"},
        {"wrong-magic", wrong_magic, false, "wrong magic 0x00 0x01"},
        {"text", {'h', 'e', 'l', 'l', 'o'}, false, "wrong magic"},
        {"unknown-type", unknown_type, false, "unknown type code 0x0A"},
        {"short-sizes", short_sizes, false, "truncated"},
        {"short-data", short_data, false, "truncated"},
        {"long-data", long_data, false, "do not match the data length"},
        {"overflow", overflow, false, "overflow"},
        {"huge-claim", huge_claim, false, "truncated"},
        {"short-data-gz", short_data, true, "truncated"},
        {"long-data-gz", long_data, true, "do not match"},
        {"unknown-type-gz", unknown_type, true, "unknown type code"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        std::string p = path(c.name);
        if (c.gzip)
            write_gzip(p, c.bytes);
        else
            write_plain(p, c.bytes);
        expect_error([&] { zyx::data::read_idx(p); }, ErrorStatus::InvalidArgument, {p, c.what});
    }

    // Damaged gzip streams: garbage after the magic, a valid stream cut short, a bad checksum.
    write_plain(path("corrupt.gz"), corrupt_gzip);
    expect_error([&] { zyx::data::read_idx(path("corrupt.gz")); }, ErrorStatus::InvalidArgument,
                 {path("corrupt.gz"), "gzip"});
    std::vector<uint8_t> big(20000);
    for (size_t i = 0; i < big.size(); ++i) big[i] = uint8_t(i * 2654435761u >> 13);
    write_gzip(path("whole.gz"), idx_u8({20000}, big));
    Bytes whole = read_all(path("whole.gz"));
    ASSERT_GT(whole.size(), 100u);
    write_plain(path("cut.gz"), Bytes(whole.begin(), whole.begin() + long(whole.size() / 2)));
    expect_error([&] { zyx::data::read_idx(path("cut.gz")); }, ErrorStatus::InvalidArgument,
                 {path("cut.gz"), "truncated"});
    Bytes bad_crc = whole;
    bad_crc[bad_crc.size() - 6] ^= 0xff;  // the CRC-32 of the trailer
    write_plain(path("crc.gz"), bad_crc);
    expect_error([&] { zyx::data::read_idx(path("crc.gz")); }, ErrorStatus::InvalidArgument, {path("crc.gz"), "gzip"});
    EXPECT_EQ(zyx::data::read_idx(path("whole.gz")).to_vector<uint8_t>(), big);  // the intact one reads
}

// ---- load_fashion_mnist ---------------------------------------------------------------------------

// A small dataset: n images whose pixels are (image·31 + pixel) mod 256, labels image mod 10.
Bytes fake_images(uint32_t n) {
    std::vector<uint8_t> px(size_t(n) * 784);
    for (size_t i = 0; i < px.size(); ++i) px[i] = uint8_t((i / 784) * 31 + i % 784);
    return idx_u8({n, 28, 28}, px);
}
Bytes fake_labels(uint32_t n) {
    std::vector<uint8_t> l(n);
    for (uint32_t i = 0; i < n; ++i) l[i] = uint8_t(i % 10);
    return idx_u8({n}, l);
}

TEST_F(DataTest, MissingDatasetSaysWhereItLookedAndHowToGetIt) {
    setenv("ZYX_FASHION_MNIST_DIR", dir_.c_str(), 1);
    EXPECT_EQ(zyx::data::fashion_mnist_dir(), dir_.string());
    expect_error(
        [] { zyx::data::load_fashion_mnist(); }, ErrorStatus::Io,
        {dir_.string(), "train-images-idx3-ubyte", "dataset-fashion-mnist", "scripts/setup", "ZYX_FASHION_MNIST_DIR"});
    // Three of four files present: the fourth is named.
    write_gzip(path("train-images-idx3-ubyte.gz"), fake_images(2));
    write_plain(path("train-labels-idx1-ubyte"), fake_labels(2));
    write_plain(path("t10k-images-idx3-ubyte"), fake_images(1));
    expect_error([] { zyx::data::load_fashion_mnist(); }, ErrorStatus::Io,
                 {dir_.string(), "t10k-labels-idx1-ubyte", "dataset-fashion-mnist"});
}

TEST_F(DataTest, LoadsFashionMnistFilesFromTheGivenDirectory) {
    write_gzip(path("train-images-idx3-ubyte.gz"), fake_images(5));
    write_gzip(path("train-labels-idx1-ubyte.gz"), fake_labels(5));
    write_plain(path("t10k-images-idx3-ubyte"), fake_images(3));
    write_plain(path("t10k-labels-idx1-ubyte"), fake_labels(3));

    // The environment variable names the directory when no argument does …
    setenv("ZYX_FASHION_MNIST_DIR", dir_.c_str(), 1);
    zyx::data::FashionMnist ds = zyx::data::load_fashion_mnist();
    EXPECT_EQ(ds.train_images.shape(), Shape({5, 28, 28}));
    EXPECT_EQ(ds.train_images.dtype(), DType::u8);
    EXPECT_EQ(ds.train_labels.shape(), Shape({5}));
    EXPECT_EQ(ds.train_labels.dtype(), DType::u8);
    EXPECT_EQ(ds.test_images.shape(), Shape({3, 28, 28}));
    EXPECT_EQ(ds.test_labels.shape(), Shape({3}));
    std::vector<uint8_t> px = ds.train_images.to_vector<uint8_t>();
    for (size_t i = 0; i < px.size(); ++i) ASSERT_EQ(px[i], uint8_t((i / 784) * 31 + i % 784)) << i;
    EXPECT_EQ(ds.test_labels.to_vector<uint8_t>(), (std::vector<uint8_t>{0, 1, 2}));

    // … and the argument wins over it.
    setenv("ZYX_FASHION_MNIST_DIR", "/nonexistent-zyx-dir", 1);
    EXPECT_EQ(zyx::data::load_fashion_mnist(dir_.string()).train_labels.to_vector<uint8_t>(),
              (std::vector<uint8_t>{0, 1, 2, 3, 4}));
    unsetenv("ZYX_FASHION_MNIST_DIR");
    EXPECT_EQ(zyx::data::fashion_mnist_dir(), zyx::data::kFashionMnistDebianDir);
}

TEST_F(DataTest, FashionMnistFilesOfTheWrongLayoutAreRejected) {
    write_plain(path("train-images-idx3-ubyte"), fake_images(4));
    write_plain(path("train-labels-idx1-ubyte"), fake_labels(3));  // one label short
    write_plain(path("t10k-images-idx3-ubyte"), idx_u8({1, 27, 28}, std::vector<uint8_t>(27 * 28)));
    write_plain(path("t10k-labels-idx1-ubyte"), fake_labels(1));
    expect_error([&] { zyx::data::load_fashion_mnist(dir_.string()); }, ErrorStatus::InvalidArgument,
                 {path("train-images-idx3-ubyte"), "4 images", path("train-labels-idx1-ubyte"), "3 labels"});
    write_plain(path("train-labels-idx1-ubyte"), fake_labels(4));
    expect_error([&] { zyx::data::load_fashion_mnist(dir_.string()); }, ErrorStatus::InvalidArgument,
                 {path("t10k-images-idx3-ubyte"), "[1,27,28]", "[N,28,28]"});
    write_plain(path("t10k-images-idx3-ubyte"), fake_images(1));
    write_plain(path("t10k-labels-idx1-ubyte"), idx_i32({1}, {0}));
    expect_error([&] { zyx::data::load_fashion_mnist(dir_.string()); }, ErrorStatus::InvalidArgument,
                 {path("t10k-labels-idx1-ubyte"), "i32"});
}

TEST(FashionMnist, RealDebianDataset) {
    fs::path dir = zyx::data::kFashionMnistDebianDir;
    if (!fs::exists(dir / "train-images-idx3-ubyte.gz") && !fs::exists(dir / "train-images-idx3-ubyte"))
        GTEST_SKIP() << "the Debian package dataset-fashion-mnist is not installed (no files in " << dir.string()
                     << "); scripts/setup installs it";
    zyx::data::FashionMnist ds = zyx::data::load_fashion_mnist(dir.string());
    EXPECT_EQ(ds.train_images.shape(), Shape({60000, 28, 28}));
    EXPECT_EQ(ds.train_images.dtype(), DType::u8);
    EXPECT_EQ(ds.train_labels.shape(), Shape({60000}));
    EXPECT_EQ(ds.train_labels.dtype(), DType::u8);
    EXPECT_EQ(ds.test_images.shape(), Shape({10000, 28, 28}));
    EXPECT_EQ(ds.test_labels.shape(), Shape({10000}));
    // Labels in [0, 10), balanced: 6000 of each class in train, 1000 in test.
    for (const auto& [labels, per_class] : {std::pair{ds.train_labels, 6000}, std::pair{ds.test_labels, 1000}}) {
        std::vector<int> count(256);
        for (uint8_t l : labels.to_vector<uint8_t>()) ++count[l];
        for (int c = 0; c < 256; ++c) EXPECT_EQ(count[c], c < 10 ? per_class : 0) << "class " << c;
    }
    std::vector<uint8_t> first = ds.train_labels.to_vector<uint8_t>();
    EXPECT_EQ(std::vector<uint8_t>(first.begin(), first.begin() + 5), (std::vector<uint8_t>{9, 0, 0, 3, 0}));
    // Pixels: the dataset's mean intensity is 0.286 of full scale.
    std::vector<uint8_t> px = ds.test_images.to_vector<uint8_t>();
    double mean = 0;
    for (uint8_t p : px) mean += p;
    mean /= double(px.size()) * 255;
    EXPECT_NEAR(mean, 0.286, 0.01);
    EXPECT_EQ(*std::max_element(px.begin(), px.end()), 255);
}

// ---- DataLoader ------------------------------------------------------------------------------------

// N rows: ids i32 [N] (= row number), values f32 [N,2,3] (row i holds i·10 + 0…5), tags u8 [N] (i mod 256).
std::vector<Tensor> rows(int n) {
    std::vector<int32_t> ids(static_cast<size_t>(n));
    std::vector<float> values;
    std::vector<uint8_t> tags;
    for (int i = 0; i < n; ++i) {
        ids[size_t(i)] = i;
        for (int k = 0; k < 6; ++k) values.push_back(float(i * 10 + k));
        tags.push_back(uint8_t(i));
    }
    return {zyx::tensor(ids), zyx::tensor(values, {n, 2, 3}), zyx::tensor(tags)};
}

// One epoch through the range-for: the ids in order, checking every batch's tensors agree row by row.
std::vector<int32_t> epoch(DataLoader& loader, std::vector<int64_t>* batch_rows = nullptr) {
    std::vector<int32_t> order;
    for (const std::vector<Tensor>& batch : loader) {
        EXPECT_EQ(batch.size(), 3u);
        std::vector<int32_t> ids = batch[0].to_vector<int32_t>();
        std::vector<float> values = batch[1].to_vector<float>();
        std::vector<uint8_t> tags = batch[2].to_vector<uint8_t>();
        EXPECT_EQ(batch[1].shape(), Shape({int64_t(ids.size()), 2, 3}));
        EXPECT_EQ(batch[0].dtype(), DType::i32);
        EXPECT_EQ(batch[1].dtype(), DType::f32);
        EXPECT_EQ(batch[2].dtype(), DType::u8);
        for (size_t r = 0; r < ids.size(); ++r) {
            for (int k = 0; k < 6; ++k) EXPECT_EQ(values[r * 6 + k], float(ids[r] * 10 + k)) << "row " << ids[r];
            EXPECT_EQ(tags[r], uint8_t(ids[r]));
        }
        if (batch_rows) batch_rows->push_back(int64_t(ids.size()));
        order.insert(order.end(), ids.begin(), ids.end());
    }
    return order;
}

std::vector<int32_t> identity(int n) {
    std::vector<int32_t> v(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) v[size_t(i)] = i;
    return v;
}

TEST(DataLoader, BatchCountAndLastBatchWithAndWithoutDropLast) {
    std::vector<Tensor> in = rows(10);
    DataLoader keep(in, 3);
    EXPECT_EQ(keep.size(), 4);
    EXPECT_EQ(keep.rows(), 10);
    std::vector<int64_t> sizes;
    EXPECT_EQ(epoch(keep, &sizes), identity(10));
    EXPECT_EQ(sizes, (std::vector<int64_t>{3, 3, 3, 1}));

    DataLoader drop(in, 3, /*shuffle=*/true, /*seed=*/5, /*drop_last=*/true);
    EXPECT_EQ(drop.size(), 3);
    sizes.clear();
    std::vector<int32_t> seen = epoch(drop, &sizes);
    EXPECT_EQ(sizes, (std::vector<int64_t>{3, 3, 3}));
    EXPECT_EQ(std::set<int32_t>(seen.begin(), seen.end()).size(), 9u);

    DataLoader exact(rows(9), 3, false, 0, true);
    EXPECT_EQ(exact.size(), 3);
    DataLoader exact_keep(rows(9), 3);
    EXPECT_EQ(exact_keep.size(), 3);
    DataLoader big(rows(4), 100);
    EXPECT_EQ(big.size(), 1);
    EXPECT_EQ(DataLoader(rows(4), 100, false, 0, true).size(), 0);
    DataLoader none(rows(0), 2);
    EXPECT_EQ(none.size(), 0);
    EXPECT_TRUE(epoch(none).empty());
}

TEST(DataLoader, UnshuffledOrderIsTheIdentityEveryEpoch) {
    DataLoader loader(rows(23), 4);
    EXPECT_EQ(epoch(loader), identity(23));
    EXPECT_EQ(epoch(loader), identity(23));
}

TEST(DataLoader, EveryRowOncePerEpochAndEpochsDiffer) {
    DataLoader loader(rows(50), 7, /*shuffle=*/true, /*seed=*/123);
    std::vector<std::vector<int32_t>> epochs;
    for (int e = 0; e < 4; ++e) {
        std::vector<int32_t> order = epoch(loader);
        std::vector<int32_t> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, identity(50)) << "epoch " << e;
        EXPECT_NE(order, identity(50)) << "epoch " << e;
        for (const auto& earlier : epochs) EXPECT_NE(order, earlier) << "epoch " << e;
        epochs.push_back(order);
    }
}

TEST(DataLoader, SameSeedSameOrderOtherSeedOtherOrder) {
    DataLoader a(rows(40), 6, true, 7), b(rows(40), 6, true, 7), c(rows(40), 6, true, 8);
    for (int e = 0; e < 3; ++e) {
        std::vector<int32_t> oa = epoch(a), ob = epoch(b), oc = epoch(c);
        EXPECT_EQ(oa, ob) << "epoch " << e;
        EXPECT_NE(oa, oc) << "epoch " << e;
    }
    // Pinned: the order depends only on the seed, so it is the same on every machine. Computed
    // independently of zyx: Fisher–Yates (i from N−1 down to 1, j uniform in [0, i] by rejecting
    // draws below 2^64 mod (i+1), then draw mod (i+1)) over xoshiro256** seeded by splitmix64(42).
    DataLoader pinned(rows(10), 10, true, 42);
    EXPECT_EQ(epoch(pinned), (std::vector<int32_t>{7, 3, 8, 9, 5, 6, 4, 1, 0, 2}));
}

TEST(DataLoader, NextWalksEpochsWithAnEndMarker) {
    DataLoader loader(rows(5), 2, true, 99);
    DataLoader twin(rows(5), 2, true, 99);
    for (int e = 0; e < 2; ++e) {
        std::vector<int32_t> order;
        for (int b = 0; b < 3; ++b) {
            std::optional<std::vector<Tensor>> batch = loader.next();
            ASSERT_TRUE(batch.has_value()) << "epoch " << e << " batch " << b;
            std::vector<int32_t> ids = (*batch)[0].to_vector<int32_t>();
            order.insert(order.end(), ids.begin(), ids.end());
        }
        EXPECT_FALSE(loader.next().has_value()) << "epoch " << e;
        EXPECT_EQ(order, epoch(twin)) << "epoch " << e;  // next() and range-for give the same epochs
    }
}

TEST(DataLoader, KeepsEveryDTypesBytes) {
    std::vector<float> f = {1.5f, -2.25f, 65504.f, 0.f, -0.5f, 3.f};
    std::vector<Tensor> in = {
        zyx::tensor(f, {3, 2}, DType::f16),
        zyx::tensor(f, {3, 2}, DType::bf16),
        zyx::tensor(std::vector<int64_t>{INT64_MIN, -1, INT64_MAX}),
        zyx::tensor(std::vector<bool>{true, false, true}),
        zyx::tensor(std::vector<double>{0.1, -1e200, 3.0}, {3}, DType::f64),
        zyx::tensor(std::vector<uint16_t>{0, 65535, 7}),
    };
    DataLoader loader(in, 3);
    std::optional<std::vector<Tensor>> batch = loader.next();
    ASSERT_TRUE(batch.has_value());
    for (size_t i = 0; i < in.size(); ++i) {
        EXPECT_EQ((*batch)[i].dtype(), in[i].dtype()) << i;
        EXPECT_EQ((*batch)[i].shape(), in[i].shape()) << i;
        EXPECT_EQ((*batch)[i].to_vector<double>(), in[i].to_vector<double>()) << i;
    }
    EXPECT_EQ((*batch)[2].to_vector<int64_t>(), (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX}));
}

TEST(DataLoader, BatchesLandOnTheRequestedDevice) {
    std::vector<Device> targets = {Device::host(), Device::interpreter()};
    bool have_tt = false;
    for (Device d : zyx::available_devices()) have_tt |= d == Device::tt(0);
    if (have_tt) targets.push_back(Device::tt(0));
    for (Device d : targets) {
        SCOPED_TRACE(d.str());
        DataLoader loader(rows(9), 4, true, 3, false, d);
        EXPECT_EQ(loader.device(), d);
        std::vector<int32_t> seen;
        for (const std::vector<Tensor>& batch : loader) {
            std::vector<int32_t> ids = batch[0].to_vector<int32_t>();
            std::vector<float> values = batch[1].to_vector<float>();
            for (const Tensor& t : batch) EXPECT_EQ(t.device(), d);
            for (size_t r = 0; r < ids.size(); ++r) EXPECT_EQ(values[r * 6 + 5], float(ids[r] * 10 + 5));
            seen.insert(seen.end(), ids.begin(), ids.end());
        }
        std::sort(seen.begin(), seen.end());
        EXPECT_EQ(seen, identity(9));
    }
    if (!have_tt) GTEST_SKIP() << "host and interpreter checked; tt:0 is not available in this build or configuration";
}

TEST(DataLoader, MisuseIsAnInvalidArgumentNamingTheProblem) {
    auto invalid = [](auto f, std::vector<std::string> parts) { expect_error(f, ErrorStatus::InvalidArgument, parts); };
    std::vector<Tensor> in = rows(6);
    invalid([] { DataLoader({}, 2); }, {"DataLoader", "no tensors"});
    invalid([&] { DataLoader(in, 0); }, {"DataLoader", "batch size 0"});
    invalid([&] { DataLoader(in, -3); }, {"batch size -3"});
    invalid(
        [&] {
            DataLoader({in[0], zyx::zeros({5, 2})}, 2);
        },
        {"DataLoader", "tensor 1", "[5,2]", "first axis 5", "tensor 0", "[6]", "first axis 6"});
    invalid(
        [&] {
            DataLoader({in[0], in[1].to(Device::interpreter())}, 2);
        },
        {"DataLoader", "tensor 1", "interpreter", "host"});
    invalid([&] { DataLoader({zyx::scalar_tensor(1)}, 2); }, {"DataLoader", "tensor 0", "0-d"});
    invalid([&] { DataLoader({in[0], Tensor()}, 2); }, {"DataLoader", "tensor 1", "undefined"});
}

}  // namespace
