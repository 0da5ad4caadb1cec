// zyx::nn — layers with named parameters, as PyTorch's torch.nn.
//
//   #include <zyx/nn.hpp>
//   #include <zyx/optim.hpp>
//
//   auto model = std::make_shared<zyx::nn::Sequential>(std::vector<std::shared_ptr<zyx::nn::Module>>{
//       std::make_shared<zyx::nn::Flatten>(),
//       std::make_shared<zyx::nn::Linear>(784, 256), std::make_shared<zyx::nn::ReLU>(),
//       std::make_shared<zyx::nn::Linear>(256, 10)});
//   model->to(zyx::Device::tt(0));                  // before the optimiser takes the parameters
//   zyx::optim::Adam opt(model->parameters(), 1e-3);
//   Tensor loss = zyx::cross_entropy((*model)(x), y);
//   opt.zero_grad();
//   loss.backward();
//   opt.step();
//   zyx::nn::save(*model, "mlp.safetensors");
//
// A Module owns its parameters (leaf tensors that require a gradient) and buffers (state that
// is saved but not trained: BatchNorm2d's running statistics), and its child modules, each under a
// name; named_parameters() lists them recursively with dotted names ("0.weight", "fc1.bias"), the
// names PyTorch's state_dict uses for the same structure. Modules are held by shared_ptr and are
// not copyable. Initialisations are PyTorch's defaults; the random ones draw from the generator
// given to the constructor (default: zyx::default_generator()), on the host, so one seed gives
// the same model on every device.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "zyx/tensor.hpp"

namespace zyx::nn {

class Module {
public:
    virtual ~Module() = default;
    Module() = default;
    Module(const Module&) = delete;
    Module& operator=(const Module&) = delete;

    virtual Tensor forward(const Tensor& x) = 0;
    Tensor operator()(const Tensor& x) { return forward(x); }

    // Parameters of this module and its children (depth first, in registration order).
    std::vector<std::pair<std::string, Tensor>> named_parameters() const;
    std::vector<Tensor> parameters() const;
    // Buffers likewise (running statistics).
    std::vector<std::pair<std::string, Tensor>> named_buffers() const;
    // Parameters then buffers: what save() writes.
    std::vector<std::pair<std::string, Tensor>> state() const;

    // Training mode (the default) or evaluation mode, for this module and its children:
    // Dropout drops only while training; BatchNorm2d uses batch statistics and updates its
    // running ones while training, and uses the running ones in evaluation.
    void train(bool on = true);
    void eval() { train(false); }
    bool training() const { return training_; }

