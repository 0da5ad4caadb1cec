// Conversions between Python values (numbers, lists, numpy arrays) and tensors.
#include <cstring>
#include <limits>

#include "common.hpp"

namespace zyx::python {
namespace {


// Reads t's values into `dst` (numel elements of numpy_dtype(t.dtype())) without the GIL.
void read_into(const Tensor& t, void* dst) {
    size_t n = size_t(t.numel());
    py::gil_scoped_release unlocked;
    switch (t.dtype()) {
        case DType::f64: t.to_buffer(static_cast<double*>(dst), n); break;
        case DType::f32:
        case DType::bf16: t.to_buffer(static_cast<float*>(dst), n); break;
        case DType::f16: t.bitcast(DType::u16).to_buffer(static_cast<uint16_t*>(dst), n); break;
        case DType::i8: t.to_buffer(static_cast<int8_t*>(dst), n); break;
        case DType::i16: t.to_buffer(static_cast<int16_t*>(dst), n); break;
        case DType::i32: t.to_buffer(static_cast<int32_t*>(dst), n); break;
        case DType::i64: t.to_buffer(static_cast<int64_t*>(dst), n); break;
        case DType::u8: t.to_buffer(static_cast<uint8_t*>(dst), n); break;
        case DType::u16: t.to_buffer(static_cast<uint16_t*>(dst), n); break;
        case DType::u32: t.to_buffer(static_cast<uint32_t*>(dst), n); break;
        case DType::u64: t.to_buffer(static_cast<uint64_t*>(dst), n); break;
        case DType::bool_: t.to_buffer(static_cast<bool*>(dst), n); break;
    }
}

py::object numpy_module() {
    static py::object np = py::module_::import("numpy");
    return np;
}

// The numpy type object of a numpy scalar kind ("integer", "floating", "bool_").
bool is_numpy_instance(py::handle h, const char* kind) { return py::isinstance(h, numpy_module().attr(kind)); }

}  // namespace

py::dtype numpy_dtype(DType t) {
    for (const DTypeName& d : kDTypes)
        if (d.dtype == t) return py::dtype(std::string(d.numpy));
    throw Error(ErrorStatus::Internal, "numpy_dtype: unknown dtype");
}

DType dtype_from_numpy(const py::dtype& dt) {
    char kind = dt.kind();
    size_t size = size_t(dt.itemsize());
    if (kind == 'b') return DType::bool_;
    if (kind == 'f') {
        if (size == 2) return DType::f16;
        if (size == 4) return DType::f32;
        if (size == 8) return DType::f64;
    }
    if (kind == 'i' || kind == 'u') {
        bool s = kind == 'i';
        if (size == 1) return s ? DType::i8 : DType::u8;
        if (size == 2) return s ? DType::i16 : DType::u16;
        if (size == 4) return s ? DType::i32 : DType::u32;
        if (size == 8) return s ? DType::i64 : DType::u64;
    }
    throw py::type_error("zyx: numpy dtype " + dt.attr("name").cast<std::string>() + " has no zyx dtype");
}

py::tuple shape_tuple(const Shape& s) {
    py::tuple t(s.size());
    for (size_t i = 0; i < s.size(); ++i) t[i] = py::int_(s[i]);
    return t;
}

std::optional<Scalar> scalar_from_py(py::handle h) {
    if (PyBool_Check(h.ptr())) return Scalar(h.ptr() == Py_True);
    if (PyLong_Check(h.ptr())) return Scalar(h.cast<int64_t>());
    if (PyFloat_Check(h.ptr())) return Scalar(h.cast<double>());
    if (py::isinstance<py::array>(h) || !py::hasattr(h, "dtype")) return std::nullopt;
    if (is_numpy_instance(h, "bool_")) return Scalar(h.cast<bool>());
    if (is_numpy_instance(h, "unsignedinteger")) return Scalar(int64_t(h.attr("item")().cast<uint64_t>()));
    if (is_numpy_instance(h, "integer")) return Scalar(h.attr("item")().cast<int64_t>());
    if (is_numpy_instance(h, "floating")) return Scalar(h.attr("item")().cast<double>());
    return std::nullopt;
}

Tensor Operand::as_tensor_like(const Tensor& like) const {
    if (tensor) return *tensor;
    auto rank = [](Scalar::Kind k) { return k == Scalar::Kind::bool_ ? 0 : k == Scalar::Kind::int_ ? 1 : 2; };
    DType t = like.dtype();
    int tensor_rank = t == DType::bool_ ? 0 : dtype_is_int(t) ? 1 : 2;
    if (rank(scalar->kind()) <= tensor_rank) return scalar_tensor(*scalar, t, like.device());
    DType d = scalar->kind() == Scalar::Kind::float_ ? DType::f32 : DType::i32;
    return scalar_tensor(*scalar, d, like.device());
}

Tensor from_numpy(py::handle obj, Device device) {
    py::array a = py::reinterpret_borrow<py::array>(obj);
    char kind = a.dtype().kind();
    if (kind == 'f' && a.dtype().itemsize() > 8) a = a.attr("astype")("float64");
    if (!(kind == 'b' || kind == 'f' || kind == 'i' || kind == 'u'))
        throw py::type_error("zyx.from_numpy: numpy dtype " + a.dtype().attr("name").cast<std::string>() +
                             " has no zyx dtype (supported: bool, int8-64, uint8-64, float16/32/64)");
    // Native byte order, C order, owned: numpy copies only when it must.
    py::dtype native = a.dtype().attr("newbyteorder")("=");
    a = a.attr("astype")(native, "order"_a = "C", "copy"_a = false);
    DType dtype = dtype_from_numpy(a.dtype());
    Shape shape(a.shape(), a.shape() + a.ndim());
    const void* data = a.data();
    size_t bytes = size_t(a.nbytes());
    py::gil_scoped_release unlocked;
    return from_bytes(data, bytes, shape, dtype, device);
}

Tensor as_tensor(py::handle obj, std::optional<DType> dtype, Device device) {
    Tensor t;
    if (py::isinstance<Tensor>(obj)) {
        t = obj.cast<Tensor>();
        if (!(t.device() == device)) t = t.to(device);
    } else if (py::hasattr(obj, "dtype") && !py::isinstance<py::array>(obj) && scalar_from_py(obj)) {
        t = from_numpy(numpy_module().attr("asarray")(obj), device);  // a numpy scalar keeps its dtype
    } else if (auto s = scalar_from_py(obj); s && !py::isinstance<py::array>(obj)) {
        return dtype ? scalar_tensor(*s, *dtype, device) : scalar_tensor(*s).to(device);
    } else if (py::isinstance<py::array>(obj)) {
        t = from_numpy(obj, device);
    } else if (py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
        py::array a;
        try {
            a = numpy_module().attr("asarray")(obj);
        } catch (const py::error_already_set& e) {
            if (!e.matches(PyExc_ValueError)) throw;
            throw py::value_error("zyx.tensor: rows of different lengths in a nested list (" +
                                  std::string(py::str(e.value())) + ")");
        }
        char kind = a.dtype().kind();
        if (kind == 'O' || kind == 'U' || kind == 'S')
            throw py::type_error("zyx.tensor: cannot make a tensor of " + py::str(obj.get_type()).cast<std::string>() +
                                 " holding non-numbers or rows of different lengths");
        if (!dtype && kind == 'f') a = a.attr("astype")("float32");
        if (!dtype && kind == 'i' && a.size() > 0) {
            int64_t lo = a.attr("min")().cast<int64_t>(), hi = a.attr("max")().cast<int64_t>();
            if (lo >= std::numeric_limits<int32_t>::min() && hi <= std::numeric_limits<int32_t>::max())
                a = a.attr("astype")("int32");
        } else if (!dtype && kind == 'i') {
            a = a.attr("astype")("int32");
        }
        t = from_numpy(a, device);
    } else {
        throw py::type_error("zyx.tensor: expected a Tensor, a number, a (nested) list or a numpy array, got " +
                             py::str(obj.get_type()).cast<std::string>());
    }
    if (dtype && t.dtype() != *dtype) t = t.cast(*dtype);
    return t;
}

py::array to_numpy(const Tensor& t) {
    if (!t.defined()) throw Error(ErrorStatus::InvalidArgument, "numpy: undefined tensor");
    py::array out(numpy_dtype(t.dtype()), std::vector<py::ssize_t>(t.shape().begin(), t.shape().end()));
    void* dst = out.mutable_data();
    read_into(t, dst);
    if (t.dtype() == DType::f16) out = out.attr("view")("float16");
    return out;
}

Shape shape_from_args(const py::args& args, const char* op) {
    py::sequence seq = args;
    if (args.size() == 1 && !PyLong_Check(args[0].ptr()) && py::isinstance<py::sequence>(args[0]))
        seq = py::reinterpret_borrow<py::sequence>(args[0]);
    Shape s;
    for (py::handle h : seq) {
        if (!PyLong_Check(h.ptr()) && !py::hasattr(h, "__index__"))
            throw py::type_error(std::string(op) + ": sizes must be integers, got " +
                                 py::str(h.get_type()).cast<std::string>());
        s.push_back(py::reinterpret_borrow<py::object>(h).attr("__index__")().cast<int64_t>());
    }
    return s;
}

std::optional<Axes> axes_from(py::handle dim) {
    if (dim.is_none()) return std::nullopt;
    if (PyLong_Check(dim.ptr())) return Axes(dim.cast<int>());
    if (py::isinstance<py::sequence>(dim)) return Axes(dim.cast<std::vector<int>>());
    throw py::type_error("dim must be None, an int or a sequence of ints, got " +
                         py::str(dim.get_type()).cast<std::string>());
}

Size2d size2d_from(py::handle h, const char* what) {
    if (PyLong_Check(h.ptr())) return Size2d(h.cast<int64_t>());
    if (py::isinstance<py::sequence>(h) && py::len(h) == 2) {
        auto v = h.cast<std::vector<int64_t>>();
        return Size2d(v[0], v[1]);
    }
    throw py::type_error(std::string(what) + " must be an int or a pair of ints");
}

}  // namespace zyx::python
