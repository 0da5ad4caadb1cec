// zyx::data — reading datasets from disk and cutting them into (shuffled) batches.
//
// ---- A worked example ------------------------------------------------------------------------------
//
//   #include <zyx/data.hpp>
//
//   zyx::data::FashionMnist ds = zyx::data::load_fashion_mnist();  // u8 [60000,28,28], u8 [60000], …
//   zyx::data::DataLoader train({ds.train_images, ds.train_labels}, /*batch_size=*/64,
//                               /*shuffle=*/true, /*seed=*/1234);
//   for (int epoch = 0; epoch < 5; ++epoch) {
//       for (const std::vector<zyx::Tensor>& batch : train) {     // a new order every epoch
//           zyx::Tensor x = batch[0].cast(zyx::DType::f32) / 255;  // [64,28,28] (last batch: 32)
//           zyx::Tensor y = batch[1].cast(zyx::DType::i32);        // [64]
//           …
//       }
//   }
//
// ---- Files -------------------------------------------------------------------------------------------
//
// read_idx() reads one IDX file (the format of MNIST and Fashion-MNIST), plain or gzip-compressed;
// compression is recognised by the content (gzip magic 1f 8b), not by the file name.
//   bytes 0-1   zero
//   byte  2     element type: 0x08 u8, 0x09 i8, 0x0B i16, 0x0C i32, 0x0D f32, 0x0E f64
//   byte  3     number of dimensions d
//   then        d sizes, big-endian u32
//   then        the elements in row-major order, big-endian, nothing after them
// The result is a realized host tensor of that dtype (0x08 → DType::u8, …) and shape.
//
// load_fashion_mnist() reads the four files of Fashion-MNIST (https://github.com/zalandoresearch/
// fashion-mnist): train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and
// t10k-labels-idx1-ubyte, each with or without ".gz" (the plain name is preferred). The directory is
// the `dir` argument when given, else the environment variable ZYX_FASHION_MNIST_DIR when set, else
// kFashionMnistDebianDir, where the Debian package dataset-fashion-mnist installs them (gzipped;
// scripts/setup installs the package). Nothing is ever downloaded.
//
// ---- Batches -----------------------------------------------------------------------------------------
//
// DataLoader takes host tensors with the same first-axis length N (images and their labels) and
// hands out batches: one tensor per input holding the batch's rows (first axis = rows in the batch,
// other axes as the input), in the input's dtype, on the loader's device. The inputs are read once
// when the loader is built (a copy of their bytes is kept, later changes to the inputs' graphs do
// not matter); a batch costs one memcpy per row and one upload per tensor, no graph work.
//
// Epochs. Each pass over the loader is one epoch: every row appears in exactly one batch. Without
// shuffling the rows come in order 0 … N−1. With shuffling every epoch has its own permutation
// (Fisher–Yates over zyx::Generator seeded with `seed`), so two loaders with the same seed give
// the same sequence of epochs on every machine, and successive epochs differ.
//
// Two ways to walk an epoch (they share the loader's position; use one at a time):
//   - range-for: `for (auto& batch : loader)`; begin() starts a new epoch (abandoning an
//     unfinished one);
//   - next(): the next batch of the current epoch, starting a new epoch when none is in progress;
//     std::nullopt once the epoch is over (the call after that starts the next epoch).
//
// ---- Errors ------------------------------------------------------------------------------------------
//
// zyx::Error (core/error.hpp, included by tensor.hpp):
//   Io                a file that cannot be opened or read, a missing dataset (the message names the
//                     path and says how to get the data)
//   InvalidArgument   a malformed file (wrong magic, unknown type code, truncated data, sizes that
//                     overflow or do not match the data, a gzip stream that is corrupt), named by
//                     its path; DataLoader inputs that are undefined, 0-d, not on the host, or
//                     disagree on N, and a batch size < 1
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "zyx/tensor.hpp"

namespace zyx::data {

// Reads an IDX file, plain or gzip-compressed, into a realized host tensor.
Tensor read_idx(const std::string& path);

// Where the Debian package dataset-fashion-mnist puts the files.
inline constexpr const char* kFashionMnistDebianDir = "/usr/share/datasets/fashion-mnist";

// Images u8 [N,28,28] (0 = background, 255 = ink), labels u8 [N] with classes 0-9
// (0 T-shirt/top, 1 trouser, 2 pullover, 3 dress, 4 coat, 5 sandal, 6 shirt, 7 sneaker, 8 bag,
// 9 ankle boot). N is 60000 for train and 10000 for test in the real dataset.
struct FashionMnist {
    Tensor train_images, train_labels, test_images, test_labels;
};

// The directory load_fashion_mnist(dir) reads: `dir` if not empty, else $ZYX_FASHION_MNIST_DIR if
// set and not empty, else kFashionMnistDebianDir.
std::string fashion_mnist_dir(const std::string& dir = "");

// Reads the four files from fashion_mnist_dir(dir). A missing file is an Io error naming the
// directory and how to get the data; files of the wrong dtype or shape, or images and labels of
// different counts, are InvalidArgument naming the file.
FashionMnist load_fashion_mnist(const std::string& dir = "");

class DataLoader {
public:
    // `tensors`: at least one, each defined, on the host, with at least one axis, all with the same
    // size(0). batch_size >= 1. drop_last: leave out a last batch smaller than batch_size.
    // Batches are placed on `device`. Reads (realizes) the inputs.
    DataLoader(const std::vector<Tensor>& tensors, int64_t batch_size, bool shuffle = false, uint64_t seed = 0,
               bool drop_last = false, Device device = Device::host());

    int64_t size() const;                   // batches per epoch: N / batch_size, rounded up unless drop_last
    int64_t rows() const { return rows_; }  // N
    int64_t batch_size() const { return batch_size_; }
    Device device() const { return device_; }

    // The next batch of the current epoch (see "Epochs" above); std::nullopt at the end of one.
    std::optional<std::vector<Tensor>> next();

    // Input iterator over one epoch; *it is the batch (one tensor per input).
    class iterator {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = std::vector<Tensor>;
        using difference_type = std::ptrdiff_t;
        using pointer = const std::vector<Tensor>*;
        using reference = const std::vector<Tensor>&;

        iterator() = default;
        reference operator*() const { return *batch_; }
        pointer operator->() const { return &*batch_; }
        iterator& operator++();
        void operator++(int) { ++*this; }
        bool operator==(const iterator& o) const { return !batch_ && !o.batch_; }

    private:
        friend class DataLoader;
        explicit iterator(DataLoader* loader);
        DataLoader* loader_ = nullptr;
        std::optional<std::vector<Tensor>> batch_;  // empty at the end
    };
    iterator begin();  // starts a new epoch
    iterator end() { return iterator(); }

private:
    struct Input {
        std::vector<uint8_t> bytes;  // the input's elements, row-major, little-endian
        Shape shape;
        DType dtype;
        size_t row_bytes;
    };
    void start_epoch();

    std::vector<Input> inputs_;
    int64_t rows_ = 0, batch_size_ = 1;
    bool shuffle_ = false, drop_last_ = false;
    Device device_;
    Generator gen_;
    std::vector<int64_t> order_;  // this epoch's row order
    bool in_epoch_ = false;
    int64_t next_batch_ = 0;  // index of the next batch in the current epoch
    std::vector<uint8_t> scratch_;
};

}  // namespace zyx::data
