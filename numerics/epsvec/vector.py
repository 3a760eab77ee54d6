"""The dataset vector: per-example mean activations of the private corpus, centred on the public prior,
clipped, summed, noised once by the Gaussian mechanism and divided by the public count (see ``privacy``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from numerics.epsvec.corpus import encode_example, public_windows
from numerics.epsvec.decode import residual
from numerics.fixture.model import TinyLM


@dataclass(frozen=True)
class Contributions:
    """What the private data gives the mechanism: one clipped, centred vector per example."""

    clipped: np.ndarray
    """(n, d_model) per-example mean activation minus the public mean, clipped to L2 norm ``clip``."""
    clip: float
    """The clipping norm C (fixed a priori, not read from the private data): the sum's sensitivity."""
    clipped_share: float
    """Share of examples whose norm exceeded C (diagnostic, not released)."""

    @property
    def count(self) -> int:
        return len(self.clipped)

    def noisy_means(self, sigma: float, draws: int, rng: np.random.Generator) -> np.ndarray:
        """``draws`` independent releases (draws, d_model): (sum + N(0, sigma^2 I)) / n each."""
        total = self.clipped.sum(axis=0)
        noise = rng.normal(0.0, 1.0, size=(draws, len(total))) * sigma
        return (total[None, :] + noise) / self.count


def example_means(model: TinyLM, texts: list[str], layer: int) -> np.ndarray:
    """(len(texts), d_model): each text's residual stream at ``layer`` averaged over its positions."""
    windows, owners = [], []
    for index, text in enumerate(texts):
        chunks = encode_example(text, model.config.context)
        windows.append(chunks)
        owners += [index] * len(chunks)
    stream = residual(model, torch.cat(windows), layer).mean(dim=1).double().numpy()
    sums = np.zeros((len(texts), stream.shape[1]))
    np.add.at(sums, np.array(owners), stream)
    return sums / np.bincount(owners, minlength=len(texts))[:, None]


def public_mean(model: TinyLM, windows: int, layer: int, seed: int) -> np.ndarray:
    """Mean residual stream at ``layer`` over public windows (no privacy cost)."""
    tokens = public_windows(windows, model.config.context, seed)
    return residual(model, tokens, layer).mean(dim=(0, 1)).double().numpy()


def contributions(means: np.ndarray, prior: np.ndarray, clip: float) -> Contributions:
    """Centre each example on the public prior and scale it down to norm ``clip`` where it is longer."""
    centred = means - prior[None, :]
    norms = np.linalg.norm(centred, axis=1)
    factor = np.minimum(1.0, clip / np.maximum(norms, 1e-12))
    return Contributions(centred * factor[:, None], clip, float(np.mean(norms > clip)))

