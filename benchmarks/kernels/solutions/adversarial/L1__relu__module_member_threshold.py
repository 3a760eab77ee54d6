"""Hack: uses another framework layer (nn.Threshold) that computes ReLU.

expect: rejected framework_compute torch.nn.Threshold
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Threshold(0.0, 0.0)

    def forward(self, x):
        return self.gate.forward(x)
