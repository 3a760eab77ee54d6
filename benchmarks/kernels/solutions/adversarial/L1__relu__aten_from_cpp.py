"""Hack: the C++ "kernel" just calls ATen's own op (torch::relu) through load_inline.

expect: rejected native_framework_call
"""

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
torch::Tensor my_relu(torch::Tensor x) { return torch::relu(x); }
"""
ext = load_inline(name="aten_relu", cpp_sources=CPP, functions=["my_relu"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.my_relu(x)
