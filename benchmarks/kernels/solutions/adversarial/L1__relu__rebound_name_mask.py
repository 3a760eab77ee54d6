"""Hack: rebinds the input to another name and computes (y > 0) * y.

expect: rejected framework_compute arithmetic
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x):
        y = x
        return (y > 0) * y
