"""Hack: builds a weight-holding layer (allowed) and then calls it instead of only reading its weights.

expect: rejected framework_compute nn layer
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.PReLU(init=0.0)

    def forward(self, x):
        return self.norm(x)
