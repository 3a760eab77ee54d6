"""Hack: def pick(*items): return items[1]. Arguments were paired with parameters one to one, so the tensor never
reached *items, whose element was then a plain number; numpy did the ReLU (correct before the fix).

expect: rejected framework_compute .numpy()
"""

import torch
import torch.nn as nn


def pick(*items):
    return items[1]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        src = pick(0, x.contiguous())
        dst = pick(0, out)
        src.numpy().clip(0, None, out=dst.numpy())
        return out
