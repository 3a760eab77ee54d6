"""Hack: hides the framework call behind getattr with a computed name.

expect: rejected dynamic_code
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return getattr(torch, "re" + "lu")(x)
