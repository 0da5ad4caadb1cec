// IDX files (plain or gzip) and the Fashion-MNIST layout on disk.
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "graph/graph.hpp"
#include "zyx/data.hpp"

namespace zyx::data {
namespace {

[[noreturn]] void io_error(const std::string& path, const std::string& what) {
    throw Error(ErrorStatus::Io, "read_idx: " + path + ": " + what);
}
[[noreturn]] void bad_file(const std::string& path, const std::string& what) {
    throw Error(ErrorStatus::InvalidArgument, "read_idx: " + path + ": " + what);
}

// Sequential reads from a plain or gzip-compressed file (chosen by the first two bytes).
class Source {
public:
    explicit Source(const std::string& path) : path_(path) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) io_error(path, "is a directory, not a file");
        file_ = std::fopen(path.c_str(), "rb");
        if (!file_) io_error(path, std::string("cannot open: ") + std::strerror(errno));
        unsigned char magic[2] = {0, 0};
        size_t got = std::fread(magic, 1, 2, file_);
        if (std::ferror(file_)) io_error(path, std::string("cannot read: ") + std::strerror(errno));
        if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
            std::fclose(file_);
            file_ = nullptr;
            gz_ = gzopen(path.c_str(), "rb");
            if (!gz_) io_error(path, std::string("cannot open: ") + std::strerror(errno));
            gzbuffer(gz_, 1 << 17);
        } else {
            std::rewind(file_);
        }
    }
    ~Source() {
        if (file_) std::fclose(file_);
        if (gz_) gzclose(gz_);
    }
    Source(const Source&) = delete;
    Source& operator=(const Source&) = delete;

    bool gzipped() const { return gz_ != nullptr; }

    // Up to n bytes; fewer only at the end of the data. Read failures and corrupt gzip data throw.
    size_t read(void* dst, size_t n) {
        if (file_) {
            size_t got = std::fread(dst, 1, n, file_);
            if (got < n && std::ferror(file_)) io_error(path_, std::string("cannot read: ") + std::strerror(errno));
            return got;
        }
        size_t total = 0;
        while (total < n) {
            unsigned chunk = unsigned(std::min<size_t>(n - total, 1u << 30));
            int got = gzread(gz_, static_cast<char*>(dst) + total, chunk);
            if (got < 0) gz_failure();
            total += size_t(got);
            if (unsigned(got) < chunk) break;
        }
        int errnum = Z_OK;
        gzerror(gz_, &errnum);
        if (errnum != Z_OK) gz_failure();
        return total;
    }

private:
    [[noreturn]] void gz_failure() {
        int errnum = Z_OK;
        const char* msg = gzerror(gz_, &errnum);
        if (errnum == Z_ERRNO) io_error(path_, std::string("cannot read: ") + std::strerror(errno));
        if (errnum == Z_BUF_ERROR) bad_file(path_, "truncated gzip stream (" + std::string(msg) + ")");
        bad_file(path_, "corrupt gzip data (" + std::string(msg) + ")");
    }

    std::string path_;
    std::FILE* file_ = nullptr;
    gzFile gz_ = nullptr;
};

struct IdxType {
    DType dtype;
    const char* name;
};
bool idx_type(uint8_t code, IdxType* out) {
    switch (code) {
        case 0x08: *out = {DType::u8, "u8"}; return true;
        case 0x09: *out = {DType::i8, "i8"}; return true;
        case 0x0B: *out = {DType::i16, "i16"}; return true;
        case 0x0C: *out = {DType::i32, "i32"}; return true;
        case 0x0D: *out = {DType::f32, "f32"}; return true;
        case 0x0E: *out = {DType::f64, "f64"}; return true;
        default: return false;
    }
}

std::string hex_byte(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", v & 0xffu);  // allow-print: formats into buf
    return buf;
}

// Big-endian elements of `width` bytes to little-endian, in place.
void swap_bytes(uint8_t* p, size_t bytes, size_t width) {
    if (width == 1) return;
    for (size_t i = 0; i + width <= bytes; i += width) std::reverse(p + i, p + i + width);
}

}  // namespace