    // Moves every parameter and buffer to `device` (new leaf tensors there: do this before an
    // optimiser takes parameters()). Gradients are dropped.
    void to(Device device);
    // zero_grad() of every parameter.
    void zero_grad();

protected:
    // Registers a member tensor under `name`: `*t` is a parameter (it is made a leaf that
    // requires a gradient) or a buffer. The pointer must stay valid as long as the module.
    void register_parameter(const std::string& name, Tensor* t);
    void register_buffer(const std::string& name, Tensor* t);
    void register_module(const std::string& name, std::shared_ptr<Module> m);

private:
    void collect(const std::string& prefix, bool params, std::vector<std::pair<std::string, Tensor>>& out) const;
    std::vector<std::pair<std::string, Tensor*>> params_, buffers_;
    std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
    bool training_ = true;
};

// ---- layers ------------------------------------------------------------------------------------------

// y = x·Wᵀ + b; weight [out, in], bias [out]; both uniform in ±1/√in (PyTorch's default).
class Linear : public Module {
public:
    Linear(int64_t in_features, int64_t out_features, bool bias = true, Generator& gen = default_generator());
    Tensor forward(const Tensor& x) override;
    Tensor weight, bias;
};

// conv2d with weight [out, in / groups, kh, kw] and bias [out], uniform in ±1/√(in/groups·kh·kw).
class Conv2d : public Module {
public:
    Conv2d(int64_t in_channels, int64_t out_channels, Size2d kernel_size, Conv2dOptions options = {}, bool bias = true,
           Generator& gen = default_generator());
    Tensor forward(const Tensor& x) override;
    Tensor weight, bias;
    Conv2dOptions options;
};

class MaxPool2d : public Module {
public:
    explicit MaxPool2d(Size2d kernel_size, Size2d stride = 0, Size2d padding = 0)
        : kernel_(kernel_size), stride_(stride), padding_(padding) {}
    Tensor forward(const Tensor& x) override { return max_pool2d(x, kernel_, stride_, padding_); }

private:
    Size2d kernel_, stride_, padding_;
};

class AvgPool2d : public Module {
public:
    explicit AvgPool2d(Size2d kernel_size, Size2d stride = 0, Size2d padding = 0)
        : kernel_(kernel_size), stride_(stride), padding_(padding) {}
    Tensor forward(const Tensor& x) override { return avg_pool2d(x, kernel_, stride_, padding_); }

private:
    Size2d kernel_, stride_, padding_;
};

// layer_norm over the last normalized_shape axes; weight ones, bias zeros.
class LayerNorm : public Module {
public:
    explicit LayerNorm(Shape normalized_shape, double eps = 1e-5);
    Tensor forward(const Tensor& x) override;
    Tensor weight, bias;

private:
    Shape shape_;
    double eps_;
};

// x [N, C, H, W]: normalised per channel. Training: by the batch's mean and biased variance, and
// running_mean / running_var (unbiased) move by `momentum` (PyTorch's 0.1) after each forward;
// evaluation: by the running statistics. weight ones, bias zeros, running_mean 0, running_var 1.
class BatchNorm2d : public Module {
public:
    explicit BatchNorm2d(int64_t num_features, double eps = 1e-5, double momentum = 0.1);
    Tensor forward(const Tensor& x) override;
    Tensor weight, bias, running_mean, running_var;

private:
    double eps_, momentum_;
};

// Rows of weight [num, dim] (standard normal) picked by integer indices of any shape: the result
// has the indices' shape plus [dim]. Computed as one-hot · weight (gradients reach the rows used).
class Embedding : public Module {
public:
    Embedding(int64_t num_embeddings, int64_t embedding_dim, Generator& gen = default_generator());
    Tensor forward(const Tensor& indices) override;
    Tensor weight;
};

// While training, zeroes each element with probability p and scales the rest by 1/(1 − p);
// identity in evaluation. The mask is drawn from `gen` (default_generator()).
class Dropout : public Module {
public:
    explicit Dropout(double p = 0.5, Generator& gen = default_generator());
    Tensor forward(const Tensor& x) override;

private:
    double p_;
    Generator* gen_;
};

class Flatten : public Module {
public:
    explicit Flatten(int start_axis = 1, int end_axis = -1) : start_(start_axis), end_(end_axis) {}
    Tensor forward(const Tensor& x) override { return x.flatten(start_, end_); }

private:
    int start_, end_;
};

// Applies its modules in order; they are named "0", "1", … .
class Sequential : public Module {
public:
    explicit Sequential(std::vector<std::shared_ptr<Module>> modules);
    Tensor forward(const Tensor& x) override;
    const std::vector<std::shared_ptr<Module>>& modules() const { return modules_; }

private:
    std::vector<std::shared_ptr<Module>> modules_;
};

// Activations.
class ReLU : public Module {
public:
    Tensor forward(const Tensor& x) override { return x.relu(); }
};
class GELU : public Module {
public:
    explicit GELU(bool approximate = false) : approximate_(approximate) {}
    Tensor forward(const Tensor& x) override { return x.gelu(approximate_); }

private:
    bool approximate_;
};
class Tanh : public Module {
public:
    Tensor forward(const Tensor& x) override { return x.tanh(); }
};
class Sigmoid : public Module {
public:
    Tensor forward(const Tensor& x) override { return x.sigmoid(); }
};
class SiLU : public Module {
public:
    Tensor forward(const Tensor& x) override { return x.silu(); }
};

// ---- checkpoints -------------------------------------------------------------------------------------
// save writes state() to a safetensors file (zyx/checkpoint.hpp). load reads one back into the
// module's tensors, on their devices: every name of state() must be in the file with the same
// shape and dtype, and the file must hold nothing else; otherwise InvalidArgument naming the
// tensor, and the module is left unchanged.
void save(const Module& m, const std::string& path);
void load(Module& m, const std::string& path);

}  // namespace zyx::nn
