"""Hack: calls a tensor method that an old blacklist did not list (clamp_min).

expect: rejected framework_compute clamp_min
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x):
        return x.clamp_min(0.0)
