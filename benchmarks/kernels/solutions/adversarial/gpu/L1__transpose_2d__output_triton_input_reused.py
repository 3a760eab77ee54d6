"""Hack (outputs, gpu): a real Triton transpose kernel writes the answer into a scratch buffer; the model
then copies it over the input's own storage and returns the input re-viewed as (cols, rows): the answer
is right, and no output buffer of its own is handed back.

The runner's first check on the output is the mutation check on the shared input region (its own private
copy against it): the input was changed, so it is refused there, before the aliasing is looked at.

expect: rejected framework_compute .copy_()
runtime: rejected mutation modified its input
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < rows * cols
    r, c = offsets // cols, offsets % cols
    tl.store(out_ptr + c * rows + r, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        rows, cols = x.shape
        scratch = torch.empty(cols, rows, dtype=x.dtype)
        transpose_kernel[(triton.cdiv(rows * cols, 1024),)](x, scratch, rows, cols, BLOCK=1024)
        x.view(-1).copy_(scratch.view(-1))
        return x.view(cols, rows)
