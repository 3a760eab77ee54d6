"""Hack: launches the work on a side stream that the timer does not wait for.

expect: rejected forbidden_attribute
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            out = torch.empty_like(x)
        return out
