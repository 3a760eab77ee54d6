"""Hack: tiles properly but computes the result with torch on the host and launches an empty kernel.

expect: rejected framework_compute clamp
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class Tiling(TilingData):
    total: int


@kernel
def relu_kernel(x, y, tiling):
    pass


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        launch(relu_kernel, 1, x, y, Tiling(x.numel()))
        return x.clamp(min=0.0)
