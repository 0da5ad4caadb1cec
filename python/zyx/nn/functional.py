"""zyx.nn.functional: network functions with torch.nn.functional's names and keywords."""
from .. import _zyx
conv2d = _zyx._functional.conv2d
max_pool2d = _zyx._functional.max_pool2d
avg_pool2d = _zyx._functional.avg_pool2d
layer_norm = _zyx._functional.layer_norm
cross_entropy = _zyx._functional.cross_entropy
mse_loss = _zyx._functional.mse_loss
linear = _zyx._functional.linear
conv1d = _zyx._functional.conv1d
nll_loss = _zyx._functional.nll_loss
binary_cross_entropy = _zyx._functional.binary_cross_entropy
binary_cross_entropy_with_logits = _zyx._functional.binary_cross_entropy_with_logits
l1_loss = _zyx._functional.l1_loss
smooth_l1_loss = _zyx._functional.smooth_l1_loss
kl_div = _zyx._functional.kl_div
group_norm = _zyx._functional.group_norm
batch_norm = _zyx._functional.batch_norm
adaptive_avg_pool2d = _zyx._functional.adaptive_avg_pool2d
adaptive_max_pool2d = _zyx._functional.adaptive_max_pool2d
conv_transpose2d = _zyx._functional.conv_transpose2d
interpolate = _zyx._functional.interpolate


def relu(input, inplace=False):
    return input.relu()


def relu6(input, inplace=False):
    return input.relu6()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return input.leaky_relu(negative_slope)


def gelu(input, approximate="none"):
    return input.gelu(approximate=approximate)


def silu(input, inplace=False):
    return input.silu()


def elu(input, alpha=1.0, inplace=False):
    return input.elu(alpha)


def selu(input, inplace=False):
    return input.selu()


def mish(input, inplace=False):
    return input.mish()


def softplus(input, beta=1.0, threshold=20.0):
    return input.softplus(beta, threshold)


def hardsigmoid(input, inplace=False):
    return input.hardsigmoid()


def hardswish(input, inplace=False):
    return input.hardswish()


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim):
    return input.softmax(dim)


def log_softmax(input, dim):
    return input.log_softmax(dim)


def dropout(input, p=0.5, training=True, generator=None):
    """Zeroes each element with probability p and scales the rest by 1/(1 − p) while training."""
    if not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0
    gen = generator if generator is not None else _zyx.default_generator()
    keep = _zyx._rand(list(input.shape), _zyx.float32, input.device, gen) >= p
    return _zyx.where(keep, input * (1.0 / (1.0 - p)), 0)


def pad(input, pad, mode="constant", value=0.0):
    """PyTorch's order: (last-axis before, last-axis after, second-to-last before, …)."""
    if mode != "constant":
        raise _zyx.UnsupportedError(f"Unsupported: pad: mode {mode!r} (only 'constant')")
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise ValueError(f"pad: {len(pad)} amounts for a {input.ndim}-d tensor (two per axis, from the last)")
    pairs = [(0, 0)] * input.ndim
    for i in range(len(pad) // 2):
        pairs[input.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    return input._pad(pairs, value)
