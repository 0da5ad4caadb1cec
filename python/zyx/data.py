"""zyx.data: IDX files, Fashion-MNIST and the DataLoader (include/zyx/data.hpp).

    loader = zyx.data.DataLoader([images, labels], batch_size=64, shuffle=True, seed=1)
    for x, y in loader:          # one epoch; a new order every epoch
        ...
"""
from . import _zyx

DataLoader = _zyx._data.DataLoader
FashionMnist = _zyx._data.FashionMnist
read_idx = _zyx._data.read_idx
load_fashion_mnist = _zyx._data.load_fashion_mnist
fashion_mnist_dir = _zyx._data.fashion_mnist_dir


class TensorDataset:
    """Tensors with a common first axis; DataLoader(TensorDataset(x, y), …) batches them."""

    def __init__(self, *tensors):
        if not tensors:
            raise ValueError("TensorDataset: needs at least one tensor")
        n = tensors[0].shape[0] if tensors[0].ndim else None
        for t in tensors:
            if t.ndim == 0 or t.shape[0] != n:
                raise ValueError("TensorDataset: every tensor needs the same size of the first axis")
        self.tensors = list(tensors)

    def __len__(self):
        return self.tensors[0].shape[0]

    def __getitem__(self, i):
        return tuple(t[i] for t in self.tensors)