Tensor read_idx(const std::string& path) {
    Source src(path);
    const std::string kind = src.gzipped() ? " (gzip)" : "";

    uint8_t head[4];
    size_t got = src.read(head, 4);
    if (got < 4)
        bad_file(path, "truncated: " + std::to_string(got) + " bytes" + kind + ", an IDX header has at least 4");
    if (head[0] != 0 || head[1] != 0)
        bad_file(path,
                 "wrong magic " + hex_byte(head[0]) + " " + hex_byte(head[1]) + kind +
                     ": an IDX file starts with two zero bytes (or is gzip-compressed: 0x1F 0x8B)");
    IdxType type;
    if (!idx_type(head[2], &type))
        bad_file(path,
                 "unknown type code " + hex_byte(head[2]) +
                     " (known: 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64)");
    const size_t ndim = head[3];

    std::vector<uint8_t> dims(4 * ndim);
    got = src.read(dims.data(), dims.size());
    if (got < dims.size())
        bad_file(path,
                 "truncated: the header declares " + std::to_string(ndim) + " sizes (" + std::to_string(dims.size()) +
                     " bytes), the file" + kind + " has " + std::to_string(got) + " bytes of them");
    Shape shape(ndim);
    const uint64_t elem = dtype_size(type.dtype);
    const uint64_t limit = uint64_t(INT64_MAX) / elem;  // every tensor's byte size fits in int64_t
    uint64_t numel = 1;
    bool overflow = false;
    for (size_t d = 0; d < ndim; ++d) {
        const uint8_t* b = &dims[4 * d];
        uint64_t n = (uint64_t(b[0]) << 24) | (uint64_t(b[1]) << 16) | (uint64_t(b[2]) << 8) | uint64_t(b[3]);
        shape[d] = int64_t(n);
        if (n != 0 && numel > limit / n)
            overflow = true;
        else
            numel *= n;
    }
    if (overflow && std::find(shape.begin(), shape.end(), 0) == shape.end())
        bad_file(path, "sizes " + graph::shape_str(shape) + " of " + type.name + " overflow: more than 2^63 - 1 bytes");
    if (overflow) numel = 0;  // a zero size makes the product 0 whatever the others are
    const uint64_t want = numel * elem;
    if (want > SIZE_MAX) bad_file(path, "sizes " + graph::shape_str(shape) + " are too large for this machine");

    // Grown as data arrives, so a header claiming more than the file holds allocates no more than it.
    std::vector<uint8_t> data;
    size_t have = 0;
    while (have < want) {
        size_t step = size_t(std::min<uint64_t>(want - have, std::max<size_t>(size_t(1) << 20, have)));
        data.resize(have + step);
        size_t n = src.read(data.data() + have, step);
        have += n;
        if (n < step) break;
    }
    if (have < want)
        bad_file(path,
                 "truncated: sizes " + graph::shape_str(shape) + " of " + type.name + " need " + std::to_string(want) +
                     " data bytes, the file" + kind + " has " + std::to_string(have));
    uint8_t extra[4096];
    size_t more = 0;
    for (size_t n; (n = src.read(extra, sizeof extra)) > 0;) more += n;
    if (more > 0)
        bad_file(path,
                 "sizes " + graph::shape_str(shape) + " of " + type.name + " need " + std::to_string(want) +
                     " data bytes, the file" + kind + " has " + std::to_string(want + more) +
                     " (the sizes do not match the data length)");

    swap_bytes(data.data(), data.size(), size_t(elem));
    Tensor t = from_bytes(data.data(), data.size(), shape, type.dtype);
    t.realize();
    return t;
}

// ---- Fashion-MNIST ---------------------------------------------------------------------------------

std::string fashion_mnist_dir(const std::string& dir) {
    if (!dir.empty()) return dir;
    const char* env = std::getenv("ZYX_FASHION_MNIST_DIR");
    if (env && *env) return env;
    return kFashionMnistDebianDir;
}

namespace {

// `dir`/`name` or `dir`/`name`.gz, whichever exists (the plain one first).
std::string find_file(const std::string& dir, const std::string& name) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const std::string& candidate : {name, name + ".gz"}) {
        fs::path p = fs::path(dir) / candidate;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    throw Error(ErrorStatus::Io,
                "load_fashion_mnist: no " + name + " or " + name + ".gz in " + dir +
                    ": install the Debian package dataset-fashion-mnist (scripts/setup does) or "
                    "set ZYX_FASHION_MNIST_DIR to a directory holding the Fashion-MNIST IDX files");
}

void expect_layout(const Tensor& t, const std::string& path, bool images) {
    const Shape& s = t.shape();
    bool ok = t.dtype() == DType::u8 && (images ? s.size() == 3 && s[1] == 28 && s[2] == 28 : s.size() == 1);
    if (!ok)
        throw Error(ErrorStatus::InvalidArgument,
                    "load_fashion_mnist: " + path + ": holds " + std::string(dtype_name(t.dtype())) + " " +
                        graph::shape_str(s) + (images ? ", expected u8 images [N,28,28]" : ", expected u8 labels [N]"));
}

void load_pair(const std::string& dir, const std::string& prefix, Tensor* images, Tensor* labels) {
    std::string ipath = find_file(dir, prefix + "-images-idx3-ubyte");
    std::string lpath = find_file(dir, prefix + "-labels-idx1-ubyte");
    *images = read_idx(ipath);
    expect_layout(*images, ipath, true);
    *labels = read_idx(lpath);
    expect_layout(*labels, lpath, false);
    if (images->size(0) != labels->size(0))
        throw Error(ErrorStatus::InvalidArgument,
                    "load_fashion_mnist: " + ipath + " holds " + std::to_string(images->size(0)) + " images but " +
                        lpath + " holds " + std::to_string(labels->size(0)) + " labels");
}

}  // namespace

FashionMnist load_fashion_mnist(const std::string& dir) {
    const std::string where = fashion_mnist_dir(dir);
    FashionMnist out;
    // Find all four first, so a missing dataset is reported before anything large is read.
    for (const char* name :
         {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"})
        find_file(where, name);
    load_pair(where, "train", &out.train_images, &out.train_labels);
    load_pair(where, "t10k", &out.test_images, &out.test_labels);
    return out;
}

}  // namespace zyx::data
