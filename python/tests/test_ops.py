# Every bound op against numpy (float64 references) with the tolerances of conftest.TOL.
import math

import numpy as np
import pytest

import zyx
from conftest import TOL, check

RNG = np.random.default_rng(42)
X = RNG.standard_normal((4, 6))            # any sign
P = RNG.uniform(0.1, 4.0, (4, 6))          # positive
U = RNG.uniform(-0.9, 0.9, (4, 6))         # inside (-1, 1)
erf = np.vectorize(math.erf)
sigmoid = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
softplus = lambda x: np.log1p(np.exp(x))  # noqa: E731
SELU_A, SELU_L = 1.6732632423543772, 1.0507009873554805

# name: (reference on float64, input)
UNARY = {
    "neg": (np.negative, X), "exp": (np.exp, X), "exp2": (np.exp2, X), "log": (np.log, P), "log2": (np.log2, P),
    "log10": (np.log10, P), "log1p": (np.log1p, U), "sqrt": (np.sqrt, P), "rsqrt": (lambda x: 1 / np.sqrt(x), P),
    "reciprocal": (np.reciprocal, P), "square": (np.square, X), "sin": (np.sin, X), "cos": (np.cos, X),
    "tan": (np.tan, U), "tanh": (np.tanh, X), "sigmoid": (sigmoid, X), "erf": (erf, X), "abs": (np.abs, X),
    "sign": (np.sign, X), "floor": (np.floor, X * 3), "ceil": (np.ceil, X * 3), "round": (np.round, X * 3),
    "trunc": (np.trunc, X * 3), "expm1": (np.expm1, U), "relu": (lambda x: np.maximum(x, 0), X),
    "silu": (lambda x: x * sigmoid(x), X), "relu6": (lambda x: np.clip(x, 0, 6), X * 5),
    "hardsigmoid": (lambda x: np.clip(x + 3, 0, 6) / 6, X * 3),
    "hardswish": (lambda x: x * np.clip(x + 3, 0, 6) / 6, X * 3),
    "selu": (lambda x: SELU_L * np.where(x > 0, x, SELU_A * np.expm1(x)), X),
    "mish": (lambda x: x * np.tanh(softplus(x)), X),
    "gelu": (lambda x: x * 0.5 * (1 + erf(x / math.sqrt(2))), X),
    "softplus": (softplus, X), "elu": (lambda x: np.where(x > 0, x, np.expm1(x)), X),
    "leaky_relu": (lambda x: np.where(x > 0, x, 0.01 * x), X),
}
FLOATS = [zyx.float32, zyx.float64, zyx.float16, zyx.bfloat16]
NP_OF = {zyx.float32: np.float32, zyx.float64: np.float64, zyx.float16: np.float16, zyx.bfloat16: np.float32}


def rounded(a, dtype):
    """a as stored in dtype (the inputs are rounded before the op; the reference uses them)."""
    return zyx.tensor(a, dtype=dtype).numpy().astype(np.float64)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_f32(name):
    ref, a = UNARY[name]
    x = zyx.tensor(a, dtype=zyx.float32)
    got = getattr(x, name)()
    want = ref(rounded(a, zyx.float32))
    rtol, atol = (1e-5, 1e-6) if name in ("tan", "mish", "gelu", "erf", "selu", "exp2") else TOL[zyx.float32]
    check(got, want, tol=(rtol, atol))
    check(getattr(zyx, name)(x) if hasattr(zyx, name) else got, want, tol=(rtol, atol))


@pytest.mark.parametrize("dtype", [zyx.float64, zyx.float16, zyx.bfloat16], ids=repr)
@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "tanh", "sigmoid", "abs", "neg", "floor", "relu", "sin"])
def test_unary_other_floats(name, dtype):
    ref, a = UNARY[name]
    x = zyx.tensor(a, dtype=dtype)
    got = getattr(x, name)()
    assert got.dtype == dtype
    tol = (1e-7, 1e-9) if dtype == zyx.float64 else None  # f64 kernels may use libm's own rounding
    check(got, ref(rounded(a, dtype)), tol=tol)


