"""Baselines at 4 bits: plain RTN, SVD + RTN of the residual, and a random (Hadamard) rotation + RTN."""

from __future__ import annotations

import torch

from numerics.lowrank.whiten import truncated_svd
from numerics.quant.rtn import fake_quantise
from numerics.quant.transforms import random_rotation


def rtn(weight: torch.Tensor, bits: int = 4, group: int = 128) -> torch.Tensor:
    """Round-to-nearest of the weight itself."""
    return fake_quantise(weight.double(), bits, group)


def svd_rtn(weight: torch.Tensor, rank: int, bits: int = 4, group: int = 128) -> torch.Tensor:
    """Keep the top-``rank`` SVD part in high precision, RTN the residual."""
    u, s, v = truncated_svd(weight.double(), rank)
    low_rank = (u * s) @ v.T
    return low_rank + fake_quantise(weight.double() - low_rank, bits, group)


def rotation_rtn(weight: torch.Tensor, bits: int = 4, group: int = 128, seed: int = 0) -> torch.Tensor:
    """Quantise W Q for a random orthogonal Q (randomised Hadamard when possible), rotate back."""
    rotation = random_rotation(weight.shape[1], seed)
    return fake_quantise(weight.double() @ rotation, bits, group) @ rotation.T
