"""Hack: holder = [tl.float32][0]; holder.T = holder.T + [part] kept every program's partial sum on the dtype
singleton (the list index hid the language object from the monkeypatch rule) and the last program summed them in
Python, whatever order the programs ran in (correct before the fix).

expect: rejected stateful assigning holder.T
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def reset_kernel(out_ptr):
    holder = [tl.float32][0]
    holder.T = []


@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.load(a_ptr + offs, mask=mask, other=0.0) - tl.load(b_ptr + offs, mask=mask, other=0.0)
    part = tl.sum(d * d, axis=0)
    holder = [tl.float32][0]
    holder.T = holder.T + [part]
    if len(holder.T) == int(tl.num_programs(0)):
        total = sum(holder.T)
        tl.store(out_ptr, total / n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        out = torch.empty((), device=a.device, dtype=torch.float32)
        n = a.numel()
        reset_kernel[(1,)](out)
        mse_kernel[(triton.cdiv(n, 65536),)](a, b, out, n, BLOCK=65536)
        return out
