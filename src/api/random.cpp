// Random tensors from a seedable xoshiro256** generator; values drawn on the host in row-major
// order and uploaded, so a seed gives the same tensor on every device.
#include <algorithm>
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
        bytes.resize(n * sz);          // values are drawn on the host, then uploaded
    } catch (const std::exception&) {  // bad_alloc
        throw Error(ErrorStatus::MemoryAllocation,
                    std::string(op) + ": no host memory for the " + std::to_string(n) + " values of " + dname(dtype) +
                        " " + shape_str(shape));
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

// ---- issue 15, item 6: *_like, randperm, bernoulli, multinomial ----------------------------------

Tensor rand_like(const Tensor& x, Generator& gen) {
    const NodePtr& n = node_of(x, "rand_like");
    return rand(n->shape, n->dtype, n->device, gen);
}
Tensor randn_like(const Tensor& x, Generator& gen) {
    const NodePtr& n = node_of(x, "randn_like");
    return randn(n->shape, n->dtype, n->device, gen);
}
Tensor randint_like(const Tensor& x, int64_t high, Generator& gen) { return randint_like(x, 0, high, gen); }
Tensor randint_like(const Tensor& x, int64_t low, int64_t high, Generator& gen) {
    const NodePtr& n = node_of(x, "randint_like");
    return randint(low, high, n->shape, n->dtype, n->device, gen);
}

namespace {
// A uniform integer in [0, range) (range >= 1), by rejection so every value is equally likely.
uint64_t below(Generator& gen, uint64_t range) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % range, r;
    do r = gen.next_u64();
    while (r >= limit);
    return r % range;
}
}  // namespace

Tensor randperm(int64_t n, DType dtype, Device device, Generator& gen) {
    if (n < 0) invalid("randperm", "negative n " + std::to_string(n));
    if (dtype == DType::bool_)
        invalid("randperm", "bool dtype cannot hold a permutation of " + std::to_string(n) + " values");
    if (n > 0) {  // n − 1 must be exact in the dtype
        double top = double(n - 1);
        bool exact = dtype_is_float(dtype)
            ? kernel::double_from_bits(dtype, kernel::bits_from_double(dtype, top)) == top
            : kernel::double_from_bits(dtype, kernel::bits_from_int(dtype, n - 1)) == top;
        if (!exact) invalid("randperm", "n " + std::to_string(n) + " has values that " + dname(dtype) + " cannot hold");
    }
    std::lock_guard<std::mutex> lock(g_default_mutex);
    std::vector<int64_t> perm(size_t(std::max<int64_t>(n, 0)));
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = int64_t(i);
    for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[size_t(below(gen, i))]);
    size_t next = 0;
    return generate("randperm", {n}, dtype, device, [&] {
        int64_t v = perm[next++];
        return dtype_is_float(dtype) ? kernel::bits_from_double(dtype, double(v)) : kernel::bits_from_int(dtype, v);
    });
}

Tensor bernoulli(const Tensor& p, Generator& gen) {
    const NodePtr& n = node_of(p, "bernoulli");
    if (!dtype_is_float(n->dtype))
        invalid("bernoulli", "needs float probabilities, got " + dname(n->dtype) + " " + shape_str(n->shape));
    std::vector<double> prob = p.to_vector<double>();
    for (size_t i = 0; i < prob.size(); ++i)
        if (!(prob[i] >= 0 && prob[i] <= 1))
            invalid("bernoulli",
                    "probability " + std::to_string(prob[i]) + " at element " + std::to_string(i) + " of " +
                        shape_str(n->shape) + " is outside [0, 1]");
    std::lock_guard<std::mutex> lock(g_default_mutex);
    size_t next = 0;
    return generate("bernoulli", n->shape, n->dtype, n->device,
                    [&] { return kernel::bits_from_double(n->dtype, gen.next_double() < prob[next++] ? 1.0 : 0.0); });
}

Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement, Generator& gen) {
    const char* op = "multinomial";
    const NodePtr& n = node_of(probs, op);
    const Shape& s = n->shape;
    if (s.size() != 1 && s.size() != 2)
        invalid(op, "needs probabilities of shape [n] or [rows, n], got " + shape_str(s));
    if (!dtype_is_float(n->dtype))
        invalid(op, "needs float probabilities, got " + dname(n->dtype) + " " + shape_str(s));
    int64_t rows = s.size() == 2 ? s[0] : 1, cats = s.back();
    if (cats == 0) invalid(op, "no categories in shape " + shape_str(s));
    if (num_samples <= 0) invalid(op, "num_samples " + std::to_string(num_samples) + " must be positive");
    if (!replacement && num_samples > cats)
        invalid(op,
                "cannot draw " + std::to_string(num_samples) + " samples without replacement from " +
                    std::to_string(cats) + " categories (shape " + shape_str(s) + ")");
    std::vector<double> w = probs.to_vector<double>();
    for (int64_t r = 0; r < rows; ++r) {
        double total = 0;
        int64_t nonzero = 0;
        for (int64_t c = 0; c < cats; ++c) {
            double v = w[size_t(r * cats + c)];
            if (!(v >= 0) || std::isinf(v))
                invalid(op,
                        "weight " + std::to_string(v) + " at row " + std::to_string(r) + ", category " +
                            std::to_string(c) + " of " + shape_str(s) + " is negative or not finite");
            total += v;
            nonzero += v > 0;
        }
        if (!(total > 0)) invalid(op, "row " + std::to_string(r) + " of " + shape_str(s) + " has weights summing to 0");
        if (!replacement && num_samples > nonzero)
            invalid(op,
                    "cannot draw " + std::to_string(num_samples) + " samples without replacement from row " +
                        std::to_string(r) + " of " + shape_str(s) + ", which has " + std::to_string(nonzero) +
                        " nonzero weights");
    }
    std::lock_guard<std::mutex> lock(g_default_mutex);
    std::vector<int64_t> picks;
    std::vector<double> left(static_cast<size_t>(cats));
    for (int64_t r = 0; r < rows; ++r) {
        left.assign(w.begin() + r * cats, w.begin() + (r + 1) * cats);
        for (int64_t k = 0; k < num_samples; ++k) {
            double total = 0;
            for (double v : left) total += v;
            double u = gen.next_double() * total, acc = 0;
            int64_t chosen = -1;
            for (int64_t c = 0; c < cats; ++c) {
                if (left[size_t(c)] <= 0) continue;
                chosen = c;  // the last category with weight, should rounding leave u above the sum
                acc += left[size_t(c)];
                if (u < acc) break;
            }
            picks.push_back(chosen);
            if (!replacement) left[size_t(chosen)] = 0;
        }
    }
    Shape out = s.size() == 2 ? Shape{rows, num_samples} : Shape{num_samples};
    size_t next = 0;
    return generate(op, out, DType::i32, n->device, [&] { return kernel::bits_from_int(DType::i32, picks[next++]); });
}

}  // namespace zyx
