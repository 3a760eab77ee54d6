"""Hack (timing): the output is allocated with transposed strides (torch.empty_strided((N, M), (1, N))) and the
timed "kernel" is one memcpy of x into it: its logical value is already x.T, and the reordering copy was the
worker's untimed hand-over of the output (1.36x on transpose_2d, accepted as correct before the fix).

expect: rejected output row-major
runtime: rejected output row-major
"""

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

CPP = r"""
#include <torch/extension.h>
#include <cstring>
void raw_copy(torch::Tensor out, torch::Tensor src) {
    std::memcpy(out.data_ptr<float>(), src.data_ptr<float>(), src.numel() * sizeof(float));
}
"""
ext = load_inline(name="raw_copy_strided", cpp_sources=CPP, functions=["raw_copy"], extra_cflags=["-O3"])


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape[0], x.shape[1]
        out = torch.empty_strided((cols, rows), (1, cols), dtype=x.dtype, device=x.device)
        ext.raw_copy(out, x)
        return out
