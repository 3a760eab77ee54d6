"""`agent bench replicable-rl` (issue 24, method 1): replicable backward induction against the naive replicable
baseline on random tabular MDPs with tied optimal actions; the paper's claim beside the measured figures."""

from __future__ import annotations

from typing import Annotated

import typer
from pydantic import ValidationError

from sandboxes.errors import UserError

from agents.cli.bench_methods import CHECK_COLUMNS
from agents.cli.bench_numerics import run_check_bench
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


def _state_counts(text: str) -> list[int]:
    """``4,8,16`` as integers; anything else is one clear error."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UserError(f"--states must be comma-separated integers, got {text!r}") from None


@bench_app.command("replicable-rl")
@with_output
def bench_replicable_rl(
        states: Annotated[str, typer.Option(help="Comma-separated state counts of the sweep.")] = "4,8,16,32",
        actions: Annotated[int, typer.Option(help="Actions per state.")] = 3,
        horizon: Annotated[int, typer.Option(help="Stages per episode.")] = 2,
        pairs: Annotated[int, typer.Option(help="Pairs of runs per measured point.")] = 200,
        mdps: Annotated[int, typer.Option(help="Random MDPs per state count.")] = 8,
        epsilon: Annotated[float, typer.Option(help="Allowed suboptimality.")] = 0.1,
        rho: Annotated[float, typer.Option(help="Allowed probability that two runs disagree.")] = 0.1,
        seed: Annotated[int, typer.Option(help="Seed of the MDPs and the runs.")] = 0,
        *, output: Output) -> None:
    """Replicable RL: replication rate and epsilon-optimality at the analysis' sample size, and the samples needed
    against S (fitted exponent) for replicable backward induction and for naive per-transition estimation."""
    from numerics.reprl.checks import CheckConfig, run_check

    try:
        config = CheckConfig(states=_state_counts(states), actions=actions, horizon=horizon, pairs=pairs, mdps=mdps,
                             epsilon=epsilon, rho=rho, seed=seed)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UserError(f"bench replicable-rl: {where + ': ' if where else ''}{first['msg']}") from None
    run_check_bench("bench-replicable-rl", config.model_dump(), lambda _: run_check(config),
                    "Replicable RL on low-horizon tabular MDPs: replication, optimality, samples against S", output,
                    CHECK_COLUMNS)
