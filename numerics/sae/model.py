"""A BatchTopK sparse autoencoder: the k·batch largest encoder activations across a batch survive."""

from __future__ import annotations

import torch
from torch import nn


class BatchTopKSAE(nn.Module):
    """Encoder ReLU(W_e(x − b_d) + b_e), batch-level top-k, unit-norm decoder rows, decoder bias b_d."""

    def __init__(self, dim: int, width: int, k: float, *, generator: torch.Generator | None = None):
        super().__init__()
        self.k = k
        decoder = torch.randn(width, dim, generator=generator)
        self.decoder = nn.Parameter(decoder / decoder.norm(dim=1, keepdim=True))
        self.encoder = nn.Parameter(self.decoder.detach().T.clone())
        self.encoder_bias = nn.Parameter(torch.zeros(width))
        self.decoder_bias = nn.Parameter(torch.zeros(dim))
        self.register_buffer("threshold", torch.tensor(0.0))

    def encode(self, x: torch.Tensor) -> torch.Tensor:
        pre = torch.relu((x - self.decoder_bias) @ self.encoder + self.encoder_bias)
        if not self.training:
            return pre * (pre > self.threshold)
        keep = max(1, int(round(self.k * x.shape[0])))
        flat = pre.flatten()
        values, indices = flat.topk(min(keep, flat.numel()))
        with torch.no_grad():  # running estimate of the inference threshold
            self.threshold.lerp_(values[-1].clamp_min(0.0), 0.01)
        return torch.zeros_like(flat).scatter(0, indices, values).view_as(pre)

    def decode(self, codes: torch.Tensor) -> torch.Tensor:
        return codes @ self.decoder + self.decoder_bias

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        codes = self.encode(x)
        return self.decode(codes), codes

    @torch.no_grad()
    def normalise_decoder(self) -> None:
        self.decoder /= self.decoder.norm(dim=1, keepdim=True).clamp_min(1e-8)
