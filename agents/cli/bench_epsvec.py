"""`agent bench epsvec` (issue 24): DP dataset vectors for synthetic text, the paper claim beside the measurement."""

from __future__ import annotations

from typing import Annotated

import typer

from sandboxes.errors import UserError

from agents.cli.bench_methods import CHECK_COLUMNS
from agents.cli.bench_numerics import run_check_bench
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("epsvec")
@with_output
def bench_epsvec(epsilons: Annotated[str, typer.Option(help="Comma-separated epsilons swept.")] = "0.1,0.3,1,3,10",
                 draws: Annotated[int, typer.Option(min=1, help="Noise draws averaged per figure.")] = 3,
                 samples: Annotated[int, typer.Option(min=2, help="Samples per epsilon.")] = 200,
                 counts: Annotated[str, typer.Option(help="Comma-separated sample counts compared.")] = "10,100,1000",
                 examples: Annotated[int, typer.Option(min=10, help="Private sessions.")] = 200,
                 seed: Annotated[int, typer.Option(help="Seed of the corpus, the noise and the sampling.")] = 0,
                 *, output: Output) -> None:
    """EPSVec on the fixture transformer: a steering vector from simulated private REPL sessions, released once
    under (epsilon, delta)-DP, against a baseline that spends the budget per sample."""
    import torch

    from numerics.epsvec.checks import CheckConfig, run_check
    from numerics.epsvec.pipeline import SetupConfig

    torch.set_num_threads(1)  # tiny matrices: a second thread only waits, on a loaded machine much longer

    config = CheckConfig(setup=SetupConfig(examples=examples, held_out=examples, public=examples, seed=seed),
                         epsilons=_numbers(epsilons, float, "--epsilons"), draws=draws, samples=samples,
                         counts=_numbers(counts, int, "--counts"))
    run_check_bench("bench-epsvec", {**config.setup.__dict__, "epsilons": list(config.epsilons), "draws": draws,
                                     "samples": samples, "counts": list(config.counts)},
                    lambda _: run_check(config), "EPSVec: a DP dataset vector reused for every sample", output,
                    CHECK_COLUMNS)


def _numbers(text: str, kind: type, option: str) -> tuple:
    """Comma-separated positive numbers, increasing; one clear line otherwise."""
    try:
        values = tuple(kind(part) for part in text.split(","))
    except ValueError as error:
        raise UserError(f"{option}: expected comma-separated numbers, got {text!r}") from error
    if not values or min(values) <= 0 or list(values) != sorted(set(values)):
        raise UserError(f"{option}: expected increasing positive numbers, got {text!r}")
    return values
