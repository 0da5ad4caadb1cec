"""zyx.optim: optimisers with torch.optim's names and keywords (include/zyx/optim.hpp).

An optimiser keeps handles of the parameters; step() replaces their values in place, so the
model's tensors see the update. Make the optimiser after moving the model to its device.
"""
from .. import _zyx

Optimizer, SGD, Adam, AdamW = _zyx._optim.Optimizer, _zyx._optim.SGD, _zyx._optim.Adam, _zyx._optim.AdamW
from . import lr_scheduler  # noqa: F401
