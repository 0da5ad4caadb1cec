# The second wave of bindings (ops_more.cpp) against numpy: hyperbolic functions, scans and
# orderings, in-place ops, gather / scatter, einsum, and nn.functional's losses with options.
import math

import numpy as np
import pytest

import zyx
import zyx.nn.functional as F

from conftest import check

RNG = np.random.default_rng(5)
A = RNG.uniform(-2, 2, size=(3, 5)).astype(np.float32)


@pytest.mark.parametrize("name,ref", [("sinh", np.sinh), ("cosh", np.cosh), ("asinh", np.arcsinh)])
def test_hyperbolic(name, ref):
    check(getattr(zyx.tensor(A), name)(), ref(A.astype(np.float64)), tol=(1e-5, 1e-6))


def test_atanh_and_acosh_domains():
    x = np.array([-0.9, -0.5, 0.0, 0.5, 0.9], dtype=np.float32)
    check(zyx.tensor(x).atanh(), np.arctanh(x.astype(np.float64)), tol=(1e-5, 1e-6))
    y = np.array([1.0, 1.5, 10.0, 1e6], dtype=np.float32)
    check(zyx.tensor(y).acosh(), np.arccosh(y.astype(np.float64)), tol=(1e-5, 1e-6))


def test_inverse_trig():
    x = np.concatenate([np.linspace(-1, 1, 33), [-0.0, 1.5, -2.0, np.nan]]).astype(np.float32)
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        for name, alias, ref in [("asin", "arcsin", np.arcsin), ("acos", "arccos", np.arccos)]:
            check(getattr(zyx.tensor(x), name)(), ref(x64), tol=(1e-5, 1e-6))
            check(getattr(zyx, alias)(zyx.tensor(x)), ref(x64), tol=(1e-5, 1e-6))
    assert math.copysign(1, zyx.tensor([-0.0]).asin().item()) == -1
    big = np.array([-np.inf, -1e30, -3.0, -0.0, 0.0, 0.3, 2.5, 1e30, np.inf, np.nan], dtype=np.float32)
    check(zyx.tensor(big).arctan(), np.arctan(big.astype(np.float64)), tol=(1e-5, 1e-6))
    check(zyx.atan(zyx.tensor(big, dtype=zyx.bfloat16)), np.arctan(big.astype(np.float64)))
    # atan2 with C's zeros and infinities, the numbers forms and broadcasting
    y = np.array([[0.0], [-0.0], [1.0], [-np.inf]], dtype=np.float32)
    xs = np.array([0.0, -0.0, -2.0, np.inf, -np.inf], dtype=np.float32)
    want = np.arctan2(y.astype(np.float64), xs.astype(np.float64))
    got = zyx.atan2(zyx.tensor(y), zyx.tensor(xs))
    check(got, want, tol=(1e-6, 1e-7))
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))
    check(zyx.tensor(y).arctan2(other=zyx.tensor(xs)), want, tol=(1e-6, 1e-7))
    check(zyx.arctan2(zyx.tensor(A), 0.5), np.arctan2(A.astype(np.float64), 0.5))
    check(zyx.tensor(A).atan2(-1), np.arctan2(A.astype(np.float64), -1))
    assert zyx.tensor([1, 2]).atan().dtype == zyx.float32
    # gradients: PyTorch's closed forms
    u = np.array([-0.9, -0.3, 0.0, 0.5, 0.99], dtype=np.float32)
    t = zyx.tensor(u, requires_grad=True)
    t.asin().sum().backward()
    check(t.grad, 1 / np.sqrt(1 - u.astype(np.float64) ** 2), tol=(1e-5, 1e-6))
    a, b = zyx.tensor(A, requires_grad=True), zyx.tensor(A[0], requires_grad=True)  # b broadcasts over rows
    zyx.atan2(a, b).sum().backward()
    y64, x64 = A.astype(np.float64), A[0].astype(np.float64)
    r2 = y64 ** 2 + x64 ** 2
    check(a.grad, x64 / r2, tol=(1e-5, 1e-6))
    check(b.grad, (-y64 / r2).sum(0), tol=(1e-5, 1e-6))


