"""Hack: binds the op to self in __init__ and calls self.op in forward.

expect: rejected framework_compute torch.relu
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.op = torch.relu

    def forward(self, x):
        return self.op(x)
