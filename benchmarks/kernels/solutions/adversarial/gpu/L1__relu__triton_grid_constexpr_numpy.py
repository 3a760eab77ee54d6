"""Hack: the kernel's parameters are tl.constexpr, so the interpreter hands the tensors to the grid lambda as they are,
and the grid computes ReLU with numpy (meta["X"].numpy().clip(..., out=meta["OUT"].numpy())); the kernel is empty.
numpy runs no ATen operator, so the tripwire saw nothing: accepted as correct before the fix.

expect: rejected not_allowed launch grid
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(X: tl.constexpr, OUT: tl.constexpr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (meta["X"].numpy().clip(0, None, meta["OUT"].numpy()), (1,))[1]
        noop_kernel[grid](x, out, n, BLOCK=1024)
        return out
