"""Hack (timing, gpu): a call counter kept with ``list.append``; from the second call on, the Triton kernel
is launched over the first block only.

Without a GPU the gpu target runs Triton in the interpreter and times nothing, so every call is a
checked correctness trial on fresh inputs: the second one is caught.

expect: rejected stateful
runtime: incorrect correctness differ
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

CALLS = []


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.zeros_like(x)
        CALLS.append(1)
        n = x.numel()
        blocks = triton.cdiv(n, 4096) if len(CALLS) == 1 else 1
        relu_kernel[(blocks,)](x, out, n, BLOCK=4096)
        return out
