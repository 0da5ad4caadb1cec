// Helpers of the op bindings (ops.cpp, ops_shape.cpp): operands, axes, macros that make a new op
// one line.
#pragma once

#include "common.hpp"

namespace zyx::python {

// x op y where y is a tensor or a number, for C++ ops with both overloads.
template <class F>
auto with_operand(F f) {
    return [f](const Tensor& x, const Operand& y) { return y.is_tensor() ? f(x, *y.tensor) : f(x, *y.scalar); };
}
// x op y for C++ ops that take tensors only.
template <class F>
auto with_tensor(F f) {
    return [f](const Tensor& x, const Operand& y) { return f(x, y.as_tensor_like(x)); };
}
// y op x (Python's reflected operators).
template <class F>
auto reflected(F f) {
    return [f](const Tensor& x, const Operand& y) { return f(y.as_tensor_like(x), x); };
}

#define UNARY(name) cls.def(#name, [](const Tensor& x) { return x.name(); })
#define BINARY(name) cls.def(#name, with_operand([](const Tensor& a, const auto& b) { return a.name(b); }), "other"_a)
#define BINARY_T(pyname, name) \
    cls.def(pyname, with_tensor([](const Tensor& a, const Tensor& b) { return a.name(b); }), "other"_a)
// Reductions: dim None (every axis), an int or a sequence; keepdim.
#define REDUCE(name)                                               \
    cls.def(                                                       \
        #name,                                                     \
        [](const Tensor& x, py::object dim, bool keepdim) {        \
            std::optional<Axes> axes = axes_from(dim);             \
            if (axes) return x.name(*axes, keepdim);               \
            return keepdim ? x.name(all_axes(x), true) : x.name(); \
        },                                                         \
        "dim"_a = py::none(), "keepdim"_a = false)

inline Axes all_axes(const Tensor& x) {
    std::vector<int> a;
    for (size_t i = 0; i < x.dim(); ++i) a.push_back(int(i));
    return Axes(a);
}

inline int correction_of(py::object unbiased, py::object correction) {
    if (!correction.is_none()) return correction.cast<int>();
    return unbiased.is_none() || unbiased.cast<bool>() ? 1 : 0;
}

inline std::vector<Tensor> tensors_from(py::handle seq) {
    std::vector<Tensor> out;
    for (py::handle h : seq) out.push_back(as_tensor(h));
    return out;
}

}  // namespace zyx::python
