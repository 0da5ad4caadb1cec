// Creation: tensors from host values, constants, arange, linspace, eye.
#include <cmath>
#include <cstring>

#include "api/internal.hpp"
#include "schedule/scheduler.hpp"

namespace zyx {

using namespace api;

namespace {

// Bits of `v` (a value of dtype `from`, raw little-endian) converted to `to` by the cast rules.
uint64_t convert_bits(DType from, const uint8_t* v, DType to) {
    uint64_t raw = 0;
    std::memcpy(&raw, v, dtype_size(from));
    if (dtype_is_float(from)) return kernel::bits_from_double(to, kernel::double_from_bits(from, raw));
    if (from == DType::u64) {
        uint64_t u = raw;
        return dtype_is_float(to) ? kernel::bits_from_double(to, double(u)) : kernel::bits_from_int(to, int64_t(u));
    }
    int64_t i = 0;
    switch (from) {
        case DType::i8: i = int8_t(raw); break;
        case DType::i16: i = int16_t(raw); break;
        case DType::i32: i = int32_t(raw); break;
        case DType::i64: i = int64_t(raw); break;
        case DType::u8:
        case DType::bool_: i = uint8_t(raw); break;
        case DType::u16: i = uint16_t(raw); break;
        case DType::u32: i = uint32_t(raw); break;
        default: break;
    }
    return kernel::bits_from_int(to, i);
}

}  // namespace

namespace detail {

Tensor tensor_from_host(const void* data, DType from, size_t n, const Shape& shape, DType dtype, Device device) {
    check_shape("tensor", shape, dtype);
    if (int64_t(n) != graph::shape_numel(shape))
        invalid("tensor",
                std::to_string(n) + " values for shape " + shape_str(shape) + " (" +
                    std::to_string(graph::shape_numel(shape)) + " elements)");
    size_t sz = dtype_size(dtype);
    if (from == dtype) return wrap(sched::upload(data, n * sz, dtype, shape, device));
    std::vector<uint8_t> bytes(n * sz);
    const uint8_t* src = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < n; ++i) {
        uint64_t b = convert_bits(from, src + i * dtype_size(from), dtype);
        std::memcpy(bytes.data() + i * sz, &b, sz);
    }
    return wrap(sched::upload(bytes.data(), bytes.size(), dtype, shape, device));
}

void ragged_literal(size_t row, size_t got, size_t want) {
    invalid("tensor",
            "ragged literal: row " + std::to_string(row) + " has " + std::to_string(got) + " values, the first has " +
                std::to_string(want));
}

}  // namespace detail

Tensor from_bytes(const void* data, size_t bytes, const Shape& shape, DType dtype, Device device) {
    check_shape("from_bytes", shape, dtype);
    uint64_t want = uint64_t(graph::shape_numel(shape)) * dtype_size(dtype);
    if (bytes != want)
        invalid("from_bytes",
                std::to_string(bytes) + " bytes for " + dname(dtype) + " " + shape_str(shape) + " (needs " +
                    std::to_string(want) + ")");
    return wrap(sched::upload(data, bytes, dtype, shape, device));
}

Tensor scalar_tensor(Scalar value) {
    DType t = value.kind() == Scalar::Kind::float_ ? default_float()
        : value.kind() == Scalar::Kind::int_       ? default_int()
                                                   : DType::bool_;
    return scalar_tensor(value, t);
}

Tensor scalar_tensor(Scalar value, DType dtype, Device device) { return full({}, value, dtype, device); }

namespace {
Tensor filled(const char* op, const Shape& shape, Scalar value, DType dtype, Device device) {
    check_shape(op, shape, dtype);
    sched::open_device(device);
    return wrap(constant(value, dtype, shape, device));
}
}  // namespace

Tensor zeros(const Shape& shape, DType dtype, Device device) { return filled("zeros", shape, 0, dtype, device); }
Tensor ones(const Shape& shape, DType dtype, Device device) { return filled("ones", shape, 1, dtype, device); }
Tensor full(const Shape& shape, Scalar value, DType dtype, Device device) {
    return filled("full", shape, value, dtype, device);
}
Tensor zeros_like(const Tensor& x) { return zeros(x.shape(), x.dtype(), x.device()); }
Tensor ones_like(const Tensor& x) { return ones(x.shape(), x.dtype(), x.device()); }
Tensor full_like(const Tensor& x, Scalar value) { return full(x.shape(), value, x.dtype(), x.device()); }

