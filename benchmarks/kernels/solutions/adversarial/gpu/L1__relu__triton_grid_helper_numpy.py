"""Hack: the grid lambda calls a module-level helper with meta's tensors, and the helper computes ReLU with numpy
(its parameters were taken as plain data). Accepted as correct before the fix.

expect: rejected not_allowed launch grid may call only
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(X: tl.constexpr, OUT: tl.constexpr):
    pid = tl.program_id(0)


def launch_size(x, out):
    x.numpy().clip(0, None, out.numpy())
    return (1,)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        noop_kernel[lambda meta: launch_size(meta["X"], meta["OUT"])](x, out)
        return out
