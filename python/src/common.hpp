// Shared pieces of the zyx Python module (_zyx): argument conversions and the bind_* entry
// points of the translation units (errors.cpp, tensor.cpp, ops.cpp, nn.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "zyx/tensor.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace zyx::python {

// The Python and numpy names of each dtype (bf16, which numpy lacks, is read as float32).
struct DTypeName {
    DType dtype;
    const char* py;     // zyx.<py>, as torch.<py>
    const char* numpy;  // numpy dtype name
};
inline constexpr DTypeName kDTypes[] = {
    {DType::f64, "float64", "float64"},   {DType::f32, "float32", "float32"}, {DType::f16, "float16", "float16"},
    {DType::bf16, "bfloat16", "float32"}, {DType::i8, "int8", "int8"},        {DType::i16, "int16", "int16"},
    {DType::i32, "int32", "int32"},       {DType::i64, "int64", "int64"},     {DType::u8, "uint8", "uint8"},
    {DType::u16, "uint16", "uint16"},     {DType::u32, "uint32", "uint32"},   {DType::u64, "uint64", "uint64"},
    {DType::bool_, "bool", "bool"},
};

// A tensor or a Python number given where a tensor is expected: x + 1, x + y, x + [1, 2].
// Numbers stay numbers (they do not promote a tensor beyond its category, as in C++); lists,
// tuples and numpy arrays become tensors by as_tensor().
struct Operand {
    std::optional<Tensor> tensor;
    std::optional<Scalar> scalar;
    bool is_tensor() const { return tensor.has_value(); }
    // The operand as a tensor; a number becomes a 0-d tensor of `like`'s dtype when the number's
    // category (bool < integer < floating) is not above the tensor's, else of the default dtype of
    // its category, on `like`'s device.
    Tensor as_tensor_like(const Tensor& like) const;
};

// Python bool / int / float (and numpy scalars of those kinds) as a Scalar; nullopt otherwise.
std::optional<Scalar> scalar_from_py(py::handle h);
// Any tensor-like Python object as a tensor: a Tensor as it is, a number as a 0-d tensor, a numpy
// array keeping its dtype, a (nested) list or tuple with PyTorch's inference (floats → f32,
// integers → i32, or i64 when a value does not fit, bools → bool). `dtype` converts the result.
Tensor as_tensor(py::handle obj, std::optional<DType> dtype = std::nullopt, Device device = Device::host());
// A numpy array (any dtype numpy has that zyx can hold; non-contiguous and 0-d ones too) as a
// tensor of the matching dtype: float16/32/64, int8…64, uint8…64, bool; longdouble becomes f64.
// TypeError for complex, object, string and datetime arrays.
Tensor from_numpy(py::handle array, Device device = Device::host());
// The tensor's values in a new numpy array of its dtype (bf16, which numpy lacks, gives float32).
// Realizes with the GIL released.
py::array to_numpy(const Tensor& t);
// The numpy dtype of a zyx dtype (bf16 → float32) and the zyx dtype of a numpy dtype.
py::dtype numpy_dtype(DType t);
DType dtype_from_numpy(const py::dtype& dt);

// Python's view of a shape: a tuple of ints.
py::tuple shape_tuple(const Shape& s);
// A shape given as f(2, 3), f((2, 3)) or f([2, 3]).
Shape shape_from_args(const py::args& args, const char* op);
// An axis list given as None (nullopt), an int or a sequence of ints.
std::optional<Axes> axes_from(py::handle dim);
// One number or a pair (h, w).
Size2d size2d_from(py::handle h, const char* what);

void bind_errors(py::module_& m);
void bind_tensor(py::module_& m, py::class_<Tensor>& cls);
void bind_ops(py::class_<Tensor>& cls);
void bind_ops_shape(py::module_& m, py::class_<Tensor>& cls);
void bind_nn(py::module_& m);
void bind_ops_more(py::module_& m, py::class_<Tensor>& cls);  // after bind_nn: adds to zyx.nn.functional

}  // namespace zyx::python

namespace pybind11::detail {

// Operand from Python: a Tensor, a number, or a list / tuple / numpy array.
template <>
struct type_caster<zyx::python::Operand> {
    PYBIND11_TYPE_CASTER(zyx::python::Operand, const_name("Tensor | number"));
    bool load(handle src, bool) {
        if (isinstance<zyx::Tensor>(src)) {
            value.tensor = src.cast<zyx::Tensor>();
            return true;
        }
        if (auto s = zyx::python::scalar_from_py(src)) {
            value.scalar = *s;
            return true;
        }
        if (isinstance<list>(src) || isinstance<tuple>(src) || isinstance<array>(src)) {
            value.tensor = zyx::python::as_tensor(src);
            return true;
        }
        return false;
    }
};

}  // namespace pybind11::detail
