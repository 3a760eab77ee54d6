"""Which experience memory a run reads and writes: the shared one, a run-local one, or one per wave.

Methods with memory use the shared file (``--memory``, default <runs root>/memory/evokernel-<target>.sqlite);
the baselines get a run-local memory holding only the target's API templates. With ``carry_memory``
off, each wave of tasks starts from a copy of the memory as the run found it, so later waves cannot
retrieve what earlier waves wrote (the control arm of the memory-effect benchmark).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from agents.runtime.run import Run, runs_root
from memory.qmemory import EntryKind, MemoryEntry, QMemory

from agents.evokernel.config import EvoKernelConfig

START_COPY = "memory-at-start.sqlite"


def default_memory_path(target: str, root: str | Path | None = None) -> str:
    """Where the shared experience memory lives unless --memory names a file."""
    return str(runs_root(root) / "memory" / f"evokernel-{target}.sqlite")


def uses_memory(method: str) -> bool:
    return method in ("evokernel", "evokernel-noq")


def open_memory(config: EvoKernelConfig, run: Run, templates: Any, path: str | Path | None = None) -> QMemory:
    """The memory at ``path`` (default: the shared one for the evokernel methods, a run-local one holding API
    templates only for the baselines), seeded with the target's template kernels as API knowledge."""
    if path is None:
        path = (config.memory or default_memory_path(config.target)) if uses_memory(config.method) \
            else run.dir / "api-memory.sqlite"
    qconfig = config.qmemory if config.method == "evokernel" else config.qmemory.model_copy(
        update={"selection": "similarity"})
    memory = QMemory(path, qconfig)
    if templates is not None:
        memory.add([MemoryEntry(kind=EntryKind.API, text=text, task=f"template:{name}", target=config.target)
                    for name, text in templates.api_entries()])
    return memory


class RunMemory:
    """The memory the run's current wave uses (``memory``); ``for_wave`` switches it when waves do not share."""

    def __init__(self, config: EvoKernelConfig, run: Run, templates: Any):
        self.config, self.run, self.templates = config, run, templates
        self.memory = open_memory(config, run, templates)
        self.wave: int | None = None
        self.separate = uses_memory(config.method) and not config.carry_memory and config.waves > 1
        if self.separate and not (run.dir / START_COPY).exists():
            _backup(Path(self.memory.store.path), run.dir / START_COPY)

    def for_wave(self, wave: int) -> QMemory:
        """The memory of ``wave``: the shared one, or (no carry-over) a copy of the memory at the run's start."""
        if self.separate and wave != self.wave:
            path = self.run.dir / f"memory-wave{wave}.sqlite"
            if not path.exists():
                _backup(self.run.dir / START_COPY, path)
            self.memory.close()
            self.memory = open_memory(self.config, self.run, self.templates, path)
        self.wave = wave
        return self.memory

    def close(self) -> None:
        self.memory.close()


def _backup(source: Path, target: Path) -> None:
    """Copy an SQLite file consistently (it may be open, in WAL mode)."""
    staging = target.with_suffix(".partial")
    with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(staging)) as dst:
        src.backup(dst)
    staging.replace(target)
