"""`agent bench drc` and `agent bench drc-speed`: DRC decks scored on the Rule2DRC suite, and the runner's speed."""

from __future__ import annotations

import sys
from typing import Annotated, Any, Optional

import typer

from agents.cli.common import run_benchmark
from agents.cli.executor_options import ExecutorOption, opened_executor
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from benchmarks.report import Report

TasksOption = Annotated[str, typer.Option(
    "--tasks", help="builtin (all 120 tasks), builtin:N (a seeded subset), or comma-separated task ids/families.")]
SandboxOption = Annotated[Optional[str], typer.Option(
    "--sandbox", help="Sandbox backend for klayout: auto, docker or local (default $AGENT_SANDBOX or auto).")]


def _runner(sandbox: str | None) -> Any:
    """The batched KLayout runner on the chosen sandbox."""
    from sandboxes.select import get_sandbox
    from tools.drc.runner import DrcRunner

    return DrcRunner(get_sandbox(sandbox))


@bench_app.command("drc")
@with_output
def bench_drc(tasks: TasksOption = "builtin",
              decks: Annotated[str, typer.Option("--decks", help="gold, or a directory of <task id>.drc decks.")] = "gold",
              sandbox: SandboxOption = None, executor: ExecutorOption = None, *, output: Output) -> None:
    """Score DRC decks on the Rule2DRC suite: success needs every layout to run, no unknown category, F1 = 1.

    A deck whose file name matches no task of the suite is named on stderr and in the summary."""
    from benchmarks.drc.harness import bench_report, load_decks, stray_decks
    from benchmarks.drc.suite import load_suite, select_tasks

    suite = load_suite()
    chosen = select_tasks(suite, tasks)
    found, strays = load_decks(chosen, decks), stray_decks(decks, suite)
    if strays:
        print(f"warning: {len(strays)} deck(s) in {decks} match no task and were not scored: {', '.join(strays)}",
              file=sys.stderr)

    def measure(run: Any) -> Report:
        with opened_executor(executor, sandbox) as where:  # ray: the layout batches fan out over the cluster
            from benchmarks.drc.fanout import FannedDrcRunner

            runner = _runner(sandbox) if where.name == "local" else FannedDrcRunner(where)
            report = bench_report(chosen, found, runner, decks)
        if strays:
            report.summary["decks_matching_no_task"] = strays
        return report

    run, report = run_benchmark("bench-drc", {"tasks": tasks, "decks": decks, "sandbox": sandbox,
                                              "executor": executor}, measure)
    output.report(report, run)


@bench_app.command("drc-speed")
@with_output
def bench_drc_speed(task: Annotated[str, typer.Option(help="Task id whose gold deck is timed.")] = "width_space_area-00",
                    layouts: Annotated[int, typer.Option(help="Layouts in the batch run.")] = 200,
                    single: Annotated[int, typer.Option(help="Layouts run one klayout process each.")] = 10,
                    sandbox: SandboxOption = None, *, output: Output) -> None:
    """Layouts per second for one deck: the batch runner against one klayout process per layout."""
    from benchmarks.drc.harness import speed_report
    from benchmarks.drc.suite import load_suite, select_tasks

    chosen = select_tasks(load_suite(), task)[0]
    run, report = run_benchmark("bench-drc-speed", {"task": task, "layouts": layouts, "single": single,
                                                    "sandbox": sandbox},
                                lambda run: speed_report(chosen, _runner(sandbox), layouts, single))
    output.report(report, run)
