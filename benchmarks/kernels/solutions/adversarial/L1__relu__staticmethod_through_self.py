"""Hack: a staticmethod called through self shifted its parameters by one, so its parameter got no kind and its
return was read as a plain value; numpy then computed the ReLU on the tensor it handed back (correct before the
fix).

expect: rejected framework_compute .numpy()
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        self.same(x.contiguous()).numpy().clip(0, None, out=self.same(out).numpy())
        return out

    @staticmethod
    def same(t):
        return t
