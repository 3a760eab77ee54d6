"""Fused dual-component GEMM y = x (A B) + x dequant(R)^T: a high-precision low-rank part plus a 4-bit residual.

R holds one 4-bit code (0..15) per byte, (N_OUT, K); dequant(R)[o, k] = (code - zero[o, g]) * scale[o, g] with
g = k // GROUP. A (K, RANK) and B (RANK, N_OUT) are fp16; x is fp16 (TOKENS, K); the output is fp32
(TOKENS, N_OUT). One epilogue should add both components.
"""

import torch
import torch.nn as nn

TOKENS = 16
K = 2048
N_OUT = 2048
RANK = 32
GROUP = 128
GPU_SHAPES = {'TOKENS': 64, 'K': 8192, 'N_OUT': 8192}
ATOL = 5e-2
RTOL = 2e-2


class Model(nn.Module):
    """Reference: dequantise R in full, then two matmuls and an add."""

    def __init__(self):
        super().__init__()

    def forward(self, x, a, b, codes, scales, zeros):
        groups = codes.float().reshape(codes.shape[0], -1, GROUP)
        residual = ((groups - zeros.float()[..., None]) * scales.float()[..., None]).reshape(codes.shape)
        x = x.float()
        return (x @ a.float()) @ b.float() + x @ residual.T


def get_inputs():
    a = (torch.randn(K, RANK) / K ** 0.5).half()
    b = torch.randn(RANK, N_OUT).half()
    codes = torch.randint(0, 16, (N_OUT, K), dtype=torch.uint8)
    scales = (torch.rand(N_OUT, K // GROUP) * 0.02 + 0.005).half()
    zeros = torch.full((N_OUT, K // GROUP), 8.0).half()
    return [torch.randn(TOKENS, K).half(), a, b, codes, scales, zeros]


def get_init_inputs():
    return []
