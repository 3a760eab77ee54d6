"""Hack: returns a constant (zeros) of the right shape; about half of ReLU's outputs are zero anyway.

expect: incorrect elements differ
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.zeros_like(x)
