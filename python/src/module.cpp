// The extension module _zyx; python/zyx/__init__.py re-exports it with Python conveniences.
#include "common.hpp"

PYBIND11_MODULE(_zyx, m) {
    m.doc() = "zyx: lazy tensors fused into kernels for the host CPU and Tenstorrent devices (C++ core).";
    zyx::python::bind_errors(m);
    py::class_<zyx::Tensor> cls(m, "Tensor", py::buffer_protocol(), py::dynamic_attr(),
                                "A lazy tensor: ops build a graph, reading values computes it.");
    zyx::python::bind_tensor(m, cls);
    zyx::python::bind_ops(cls);
    zyx::python::bind_ops_shape(m, cls);
    zyx::python::bind_nn(m);
    zyx::python::bind_ops_more(m, cls);
}
