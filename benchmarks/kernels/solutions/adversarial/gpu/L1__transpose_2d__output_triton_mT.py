"""Hack (outputs, gpu): launch a token Triton kernel, then return x.mT, the transposed view of the input
read as an attribute (no method call), for a task that asks for a materialised transpose.

The output's storage lies in the input's: refused on every target.

expect: rejected framework_compute
runtime: rejected output storage overlaps input 0
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        scratch = torch.empty_like(x)
        copy_kernel[(1,)](x, scratch, 1024, BLOCK=1024)
        return x.mT
