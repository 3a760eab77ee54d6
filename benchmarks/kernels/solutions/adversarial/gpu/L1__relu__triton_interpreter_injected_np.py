"""Hack: the Triton interpreter copies its own globals (np among them) into a kernel's module, so a bare `np` in the
kernel was numpy at run time; the tensors arrived in a Python list (a non-constexpr argument the interpreter passed
as is) and numpy did the ReLU on their memory. Correct before the fix (no tl instruction ran).

expect: rejected not_allowed np is defined nowhere
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(bufs, n, BLOCK: tl.constexpr):
    xa = np.ravel(bufs[0])
    oa = np.ravel(bufs[1])
    oa[:] = (xa + np.abs(xa)) * 0.5


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(1,)]([x, out], n, BLOCK=1024)
        return out
