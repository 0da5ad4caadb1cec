// zyx::nn (include/zyx/nn.hpp): modules, PyTorch's default initialisations, checkpoints.
#include "zyx/nn.hpp"

#include <cmath>
#include <map>

#include "core/error.hpp"
#include "graph/graph.hpp"
#include "zyx/checkpoint.hpp"

namespace zyx::nn {

namespace {

[[noreturn]] void invalid(const std::string& op, const std::string& what) {
    throw Error(ErrorStatus::InvalidArgument, op + ": " + what);
}

// A leaf parameter uniform in ±bound, drawn on the host.
Tensor uniform_param(const Shape& shape, double bound, Generator& gen) {
    return uniform(shape, -bound, bound, DType::f32, Device::host(), gen);
}

}  // namespace

// ---- Module ------------------------------------------------------------------------------------------

void Module::register_parameter(const std::string& name, Tensor* t) {
    if (t->defined()) t->requires_grad_();
    params_.push_back({name, t});
}
void Module::register_buffer(const std::string& name, Tensor* t) { buffers_.push_back({name, t}); }
void Module::register_module(const std::string& name, std::shared_ptr<Module> m) {
    if (!m) invalid("register_module", "module '" + name + "' is null");
    children_.push_back({name, std::move(m)});
}

void Module::collect(const std::string& prefix, bool params, std::vector<std::pair<std::string, Tensor>>& out) const {
    for (const auto& [name, t] : params ? params_ : buffers_)
        if (t->defined()) out.push_back({prefix + name, *t});
    for (const auto& [name, child] : children_) child->collect(prefix + name + ".", params, out);
}

std::vector<std::pair<std::string, Tensor>> Module::named_parameters() const {
    std::vector<std::pair<std::string, Tensor>> out;
    collect("", true, out);
    return out;
}
std::vector<Tensor> Module::parameters() const {
    std::vector<Tensor> out;
    for (auto& [name, t] : named_parameters()) out.push_back(t);
    return out;
}
std::vector<std::pair<std::string, Tensor>> Module::named_buffers() const {
    std::vector<std::pair<std::string, Tensor>> out;
    collect("", false, out);
    return out;
}
std::vector<std::pair<std::string, Tensor>> Module::state() const {
    std::vector<std::pair<std::string, Tensor>> out = named_parameters(), b = named_buffers();
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

void Module::train(bool on) {
    training_ = on;
    for (auto& [name, child] : children_) child->train(on);
}

void Module::to(Device device) {
    for (auto& [name, t] : params_)
        if (t->defined()) {
            *t = t->detach().to(device);
            t->requires_grad_();  // realizes it on `device`
        }
    for (auto& [name, t] : buffers_)
        if (t->defined()) *t = t->detach().to(device).realize();
    for (auto& [name, child] : children_) child->to(device);
}

void Module::zero_grad() {
    for (Tensor& t : parameters()) t.zero_grad();
}

// ---- layers ------------------------------------------------------------------------------------------

Linear::Linear(int64_t in_features, int64_t out_features, bool has_bias, Generator& gen) {
    if (in_features < 1 || out_features < 1)
        invalid(
            "Linear",
            "features must be >= 1, got in " + std::to_string(in_features) + ", out " + std::to_string(out_features));
    const double bound = 1.0 / std::sqrt(double(in_features));  // kaiming_uniform(a = √5) and the bias rule
    weight = uniform_param({out_features, in_features}, bound, gen);
    if (has_bias) bias = uniform_param({out_features}, bound, gen);
    register_parameter("weight", &weight);
    register_parameter("bias", &bias);
}

Tensor Linear::forward(const Tensor& x) {
    Tensor y = x.matmul(weight.transpose());
    return bias.defined() ? y + bias : y;
}

Conv2d::Conv2d(int64_t in_channels, int64_t out_channels, Size2d k, Conv2dOptions o, bool has_bias, Generator& gen)
    : options(o) {
    if (in_channels < 1 || out_channels < 1 || k.h < 1 || k.w < 1 || o.groups < 1 || in_channels % o.groups ||
        out_channels % o.groups)
        invalid("Conv2d",
                "channels " + std::to_string(in_channels) + " → " + std::to_string(out_channels) + ", kernel " +
                    std::to_string(k.h) + "x" + std::to_string(k.w) + ", groups " + std::to_string(o.groups) +
                    " (channels and kernel >= 1, both channel counts divisible by groups)");
    const int64_t fan_in = in_channels / o.groups * k.h * k.w;
    const double bound = 1.0 / std::sqrt(double(fan_in));
    weight = uniform_param({out_channels, in_channels / o.groups, k.h, k.w}, bound, gen);
    if (has_bias) bias = uniform_param({out_channels}, bound, gen);
    register_parameter("weight", &weight);
    register_parameter("bias", &bias);
}

Tensor Conv2d::forward(const Tensor& x) { return conv2d(x, weight, bias, options); }

LayerNorm::LayerNorm(Shape normalized_shape, double eps) : shape_(std::move(normalized_shape)), eps_(eps) {
    weight = ones(shape_);
    bias = zeros(shape_);
    register_parameter("weight", &weight);
    register_parameter("bias", &bias);
}

Tensor LayerNorm::forward(const Tensor& x) { return layer_norm(x, shape_, weight, bias, eps_); }

BatchNorm2d::BatchNorm2d(int64_t num_features, double eps, double momentum) : eps_(eps), momentum_(momentum) {
    if (num_features < 1) invalid("BatchNorm2d", "num_features must be >= 1, got " + std::to_string(num_features));
    weight = ones({num_features});
    bias = zeros({num_features});
    running_mean = zeros({num_features});
    running_var = ones({num_features});
    register_parameter("weight", &weight);
    register_parameter("bias", &bias);
    register_buffer("running_mean", &running_mean);
    register_buffer("running_var", &running_var);
}

Tensor BatchNorm2d::forward(const Tensor& x) {
    const int64_t C = weight.shape()[0];
    if (x.dim() != 4 || x.size(1) != C)
        invalid("BatchNorm2d",
                "input must be [N, " + std::to_string(C) + ", H, W], got " + graph::shape_str(x.shape()));
    const Shape per_channel = {1, C, 1, 1};
    Tensor mean, var;
    if (training()) {
        mean = x.mean({0, 2, 3}, true);
        var = (x - mean).square().mean({0, 2, 3}, true);  // biased, for normalising
        const int64_t n = x.numel() / C;
        NoGradGuard off;
        Tensor unbiased = var.reshape({C}) * (n > 1 ? double(n) / double(n - 1) : 1.0);
        running_mean.assign(running_mean * (1 - momentum_) + mean.reshape({C}).detach() * momentum_);
        running_var.assign(running_var * (1 - momentum_) + unbiased.detach() * momentum_);
    } else {
        mean = running_mean.reshape(per_channel);
        var = running_var.reshape(per_channel);
    }
    Tensor y = (x - mean) * (var + eps_).rsqrt();
    return y * weight.reshape(per_channel) + bias.reshape(per_channel);
}

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim, Generator& gen) {
    if (num_embeddings < 1 || embedding_dim < 1)
        invalid("Embedding",
                "sizes must be >= 1, got " + std::to_string(num_embeddings) + " x " + std::to_string(embedding_dim));
    weight = randn({num_embeddings, embedding_dim}, DType::f32, Device::host(), gen);
    register_parameter("weight", &weight);
}

Tensor Embedding::forward(const Tensor& indices) {
    if (!dtype_is_int(indices.dtype()))
        invalid("Embedding", "indices must be integers, got " + std::string(dtype_name(indices.dtype())));
    const int64_t num = weight.shape()[0];
    Tensor classes = arange(0, num, 1, indices.dtype(), indices.device());
    Tensor one_hot = (indices.unsqueeze(-1) == classes).cast(weight.dtype());
    return one_hot.matmul(weight);
}

Dropout::Dropout(double p, Generator& gen) : p_(p), gen_(&gen) {
    if (!(p >= 0 && p < 1)) invalid("Dropout", "p must be in [0, 1), got " + std::to_string(p));
}

Tensor Dropout::forward(const Tensor& x) {
    if (!training() || p_ == 0) return x;
    Tensor keep = rand(x.shape(), DType::f32, x.device(), *gen_) >= p_;
    return where(keep, x * (1.0 / (1.0 - p_)), 0.0);
}

Sequential::Sequential(std::vector<std::shared_ptr<Module>> modules) : modules_(std::move(modules)) {
    for (size_t i = 0; i < modules_.size(); ++i) register_module(std::to_string(i), modules_[i]);
}

Tensor Sequential::forward(const Tensor& x) {
    Tensor y = x;
    for (const auto& m : modules_) y = m->forward(y);
    return y;
}

// ---- checkpoints -------------------------------------------------------------------------------------

void save(const Module& m, const std::string& path) { save_safetensors(path, m.state()); }

void load(Module& m, const std::string& path) {
    std::vector<std::pair<std::string, Tensor>> file = load_safetensors(path);
    std::map<std::string, Tensor> by_name(file.begin(), file.end());
    std::vector<std::pair<std::string, Tensor>> mine = m.state();
    // Check everything first: a failed load leaves the module as it was.
    for (const auto& [name, t] : mine) {
        auto it = by_name.find(name);
        if (it == by_name.end()) invalid("load", path + ": the file has no tensor '" + name + "'");
        if (it->second.shape() != t.shape() || it->second.dtype() != t.dtype())
            invalid("load",
                    path + ": tensor '" + name + "' is " + std::string(dtype_name(it->second.dtype())) + " " +
                        graph::shape_str(it->second.shape()) + " in the file, " + std::string(dtype_name(t.dtype())) +
                        " " + graph::shape_str(t.shape()) + " in the module");
    }
    if (by_name.size() != mine.size())
        for (const auto& [name, t] : file) {
            bool known = false;
            for (const auto& [n2, t2] : mine) known |= n2 == name;
            if (!known) invalid("load", path + ": the file holds '" + name + "', which the module does not have");
        }
    NoGradGuard off;
    for (const auto& [name, t] : mine) t.assign(by_name.at(name).to(t.device()));
}

}  // namespace zyx::nn
