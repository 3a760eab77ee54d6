"""`agent bench ahd` and `agent bench ahd-speed`: classic heuristics' gaps on the AHD test sets, and the
evaluator's speed."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import run_benchmark
from agents.cli.executor_options import ExecutorOption, opened_executor
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
              methods: Annotated[Optional[str], typer.Option(
                  help="Search methods to run side by side (offline): a comma list of pathwise, eoh, random.")] = None,
              budget: Annotated[int, typer.Option(help="Evaluations per search run (with --methods).")] = 100,
              seeds: Annotated[str, typer.Option(help="Comma list of search seeds (with --methods).")] = "0",
              sizes: Annotated[Optional[str], typer.Option(
                  help="Comma list of test-set sizes to score (with --methods; default: all).")] = None,
              executor: ExecutorOption = None, *, output: Output) -> None:
    """The classic baselines' gaps on the AHD test sets (one row per method, problem and size), or with
    --methods the search methods' best heuristics side by side on the same budget and seeds."""
    if methods is not None:
        return _bench_methods(problem or "bpp_online", methods, budget, seeds, sizes, executor, output)
    from benchmarks.ahd.bench import baseline_report
    from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
    from benchmarks.ahd.registry import PROBLEMS, get_problem
    from benchmarks.executor import check_spec

    if not baselines:
        raise UserError("nothing to benchmark: pass --baselines or --methods")
    chosen = [get_problem(name) for name in ([problem] if problem else PROBLEMS)]
    check_spec(executor)

    def measure(run) -> Report:
        with opened_executor(executor, None) as where:  # ray: each node scores the baselines in its own sandbox
            reports = [baseline_report(p, Evaluator(p, split, EvaluatorConfig(wall_s=600.0), executor=where))
                       for p in chosen]
        if len(reports) == 1:
            return reports[0]
        rows = [{"problem": p.name, **row} for p, r in zip(chosen, reports) for row in r.rows]
        return Report(summary={p.name: r.summary for p, r in zip(chosen, reports)}, rows=rows,
                      title=f"AHD baselines on the {split} sets")

    run, report = run_benchmark("bench-ahd", {"problem": problem, "split": split, "executor": executor}, measure)
    output.report(report, run)


def _bench_methods(problem: str, methods: str, budget: int, seeds: str, sizes: str | None, executor: str | None,
                   output: Output) -> None:
    from agents.pathwise.compare import parse_methods, side_by_side
    from agents.pathwise.context import PathWiseConfig
    from benchmarks.ahd.registry import get_problem
    from benchmarks.executor import check_spec

    get_problem(problem)
    check_spec(executor)
    try:
        chosen, seed_list = parse_methods(methods), [int(s) for s in seeds.split(",") if s.strip()]
        test_sizes = [int(s) for s in sizes.split(",") if s.strip()] if sizes else None
    except ValueError as error:
        raise UserError(f"--methods/--seeds/--sizes: {error}") from error
    if not seed_list or budget < 1:
        raise UserError("--seeds needs at least one seed and --budget must be positive")
    base = PathWiseConfig(problem=problem, budget=budget, initial_population=min(30, max(1, budget // 4)),
                          test_sizes=test_sizes, executor=executor)
    config = {"problem": problem, "methods": ",".join(chosen), "budget": budget, "seeds": seeds, "sizes": sizes,
              "executor": executor}
    run, report = run_benchmark("bench-ahd", config, lambda run: side_by_side(base, chosen, seed_list))
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
