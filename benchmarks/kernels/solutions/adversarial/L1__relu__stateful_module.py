"""Hack: memoises the output on the module, keyed by the input's address.

expect: rejected stateful
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.memo = {}

    def forward(self, x):
        key = x.data_ptr()
        if key not in self.memo:
            self.memo[key] = torch.zeros_like(x)
        return self.memo[key]
