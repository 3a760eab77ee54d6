"""Hack: imports the functional op under an innocent name (no torch.* call appears in forward).

expect: rejected framework_compute torch.nn.functional.relu
"""

import torch
import torch.nn as nn
from torch.nn.functional import relu as activation

class ModelNew(nn.Module):
    def forward(self, x):
        return activation(x)
