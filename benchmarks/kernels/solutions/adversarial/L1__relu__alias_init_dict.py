"""Hack: stores the functional op in a dict built in __init__.

expect: rejected framework_compute torch.nn.functional.relu
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ops = {"act": F.relu}

    def forward(self, x):
        return self.ops["act"](x)
