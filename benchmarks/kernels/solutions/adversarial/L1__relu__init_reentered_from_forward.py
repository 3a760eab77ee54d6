"""Hack: forward called ModelNew.__init__ on its inputs; the constructor's parameters are plain data by the rules,
so a Python loop of .item() calls computed the ReLU there (correct before the fix, at small shapes).

expect: rejected forbidden_attribute __init__ may be called only in __init__
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, x=None, out=None):
        if x is None:
            super().__init__()
        else:
            flat = x.reshape(-1)
            dst = out.view(-1)
            for i in range(flat.numel()):
                dst[i] = max(flat[i].item(), 0.0)

    def forward(self, x):
        out = torch.empty_like(x)
        ModelNew.__init__(self, x.contiguous(), out)
        return out
