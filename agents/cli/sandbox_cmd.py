"""`agent sandbox build|selftest|bench`: sandbox images, the adversarial suite, the isolation overhead."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.cli.common import run_benchmark
from agents.cli.groups import sandbox_app
from agents.cli.output import Output, with_output

BackendOption = Annotated[str, typer.Option("--backend", help="auto, docker or local.")]


@sandbox_app.command("build")
@with_output
def build(dockerfiles: Annotated[bool, typer.Option(
        "--dockerfiles", help="Also try `docker build` of the shipped Dockerfiles (needs a registry).")] = False,
          *, output: Output) -> None:
    """Build the docker sandbox's base image (docker import; no registry needed) and, if asked, the Dockerfiles."""
    from sandboxes.build import build_images

    rows = build_images(with_dockerfiles=dockerfiles)
    built = sum(row["status"] == "built" for row in rows)
    output.report(Report(summary={"built": built, "images": len(rows)}, rows=rows, title="sandbox images"))
    if built == 0:
        raise UserError("no sandbox image could be built here; see the rows above")


@sandbox_app.command("selftest")
@with_output
def selftest(backend: BackendOption = "auto",
             case: Annotated[Optional[list[str]], typer.Option("--case", help="Run only this case (repeatable).")] = None,
             *, output: Output) -> None:
    """Run the adversarial suite (fork bomb, memory bomb, escapes, ...) and report whether each was contained."""
    from sandboxes.attacks import ATTACKS
    from sandboxes.selftest import run_selftest

    unknown = sorted(set(case or ()) - {a.name for a in ATTACKS})
    if unknown:
        raise UserError(f"unknown selftest case(s) {', '.join(unknown)}; known: {', '.join(a.name for a in ATTACKS)}")
    summary, rows = run_selftest(backend, cases=case)
    report = Report(summary=summary, rows=rows, title=f"Sandbox selftest ({summary['backend']})")
    output.report(report)
    if not report.summary["all_contained"]:
        sys.exit(1)


@sandbox_app.command("bench")
@with_output
def bench(jobs: Annotated[int, typer.Option("--jobs", min=1, help="Jobs per backend and job kind.")] = 100,
          *, output: Output) -> None:
    """Time tiny jobs on bare subprocess, local sandbox, docker cold start and docker warm pool, side by side."""
    from sandboxes.bench import run_bench

    def progress(kind: str, done: int, total: int) -> None:
        if done == total or done % 10 == 0:
            print(f"{kind}: {done}/{total} rounds", file=sys.stderr, flush=True)

    def measure(run) -> Report:
        summary, rows = run_bench(jobs=jobs, progress=progress)
        return Report(summary=summary, rows=rows, title="sandbox overhead per job")

    run, report = run_benchmark("sandbox-bench", {"jobs": jobs}, measure)
    output.report(report, run)
