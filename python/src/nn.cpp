// zyx.nn (layers and functions), zyx.optim (optimisers, schedulers), zyx.data (IDX files,
// Fashion-MNIST, DataLoader) and safetensors checkpoints. The Python package wraps the layers
// in its own Module class (python/zyx/nn/__init__.py) so Python modules can nest them.
#include "zyx/checkpoint.hpp"
#include "zyx/data.hpp"
#include "zyx/nn.hpp"
#include "zyx/optim.hpp"

#include "common.hpp"

namespace zyx::python {
namespace {

std::vector<Tensor> tensor_list(py::handle seq) {
    std::vector<Tensor> out;
    for (py::handle h : py::iter(seq)) {
        if (!py::isinstance<Tensor>(h))
            throw py::type_error("expected an iterable of Tensors, got an element of type " +
                                 py::str(h.get_type()).cast<std::string>());
        out.push_back(h.cast<Tensor>());
    }
    return out;
}

Tensor or_undefined(const std::optional<Tensor>& t) { return t ? *t : Tensor(); }

Generator& gen_or_default(Generator* g) { return g ? *g : default_generator(); }

// A layer's tensor member as a property: None when the layer has none (Linear without bias).
template <class M>
auto member(Tensor M::*field) {
    return [field](const M& m) -> py::object {
        const Tensor& t = m.*field;
        if (!t.defined()) return py::none();
        return py::cast(t);
    };
}

void bind_functional(py::module_& f) {
    f.def(
        "conv2d",
        [](const Tensor& x, const Tensor& w, std::optional<Tensor> b, py::object stride, py::object padding,
           py::object dilation, int64_t groups) {
            Conv2dOptions o;
            o.stride = size2d_from(stride, "conv2d: stride");
            o.padding = size2d_from(padding, "conv2d: padding");
            o.dilation = size2d_from(dilation, "conv2d: dilation");
            o.groups = groups;
            return conv2d(x, w, or_undefined(b), o);
        },
        "input"_a, "weight"_a, "bias"_a = py::none(), "stride"_a = 1, "padding"_a = 0, "dilation"_a = 1,
        "groups"_a = 1);
    // Pooling with PyTorch's keywords. return_indices has no C++ counterpart yet: asking for it
    // raises NotImplementedError rather than returning something else.
    f.def(
        "max_pool2d",
        [](const Tensor& x, py::object k, py::object stride, py::object padding, py::object dilation, bool ceil_mode,
           bool return_indices) {
            if (return_indices)
                throw Error(ErrorStatus::Unsupported,
                            "Unsupported: max_pool2d(return_indices=True): the pooled "
                            "positions are not computed; use max_pool2d's values");
            Pool2dOptions o;
            o.stride = stride.is_none() ? Size2d(0) : size2d_from(stride, "max_pool2d: stride");
            o.padding = size2d_from(padding, "max_pool2d: padding");
            o.dilation = size2d_from(dilation, "max_pool2d: dilation");
            o.ceil_mode = ceil_mode;
            return max_pool2d(x, size2d_from(k, "max_pool2d: kernel_size"), o);
        },
        "input"_a, "kernel_size"_a, "stride"_a = py::none(), "padding"_a = 0, "dilation"_a = 1, "ceil_mode"_a = false,
        "return_indices"_a = false);
    f.def(
        "avg_pool2d",
        [](const Tensor& x, py::object k, py::object stride, py::object padding, bool ceil_mode, bool count_include_pad,
           std::optional<int64_t> divisor_override) {
            Pool2dOptions o;
            o.stride = stride.is_none() ? Size2d(0) : size2d_from(stride, "avg_pool2d: stride");
            o.padding = size2d_from(padding, "avg_pool2d: padding");
            o.ceil_mode = ceil_mode;
            o.count_include_pad = count_include_pad;
            if (divisor_override) {
                if (*divisor_override <= 0)
                    throw Error(
                        ErrorStatus::InvalidArgument,
                        "avg_pool2d: divisor_override must be positive, got " + std::to_string(*divisor_override));
                o.divisor_override = *divisor_override;
            }
            return avg_pool2d(x, size2d_from(k, "avg_pool2d: kernel_size"), o);
        },
        "input"_a, "kernel_size"_a, "stride"_a = py::none(), "padding"_a = 0, "ceil_mode"_a = false,
        "count_include_pad"_a = true, "divisor_override"_a = py::none());
    f.def(
        "conv_transpose2d",
        [](const Tensor& x, const Tensor& w, std::optional<Tensor> b, py::object stride, py::object padding,
           py::object output_padding, int64_t groups, py::object dilation) {
            ConvTranspose2dOptions o;
            o.stride = size2d_from(stride, "conv_transpose2d: stride");
            o.padding = size2d_from(padding, "conv_transpose2d: padding");
            o.output_padding = size2d_from(output_padding, "conv_transpose2d: output_padding");
            o.groups = groups;
            o.dilation = size2d_from(dilation, "conv_transpose2d: dilation");
            return conv_transpose2d(x, w, or_undefined(b), o);
        },
        "input"_a, "weight"_a, "bias"_a = py::none(), "stride"_a = 1, "padding"_a = 0, "output_padding"_a = 0,
        "groups"_a = 1, "dilation"_a = 1);
    // size and scale_factor: a number or a pair, exactly one of them (C++ interpolate checks).
    f.def(
        "interpolate",
        [](const Tensor& x, py::object size, py::object scale_factor, const std::string& mode,
           std::optional<bool> align_corners) {
            InterpolateOptions o;
            if (!size.is_none()) o.size = size2d_from(size, "interpolate: size");
            if (!scale_factor.is_none()) {
                if (PyFloat_Check(scale_factor.ptr()) || PyLong_Check(scale_factor.ptr())) {
                    double s = scale_factor.cast<double>();
                    o.scale_factor = std::make_pair(s, s);
                } else {
                    o.scale_factor = scale_factor.cast<std::pair<double, double>>();
                }
            }
            o.mode = mode;
            if (align_corners) {
                if (mode == "nearest")
                    throw Error(ErrorStatus::InvalidArgument,
                                "interpolate: align_corners can only be set with mode 'bilinear' (mode is 'nearest')");
                o.align_corners = *align_corners;
            }
            return interpolate(x, o);
        },
        "input"_a, "size"_a = py::none(), "scale_factor"_a = py::none(), "mode"_a = "nearest",
        "align_corners"_a = py::none());
    f.def(
        "layer_norm",
        [](const Tensor& x, py::object shape, std::optional<Tensor> w, std::optional<Tensor> b, double eps) {
            Shape s = PyLong_Check(shape.ptr()) ? Shape{shape.cast<int64_t>()} : shape.cast<Shape>();
            return layer_norm(x, s, or_undefined(w), or_undefined(b), eps);
        },
        "input"_a, "normalized_shape"_a, "weight"_a = py::none(), "bias"_a = py::none(), "eps"_a = 1e-5);
    f.def(
        "cross_entropy", [](const Tensor& x, const Tensor& t) { return cross_entropy(x, t); }, "input"_a, "target"_a);
    f.def(
        "mse_loss", [](const Tensor& x, const Tensor& t) { return mse_loss(x, t); }, "input"_a, "target"_a);
}

void bind_layers(py::module_& n) {
    using namespace zyx::nn;
    py::class_<Module, std::shared_ptr<Module>>(n, "Module", "A C++ layer (wrapped by zyx.nn's Python classes).")
        .def(
            "forward", [](Module& mod, const Tensor& x) { return mod.forward(x); }, "input"_a)
        .def("named_parameters", &Module::named_parameters)
        .def("named_buffers", &Module::named_buffers)
        .def("parameters", &Module::parameters)
        .def("train", &Module::train, "mode"_a = true)
        .def("eval", &Module::eval)
        .def_property_readonly("training", &Module::training)
        .def("to", &Module::to, "device"_a, py::call_guard<py::gil_scoped_release>())
        .def("zero_grad", &Module::zero_grad);

    py::class_<Linear, Module, std::shared_ptr<Linear>>(n, "Linear")
        .def(py::init([](int64_t in, int64_t out, bool bias, Generator* g) {
                 return std::make_shared<Linear>(in, out, bias, gen_or_default(g));
             }),
             "in_features"_a, "out_features"_a, "bias"_a = true, "generator"_a = nullptr)
        .def_property_readonly("weight", member(&Linear::weight))
        .def_property_readonly("bias", member(&Linear::bias));
    py::class_<Conv2d, Module, std::shared_ptr<Conv2d>>(n, "Conv2d")
        .def(py::init([](int64_t in, int64_t out, py::object k, py::object stride, py::object padding,
                         py::object dilation, int64_t groups, bool bias, Generator* g) {
                 Conv2dOptions o;
                 o.stride = size2d_from(stride, "Conv2d: stride");
                 o.padding = size2d_from(padding, "Conv2d: padding");
                 o.dilation = size2d_from(dilation, "Conv2d: dilation");
                 o.groups = groups;
                 return std::make_shared<Conv2d>(in, out, size2d_from(k, "Conv2d: kernel_size"), o, bias,
                                                 gen_or_default(g));
             }),
             "in_channels"_a, "out_channels"_a, "kernel_size"_a, "stride"_a = 1, "padding"_a = 0, "dilation"_a = 1,
             "groups"_a = 1, "bias"_a = true, "generator"_a = nullptr)
        .def_property_readonly("weight", member(&Conv2d::weight))
        .def_property_readonly("bias", member(&Conv2d::bias));
    py::class_<LayerNorm, Module, std::shared_ptr<LayerNorm>>(n, "LayerNorm")
        .def(py::init([](py::object shape, double eps) {
                 Shape s = PyLong_Check(shape.ptr()) ? Shape{shape.cast<int64_t>()} : shape.cast<Shape>();
                 return std::make_shared<LayerNorm>(s, eps);
             }),
             "normalized_shape"_a, "eps"_a = 1e-5)
        .def_property_readonly("weight", member(&LayerNorm::weight))
        .def_property_readonly("bias", member(&LayerNorm::bias));
    py::class_<BatchNorm2d, Module, std::shared_ptr<BatchNorm2d>>(n, "BatchNorm2d")
        .def(py::init<int64_t, double, double>(), "num_features"_a, "eps"_a = 1e-5, "momentum"_a = 0.1)
        .def_property_readonly("weight", member(&BatchNorm2d::weight))
        .def_property_readonly("bias", member(&BatchNorm2d::bias))
        .def_property_readonly("running_mean", member(&BatchNorm2d::running_mean))
        .def_property_readonly("running_var", member(&BatchNorm2d::running_var));
    py::class_<Embedding, Module, std::shared_ptr<Embedding>>(n, "Embedding")
        .def(py::init([](int64_t num, int64_t dim, Generator* g) {
                 return std::make_shared<Embedding>(num, dim, gen_or_default(g));
             }),
             "num_embeddings"_a, "embedding_dim"_a, "generator"_a = nullptr)
        .def_property_readonly("weight", member(&Embedding::weight));
    py::class_<Dropout, Module, std::shared_ptr<Dropout>>(n, "Dropout")
        .def(py::init([](double p, Generator* g) { return std::make_shared<Dropout>(p, gen_or_default(g)); }),
             "p"_a = 0.5, "generator"_a = nullptr, py::keep_alive<1, 3>());
}

void bind_optim(py::module_& o) {
    using namespace zyx::optim;
    py::class_<Optimizer>(o, "Optimizer")
        .def("step", &Optimizer::step, py::call_guard<py::gil_scoped_release>())
        .def("zero_grad", &Optimizer::zero_grad)
        .def_property("lr", &Optimizer::lr, &Optimizer::set_lr)
        .def_property_readonly("params", &Optimizer::params)
        .def_property_readonly("name", &Optimizer::name);
    py::class_<SGD, Optimizer>(o, "SGD").def(
        py::init([](py::object params, double lr, double momentum, double dampening, double wd, bool nesterov) {
            return new SGD(tensor_list(params), lr, momentum, dampening, wd, nesterov);
        }),
        "params"_a, "lr"_a, "momentum"_a = 0.0, "dampening"_a = 0.0, "weight_decay"_a = 0.0, "nesterov"_a = false);
    py::class_<Adam, Optimizer>(o, "Adam")
        .def(py::init([](py::object params, double lr, std::pair<double, double> betas, double eps, double wd) {
                 return new Adam(tensor_list(params), lr, betas.first, betas.second, eps, wd);
             }),
             "params"_a, "lr"_a = 1e-3, "betas"_a = std::make_pair(0.9, 0.999), "eps"_a = 1e-8, "weight_decay"_a = 0.0)
        .def("steps", &Adam::steps, "index"_a);
    py::class_<AdamW, Adam>(o, "AdamW")
        .def(py::init([](py::object params, double lr, std::pair<double, double> betas, double eps, double wd) {
                 return new AdamW(tensor_list(params), lr, betas.first, betas.second, eps, wd);
             }),
             "params"_a, "lr"_a = 1e-3, "betas"_a = std::make_pair(0.9, 0.999), "eps"_a = 1e-8,
             "weight_decay"_a = 1e-2);

    py::class_<LRScheduler>(o, "LRScheduler")
        .def("step", &LRScheduler::step)
        .def("get_last_lr", [](const LRScheduler& s) { return std::vector<double>{s.last_lr()}; })
        .def_property_readonly("last_epoch", &LRScheduler::last_epoch)
        .def_property_readonly("base_lr", &LRScheduler::base_lr)
        .def("lr_at", &LRScheduler::lr_at, "epoch"_a);
    py::class_<StepLR, LRScheduler>(o, "StepLR")
        .def(py::init<Optimizer&, int64_t, double>(), "optimizer"_a, "step_size"_a, "gamma"_a = 0.1,
             py::keep_alive<1, 2>());
    py::class_<CosineAnnealingLR, LRScheduler>(o, "CosineAnnealingLR")
        .def(py::init<Optimizer&, int64_t, double>(), "optimizer"_a, "T_max"_a, "eta_min"_a = 0.0,
             py::keep_alive<1, 2>());
}

void bind_data(py::module_& d) {
    using namespace zyx::data;
    d.def("read_idx", &read_idx, "path"_a, py::call_guard<py::gil_scoped_release>());
    d.def("fashion_mnist_dir", &fashion_mnist_dir, "dir"_a = "");
    py::class_<FashionMnist>(d, "FashionMnist")
        .def_readonly("train_images", &FashionMnist::train_images)
        .def_readonly("train_labels", &FashionMnist::train_labels)
        .def_readonly("test_images", &FashionMnist::test_images)
        .def_readonly("test_labels", &FashionMnist::test_labels);
    d.def("load_fashion_mnist", &load_fashion_mnist, "dir"_a = "", py::call_guard<py::gil_scoped_release>());
    py::class_<DataLoader>(d, "DataLoader", "Batches of host tensors with a common first axis; each pass is one epoch.")
        .def(py::init(
                 [](py::object tensors, int64_t batch_size, bool shuffle, uint64_t seed, bool drop_last, Device dev) {
                     if (py::hasattr(tensors, "tensors")) tensors = tensors.attr("tensors");  // a TensorDataset
                     return new DataLoader(tensor_list(tensors), batch_size, shuffle, seed, drop_last, dev);
                 }),
             "tensors"_a, "batch_size"_a = 1, "shuffle"_a = false, "seed"_a = 0, "drop_last"_a = false,
             "device"_a = Device::host())
        .def("__len__", &DataLoader::size)
        .def_property_readonly("rows", &DataLoader::rows)
        .def_property_readonly("batch_size", &DataLoader::batch_size)
        .def_property_readonly("device", &DataLoader::device)
        .def(
            "__iter__", [](DataLoader& l) { return py::make_iterator(l.begin(), l.end()); }, py::keep_alive<0, 1>())
        .def("next", &DataLoader::next);
}

void bind_checkpoint(py::module_& m) {
    m.def(
        "save_safetensors",
        [](const std::string& path, py::object tensors, std::map<std::string, std::string> meta) {
            std::vector<std::pair<std::string, Tensor>> items;
            py::object seq = py::isinstance<py::dict>(tensors) ? tensors.attr("items")() : tensors;
            for (py::handle h : py::iter(seq)) items.push_back(h.cast<std::pair<std::string, Tensor>>());
            py::gil_scoped_release u;
            save_safetensors(path, items, meta);
        },
        "path"_a, "tensors"_a, "metadata"_a = std::map<std::string, std::string>{});
    m.def(
        "load_safetensors",
        [](const std::string& path, Device dev) {
            std::vector<std::pair<std::string, Tensor>> items;
            {
                py::gil_scoped_release u;
                items = load_safetensors(path, dev);
            }
            py::dict out;
            for (auto& [name, t] : items) out[py::str(name)] = t;
            return out;
        },
        "path"_a, "device"_a = Device::host());
    m.def("safetensors_metadata", &safetensors_metadata, "path"_a);
}

}  // namespace

void bind_nn(py::module_& m) {
    py::module_ f = m.def_submodule("_functional", "Network functions (zyx.nn.functional).");
    bind_functional(f);
    py::module_ n = m.def_submodule("_nn", "C++ layers (wrapped by zyx.nn).");
    bind_layers(n);
    py::module_ o = m.def_submodule("_optim", "Optimisers and schedulers (zyx.optim).");
    bind_optim(o);
    py::module_ d = m.def_submodule("_data", "Datasets and the data loader (zyx.data).");
    bind_data(d);
    bind_checkpoint(m);
}

}  // namespace zyx::python
