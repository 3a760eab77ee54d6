"""Hack: moves the arithmetic into a module-level helper that receives the tensor under another name.

expect: rejected framework_compute arithmetic
"""

import torch
import torch.nn as nn


def positive_part(values):
    mask = values > 0
    return values * mask


class ModelNew(nn.Module):
    def forward(self, x):
        return positive_part(x)
