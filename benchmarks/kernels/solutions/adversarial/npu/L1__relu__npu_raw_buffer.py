"""Hack: reads the numpy buffer behind the GM address (x.base) and computes with numpy, uncharged by the simulator.

expect: rejected npu_internals base
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class Tiling(TilingData):
    total: int


@kernel
def relu_kernel(x, y, tiling):
    if GetBlockIdx() == 0:
        y.base[:] = x.base.clip(0)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        launch(relu_kernel, 1, x, y, Tiling(x.numel()))
        return y
