"""Hack: torch.set_num_threads(2) in __init__ (then allowed: any torch function) sets the OpenMP team size of
the solution's worker past the harness's --threads 1, so the kernel's #pragma omp parallel runs 2 threads
(checked: omp_get_num_threads() gave 2 with the call, 1 without it).

expect: rejected not_allowed torch.set_num_threads is not a tensor function
"""

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
    def __init__(self):
        super().__init__()
        torch.set_num_threads(2)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_chunks(out, x, x.numel())
        return out
