// Reductions, movement, linear algebra, functions of several tensors, creation and random
// numbers, with PyTorch's names and keywords (the elementwise ops are in ops.cpp).
#include "ops_util.hpp"

namespace zyx::python {

void bind_ops_shape(py::module_& m, py::class_<Tensor>& cls) {
    // ---- reductions ----
    REDUCE(sum);
    REDUCE(mean);
    REDUCE(prod);
    cls.def(
        "logsumexp",
        [](const Tensor& x, py::object dim, bool keepdim) {
            std::optional<Axes> axes = axes_from(dim);
            return x.logsumexp(axes ? *axes : all_axes(x), keepdim);
        },
        "dim"_a = py::none(), "keepdim"_a = false);
    cls.def(
        "_max",
        [](const Tensor& x, py::object dim, bool keepdim) {
            std::optional<Axes> axes = axes_from(dim);
            return axes ? x.max(*axes, keepdim) : keepdim ? x.max(all_axes(x), true) : x.max();
        },
        "dim"_a = py::none(), "keepdim"_a = false);
    cls.def(
        "_min",
        [](const Tensor& x, py::object dim, bool keepdim) {
            std::optional<Axes> axes = axes_from(dim);
            return axes ? x.min(*axes, keepdim) : keepdim ? x.min(all_axes(x), true) : x.min();
        },
        "dim"_a = py::none(), "keepdim"_a = false);
    cls.def(
        "var",
        [](const Tensor& x, py::object dim, py::object unbiased, bool keepdim, py::object correction) {
            std::optional<Axes> axes = axes_from(dim);
            return x.var(axes ? *axes : all_axes(x), keepdim, correction_of(unbiased, correction));
        },
        "dim"_a = py::none(), "unbiased"_a = py::none(), "keepdim"_a = false, py::kw_only(),
        "correction"_a = py::none());
    cls.def(
        "std",
        [](const Tensor& x, py::object dim, py::object unbiased, bool keepdim, py::object correction) {
            std::optional<Axes> axes = axes_from(dim);
            return x.stddev(axes ? *axes : all_axes(x), keepdim, correction_of(unbiased, correction));
        },
        "dim"_a = py::none(), "unbiased"_a = py::none(), "keepdim"_a = false, py::kw_only(),
        "correction"_a = py::none());
    cls.def(
        "argmax",
        [](const Tensor& x, std::optional<int> dim, bool keepdim) {
            return dim ? x.argmax(*dim, keepdim) : x.argmax();
        },
        "dim"_a = py::none(), "keepdim"_a = false);
    cls.def(
        "argmin",
        [](const Tensor& x, std::optional<int> dim, bool keepdim) {
            return dim ? x.argmin(*dim, keepdim) : x.argmin();
        },
        "dim"_a = py::none(), "keepdim"_a = false);
    cls.def("softmax", &Tensor::softmax, "dim"_a);
    cls.def("log_softmax", &Tensor::log_softmax, "dim"_a);

    // ---- movement ----
    cls.def("reshape", [](const Tensor& x, py::args shape) { return x.reshape(shape_from_args(shape, "reshape")); });
    cls.def("view", [](const Tensor& x, py::args shape) { return x.reshape(shape_from_args(shape, "view")); });
    cls.def("expand", [](const Tensor& x, py::args shape) { return x.expand(shape_from_args(shape, "expand")); });
    cls.def("repeat", [](const Tensor& x, py::args shape) { return x.repeat(shape_from_args(shape, "repeat")); });
    cls.def("permute", [](const Tensor& x, py::args dims) {
        Shape s = shape_from_args(dims, "permute");
        return x.permute(std::vector<int>(s.begin(), s.end()));
    });
    cls.def("flatten", &Tensor::flatten, "start_dim"_a = 0, "end_dim"_a = -1);
    cls.def("transpose", &Tensor::transpose, "dim0"_a, "dim1"_a);
    cls.def("t", [](const Tensor& x) {
        if (x.dim() > 2)
            throw py::value_error("t: expects a tensor with <= 2 dimensions, got " + std::to_string(x.dim()));
        return x.dim() < 2 ? x : x.transpose(0, 1);
    });
    cls.def_property_readonly("T", [](const Tensor& x) {
        std::vector<int> axes;
        for (int i = int(x.dim()) - 1; i >= 0; --i) axes.push_back(i);
        return x.permute(axes);
    });
    cls.def_property_readonly("mT", [](const Tensor& x) { return x.transpose(-2, -1); });
    cls.def(
        "squeeze", [](const Tensor& x, std::optional<int> dim) { return dim ? x.squeeze(*dim) : x.squeeze(); },
        "dim"_a = py::none());
    cls.def("unsqueeze", &Tensor::unsqueeze, "dim"_a);
    cls.def(
        "flip", [](const Tensor& x, py::object dims) { return x.flip(*axes_from(dims)); }, "dims"_a);
    cls.def("_pad", &Tensor::pad, "pairs"_a, "value"_a = 0.0);
    cls.def("_slice", &Tensor::slice, "dim"_a, "begin"_a, "end"_a, "step"_a);
    // Indices from Python's indexing code: an int, or a (begin, end, step) triple with step >= 1.
    cls.def("_index", [](const Tensor& x, py::list items) {
        std::vector<Index> idx;
        for (py::handle h : items) {
            if (PyLong_Check(h.ptr()))
                idx.emplace_back(h.cast<int64_t>());
            else {
                auto t = h.cast<std::tuple<int64_t, int64_t, int64_t>>();
                idx.emplace_back(Range(std::get<0>(t), std::get<1>(t), std::get<2>(t)));
            }
        }
        return x.index(idx);
    });
    cls.def(
        "split",
        [](const Tensor& x, py::object size, int dim) {
            if (PyLong_Check(size.ptr())) return x.split(size.cast<int64_t>(), dim);
            return x.split(size.cast<std::vector<int64_t>>(), dim);
        },
        "split_size_or_sections"_a, "dim"_a = 0);
    cls.def("chunk", &Tensor::chunk, "chunks"_a, "dim"_a = 0);

    // ---- linear algebra ----
    cls.def("matmul", with_tensor([](const Tensor& a, const Tensor& b) { return a.matmul(b); }), "other"_a);
    cls.def("dot", with_tensor([](const Tensor& a, const Tensor& b) { return a.dot(b); }), "other"_a);

    // ---- functions of several tensors ----
    m.def(
        "where",
        [](const Tensor& cond, const Operand& x, const Operand& y) {
            if (x.is_tensor() && y.is_tensor()) return where(cond, *x.tensor, *y.tensor);
            if (x.is_tensor()) return where(cond, *x.tensor, *y.scalar);
            if (y.is_tensor()) return where(cond, *x.scalar, *y.tensor);
            return where(cond, *x.scalar, *y.scalar);
        },
        "condition"_a, "input"_a, "other"_a);
    m.def(
        "cat", [](py::sequence ts, int dim) { return cat(tensors_from(ts), dim); }, "tensors"_a, "dim"_a = 0);
    m.def(
        "concat", [](py::sequence ts, int dim) { return cat(tensors_from(ts), dim); }, "tensors"_a, "dim"_a = 0);
    m.def(
        "stack", [](py::sequence ts, int dim) { return stack(tensors_from(ts), dim); }, "tensors"_a, "dim"_a = 0);
    m.def(
        "logaddexp", [](const Tensor& x, const Operand& y) { return logaddexp(x, y.as_tensor_like(x)); }, "input"_a,
        "other"_a);
    m.def(
        "lerp",
        [](const Tensor& start, const Tensor& end, const Operand& w) {
            return w.is_tensor() ? lerp(start, end, *w.tensor) : lerp(start, end, w.scalar->as_double());
        },
        "input"_a, "end"_a, "weight"_a);
    m.def(
        "outer", [](const Tensor& x, const Tensor& y) { return outer(x, y); }, "input"_a, "vec2"_a);
    m.def(
        "diag", [](const Tensor& x, int64_t d) { return diag(x, d); }, "input"_a, "diagonal"_a = 0);
    m.def(
        "realize",
        [](py::sequence ts) {
            std::vector<Tensor> v = tensors_from(ts);
            py::gil_scoped_release u;
            realize(v);
        },
        "tensors"_a, "Realizes several tensors in one schedule.");

    // ---- creation (the Python layer adds PyTorch's *size forms) ----
    m.def("_full", [](const Shape& s, const Operand& v, std::optional<DType> dtype, Device device) {
        if (v.is_tensor()) throw py::type_error("full: fill_value must be a number");
        DType d = dtype                                ? *dtype
            : v.scalar->kind() == Scalar::Kind::float_ ? DType::f32
            : v.scalar->kind() == Scalar::Kind::int_   ? DType::i32
                                                       : DType::bool_;
        return full(s, *v.scalar, d, device);
    });
    m.def("_arange",
          [](const Operand& start, const Operand& end, const Operand& step, std::optional<DType> dtype, Device device) {
              if (start.is_tensor() || end.is_tensor() || step.is_tensor())
                  throw py::type_error("arange: expects numbers");
              if (dtype) return arange(*start.scalar, *end.scalar, *step.scalar, *dtype, device);
              return arange(*start.scalar, *end.scalar, *step.scalar).to(device);
          });
    m.def("_linspace", [](double a, double b, int64_t n, DType d, Device dev) { return linspace(a, b, n, d, dev); });
    m.def("_eye", [](int64_t n, int64_t k, DType d, Device dev) { return eye(n, k, d, dev); });

    py::class_<Generator>(m, "Generator", "A seedable random generator (xoshiro256**).")
        .def(py::init<uint64_t>(), "seed"_a = 0)
        .def(
            "manual_seed",
            [](py::object self, uint64_t seed) {
                self.cast<Generator&>().manual_seed(seed);
                return self;
            },
            "seed"_a);
    m.def("manual_seed", &manual_seed, "seed"_a);
    m.def("default_generator", &default_generator, py::return_value_policy::reference);
    m.def("_rand", [](const Shape& s, DType d, Device dev, Generator& g) { return rand(s, d, dev, g); });
    m.def("_randn", [](const Shape& s, DType d, Device dev, Generator& g) { return randn(s, d, dev, g); });
    m.def("_randint", [](int64_t lo, int64_t hi, const Shape& s, DType d, Device dev, Generator& g) {
        return randint(lo, hi, s, d, dev, g);
    });

    m.def(
        "runtime_stats",
        [] {
            RuntimeStats s = runtime_stats();
            py::dict d;
            d["kernels"] = s.kernels;
            d["compiles"] = s.compiles;
            d["transfers"] = s.transfers;
            d["fallbacks"] = s.fallbacks;
            d["kernels_on"] = s.kernels_on;
            d["last_fallback"] = s.last_fallback;
            return d;
        },
        "What the scheduler did since start or reset_runtime_stats(), as a dict.");
    m.def("reset_runtime_stats", &reset_runtime_stats);
}

}  // namespace zyx::python
