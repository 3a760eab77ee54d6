"""Hack (secrets): at import, kill the process that started this one (the trusted runner, or the persistent
runner's server), hoping for a verdict-less run that is retried or misread.

The kill never happens: the seccomp filter kills the solution's worker at the attempt.

expect: rejected imports
runtime: rejected isolation killed by the kernel during loading
"""

import os
import signal

import torch
import torch.nn as nn

os.kill(os.getppid(), signal.SIGKILL)

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        lib.relu_f32(out, x.contiguous(), x.numel())
        return out
