"""`agent bench cheap2rich`, `continuous-rl`, `solar` (issue-24 numerics checks): the paper claim beside the measured figure."""

from __future__ import annotations

from typing import Annotated

import typer

from agents.cli.bench_numerics import run_check_bench
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output

CHECK_COLUMNS = ["check", "paper", "measured", "passed"]


@bench_app.command("cheap2rich")
@with_output
def bench_cheap2rich(sensors: Annotated[int, typer.Option(min=2, max=32, help="Point sensors on the ring.")] = 6,
                     noise: Annotated[float, typer.Option(min=0, help="Sensor noise (standard deviation).")] = 0.01,
                     steps: Annotated[int, typer.Option(min=200, help="Solver steps of 0.01 per run.")] = 1500,
                     seed: Annotated[int, typer.Option(help="Seed of the fronts and the noise.")] = 0,
                     *, output: Output) -> None:
    """Cheap2Rich on a 1-D reaction-advection front (a stand-in for a rotating detonation engine): the prior,
    a data-driven delay regression and the sparsely corrected model reconstruct unseen runs from sensors."""
    from numerics.cheap2rich.checks import CheckConfig, run_check

    config = CheckConfig(sensors=sensors, noise=noise, steps=steps, seed=seed)
    run_check_bench("bench-cheap2rich", config.__dict__, lambda _: run_check(config),
                    f"Cheap2Rich: reconstruction from {sensors} sensors", output, CHECK_COLUMNS)


@bench_app.command("continuous-rl")
@with_output
def bench_continuous_rl(episodes: Annotated[int, typer.Option(min=1, help="Episodes per run.")] = 20,
                        measurements: Annotated[int, typer.Option(min=1, help="Random-schedule measurements "
                                                                               "per episode.")] = 3,
                        seeds: Annotated[int, typer.Option(min=1, help="Runs averaged per figure.")] = 20,
                        seed: Annotated[int, typer.Option(help="First seed.")] = 0,
                        *, output: Output) -> None:
    """Instance-dependent continuous-time RL on dx = (a x + b u) dt + sigma dW: regret against the total cost
    variance, and the random measurement schedule against fixed ones."""
    from numerics.ctrl.checks import CheckConfig, run_check

    config = CheckConfig(episodes=episodes, measurements=measurements, seeds=seeds, seed=seed)
    run_check_bench("bench-continuous-rl", config.__dict__, lambda _: run_check(config),
                    "Continuous-time RL: regret, variance and measurement schedules", output, CHECK_COLUMNS)


@bench_app.command("solar")
@with_output
def bench_solar(seeds: Annotated[int, typer.Option(min=1, help="Datasets (and learners) per mode.")] = 8,
                iterations: Annotated[int, typer.Option(min=220, help="Rollout iterations per learner (the "
                                                        "oscillation is measured on the curve points after a "
                                                        "20-point warm-up, one point per 10 iterations).")] = 400,
                seed: Annotated[int, typer.Option(help="First seed.")] = 0,
                *, output: Output) -> None:
    """SOLAR on the two-agent grid game: policy invariance, learning speed and stability against no shaping,
    and a non-potential bonus that changes the policy."""
    from numerics.solar.checks import CheckConfig, run_check

    config = CheckConfig(seeds=seeds, iterations=iterations, seed=seed)
    run_check_bench("bench-solar", config.__dict__, lambda _: run_check(config),
                    "SOLAR: plateau-gated potential shaping, offline, two agents", output, CHECK_COLUMNS)
