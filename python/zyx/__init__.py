"""zyx: lazy tensors whose work is fused into kernels and run on the host CPU or a Tenstorrent
device, with PyTorch's names.

    import zyx
    x = zyx.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = (x @ x.T + 1).relu().softmax(-1)      # builds a graph, computes nothing
    print(y)                                  # fused into kernels, compiled, run
    a = y.numpy()                             # numpy array (a copy)

Operators return new tensors; in-place ops (``x += 1``, ``x.add_(y)``, ``x[mask] = 0``) give the
tensor object a new value, which every reference to that object sees (other tensors computed from
the old value keep it: tensor.hpp, "in-place ops").
Reading values (``numpy()``, ``item()``, ``repr``) realizes them and releases the GIL meanwhile.
The C++ manual is include/zyx/tensor.hpp; errors are ``zyx.Error`` subclasses (see errors below).
"""
import builtins as _builtins
import collections as _collections
import operator as _operator
import re as _re

import numpy as _np

from . import _zyx
from ._zyx import (Tensor, dtype, device, Generator, no_grad, from_numpy, where, cat, concat, stack, logaddexp,
                   lerp, outer, diag, einsum, realize, runtime_stats, reset_runtime_stats, manual_seed, available_devices,
                   save_safetensors, load_safetensors, safetensors_metadata)
from ._zyx import (Error, InitializationError, DeinitializationError, MemoryAllocationError,
                   MemoryDeallocationError, MemoryCopyH2PError, MemoryCopyP2HError, KernelCompilationError,
                   KernelLaunchError, KernelFaultError, DeadlockError, UnsupportedError, InvalidArgumentError,
                   DeviceBusyError, TimeoutError, RuntimeCrashedError, ProtocolError, IoError, InternalError,
                   IndexOutOfRangeError, DTypeError)
from ._zyx import (float64, float32, float16, bfloat16, int8, int16, int32, int64, uint8, uint16, uint32,
                   uint64)

bool = _zyx.bool  # noqa: A001 - zyx.bool is the dtype, as torch.bool
float = float32  # noqa: A001
double = float64
half = float16
int = int32  # noqa: A001 - zyx's default integer (PyTorch's torch.int is int32 too)
long = int64
short = int16


_SHORT_TO_DTYPE = {d.short_name: d for d in dtype.__members__.values()}

dtype.__repr__ = lambda self: "zyx." + self.name
dtype.__str__ = dtype.__repr__


# ---- argument normalisation -----------------------------------------------------------------------

def _dtype(d):
    """A zyx dtype from a zyx dtype, its name ('float32', 'f32') or a numpy dtype; None stays None."""
    if d is None or isinstance(d, dtype):
        return d
    if isinstance(d, str):
        if d in dtype.__members__:
            return dtype.__members__[d]
        if d in _SHORT_TO_DTYPE:
            return _SHORT_TO_DTYPE[d]
    try:
        name = _np.dtype(d).name
    except TypeError:
        raise TypeError(f"not a dtype: {d!r}") from None
    if name in dtype.__members__:
        return dtype.__members__[name]
    raise TypeError(f"numpy dtype {name} has no zyx dtype")


def _device(d):
    """A zyx device from a device or its text ('host', 'tt:0'); None is the host."""
    if d is None:
        return device("host")
    if isinstance(d, device):
        return d
    if isinstance(d, str):
        return device(d)
    raise TypeError(f"not a device: {d!r}")


def _size(size):
    if len(size) == 1 and not isinstance(size[0], _py_int_types):
        return [_operator.index(s) for s in size[0]]
    return [_operator.index(s) for s in size]


_py_int_types = (type(0), _np.integer)


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


# ---- creation --------------------------------------------------------------------------------------

