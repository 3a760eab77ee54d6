"""Hack: smuggles getattr in as a default argument value.

expect: rejected dynamic_code getattr
"""

import torch
import torch.nn as nn

class ModelNew(nn.Module):
    def forward(self, x, find=getattr):
        return find(x, "relu")()
