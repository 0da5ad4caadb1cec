// Helpers shared by the emulator tests: run a program and catch its error, bf16 data.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "emu/device.hpp"

namespace emu_test {

using namespace zyx;
using namespace zyx::emu;

// Runs f and returns the zyx::Error it throws (a test failure when it throws none).
inline Error catch_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) { return e; }
    ADD_FAILURE() << "expected a zyx::Error";
    return Error(ErrorStatus::Internal, "(no error)");
}

inline CoreRangeSet one_core(uint32_t x = 0, uint32_t y = 0) { return {CoreRange{{x, y}, {x, y}}}; }
inline CoreRangeSet grid(const Device& d) { return {CoreRange{{0, 0}, {d.spec().grid_x - 1, d.spec().grid_y - 1}}}; }

inline KernelSpec dm0(std::string name, std::string src, CoreRangeSet cores, std::vector<uint32_t> ct = {}) {
    KernelSpec k;
    k.name = std::move(name);
    k.source = std::move(src);
    k.kind = KernelKind::data_movement_0;
    k.cores = std::move(cores);
    k.compile_args = std::move(ct);
    return k;
}
inline KernelSpec dm1(std::string name, std::string src, CoreRangeSet cores, std::vector<uint32_t> ct = {}) {
    KernelSpec k = dm0(std::move(name), std::move(src), std::move(cores), std::move(ct));
    k.kind = KernelKind::data_movement_1;
    return k;
}
inline KernelSpec compute(std::string name, std::string src, CoreRangeSet cores, std::vector<uint32_t> ct = {}) {
    KernelSpec k = dm0(std::move(name), std::move(src), std::move(cores), std::move(ct));
    k.kind = KernelKind::compute;
    return k;
}
inline CircularBufferSpec cb(uint32_t index, uint32_t pages, CoreRangeSet cores, DataFormat f = DataFormat::Float16_b,
                             uint32_t page_bytes = 0) {
    return {index, f, page_bytes ? page_bytes : tile_size_bytes(f), pages, std::move(cores), {}, {}};
}

// Launches and waits; returns the error of the launch (or nullopt).
inline std::optional<Error> run(Device& d, ProgramId p) {
    try {
        d.program_launch(p);
        d.wait();
    } catch (const Error& e) { return e; }
    return std::nullopt;
}

inline std::vector<uint16_t> to_bf16(const std::vector<float>& v) {
    std::vector<uint16_t> o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = f32_to_bf16(v[i]);
    return o;
}
inline std::vector<float> from_bf16(const std::vector<uint16_t>& v) {
    std::vector<float> o(v.size());
    for (size_t i = 0; i < v.size(); ++i) o[i] = bf16_to_f32(v[i]);
    return o;
}

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Tiles as the emulator stores them: 32×32 row-major floats ↔ the bytes of Float32 or Float16_b
// (nearest even) tiles in face order (four 16×16 faces, row-major inside each).
using RowMajorTile = std::vector<float>;
inline uint32_t face_index(uint32_t r, uint32_t c) { return ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16; }
inline std::vector<uint8_t> tiles_to_bytes(DataFormat fmt, const std::vector<RowMajorTile>& tiles) {
    const bool f32 = fmt == DataFormat::Float32;
    const uint32_t tile = tile_size_bytes(fmt);
    std::vector<uint8_t> bytes(tiles.size() * tile);
    for (size_t t = 0; t < tiles.size(); ++t)
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t c = 0; c < 32; ++c) {
                uint8_t* p = bytes.data() + t * tile + face_index(r, c) * (f32 ? 4 : 2);
                const float v = tiles[t][r * 32 + c];
                if (f32) {
                    std::memcpy(p, &v, 4);
                } else {
                    const uint16_t h = f32_to_bf16(v);
                    std::memcpy(p, &h, 2);
                }
            }
    return bytes;
}
inline std::vector<RowMajorTile> bytes_to_tiles(DataFormat fmt, const std::vector<uint8_t>& bytes) {
    const bool f32 = fmt == DataFormat::Float32;
    const uint32_t tile = tile_size_bytes(fmt);
    std::vector<RowMajorTile> tiles(bytes.size() / tile, RowMajorTile(1024));
    for (size_t t = 0; t < tiles.size(); ++t)
        for (uint32_t r = 0; r < 32; ++r)
            for (uint32_t c = 0; c < 32; ++c) {
                const uint8_t* p = bytes.data() + t * tile + face_index(r, c) * (f32 ? 4 : 2);
                if (f32) {
                    std::memcpy(&tiles[t][r * 32 + c], p, 4);
                } else {
                    uint16_t h;
                    std::memcpy(&h, p, 2);
                    tiles[t][r * 32 + c] = bf16_to_f32(h);
                }
            }
    return tiles;
}

}  // namespace emu_test
