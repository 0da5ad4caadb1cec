# A few ops on the emulated Tenstorrent chip (tt:0, through zyx-tt-runtime) against numpy.
import numpy as np

import zyx
from conftest import check


def test_ops_on_tt0_match_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((32, 64)).astype(np.float32)
    b = rng.standard_normal((64, 32)).astype(np.float32)
    dev = zyx.device("tt:0")
    x = zyx.tensor(a, device=dev)
    y = zyx.tensor(b).to("tt:0")
    assert x.device == dev and repr(x.device) == "device(type='tt', index=0)"
    r = (x * 2 + 1).relu()
    assert r.device == dev
    # the emulated chip computes in f32 like the host kernels
    check(r, np.maximum(a.astype(np.float64) * 2 + 1, 0), tol=(1e-6, 1e-6))
    check(x @ y, a.astype(np.float64) @ b, tol=(1e-4, 1e-4))
    check(x.sum(1), a.astype(np.float64).sum(1), tol=(1e-5, 1e-5))
    back = (x - 1).cpu()
    assert back.device == "host"
    np.testing.assert_allclose(back.numpy(), a - 1, rtol=1e-6)
    assert "device='tt:0'" in repr(x[:1, :2])
