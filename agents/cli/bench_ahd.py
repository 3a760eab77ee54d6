"""`agent bench ahd` and `agent bench ahd-speed`: classic heuristics' gaps on the AHD test sets, and the
evaluator's speed."""

from __future__ import annotations

from typing import Annotated

import typer

from agents.cli.common import run_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from agents.cli.run_pathwise import ProblemOption
from benchmarks.report import Report
from sandboxes.errors import UserError


@bench_app.command("ahd")
@with_output
def bench_ahd(problem: ProblemOption = None,
              baselines: Annotated[bool, typer.Option("--baselines", help="Evaluate the classic baselines.")] = False,
              split: Annotated[str, typer.Option(help="test or train.")] = "test",
              *, output: Output) -> None:
    """The classic baselines' gaps on the AHD test sets (one row per method, problem and size)."""
    from benchmarks.ahd.bench import baseline_report
    from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
    from benchmarks.ahd.registry import PROBLEMS, get_problem

    if not baselines:
        raise UserError("nothing to benchmark: pass --baselines")
    chosen = [get_problem(name) for name in ([problem] if problem else PROBLEMS)]

    def measure(run) -> Report:
        reports = [baseline_report(p, Evaluator(p, split, EvaluatorConfig(wall_s=600.0))) for p in chosen]
        if len(reports) == 1:
            return reports[0]
        rows = [{"problem": p.name, **row} for p, r in zip(chosen, reports) for row in r.rows]
        return Report(summary={p.name: r.summary for p, r in zip(chosen, reports)}, rows=rows,
                      title=f"AHD baselines on the {split} sets")

    run, report = run_benchmark("bench-ahd", {"problem": problem, "split": split}, measure)
    output.report(report, run)


@bench_app.command("ahd-speed")
@with_output
def bench_ahd_speed(repeats: Annotated[int, typer.Option(help="Timed repetitions.")] = 3,
                    *, output: Output) -> None:
    """Seconds to evaluate best fit on the 5k-item bin-packing test sets, compute vs sandbox start-up."""
    from benchmarks.ahd.bench import speed_evaluator, speed_report

    run, report = run_benchmark("bench-ahd-speed", {"repeats": repeats},
                                lambda run: speed_report(speed_evaluator(), repeats))
    output.report(report, run)