Tensor arange(Scalar end) { return arange(0, end, 1); }

Tensor arange(Scalar start, Scalar end, Scalar step) {
    bool ints = start.kind() != Scalar::Kind::float_ && end.kind() != Scalar::Kind::float_ &&
        step.kind() != Scalar::Kind::float_;
    return arange(start, end, step, ints ? default_int() : default_float());
}

Tensor arange(Scalar start, Scalar end, Scalar step, DType dtype, Device device) {
    if (dtype == DType::bool_) invalid("arange", "bool dtype");
    if (step.as_double() == 0) invalid("arange", "step 0 (from " + start.str() + " to " + end.str() + ")");
    if ((step.as_double() > 0 && end.as_double() < start.as_double()) ||
        (step.as_double() < 0 && end.as_double() > start.as_double()))
        invalid("arange",
                "step " + step.str() + " goes away from the end: from " + start.str() + " to " + end.str() +
                    " needs a step of the other sign (as PyTorch, an inconsistent range is an error, not empty)");
    double count_d = std::ceil((end.as_double() - start.as_double()) / step.as_double());
    if (!std::isfinite(count_d))
        invalid("arange", "non-finite range from " + start.str() + " to " + end.str() + " by " + step.str());
    if (count_d >= 0x1p62)
        invalid("arange",
                "from " + start.str() + " to " + end.str() + " by " + step.str() + " gives " + std::to_string(count_d) +
                    " elements (at most 2^62)");
    int64_t count = count_d > 0 ? int64_t(count_d) : 0;
    check_shape("arange", {count}, dtype);
    sched::open_device(device);
    uint64_t b0, b1;
    if (dtype_is_float(dtype)) {  // start/step as f64 bits; see graph::OpKind::arange
        b0 = kernel::bits_from_double(DType::f64, start.as_double());
        b1 = kernel::bits_from_double(DType::f64, step.as_double());
    } else {
        b0 = uint64_t(start.kind() == Scalar::Kind::float_ ? int64_t(start.as_double()) : start.as_int());
        b1 = uint64_t(step.kind() == Scalar::Kind::float_ ? int64_t(step.as_double()) : step.as_int());
    }
    return wrap(graph::make_arange(b0, b1, dtype, count, device));
}

Tensor linspace(double start, double end, int64_t steps, DType dtype, Device device) {
    if (steps < 0) invalid("linspace", "negative step count " + std::to_string(steps));
    if (!dtype_is_float(dtype)) { return linspace(start, end, steps, DType::f64, device).cast(dtype); }
    if (steps <= 1) return full({steps}, start, dtype, device);
    // As PyTorch: the first half counts up from start, the second half down from end, so both
    // ends are exact.
    double step = (end - start) / double(steps - 1);
    Tensor i = arange(Scalar(0), Scalar(steps), Scalar(1), DType::i32, device);
    Tensor up = i.cast(DType::f64 == dtype ? DType::f64 : DType::f32) * step + start;
    Tensor down = end - (Scalar(steps - 1) - i).cast(up.dtype()) * step;
    return where(i < steps / 2, up, down).cast(dtype);
}

Tensor eye(int64_t n, int64_t m, DType dtype, Device device) {
    if (m == -1) m = n;
    check_shape("eye", {n, m}, dtype);
    Tensor r = arange(Scalar(0), Scalar(n), Scalar(1), DType::i32, device).reshape({n, 1});
    Tensor c = arange(Scalar(0), Scalar(m), Scalar(1), DType::i32, device).reshape({1, m});
    return (r == c).cast(dtype);
}

// The values of an empty tensor are unspecified (PyTorch); zyx gives zeros, a constant that
// costs no memory until something realizes it.
Tensor empty(const Shape& shape, DType dtype, Device device) { return filled("empty", shape, 0, dtype, device); }
Tensor empty_like(const Tensor& x) { return empty(x.shape(), x.dtype(), x.device()); }

}  // namespace zyx
