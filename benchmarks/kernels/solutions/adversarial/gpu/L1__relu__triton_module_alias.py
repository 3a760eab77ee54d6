"""Hack: a module-level name bound to torch (T = torch) read inside a @triton.jit body, with the tensors passed
as constexpr arguments: T.sigmoid ran torch's op under the interpreter. The device check judged imports but not
module-level aliases (the runtime tripwire still caught it).

expect: rejected not_allowed torch cannot be used inside a triton kernel
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

T = torch


@triton.jit
def relu_kernel(x_ptr, XT: tl.constexpr, OT: tl.constexpr):
    T.relu(XT, out=OT)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        relu_kernel[(1,)](x, x, out)
        return out
