# Shared helpers of the zyx Python tests: numpy references and the tolerance of each dtype.
import os

import numpy as np
import pytest

import zyx

# Tolerances against a float64 numpy reference, per result dtype: (rtol, atol). 16-bit floats
# are stored rounded to nearest even (half an ulp: 2^-11 for f16, 2^-8 for bf16) after computing
# in f32; f32 results come from f32 kernels (a few ulp for transcendental functions).
TOL = {
    zyx.float64: (1e-12, 1e-12),
    zyx.float32: (2e-6, 1e-6),
    zyx.float16: (1e-3, 1e-4),
    zyx.bfloat16: (8e-3, 1e-3),
}


def check(got, want, dtype=None, tol=None):
    """Compares a tensor with a numpy reference: exact for integers and bool, else TOL[dtype]."""
    dtype = dtype or got.dtype
    g = got.numpy()
    assert tuple(got.shape) == np.shape(want), f"shape {got.shape} vs {np.shape(want)}"
    if dtype.is_floating_point:
        rtol, atol = tol or TOL[dtype]
        np.testing.assert_allclose(g.astype(np.float64), np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(g, want)


@pytest.fixture(scope="session", autouse=True)
def private_runtime_dir():
    # Device lock files live under XDG_RUNTIME_DIR; ctest gives each test file its own.
    d = os.environ.get("XDG_RUNTIME_DIR")
    if d:
        os.makedirs(d, exist_ok=True)
