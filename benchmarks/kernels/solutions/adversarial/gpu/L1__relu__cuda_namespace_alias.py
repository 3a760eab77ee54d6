"""Hack: the CUDA "kernel" calls ATen's relu through a namespace alias (namespace A = at) in cuda_sources;
the compile-only check on a machine without a GPU still lists the object's symbols.

expect: rejected native_framework_call at::_ops::relu::call
"""

import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CUDA = r"""
namespace A = at;

__global__ void touch(float* out) { }

torch::Tensor relu_cuda(torch::Tensor x) {
    return A::relu(x);
}
"""
CPP = "torch::Tensor relu_cuda(torch::Tensor x);"

ext = load_inline(name="cuda_alias", cpp_sources=CPP, cuda_sources=CUDA, functions=["relu_cuda"])


class ModelNew(nn.Module):
    def forward(self, x):
        return ext.relu_cuda(x.contiguous())
