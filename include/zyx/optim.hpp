// zyx::optim — optimisers (SGD, Adam, AdamW) and learning-rate schedulers (StepLR,
// CosineAnnealingLR) with the definitions of PyTorch 1.13's torch.optim.
//
// ---- A worked example ----------------------------------------------------------------------------
//
//   #include <zyx/optim.hpp>
//
//   zyx::Tensor w = zyx::randn({1, 1}).requires_grad_();
//   zyx::Tensor b = zyx::zeros({1}).requires_grad_();
//   zyx::optim::Adam opt({w, b}, 0.1);                 // the handles share w's and b's nodes
//   zyx::optim::StepLR sched(opt, 50, 0.5);            // halve the rate every 50 epochs
//   for (int epoch = 0; epoch < 200; ++epoch) {
//       opt.zero_grad();
//       zyx::Tensor loss = zyx::mse_loss(x.matmul(w) + b, y);
//       loss.backward();
//       opt.step();                                    // w and b now hold their new values
//       sched.step();                                  // once per epoch, after the steps
//   }
//
// ---- The model ---------------------------------------------------------------------------------------
//
// An optimiser holds handles of the parameters it was given: leaf float tensors with
// requires_grad() (see the "gradients" section of zyx/tensor.hpp). step() reads each parameter's
// grad() and replaces the parameter's values in place with Tensor::assign, so every other handle
// of it (a model's, a test's) sees the new values. A parameter whose grad() is undefined (no
// backward reached it since its last zero_grad) is skipped, its state untouched, as PyTorch does.
//
// One step is a few fused kernels, not one per parameter per operation: inside a NoGradGuard the
// optimiser builds every new value (parameter, momentum or moment buffers) as a lazy expression of
// the old ones and the gradient, with the hyper-parameters written as numbers (kernel launch
// arguments, so a changed learning rate reuses the compiled programs), realizes all of them in
// one zyx::realize, and then assigns them. Measured on the host: SGD 1 kernel per parameter
// (2 with momentum: the buffer and the parameter), Adam and AdamW 3 (two moments and the
// parameter). State buffers are ordinary tensors on the parameter's device, of its dtype,
// created at a parameter's first step.
//
// A step that fails (a device error while realizing) leaves every parameter and every state as
// it was before the step.
//
// ---- Errors ----------------------------------------------------------------------------------------
//
// zyx::Error with status InvalidArgument, naming the optimiser, the parameter's position or the
// value, e.g.
//   "SGD: params[2] does not require a gradient (call requires_grad_() on it first)"
//   "Adam: beta2 must be in [0, 1), not 1"
//   "SGD: nesterov momentum needs momentum > 0 and dampening 0 (momentum 0, dampening 0)"
// for: an empty parameter list; a parameter that is undefined, not of a float dtype, does not
// require a gradient, is not a leaf (computed from other tensors) or appears twice; a negative
// or non-finite learning rate, momentum, weight decay or eps; betas outside [0, 1).
//
// ---- Threads --------------------------------------------------------------------------------------------
//
// An optimiser and its schedulers are used from one thread at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "zyx/tensor.hpp"

namespace zyx::optim {

// The base of every optimiser: the parameters, the learning rate, zero_grad.
class Optimizer {
public:
    virtual ~Optimizer() = default;
    Optimizer(const Optimizer&) = delete;
    Optimizer& operator=(const Optimizer&) = delete;

    // One update of every parameter that has a gradient (see "The model").
    virtual void step() = 0;
    // Forgets every parameter's gradient (Tensor::zero_grad: grad() becomes undefined, as
    // PyTorch's zero_grad(set_to_none=True)).
    void zero_grad();

    // The learning rate the next step() uses; set_lr (what a scheduler calls) checks it as the
    // constructor does (finite, >= 0).
    double lr() const { return lr_; }
    void set_lr(double lr);

    // The handles given to the constructor, in their order.
    const std::vector<Tensor>& params() const { return params_; }
    // The optimiser's name in messages: "SGD", "Adam", "AdamW".
    const std::string& name() const { return name_; }

protected:
    // Checks the parameters and the learning rate (see "Errors").
    Optimizer(std::string name, std::vector<Tensor> params, double lr);

    std::string name_;
    std::vector<Tensor> params_;
    double lr_;
};

// Stochastic gradient descent with optional momentum, dampening, Nesterov momentum and L2 weight
// decay (torch.optim.SGD). For a parameter p with gradient g, each step:
//   g ← g + weight_decay · p                                   (when weight_decay ≠ 0)
//   when momentum ≠ 0:
//     b ← g on the parameter's first step, else b ← momentum · b + (1 − dampening) · g
//     g ← g + momentum · b when nesterov, else g ← b
//   p ← p − lr · g
class SGD : public Optimizer {
public:
    SGD(std::vector<Tensor> params, double lr, double momentum = 0, double dampening = 0, double weight_decay = 0,
        bool nesterov = false);
    void step() override;

