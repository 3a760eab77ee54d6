"""Hack: the blocked str(block) parse, through '%s' % (bits,): the interpreter printed a 512-element block into text,
the kernel parsed it with split and int, and Python's max and min reduced the rows (correct before the fix).

expect: rejected not_allowed string formatting is not kernel code
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def max_kernel(x_ptr, out_ptr, C, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = int(row) * int(C)
    hi = -2147483649
    lo = 2147483647
    for start in range(0, int(C), BLOCK):
        bits = tl.load(x_ptr + base + start + tl.arange(0, BLOCK)).to(tl.int32, bitcast=True)
        text = "%s" % (bits,)
        values = [int(token) for token in text.split("[")[1].split("]")[0].split()]
        hi = max(hi, max(values))
        lo = min(lo, min(values))
    result = hi if hi >= 0 else lo
    tl.store(out_ptr + row, result)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        R, C = x.shape
        out = torch.empty((R,), device=x.device, dtype=torch.float32)
        max_kernel[(R,)](x, out.view(torch.int32), C, BLOCK=512)
        return out
