"""Tool: recommend an L0 (k) for BatchTopK sparse autoencoders on a file of activations."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from pydantic import BaseModel, Field

from numerics.sae.selection import recommend_l0
from tools.base import Tool
from tools.hostpaths import HostPaths


class RecommendL0Args(BaseModel):
    """Activations stored as a 2-D array (samples × dim) in a .npy or .pt file."""

    path: str = Field(description="Path to a .npy or .pt file holding a (samples, dim) array, in the session's "
                      "work directory.")
    k_values: list[int] | None = Field(None, max_length=32, description="The k values to try; default 1, 3, ... up "
                                       "to width.")
    width: int | None = Field(None, ge=1, le=8192, description="SAE width; default half the input dimension.")
    steps: int = Field(1500, ge=50, le=50_000)


def load_activations(path: str) -> torch.Tensor:
    """Read a (samples, dim) array from .npy or .pt."""
    file = Path(path)
    if not file.exists():
        raise FileNotFoundError(f"no activations file at {path}")
    data = torch.load(file, weights_only=True) if file.suffix == ".pt" else torch.from_numpy(np.load(file))
    if data.ndim != 2:
        raise ValueError(f"activations must be 2-D (samples, dim); got shape {tuple(data.shape)}")
    return data.float()


def recommend_sae_l0(args: RecommendL0Args, paths: HostPaths) -> dict:
    """Train one SAE per k, score each by the n-th decoder projection, and recommend the elbow k."""
    activations = load_activations(str(paths.readable(args.path)))
    chosen, points = recommend_l0(activations, ks=args.k_values, width=args.width, steps=args.steps)
    return {"recommended_l0": chosen,
            "curve": [{"k": p.k, "nth_decoder_projection": round(p.projection, 5),
                       "decoder_similarity": round(p.similarity, 5), "mse": round(p.mse, 5)} for p in points]}


def make_sae_tools(paths: HostPaths | None = None) -> list[Tool]:
    """``recommend_sae_l0``, reading activation files through ``paths`` (default: the built-in suites only)."""
    paths = paths or HostPaths()
    return [Tool("recommend_sae_l0", recommend_sae_l0.__doc__ or "", RecommendL0Args,
                 lambda args: recommend_sae_l0(args, paths), group="numerics", capabilities=("compute", "read_files"))]
