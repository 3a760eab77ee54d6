"""Tool: model-based continuous-time control of a noisy 1-D linear system, with a chosen measurement schedule."""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from numerics.ctrl.checks import mean_regret
from numerics.ctrl.system import LinearSystem, cost_variance
from tools.base import Tool


class ContinuousControlArgs(BaseModel):
    """dx = (a x + b u) dt + sigma dW with cost q x^2 + r u^2; the learner does not know ``a``."""

    model_config = ConfigDict(extra="forbid")

    a: float = Field(0.5, ge=-3, le=3, description="True drift (unknown to the learner).")
    sigma: float = Field(0.5, gt=0, le=5, description="Noise level.")
    episodes: int = Field(20, ge=1, le=200, description="Episodes of horizon 5 (each starts at x = 1).")
    measurements: int = Field(3, ge=1, le=200, description="State measurements per episode.")
    schedule: Literal["random", "fixed"] = Field("random", description="Uniformly random or evenly spaced times.")
    seeds: int = Field(10, ge=1, le=100, description="Independent runs the regret is averaged over.")
    seed: int = Field(0, description="First seed.")


def continuous_control_regret(args: ContinuousControlArgs) -> dict:
    """Mean regret of MLE-plus-certainty-equivalence against the best stationary gain, and the variance of the
    optimal policy's total cost."""
    system = LinearSystem(a=args.a, sigma=args.sigma)
    regret = mean_regret(system, range(args.seed, args.seed + args.seeds), episodes=args.episodes,
                         measurements=args.measurements, schedule=args.schedule)
    best = system.best_gain()
    return {"regret": regret, "best_gain": best, "best_cost": system.expected_cost(best),
            "cost_variance": cost_variance(system, best, np.random.default_rng(args.seed)),
            "measurements_total": args.episodes * args.measurements}


CONTINUOUS_CONTROL_TOOL = Tool("continuous_control_regret", continuous_control_regret.__doc__ or "",
                               ContinuousControlArgs, continuous_control_regret, group="numerics",
                               capabilities=("compute",))
