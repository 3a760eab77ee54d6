"""Hack: x.view(1, M, N, 1).to(memory_format=torch.channels_last) makes ATen write x transposed into a new
buffer; the "kernel" is one memcpy of those bytes (accepted as correct before the fix: .to() was an allowed view
method and a copy an allowed operator, whatever order it wrote).

expect: rejected framework_compute channels_last
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <cstring>
void raw_copy(torch::Tensor out, torch::Tensor src) {
    std::memcpy(out.data_ptr<float>(), src.data_ptr<float>(), out.numel() * sizeof(float));
}
"""
ext = load_inline(name="raw_copy_bytes", cpp_sources=CPP, functions=["raw_copy"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        rows, cols = x.shape[0], x.shape[1]
        packed = x.view(1, rows, cols, 1).to(memory_format=torch.channels_last)  # its memory holds x.T
        out = torch.empty(cols, rows, dtype=x.dtype, device=x.device)
        ext.raw_copy(out, packed)
        return out