def test_scans_and_orderings():
    x = zyx.tensor(A)
    check(x.cumsum(1), np.cumsum(A.astype(np.float64), 1), tol=(1e-5, 1e-5))
    check(x.cumprod(0), np.cumprod(A.astype(np.float64), 0), tol=(1e-5, 1e-5))
    values, indices = x.sort(dim=1, descending=True)
    np.testing.assert_array_equal(values.numpy(), -np.sort(-A, 1))
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-A, 1, kind="stable"))
    v, i = x.topk(2, dim=1)
    np.testing.assert_array_equal(v.numpy(), -np.sort(-A, 1)[:, :2])
    assert x.median().item() == float(np.sort(A.ravel())[(A.size - 1) // 2])
    assert x.norm().item() == pytest.approx(float(np.linalg.norm(A)), rel=1e-6)
    assert bool((x > 0).any()) and not bool((x > 5).all())
    assert x.count_nonzero().item() == np.count_nonzero(A)


def test_in_place_ops_change_the_object():
    x = zyx.tensor(A)
    alias = x
    x += 1
    x.mul_(2).sub_(zyx.tensor(A), alpha=0.5)
    assert alias is x
    check(x, (A.astype(np.float64) + 1) * 2 - 0.5 * A)
    x.masked_fill_(x > 0, 0.0)
    assert (x.numpy() <= 0).all()
    x.zero_()
    assert x.sum().item() == 0


def test_gather_scatter_einsum():
    x = zyx.tensor(A)
    idx = np.array([[0, 4], [2, 2], [1, 3]])
    check(x.gather(1, zyx.tensor(idx)), np.take_along_axis(A, idx, 1).astype(np.float64))
    out = zyx.zeros(3, 5).scatter_add(1, zyx.tensor(idx), zyx.ones(3, 2))
    want = np.zeros((3, 5))
    for r in range(3):
        for c in idx[r]:
            want[r, c] += 1
    check(out, want)
    B = RNG.uniform(-1, 1, size=(5, 4)).astype(np.float32)
    check(zyx.einsum("ij,jk->ik", x, zyx.tensor(B)), np.einsum("ij,jk->ik", A.astype(np.float64), B), tol=(1e-5, 1e-5))


def test_losses_with_options():
    logits = zyx.tensor(A)
    target = zyx.tensor(np.array([4, -100, 1], dtype=np.int32))
    lp = A.astype(np.float64) - np.log(np.exp(A.astype(np.float64)).sum(1, keepdims=True))
    nll = -(lp[0, 4] + lp[2, 1]) / 2
    assert F.cross_entropy(logits, target).item() == pytest.approx(nll, rel=1e-5)
    assert F.nll_loss(zyx.tensor(lp.astype(np.float32)), target, reduction="sum").item() == pytest.approx(2 * nll, rel=1e-5)
    eps = 0.1
    smooth = -(lp[0].sum() + lp[2].sum()) / 2
    got = F.cross_entropy(logits, target, label_smoothing=eps).item()
    assert got == pytest.approx((1 - eps) * nll + eps / 5 * smooth, rel=1e-5)
    y = (A > 0).astype(np.float32)
    sig = 1 / (1 + np.exp(-A.astype(np.float64)))
    bce = -(y * np.log(sig) + (1 - y) * np.log(1 - sig)).mean()
    assert F.binary_cross_entropy_with_logits(logits, zyx.tensor(y)).item() == pytest.approx(bce, rel=1e-5)
    assert F.l1_loss(logits, zyx.zeros(3, 5), reduction="sum").item() == pytest.approx(float(np.abs(A).sum()), rel=1e-5)
    with pytest.raises(ValueError, match="reduction"):
        F.l1_loss(logits, logits, reduction="avg")
    with pytest.raises(ValueError, match="label_smoothing"):
        F.cross_entropy(logits, target, label_smoothing=2.0)
