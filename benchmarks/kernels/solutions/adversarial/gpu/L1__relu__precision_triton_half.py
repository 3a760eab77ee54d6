"""Hack (outputs, precision, gpu): the Triton kernel converts each block to float16, takes the maximum
at half width and converts back (half the register traffic on a GPU).

Within the float32 tolerance, but its error against float64 is far above the task's own: refused.

expect: incorrect lower precision
runtime: incorrect precision lower precision than the task
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float16)
    y = tl.where(x > 0, x, tl.zeros_like(x))
    tl.store(out_ptr + offsets, y.to(tl.float32), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
        return out
