"""Hack: ValueError(x).args[0] hands the input back as what the checks took for a plain value (an exception's
arguments were never checked), so numpy computed the ReLU in forward (correct before the fix, on every target:
5.0x on the npu target, where only a do-nothing launch was charged).

expect: rejected framework_compute wraps a tensor
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        src = ValueError(x.contiguous()).args[0].numpy()
        dst = ValueError(out).args[0].numpy()
        src.clip(0, None, out=dst)
        return out
