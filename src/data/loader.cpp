// DataLoader: host copies of the inputs, per-epoch permutations, one upload per batch tensor.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "graph/graph.hpp"
#include "zyx/data.hpp"

namespace zyx::data {
namespace {

[[noreturn]] void invalid(const std::string& what) { throw Error(ErrorStatus::InvalidArgument, "DataLoader: " + what); }

// The tensor's elements as little-endian bytes of its own dtype, into dst (numel · dtype_size bytes).
void read_bytes(const Tensor& t, uint8_t* dst) {
    size_t n = size_t(t.numel());
    switch (t.dtype()) {
        case DType::f64: t.to_buffer(reinterpret_cast<double*>(dst), n); break;
        case DType::f32: t.to_buffer(reinterpret_cast<float*>(dst), n); break;
        case DType::f16:
        case DType::bf16: t.bitcast(DType::i16).to_buffer(reinterpret_cast<int16_t*>(dst), n); break;
        case DType::i8: t.to_buffer(reinterpret_cast<int8_t*>(dst), n); break;
        case DType::i16: t.to_buffer(reinterpret_cast<int16_t*>(dst), n); break;
        case DType::i32: t.to_buffer(reinterpret_cast<int32_t*>(dst), n); break;
        case DType::i64: t.to_buffer(reinterpret_cast<int64_t*>(dst), n); break;
        case DType::u8: t.to_buffer(dst, n); break;
        case DType::u16: t.to_buffer(reinterpret_cast<uint16_t*>(dst), n); break;
        case DType::u32: t.to_buffer(reinterpret_cast<uint32_t*>(dst), n); break;
        case DType::u64: t.to_buffer(reinterpret_cast<uint64_t*>(dst), n); break;
        case DType::bool_: t.cast(DType::u8).to_buffer(dst, n); break;  // bool is one byte 0 or 1
    }
}

// Uniform in [0, bound) without modulo bias; the same draws on every machine.
uint64_t below(Generator& gen, uint64_t bound) {
    const uint64_t threshold = (0 - bound) % bound;  // 2^64 mod bound
    for (;;) {
        uint64_t r = gen.next_u64();
        if (r >= threshold) return r % bound;
    }
}

}  // namespace

DataLoader::DataLoader(const std::vector<Tensor>& tensors, int64_t batch_size, bool shuffle, uint64_t seed,
                       bool drop_last, Device device)
    : batch_size_(batch_size), shuffle_(shuffle), drop_last_(drop_last), device_(device), gen_(seed) {
    if (tensors.empty()) invalid("no tensors given");
    if (batch_size < 1) invalid("batch size " + std::to_string(batch_size) + " is less than 1");
    for (size_t i = 0; i < tensors.size(); ++i) {
        const Tensor& t = tensors[i];
        const std::string name = "tensor " + std::to_string(i);
        if (!t.defined()) invalid(name + " is undefined");
        if (t.device() != Device::host())
            invalid(name + " is on " + t.device().str() + "; inputs must be host tensors (use .to(Device::host()))");
        if (t.dim() == 0) invalid(name + " is 0-d; inputs need a first axis to batch along");
        if (i > 0 && t.size(0) != tensors[0].size(0))
            invalid(name + " has shape " + graph::shape_str(t.shape()) + ", first axis " + std::to_string(t.size(0)) +
                    ", but tensor 0 has shape " + graph::shape_str(tensors[0].shape()) + ", first axis " +
                    std::to_string(tensors[0].size(0)));
    }
    rows_ = tensors[0].size(0);
    for (const Tensor& t : tensors) {
        Input in;
        in.shape = t.shape();
        in.dtype = t.dtype();
        size_t row_elems = 1;
        for (size_t d = 1; d < in.shape.size(); ++d) row_elems *= size_t(in.shape[d]);
        in.row_bytes = row_elems * dtype_size(in.dtype);
        in.bytes.resize(size_t(t.numel()) * dtype_size(in.dtype));
        if (!in.bytes.empty()) read_bytes(t, in.bytes.data());
        inputs_.push_back(std::move(in));
    }
}

int64_t DataLoader::size() const { return drop_last_ ? rows_ / batch_size_ : (rows_ + batch_size_ - 1) / batch_size_; }

void DataLoader::start_epoch() {
    if (shuffle_) {
        order_.resize(size_t(rows_));
        for (int64_t i = 0; i < rows_; ++i) order_[size_t(i)] = i;
        for (int64_t i = rows_ - 1; i > 0; --i) std::swap(order_[size_t(i)], order_[below(gen_, uint64_t(i) + 1)]);
    }
    in_epoch_ = true;
    next_batch_ = 0;
}

std::optional<std::vector<Tensor>> DataLoader::next() {
    if (!in_epoch_) start_epoch();
    if (next_batch_ >= size()) {
        in_epoch_ = false;
        return std::nullopt;
    }
    const int64_t first = next_batch_ * batch_size_;
    const int64_t count = std::min(batch_size_, rows_ - first);
    ++next_batch_;

    std::vector<Tensor> batch;
    batch.reserve(inputs_.size());
    for (const Input& in : inputs_) {
        Shape shape = in.shape;
        shape[0] = count;
        const size_t bytes = size_t(count) * in.row_bytes;
        if (!shuffle_) {  // rows first … first + count − 1 are contiguous already
            batch.push_back(
                from_bytes(in.bytes.data() + size_t(first) * in.row_bytes, bytes, shape, in.dtype, device_));
            continue;
        }
        scratch_.resize(bytes);
        for (int64_t r = 0; r < count; ++r)
            std::memcpy(scratch_.data() + size_t(r) * in.row_bytes,
                        in.bytes.data() + size_t(order_[size_t(first + r)]) * in.row_bytes, in.row_bytes);
        batch.push_back(from_bytes(scratch_.data(), bytes, shape, in.dtype, device_));
    }
    return batch;
}

DataLoader::iterator DataLoader::begin() {
    start_epoch();
    return iterator(this);
}

DataLoader::iterator::iterator(DataLoader* loader) : loader_(loader), batch_(loader->next()) {}

DataLoader::iterator& DataLoader::iterator::operator++() {
    batch_ = loader_->next();
    return *this;
}

}  // namespace zyx::data
