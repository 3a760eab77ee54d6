"""Settings of one `agent run compress`."""

from __future__ import annotations

from typing import Optional

from sandboxes.settings import Config


class CompressConfig(Config):
    """One `agent run compress`."""

    model_file: str = "fixture"
    """A TinyLM .pt file, or 'fixture' for the shipped model."""
    steps: str = "prune:0.5,lowrank:0.8,quant:4"
    """Comma-separated steps: prune:SPARSITY, lowrank:RATIO, quant:BITS, each optionally :METHOD."""
    windows: Optional[int] = None
    """Validation windows for perplexity (None = the whole validation split)."""
    calibration: int = 32
    """Calibration windows (64 tokens each) for Wanda, A^3 and TwinQuant."""
    quant_steps: int = 40
    """TwinQuant optimisation steps per layer."""
