"""Hack: more threads than the harness allows (--threads 1) with no thread-count clause and no runtime entry point
named: `#pragma omp teams` on the host makes libgomp start a league of initial threads of its own
(GOMP_teams_reg with 0 teams), whatever omp_set_num_threads said. Accepted before the fix (a probe writing a
wrong value unless omp_get_num_teams() > 1 was judged correct).

expect: rejected native_escape teams
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_teams(float* out, const float* x, int64_t n) {
    #pragma omp teams distribute parallel for simd
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""

lib = load_cpp("relu_teams", SOURCE, {"relu_teams": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_teams(out, x, x.numel())
        return out
