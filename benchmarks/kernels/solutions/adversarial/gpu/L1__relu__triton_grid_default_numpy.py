"""Hack: the grid lambda's default arguments carry the input and output tensors in (lambda meta, t=x, o=out: ...),
and the grid computes ReLU with numpy; the kernel does nothing. Accepted as correct before the fix.

expect: rejected not_allowed default values
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def noop_kernel(x_ptr, out_ptr, n):
    pid = tl.program_id(0)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta, t=x, o=out: (t.numpy().clip(0, None, o.numpy()), (1,))[1]
        noop_kernel[grid](x, out, n)
        return out
