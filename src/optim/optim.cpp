// zyx::optim (include/zyx/optim.hpp): the optimisers' lazy update expressions and the
// schedulers' closed forms.
#include "zyx/optim.hpp"

#include <cmath>
#include <mutex>
#include <sstream>
#include <utility>

#include "graph/graph.hpp"

namespace zyx::optim {

namespace {

[[noreturn]] void invalid(const std::string& who, const std::string& what) {
    throw Error(ErrorStatus::InvalidArgument, who + ": " + what);
}

std::string num(double v) {
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

// A hyper-parameter that must be a finite number >= 0 (NaN fails too).
void check_non_negative(const std::string& who, const char* what, double v) {
    if (!std::isfinite(v) || !(v >= 0))
        invalid(who, std::string(what) + " must be a finite number >= 0, not " + num(v));
}

void check_beta(const std::string& who, const char* what, double v) {
    if (!(v >= 0 && v < 1)) invalid(who, std::string(what) + " must be in [0, 1), not " + num(v));
}

// The new values of one step: realized together, then parameters assigned and states kept.
// Nothing changes unless the realization succeeds.
class StepCommit {
public:
    void param(const Tensor& p, Tensor value) {
        params_.push_back(p);
        values_.push_back(std::move(value));
    }
    void state(Tensor& slot, Tensor value) {
        slots_.push_back(&slot);
        states_.push_back(std::move(value));
    }
    void commit() {
        if (values_.empty() && states_.empty()) return;
        std::vector<Tensor> all = values_;
        all.insert(all.end(), states_.begin(), states_.end());
        zyx::realize(all);
        for (size_t i = 0; i < params_.size(); ++i) params_[i].assign(values_[i]);
        // A state keeps a node of its own over the realized buffer, so no other handle (a
        // gradient the buffer was taken from, say) can ever assign into it.
        for (size_t i = 0; i < slots_.size(); ++i) *slots_[i] = states_[i].detach();
    }

private:
    std::vector<Tensor> params_, values_;
    std::vector<Tensor*> slots_;
    std::vector<Tensor> states_;
};

// The gradient of p in p's dtype (a gradient always has it today; the cast is a safety net).
Tensor grad_of(const Tensor& p) {
    Tensor g = p.grad();
    if (g.defined() && g.dtype() != p.dtype()) g = g.cast(p.dtype());
    return g;
}

}  // namespace

// ---- Optimizer --------------------------------------------------------------------------------------

Optimizer::Optimizer(std::string name, std::vector<Tensor> params, double lr)
    : name_(std::move(name)), params_(std::move(params)), lr_(lr) {
    if (params_.empty()) invalid(name_, "the parameter list is empty");
    for (size_t i = 0; i < params_.size(); ++i) {
        const Tensor& p = params_[i];
        std::string at = "params[" + std::to_string(i) + "]";
        if (!p.defined()) invalid(name_, at + " is an undefined tensor");
        if (!dtype_is_float(p.dtype()))
            invalid(name_,
                    at + " has dtype " + std::string(dtype_name(p.dtype())) + "; parameters must be of a float dtype");
        if (!p.requires_grad()) invalid(name_, at + " does not require a gradient (call requires_grad_() on it first)");
        {
            std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
            const graph::Node& n = *p.node();
            if (!n.inputs.empty() || !n.tape.empty())
                invalid(name_, at + " (" + n.label() + ") is computed from other tensors; parameters must be leaves");
        }
        for (size_t j = 0; j < i; ++j)
            if (params_[j].node() == p.node())
                invalid(name_, "params[" + std::to_string(j) + "] and " + at + " are the same tensor");
    }
    check_non_negative(name_, "lr", lr);
}

void Optimizer::zero_grad() {
    for (const Tensor& p : params_) p.zero_grad();
}

void Optimizer::set_lr(double lr) {
    check_non_negative(name_, "lr", lr);
    lr_ = lr;
}

// ---- SGD --------------------------------------------------------------------------------------------

SGD::SGD(std::vector<Tensor> params, double lr, double momentum, double dampening, double weight_decay, bool nesterov)
    : Optimizer("SGD", std::move(params), lr),
      momentum_(momentum),
      dampening_(dampening),
      weight_decay_(weight_decay),
      nesterov_(nesterov) {
    check_non_negative(name_, "momentum", momentum);
    check_non_negative(name_, "weight_decay", weight_decay);
    if (!std::isfinite(dampening)) invalid(name_, "dampening must be a finite number, not " + num(dampening));
    if (nesterov && (momentum <= 0 || dampening != 0))
        invalid(name_,
                "nesterov momentum needs momentum > 0 and dampening 0 (momentum " + num(momentum) + ", dampening " +
                    num(dampening) + ")");
    momentum_buffers_.resize(params_.size());
}

void SGD::step() {
    NoGradGuard no_grad;
    StepCommit out;
    for (size_t i = 0; i < params_.size(); ++i) {
        const Tensor& p = params_[i];
        Tensor g = grad_of(p);
        if (!g.defined()) continue;
        // L2 decay enters through the gradient.
        if (weight_decay_ != 0) g = g + p * weight_decay_;
        if (momentum_ != 0) {
            // The buffer starts as the first gradient itself (no dampening on that step), then
            // decays by `momentum` and takes in (1 − dampening) of each new gradient.
            Tensor& slot = momentum_buffers_[i];
            Tensor buf = slot.defined() ? slot * momentum_ + g * (1 - dampening_) : g;
            out.state(slot, buf);
            // Nesterov looks one momentum step ahead; plain momentum steps along the buffer.
            g = nesterov_ ? g + buf * momentum_ : buf;
        }
        out.param(p, p - g * lr_);
    }
    out.commit();
}

// ---- Adam, AdamW ------------------------------------------------------------------------------------

Adam::Adam(std::vector<Tensor> params, double lr, double beta1, double beta2, double eps, double weight_decay)
    : Adam("Adam", false, std::move(params), lr, beta1, beta2, eps, weight_decay) {}

Adam::Adam(std::string name, bool decoupled, std::vector<Tensor> params, double lr, double beta1, double beta2,
           double eps, double weight_decay)
    : Optimizer(std::move(name), std::move(params), lr),
      decoupled_(decoupled),
      beta1_(beta1),
      beta2_(beta2),
      eps_(eps),
      weight_decay_(weight_decay) {
    check_beta(name_, "beta1", beta1);
    check_beta(name_, "beta2", beta2);
    check_non_negative(name_, "eps", eps);
    check_non_negative(name_, "weight_decay", weight_decay);
    exp_avg_.resize(params_.size());
    exp_avg_sq_.resize(params_.size());
    steps_.assign(params_.size(), 0);
}

void Adam::step() {
    NoGradGuard no_grad;
    StepCommit out;
    std::vector<size_t> stepped;
    for (size_t i = 0; i < params_.size(); ++i) {
        const Tensor& p = params_[i];
        Tensor g = grad_of(p);
        if (!g.defined()) continue;
        const double t = double(steps_[i] + 1);
        Tensor base = p;
        if (weight_decay_ != 0) {
            // AdamW shrinks the parameter itself before the update; Adam adds the L2 term's
            // gradient to g.
            if (decoupled_)
                base = p * (1 - lr_ * weight_decay_);
            else
                g = g + p * weight_decay_;
        }
        // The moments: running means of g and of g², both from 0 at the first step.
        Tensor& m_slot = exp_avg_[i];
        Tensor& v_slot = exp_avg_sq_[i];
        Tensor m = m_slot.defined() ? m_slot * beta1_ + g * (1 - beta1_) : g * (1 - beta1_);
        Tensor v = v_slot.defined() ? v_slot * beta2_ + g.square() * (1 - beta2_) : g.square() * (1 - beta2_);
        // Both moments are biased toward 0 early on; dividing by 1 − beta^t removes the bias.
        // The corrections are numbers, computed here: step_size = lr / (1 − beta1^t), and the
        // denominator is √v / √(1 − beta2^t) + eps.
        const double step_size = lr_ / (1 - std::pow(beta1_, t));
        const double bias_correction2_sqrt = std::sqrt(1 - std::pow(beta2_, t));
        Tensor denom = v.sqrt() / bias_correction2_sqrt + eps_;
        out.state(m_slot, m);
        out.state(v_slot, v);
        out.param(p, base - m * step_size / denom);
        stepped.push_back(i);
    }
    out.commit();
    for (size_t i : stepped) ++steps_[i];
}

int64_t Adam::steps(size_t i) const {
    if (i >= steps_.size())
        invalid(name_,
                "steps: parameter " + std::to_string(i) + " out of range for " + std::to_string(steps_.size()) +
                    " parameters");
    return steps_[i];
}

AdamW::AdamW(std::vector<Tensor> params, double lr, double beta1, double beta2, double eps, double weight_decay)
    : Adam("AdamW", true, std::move(params), lr, beta1, beta2, eps, weight_decay) {}

// ---- schedulers -------------------------------------------------------------------------------------

LRScheduler::LRScheduler(Optimizer& optimizer)
    : optimizer_(optimizer), base_lr_(optimizer.lr()), last_lr_(optimizer.lr()) {}

void LRScheduler::step() {
    double lr = lr_at(epoch_ + 1);
    optimizer_.set_lr(lr);
    ++epoch_;
    last_lr_ = lr;
}

StepLR::StepLR(Optimizer& optimizer, int64_t step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
    if (step_size < 1) invalid("StepLR", "step_size must be >= 1, not " + std::to_string(step_size));
    if (!std::isfinite(gamma) || !(gamma >= 0))
        invalid("StepLR", "gamma must be a finite number >= 0, not " + num(gamma));
}

double StepLR::lr_at(int64_t epoch) const {
    // The rate decays by gamma once every step_size epochs.
    return base_lr_ * std::pow(gamma_, double(epoch / step_size_));
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), t_max_(T_max), eta_min_(eta_min) {
    if (T_max < 1) invalid("CosineAnnealingLR", "T_max must be >= 1, not " + std::to_string(T_max));
    if (!std::isfinite(eta_min) || !(eta_min >= 0))
        invalid("CosineAnnealingLR", "eta_min must be a finite number >= 0, not " + num(eta_min));
}

double CosineAnnealingLR::lr_at(int64_t epoch) const {
    // Half a cosine from base_lr (epoch 0) down to eta_min (epoch T_max).
    const double pi = std::acos(-1.0);
    return eta_min_ + (base_lr_ - eta_min_) * (1 + std::cos(pi * double(epoch) / double(t_max_))) / 2;
}

}  // namespace zyx::optim
