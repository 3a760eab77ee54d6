"""DRC deck runs through the Executor seam: the (deck, layout) jobs are cut into batches, one per slot of the
executor, and each batch is one evaluation that a :class:`~tools.drc.runner.DrcRunner` runs on the node it
lands on (klayout inside that node's sandbox, with the runner's limits). The verdicts come back in order."""

from __future__ import annotations

import math
from typing import Sequence

from benchmarks.executor.base import Executor, Job, Needs, Place, run_all
from tools.drc.runner import DrcRunner, DrcRunnerConfig, LayoutVerdict

RUNNER = "drc.runner"
"""The name a place keeps its DRC runner under (one per node process, for the settings it was made with)."""


def run_batch(place: Place, jobs: list[tuple[str, bytes]], config: DrcRunnerConfig) -> list[LayoutVerdict]:
    """One batch on ``place``: its sandbox, through a runner kept there for ``config``."""
    runner = place.keep(f"{RUNNER}:{config.model_dump_json()}", lambda: DrcRunner(place.sandbox_or_default(), config))
    return runner.evaluate(jobs)


class FannedDrcRunner:
    """``DrcRunner.evaluate`` with its batches spread over an executor's slots (``width`` at least)."""

    def __init__(self, executor: Executor, config: DrcRunnerConfig | None = None, width: int = 1,
                 place: Place | None = None):
        self.executor = executor
        self.config = config or DrcRunnerConfig()
        self.width = width
        self.place = place

    def evaluate(self, jobs: Sequence[tuple[str, bytes]]) -> list[LayoutVerdict]:
        """One verdict per (deck text, GDS bytes) job, in order."""
        if not jobs:
            return []
        slots = self.executor.width(self.width, Needs())
        size = min(self.config.batch_size, math.ceil(len(jobs) / max(1, slots)))
        batches = [list(jobs[start:start + size]) for start in range(0, len(jobs), size)]
        work = [Job(f"drc batch {number + 1}/{len(batches)}", run_batch, (batch, self.config))
                for number, batch in enumerate(batches)]
        return [verdict for verdicts in run_all(self.executor, work, place=self.place, width=slots)
                for verdict in verdicts]
