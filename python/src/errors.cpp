// zyx::Error as Python exceptions: zyx.Error(Exception) and one subclass per ErrorStatus, each
// also deriving from the builtin exception a Python user would catch for that category.
#include <array>
#include <cstring>
#include <string_view>

#include "common.hpp"

namespace zyx::python {
namespace {

struct Category {
    ErrorStatus status;
    const char* name;   // Python class name
    PyObject* builtin;  // second base (besides zyx.Error)
};

// Classes created by bind_errors, indexed by ErrorStatus; plus the two refinements of
// InvalidArgument below. They live as long as the module (held in its namespace).
std::array<PyObject*, 18> g_classes{};
PyObject* g_index_error = nullptr;  // InvalidArgument about a position or axis out of range
PyObject* g_dtype_error = nullptr;  // InvalidArgument about an operand's dtype

bool mentions(const std::string& text, std::initializer_list<const char*> words) {
    for (const char* w : words)
        if (text.find(w) != std::string::npos) return true;
    return false;
}

PyObject* class_for(const Error& e) {
    if (e.status() == ErrorStatus::InvalidArgument) {
        const std::string& msg = e.message();
        if (mentions(msg, {"out of range", "out of bounds"})) return g_index_error;
        if (mentions(msg,
                     {"dtype", "not defined on bool", "needs integer", "needs an integer", "must be bool",
                      "needs a float", "needs float"}))
            return g_dtype_error;
    }
    size_t i = size_t(e.status());
    return i < g_classes.size() && g_classes[i] ? g_classes[i] : g_classes[size_t(ErrorStatus::Internal)];
}

py::object make_class(py::module_& m, const char* name, py::tuple bases, const char* doc) {
    py::dict ns;
    ns["__module__"] = "zyx";
    ns["__doc__"] = doc;
    py::object cls = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyType_Type))(name, bases, ns);
    m.attr(name) = cls;
    return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
    py::object base = make_class(m, "Error", py::make_tuple(py::reinterpret_borrow<py::object>(PyExc_Exception)),
                                 "Base of every error zyx raises; `status` names its category.");
    const Category categories[] = {
        {ErrorStatus::Initialization, "InitializationError", PyExc_RuntimeError},
        {ErrorStatus::Deinitialization, "DeinitializationError", PyExc_RuntimeError},
        {ErrorStatus::MemoryAllocation, "MemoryAllocationError", PyExc_RuntimeError},
        {ErrorStatus::MemoryDeallocation, "MemoryDeallocationError", PyExc_RuntimeError},
        {ErrorStatus::MemoryCopyH2P, "MemoryCopyH2PError", PyExc_RuntimeError},
        {ErrorStatus::MemoryCopyP2H, "MemoryCopyP2HError", PyExc_RuntimeError},
        {ErrorStatus::KernelCompilation, "KernelCompilationError", PyExc_RuntimeError},
        {ErrorStatus::KernelLaunch, "KernelLaunchError", PyExc_RuntimeError},
        {ErrorStatus::KernelFault, "KernelFaultError", PyExc_RuntimeError},
        {ErrorStatus::Deadlock, "DeadlockError", PyExc_RuntimeError},
        {ErrorStatus::Unsupported, "UnsupportedError", PyExc_NotImplementedError},
        {ErrorStatus::InvalidArgument, "InvalidArgumentError", PyExc_ValueError},
        {ErrorStatus::DeviceBusy, "DeviceBusyError", PyExc_RuntimeError},
        {ErrorStatus::Timeout, "TimeoutError", PyExc_TimeoutError},
        {ErrorStatus::RuntimeCrashed, "RuntimeCrashedError", PyExc_RuntimeError},
        {ErrorStatus::Protocol, "ProtocolError", PyExc_RuntimeError},
        {ErrorStatus::Io, "IoError", PyExc_OSError},
        {ErrorStatus::Internal, "InternalError", PyExc_RuntimeError},
    };
    for (const Category& c : categories) {
        std::string doc = "zyx error of status '" + std::string(error_status_name(c.status)) + "'.";
        py::object cls =
            make_class(m, c.name, py::make_tuple(base, py::reinterpret_borrow<py::object>(c.builtin)), doc.c_str());
        cls.attr("status") = std::string(error_status_name(c.status));
        g_classes[size_t(c.status)] = cls.ptr();
    }
    py::object invalid = py::reinterpret_borrow<py::object>(g_classes[size_t(ErrorStatus::InvalidArgument)]);
    py::object index_error = make_class(
        m, "IndexOutOfRangeError", py::make_tuple(invalid, py::reinterpret_borrow<py::object>(PyExc_IndexError)),
        "An invalid argument that is a position or axis out of range (also an IndexError).");
    py::object dtype_error =
        make_class(m, "DTypeError", py::make_tuple(invalid, py::reinterpret_borrow<py::object>(PyExc_TypeError)),
                   "An invalid argument that is an operand of the wrong dtype (also a TypeError).");
    g_index_error = index_error.ptr();
    g_dtype_error = dtype_error.ptr();

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Error& e) { PyErr_SetString(class_for(e), e.message().c_str()); }
    });
}

}  // namespace zyx::python
