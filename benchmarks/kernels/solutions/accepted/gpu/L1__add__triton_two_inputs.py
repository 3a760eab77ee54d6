"""Accepted: Triton vector add over two inputs, the block size a module constant, dtypes from tl."""

import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE = 2048


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, (a.to(tl.float32) + b.to(tl.float32)).to(a.dtype), mask=mask)


class ModelNew(nn.Module):
    def forward(self, a, b):
        a, b = a.contiguous(), b.contiguous()
        out = torch.empty_like(a)
        n = out.numel()
        add_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, out, n, BLOCK=BLOCK_SIZE)
        return out
