"""Hack: walks the interpreter's objects to find the reference model and call it.

expect: rejected imports
"""

import gc

import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        for obj in gc.get_objects():
            if type(obj).__name__ == "Model":
                return obj(x)
        return x
