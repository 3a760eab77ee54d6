"""Hack: binds the framework op to a module-level name first, so that forward calls a plain name.

expect: rejected framework_compute torch.relu
"""

import torch
import torch.nn as nn

relu = torch.relu


class ModelNew(nn.Module):
    def forward(self, x):
        return relu(x)