@pytest.mark.parametrize("dtype", [zyx.int8, zyx.int32, zyx.int64, zyx.uint8], ids=repr)
def test_integer_unary_and_float_only_math(dtype):
    a = np.array([[0, 1, 2, 3], [5, 7, 11, 13]], dtype=NP_INT[dtype])
    x = zyx.tensor(a)
    check(x.abs(), np.abs(a))
    check(x.square(), np.square(a).astype(a.dtype))
    check(x.sign(), np.sign(a))
    check(-x, (-a).astype(a.dtype) if dtype != zyx.uint8 else (256 - a.astype(np.int64)).astype(np.uint8) % 256)
    e = x.exp()  # float-only math computes integers in f32
    assert e.dtype == zyx.float32
    check(e, np.exp(a.astype(np.float64)), tol=(2e-6, 1e-6))


NP_INT = {zyx.int8: np.int8, zyx.int32: np.int32, zyx.int64: np.int64, zyx.uint8: np.uint8}

BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide, "maximum": np.maximum,
    "minimum": np.minimum, "pow": np.power, "fmod": np.fmod, "remainder": np.mod,
}


@pytest.mark.parametrize("dtype", FLOATS, ids=repr)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_floats(name, dtype):
    a, b = X, P if name in ("pow", "div", "fmod", "remainder") else X[::-1]
    if name == "pow":
        a = P
    x, y = zyx.tensor(a, dtype=dtype), zyx.tensor(b, dtype=dtype)
    got = getattr(x, name)(y)
    want = BINARY[name](rounded(a, dtype), rounded(b, dtype))
    tol = TOL[dtype]
    if name in ("pow", "fmod", "remainder"):
        tol = (tol[0] * 8, tol[1] * 8)
    check(got, want, tol=tol)


