// The gradient methods of Tensor (tensor.hpp "gradients"); the rules are in src/autograd.
#include "autograd/autograd.hpp"
#include "internal.hpp"
#include "kernel/kernel.hpp"

namespace zyx {

using api::invalid;
using api::node_of;
using graph::NodePtr;

Tensor& Tensor::requires_grad_(bool on) {
    const NodePtr& n = node_of(*this, "requires_grad_");
    if (on && !dtype_is_float(n->dtype))
        invalid("requires_grad_", "only float tensors can require a gradient, not " + api::dname(n->dtype));
    if (on) realize();  // a leaf: its own buffer, no inputs
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    if (on && !n->tape.empty())
        invalid("requires_grad_",
                "the tensor is the result of ops that require a gradient (not a leaf); use detach() first");
    n->requires_grad = on;
    return *this;
}

bool Tensor::requires_grad() const {
    const NodePtr& n = node_of(*this, "requires_grad");
    return n->requires_grad;
}

void Tensor::backward() const {
    const NodePtr& n = node_of(*this, "backward");
    if (n->numel() != 1)
        invalid("backward",
                "a gradient can be implied only for a tensor of one element, not of shape " + api::shape_str(n->shape) +
                    "; pass backward(gradient)");
    backward(
        Tensor(graph::make_constant(kernel::bits_from_double(n->dtype, 1.0), n->dtype, n->shape, n->device, false)));
}

void Tensor::backward(const Tensor& gradient) const {
    const NodePtr& n = node_of(*this, "backward");
    const NodePtr& g = node_of(gradient, "backward");
    if (!n->requires_grad)
        invalid("backward",
                "the tensor " + n->label() +
                    " does not require a gradient: no input has requires_grad, it was computed under a "
                    "NoGradGuard, or through an op without a gradient (comparison, argmax, integer op, bitcast)");
    if (g->shape != n->shape)
        invalid("backward",
                "the gradient has shape " + api::shape_str(g->shape) + ", the tensor " + api::shape_str(n->shape));
    if (!(g->device == n->device))
        invalid("backward", "the gradient is on " + g->device.str() + ", the tensor on " + n->device.str());
    NodePtr seed = g;
    {
        NoGradGuard off;
        if (seed->dtype != n->dtype) seed = graph::make_cast(seed, n->dtype);
    }
    autograd::backward(n, seed);
}

Tensor Tensor::grad() const {
    const NodePtr& n = node_of(*this, "grad");
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return n->grad ? Tensor(n->grad) : Tensor();
}

void Tensor::zero_grad() const {
    const NodePtr& n = node_of(*this, "zero_grad");
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    n->grad.reset();
}

Tensor Tensor::detach() const {
    const NodePtr& n = node_of(*this, "detach");
    realize();
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    return Tensor(graph::make_buffer(n->buffer, n->dtype, n->shape));
}

void Tensor::assign(const Tensor& value) const {
    const NodePtr& n = node_of(*this, "assign");
    const NodePtr& v = node_of(value, "assign");
    if (n->shape != v->shape || n->dtype != v->dtype || !(n->device == v->device))
        invalid("assign",
                "the value is " + v->label() + " on " + v->device.str() + ", the tensor " + n->label() + " on " +
                    n->device.str() + " (shape, dtype and device must match)");
    value.realize();
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    if (!n->inputs.empty() || !n->tape.empty())
        invalid("assign", "the tensor " + n->label() + " is computed from others; only a leaf can be assigned");
    n->buffer = v->buffer;
    n->kind = graph::OpKind::buffer;
    n->realized_inputs.clear();
}

NoGradGuard::NoGradGuard() : was_enabled_(graph::grad_enabled()) { graph::set_grad_enabled(false); }
NoGradGuard::~NoGradGuard() { graph::set_grad_enabled(was_enabled_); }

}  // namespace zyx
