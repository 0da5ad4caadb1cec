// Elementwise tensor ops with PyTorch's names and keywords, and the operators. A new op is one
// line (macros in ops_util.hpp): UNARY(name), BINARY(name) (tensor or number on the right) or
// BINARY_T(pyname, name) (tensor-only in C++: a number becomes a 0-d tensor); reductions use
// REDUCE(name) in ops_shape.cpp.
#include "ops_util.hpp"

namespace zyx::python {

void bind_ops(py::class_<Tensor>& cls) {
    // ---- elementwise, unary ----
    UNARY(neg);
    UNARY(exp);
    UNARY(exp2);
    UNARY(log);
    UNARY(log2);
    UNARY(log10);
    UNARY(log1p);
    UNARY(sqrt);
    UNARY(rsqrt);
    UNARY(reciprocal);
    UNARY(square);
    UNARY(sin);
    UNARY(cos);
    UNARY(tan);
    UNARY(tanh);
    UNARY(sigmoid);
    UNARY(erf);
    UNARY(abs);
    UNARY(sign);
    UNARY(floor);
    UNARY(ceil);
    UNARY(round);
    UNARY(trunc);
    UNARY(isnan);
    UNARY(isinf);
    UNARY(isfinite);
    UNARY(logical_not);
    UNARY(bitwise_not);
    UNARY(relu);
    UNARY(silu);
    UNARY(expm1);
    UNARY(relu6);
    UNARY(hardsigmoid);
    UNARY(hardswish);
    UNARY(selu);
    UNARY(mish);
    cls.def("negative", [](const Tensor& x) { return x.neg(); });
    cls.def("leaky_relu", &Tensor::leaky_relu, "negative_slope"_a = 0.01);
    cls.def(
        "gelu",
        [](const Tensor& x, const std::string& approximate) {
            if (approximate != "none" && approximate != "tanh")
                throw py::value_error("gelu: approximate must be 'none' or 'tanh', not '" + approximate + "'");
            return x.gelu(approximate == "tanh");
        },
        "approximate"_a = "none");
    cls.def("softplus", &Tensor::softplus, "beta"_a = 1.0, "threshold"_a = 20.0);
    cls.def("elu", &Tensor::elu, "alpha"_a = 1.0);
    cls.def("nan_to_num", &Tensor::nan_to_num, "nan"_a = 0.0, "posinf"_a = py::none(), "neginf"_a = py::none());
    cls.def("tril", py::overload_cast<int64_t>(&Tensor::tril, py::const_), "diagonal"_a = 0);
    cls.def("triu", py::overload_cast<int64_t>(&Tensor::triu, py::const_), "diagonal"_a = 0);
    cls.def(
        "clamp",
        [](const Tensor& x, py::object lo, py::object hi) {
            std::optional<Scalar> a = scalar_from_py(lo), b = scalar_from_py(hi);
            if (!lo.is_none() && !a) throw py::type_error("clamp: min must be a number or None");
            if (!hi.is_none() && !b) throw py::type_error("clamp: max must be a number or None");
            if (a && b) return x.clamp(*a, *b);
            if (a) return x.clamp_min(*a);
            if (b) return x.clamp_max(*b);
            throw py::value_error("clamp: at least one of min and max must not be None");
        },
        "min"_a = py::none(), "max"_a = py::none());
    cls.def("clamp_min", with_operand([](const Tensor& a, const auto& b) { return a.clamp_min(b); }), "min"_a);
    cls.def("clamp_max", with_operand([](const Tensor& a, const auto& b) { return a.clamp_max(b); }), "max"_a);

    // ---- elementwise, binary ----
    BINARY(sub);
    BINARY(mul);
    BINARY(pow);
    BINARY(maximum);
    BINARY(minimum);
    BINARY(fmod);
    BINARY(remainder);
    BINARY(eq);
    BINARY(ne);
    BINARY(lt);
    BINARY(le);
    BINARY(gt);
    BINARY(ge);
    BINARY_T("logical_and", logical_and);
    BINARY_T("logical_or", logical_or);
    BINARY_T("logical_xor", logical_xor);
    BINARY_T("bitwise_and", bitwise_and);
    BINARY_T("bitwise_or", bitwise_or);
    BINARY_T("bitwise_xor", bitwise_xor);
    BINARY_T("bitwise_left_shift", shift_left);
    BINARY_T("bitwise_right_shift", shift_right);
    BINARY_T("div_trunc", div_trunc);
    cls.def(
        "add",
        [](const Tensor& x, const Operand& y, const Operand& alpha) {
            if (alpha.is_tensor()) throw py::type_error("add: alpha must be a number");
            if (y.is_tensor()) return x.add(alpha.scalar->as_double() == 1 ? *y.tensor : y.tensor->mul(*alpha.scalar));
            return x.add(y.scalar->kind() == Scalar::Kind::float_ || alpha.scalar->kind() == Scalar::Kind::float_
                             ? Scalar(y.scalar->as_double() * alpha.scalar->as_double())
                             : Scalar(y.scalar->as_int() * alpha.scalar->as_int()));
        },
        "other"_a, py::kw_only(), "alpha"_a = 1);
    cls.def("_div", with_operand([](const Tensor& a, const auto& b) { return a.div(b); }), "other"_a);

    // ---- operators (NotImplemented for other types, so Python raises TypeError) ----
    auto op = py::is_operator();
    cls.def("__add__", with_operand([](const Tensor& a, const auto& b) { return a + b; }), op);
    cls.def("__sub__", with_operand([](const Tensor& a, const auto& b) { return a - b; }), op);
    cls.def("__mul__", with_operand([](const Tensor& a, const auto& b) { return a * b; }), op);
    cls.def("__truediv__", with_operand([](const Tensor& a, const auto& b) { return a / b; }), op);
    cls.def("__mod__", with_operand([](const Tensor& a, const auto& b) { return a % b; }), op);
    cls.def("__pow__", with_operand([](const Tensor& a, const auto& b) { return a.pow(b); }), op);
    cls.def("__matmul__", with_tensor([](const Tensor& a, const Tensor& b) { return a.matmul(b); }), op);
    cls.def("__and__", with_tensor([](const Tensor& a, const Tensor& b) { return a & b; }), op);
    cls.def("__or__", with_tensor([](const Tensor& a, const Tensor& b) { return a | b; }), op);
    cls.def("__xor__", with_tensor([](const Tensor& a, const Tensor& b) { return a ^ b; }), op);
    cls.def("__lshift__", with_tensor([](const Tensor& a, const Tensor& b) { return a << b; }), op);
    cls.def("__rshift__", with_tensor([](const Tensor& a, const Tensor& b) { return a >> b; }), op);
    cls.def("__eq__", with_operand([](const Tensor& a, const auto& b) { return a == b; }), op);
    cls.def("__ne__", with_operand([](const Tensor& a, const auto& b) { return a != b; }), op);
    cls.def("__lt__", with_operand([](const Tensor& a, const auto& b) { return a < b; }), op);
    cls.def("__le__", with_operand([](const Tensor& a, const auto& b) { return a <= b; }), op);
    cls.def("__gt__", with_operand([](const Tensor& a, const auto& b) { return a > b; }), op);
    cls.def("__ge__", with_operand([](const Tensor& a, const auto& b) { return a >= b; }), op);
    cls.def("__radd__", reflected([](const Tensor& a, const Tensor& b) { return a + b; }), op);
    cls.def(
        "__rsub__", [](const Tensor& x, const Operand& y) { return y.is_tensor() ? *y.tensor - x : *y.scalar - x; },
        op);
    cls.def("__rmul__", reflected([](const Tensor& a, const Tensor& b) { return a * b; }), op);
    cls.def(
        "__rtruediv__", [](const Tensor& x, const Operand& y) { return y.is_tensor() ? *y.tensor / x : *y.scalar / x; },
        op);
    cls.def(
        "__rmod__", [](const Tensor& x, const Operand& y) { return y.is_tensor() ? *y.tensor % x : *y.scalar % x; },
        op);
    cls.def("__rpow__", reflected([](const Tensor& a, const Tensor& b) { return a.pow(b); }), op);
    cls.def("__rmatmul__", reflected([](const Tensor& a, const Tensor& b) { return a.matmul(b); }), op);
    cls.def("__rand__", reflected([](const Tensor& a, const Tensor& b) { return a & b; }), op);
    cls.def("__ror__", reflected([](const Tensor& a, const Tensor& b) { return a | b; }), op);
    cls.def("__rxor__", reflected([](const Tensor& a, const Tensor& b) { return a ^ b; }), op);
    cls.def("__rlshift__", reflected([](const Tensor& a, const Tensor& b) { return a << b; }), op);
    cls.def("__rrshift__", reflected([](const Tensor& a, const Tensor& b) { return a >> b; }), op);
    cls.def("__neg__", [](const Tensor& x) { return -x; });
    cls.def("__pos__", [](const Tensor& x) { return x; });
    cls.def("__abs__", [](const Tensor& x) { return x.abs(); });
    cls.def("__invert__", [](const Tensor& x) { return ~x; });
}

}  // namespace zyx::python
