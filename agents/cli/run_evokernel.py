"""`agent run evokernel`, `agent bench evokernel` and `agent memory export|import|stats`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import emit_report, with_run_options
from agents.cli.groups import app, bench_app, run_app
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_lazy

from agents.evokernel.config import EvoKernelConfig

AGENT_NAME, BENCH_NAME = "evokernel", "evokernel-bench"
execute = register_lazy(AGENT_NAME, "agents.evokernel.agent:execute")
execute_bench = register_lazy(BENCH_NAME, "agents.evokernel.bench:execute_bench")

memory_app = typer.Typer(help="Inspect, export and import EvoKernel's experience memory.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")

TargetOption = Annotated[Optional[str], typer.Option("--target", help="npu (simulated), gpu or cpu.")]
TasksOption = Annotated[Optional[str], typer.Option("--tasks", help="builtin:L1, builtin:L1:relu,softmax, a folder.")]
BudgetOption = Annotated[Optional[int], typer.Option("--budget", help="Attempts per task (draft + refine).")]
MemoryOption = Annotated[Optional[str], typer.Option("--memory", help="SQLite file of the experience memory.")]
WorkersOption = Annotated[Optional[int], typer.Option("--workers", help="Tasks attempted in parallel.")]


def _config(target, tasks, budget, memory, workers, **extra) -> EvoKernelConfig:
    flags = {"target": target, "tasks": tasks, "budget": budget, "memory": memory, "workers": workers, **extra}
    config = load_config(EvoKernelConfig, "evokernel", flags)
    if config.memory is None and config.method in ("evokernel", "evokernel-noq"):
        from agents.evokernel.agent import default_memory_path

        config = config.model_copy(update={"memory": default_memory_path(config.target)})
    return config


@run_app.command("evokernel")
@with_run_options
def run_evokernel(target: TargetOption = None, tasks: TasksOption = None,
                  method: Annotated[Optional[str], typer.Option(
                      "--method", help="evokernel, evokernel-noq, refine or pass@k.")] = None,
                  budget: BudgetOption = None, memory: MemoryOption = None, workers: WorkersOption = None,
                  pause_every: Annotated[Optional[int], typer.Option(
                      "--pause-every", help="Pause after every N rounds for a new budget or guidance "
                                            "(agent chat --attach RUN_ID).")] = None,
                  *, options: RunOptions, json_path: Optional[Path]) -> None:
    """Draft and refine kernels with a Q-value experience memory (offline policy without a model)."""
    config = _config(target, tasks, budget, memory, workers, method=method, pause_every=pause_every)
    run, report = launch(AGENT_NAME, config, options, execute)
    emit_report(report, json_path, run)


@bench_app.command("evokernel")
@with_run_options
def bench_evokernel(methods: Annotated[str, typer.Option(
                        "--methods", help="all, or a comma list of evokernel, evokernel-noq, refine, pass@k.")] = "all",
                    target: TargetOption = None, tasks: TasksOption = None, budget: BudgetOption = None,
                    memory: MemoryOption = None, workers: WorkersOption = None,
                    *, options: RunOptions, json_path: Optional[Path]) -> None:
    """Run every method on the same tasks and budget and print one comparison table."""
    from agents.evokernel.bench import bench_config, parse_methods

    base = load_config(EvoKernelConfig, "evokernel", {"target": target, "tasks": tasks, "budget": budget,
                                                       "memory": memory, "workers": workers})
    run, report = launch(BENCH_NAME, bench_config(base, parse_methods(methods)), options, execute_bench)
    emit_report(report, json_path, run)


@memory_app.command("export")
def memory_export(memory: Annotated[str, typer.Argument(help="Memory SQLite file.")],
                  out: Annotated[Path, typer.Argument(help="JSON Lines file to write.")]) -> None:
    """Write every entry, Q-value and PopArt statistic to a JSON Lines file."""
    from memory.qmemory import QMemory
    from memory.qmemory.transfer import export_memory

    _require(memory)
    typer.echo(f"exported {export_memory(QMemory(memory), out)} to {out}")


@memory_app.command("import")
def memory_import(source: Annotated[Path, typer.Argument(help="JSON Lines export to read.")],
                  memory: Annotated[str, typer.Argument(help="Memory SQLite file to merge into (created if new).")]
                  ) -> None:
    """Merge an export into a memory (entries are re-embedded; Q-values follow their entries)."""
    from memory.qmemory import QMemory
    from memory.qmemory.transfer import import_memory

    typer.echo(f"imported {import_memory(QMemory(memory), source)} into {memory}")


@memory_app.command("stats")
def memory_stats(memory: Annotated[str, typer.Argument(help="Memory SQLite file.")]) -> None:
    """Entries per kind, Q-values and the embedder of a memory."""
    from memory.qmemory import EntryKind, QMemory

    _require(memory)
    mem = QMemory(memory)
    counts = {kind.value: mem.store.count(kind) for kind in EntryKind}
    q_rows = mem.store.query("SELECT COUNT(*) FROM q_values")[0][0]
    typer.echo(f"{memory}: {counts}, {q_rows} Q-values, embedder {mem.embedder.name}")


def _require(path: str) -> None:
    from sandboxes.errors import UserError

    if not Path(path).is_file():
        raise UserError(f"memory file {path} does not exist")
