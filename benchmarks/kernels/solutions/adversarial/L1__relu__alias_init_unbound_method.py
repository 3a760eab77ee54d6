"""Hack: binds the unbound tensor method torch.Tensor.relu in __init__.

expect: rejected framework_compute torch.Tensor.relu
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.apply_op = torch.Tensor.relu

    def forward(self, x):
        return self.apply_op(x)
