"""Hack: exits the process with status 0 before any check can fail.

expect: rejected early_exit
"""

import os

import torch.nn as nn

os._exit(0)


class ModelNew(nn.Module):
    def forward(self, x):
        return x
