"""`agent bench kernels`: evaluate a solution set on a target, or measure the harness's throughput."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from benchmarks.executor import Executor, check_spec
from benchmarks.kernels.verifier.eager import EAGER, LABEL as EAGER_LABEL, eager_config, eager_dir
from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.plot import speedup_plot
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.suite import Matching, build_report, default_jobs, pair_solutions, run_pairs, solutions_dir
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.throughput import measure_throughput
from benchmarks.report import Report
from sandboxes.errors import UserError
from sandboxes.targets.base import Target
from sandboxes.targets.registry import TARGETS, get_target

from agents.cli.executor_options import ExecutorOption, opened_executor
from agents.cli.groups import bench_app
from agents.cli.kernel_options import (MaxInputOption, MemoryMbOption, ShapeScaleOption, TimeoutOption,
                                       from_flags, sandbox_limits)
from agents.cli.output import Output, with_output
from agents.runtime.progress import Progress
from agents.runtime.run import Run


@bench_app.command("kernels")
@with_output
def bench_kernels(
    target: Annotated[str, typer.Option(help=f"One of {', '.join(TARGETS)}.")] = "cpu",
    tasks: Annotated[str, typer.Option(help="builtin, builtin:L1, builtin:L1:relu,soft*, a KernelBench folder "
                                            "(FOLDER or FOLDER::19_*); join several with +.")]
    = "builtin",
    solutions: Annotated[str, typer.Option(help="A folder, builtin:reference, builtin:adversarial, builtin:accepted, "
                                                "or builtin:eager (the reference's torch ops: a labelled baseline).")]
    = "builtin:reference",
    jobs: Annotated[Optional[int], typer.Option(help="Parallel evaluations (default: cores / threads).")] = None,
    threads: Annotated[int, typer.Option(help="Threads per evaluation (solution and reference alike).")] = 1,
    trials: Annotated[int, typer.Option(help="Correctness trials with fresh inputs.")] = 5,
    timing_budget: Annotated[float, typer.Option(help="Seconds of timing per solution.")] = 3.0,
    range_check: Annotated[str, typer.Option(help="A kernel wrong on inputs scaled far past the task's (one more "
                                                  "trial): refuse, flag (default) or off.")] = "flag",
    sandbox: Annotated[Optional[str], typer.Option(help="Sandbox backend: auto, local or docker.")] = None,
    throughput: Annotated[bool, typer.Option(help="Measure solutions per minute: cold and warm build cache, "
                                                  "and warm through persistent runners.")]
    = False,
    persistent: Annotated[bool, typer.Option(help="Verify through long-lived trusted runners (one per job) "
                                                  "instead of a fresh sandboxed runner per solution.")]
    = False,
    shape_scale: ShapeScaleOption = None,
    max_input_mb: MaxInputOption = None,
    memory_mb: MemoryMbOption = None,
    timeout: TimeoutOption = None,
    executor: ExecutorOption = None,
    *, output: Output,
) -> None:
    """Verify and time kernel solutions; rows task, status, correct, reason, speedup, runtime_ms, reference_ms."""
    from benchmarks.kernels.kernelbench import ShapeScaling  # imports torch: only when the command runs
    from sandboxes.select import get_sandbox

    chosen = get_target(target)
    skipped: list = []
    scaling = from_flags(lambda: ShapeScaling(scale=shape_scale, max_input_mb=max_input_mb))
    config = from_flags(lambda: EvalConfig(trials=trials, threads=threads, timing_budget_s=timing_budget,
                                           range_check=range_check, **sandbox_limits(memory_mb, timeout)))
    if jobs is not None and jobs < 1:
        raise UserError(f"invalid --jobs: at least 1, not {jobs}")
    task_list = load_tasks(tasks, scaling, skipped)
    eager = solutions == EAGER
    matching = pair_solutions(task_list, eager_dir(task_list, chosen) if eager else solutions_dir(solutions, target))
    for line in [s.warning for s in skipped] + matching.warnings():
        print(line, file=sys.stderr)
    pairs = matching.pairs
    if not pairs:
        hint = ("; the builtin solution sets hold solutions of the builtin tasks only: pass a folder of your own "
                "(--solutions DIR) or builtin:eager (the torch baseline)"
                if solutions.startswith("builtin:") and not tasks.startswith("builtin") else "")
        raise UserError(f"no solution in {solutions} matches the tasks {tasks}{hint}")
    config = eager_config(config) if eager else config
    jobs = jobs or default_jobs(threads)
    spec = check_spec(executor)
    if throughput and spec != "local":
        raise UserError("--throughput measures this machine's harness; for Ray use: agent bench executor")
    box = get_sandbox(sandbox) if spec == "local" else None  # on a cluster, each node proves its own
    run = Run.create("bench-kernels", {"target": target, "tasks": tasks, "solutions": solutions, "jobs": jobs,
                                       "throughput": throughput, "persistent": persistent, "executor": spec,
                                       "evaluation": config.model_dump()})
    with run.active(), VerifierPool() as pool, opened_executor(spec, sandbox) as where:
        if throughput:
            report = measure_throughput(pairs, lambda: get_target(target), box, config, jobs)
        else:
            report = _evaluate_all(matching, chosen, box, config, jobs, run, f"{solutions} on {target}",
                                   pool if persistent else None, skipped, where)
        if eager:
            report.summary["solutions"] = EAGER_LABEL
        run.write_report(report)
    output.report(report, run)


def _evaluate_all(matching: Matching, target: Target, box, config: EvalConfig, jobs: int, run: Run, title: str,
                  runner: VerifierPool | None, skipped: list, executor: Executor) -> Report:
    pairs = matching.pairs
    with Progress(f"kernels on {target.name}", total=len(pairs)) as progress:
        def on_result(done, pair, result) -> None:
            """Log each verdict to the run and advance the progress bar."""
            run.emit("kernel.result", task=pair.task.qualified_name, solution=pair.label, status=result.status.value,
                     speedup=result.speedup)
            progress.update(step=done, best=f"{pair.label}: {result.status.value}")

        results = run_pairs(pairs, target, sandbox=box, config=config, jobs=jobs, on_result=on_result, runner=runner,
                            executor=executor)
    report = build_report(pairs, results, target, matching.missing, title, unmatched=matching.unmatched,
                          skipped=skipped)
    if runner is not None:
        report.summary["persistent_servers_started"] = runner.servers_started
    if executor.name != "local":
        report.summary["executor"] = executor.name
    plot = speedup_plot(results, [p.label for p in pairs], run.artifacts / "speedup.png", title)
    if plot is not None:
        report.summary["plot"] = str(plot)
    return report
