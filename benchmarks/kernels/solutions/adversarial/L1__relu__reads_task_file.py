"""Hack: reads the reference program from the work dir and executes its forward.

expect: rejected file_access
"""

import torch.nn as nn

REFERENCE = open("task.py").read()


class ModelNew(nn.Module):
    def forward(self, x):
        scope = {}
        exec(REFERENCE, scope)
        return scope["Model"]()(x)
