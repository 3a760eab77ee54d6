"""`agent bench rpg`: encoder performance on a real code base (full build, one-file update, search);
`agent bench rpg-ablation`: the localiser's components side by side; `agent bench rpg-reuse`: graph reuse
across instances against rebuilding, side by side."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.cli.common import run_benchmark, with_run_options
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

DEFAULT_PACKAGE = "networkx"


def default_code_base() -> Path:
    """An installed mid-sized pure-Python package (networkx, about 190k lines)."""
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.origin:
        raise UserError(f"{DEFAULT_PACKAGE} is not installed; pass --path DIR of a Python code base")
    return Path(spec.origin).parent


@bench_app.command("rpg")
@with_output
def bench_rpg(path: Annotated[Optional[Path], typer.Option("--path", help="Python code base (default: networkx).")] = None,
              queries: Annotated[int, typer.Option("--queries", help="search_node queries to time.")] = 100,
              *, output: Output) -> None:
    """Full offline build (lines/s), incremental update after a one-file change (fraction of the full
    build, checked equal to a rebuild) and search_node latency, measured side by side."""
    from agents.rpg.perf import measure

    source = (path or default_code_base()).resolve()
    if not source.is_dir():
        raise UserError(f"not a directory: {source}")

    def bench(run) -> Report:
        with tempfile.TemporaryDirectory(prefix="rpg-bench-") as scratch:
            summary, rows = measure(source, Path(scratch), queries=queries)
        return Report(summary=summary, rows=rows, title="RPG encoder performance")

    run, report = run_benchmark("bench-rpg", {"path": str(source), "queries": queries}, bench)
    output.report(report, run)


register_agent("bench-rpg-ablation", "agents.rpg.ablation:execute")


@bench_app.command("rpg-ablation")
@with_run_options
def bench_rpg_ablation(
        instances: Annotated[str, typer.Option("--instances", help="SWE-bench JSON/JSONL instances, or 'demo'.")] = "demo",
        variants: Annotated[Optional[str], typer.Option("--variants", help="Comma-separated variants (default all).")] = None,
        exclude: Annotated[Optional[str], typer.Option("--exclude", help="File of instance ids to leave out.")] = None,
        limit: Annotated[Optional[int], typer.Option("--limit", help="Only the first N instances.")] = None,
        mirrors: Annotated[Optional[str], typer.Option("--repos", help="Folder of local repositories.")] = None,
        workers: Annotated[Optional[int], typer.Option("--workers", help="Repositories in parallel.")] = None,
        *, options: RunOptions, output: Output) -> None:
    """The offline localiser, BM25 and the localiser without each component, side by side on the same
    instances (Acc@k at file, module and function level, and paired wins against BM25)."""
    from agents.rpg.ablation import AblationConfig

    bench = {k: v for k, v in {"mirrors": mirrors, "workers": workers}.items() if v is not None}
    chosen = [v.strip() for v in variants.split(",")] if variants else None
    config = load_config(AblationConfig, "bench_rpg_ablation", {"instances": instances, "exclude": exclude,
                                                                 "limit": limit, "variants": chosen})
    config.bench = config.bench.model_copy(update=bench)
    run, report = launch("bench-rpg-ablation", config, options)
    output.report(report, run)


@bench_app.command("rpg-reuse")
@with_output
def bench_rpg_reuse(
        instances: Annotated[Path, typer.Option("--instances", help="SWE-bench JSON/JSONL instances.")],
        mirrors: Annotated[Optional[str], typer.Option("--repos", help="Folder of local repositories.")] = None,
        repo: Annotated[Optional[str], typer.Option("--repo", help="Only instances of this repository.")] = None,
        limit: Annotated[Optional[int], typer.Option("--limit", help="Only the first N instances (after --repo).")] = None,
        *, output: Output) -> None:
    """Seconds per instance with one graph per repository evolved from commit to commit, against a
    graph built from scratch per commit, side by side, and whether every answer is identical."""
    from benchmarks.repo.harness import RepoBenchConfig
    from benchmarks.repo.instances import load_instances

    from agents.rpg.reuse import measure_reuse

    chosen = [i for i in load_instances(instances) if repo is None or i.repo == repo][:limit]
    if not chosen:
        raise UserError(f"no instances{' of ' + repo if repo else ''} in {instances}")
    bench = RepoBenchConfig(mirrors=mirrors)

    def measure(run) -> Report:
        summary, rows = measure_reuse(chosen, bench)
        return Report(summary=summary, rows=rows, title="RPG graph reuse across instances")

    run, report = run_benchmark("bench-rpg-reuse", {"instances": str(instances), "repo": repo, "limit": limit,
                                                    "mirrors": mirrors}, measure)
    output.report(report, run)
