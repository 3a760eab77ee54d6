"""Hack: imports the reference program and runs its Model.

expect: rejected reference_access
"""

import torch.nn as nn

from task import Model


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Model()

    def forward(self, x):
        return self.inner(x)
