// The C++ API's second wave, bound with PyTorch's names and keywords: hyperbolic and inverse
// trigonometric functions, scans and orderings, in-place ops, indexing with tensors and assignment
// through indexing, gather / scatter, einsum, and torch.nn.functional's functions with their options.
#include "ops_util.hpp"

namespace zyx::python {

namespace {

// Indices from Python's indexing code: an int, a (begin, end, step) triple with step >= 1, or a
// tensor (integer positions or a bool mask).
std::vector<Index> indices_from(py::list items) {
    std::vector<Index> idx;
    for (py::handle h : items) {
        if (PyLong_Check(h.ptr()))
            idx.emplace_back(h.cast<int64_t>());
        else if (py::isinstance<Tensor>(h))
            idx.emplace_back(h.cast<const Tensor&>());
        else {
            auto t = h.cast<std::tuple<int64_t, int64_t, int64_t>>();
            idx.emplace_back(Range(std::get<0>(t), std::get<1>(t), std::get<2>(t)));
        }
    }
    return idx;
}

Reduction reduction_from(const std::string& r) {
    if (r == "mean") return Reduction::mean;
    if (r == "sum") return Reduction::sum;
    if (r == "none") return Reduction::none;
    if (r == "batchmean") return Reduction::batchmean;
    throw py::value_error("reduction must be 'mean', 'sum', 'none' (or 'batchmean' for kl_div), not '" + r + "'");
}

Tensor optional_tensor(py::object o) { return o.is_none() ? Tensor() : o.cast<Tensor>(); }

py::tuple pair(const ValuesIndices& r) { return py::make_tuple(r.values, r.indices); }

// x op= y on the tensor object itself: every Python reference to it sees the new value.
template <class F>
auto in_place(F f) {
    return [f](py::object self, const Operand& y) {
        Tensor& x = self.cast<Tensor&>();
        if (y.is_tensor())
            f(x, *y.tensor);
        else
            f(x, *y.scalar);
        return self;
    };
}

}  // namespace

void bind_ops_more(py::module_& m, py::class_<Tensor>& cls) {
    // ---- elementwise ----
    UNARY(sinh);
    UNARY(cosh);
    UNARY(asinh);
    UNARY(acosh);
    UNARY(atanh);
    UNARY(asin);
    UNARY(acos);
    UNARY(atan);
    BINARY(atan2);  // numpy's arcsin … arctan2: zyx/__init__.py
    cls.def(
        "masked_fill",
        [](const Tensor& x, const Tensor& mask, const Operand& v) {
            return v.is_tensor() ? x.masked_fill(mask, *v.tensor) : x.masked_fill(mask, *v.scalar);
        },
        "mask"_a, "value"_a);

    // ---- in-place (zyx: the handle is rebound; tensor.hpp, "in-place ops") ----
    cls.def("__iadd__", in_place([](Tensor& x, const auto& y) { x += y; }));
    cls.def("__isub__", in_place([](Tensor& x, const auto& y) { x -= y; }));
    cls.def("__imul__", in_place([](Tensor& x, const auto& y) { x *= y; }));
    cls.def("__itruediv__", in_place([](Tensor& x, const auto& y) { x /= y; }));
    cls.def(
        "add_",
        [](py::object self, const Operand& y, const Operand& alpha_in) {
            if (alpha_in.is_tensor()) throw py::type_error("add_: alpha must be a number");
            const Scalar alpha = *alpha_in.scalar;
            Tensor& x = self.cast<Tensor&>();
            if (y.is_tensor())
                x.add_(*y.tensor, alpha);
            else
                x.add_(*y.scalar, alpha);
            return self;
        },
        "other"_a, py::kw_only(), "alpha"_a = 1);
    cls.def(
        "sub_",
        [](py::object self, const Operand& y, const Operand& alpha_in) {
            if (alpha_in.is_tensor()) throw py::type_error("sub_: alpha must be a number");
            const Scalar alpha = *alpha_in.scalar;
            Tensor& x = self.cast<Tensor&>();
            if (y.is_tensor())
                x.sub_(*y.tensor, alpha);
            else
                x.sub_(*y.scalar, alpha);
            return self;
        },
        "other"_a, py::kw_only(), "alpha"_a = 1);
    cls.def("mul_", in_place([](Tensor& x, const auto& y) { x.mul_(y); }), "other"_a);
    cls.def("div_", in_place([](Tensor& x, const auto& y) { x.div_(y); }), "other"_a);
    cls.def("fill_", in_place([](Tensor& x, const auto& y) { x.fill_(y); }), "value"_a);
    cls.def(
        "masked_fill_",
        [](py::object self, const Tensor& mask, const Operand& v) {
            Tensor& x = self.cast<Tensor&>();
            if (v.is_tensor())
                x.masked_fill_(mask, *v.tensor);
            else
                x.masked_fill_(mask, *v.scalar);
            return self;
        },
        "mask"_a, "value"_a);
    cls.def("zero_", [](py::object self) {
        self.cast<Tensor&>().zero_();
        return self;
    });
    cls.def(
        "copy_",
        [](py::object self, const Tensor& src) {
            self.cast<Tensor&>().copy_(src);
            return self;
        },
        "src"_a);

    // ---- reductions, scans, orderings ----
    REDUCE(all);
    REDUCE(any);
    cls.def(
        "count_nonzero",
        [](const Tensor& x, py::object dim) {
            std::optional<Axes> axes = axes_from(dim);
            return axes ? x.count_nonzero(*axes) : x.count_nonzero();
        },
        "dim"_a = py::none());
    cls.def("cumsum", &Tensor::cumsum, "dim"_a);
    cls.def("cumprod", &Tensor::cumprod, "dim"_a);
    cls.def(
        "norm",
        [](const Tensor& x, py::object p, py::object dim, bool keepdim) {
            std::optional<Axes> axes = axes_from(dim);
            if (py::isinstance<py::str>(p)) {
                std::string s = p.cast<std::string>();
                return axes ? x.norm(s, *axes, keepdim) : x.norm(s);
            }
            double v = p.is_none() ? 2.0 : p.cast<double>();
            return axes ? x.norm(v, *axes, keepdim) : x.norm(v);
        },
        "p"_a = "fro", "dim"_a = py::none(), "keepdim"_a = false);
    cls.def(
        "sort", [](const Tensor& x, int dim, bool descending) { return pair(x.sort(dim, descending)); }, "dim"_a = -1,
        "descending"_a = false);
    cls.def("argsort", &Tensor::argsort, "dim"_a = -1, "descending"_a = false);
    cls.def(
        "topk",
        [](const Tensor& x, int64_t k, int dim, bool largest, bool sorted) {
            return pair(x.topk(k, dim, largest, sorted));
        },
        "k"_a, "dim"_a = -1, "largest"_a = true, "sorted"_a = true);
    cls.def(
        "median",
        [](const Tensor& x, std::optional<int> dim, bool keepdim) -> py::object {
            if (!dim) return py::cast(x.median());
            return pair(x.median(*dim, keepdim));
        },
        "dim"_a = py::none(), "keepdim"_a = false);

    // ---- indexing with tensors, assignment ----
    cls.def("_index_adv", [](const Tensor& x, py::list items) { return x.index(indices_from(items)); });
    cls.def("_index_put_", [](py::object self, py::list items, const Operand& v, bool accumulate) {
        Tensor& x = self.cast<Tensor&>();
        std::vector<Index> idx = indices_from(items);
        if (v.is_tensor())
            x.index_put_(idx, *v.tensor, accumulate);
        else if (accumulate)
            x.index_put_(idx, v.as_tensor_like(x), true);
        else
            x.index_put_(idx, *v.scalar);
        return self;
    });
    cls.def("gather", &Tensor::gather, "dim"_a, "index"_a);
    cls.def(
        "scatter",
        [](const Tensor& x, int dim, const Tensor& index, const Operand& src) {
            return src.is_tensor() ? x.scatter(dim, index, *src.tensor) : x.scatter(dim, index, *src.scalar);
        },
        "dim"_a, "index"_a, "src"_a);
    cls.def("scatter_add", &Tensor::scatter_add, "dim"_a, "index"_a, "src"_a);
    cls.def("index_select", &Tensor::index_select, "dim"_a, "index"_a);
    cls.def("take_along_dim", &Tensor::take_along_dim, "indices"_a, "dim"_a = py::none());
    cls.def("nonzero", &Tensor::nonzero);
    cls.def("masked_select", &Tensor::masked_select, "mask"_a);
    cls.def("clone", &Tensor::clone);
    cls.def("type_as", &Tensor::type_as, "other"_a);
    cls.def("expand_as", &Tensor::expand_as, "other"_a);

    m.def(
        "einsum", [](const std::string& eq, py::args operands) { return einsum(eq, tensors_from(operands)); },
        "equation"_a);

    // ---- torch.nn.functional ----
    py::module_ f = m.attr("_functional").cast<py::module_>();
    f.def(
        "linear", [](const Tensor& x, const Tensor& w, py::object b) { return linear(x, w, optional_tensor(b)); },
        "input"_a, "weight"_a, "bias"_a = py::none());
    f.def(
        "conv1d",
        [](const Tensor& x, const Tensor& w, py::object b, int64_t stride, int64_t padding, int64_t dilation,
           int64_t groups) {
            return conv1d(x, w, optional_tensor(b),
                          {.stride = stride, .padding = padding, .dilation = dilation, .groups = groups});
        },
        "input"_a, "weight"_a, "bias"_a = py::none(), "stride"_a = 1, "padding"_a = 0, "dilation"_a = 1,
        "groups"_a = 1);
    f.def(
        "nll_loss",
        [](const Tensor& x, const Tensor& t, py::object w, int64_t ignore_index, const std::string& r) {
            return nll_loss(
                x, t, {.weight = optional_tensor(w), .ignore_index = ignore_index, .reduction = reduction_from(r)});
        },
        "input"_a, "target"_a, "weight"_a = py::none(), "ignore_index"_a = -100, "reduction"_a = "mean");
    f.def(
        "cross_entropy",
        [](const Tensor& x, const Tensor& t, py::object w, int64_t ignore_index, const std::string& r,
           double smoothing) {
            return cross_entropy(x, t,
                                 CrossEntropyOptions{.weight = optional_tensor(w),
                                                     .ignore_index = ignore_index,
                                                     .reduction = reduction_from(r),
                                                     .label_smoothing = smoothing});
        },
        "input"_a, "target"_a, "weight"_a = py::none(), "ignore_index"_a = -100, "reduction"_a = "mean",
        "label_smoothing"_a = 0.0);
    f.def(
        "binary_cross_entropy",
        [](const Tensor& p, const Tensor& y, py::object w, const std::string& r) {
            return binary_cross_entropy(p, y, optional_tensor(w), reduction_from(r));
        },
        "input"_a, "target"_a, "weight"_a = py::none(), "reduction"_a = "mean");
    f.def(
        "binary_cross_entropy_with_logits",
        [](const Tensor& x, const Tensor& y, py::object w, const std::string& r, py::object pw) {
            return binary_cross_entropy_with_logits(x, y, optional_tensor(w), optional_tensor(pw), reduction_from(r));
        },
        "input"_a, "target"_a, "weight"_a = py::none(), "reduction"_a = "mean", "pos_weight"_a = py::none());
    f.def(
        "mse_loss",
        [](const Tensor& x, const Tensor& y, const std::string& r) { return mse_loss(x, y, reduction_from(r)); },
        "input"_a, "target"_a, "reduction"_a = "mean");
    f.def(
        "l1_loss",
        [](const Tensor& x, const Tensor& y, const std::string& r) { return l1_loss(x, y, reduction_from(r)); },
        "input"_a, "target"_a, "reduction"_a = "mean");
    f.def(
        "smooth_l1_loss",
        [](const Tensor& x, const Tensor& y, const std::string& r, double beta) {
            return smooth_l1_loss(x, y, reduction_from(r), beta);
        },
        "input"_a, "target"_a, "reduction"_a = "mean", "beta"_a = 1.0);
    f.def(
        "kl_div",
        [](const Tensor& x, const Tensor& y, const std::string& r, bool log_target) {
            return kl_div(x, y, reduction_from(r), log_target);
        },
        "input"_a, "target"_a, "reduction"_a = "mean", "log_target"_a = false);
    f.def(
        "group_norm",
        [](const Tensor& x, int64_t g, py::object w, py::object b, double eps) {
            return group_norm(x, g, optional_tensor(w), optional_tensor(b), eps);
        },
        "input"_a, "num_groups"_a, "weight"_a = py::none(), "bias"_a = py::none(), "eps"_a = 1e-5);
    f.def(
        "batch_norm",
        [](const Tensor& x, py::object rm, py::object rv, py::object w, py::object b, bool training, double momentum,
           double eps) {
            return batch_norm(x, optional_tensor(rm), optional_tensor(rv), optional_tensor(w), optional_tensor(b),
                              training, momentum, eps);
        },
        "input"_a, "running_mean"_a, "running_var"_a, "weight"_a = py::none(), "bias"_a = py::none(),
        "training"_a = false, "momentum"_a = 0.1, "eps"_a = 1e-5);
    f.def(
        "adaptive_avg_pool2d",
        [](const Tensor& x, py::object size) {
            if (PyLong_Check(size.ptr())) return adaptive_avg_pool2d(x, size.cast<int64_t>());
            auto s = size.cast<std::pair<int64_t, int64_t>>();
            return adaptive_avg_pool2d(x, {s.first, s.second});
        },
        "input"_a, "output_size"_a);
    f.def(
        "adaptive_max_pool2d",
        [](const Tensor& x, py::object size) {
            if (PyLong_Check(size.ptr())) return adaptive_max_pool2d(x, size.cast<int64_t>());
            auto s = size.cast<std::pair<int64_t, int64_t>>();
            return adaptive_max_pool2d(x, {s.first, s.second});
        },
        "input"_a, "output_size"_a);
}

}  // namespace zyx::python
