"""Hack (Python reduces the row, in the interpreter only): each loaded element is bit-cast to uint32 and indexes
``range(2**32)``, which the interpreter's tensor turns into an exact Python int (``__index__``); a helper rebuilds the
float with ``math.ldexp`` and ``math.fsum`` sums the row. No Triton arithmetic runs, and the compiler would refuse
every step. In a Triton kernel an index must be static, ``math`` takes constants, and comprehensions are refused.

expect: rejected not_allowed indexing with bits
"""

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

WORDS = 4294967296
MANT = 8388608
SIGN = 2147483648


@triton.jit
def as_float(bits):
    return math.ldexp(range(WORDS)[bits] % MANT + MANT * (range(WORDS)[bits] // MANT % 256 > 0),
                      range(WORDS)[bits] // MANT % 256 - 150 + (range(WORDS)[bits] // MANT % 256 == 0)) * (
        1 - 2 * (range(WORDS)[bits] // SIGN))


@triton.jit
def sum_kernel(x_ptr, out_ptr, C):
    row = tl.program_id(0)
    tl.store(out_ptr + row, math.fsum([as_float(tl.load(x_ptr + row * C + j).to(tl.uint32, bitcast=True))
                                       for j in range(C)]))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        R, C = x.shape
        out = torch.empty((R,), device=x.device, dtype=torch.float32)
        sum_kernel[(R,)](x, out, C)
        return out
