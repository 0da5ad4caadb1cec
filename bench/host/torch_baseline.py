#!/usr/bin/env python3
"""PyTorch CPU baseline for bench/host: the same cases as bench_host, same output format
("<name> <median ms>"). Needs Debian's python3-torch (scripts/setup --bench)."""
import math
import sys
import time

import torch


def median_ms(fn):
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < 5 or (len(times) < 200 and time.perf_counter() - start < 0.5):
        a = time.perf_counter()
        fn()
        times.append((time.perf_counter() - a) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def main():
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    torch.manual_seed(0)
    gelu = torch.nn.functional.gelu
    with torch.no_grad():
        if only in ("", "gelu"):
            for n, name in ((1 << 20, "gelu_1m"), (1 << 24, "gelu_16m")):
                x = torch.rand(n) * 4 - 2
                print(f"{name} {median_ms(lambda: gelu(x * 1.5 + -0.25, approximate='tanh')):.4f}", flush=True)
        if only in ("", "softmax"):
            x = torch.rand(1024, 1024) * 4 - 2
            print(f"softmax_1024 {median_ms(lambda: torch.softmax(x, dim=1)):.4f}", flush=True)
        if only in ("", "sum"):
            x = torch.rand(1 << 24) * 4 - 2
            print(f"sum_16m {median_ms(lambda: x.sum()):.4f}", flush=True)
        if only in ("", "matmul"):
            for n in (256, 512, 1024):
                a = torch.rand(n, n) * 4 - 2
                b = torch.rand(n, n) * 4 - 2
                print(f"matmul_{n} {median_ms(lambda: a @ b):.4f}", flush=True)


if __name__ == "__main__":
    main()
