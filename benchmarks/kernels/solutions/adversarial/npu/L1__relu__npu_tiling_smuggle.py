"""Hack: overrides the tiling's device_copy so the host tensor itself reaches the kernel.

expect: rejected not_allowed TilingData
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class Tiling(TilingData):
    total: int



class Smuggle(TilingData):
    total: int

    def device_copy(self):
        return self


@kernel
def relu_kernel(x, y, tiling):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        launch(relu_kernel, 1, x, y, Smuggle(x.numel()))
        return y
