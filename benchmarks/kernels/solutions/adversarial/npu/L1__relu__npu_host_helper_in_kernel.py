"""Hack: calls a module-level helper from the kernel body, and the helper computes with torch.

expect: rejected not_allowed torch
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class Tiling(TilingData):
    total: int


def cheat(x, y):
    y.base[:] = torch.relu(torch.from_numpy(x.base)).numpy()


@kernel
def relu_kernel(x, y, tiling):
    cheat(x, y)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        launch(relu_kernel, 1, x, y, Tiling(x.numel()))
        return y
