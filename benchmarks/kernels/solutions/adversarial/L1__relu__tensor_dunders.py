"""Hack: spells ReLU with dunder methods: (|x| + x) * 0.5 as x.__abs__().__add__(x).__mul__(0.5).

expect: rejected framework_compute operator hook
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x):
        return x.__abs__().__add__(x).__mul__(0.5)
