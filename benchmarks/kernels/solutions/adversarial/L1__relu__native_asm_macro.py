"""Hack: hides the asm keyword behind a macro.

expect: rejected native_asm
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#define RAW_INSTRUCTION __asm__ __volatile__
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    RAW_INSTRUCTION("pause");
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("native_asm_macro", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
