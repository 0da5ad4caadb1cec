// The Tensor class itself: dtypes, devices, numpy interop (numpy(), __array__, the buffer
// protocol), properties, reading values, gradients. Conversions live in numpy.cpp.
#include "common.hpp"

namespace zyx::python {

void bind_tensor(py::module_& m, py::class_<Tensor>& cls) {
    py::enum_<DType> dtype(m, "dtype", "Element types: zyx.float32, zyx.int32, zyx.bool, …");
    for (const DTypeName& d : kDTypes) dtype.value(d.py, d.dtype);
    dtype.def_property_readonly("itemsize", [](DType t) { return dtype_size(t); })
        .def_property_readonly("is_floating_point", [](DType t) { return dtype_is_float(t); })
        .def_property_readonly("is_signed", [](DType t) { return dtype_is_float(t) || dtype_is_signed_int(t); })
        .def_property_readonly("short_name", [](DType t) { return std::string(dtype_name(t)); });
    for (const DTypeName& d : kDTypes) m.attr(d.py) = py::cast(d.dtype);

    py::class_<Device>(m, "device", "Where a tensor lives: zyx.device('host'), zyx.device('tt:0').")
        .def(py::init([](const std::string& text) { return Device::parse(text); }), "type"_a)
        .def(py::init([](const std::string& type, uint32_t index) {
                 return Device::parse(type + ":" + std::to_string(index));
             }),
             "type"_a, "index"_a)
        .def_property_readonly(
            "type",
            [](const Device& d) {
                return d.kind() == Device::Kind::tt ? "tt" : d.kind() == Device::Kind::host ? "host" : "interpreter";
            })
        .def_property_readonly("index",
                               [](const Device& d) -> py::object {
                                   if (d.kind() == Device::Kind::tt) return py::int_(d.index());
                                   return py::none();
                               })
        .def("__str__", &Device::str)
        .def("__repr__",
             [](const Device& d) {
                 if (d.kind() != Device::Kind::tt) return "device(type='" + d.str() + "')";
                 return "device(type='tt', index=" + std::to_string(d.index()) + ")";
             })
        .def("__eq__", [](const Device& a, const Device& b) { return a == b; })
        .def("__eq__", [](const Device& a, const std::string& b) { return a == Device::parse(b); })
        .def("__hash__", [](const Device& d) { return std::hash<std::string>()(d.str()); });
    py::implicitly_convertible<py::str, Device>();
    m.def("available_devices", &available_devices, "Devices that can run kernels in this process now.");

    // Conversions.
    m.def(
        "from_numpy", [](py::array a) { return from_numpy(a); }, "array"_a,
        "A tensor holding a copy of a numpy array's values, in the array's dtype.");
    m.def("_as_tensor", &as_tensor, "data"_a, "dtype"_a = py::none(), "device"_a = Device::host());
    cls.def("numpy", &to_numpy, "The values in a new numpy array (realizes; bfloat16 gives float32).")
        .def(
            "__array__",
            [](const Tensor& t, py::object dtype) {
                py::array a = to_numpy(t);
                return dtype.is_none() ? a : py::array(a.attr("astype")(dtype));
            },
            "dtype"_a = py::none())
        .def_property_readonly_static("__array_priority__", [](py::object) { return 1000; })
        .def_buffer([](Tensor& t) -> py::buffer_info {
            // The exported bytes are a host copy kept alive by the Tensor object (appended to its
            // _exports list, so every view stays valid as long as the tensor).
            py::array a = to_numpy(t);
            py::object self = py::cast(&t, py::return_value_policy::reference);
            if (!py::hasattr(self, "_exports")) self.attr("_exports") = py::list();
            self.attr("_exports").attr("append")(a);
            py::buffer_info info = a.request();
            info.readonly = true;
            return info;
        });

    // Properties.
    cls.def_property_readonly("shape", [](const Tensor& t) { return shape_tuple(t.shape()); })
        .def_property_readonly("dtype", &Tensor::dtype)
        .def_property_readonly("device", &Tensor::device)
        .def_property_readonly("ndim", &Tensor::dim)
        .def_property_readonly("is_realized", &Tensor::is_realized)
        .def("dim", &Tensor::dim)
        .def("numel", &Tensor::numel)
        .def(
            "size",
            [](const Tensor& t, py::object dim) -> py::object {
                if (dim.is_none()) return shape_tuple(t.shape());
                return py::int_(t.size(dim.cast<int>()));
            },
            "dim"_a = py::none())
        .def("element_size", [](const Tensor& t) { return dtype_size(t.dtype()); })
        .def("is_floating_point", [](const Tensor& t) { return dtype_is_float(t.dtype()); })
        .def("__len__",
             [](const Tensor& t) {
                 if (t.dim() == 0) throw py::type_error("len() of a 0-d tensor");
                 return t.size(0);
             })
        .def("__hash__", [](const Tensor& t) { return std::hash<const void*>()(t.node().get()); });

    // Reading values; these realize without the GIL.
    cls.def("item",
            [](const Tensor& t) -> py::object {
                DType d = t.dtype();
                if (d == DType::bool_) {
                    bool v;
                    {
                        py::gil_scoped_release u;
                        v = t.item<bool>();
                    }
                    return py::bool_(v);
                }
                if (dtype_is_float(d)) {
                    double v;
                    {
                        py::gil_scoped_release u;
                        v = t.item<double>();
                    }
                    return py::float_(v);
                }
                if (d == DType::u64) {
                    uint64_t v;
                    {
                        py::gil_scoped_release u;
                        v = t.item<uint64_t>();
                    }
                    return py::int_(v);
                }
                int64_t v;
                {
                    py::gil_scoped_release u;
                    v = t.item<int64_t>();
                }
                return py::int_(v);
            })
        .def("tolist", [](const Tensor& t) { return to_numpy(t).attr("tolist")(); })
        .def("_to_string", &Tensor::to_string, py::call_guard<py::gil_scoped_release>())
        .def("realize",
             [](py::object self) {
                 const Tensor& t = self.cast<const Tensor&>();
                 {
                     py::gil_scoped_release u;
                     t.realize();
                 }
                 return self;
             })
        .def("contiguous", &Tensor::contiguous)
        .def(
            "_to_device", [](const Tensor& t, Device d) { return t.to(d); }, "device"_a)
        .def("cast", &Tensor::cast, "dtype"_a)
        .def("bitcast", &Tensor::bitcast, "dtype"_a);

    // Gradients.
    cls.def(
           "requires_grad_",
           [](py::object self, bool on) {
               Tensor& t = self.cast<Tensor&>();
               {
                   py::gil_scoped_release u;
                   t.requires_grad_(on);
               }
               return self;
           },
           "requires_grad"_a = true)
        .def_property("requires_grad", &Tensor::requires_grad,
                      [](Tensor& t, bool on) {
                          py::gil_scoped_release u;
                          t.requires_grad_(on);
                      })
        .def_property(
            "grad",
            [](const Tensor& t) -> py::object {
                Tensor g = t.grad();
                return g.defined() ? py::cast(g) : py::none();
            },
            [](const Tensor& t, py::object g) {
                if (!g.is_none())
                    throw Error(ErrorStatus::Unsupported, "Unsupported: setting .grad to a tensor (only None)");
                t.zero_grad();
            })
        .def(
            "backward",
            [](const Tensor& t, std::optional<Tensor> gradient) {
                py::gil_scoped_release u;
                if (gradient)
                    t.backward(*gradient);
                else
                    t.backward();
            },
            "gradient"_a = py::none())
        .def("zero_grad", &Tensor::zero_grad)
        .def("detach", &Tensor::detach)
        .def("assign", &Tensor::assign, "value"_a, py::call_guard<py::gil_scoped_release>());

    struct NoGrad {
        std::unique_ptr<NoGradGuard> guard;
    };
    py::class_<NoGrad>(m, "no_grad", "Context manager: ops inside record no gradient history (this thread).")
        .def(py::init<>())
        .def("__enter__", [](NoGrad& g) { g.guard = std::make_unique<NoGradGuard>(); })
        .def("__exit__", [](NoGrad& g, py::args) { g.guard.reset(); });
}

}  // namespace zyx::python
