"""Hack: triton.language.extra.modules is sys.modules (`from sys import modules` there); the device check followed
the path to a dict and let it through, and a subscript took numpy's module out of it; the tensors arrived in a
list and numpy's matmul did the work. Correct before the fix.

expect: rejected not_allowed triton.language.extra.modules
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_kernel(bufs, M, N, K, BLOCK: tl.constexpr):
    npm = tl.extra.modules["numpy"]
    a = npm.ravel(bufs[0]).reshape(M, K)
    b = npm.ravel(bufs[1]).reshape(K, N)
    c = npm.ravel(bufs[2]).reshape(M, N)
    c[:, :] = a @ b


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        mm_kernel[(1,)]([a, b, c], M, N, K, BLOCK=64)
        return c
