"""zyx.nn: layers with named parameters, as torch.nn.

Module is a Python class, so models are written as in PyTorch (attributes that are modules or
tensors requiring a gradient are registered); the built-in layers run the C++ layers of
include/zyx/nn.hpp. Parameter names follow PyTorch's state_dict ("0.weight", "fc1.bias").
"""
import collections as _collections

from .. import _zyx
from .._zyx import Tensor
from . import functional

__all__ = ["Module", "Sequential", "ModuleList", "Parameter", "Linear", "Conv2d", "LayerNorm", "BatchNorm2d",
           "Embedding", "Dropout", "Flatten", "Identity", "ReLU", "GELU", "Tanh", "Sigmoid", "SiLU", "MaxPool2d",
           "AvgPool2d", "Softmax", "LogSoftmax", "CrossEntropyLoss", "MSELoss", "save", "load", "functional"]


def Parameter(data, requires_grad=True):
    """A leaf tensor holding data's values that requires a gradient (zyx has no Parameter type)."""
    t = data.detach() if isinstance(data, Tensor) else _zyx._as_tensor(data)
    return t.requires_grad_(requires_grad)


class Module:
    """Base of every layer: registers child modules and parameters assigned as attributes."""

    def __init__(self):
        object.__setattr__(self, "_modules", _collections.OrderedDict())
        object.__setattr__(self, "_parameters", _collections.OrderedDict())
        object.__setattr__(self, "_buffers", _collections.OrderedDict())
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if "_modules" not in self.__dict__:
            raise AttributeError("call Module.__init__() before assigning attributes")
        for table in (self._modules, self._parameters, self._buffers):
            table.pop(name, None)
        if isinstance(value, Module):
            self._modules[name] = value
        elif isinstance(value, Tensor) and value.requires_grad:
            self._parameters[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        for table in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(table)
            if d is not None and name in d:
                return d[name]
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def register_buffer(self, name, tensor):
        self._buffers[name] = tensor

    def register_parameter(self, name, tensor):
        self._parameters[name] = tensor

    def add_module(self, name, module):
        self._modules[name] = module

    def forward(self, *args):
        raise NotImplementedError(f"{type(self).__name__}.forward is not defined")

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ---- parameters and state ----
    def _own_parameters(self):
        return list(self._parameters.items())

    def _own_buffers(self):
        return list(self._buffers.items())

    def named_children(self):
        return iter(self._modules.items())

    def children(self):
        return iter(self._modules.values())

    def named_modules(self, prefix=""):
        yield prefix, self
        for name, m in self._modules.items():
            yield from m.named_modules(prefix + ("." if prefix else "") + name)

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_parameters(self, prefix=""):
        for name, m in self.named_modules(prefix):
            for pname, p in m._own_parameters():
                yield (name + "." if name else "") + pname, p

    def parameters(self):
        for _, p in self.named_parameters():
            yield p

    def named_buffers(self, prefix=""):
        for name, m in self.named_modules(prefix):
            for bname, b in m._own_buffers():
                yield (name + "." if name else "") + bname, b

    def buffers(self):
        for _, b in self.named_buffers():
            yield b

    def state_dict(self):
        d = _collections.OrderedDict(self.named_parameters())
        d.update(self.named_buffers())
        return d

    def load_state_dict(self, state):
        """Assigns every tensor of state_dict() from `state` in place (same names, shapes, dtypes)."""
        own = self.state_dict()
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        if missing or unexpected:
            raise _zyx.InvalidArgumentError(f"load_state_dict: missing keys {missing}, unexpected keys {unexpected}")
        for name, target in own.items():
            value = state[name]
            if tuple(value.shape) != tuple(target.shape) or value.dtype != target.dtype:
                raise _zyx.InvalidArgumentError(
                    f"load_state_dict: {name}: file has {value.dtype} {list(value.shape)}, "
                    f"module has {target.dtype} {list(target.shape)}")
        for name, target in own.items():
            target.assign(state[name].to(target.device))

    # ---- modes and devices ----
    def train(self, mode=True):
        for m in self.modules():
            object.__setattr__(m, "training", mode)
            m._set_training(mode)
        return self

    def eval(self):
        return self.train(False)

    def _set_training(self, mode):
        pass

    def to(self, device):
        """Moves parameters and buffers to `device` (new leaves: before making an optimiser)."""
        for m in self.modules():
            m._move(_zyx.device(device) if isinstance(device, str) else device)
        return self

    def _move(self, device):
        for name, p in list(self._parameters.items()):
            self._parameters[name] = p.detach().to(device).requires_grad_(True)
        for name, b in list(self._buffers.items()):
            self._buffers[name] = b.to(device)

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            p.zero_grad()

    def __repr__(self):
        lines = [f"{type(self).__name__}({self.extra_repr()}"]
        for name, m in self._modules.items():
            lines.append(f"  ({name}): " + repr(m).replace("\n", "\n  "))
        return lines[0] + ")" if len(lines) == 1 else "\n".join(lines) + "\n)"

    def extra_repr(self):
        return ""


class _Cpp(Module):
    """A layer implemented in C++ (include/zyx/nn.hpp); its tensors are the C++ module's."""

    def __init__(self, impl, text=""):
        super().__init__()
        object.__setattr__(self, "_impl", impl)
        object.__setattr__(self, "_text", text)

    def forward(self, input):
        return self._impl.forward(input)

    def _own_parameters(self):
        return self._impl.named_parameters()

    def _own_buffers(self):
        return self._impl.named_buffers()

    def __getattr__(self, name):
        impl = self.__dict__.get("_impl")
        if impl is not None and hasattr(impl, name):
            return getattr(impl, name)
        return super().__getattr__(name)

    def _set_training(self, mode):
        self._impl.train(mode)

    def _move(self, device):
        self._impl.to(device)

    def extra_repr(self):
        return self._text


def _gen(generator):
    return generator


class Linear(_Cpp):
    def __init__(self, in_features, out_features, bias=True, generator=None):
        super().__init__(_zyx._nn.Linear(in_features, out_features, bias, _gen(generator)),
                         f"in_features={in_features}, out_features={out_features}, bias={bias}")


class Conv2d(_Cpp):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 generator=None):
        super().__init__(_zyx._nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, dilation, groups,
                                         bias, _gen(generator)),
                         f"{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}")