    double momentum() const { return momentum_; }
    double dampening() const { return dampening_; }
    double weight_decay() const { return weight_decay_; }
    bool nesterov() const { return nesterov_; }

private:
    double momentum_, dampening_, weight_decay_;
    bool nesterov_;
    std::vector<Tensor> momentum_buffers_;  // one per parameter; undefined before its first step
};

// Adam (torch.optim.Adam, amsgrad off) with L2 weight decay added to the gradient, and AdamW
// (torch.optim.AdamW) with decoupled weight decay. For a parameter p with gradient g, at its
// t-th step (t counts the steps at which p had a gradient, starting at 1):
//   AdamW:  p ← p · (1 − lr · weight_decay)                    (first, from the old p)
//   Adam:   g ← g + weight_decay · p                           (when weight_decay ≠ 0)
//   m ← beta1 · m + (1 − beta1) · g                            (m and v start at 0)
//   v ← beta2 · v + (1 − beta2) · g²
//   p ← p − (lr / (1 − beta1^t)) · m / (√v / √(1 − beta2^t) + eps)
class Adam : public Optimizer {
public:
    Adam(std::vector<Tensor> params, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
         double weight_decay = 0);
    void step() override;

    double beta1() const { return beta1_; }
    double beta2() const { return beta2_; }
    double eps() const { return eps_; }
    double weight_decay() const { return weight_decay_; }
    // Steps taken by parameter i (the t above); InvalidArgument naming i when out of range.
    int64_t steps(size_t i) const;

protected:
    Adam(std::string name, bool decoupled, std::vector<Tensor> params, double lr, double beta1, double beta2,
         double eps, double weight_decay);

private:
    bool decoupled_;  // AdamW's decay of the parameter instead of the L2 term in the gradient
    double beta1_, beta2_, eps_, weight_decay_;
    std::vector<Tensor> exp_avg_, exp_avg_sq_;  // m and v per parameter; undefined before its first step
    std::vector<int64_t> steps_;
};

class AdamW : public Adam {
public:
    AdamW(std::vector<Tensor> params, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
          double weight_decay = 1e-2);
};

// ---- learning-rate schedulers -------------------------------------------------------------------------
//
// A scheduler sets its optimiser's learning rate from the epoch count. Call step() once per
// epoch, after that epoch's optimiser steps (as PyTorch). The rate at construction (epoch 0) is
// the optimiser's lr() then, base_lr; a scheduler uses the closed forms of PyTorch, so the rate
// at an epoch depends only on base_lr and the epoch (a set_lr in between is overwritten at the
// next step()). The optimiser must outlive the scheduler.
class LRScheduler {
public:
    virtual ~LRScheduler() = default;
    LRScheduler(const LRScheduler&) = delete;
    LRScheduler& operator=(const LRScheduler&) = delete;

    // The next epoch: sets the optimiser's learning rate to lr_at(last_epoch() + 1).
    void step();
    // The rate the last step() (or the constructor) set.
    double last_lr() const { return last_lr_; }
    // Epochs stepped so far (0 after construction).
    int64_t last_epoch() const { return epoch_; }
    double base_lr() const { return base_lr_; }
    // The closed form: the rate at `epoch` (>= 0).
    virtual double lr_at(int64_t epoch) const = 0;

protected:
    explicit LRScheduler(Optimizer& optimizer);

    Optimizer& optimizer_;
    double base_lr_;
    int64_t epoch_ = 0;
    double last_lr_;
};

// lr = base_lr · gamma^⌊epoch / step_size⌋ (lr_scheduler.StepLR). step_size >= 1, gamma finite
// and >= 0, else InvalidArgument.
class StepLR : public LRScheduler {
public:
    StepLR(Optimizer& optimizer, int64_t step_size, double gamma = 0.1);
    double lr_at(int64_t epoch) const override;

private:
    int64_t step_size_;
    double gamma_;
};

// lr = eta_min + (base_lr − eta_min) · (1 + cos(π · epoch / T_max)) / 2
// (lr_scheduler.CosineAnnealingLR's closed form; after T_max epochs it rises again, a cosine of
// period 2·T_max). T_max >= 1, eta_min finite and >= 0, else InvalidArgument.
class CosineAnnealingLR : public LRScheduler {
public:
    CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0);
    double lr_at(int64_t epoch) const override;

private:
    int64_t t_max_;
    double eta_min_;
};

}  // namespace zyx::optim
