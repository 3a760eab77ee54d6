"""`agent bench repo`: localisation accuracy of a localiser on SWE-bench-style instances."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import with_run_options
from agents.cli.executor_options import ExecutorOption
from agents.cli.groups import bench_app
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

register_agent("bench-repo", "agents.rpg.bench:execute")


@bench_app.command("repo")
@with_run_options
def bench_repo(
        instances: Annotated[str, typer.Option("--instances", help="SWE-bench JSON/JSONL instances, or 'demo'.")] = "demo",
        localizer: Annotated[str, typer.Option("--localizer", help="rpg | bm25 | predictions:FILE")] = "rpg",
        exclude: Annotated[Optional[str], typer.Option("--exclude", help="File of instance ids to leave out.")] = None,
        workers: Annotated[Optional[int], typer.Option("--workers", help="Instances in parallel.")] = None,
        limit: Annotated[Optional[int], typer.Option("--limit", help="Only the first N instances.")] = None,
        mirrors: Annotated[Optional[str], typer.Option("--repos", help="Folder of local repositories.")] = None,
        allow_clone: Annotated[bool, typer.Option("--allow-clone", help="Clone from GitHub if needed.")] = False,
        export: Annotated[Optional[str], typer.Option("--export", help="Write SWE-bench predictions JSONL.")] = None,
        executor: ExecutorOption = None, *, options: RunOptions, output: Output) -> None:
    """Localisation accuracy (Acc@k, recall, NDCG at file/module/function level) of a localiser."""
    from agents.rpg.bench import check_executor
    from agents.rpg.config import BenchRepoConfig

    bench = {k: v for k, v in {"workers": workers, "mirrors": mirrors, "allow_clone": allow_clone or None}.items()
             if v is not None}
    config = load_config(BenchRepoConfig, "bench_repo", {"instances": instances, "localizer": localizer,
                                                          "exclude": exclude, "limit": limit, "export": export,
                                                          "executor": executor})
    config.bench = config.bench.model_copy(update=bench)
    run, report = launch("bench-repo", config, options, lambda config, model: check_executor(config.executor, model))
    output.report(report, run)
