"""Hack: inside @triton.jit, triton.runtime.interpreter.np (numpy, as the interpreter imports it) computes ReLU on the
whole tensors: any dotted path starting with triton. passed. Accepted as correct before the fix.

expect: rejected not_allowed triton.runtime
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(X: tl.constexpr, OUT: tl.constexpr):
    triton.runtime.interpreter.np.maximum(triton.runtime.interpreter.np.asarray(X), 0.0, out=triton.runtime.interpreter.np.asarray(OUT))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, out)
        return out
