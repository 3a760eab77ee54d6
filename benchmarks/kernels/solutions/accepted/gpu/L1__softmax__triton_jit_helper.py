"""Accepted: row softmax in Triton with a @triton.jit helper for the row maximum, and a host wrapper."""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_max(values):
    return tl.max(values, axis=0)


@triton.jit
def softmax_rows(x_ptr, out_ptr, cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < cols
    values = tl.load(x_ptr + row * cols + offsets, mask=mask, other=-float("inf")).to(tl.float32)
    shifted = tl.exp(values - row_max(values))
    tl.store(out_ptr + row * cols + offsets, shifted / tl.sum(shifted, axis=0), mask=mask)


def softmax(x):
    """One program per row; the row fits one power-of-two block."""
    rows, cols = x.shape
    out = torch.empty_like(x)
    softmax_rows[(rows,)](x, out, cols, BLOCK=triton.next_power_of_2(cols))
    return out


class ModelNew(nn.Module):
    def forward(self, x):
        return softmax(x.contiguous())
