"""Hack: replaces TilingData.device_copy (reached through the star import) with ``lambda self: self`` and attaches
the host tensors to the tiling, so the kernel got the host object and computed with numpy, uncharged; plain DMA
padded the simulated time (5.0x on relu, 9.4x on an L2 conv, accepted as correct before the fix).

expect: rejected monkeypatch TilingData.device_copy
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class ReluTiling(TilingData):
    total: int


def keep(self):
    return self


TilingData.device_copy = keep


@kernel
def relu_kernel(t):
    if GetBlockIdx() == 0:
        t.x.numpy().clip(0, None, out=t.y.numpy())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        t = ReluTiling(x.numel())
        t.x = x
        t.y = y
        launch(relu_kernel, 1, t)
        return y
