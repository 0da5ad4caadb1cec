// Helpers for kernel tests: build small kernels and run them through the reference interpreter.
#pragma once

#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "kernel/interpreter.hpp"
#include "kernel/kernel.hpp"

namespace zyx::kernel::test {

// Raw bits <-> bytes of a buffer of dtype t.
inline std::vector<uint8_t> pack(DType t, const std::vector<uint64_t>& bits) {
    size_t sz = dtype_size(t);
    std::vector<uint8_t> out(bits.size() * sz + 1);  // +1: never a zero-size allocation
    for (size_t i = 0; i < bits.size(); ++i) std::memcpy(out.data() + i * sz, &bits[i], sz);
    return out;
}
inline std::vector<uint64_t> unpack(DType t, const std::vector<uint8_t>& bytes, size_t n) {
    size_t sz = dtype_size(t);
    std::vector<uint64_t> out(n, 0);
    for (size_t i = 0; i < n; ++i) std::memcpy(&out[i], bytes.data() + i * sz, sz);
    return out;
}

inline std::vector<uint64_t> F(DType t, std::vector<double> v) {
    std::vector<uint64_t> b;
    for (double x : v) b.push_back(bits_from_double(t, x));
    return b;
}
inline std::vector<uint64_t> I(DType t, std::vector<int64_t> v) {
    std::vector<uint64_t> b;
    for (int64_t x : v) b.push_back(bits_from_int(t, x));
    return b;
}

struct Column {
    DType dtype;
    std::vector<uint64_t> bits;
};

// Elementwise 1-D kernel over n = columns[0].bits.size() elements: one input per column,
// out = body(kernel, load node numbers); returns the output's raw bits.
inline std::vector<uint64_t> run_elementwise(const std::vector<Column>& cols,
                                             const std::function<int(Kernel&, const std::vector<int>&)>& body) {
    int64_t n = int64_t(cols[0].bits.size());
    Kernel k;
    k.shape = {n};
    std::vector<int> loads;
    for (const Column& c : cols) loads.push_back(k.load(k.add_input(c.dtype, View::contiguous({n}))));
    int out = body(k, loads);
    DType ot = k.nodes[size_t(out)].dtype;
    k.add_output(ot, View::contiguous({n}), out);
    std::vector<std::vector<uint8_t>> store;
    for (const Column& c : cols) store.push_back(pack(c.dtype, c.bits));
    store.push_back(std::vector<uint8_t>(size_t(n) * dtype_size(ot) + 1));
    std::vector<BufferRef> refs;
    for (auto& s : store) refs.push_back({s.data(), s.size()});
    interpret(k, refs, {});
    return unpack(ot, store.back(), size_t(n));
}

inline std::vector<uint64_t> run_unary(Op op, DType t, const std::vector<uint64_t>& x) {
    return run_elementwise({{t, x}}, [op](Kernel& k, const std::vector<int>& l) { return k.unary(op, l[0]); });
}
inline std::vector<uint64_t> run_binary(Op op, DType t, const std::vector<uint64_t>& x,
                                        const std::vector<uint64_t>& y) {
    return run_elementwise({{t, x}, {t, y}},
                           [op](Kernel& k, const std::vector<int>& l) { return k.binary(op, l[0], l[1]); });
}
inline std::vector<uint64_t> run_cast(DType from, DType to, const std::vector<uint64_t>& x) {
    return run_elementwise({{from, x}}, [to](Kernel& k, const std::vector<int>& l) { return k.cast(l[0], to); });
}

// Values of raw bits, as doubles (NaN stays NaN).
inline std::vector<double> D(DType t, const std::vector<uint64_t>& bits) {
    std::vector<double> v;
    for (uint64_t b : bits) v.push_back(double_from_bits(t, b));
    return v;
}

}  // namespace zyx::kernel::test
