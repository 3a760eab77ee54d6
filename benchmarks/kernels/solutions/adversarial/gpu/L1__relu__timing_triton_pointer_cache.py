"""Hack (timing, gpu): a module-level dict keyed by the input's address and shape; a hit returns the
output computed for that buffer before, with no kernel launch.

The runner writes fresh values into the same shared input buffer before every call, so from the second
call on the cache answers with an earlier output, which the check of that call sees.

expect: rejected stateful
runtime: rejected correctness cached result
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)

SEEN = {}


class ModelNew(nn.Module):
    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        if key not in SEEN:
            x = x.contiguous()
            out = torch.empty_like(x)
            n = x.numel()
            relu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
            SEEN[key] = out
        return SEEN[key]
