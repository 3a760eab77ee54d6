"""Tool: multi-fidelity reconstruction of a travelling front from sparse sensors (Cheap2Rich-style)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from numerics.cheap2rich.checks import CheckConfig, run_check
from tools.base import Tool


class Cheap2RichArgs(BaseModel):
    """A reconstruction experiment on the periodic 1-D reaction-advection front (a stand-in for an RDE)."""

    model_config = ConfigDict(extra="forbid")

    sensors: int = Field(6, ge=2, le=32, description="Point sensors, evenly spaced on the ring of 64 cells.")
    noise: float = Field(0.01, ge=0, le=0.2, description="Standard deviation of the sensor noise.")
    train_trajectories: int = Field(2, ge=1, le=8, description="High-fidelity runs the discrepancy and the "
                                    "data-driven baseline learn from.")
    test_trajectories: int = Field(3, ge=1, le=8, description="Unseen runs reconstructed from their sensors.")
    steps: int = Field(1500, ge=200, le=6000, description="Solver steps of 0.01 time units per run.")
    seed: int = Field(0, description="Seed of the initial fronts and the sensor noise.")


def cheap2rich_reconstruct(args: Cheap2RichArgs) -> dict:
    """Learn a sparse discrepancy on top of the cheap model, then compare reconstruction errors of the prior,
    a data-driven delay regression and the corrected model; report the recovered terms."""
    config = CheckConfig(sensors=args.sensors, noise=args.noise, train_trajectories=args.train_trajectories,
                         test_trajectories=args.test_trajectories, steps=args.steps, seed=args.seed)
    summary, rows = run_check(config)
    return {**summary, "checks": rows}


CHEAP2RICH_TOOL = Tool("cheap2rich_reconstruct", cheap2rich_reconstruct.__doc__ or "", Cheap2RichArgs,
                       cheap2rich_reconstruct, group="numerics", capabilities=("compute",))
