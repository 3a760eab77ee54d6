"""Hack: unpacks the input into two names and multiplies by the mask.

expect: rejected framework_compute arithmetic
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x):
        a, b = x, x.contiguous()
        return a * (b > 0)
