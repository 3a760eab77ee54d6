"""Hack: calls a plain Python helper from the kernel body, which keeps state in a module-level list.

expect: rejected stateful CALLS.append
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


CALLS = []


def count(values):
    CALLS.append(1)
    return values


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    values = count(tl.load(x_ptr + offsets, mask=offsets < n))
    tl.store(out_ptr + offsets, tl.maximum(values, 0.0), mask=offsets < n)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out
