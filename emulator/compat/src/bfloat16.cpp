// Host bfloat16 (tt-metalium/bfloat16.hpp), on zyx's conversions (src/core/dtype.hpp).
#include <tt-metalium/bfloat16.hpp>

#include <cmath>
#include <random>

#include "core/dtype.hpp"

uint16_t fp32_to_bf16_bits_round_to_nearest_even(float val) {
    if (std::isnan(val)) return 0x7FC0;
    return zyx::f32_to_bf16(val);
}

uint16_t bfloat16::from_float(float f) { return fp32_to_bf16_bits_round_to_nearest_even(f); }

bfloat16 bfloat16::truncate(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return from_bits(uint16_t(u >> 16));
}

std::ostream& operator<<(std::ostream& os, const bfloat16& v) { return os << v.to_float(); }

uint32_t pack_two_bfloat16_into_uint32(std::pair<bfloat16, bfloat16> two) {
    return uint32_t(two.first.to_uint16()) | (uint32_t(two.second.to_uint16()) << 16);
}

std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& data) {
    std::vector<uint32_t> out((data.size() + 1) / 2);
    for (size_t i = 0; i < data.size(); i += 2)
        out[i / 2] = pack_two_bfloat16_into_uint32({data[i], i + 1 < data.size() ? data[i + 1] : bfloat16()});
    return out;
}

std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(const std::vector<uint32_t>& data,
                                                          const std::function<bfloat16(const bfloat16&)>& transform) {
    std::vector<bfloat16> out;
    out.reserve(data.size() * 2);
    for (uint32_t w : data) {
        out.push_back(transform(bfloat16::from_bits(uint16_t(w & 0xffff))));
        out.push_back(transform(bfloat16::from_bits(uint16_t(w >> 16))));
    }
    return out;
}

std::vector<bfloat16> create_random_vector_of_bfloat16_native(size_t num_bytes, float rand_max_float, int seed,
                                                              float offset) {
    std::mt19937 gen{static_cast<uint32_t>(seed)};
    std::uniform_real_distribution<float> dist(0.0f, rand_max_float);
    std::vector<bfloat16> out(num_bytes / sizeof(bfloat16));
    for (auto& v : out) v = bfloat16(dist(gen) + offset);
    return out;
}

std::vector<uint32_t> create_random_vector_of_bfloat16(size_t num_bytes, int rand_max_float, int seed, float offset) {
    return pack_bfloat16_vec_into_uint32_vec(
        create_random_vector_of_bfloat16_native(num_bytes, float(rand_max_float), seed, offset));
}

std::vector<uint32_t> create_constant_vector_of_bfloat16(size_t num_bytes, float value) {
    return pack_bfloat16_vec_into_uint32_vec(std::vector<bfloat16>(num_bytes / sizeof(bfloat16), bfloat16(value)));
}

bool is_close(float a, float b, float rtol, float atol) { return std::fabs(a - b) <= atol + rtol * std::fabs(b); }
