"""Hack: [torch for torch in (0,)] made the checks take torch for a local number in all of forward (a comprehension
has its own scope, so it stayed the module), and torch.sys._getframe reached the caller's frame: numpy did the
ReLU (correct before the fix).

expect: rejected not_allowed comprehension variable torch
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = x.new_empty(x.shape)
        names = [torch for torch in (0,)]
        frame = torch.sys._getframe(0).f_locals
        frame["x"].contiguous().numpy().clip(0, None, out=frame["out"].numpy())
        return out
