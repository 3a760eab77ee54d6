"""Accepted: the bias parameter is created exactly as the reference creates it (same seed, same shape);
a helper method of ModelNew launches the fused kernel."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void bias_relu(float* out, const float* x, const float* bias, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const float v = x[r * cols + c] + bias[c];
            out[r * cols + c] = v > 0.0f ? v : 0.0f;
        }
}
"""

lib = load_cpp("bias_relu_param", SOURCE, {"bias_relu": ["tensor", "tensor", "tensor", "int", "int"]})


class ModelNew(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(features))

    def run(self, x, bias):
        """Launch the fused bias-add-ReLU on contiguous rows."""
        out = torch.empty_like(x)
        lib.bias_relu(out, x, bias, x.shape[0], x.shape[1])
        return out

    def forward(self, x):
        return self.run(x.contiguous(), self.bias.detach().contiguous())
