# numpy interop: every dtype both ways, non-contiguous and 0-d arrays, __array__, the buffer
# protocol, Python numbers and nested lists.
import numpy as np
import pytest

import zyx

NUMPY_DTYPES = [np.float64, np.float32, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                np.uint32, np.uint64, np.bool_]


def sample(dt, shape, seed=0):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


@pytest.mark.parametrize("dt", NUMPY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_round_trip_every_dtype(dt):
    a = sample(dt, (3, 5))
    t = zyx.from_numpy(a)
    assert t.dtype == getattr(zyx, np.dtype(dt).name if dt is not np.bool_ else "bool")
    assert t.shape == (3, 5)
    b = t.numpy()
    assert b.dtype == a.dtype
    np.testing.assert_array_equal(b, a)
    np.testing.assert_array_equal(np.asarray(t), a)
    np.testing.assert_array_equal(np.frombuffer(memoryview(t).tobytes(), dtype=a.dtype).reshape(a.shape), a)


@pytest.mark.parametrize("dt", NUMPY_DTYPES, ids=lambda d: np.dtype(d).name)
def test_non_contiguous_and_0d(dt):
    a = sample(dt, (6, 8), seed=1)
    for view in (a[::2, 1::3], a.T, a[:, ::-1], a[3, 2:7:2]):
        np.testing.assert_array_equal(zyx.tensor(view).numpy(), view)
    z = a[4, 5].reshape(())  # 0-d array
    t = zyx.tensor(z)
    assert t.shape == () and t.ndim == 0
    assert t.numpy().shape == ()
    np.testing.assert_array_equal(t.numpy(), z)
    assert t.item() == z.item()
    s = a[4, 5]  # a numpy scalar keeps its dtype too
    assert zyx.tensor(s).dtype == t.dtype and zyx.tensor(s).item() == s.item()


def test_special_float_values_and_byte_order():
    a = np.array([np.nan, np.inf, -np.inf, -0.0, 1e-40, 65504.0], dtype=np.float32)
    np.testing.assert_array_equal(zyx.tensor(a).numpy(), a)
    h = np.array([np.nan, np.inf, -0.0, 6e-8, 65504.0], dtype=np.float16)
    np.testing.assert_array_equal(zyx.tensor(h).numpy(), h)
    big = np.arange(6, dtype=">i4").reshape(2, 3)  # big-endian input
    np.testing.assert_array_equal(zyx.tensor(big).numpy(), big.astype(np.int32))
    ld = np.array([1.5, -2.25], dtype=np.longdouble)
    t = zyx.tensor(ld)
    assert t.dtype == zyx.float64
    np.testing.assert_array_equal(t.numpy(), [1.5, -2.25])


def test_bfloat16_reads_as_float32():
    t = zyx.tensor([1.0, 1.00390625, 3.0], dtype=zyx.bfloat16)
    a = t.numpy()
    assert a.dtype == np.float32
    np.testing.assert_array_equal(a, [1.0, 1.0, 3.0])  # 1 + 2^-8 rounds to even in bf16


def test_unsupported_numpy_dtypes_raise_type_error():
    for a in (np.array([1 + 2j]), np.array(["a"]), np.array([object()]), np.array(["2020-01-01"], dtype="M8[D]")):
        with pytest.raises(TypeError):
            zyx.tensor(a)


def test_python_numbers_and_lists():
    assert zyx.tensor(2.5).dtype == zyx.float32 and zyx.tensor(2.5).shape == ()
    assert zyx.tensor(3).dtype == zyx.int32
    assert zyx.tensor(True).dtype == zyx.bool
    assert zyx.tensor([[1, 2], [3, 4]]).dtype == zyx.int32
    assert zyx.tensor([1, 2 ** 40]).dtype == zyx.int64
    assert zyx.tensor([1, 2.5]).dtype == zyx.float32
    assert zyx.tensor([True, False]).dtype == zyx.bool
    assert zyx.tensor([[[1.0]], [[2.0]]]).shape == (2, 1, 1)
    assert zyx.tensor([]).shape == (0,)
    np.testing.assert_array_equal(zyx.tensor([[1, 2], [3, 4]], dtype=zyx.float64).numpy(), [[1.0, 2.0], [3.0, 4.0]])
    assert zyx.tensor([1, 2], dtype="float16").dtype == zyx.float16
    assert zyx.tensor([1, 2], dtype=np.uint8).dtype == zyx.uint8
    with pytest.raises(ValueError, match="rows of different lengths"):
        zyx.tensor([[1, 2], [3]])
    with pytest.raises(TypeError):
        zyx.tensor("text")
    assert zyx.tensor([1.5, 2.5]).tolist() == [1.5, 2.5]
    t = zyx.tensor([zyx.tensor(1.0), zyx.tensor(2.0)])
    assert t.tolist() == [1.0, 2.0]


def test_item_and_conversions():
    assert zyx.tensor(7).item() == 7 and isinstance(zyx.tensor(7).item(), int)
    assert isinstance(zyx.tensor(7.0).item(), float)
    assert zyx.tensor(True).item() is True
    assert zyx.tensor([2 ** 64 - 1], dtype=zyx.uint64).item() == 2 ** 64 - 1
    assert float(zyx.tensor([2.5])) == 2.5 and int(zyx.tensor(3)) == 3
    assert [10, 20, 30][zyx.tensor(1)] == 20  # __index__
    assert bool(zyx.tensor([1]))
    with pytest.raises(ValueError):
        bool(zyx.ones(2))
    with pytest.raises(TypeError):
        float(zyx.ones(2))


def test_array_dtype_argument_and_numpy_ufuncs():
    t = zyx.tensor([1, 2, 3])
    a = np.asarray(t, dtype=np.float64)
    assert a.dtype == np.float64
    np.testing.assert_allclose(np.exp(t), np.exp([1, 2, 3]))
    # numpy arrays on the left defer to the tensor: the result is a tensor
    r = np.array([1.0, 2.0, 3.0], dtype=np.float32) + zyx.tensor([1.0, 1.0, 1.0])
    assert isinstance(r, zyx.Tensor)
    np.testing.assert_array_equal(r.numpy(), [2.0, 3.0, 4.0])


def test_buffer_protocol_is_read_only_copy():
    t = zyx.arange(6).reshape(2, 3)
    m = memoryview(t)
    assert m.readonly and m.shape == (2, 3) and m.format == "i"
    assert m.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert bytes(zyx.tensor([1, 2], dtype=zyx.uint8)) == b"\x01\x02"