class LayerNorm(_Cpp):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__(_zyx._nn.LayerNorm(normalized_shape, eps), f"{normalized_shape}, eps={eps}")


class BatchNorm2d(_Cpp):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(_zyx._nn.BatchNorm2d(num_features, eps, momentum),
                         f"{num_features}, eps={eps}, momentum={momentum}")


class Embedding(_Cpp):
    def __init__(self, num_embeddings, embedding_dim, generator=None):
        super().__init__(_zyx._nn.Embedding(num_embeddings, embedding_dim, _gen(generator)),
                         f"{num_embeddings}, {embedding_dim}")


class Dropout(_Cpp):
    def __init__(self, p=0.5, generator=None):
        super().__init__(_zyx._nn.Dropout(p, _gen(generator)), f"p={p}")


class Sequential(Module):
    def __init__(self, *modules):
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], dict):
            for name, m in modules[0].items():
                self.add_module(name, m)
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self._modules.values():
            input = m(input)
        return input

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class ModuleList(Module):
    def __init__(self, modules=()):
        super().__init__()
        for m in modules:
            self.append(m)

    def append(self, module):
        self.add_module(str(len(self._modules)), module)
        return self

    def __getitem__(self, i):
        return list(self._modules.values())[i]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


def _simple(name, fn, text=""):
    def __init__(self, *args, **kwargs):
        Module.__init__(self)
        object.__setattr__(self, "_args", args)
        object.__setattr__(self, "_kwargs", kwargs)

    def forward(self, input):
        return fn(input, *self._args, **self._kwargs)

    return type(name, (Module,), {"__init__": __init__, "forward": forward, "__doc__": text})


Identity = _simple("Identity", lambda x: x, "Returns its input.")
ReLU = _simple("ReLU", functional.relu)
GELU = _simple("GELU", functional.gelu)
Tanh = _simple("Tanh", functional.tanh)
Sigmoid = _simple("Sigmoid", functional.sigmoid)
SiLU = _simple("SiLU", functional.silu)
Softmax = _simple("Softmax", functional.softmax)
LogSoftmax = _simple("LogSoftmax", functional.log_softmax)
Flatten = _simple("Flatten", lambda x, start_dim=1, end_dim=-1: x.flatten(start_dim, end_dim))
MaxPool2d = _simple("MaxPool2d", functional.max_pool2d)
AvgPool2d = _simple("AvgPool2d", functional.avg_pool2d)


class CrossEntropyLoss(Module):
    def forward(self, input, target):
        return functional.cross_entropy(input, target)


class MSELoss(Module):
    def forward(self, input, target):
        return functional.mse_loss(input, target)


def save(module, path, metadata=None):
    """Writes module.state_dict() to a safetensors file."""
    _zyx.save_safetensors(str(path), list(module.state_dict().items()), metadata or {})


def load(module, path):
    """Reads a safetensors file written by save() back into the module's tensors, in place."""
    module.load_state_dict(_zyx.load_safetensors(str(path)))
