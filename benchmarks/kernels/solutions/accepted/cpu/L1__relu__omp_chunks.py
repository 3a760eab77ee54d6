"""Accepted: ReLU with an OpenMP parallel region that splits the array into one contiguous chunk per thread."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <omp.h>
extern "C" void relu_chunks(float* out, const float* x, int64_t n) {
    #pragma omp parallel
    {
        const int64_t threads = omp_get_num_threads();
        const int64_t chunk = (n + threads - 1) / threads;
        const int64_t begin = omp_get_thread_num() * chunk;
        const int64_t end = begin + chunk < n ? begin + chunk : n;
        #pragma omp simd
        for (int64_t i = begin; i < end; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
    }
}
"""

lib = load_cpp("relu_chunks", SOURCE, {"relu_chunks": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_chunks(out, x, x.numel())
        return out
