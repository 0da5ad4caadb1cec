// Small helpers shared by the example programs: kernel sources from files, bf16 data, tile
// layout (32x32 tiles of four 16x16 faces), and the final PASS/FAIL line.
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "emu/device.hpp"

namespace example {

using namespace zyx::emu;

// Kernel sources live in EXAMPLE_DIR/kernels/, or in examples/common/kernels/ for the generic
// readers and writers several examples share. The emulator compiles them at program_create.
inline std::string kernel_source(const std::string& file) {
    std::ifstream in(std::string(EXAMPLE_DIR) + "/kernels/" + file);
    if (!in) in.open(std::string(EXAMPLE_DIR) + "/../common/kernels/" + file);
    if (!in) throw zyx::Error(zyx::ErrorStatus::Io, "cannot read kernel " + file);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline KernelSpec kernel(const std::string& file, KernelKind kind, CoreRangeSet cores, std::vector<uint32_t> ct = {}) {
    KernelSpec k;
    k.name = file.substr(0, file.find('.'));
    k.source = kernel_source(file);
    k.kind = kind;
    k.cores = std::move(cores);
    k.compile_args = std::move(ct);
    return k;
}

inline uint16_t bf16(float v) { return zyx::f32_to_bf16(v); }
inline float from_bf16(uint16_t h) { return zyx::bf16_to_f32(h); }
// The value a bf16 round trip leaves (what the device sees of a host float).
inline float bf16_round(float v) { return from_bf16(bf16(v)); }

// Row-major rows x cols matrix → tiles in row-major tile order, each tile in face order.
inline std::vector<uint16_t> tilize(const std::vector<float>& m, uint32_t rows, uint32_t cols) {
    std::vector<uint16_t> out(m.size());
    uint32_t tiles_per_row = cols / 32;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
            uint32_t tile = (r / 32) * tiles_per_row + c / 32, tr = r % 32, tc = c % 32;
            uint32_t face = (tr / 16) * 2 + tc / 16;
            out[tile * 1024 + face * 256 + (tr % 16) * 16 + tc % 16] = bf16(m[size_t(r) * cols + c]);
        }
    return out;
}
inline std::vector<float> untilize(const std::vector<uint16_t>& t, uint32_t rows, uint32_t cols) {
    std::vector<float> out(t.size());
    uint32_t tiles_per_row = cols / 32;
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
            uint32_t tile = (r / 32) * tiles_per_row + c / 32, tr = r % 32, tc = c % 32;
            uint32_t face = (tr / 16) * 2 + tc / 16;
            out[size_t(r) * cols + c] = from_bf16(t[tile * 1024 + face * 256 + (tr % 16) * 16 + tc % 16]);
        }
    return out;
}

// Compares got against want with |got - want| <= atol + rtol * |want|; prints the verdict.
inline int check(const char* what, const std::vector<float>& got, const std::vector<float>& want, float atol,
                 float rtol) {
    size_t bad = 0, first = 0;
    double max_err = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        double err = std::fabs(double(got[i]) - want[i]);
        max_err = std::max(max_err, err);
        if (!(err <= atol + rtol * std::fabs(want[i]))) {
            if (!bad) first = i;
            ++bad;
        }
    }
    if (bad) {
        std::printf("%s: FAIL: %zu of %zu values off (first at %zu: got %g, want %g), max error %g\n", what, bad,
                    want.size(), first, got[first], want[first], max_err);
        return 1;
    }
    std::printf("%s: PASS (%zu values, max error %g)\n", what, want.size(), max_err);
    return 0;
}

// Splits `total` work items over `cores` cores: core i gets [start, start + count).
inline void split_work(uint32_t total, uint32_t cores, uint32_t i, uint32_t* start, uint32_t* count) {
    uint32_t base = total / cores, extra = total % cores;
    *count = base + (i < extra ? 1 : 0);
    *start = i * base + (i < extra ? i : extra);
}

// Runs main_body and turns any zyx::Error into exit code 1 with its message.
template <class F>
int run_example(F&& main_body) {
    try {
        return main_body();
    } catch (const zyx::Error& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
}

}  // namespace example
