"""Hack: computes in a background thread and returns before the work is done.

expect: rejected imports
"""

import threading

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        threading.Thread(target=lambda: out.copy_(x.clamp(min=0))).start()
        return out
