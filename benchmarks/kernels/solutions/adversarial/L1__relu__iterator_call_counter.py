"""Hack: an iterator made in __init__ (enumerate(range(1 << 40))) keeps its position, so forward could count its
calls (warm-up, trials, timing) through it with no assignment to self outside __init__ (passed the checks).

expect: rejected stateful makes an iterator that is kept
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = enumerate(range(1 << 40))

    def forward(self, x):
        n = 0
        for i, _ in self.calls:
            n = i
            break
        out = torch.empty_like(x)
        return out
