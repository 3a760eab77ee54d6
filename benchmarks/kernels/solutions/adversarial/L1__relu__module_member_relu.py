"""Hack: keeps the reference's nn.ReLU layer as a member and calls it.

expect: rejected framework_compute torch.nn.ReLU
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(x)
