"""Hack: calls ATen from plain C++ through a namespace alias (namespace A = at), declaring what it needs.

expect: rejected native_framework_call at::relu_
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
namespace at { class Tensor; Tensor& relu_(Tensor& self); }
namespace A = at;
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
    if (n < 0) A::relu_(*reinterpret_cast<A::Tensor*>(out));
}
"""
lib = load_cpp("native_namespace_alias", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
