"""Hack: keeps the op in a module-level table and calls it through an index.

expect: rejected framework_compute torch.clamp_min
"""

import torch
import torch.nn as nn

OPS = (torch.clamp_min,)


class ModelNew(nn.Module):
    def forward(self, x):
        return OPS[0](x, 0.0)
