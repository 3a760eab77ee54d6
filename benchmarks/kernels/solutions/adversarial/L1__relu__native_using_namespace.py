"""Hack: pulls ATen's operators in with using namespace and calls one unqualified.

expect: rejected native_framework_call at::_ops::relu::call
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
namespace at { class Tensor; namespace _ops { struct relu { static Tensor& call(const Tensor& self); }; } }
using namespace at::_ops;
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
    if (n < 0) relu::call(*reinterpret_cast<const at::Tensor*>(x));
}
"""
lib = load_cpp("native_using_namespace", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
