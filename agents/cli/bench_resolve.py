"""`agent bench resolve`: SWE-bench-style resolution of predictions (a file, a baseline, the repair agent's or an
external command's) on SWE-bench instances."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import run_benchmark, with_run_options
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

register_agent("bench-resolve", "agents.repair.bench:execute")


@bench_app.command("resolve")
@with_run_options
def bench_resolve(
        instances: Annotated[str, typer.Option("--instances", help="SWE-bench JSON/JSONL instances, or 'generated' "
                                                                    "(the shipped benchmark).")] = "generated",
        predictions: Annotated[Optional[str], typer.Option(
            "--predictions", help="SWE-bench predictions JSONL/JSON, or gold / empty (sanity baselines).")] = None,
        agent: Annotated[Optional[str], typer.Option("--agent", help="repair: agentkiln's repair agent "
                                                                     "(needs --model).")] = None,
        agent_cmd: Annotated[Optional[str], typer.Option(
            "--agent-cmd", help="External agent: a shell command run in each instance's worktree with the issue in "
                                "$AGENT_ISSUE_FILE; the diff it leaves is its prediction.")] = None,
        backend: Annotated[Optional[str], typer.Option("--backend", help="local (default) | swebench (SWE-bench's "
                                                                         "Docker harness; needs Docker Hub).")] = None,
        workers: Annotated[Optional[int], typer.Option("--workers", min=1, help="Instances in parallel.")] = None,
        ids: Annotated[Optional[list[str]], typer.Option("--id", help="Only this instance (repeatable).")] = None,
        limit: Annotated[Optional[int], typer.Option("--limit", min=1, help="Only the first N instances.")] = None,
        specs: Annotated[Optional[str], typer.Option("--specs", help="JSON {repo: {version: spec}} in SWE-bench's "
                                                                     "per-repository keys.")] = None,
        mirrors: Annotated[Optional[str], typer.Option("--repos", help="Folder of local repositories.")] = None,
        allow_clone: Annotated[bool, typer.Option("--allow-clone", help="Clone from GitHub if needed.")] = False,
        env_dir: Annotated[Optional[str], typer.Option("--env-dir", help="Where environments are cached.")] = None,
        sandbox: Annotated[Optional[str], typer.Option("--sandbox", help="docker | local | auto.")] = None,
        *, options: RunOptions, output: Output) -> None:
    """Resolved rate of patches: apply each at the base commit, run FAIL_TO_PASS and PASS_TO_PASS in the sandbox."""
    from agents.repair.bench import check
    from agents.repair.config import BenchResolveConfig

    harness = {k: v for k, v in {"workers": workers, "specs": specs, "mirrors": mirrors, "env_dir": env_dir,
                                 "allow_clone": allow_clone or None, "sandbox": sandbox}.items() if v is not None}
    config = load_config(BenchResolveConfig, "bench_resolve",
                         {"instances": instances, "predictions": predictions, "agent": agent, "agent_cmd": agent_cmd,
                          "backend": backend, "ids": ids or None, "limit": limit})
    config.harness = config.harness.model_copy(update=harness)
    run, report = launch("bench-resolve", config, options, check=check)
    output.report(report, run)


@bench_app.command("resolve-throughput")
@with_output
def bench_resolve_throughput(
        workers: Annotated[str, typer.Option("--workers", help="Worker counts, comma-separated.")] = "1,2",
        sandbox: Annotated[Optional[str], typer.Option("--sandbox", help="docker | local | auto.")] = None,
        env_dir: Annotated[str, typer.Option("--env-dir", help="Where environments are cached.")] =
        ".cache/resolve-envs",
        *, output: Output) -> None:
    """Instances per minute of `agent bench resolve` on the shipped benchmark with each worker count, side by side."""
    from benchmarks.resolve.throughput import measure_throughput
    from sandboxes.errors import UserError

    try:
        counts = [int(part) for part in workers.split(",")]
    except ValueError:
        raise UserError(f"--workers {workers}: expected comma-separated counts such as 1,2") from None
    if not counts or min(counts) < 1:
        raise UserError(f"--workers {workers}: every count must be at least 1")
    config = {"workers": counts, "sandbox": sandbox, "env_dir": env_dir}
    run, report = run_benchmark("bench-resolve-throughput", config,
                                lambda run: measure_throughput(run.artifacts, counts, sandbox, env_dir))
    output.report(report, run)
