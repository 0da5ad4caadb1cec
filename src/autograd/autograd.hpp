// Reverse-mode differentiation over the lazy graph (src/graph).
//
// Gradients are defined per graph node kind (OpKind, and the kernel op of unary / binary /
// reduce nodes), so every composite of the Tensor API (softmax, layer_norm, conv2d, the losses …)
// is differentiated through the primitives it is built from. The gradient graph is an ordinary
// lazy graph: built with the graph's builders on the nodes' own devices and dtypes, it fuses and
// runs like any other work.
//
// What a node needs for backward stays reachable: an unrealized node through `inputs`, a
// realized one through `tape` (graph.hpp). Leaves are nodes that require a gradient and have
// neither: their `grad` accumulates.
#pragma once

#include "graph/graph.hpp"

namespace zyx::autograd {

// Propagates `seed`, the gradient of `root` (same shape, dtype and device), to every leaf
// reachable from root through nodes that require a gradient, adding into each leaf's `grad`,
// then realizes those gradients in one schedule. Builds with gradients off (the gradient graph
// records none). root must require a gradient (the caller checks and names the op).
void backward(const graph::NodePtr& root, const graph::NodePtr& seed);

}  // namespace zyx::autograd