@pytest.mark.parametrize("dtype", [zyx.int16, zyx.int32, zyx.uint32, zyx.int64], ids=repr)
def test_binary_integers(dtype):
    npt = {zyx.int16: np.int16, zyx.int32: np.int32, zyx.uint32: np.uint32, zyx.int64: np.int64}[dtype]
    a = RNG.integers(-50 if dtype != zyx.uint32 else 0, 50, (3, 7)).astype(npt)
    b = RNG.integers(1, 9, (3, 7)).astype(npt)
    x, y = zyx.tensor(a), zyx.tensor(b)
    check(x + y, a + b)
    check(x - y, a - b)
    check(x * y, a * b)
    check(x % y, np.mod(a, b))
    check(x // y, np.floor_divide(a, b))
    check(x.fmod(y), np.fmod(a, b))
    check(x & y, a & b)
    check(x | y, a | b)
    check(x ^ y, a ^ b)
    check(x.maximum(y), np.maximum(a, b))
    check(x / y, a / b, dtype=zyx.float32)
    check(x << 2, (a << 2).astype(npt))
    check(x >> 1, a >> 1)
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        check(getattr(x, op)(y), getattr(a, op)(b))


def test_operators_with_numbers_and_promotion():
    a = np.array([[1.5, -2.0, 3.25]], dtype=np.float32)
    x = zyx.tensor(a)
    check(x + 1, a + 1)
    check(1 + x, 1 + a)
    check(x - 1, a - 1)
    check(2 - x, 2 - a)
    check(x * 2, a * 2)
    check(3 * x, 3 * a)
    check(x / 2, a / 2)
    check(1 / x, 1 / a)
    check(x // 2, np.floor_divide(a, 2))
    check(7 // x, np.floor_divide(7, a))
    check(x % 2, np.mod(a, 2))
    check(5 % x, np.mod(5, a))
    check(x ** 2, a ** 2)
    check(2 ** x, 2 ** a.astype(np.float64))
    check(-x, -a)
    check(+x, a)
    check(abs(x), np.abs(a))
    check(x > 0, a > 0)
    check(x == 1.5, a == 1.5)
    check(x + [1, 2, 3], a + [1, 2, 3])
    check(x @ np.ones((3, 2), dtype=np.float32), a @ np.ones((3, 2)))
    check(np.ones((2, 1), dtype=np.float32) @ x, np.ones((2, 1)) @ a)
    h = zyx.tensor([1.0, 2.0], dtype=zyx.float16)
    assert (h + 2.5).dtype == zyx.float16            # a number does not promote the tensor
    assert (zyx.tensor([1, 2]) + 0.5).dtype == zyx.float32
    assert (zyx.tensor([1, 2], dtype=zyx.int8) + zyx.tensor([1], dtype=zyx.uint8)).dtype == zyx.int16
    assert (zyx.tensor([True]) + 1).dtype == zyx.int32
    assert (h + zyx.tensor([1.0], dtype=zyx.bfloat16)).dtype == zyx.float32
    b = zyx.tensor([True, False])
    check(~b, [False, True])
    check(b & zyx.tensor([True, True]), [True, False])
    check(~zyx.tensor([0, 5], dtype=zyx.uint8), np.invert(np.array([0, 5], dtype=np.uint8)))
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x @ 2.0 if False else x + object()


@pytest.mark.parametrize("dtype", [zyx.float32, zyx.float64, zyx.int32], ids=repr)
def test_reductions(dtype):
    a = RNG.standard_normal((3, 4, 5)) * 4
    if not dtype.is_floating_point:
        a = np.round(a)
    x = zyx.tensor(a, dtype=dtype)
    r = x.numpy().astype(np.float64)
    tol = (1e-5, 1e-5) if dtype == zyx.float32 else None
    check(x.sum(), r.sum(), tol=tol)
    check(x.sum(1), r.sum(1), tol=tol)
    check(x.sum((0, 2), keepdim=True), r.sum((0, 2), keepdims=True), tol=tol)
    check(x.max(), r.max())
    check(x.min(-1).values, r.min(-1))
    check(x.max(1).indices, r.argmax(1))
    check(x.argmax(), np.int32(r.argmax()))
    check(x.argmin(2, keepdim=True), r.argmin(2)[..., None])
    check(x.amax((1, 2)), r.max((1, 2)))
    if dtype.is_floating_point:
        check(x.mean(0), r.mean(0), tol=tol)
        check(x.prod(2), r.prod(2), tol=(1e-5, 1e-5) if dtype == zyx.float32 else None)
        check(x.var(1), r.var(1, ddof=1), tol=(1e-5, 1e-5))
        check(x.var(1, unbiased=False), r.var(1), tol=(1e-5, 1e-5))
        check(x.std(correction=0), r.std(), tol=(1e-5, 1e-5))
        check(x.softmax(-1), np.exp(r) / np.exp(r).sum(-1, keepdims=True), tol=(1e-5, 1e-7))
        lse = np.log(np.exp(r).sum(1))
        check(x.logsumexp(1), lse, tol=(1e-5, 1e-5))
        check(x.log_softmax(1), r - lse[:, None, :], tol=(1e-5, 1e-5))
    else:
        check(x.sum(1), r.sum(1).astype(np.int32))


def test_movement_and_joins():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = zyx.tensor(a)
    check(x.reshape(4, 6), a.reshape(4, 6))
    check(x.reshape((-1, 4)), a.reshape(-1, 4))
    check(x.view(6, 4), a.reshape(6, 4))
    check(x.permute(2, 0, 1), a.transpose(2, 0, 1))
    check(x.transpose(0, 2), a.swapaxes(0, 2))
    check(x.T, a.T)
    check(x[0].t(), a[0].T)
    check(x.flatten(), a.flatten())
    check(x.flatten(1), a.reshape(2, 12))
    check(x.unsqueeze(1), a[:, None])
    check(x.unsqueeze(1).squeeze(1), a)
    check(x[:, :1].squeeze(), a[:, 0])
    check(x.flip(0), a[::-1])
    check(x.flip((1, 2)), a[:, ::-1, ::-1])
    check(x[:, :1].expand(2, 3, 4), np.broadcast_to(a[:, :1], (2, 3, 4)))
    check(x.repeat(1, 2, 1), np.tile(a, (1, 2, 1)))
    check(zyx.cat([x, x], dim=1), np.concatenate([a, a], 1))
    check(zyx.stack([x, x], 0), np.stack([a, a]))
    parts = x.split(2, dim=2)
    assert len(parts) == 2
    check(parts[1], a[:, :, 2:])
    check(x.chunk(3, 1)[2], a[:, 2:])
    check(x.split([1, 3], dim=2)[1], a[:, :, 1:])
    check(zyx.nn.functional.pad(x, (1, 2)), np.pad(a, ((0, 0), (0, 0), (1, 2))))
    check(zyx.nn.functional.pad(x, (0, 0, 1, 0), value=5), np.pad(a, ((0, 0), (1, 0), (0, 0)), constant_values=5))
    check(x.tril(), np.tril(a))
    check(x.triu(1), np.triu(a, 1))


def test_linear_algebra_and_functions():
    a = RNG.standard_normal((3, 4)).astype(np.float32)
    b = RNG.standard_normal((4, 5)).astype(np.float32)
    x, y = zyx.tensor(a), zyx.tensor(b)
    tol = (1e-5, 1e-5)
    check(x @ y, a.astype(np.float64) @ b, tol=tol)
    check(zyx.matmul(x, y), a.astype(np.float64) @ b, tol=tol)
    v = zyx.tensor(a[0])
    check(v.dot(v), np.dot(a[0], a[0]), tol=tol)
    check(zyx.outer(v, v), np.outer(a[0], a[0]), tol=tol)
    check(zyx.diag(v), np.diag(a[0]))
    check(zyx.where(x > 0, x, 0.0), np.where(a > 0, a, 0))
    check(zyx.where(x > 0, 1.0, y[:3, :4]), np.where(a > 0, 1.0, b[:3, :4]))
    check(zyx.logaddexp(x, x * 2), np.logaddexp(a, a * 2), tol=tol)
    check(zyx.lerp(x, x * 3, 0.25), a + 0.25 * (a * 3 - a), tol=tol)
    check(x.clamp(-0.5, 0.5), np.clip(a, -0.5, 0.5))
    check(x.clamp(min=0), np.maximum(a, 0))
    check(x.clamp(max=0), np.minimum(a, 0))
    check(zyx.tensor([np.nan, np.inf, 1.0]).nan_to_num(posinf=9.0), [0.0, 9.0, 1.0])
    check(zyx.tensor([np.nan, np.inf, 1.0]).isnan(), [True, False, False])
    check(zyx.tensor([np.nan, np.inf, 1.0]).isfinite(), [False, False, True])
    check(x.logical_and(y[:3, :4]), np.logical_and(a, b[:3, :4]))
    check(x.div(2, rounding_mode="floor"), np.floor(a / 2))
    check(x.div(0.5, rounding_mode="trunc"), np.trunc(a / 0.5))


def test_creation():
    check(zyx.zeros(2, 3), np.zeros((2, 3)))
    check(zyx.ones((2, 3), dtype=zyx.int64), np.ones((2, 3), dtype=np.int64))
    check(zyx.full((2,), 7), np.full(2, 7, dtype=np.int32))
    check(zyx.arange(5), np.arange(5, dtype=np.int32))
    check(zyx.arange(1, 2, 0.25), np.arange(1, 2, 0.25))
    check(zyx.linspace(0, 1, 5), np.linspace(0, 1, 5))
    check(zyx.eye(3, 4), np.eye(3, 4))
    check(zyx.zeros_like(zyx.ones(2, dtype=zyx.uint8)), np.zeros(2, dtype=np.uint8))
    assert zyx.full_like(zyx.ones(2), 3.0).tolist() == [3.0, 3.0]
    r = zyx.rand(1000, generator=zyx.Generator(1)).numpy()
    assert 0 <= r.min() and r.max() < 1 and abs(r.mean() - 0.5) < 0.05
    n = zyx.randn(2000, generator=zyx.Generator(2)).numpy()
    assert abs(n.mean()) < 0.1 and abs(n.std() - 1) < 0.1
    i = zyx.randint(3, 7, (500,), generator=zyx.Generator(3)).numpy()
    assert i.min() == 3 and i.max() == 6
    np.testing.assert_array_equal(zyx.rand(5, generator=zyx.Generator(9)).numpy(),
                                  zyx.rand(5, generator=zyx.Generator(9)).numpy())


def test_repr_len_iteration_devices():
    x = zyx.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert repr(x) == "tensor([[1., 2.],\n        [3., 4.]])"
    assert repr(zyx.tensor([1, 2])) == "tensor([1, 2], dtype=zyx.int32)"
    assert repr(zyx.tensor([1.5]).requires_grad_()) == "tensor([1.5000], requires_grad=True)"
    assert repr(zyx.float16) == "zyx.float16" and zyx.float == zyx.float32 and zyx.long == zyx.int64
    assert len(x) == 2
    with pytest.raises(TypeError):
        len(zyx.tensor(1.0))
    rows = [r.tolist() for r in x]
    assert rows == [[1.0, 2.0], [3.0, 4.0]]
    assert x.device == zyx.device("host") and x.device == "host"
    d = zyx.device("tt:1")
    assert (d.type, d.index, str(d)) == ("tt", 1, "tt:1")
    assert x.to(zyx.float64).dtype == zyx.float64 and x.double().dtype == zyx.float64
    assert x.to("host", zyx.int32).dtype == zyx.int32
    assert x.size() == (2, 2) and x.size(-1) == 2 and x.numel() == 4 and x.ndim == 2
    with pytest.raises(ValueError):
        zyx.device("gpu:0")
