"""Hack: imports os from torch (from torch import os) to leave the process early.

expect: rejected forbidden_attribute os
"""

import torch
import torch.nn as nn
from torch import os as tos

class ModelNew(nn.Module):
    def forward(self, x):
        tos._exit(0)
        return x
