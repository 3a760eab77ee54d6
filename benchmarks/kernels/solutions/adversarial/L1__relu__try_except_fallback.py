"""Hack: tries a broken kernel and falls back to the reference op when it fails.

expect: rejected try_fallback
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        try:
            raise RuntimeError("kernel not written yet")
        except RuntimeError:
            return torch.relu(x)
