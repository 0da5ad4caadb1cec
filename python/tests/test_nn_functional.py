# nn.functional's pooling options, conv_transpose2d and interpolate against numpy loops written
# from PyTorch's definitions (the references below are plain and slow on purpose).
import math

import numpy as np
import pytest

import zyx
import zyx.nn.functional as F

from conftest import check

RNG = np.random.default_rng(11)
X = RNG.uniform(-2, 2, size=(2, 3, 5, 7)).astype(np.float32)


def out_size(n, k, s, p, d, ceil_mode):
    span = n + 2 * p - d * (k - 1) - 1
    o = (-(-span // s) if ceil_mode else span // s) + 1
    if ceil_mode and (o - 1) * s >= n + p:  # a last window starting in the right padding is dropped
        o -= 1
    return o


def pool_ref(x, k, s, p, ceil_mode, kind, count_include_pad=True, divisor_override=None, d=1):
    n, c, h, w = x.shape
    oh, ow = out_size(h, k, s, p, d, ceil_mode), out_size(w, k, s, p, d, ceil_mode)
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - p, j * s - p
            rows = [r0 + d * a for a in range(k) if 0 <= r0 + d * a < h]
            cols = [c0 + d * b for b in range(k) if 0 <= c0 + d * b < w]
            win = x[:, :, rows][:, :, :, cols].astype(np.float64)
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                # PyTorch's divisor: the window clipped to the padded input (never past it).
                r1, c1 = min(r0 + k, h + p), min(c0 + k, w + p)
                padded = (r1 - r0) * (c1 - c0)
                div = divisor_override or (padded if count_include_pad else len(rows) * len(cols))
                out[:, :, i, j] = win.sum(axis=(2, 3)) / div
    return out


@pytest.mark.parametrize("ceil_mode", [False, True])
def test_max_pool2d_options(ceil_mode):
    got = F.max_pool2d(zyx.tensor(X), 3, stride=2, padding=1, ceil_mode=ceil_mode)
    check(got, pool_ref(X, 3, 2, 1, ceil_mode, "max"))
    got = F.max_pool2d(zyx.tensor(X), 2, stride=1, dilation=2, ceil_mode=ceil_mode)
    check(got, pool_ref(X, 2, 1, 0, ceil_mode, "max", d=2))


@pytest.mark.parametrize("ceil_mode,count_include_pad,divisor", [(False, True, None), (True, True, None),
                                                                 (True, False, None), (False, False, 5)])
def test_avg_pool2d_options(ceil_mode, count_include_pad, divisor):
    got = F.avg_pool2d(zyx.tensor(X), 3, stride=2, padding=1, ceil_mode=ceil_mode,
                       count_include_pad=count_include_pad, divisor_override=divisor)
    check(got, pool_ref(X, 3, 2, 1, ceil_mode, "avg", count_include_pad, divisor))


def test_pool_errors():
    with pytest.raises(NotImplementedError, match="return_indices"):
        F.max_pool2d(zyx.tensor(X), 2, return_indices=True)
    with pytest.raises(ValueError, match="divisor_override"):
        F.avg_pool2d(zyx.tensor(X), 2, divisor_override=0)


def conv_transpose_ref(x, w, b, s, p, op, d, groups):
    n, cin, h, wd = x.shape
    _, cout_g, kh, kw = w.shape
    oh = (h - 1) * s - 2 * p + d * (kh - 1) + op + 1
    ow = (wd - 1) * s - 2 * p + d * (kw - 1) + op + 1
    out = np.zeros((n, cout_g * groups, oh, ow))
    cin_g = cin // groups
    # Each input cell scatters its kernel-weighted value into the output (PyTorch's definition).
    for ci in range(cin):
        g = ci // cin_g
        for co in range(cout_g):
            for i in range(h):
                for j in range(wd):
                    for a in range(kh):
                        for bb in range(kw):
                            r, c = i * s - p + a * d, j * s - p + bb * d
                            if 0 <= r < oh and 0 <= c < ow:
                                out[:, g * cout_g + co, r, c] += x[:, ci, i, j] * w[ci, co, a, bb]
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


@pytest.mark.parametrize("s,p,op,d,groups", [(1, 0, 0, 1, 1), (2, 1, 1, 1, 1), (2, 0, 0, 2, 3)])
def test_conv_transpose2d(s, p, op, d, groups):
    x = RNG.uniform(-1, 1, size=(2, 3, 4, 5)).astype(np.float32)
    w = RNG.uniform(-1, 1, size=(3, 2, 3, 2)).astype(np.float32)
    b = RNG.uniform(-1, 1, size=(2 * groups,)).astype(np.float32)
    got = F.conv_transpose2d(zyx.tensor(x), zyx.tensor(w), zyx.tensor(b), stride=s, padding=p, output_padding=op,
                             groups=groups, dilation=d)
    check(got, conv_transpose_ref(x, w, b, s, p, op, d, groups), tol=(1e-5, 1e-5))


def interp_ref(x, oh, ow, mode, align_corners, scale=(None, None)):
    n, c, h, w = x.shape

    def src(i, o, size, sc):
        if mode == "nearest":
            return min(int(math.floor(i / sc if sc else i * size / o)), size - 1)
        if align_corners:
            return i * (size - 1) / (o - 1) if o > 1 else 0.0
        return max((i + 0.5) * (1 / sc if sc else size / o) - 0.5, 0.0)

    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            if mode == "nearest":
                out[:, :, i, j] = x[:, :, src(i, oh, h, scale[0]), src(j, ow, w, scale[1])]
                continue
            y, z = src(i, oh, h, scale[0]), src(j, ow, w, scale[1])
            y0, z0 = min(int(y), h - 1), min(int(z), w - 1)
            y1, z1 = min(y0 + 1, h - 1), min(z0 + 1, w - 1)
            fy, fz = y - y0, z - z0
            xx = x.astype(np.float64)
            out[:, :, i, j] = ((1 - fy) * ((1 - fz) * xx[:, :, y0, z0] + fz * xx[:, :, y0, z1]) +
                               fy * ((1 - fz) * xx[:, :, y1, z0] + fz * xx[:, :, y1, z1]))
    return out


@pytest.mark.parametrize("mode,align_corners", [("nearest", None), ("bilinear", False), ("bilinear", True)])
def test_interpolate_size(mode, align_corners):
    got = F.interpolate(zyx.tensor(X), size=(8, 4), mode=mode, align_corners=align_corners)
    check(got, interp_ref(X, 8, 4, mode, bool(align_corners)), tol=(1e-5, 1e-6))


def test_interpolate_scale_factor():
    got = F.interpolate(zyx.tensor(X), scale_factor=2)
    check(got, interp_ref(X, 10, 14, "nearest", False, scale=(2.0, 2.0)))
    # W = 7 by 1.5 gives 10 columns; the source positions follow the scale (1/1.5), not 7/10.
    got = F.interpolate(zyx.tensor(X), scale_factor=(2, 1.5), mode="bilinear")
    check(got, interp_ref(X, 10, 10, "bilinear", False, scale=(2.0, 1.5)), tol=(1e-5, 1e-6))


def test_interpolate_errors():
    with pytest.raises(ValueError, match="align_corners"):
        F.interpolate(zyx.tensor(X), size=4, align_corners=True)
