// tt-metal's host bfloat16 (tt-metalium/bfloat16.hpp): construction from any arithmetic value
// rounds to nearest even (NaN stays NaN), bfloat16::truncate drops the low 16 bits, conversion
// to float is exact. Plus the packing helpers of tt-metal's examples and tests.
#pragma once

#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

class bfloat16 {
public:
    constexpr bfloat16() = default;
    template <class T>
    requires std::is_arithmetic_v<T> bfloat16(T v)
    noexcept : uint16_data(from_float(static_cast<float>(v))) {}

    static bfloat16 truncate(float f);
    // The value with these bits (older tt-metal spelt this bfloat16(uint16_t) ).
    static bfloat16 from_bits(uint16_t bits) {
        bfloat16 b;
        b.uint16_data = bits;
        return b;
    }

    operator float() const { return to_float(); }
    float to_float() const {
        uint32_t u = uint32_t(uint16_data) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    uint16_t to_uint16() const { return uint16_data; }

    bool operator==(bfloat16 rhs) const { return to_float() == rhs.to_float(); }
    std::partial_ordering operator<=>(bfloat16 rhs) const { return to_float() <=> rhs.to_float(); }

    bfloat16 operator+(bfloat16 rhs) const { return bfloat16(to_float() + rhs.to_float()); }
    bfloat16 operator-(bfloat16 rhs) const { return bfloat16(to_float() - rhs.to_float()); }
    bfloat16 operator*(bfloat16 rhs) const { return bfloat16(to_float() * rhs.to_float()); }
    bfloat16 operator/(bfloat16 rhs) const { return bfloat16(to_float() / rhs.to_float()); }
    bfloat16& operator+=(bfloat16 rhs) { return *this = *this + rhs; }
    bfloat16& operator-=(bfloat16 rhs) { return *this = *this - rhs; }
    bfloat16& operator*=(bfloat16 rhs) { return *this = *this * rhs; }
    bfloat16& operator/=(bfloat16 rhs) { return *this = *this / rhs; }

private:
    static uint16_t from_float(float f);
    uint16_t uint16_data = 0;
};
static_assert(sizeof(bfloat16) == 2);

// FP32 → bf16 bits, round to nearest even; NaN → 0x7FC0.
uint16_t fp32_to_bf16_bits_round_to_nearest_even(float val);

std::ostream& operator<<(std::ostream& os, const bfloat16& v);

// Low half = first, high half = second.
uint32_t pack_two_bfloat16_into_uint32(std::pair<bfloat16, bfloat16> two_bfloats);
std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& data);
inline bfloat16 bfloat16_identity_transform(const bfloat16& input) { return input; }
std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(
    const std::vector<uint32_t>& data,
    const std::function<bfloat16(const bfloat16&)>& transform = bfloat16_identity_transform);

// num_bytes / 2 values uniform in [offset, offset + rand_max_float), from `seed` (std::mt19937).
std::vector<bfloat16> create_random_vector_of_bfloat16_native(size_t num_bytes, float rand_max_float, int seed,
                                                              float offset = 0.0f);
// The same values packed two per word.
std::vector<uint32_t> create_random_vector_of_bfloat16(size_t num_bytes, int rand_max_float, int seed,
                                                       float offset = 0.0f);
std::vector<uint32_t> create_constant_vector_of_bfloat16(size_t num_bytes, float value);

// |a - b| <= atol + rtol * |b| (numpy's isclose).
bool is_close(float a, float b, float rtol = 0.01f, float atol = 0.001f);
