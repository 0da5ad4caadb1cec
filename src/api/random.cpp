// Random tensors from a seedable xoshiro256** generator; values drawn on the host in row-major
// order and uploaded, so a seed gives the same tensor on every device.
#include <cmath>
#include <cstring>
#include <mutex>

#include "api/internal.hpp"
#include "schedule/scheduler.hpp"

namespace zyx {

using namespace api;

namespace {

uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Significand bits of a float dtype: a uniform value built from that many random bits is exact
// in the dtype and strictly below 1.
int significand_bits(DType t) {
    switch (t) {
        case DType::f64: return 53;
        case DType::f32: return 24;
        case DType::f16: return 11;
        default: return 8;  // bf16
    }
}

std::mutex g_default_mutex;

template <class Fill>
Tensor generate(const char* op, const Shape& shape, DType dtype, Device device, Fill fill) {
    check_shape(op, shape, dtype);
    size_t n = size_t(graph::shape_numel(shape)), sz = dtype_size(dtype);
    std::vector<uint8_t> bytes;
    try {
        bytes.resize(n * sz);  // values are drawn on the host, then uploaded
    } catch (const std::exception&) {  // bad_alloc
        throw Error(ErrorStatus::MemoryAllocation, std::string(op) + ": no host memory for the " + std::to_string(n) +
                                                       " values of " + dname(dtype) + " " + shape_str(shape));
    }
    for (size_t i = 0; i < n; ++i) {
        uint64_t b = fill();
        std::memcpy(bytes.data() + i * sz, &b, sz);
    }
    return wrap(sched::upload(bytes.data(), bytes.size(), dtype, shape, device));
}

void need_float(const char* op, DType t) {
    if (!dtype_is_float(t)) invalid(op, "needs a floating dtype, got " + dname(t) + " (use randint for integers)");
}

}  // namespace

void Generator::manual_seed(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& s : s_) s = splitmix64(x);
    has_spare_ = false;
}

uint64_t Generator::next_u64() {
    uint64_t result = rotl(s_[1] * 5, 7) * 9;
    uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

double Generator::next_double() { return double(next_u64() >> 11) * 0x1.0p-53; }

double Generator::next_normal() {
    if (has_spare_) {
        has_spare_ = false;
        return spare_;
    }
    double u1;
    do u1 = next_double();
    while (u1 <= 0);
    double u2 = next_double();
    double r = std::sqrt(-2 * std::log(u1)), a = 2 * M_PI * u2;
    spare_ = r * std::sin(a);
    has_spare_ = true;
    return r * std::cos(a);
}

Generator& default_generator() {
    static Generator* g = new Generator(0);
    return *g;
}

void manual_seed(uint64_t seed) {
    std::lock_guard<std::mutex> lock(g_default_mutex);
    default_generator().manual_seed(seed);
}

Tensor rand(const Shape& shape, DType dtype, Device device, Generator& gen) {
    need_float("rand", dtype);
    int bits = significand_bits(dtype);
    std::lock_guard<std::mutex> lock(g_default_mutex);
    return generate("rand", shape, dtype, device, [&] {
        double u = std::ldexp(double(gen.next_u64() >> (64 - bits)), -bits);
        return kernel::bits_from_double(dtype, u);
    });
}

Tensor randn(const Shape& shape, DType dtype, Device device, Generator& gen) {
    need_float("randn", dtype);
    std::lock_guard<std::mutex> lock(g_default_mutex);
    return generate("randn", shape, dtype, device, [&] { return kernel::bits_from_double(dtype, gen.next_normal()); });
}

Tensor uniform(const Shape& shape, double low, double high, DType dtype, Device device, Generator& gen) {
    need_float("uniform", dtype);
    if (!(low <= high)) invalid("uniform", "low " + std::to_string(low) + " above high " + std::to_string(high));
    std::lock_guard<std::mutex> lock(g_default_mutex);
    return generate("uniform", shape, dtype, device,
                    [&] { return kernel::bits_from_double(dtype, low + (high - low) * gen.next_double()); });
}

Tensor randint(int64_t low, int64_t high, const Shape& shape, DType dtype, Device device, Generator& gen) {
    if (high <= low) invalid("randint", "empty range [" + std::to_string(low) + ", " + std::to_string(high) + ")");
    if (dtype == DType::bool_ && (low < 0 || high > 2)) invalid("randint", "bool values need a range within [0, 2)");
    uint64_t range = uint64_t(high) - uint64_t(low);
    uint64_t limit = UINT64_MAX - UINT64_MAX % range;  // rejection keeps every value equally likely
    std::lock_guard<std::mutex> lock(g_default_mutex);
    return generate("randint", shape, dtype, device, [&] {
        uint64_t r;
        do r = gen.next_u64();
        while (r >= limit);
        int64_t v = int64_t(uint64_t(low) + r % range);
        return dtype_is_float(dtype) ? kernel::bits_from_double(dtype, double(v)) : kernel::bits_from_int(dtype, v);
    });
}

}  // namespace zyx
