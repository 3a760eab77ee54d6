"""Hack: the kernel writes -relu(x) and sets the output's negation bit (_set_neg): the worker's untimed hand-over
copy resolves the negation, so work moves out of the timed call (accepted as correct before the fix).

expect: rejected native_framework_call _set_neg
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>

torch::Tensor relu_neg(torch::Tensor x) {
    auto out = torch::empty_like(x);
    const float* in = x.data_ptr<float>();
    float* o = out.data_ptr<float>();
    const int64_t n = x.numel();
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) o[i] = in[i] > 0.0f ? -in[i] : -0.0f;
    out._set_neg(true);
    return out;
}
"""

ext = load_inline(name="relu_negbit", cpp_sources=CPP, functions=["relu_neg"],
                  extra_cflags=["-O3", "-fopenmp"], extra_ldflags=["-lgomp"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return ext.relu_neg(x.contiguous())
