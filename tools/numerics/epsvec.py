"""Tool: synthetic text from the fixture transformer steered by a differentially private dataset vector (EPSVec)."""

from __future__ import annotations

import numpy as np
import torch
from pydantic import BaseModel, ConfigDict, Field

from numerics.epsvec.pipeline import SetupConfig, build, fidelity, fresh_vectors, generate, reused_vector
from tools.base import Tool


class EpsvecArgs(BaseModel):
    """Release a DP dataset vector from simulated private REPL sessions and generate samples with it."""

    model_config = ConfigDict(extra="forbid")

    epsilon: float | None = Field(1.0, gt=0, le=100, description="Total privacy budget epsilon; null for the "
                                  "non-private vector (no noise).")
    delta: float = Field(1e-5, ge=1e-12, le=0.01, description="delta of the (epsilon, delta) guarantee.")
    samples: int = Field(50, ge=1, le=1000, description="Samples generated.")
    per_sample: bool = Field(False, description="Baseline: a fresh noisy vector per sample, the budget split over "
                                                "the samples, instead of one vector reused (EPSVec).")
    examples: int = Field(200, ge=10, le=1000, description="Private sessions the vector is computed from.")
    clip: float = Field(4.0, gt=0, le=100, description="L2 clipping norm C per example.")
    scale: float = Field(3.5, ge=0, le=10, description="Multiple of the vector added to the residual stream.")
    layer: int = Field(1, ge=0, le=2, description="Residual-stream layer (0: embedding, 2: before the final norm).")
    length: int = Field(32, ge=2, le=64, description="Bytes per sample, the newline prompt included.")
    seed: int = Field(0, ge=0, description="Seed of the private corpus, the noise and the sampling.")


def epsvec_generate(args: EpsvecArgs) -> dict:
    """The privacy spent (epsilon, delta, sigma), the fidelity of the samples to held-out private sessions
    (share a bigram classifier labels private; bigram Jensen-Shannon divergence) and the first samples."""
    setup = build(SetupConfig(examples=args.examples, clip=args.clip, scale=args.scale, layer=args.layer,
                              length=args.length, delta=args.delta, seed=args.seed))
    epsilon = float("inf") if args.epsilon is None else args.epsilon
    rng = np.random.default_rng(args.seed)
    if args.per_sample and args.epsilon is not None:
        vectors, sigma = fresh_vectors(setup, epsilon, args.samples, rng)
    else:
        vectors, sigma = reused_vector(setup, epsilon, rng)
    rows = generate(setup, vectors, args.samples, torch.Generator().manual_seed(args.seed))
    return {"epsilon": args.epsilon, "delta": args.delta, "sensitivity": args.clip, "sigma": sigma,
            "releases": args.samples if args.per_sample else 1, "fidelity": fidelity(setup, rows),
            "clipped_share": setup.data.clipped_share, "samples": [row.decode("ascii", "replace") for row in rows[:5]]}


EPSVEC_TOOL = Tool("epsvec_generate", epsvec_generate.__doc__ or "", EpsvecArgs, epsvec_generate, group="numerics",
                   capabilities=("compute",))
