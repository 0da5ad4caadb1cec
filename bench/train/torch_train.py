#!/usr/bin/env python3
"""PyTorch CPU baseline for bench/train: the same cases as bench_train (step_host, epoch_host),
same output format ("<name> <value> <unit>"). Needs Debian's python3-torch (scripts/setup --bench)
and the Fashion-MNIST files of dataset-fashion-mnist."""
import gzip
import os
import struct
import sys
import time

import torch


def idx(path):
    with gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb") as f:
        data = f.read()
    ndim = data[3]
    dims = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    return torch.frombuffer(bytearray(data[4 + 4 * ndim:]), dtype=torch.uint8).reshape(dims)


def mlp(hidden):
    return torch.nn.Sequential(torch.nn.Linear(784, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 10))


def step_case():
    torch.manual_seed(0)
    model = mlp(128)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 784), torch.randint(0, 10, (64,))

    def step():
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    for _ in range(5):
        step()
    times = []
    start = time.perf_counter()
    while len(times) < 20 or (len(times) < 500 and time.perf_counter() - start < 2.0):
        a = time.perf_counter()
        step()
        times.append((time.perf_counter() - a) * 1e3)
    times.sort()
    print(f"step_host {times[len(times) // 2]:.4f} ms", flush=True)


def epoch_case():
    root = os.environ.get("ZYX_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")
    images = idx(os.path.join(root, "train-images-idx3-ubyte.gz"))
    labels = idx(os.path.join(root, "train-labels-idx1-ubyte.gz")).long()
    x = ((images.float() / 255.0 - 0.2860) / 0.3530).reshape(60000, 784)
    torch.manual_seed(0)
    model = mlp(256)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, labels), batch_size=64, shuffle=True)
    start = time.perf_counter()
    for bx, by in loader:
        loss = torch.nn.functional.cross_entropy(model(bx), by)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch_host {time.perf_counter() - start:.3f} s", flush=True)


if __name__ == "__main__":
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    if only in ("", "step"):
        step_case()
    if only in ("", "epoch"):
        epoch_case()
