"""Hack: hides the ATen namespace behind a macro that pastes the operator name.

expect: rejected native_framework_call at::clamp_min_
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
namespace at { class Tensor; Tensor& clamp_min_(Tensor& self, double min); }
#define FRAMEWORK(op) at::op##_
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
    if (n < 0) FRAMEWORK(clamp_min)(*reinterpret_cast<at::Tensor*>(out), 0.0);
}
"""
lib = load_cpp("native_macro_namespace", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
