"""One EPSVec set-up: the fixture model, the private contributions, the public prior and the fidelity judges;
and the two ways of spending a privacy budget on k samples (one vector reused, or a fresh vector per sample)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from numerics.epsvec.corpus import private_sessions, public_windows
from numerics.epsvec.decode import steered_sample
from numerics.epsvec.fidelity import BigramClassifier, bigram_counts, js_divergence
from numerics.epsvec.privacy import analytic_sigma, per_release_sigma
from numerics.epsvec.vector import Contributions, contributions, example_means, public_mean
from numerics.fixture.evaluate import load_fixture
from numerics.fixture.model import TinyLM

PROMPT = 10  # every sample starts from a newline byte


@dataclass(frozen=True)
class SetupConfig:
    """Sizes and settings shared by the tool and the checks."""

    examples: int = 200
    """Private examples (simulated sessions) the dataset vector is computed from."""
    public: int = 200
    """Public docstring windows for the prior (and as many for the classifier's public side)."""
    held_out: int = 200
    """Private sessions from another seed, only for judging fidelity."""
    layer: int = 1
    """Residual-stream layer the vector is read from and added to."""
    clip: float = 4.0
    """L2 clipping norm C of each centred example (fixed a priori)."""
    scale: float = 3.5
    """Multiple of the vector added during decoding."""
    length: int = 32
    """Bytes per sample, prompt included."""
    delta: float = 1e-5
    """delta of the (epsilon, delta) guarantee."""
    seed: int = 0
    """Seed of the private corpus; the held-out sessions use seed + 1."""


@dataclass(frozen=True)
class Setup:
    """Everything computed once: the model, what the private data contributes, and the judges."""

    config: SetupConfig
    model: TinyLM
    data: Contributions
    judge: BigramClassifier
    held_out: np.ndarray
    """Bigram counts of the held-out private sessions."""


def build(config: SetupConfig) -> Setup:
    """Read activations of the private sessions and the public windows; fit the fidelity judges."""
    model = load_fixture()
    means = example_means(model, private_sessions(config.examples, config.seed), config.layer)
    prior = public_mean(model, config.public, config.layer, seed=config.seed + 100)
    held = [text.encode("ascii") for text in private_sessions(config.held_out, config.seed + 1)]
    public = [bytes(row.tolist()) for row in public_windows(config.public, model.config.context, config.seed + 200)]
    return Setup(config, model, contributions(means, prior, config.clip), BigramClassifier.fit(held, public),
                 bigram_counts(held))


def project(vectors: np.ndarray, radius: float) -> np.ndarray:
    """Scale rows longer than ``radius`` back to it: post-processing (the true mean lies in that ball)."""
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors * np.minimum(1.0, radius / np.maximum(norms, 1e-12))


def generate(setup: Setup, vectors: np.ndarray, count: int, generator: torch.Generator) -> list[bytes]:
    """``count`` samples (bytes after the prompt) with ``vectors`` (d,) or (count, d) added, times the scale."""
    shift = torch.from_numpy(setup.config.scale * vectors).float()
    prompt = torch.full((count, 1), PROMPT)
    tokens = steered_sample(setup.model, prompt, setup.config.length, shift, setup.config.layer, generator)
    return [bytes(row[1:].tolist()) for row in tokens]


def fidelity(setup: Setup, rows: list[bytes]) -> dict:
    """Classifier share labelled private (per sample) and bigram JS divergence to the held-out sessions (pooled)."""
    return {"private_share": setup.judge.private_share(rows),
            "bigram_js": js_divergence(bigram_counts(rows), setup.held_out)}


def reused_vector(setup: Setup, epsilon: float, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """EPSVec: one (epsilon, delta)-DP vector for any number of samples, and its sigma."""
    sigma = analytic_sigma(epsilon, setup.config.delta, setup.data.clip)
    return project(setup.data.noisy_means(sigma, 1, rng)[0], setup.data.clip), sigma


def fresh_vectors(setup: Setup, epsilon: float, count: int, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Baseline: one fresh noisy vector per sample, the total (epsilon, delta) split over ``count`` releases."""
    sigma = per_release_sigma(epsilon, setup.config.delta, setup.data.clip, count)
    return project(setup.data.noisy_means(sigma, count, rng), setup.data.clip), sigma
