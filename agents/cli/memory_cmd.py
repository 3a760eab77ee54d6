"""`agent memory export|import|stats`: EvoKernel's experience memory; the memory file is always the first argument."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sandboxes.errors import UserError

from agents.cli.groups import app
from agents.cli.output import Output, with_output

memory_app = typer.Typer(help="Inspect, export and import EvoKernel's experience memory.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")

MemoryArgument = Annotated[Path, typer.Argument(help="Memory SQLite file.", show_default=False)]


@memory_app.command("export")
def memory_export(memory: MemoryArgument,
                  out: Annotated[Path, typer.Argument(help="JSON Lines file to write.")]) -> None:
    """Write every entry, Q-value and PopArt statistic of MEMORY to the JSON Lines file OUT."""
    from memory.qmemory.transfer import export_memory

    if out.is_dir():
        raise UserError(f"{out} is a folder; give the file to write (for example {out / 'memory.jsonl'})")
    out.parent.mkdir(parents=True, exist_ok=True)  # as import, --memory and --json-out do
    count = export_memory(_open(memory), out)
    typer.echo(f"exported {count} to {out}")


@memory_app.command("import")
def memory_import(memory: Annotated[Path, typer.Argument(help="Memory SQLite file to merge into (created if new).")],
                  source: Annotated[Path, typer.Argument(help="JSON Lines export to read.")]) -> None:
    """Merge the export SOURCE into MEMORY (entries are re-embedded; Q-values follow their entries)."""
    from memory.qmemory.transfer import import_memory

    if not source.is_file():
        raise UserError(f"no export file {source} (usage: agent memory import MEMORY SOURCE)")
    typer.echo(f"imported {import_memory(_open(memory, create=True), source)} into {memory}")


@memory_app.command("stats")
@with_output
def memory_stats(memory: MemoryArgument, *, output: Output) -> None:
    """Entries per kind, Q-values and the embedder of MEMORY."""
    from memory.qmemory import EntryKind

    mem = _open(memory)
    stats = {"memory": str(memory), "entries": {kind.value: mem.store.count(kind) for kind in EntryKind},
             "q_values": mem.store.query("SELECT COUNT(*) FROM q_values")[0][0], "embedder": mem.embedder.name}
    output.document(stats, lambda console: console.print(
        f"{memory}: {stats['entries']}, {stats['q_values']} Q-values, embedder {stats['embedder']}", markup=False))


def _open(path: Path, create: bool = False):
    """The memory at ``path``; a missing file (unless ``create``) is a one-line error."""
    from memory.qmemory import QMemory

    if not create and not path.is_file():
        raise UserError(f"memory file {path} does not exist")
    return QMemory(path)
