"""Tool: replication trials of a replicable planner on random low-horizon tabular MDPs with tied optimal actions."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from numerics.reprl.mdp import MAX_DRAWS
from numerics.reprl.measure import Instances, run_trials
from numerics.reprl.planners import analysis_samples
from tools.base import Tool


class ReplicableRLArgs(BaseModel):
    """Pairs of runs sharing internal randomness, on freshly drawn MDPs; each pair uses independent samples."""

    model_config = ConfigDict(extra="forbid")

    planner: Literal["ours", "fixed", "naive"] = Field(
        "ours", description="Backward induction on adaptive replicable value queries (ours), the same with "
                            "fixed-size queries, or the naive baseline that replicably estimates every transition "
                            "probability and plans in the rounded model.")
    states: int = Field(4, ge=2, le=64, description="States S.")
    actions: int = Field(3, ge=2, le=8, description="Actions A per state.")
    horizon: int = Field(2, ge=1, le=4, description="Stages H per episode.")
    tied: int = Field(2, ge=1, le=8, description="Actions tied for the optimum at every (h, s); 1: a unique best.")
    epsilon: float = Field(0.1, gt=0, le=1, description="Allowed suboptimality.")
    rho: float = Field(0.1, gt=0, lt=1, description="Allowed probability of two runs disagreeing.")
    samples: int | None = Field(None, ge=1, le=2**50,
                                description="Per-query sample size n (the cap, for ours); default: the size the "
                                            "replicability analysis derives.")
    pairs: int = Field(50, ge=1, le=500, description="Pairs of runs.")
    mdps: int = Field(2, ge=1, le=20, description="Random MDPs the pairs cycle through.")
    seed: int = Field(0, description="Seed of the MDPs and of the runs.")

    @model_validator(mode="after")
    def _ties_fit(self) -> "ReplicableRLArgs":
        if self.tied > self.actions:
            raise ValueError(f"tied ({self.tied}) cannot exceed actions ({self.actions})")
        if self.samples is None and self.analysis_samples() > MAX_DRAWS:
            raise ValueError(f"the analysis asks for {self.analysis_samples():.3g} samples per query, beyond the "
                             f"sampler's 2^62: pass samples")
        return self

    def analysis_samples(self) -> int:
        return analysis_samples(self.planner, self.epsilon, self.rho, self.states, self.actions, self.horizon)


def replicable_rl_trials(args: ReplicableRLArgs) -> dict:
    """Share of pairs returning identical policies, worst suboptimality against the exact optimum, and n used."""
    analysis = args.analysis_samples()
    n = args.samples or analysis
    instances = Instances.draw(args.states, args.actions, args.horizon, args.mdps, args.seed, args.tied)
    trials = run_trials(instances, args.planner, n, args.epsilon, args.rho, args.pairs, args.seed + 104729)
    return {"planner": args.planner, "samples_per_query": n, "analysis_samples_per_query": analysis,
            "samples_per_run": trials.samples_per_run, "replication": trials.replication,
            "target_replication": 1 - args.rho, "worst_suboptimality": trials.worst_suboptimality,
            "epsilon_optimal": trials.worst_suboptimality <= args.epsilon}


REPLICABLE_RL_TOOL = Tool("replicable_rl_trials", replicable_rl_trials.__doc__ or "", ReplicableRLArgs,
                          replicable_rl_trials, group="numerics", capabilities=("compute",))
