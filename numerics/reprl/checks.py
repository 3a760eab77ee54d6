"""The issue-24 replicable-RL checks: replication rate and epsilon-optimality at the analysis' sample size, and the
samples needed against S for our adaptive replicable backward induction, its fixed-size variant and the naive
model-estimation baseline."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from numerics.reprl.mdp import MAX_DRAWS
from numerics.reprl.measure import Instances, loglog_slope, run_trials, samples_needed
from numerics.reprl.planners import PLANNERS, analysis_samples, analysis_total
from numerics.reprl.report import rows


class CheckConfig(BaseModel):
    """Sizes of the instances and of the measurement."""

    model_config = ConfigDict(extra="forbid")

    states: list[int] = Field([4, 8, 16, 32], min_length=2, description="State counts of the sweep.")
    actions: int = Field(3, ge=2, le=8, description="Actions per state.")
    horizon: int = Field(2, ge=1, le=4, description="Stages of each episode.")
    tied: int = Field(2, ge=1, le=8, description="Actions tied for the optimum at every (h, s).")
    epsilon: float = Field(0.1, gt=0, le=1, description="Allowed suboptimality of the returned policy.")
    rho: float = Field(0.1, gt=0, lt=1, description="Allowed probability that two runs return different policies.")
    pairs: int = Field(200, ge=2, le=2000, description="Pairs of runs per measured point.")
    mdps: int = Field(8, ge=1, le=100, description="Random MDPs per state count; the pairs cycle through them.")
    doublings: int = Field(48, ge=1, le=60, description="Grid points 16 * 2^k tried per planner and state count.")
    seed: int = Field(0, description="Seed of the MDPs and of the runs.")

    @model_validator(mode="after")
    def _valid_sizes(self) -> "CheckConfig":
        if self.tied > self.actions or min(self.states) < 2:
            raise ValueError(f"need tied <= actions and at least 2 states; got tied {self.tied}, actions "
                             f"{self.actions}, states {self.states}")
        largest = max(analysis_samples(p, self.epsilon, self.rho, self.states[0], self.actions, self.horizon)
                      for p in PLANNERS)
        if largest > MAX_DRAWS:
            raise ValueError(f"the analysis' sample size at S={self.states[0]} ({largest:.3g}) is beyond the "
                             f"sampler's 2^62: start the sweep at fewer states")
        return self

    def instances(self, states: int) -> Instances:
        return Instances.draw(states, self.actions, self.horizon, self.mdps, self.seed, self.tied)


def sweep(config: CheckConfig, planner: str) -> list[float | None]:
    """Mean generator calls per run at the samples-needed point for each S; the search at S starts at the
    previous S's n (more states never needed fewer samples in any run we made, and it saves half the work)."""
    totals, start = [], 16
    for states in config.states:
        found, _ = samples_needed(config.instances(states), planner, config.epsilon, config.rho, config.pairs,
                                  config.seed + 7919, start, config.doublings)
        totals.append(None if found is None else found.samples_per_run)
        start = found.n if found else start
    return totals


def at_analysis_size(config: CheckConfig, planner: str, states: int) -> dict:
    """Replication rate, worst suboptimality and samples per run when n is the size the analysis derives."""
    n = analysis_samples(planner, config.epsilon, config.rho, states, config.actions, config.horizon)
    trials = run_trials(config.instances(states), planner, n, config.epsilon, config.rho, config.pairs,
                        config.seed + 104729)
    return {"n": n, "replication": trials.replication, "worst_suboptimality": trials.worst_suboptimality,
            "samples_per_run": trials.samples_per_run}


def theory_exponent(config: CheckConfig, planner: str) -> float:
    """Fitted S-exponent of the analysis' samples per run over the sweep's state counts."""
    totals = [analysis_total(planner, config.epsilon, config.rho, s, config.actions, config.horizon)
              for s in config.states]
    return loglog_slope(config.states, totals)


def run_check(config: CheckConfig = CheckConfig()) -> tuple[dict, list[dict]]:
    """Measure everything the rows report; the summary keeps the raw figures."""
    analysis = {p: at_analysis_size(config, p, config.states[0]) for p in PLANNERS}
    needed = {p: sweep(config, p) for p in PLANNERS}
    exponent = {p: _fit(config.states, totals) for p, totals in needed.items()}
    theory = {p: theory_exponent(config, p) for p in PLANNERS}
    table = rows(config, analysis, needed, exponent, theory)
    summary = {"config": config.model_dump(), "at_analysis_size": analysis, "samples_needed": needed,
               "measured_exponent": exponent, "analysis_exponent": theory,
               "passed": sum(row["passed"] for row in table), "checks": len(table)}
    return summary, table


def _fit(states: list[int], totals: list[float | None]) -> float | None:
    """Slope over the state counts where the search succeeded (None when fewer than two did)."""
    pairs = [(s, t) for s, t in zip(states, totals) if t is not None]
    return loglog_slope(*zip(*pairs)) if len(pairs) >= 2 else None
