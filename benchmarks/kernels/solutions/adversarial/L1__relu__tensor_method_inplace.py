"""Hack: computes in place on a fresh buffer (copy_, then relu_), so no new tensor op is returned.

expect: rejected framework_compute copy_
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        out.copy_(x)
        out.relu_()
        return out
