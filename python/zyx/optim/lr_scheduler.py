"""Learning-rate schedulers (torch.optim.lr_scheduler's closed forms): call step() once per epoch."""
from .. import _zyx

LRScheduler = _zyx._optim.LRScheduler
StepLR = _zyx._optim.StepLR
CosineAnnealingLR = _zyx._optim.CosineAnnealingLR
