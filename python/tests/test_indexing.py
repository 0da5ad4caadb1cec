# Basic indexing (integers, slices with any step, None, ...) against numpy, and its errors.
import numpy as np
import pytest

import zyx

A = np.arange(2 * 5 * 6, dtype=np.int32).reshape(2, 5, 6)
KEYS = [
    0, -1, (1, 2), (1, -1, 3), slice(None), slice(1, 4), slice(None, None, 2), slice(4, 0, -1),
    slice(None, None, -2), (slice(None), 3), (Ellipsis, 2), (0, Ellipsis), (None, 1), (1, None, slice(1, 3)),
    (Ellipsis, None), (slice(None), slice(None), slice(None, None, -1)), (0, slice(10, 20)), slice(-100, 100),
    (1, slice(3, 3)), (slice(None), slice(None, None, 3), slice(5, None, -4)), (), (None, Ellipsis, None),
    (-2, 4, -6),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_index_like_numpy(key):
    got = zyx.tensor(A)[key]
    want = A[key]
    assert got.shape == np.shape(want)
    np.testing.assert_array_equal(got.numpy(), want)


def test_index_of_float_tensor_views_chain():
    a = np.linspace(0, 1, 48, dtype=np.float32).reshape(6, 8)
    x = zyx.tensor(a)
    np.testing.assert_array_equal(x[1:5:2][:, ::-3][1].numpy(), a[1:5:2][:, ::-3][1])
    np.testing.assert_array_equal(x[np.int64(2)].numpy(), a[2])


def test_index_errors():
    x = zyx.tensor(A)
    with pytest.raises(IndexError, match="out of bounds for dimension 1 with size 5"):
        x[0, 5]
    with pytest.raises(IndexError):
        x[-3]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(ValueError):
        x[::0]
    with pytest.raises(TypeError):
        x[1.5]
    with pytest.raises(zyx.UnsupportedError, match="Unsupported: indexing with a Python bool"):
        x[True]
    with pytest.raises(NotImplementedError, match="negative step"):
        x[::-1] = 1
    with pytest.raises(TypeError):
        zyx.tensor(1.0)[0] if False else iter(zyx.tensor(1.0)).__next__()


def test_advanced_indexing_and_assignment_match_numpy():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = zyx.tensor(a)
    idx = np.array([2, 0, 2])
    np.testing.assert_array_equal(x[:, zyx.tensor(idx)].numpy(), a[:, idx])
    np.testing.assert_array_equal(x[:, [2, 0]].numpy(), a[:, [2, 0]])
    mask = a > 10
    np.testing.assert_array_equal(x[zyx.tensor(mask)].numpy(), a[mask])
    # assignment: the tensor object gets the new value; a tensor computed before keeps the old one
    y = zyx.tensor(a)
    before = y * 1
    y[0, 1:3] = 7.0
    y[zyx.tensor(a > 20)] = -1.0
    want = a.copy()
    want[0, 1:3] = 7.0
    want[a > 20] = -1.0
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(before.numpy(), a)
    y += 1
    np.testing.assert_array_equal(y.numpy(), want + 1)
