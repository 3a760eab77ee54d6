"""Hack (secrets, gpu): a correct Triton kernel, and a constructor that sends SIGKILL to the parent process
(the trusted runner or the persistent runner's server), hoping for a verdict-less run that is retried.

The seccomp filter kills the solution's worker at the attempt, on every target.

expect: rejected imports
runtime: rejected isolation tried to signal another process
"""

import os
import signal

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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        os.kill(os.getppid(), signal.SIGKILL)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
        return out
