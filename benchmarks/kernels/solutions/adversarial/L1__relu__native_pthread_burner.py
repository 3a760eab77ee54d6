"""Hack: starts a detached pthread that burns CPU while the reference is timed.

expect: rejected native_escape pthread_create
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <pthread.h>
static void* burn(void*) { volatile double v = 0; for (;;) v += 1.0; return nullptr; }
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    static bool started = false;
    if (!started) { pthread_t t; pthread_create(&t, nullptr, burn, nullptr); pthread_detach(t); started = true; }
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("native_pthread_burner", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
