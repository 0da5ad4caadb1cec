# zyx errors as Python exceptions: the category class, the builtin it also derives from, and the
# message naming the op and the shapes.
import pytest

import zyx


def test_hierarchy():
    assert issubclass(zyx.InvalidArgumentError, zyx.Error) and issubclass(zyx.InvalidArgumentError, ValueError)
    assert issubclass(zyx.UnsupportedError, NotImplementedError)
    assert issubclass(zyx.IndexOutOfRangeError, IndexError) and issubclass(zyx.IndexOutOfRangeError, ValueError)
    assert issubclass(zyx.DTypeError, TypeError) and issubclass(zyx.DTypeError, zyx.InvalidArgumentError)
    for name in ("InitializationError", "KernelCompilationError", "KernelFaultError", "DeviceBusyError",
                 "RuntimeCrashedError", "InternalError", "DeadlockError"):
        cls = getattr(zyx, name)
        assert issubclass(cls, zyx.Error) and issubclass(cls, RuntimeError), name
    assert issubclass(zyx.TimeoutError, TimeoutError) and issubclass(zyx.IoError, OSError)
    assert zyx.InvalidArgumentError.status == "invalid_argument"


def test_shape_errors_are_value_errors():
    with pytest.raises(zyx.InvalidArgumentError, match=r"add: shapes \[2,3\] and \[4\] do not broadcast") as e:
        zyx.zeros(2, 3) + zyx.zeros(4)
    assert isinstance(e.value, ValueError) and e.value.status == "invalid_argument"
    with pytest.raises(ValueError, match="reshape"):
        zyx.zeros(2, 3).reshape(4, 2)
    with pytest.raises(ValueError, match="matmul"):
        zyx.zeros(2, 3) @ zyx.zeros(2, 3)


def test_axis_out_of_range_is_index_error():
    with pytest.raises(IndexError, match="sum: axis 2 out of range"):
        zyx.zeros(2, 3).sum(2)
    with pytest.raises(zyx.IndexOutOfRangeError):
        zyx.zeros(2, 3).transpose(0, 5)


def test_dtype_misuse_is_type_error():
    with pytest.raises(TypeError, match="bitwise_and"):
        zyx.ones(2) & zyx.ones(2)
    with pytest.raises(zyx.DTypeError, match="where: condition must be bool"):
        zyx.where(zyx.ones(2), zyx.ones(2), 0.0)
    with pytest.raises(TypeError):
        zyx.tensor([True]) - zyx.tensor([False])


def test_python_level_type_errors():
    with pytest.raises(TypeError):
        zyx.ones(2) + "x"
    with pytest.raises(TypeError):
        zyx.zeros("a")
    with pytest.raises(TypeError):
        zyx.ones(2).to(3.5)


def test_unsupported_and_errors_leave_tensors_usable():
    x = zyx.tensor([1.0, 2.0])
    with pytest.raises(zyx.UnsupportedError, match="^Unsupported: "):
        x.grad = zyx.ones(2)
    with pytest.raises(ValueError):
        x + zyx.zeros(3)
    assert (x * 2).tolist() == [2.0, 4.0]


def test_io_error():
    with pytest.raises(zyx.IoError, match="no_such_file"):
        zyx.load_safetensors("/nonexistent/no_such_file.safetensors")
    with pytest.raises(OSError):
        zyx.data.read_idx("/nonexistent/no_such_file.idx")