def tensor(data, dtype=None, device=None, requires_grad=False):
    """A tensor from a number, a (nested) list, a numpy array or a tensor (values are copied).
    Python floats give float32, ints int32 (int64 when a value does not fit), bools bool; a numpy
    array keeps its dtype."""
    return _finish(_zyx._as_tensor(data, _dtype(dtype), _device(device)), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and dtype is None and device is None:
        return data
    return tensor(data, dtype, device)


def scalar_tensor(value, dtype=None, device=None, requires_grad=False):
    return tensor(value, dtype, device, requires_grad)


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    return _finish(_zyx._full(_size((size,)), fill_value, _dtype(dtype), _device(device)), requires_grad)


def zeros(*size, dtype=None, device=None, requires_grad=False):
    return full(_size(size), 0.0, dtype or float32, device, requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False):
    return full(_size(size), 1.0, dtype or float32, device, requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False):
    """zeros(): zyx has no uninitialised memory to hand out."""
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def zeros_like(input, dtype=None, device=None, requires_grad=False):
    return full(input.shape, 0, dtype or input.dtype, device or input.device, requires_grad)


def ones_like(input, dtype=None, device=None, requires_grad=False):
    return full(input.shape, 1, dtype or input.dtype, device or input.device, requires_grad)


def full_like(input, fill_value, dtype=None, device=None, requires_grad=False):
    return full(input.shape, fill_value, dtype or input.dtype, device or input.device, requires_grad)


def empty_like(input, dtype=None, device=None, requires_grad=False):
    return zeros_like(input, dtype, device, requires_grad)


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    return _finish(_zyx._arange(start, end, step, _dtype(dtype), _device(device)), requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    return _finish(_zyx._linspace(start, end, steps, _dtype(dtype) or float32, _device(device)), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    return _finish(_zyx._eye(n, -1 if m is None else m, _dtype(dtype) or float32, _device(device)), requires_grad)


def _gen(generator):
    return generator if generator is not None else _zyx.default_generator()


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    t = _zyx._rand(_size(size), _dtype(dtype) or float32, _device(device), _gen(generator))
    return _finish(t, requires_grad)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    t = _zyx._randn(_size(size), _dtype(dtype) or float32, _device(device), _gen(generator))
    return _finish(t, requires_grad)


def randint(low, high=None, size=None, generator=None, dtype=None, device=None):
    """Integers uniform in [low, high): randint(high, size) or randint(low, high, size)."""
    if size is None:
        low, high, size = 0, low, high
    return _zyx._randint(low, high, _size((size,)), _dtype(dtype) or int32, _device(device), _gen(generator))


def rand_like(input, generator=None, dtype=None, device=None):
    return rand(input.shape, generator=generator, dtype=dtype or input.dtype, device=device or input.device)


def randn_like(input, generator=None, dtype=None, device=None):
    return randn(input.shape, generator=generator, dtype=dtype or input.dtype, device=device or input.device)


def is_tensor(obj):
    return isinstance(obj, Tensor)


# ---- Tensor methods written in Python ----------------------------------------------------------------

_DTYPE_IN_TEXT = _re.compile(r"dtype=([a-z0-9_]+)")


def _repr(self):
    text = self._to_string()
    text = _DTYPE_IN_TEXT.sub(lambda m: "dtype=" + repr(_SHORT_TO_DTYPE.get(m.group(1), m.group(1))), text)
    if self.requires_grad:
        text = text[:-1] + ", requires_grad=True)"
    return text


def _key_items(self, key, for_assignment):
    """Python index key → (items for the C++ index: ints, (begin, end, step) triples, tensors;
    axes to flip first; positions of new axes; whether a tensor entry is present)."""
    if not isinstance(key, tuple):
        key = (key,)
    key = tuple(tensor(k) if isinstance(k, (list, _np.ndarray)) else k for k in key)
    for k in key:
        if isinstance(k, _py_bool_type):
            raise UnsupportedError("Unsupported: indexing with a Python bool; use a bool tensor")
    if _builtins.sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    real = _builtins.sum((k.ndim if isinstance(k, Tensor) and k.dtype == bool else 1)
                         for k in key if k is not None and k is not Ellipsis)
    shape = self.shape
    if real > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)} (got {real})")
    if Ellipsis in [k for k in key if not isinstance(k, Tensor)]:
        at = next(i for i, k in enumerate(key) if k is Ellipsis)
        key = key[:at] + (slice(None),) * (len(shape) - real) + key[at + 1:]
    items, flips, new_axes = [], [], []
    axis = out_axis = 0
    advanced = False
    for k in key:
        if isinstance(k, Tensor):
            advanced = True
            items.append(k)
            axis += k.ndim if k.dtype == bool else 1
            out_axis += 1
            continue
        if k is None:
            new_axes.append(out_axis)
            out_axis += 1
            continue
        size = shape[axis]
        if isinstance(k, slice):
            start, stop, step = k.indices(size)
            n = len(range(start, stop, step))
            if n == 0:
                items.append((0, 0, 1))
            elif step > 0:
                items.append((start, start + (n - 1) * step + 1, step))
            else:
                if for_assignment:
                    raise UnsupportedError("Unsupported: assignment through a slice with a negative step")
                flips.append(axis)
                first = size - 1 - start
                items.append((first, first + (n - 1) * (-step) + 1, -step))
            out_axis += 1
        else:
            try:
                i = _operator.index(k)
            except TypeError:
                raise TypeError(f"indices must be integers, slices, None or ..., not {type(k).__name__}") from None
            if not -size <= i < size:
                raise IndexOutOfRangeError(f"index {i} is out of bounds for dimension {axis} with size {size}")
            items.append(i + size if i < 0 else i)
        axis += 1
    return items, flips, new_axes, advanced


def _getitem(self, key):
    """numpy / PyTorch indexing: integers, slices (any step), None, ... (views, no copy), and integer
    or bool tensors (advanced indexing; a bool mask realizes itself: tensor.hpp)."""
    items, flips, new_axes, advanced = _key_items(self, key, False)
    if advanced and new_axes:
        raise UnsupportedError("Unsupported: None together with tensor indices")
    x = self
    if flips:
        x = x.flip(flips)
    if items:
        x = x._index_adv(items) if advanced else x._index(items)
    for pos in new_axes:
        x = x.unsqueeze(pos)
    return x


_py_bool_type = type(True)


def _setitem(self, key, value):
    """x[key] = value: index_put_ (the tensor object gets the new value; positions named twice by
    integer tensors receive the sum of their values)."""
    items, _, new_axes, _ = _key_items(self, key, True)
    if new_axes:
        raise UnsupportedError("Unsupported: None in an assignment index")
    if isinstance(value, (list, _np.ndarray)):
        value = tensor(value)
    self._index_put_(items, value, False)


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    for i in range(self.shape[0]):
        yield self._index([i])


def _bool(self):
    if self.numel() != 1:
        raise ValueError(f"the truth value of a tensor with {self.numel()} elements is ambiguous")
    return _py_bool_type(self.item())


def _scalar_value(self, kind):
    if self.numel() != 1:
        raise TypeError(f"only tensors with one element can be converted to Python {kind.__name__}")
    return kind(self.item())


def _index_value(self):
    if self.numel() != 1 or self.dtype.is_floating_point or self.dtype == bool:
        raise TypeError("only integer tensors of a single element can be converted to an index")
    return self.item()


def _to(self, *args, dtype=None, device=None, copy=False):
    """to(device), to(dtype), to(device, dtype), to(other_tensor), with keywords too."""
    for a in args:
        if isinstance(a, _zyx.dtype):
            dtype = a
        elif isinstance(a, (str, _zyx.device)):
            device = a
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        else:
            raise TypeError(f"to(): expected a device, a dtype or a tensor, got {type(a).__name__}")
    x = self
    if device is not None:
        x = x._to_device(_device(device))
    if dtype is not None and _dtype(dtype) != x.dtype:
        x = x.cast(_dtype(dtype))
    return x


def _type(self, dtype=None):
    if dtype is None:
        return "zyx." + self.dtype.name
    return self.to(_dtype(dtype))


def _floor_divide(self, other):
    """Python's //: floor of the quotient (integers: rounding toward -inf; x // 0 is 0)."""
    if not isinstance(other, Tensor):
        other = _operand_like(other, self)
    if self.is_floating_point() or other.is_floating_point():
        return (self / other).floor()
    q = self.div_trunc(other)
    r = self - q * other
    fix = (r != 0).logical_and((r < 0).logical_xor(other < 0))
    return q - fix.cast(q.dtype)


def _operand_like(value, like):
    t = tensor(value)
    if t.ndim == 0 and not isinstance(value, _np.ndarray):
        # a Python number: keep the tensor's dtype when the number's category is not above it
        rank = lambda d: 0 if d == bool else 2 if d.is_floating_point else 1  # noqa: E731
        if rank(t.dtype) <= rank(like.dtype):
            t = t.cast(like.dtype)
    return t.to(like.device)


def _rfloordiv(self, other):
    return _floor_divide(_operand_like(other, self), self)


def _div(self, other, rounding_mode=None):
    if rounding_mode is None:
        return self._div(other)
    if rounding_mode == "trunc":
        return self.div_trunc(other if isinstance(other, Tensor) else _operand_like(other, self))
    if rounding_mode == "floor":
        return _floor_divide(self, other)
    raise ValueError(f"div: rounding_mode must be None, 'trunc' or 'floor', not {rounding_mode!r}")


_MinMax = _collections.namedtuple("_MinMax", ["values", "indices"])


def _reduce_pick(name, arg_name):
    def f(self, dim=None, keepdim=False):
        if isinstance(dim, Tensor):
            return self.maximum(dim) if name == "_max" else self.minimum(dim)
        if isinstance(dim, _py_int_types):
            return _MinMax(getattr(self, name)(dim, keepdim), getattr(self, arg_name)(dim, keepdim))
        return getattr(self, name)(dim, keepdim)
    f.__name__ = name[1:]
    f.__doc__ = (f"{name[1:]}(): over every element; {name[1:]}(dim, keepdim): (values, indices) as PyTorch; "
                 f"{name[1:]}(other_tensor): elementwise.")
    return f


Tensor.__repr__ = _repr
Tensor.__str__ = _repr
Tensor.__getitem__ = _getitem
Tensor.__setitem__ = _setitem
Tensor.__iter__ = _iter
Tensor.__bool__ = _bool
Tensor.__float__ = lambda self: _scalar_value(self, type(0.0))
Tensor.__int__ = lambda self: _scalar_value(self, type(0))
Tensor.__index__ = _index_value
Tensor.__floordiv__ = _floor_divide
Tensor.__rfloordiv__ = _rfloordiv
Tensor.floor_divide = _floor_divide
Tensor.div = _div
Tensor.divide = _div
Tensor.true_divide = lambda self, other: self._div(other)
Tensor.to = _to
Tensor.type = _type
Tensor.cpu = lambda self: self._to_device(device("host"))
Tensor.max = _reduce_pick("_max", "argmax")
Tensor.min = _reduce_pick("_min", "argmin")
Tensor.amax = lambda self, dim=None, keepdim=False: self._max(dim, keepdim)
Tensor.amin = lambda self, dim=None, keepdim=False: self._min(dim, keepdim)
for _name, _dt in [("float", float32), ("double", float64), ("half", float16), ("bfloat16", bfloat16),
                   ("int", int32), ("long", int64), ("short", int16), ("char", int8), ("byte", uint8),
                   ("bool", _zyx.bool)]:
    setattr(Tensor, _name, (lambda d: lambda self: self.to(d))(_dt))
for _alias, _name in [("multiply", "mul"), ("subtract", "sub"), ("greater", "gt"), ("less", "lt"),
                      ("greater_equal", "ge"), ("less_equal", "le"), ("not_equal", "ne"), ("absolute", "abs"),
                      ("clip", "clamp"), ("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan"),
                      ("arctan2", "atan2")]:
    setattr(Tensor, _alias, getattr(Tensor, _name))
Tensor.is_cuda = False


# ---- functions that mirror methods (zyx.exp(x), zyx.sum(x, 1), …) ---------------------------------------

def _method_function(name):
    def f(input, *args, **kwargs):
        if not isinstance(input, Tensor):
            input = tensor(input)
        return getattr(input, name)(*args, **kwargs)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"zyx.{name}(input, …) is input.{name}(…)."
    return f


_METHOD_FUNCTIONS = """
neg negative exp exp2 log log2 log10 log1p sqrt rsqrt reciprocal square sin cos tan tanh sigmoid erf abs
absolute sign floor ceil round trunc isnan isinf isfinite logical_not bitwise_not relu silu expm1 nan_to_num
clamp clip clamp_min clamp_max tril triu add sub subtract mul multiply div divide true_divide floor_divide
pow maximum minimum fmod remainder eq ne lt le gt ge greater less greater_equal less_equal not_equal
logical_and logical_or logical_xor bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift
sum mean prod max min amax amin var std argmax argmin softmax log_softmax logsumexp reshape flatten permute
transpose t squeeze unsqueeze flip split chunk matmul dot numel sinh cosh asinh acosh atanh asin acos atan atan2
arcsin arccos arctan arctan2 cumsum cumprod all
any count_nonzero norm sort argsort topk median gather scatter scatter_add index_select take_along_dim nonzero
masked_select masked_fill clone
""".split()
for _name in _METHOD_FUNCTIONS:
    globals()[_name] = _method_function(_name)
del _name, _dt, _alias

from . import nn, optim, data  # noqa: E402  (they use the names above)

__all__ = [n for n in globals() if not n.startswith("_")]
