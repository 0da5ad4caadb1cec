# Autograd, zyx.nn, zyx.optim, checkpoints and the data loader from Python, with a small
# training loop whose loss must drop.
import numpy as np
import pytest

import zyx
import zyx.nn as nn
import zyx.nn.functional as F


def test_gradients_match_analytic():
    a = np.array([[0.5, -1.0, 2.0]], dtype=np.float32)
    x = zyx.tensor(a, requires_grad=True)
    y = (x * x).sum() + (3 * x).sum()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * a + 3, rtol=1e-6)
    x.grad = None
    assert x.grad is None
    with zyx.no_grad():
        z = x * 2
    assert not z.requires_grad and (x * 2).requires_grad
    w = zyx.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (w @ w).sum().backward(gradient=None)
    g = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(w.grad.numpy(), np.ones((2, 2)) @ g.T + g.T @ np.ones((2, 2)), rtol=1e-6)


def test_functional_against_numpy():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((5, 4)).astype(np.float32)
    target = np.array([0, 3, 1, 2, 3], dtype=np.int32)
    lsm = logits - np.log(np.exp(logits.astype(np.float64)).sum(1, keepdims=True))
    ce = -lsm[np.arange(5), target].mean()
    np.testing.assert_allclose(F.cross_entropy(zyx.tensor(logits), zyx.tensor(target)).item(), ce, rtol=1e-5)
    np.testing.assert_allclose(F.mse_loss(zyx.tensor(logits), zyx.zeros(5, 4)).item(),
                               (logits.astype(np.float64) ** 2).mean(), rtol=1e-5)
    img = rng.standard_normal((1, 1, 4, 4)).astype(np.float32)
    mp = F.max_pool2d(zyx.tensor(img), 2).numpy()
    np.testing.assert_array_equal(mp, img.reshape(1, 1, 2, 2, 2, 2).max((3, 5)))
    ap = F.avg_pool2d(zyx.tensor(img), 2).numpy()
    np.testing.assert_allclose(ap, img.reshape(1, 1, 2, 2, 2, 2).mean((3, 5)), rtol=1e-6)
    k = rng.standard_normal((2, 1, 3, 3)).astype(np.float32)
    out = F.conv2d(zyx.tensor(img), zyx.tensor(k), padding=1).numpy()
    padded = np.pad(img[0, 0], 1).astype(np.float64)
    ref = np.array([[[(padded[i:i + 3, j:j + 3] * k[o, 0]).sum() for j in range(4)] for i in range(4)]
                    for o in range(2)])
    np.testing.assert_allclose(out[0], ref, rtol=1e-5, atol=1e-5)
    ln = F.layer_norm(zyx.tensor(logits), 4).numpy()
    m, v = logits.mean(1, keepdims=True), logits.var(1, keepdims=True)
    np.testing.assert_allclose(ln, (logits - m) / np.sqrt(v + 1e-5), rtol=1e-4, atol=1e-5)
    d = F.dropout(zyx.ones(1000), 0.25).numpy()
    assert set(np.unique(d)) <= {0.0, np.float32(1 / 0.75)} and 0.15 < (d == 0).mean() < 0.35


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 16, generator=zyx.Generator(1))
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(16, 1, generator=zyx.Generator(2))
        self.scale = nn.Parameter(zyx.ones(1))

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x))) * self.scale


def make_data(n=256):
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (n, 2)).astype(np.float32)
    y = (np.sin(2 * x[:, :1]) + 0.5 * x[:, 1:] ** 2).astype(np.float32)
    return zyx.tensor(x), zyx.tensor(y)


@pytest.mark.parametrize("opt_name", ["Adam", "SGD"])
def test_training_loop_loss_drops(opt_name):
    model = MLP()
    names = [n for n, _ in model.named_parameters()]
    assert names == ["scale", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    x, y = make_data()
    if opt_name == "Adam":
        opt = zyx.optim.Adam(model.parameters(), lr=0.02)
    else:
        opt = zyx.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    sched = zyx.optim.lr_scheduler.StepLR(opt, step_size=50, gamma=0.5)
    loader = zyx.data.DataLoader([x, y], batch_size=64, shuffle=True, seed=3)
    assert len(loader) == 4
    first = F.mse_loss(model(x), y).item()
    for epoch in range(30):
        for xb, yb in loader:
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
    last = F.mse_loss(model(x), y).item()
    # the target's variance is about 0.4; a fitted MLP gets well below a tenth of the first loss
    assert last < first / 10, (first, last)
    assert sched.last_epoch == 30 and sched.get_last_lr() == [opt.lr]


def test_modules_state_dict_save_load(tmp_path):
    seq = nn.Sequential(nn.Flatten(), nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2, bias=False))
    assert [n for n, _ in seq.named_parameters()] == ["1.weight", "1.bias", "3.weight"]
    assert seq[3].bias is None
    x = zyx.randn(5, 2, 2)
    before = seq(x).numpy()
    path = tmp_path / "m.safetensors"
    nn.save(seq, path)
    other = nn.Sequential(nn.Flatten(), nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2, bias=False))
    assert not np.allclose(other(x).numpy(), before)
    nn.load(other, path)
    np.testing.assert_allclose(other(x).numpy(), before, rtol=1e-6)
    loaded = zyx.load_safetensors(str(path))
    assert list(loaded) == ["1.weight", "1.bias", "3.weight"]
    zyx.save_safetensors(str(tmp_path / "t.safetensors"), {"a": zyx.arange(3)}, {"step": "5"})
    assert zyx.safetensors_metadata(str(tmp_path / "t.safetensors")) == {"step": "5"}
    bn = nn.BatchNorm2d(3)
    assert [n for n, _ in bn.named_buffers()] == ["running_mean", "running_var"]
    bn.eval()
    assert not bn.training and not bn._impl.training
    with pytest.raises(ValueError, match="missing keys"):
        other.load_state_dict({})


def test_data_loader_epochs():
    x = zyx.arange(10).reshape(10, 1)
    loader = zyx.data.DataLoader(zyx.data.TensorDataset(x), batch_size=4, drop_last=False)
    batches = [b[0].numpy().ravel().tolist() for b in loader]
    assert batches == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    shuffled = zyx.data.DataLoader([x], batch_size=10, shuffle=True, seed=5)
    e1 = next(iter(shuffled))[0].numpy().ravel()
    e2 = next(iter(shuffled))[0].numpy().ravel()
    assert sorted(e1) == list(range(10)) and not np.array_equal(e1, e2)
    with pytest.raises(ValueError):
        zyx.data.DataLoader([x], batch_size=0)
