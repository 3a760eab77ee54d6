"""The issue-24 replicable-RL checks: replication rate and epsilon-optimality at the analysis' sample size, and the
samples needed against S for our replicable backward induction and the naive model-estimation baseline."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from numerics.reprl.measure import Instances, loglog_slope, run_trials, samples_needed
from numerics.reprl.queries import naive_samples, ours_samples
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
    pairs: int = Field(100, ge=2, le=2000, description="Pairs of runs per measured point.")
    mdps: int = Field(4, ge=1, le=100, description="Random MDPs per state count; the pairs cycle through them.")
    doublings: int = Field(48, ge=1, le=60, description="Grid points 16 * 2^k tried per planner and state count.")
    seed: int = Field(0, description="Seed of the MDPs and of the runs.")

    @model_validator(mode="after")
    def _valid_sizes(self) -> "CheckConfig":
        if self.tied > self.actions or min(self.states) < 2:
            raise ValueError(f"need tied <= actions and at least 2 states; got tied {self.tied}, actions "
                             f"{self.actions}, states {self.states}")
        return self


def sweep(config: CheckConfig, planner: str) -> list[int | None]:
    """Samples needed per run (n * S A H) for each S; the search at S starts at the previous S's n."""
    totals, start = [], 16
    for states in config.states:
        instances = Instances.draw(states, config.actions, config.horizon, config.mdps, config.seed, config.tied)
        found, _ = samples_needed(instances, planner, config.epsilon, config.rho, config.pairs, config.seed + 7919,
                                  start, config.doublings)
        totals.append(None if found is None else found * states * config.actions * config.horizon)
        start = found or start
    return totals


def at_analysis_size(config: CheckConfig, planner: str, states: int) -> dict:
    """Replication rate and worst suboptimality when n is the sample size the analysis derives."""
    size = (ours_samples if planner == "ours" else naive_samples)(config.epsilon, config.rho, states,
                                                                   config.actions, config.horizon)
    instances = Instances.draw(states, config.actions, config.horizon, config.mdps, config.seed, config.tied)
    trials = run_trials(instances, planner, size, config.epsilon, config.pairs, config.seed + 104729)
    return {"n": size, "replication": trials.replication, "worst_suboptimality": trials.worst_suboptimality}


def theory_exponent(config: CheckConfig, planner: str) -> float:
    """Fitted S-exponent of the analysis' total samples (n * S A H) over the sweep's state counts."""
    size = ours_samples if planner == "ours" else naive_samples
    totals = [size(config.epsilon, config.rho, s, config.actions, config.horizon) * s for s in config.states]
    return loglog_slope(config.states, totals)


def run_check(config: CheckConfig = CheckConfig()) -> tuple[dict, list[dict]]:
    """Measure everything the rows report; the summary keeps the raw figures."""
    smallest = config.states[0]
    analysis = {p: at_analysis_size(config, p, smallest) for p in ("ours", "naive")}
    needed = {p: sweep(config, p) for p in ("ours", "naive")}
    exponent = {p: _fit(config.states, totals) for p, totals in needed.items()}
    theory = {p: theory_exponent(config, p) for p in ("ours", "naive")}
    summary = {"config": config.model_dump(), "at_analysis_size": analysis, "samples_needed": needed,
               "measured_exponent": exponent, "analysis_exponent": theory}
    table = rows(config, analysis, needed, exponent, theory)
    summary.update(passed=sum(row["passed"] for row in table), checks=len(table))
    return summary, table


def _fit(states: list[int], totals: list[int | None]) -> float | None:
    """Slope over the state counts where the search succeeded (None when fewer than two did)."""
    pairs = [(s, t) for s, t in zip(states, totals) if t is not None]
    return loglog_slope(*zip(*pairs)) if len(pairs) >= 2 else None
