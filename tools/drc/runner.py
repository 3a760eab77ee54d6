"""Evaluate DRC decks over layouts: many (deck, layout) jobs per klayout process, inside the sandbox.

A batch is one klayout process running :data:`tools.drc.driver.RUBY_DRIVER`. Errors are caught per
job. When the sandbox kills a batch (a deck loops in C++ or explodes in memory), the job that was
running is marked and the rest are retried in a fresh batch; a deck that kills two batches is given
up on for its remaining layouts.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, Sequence

from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.telemetry import emit
from tools.drc.driver import MARKER, RUBY_DRIVER
from tools.drc.lyrdb import ReportParseError, parse_lyrdb

Status = Literal["ok", "error", "timeout"]


class DrcRunnerConfig(Config):
    """How decks are run: batching and limits."""

    klayout: str = "klayout"
    """The KLayout binary that runs Ruby DRC decks (Debian package `klayout`)."""
    batch_size: int = 400
    """Jobs per klayout process."""
    job_timeout_s: float = 10.0
    """Ruby-level time limit for one deck on one layout."""
    startup_s: float = 30.0
    """Wall-clock allowance for starting klayout, added to the per-job allowance."""
    per_job_s: float = 3.0
    """Wall-clock allowance per job for the sandbox limit of a batch."""
    memory_mb: int = 2048
    """Memory limit of one klayout process."""
    kills_per_deck: int = 2
    """After this many killed batches a deck's remaining layouts are marked as timed out."""


@dataclass
class LayoutVerdict:
    """What one deck did on one layout."""

    status: Status
    counts: dict[str, int] = field(default_factory=dict)
    declared: list[str] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def violated(self, category: str) -> bool:
        """True when the deck reported at least one violation in ``category``."""
        return self.counts.get(category, 0) > 0

    def categories(self) -> set[str]:
        return set(self.declared) | set(self.counts)


@dataclass
class RunnerStats:
    """What the runner has spent so far: klayout processes, their CPU seconds and wall seconds."""

    processes: int = 0
    cpu_s: float = 0.0
    wall_s: float = 0.0

    def add(self, result: RunResult) -> None:
        self.processes += 1
        self.cpu_s += result.cpu_s
        self.wall_s += result.wall_s


class DrcRunner:
    """Runs decks over layouts through a sandbox, batching many jobs into one klayout process."""

    def __init__(self, sandbox: Sandbox | None = None, config: DrcRunnerConfig | None = None):
        self.config = config or DrcRunnerConfig()
        self._sandbox = sandbox
        self.stats = RunnerStats()

    @property
    def sandbox(self) -> Sandbox:
        if self._sandbox is None:
            from sandboxes.select import get_sandbox

            self._sandbox = get_sandbox()
        return self._sandbox

    def evaluate(self, jobs: Sequence[tuple[str, bytes]]) -> list[LayoutVerdict]:
        """Run each (deck text, GDS bytes) job; one verdict per job, in order."""
        _require_binary(self.config.klayout)
        verdicts: list[LayoutVerdict | None] = [None] * len(jobs)
        kills: Counter[str] = Counter()
        pending = list(range(len(jobs)))
        while pending:
            batch, pending = pending[:self.config.batch_size], pending[self.config.batch_size:]
            retry = self._run_batch(jobs, batch, verdicts, kills)
            pending = retry + pending
        return [verdict for verdict in verdicts if verdict is not None]

    def evaluate_matrix(self, decks: Sequence[str], layouts: Sequence[bytes]) -> list[list[LayoutVerdict]]:
        """Every deck on every layout: ``result[d][l]``."""
        flat = self.evaluate([(deck, layout) for deck in decks for layout in layouts])
        return [flat[d * len(layouts):(d + 1) * len(layouts)] for d in range(len(decks))]

    def _run_batch(self, jobs, batch: list[int], verdicts: list, kills: Counter) -> list[int]:
        """Run one batch, fill ``verdicts``; return the jobs to retry after a killed process."""
        files, outputs = _batch_files(jobs, batch, self.config)
        limits = Limits(wall_s=self.config.startup_s + self.config.per_job_s * len(batch),
                        cpu_s=self.config.startup_s + self.config.per_job_s * len(batch),
                        memory_mb=self.config.memory_mb, pids=64, output_bytes=4_000_000)
        argv = ["sh", "-c", f'mkdir -p .home && HOME="$PWD/.home" exec {self.config.klayout} -b -nc -rx '
                            f'-r driver.rb -rd jobs=jobs.tsv -rd job_timeout={self.config.job_timeout_s}']
        started = time.perf_counter()
        result = self.sandbox.run(argv, files=files, limits=limits, collect=outputs)
        self.stats.add(result)
        markers = _parse_markers(result.stdout)
        for position, job in enumerate(batch):
            if position in markers:
                verdicts[job] = _verdict(markers[position], result.files.get(outputs[position]))
        emit("drc.batch", jobs=len(batch), finished=len(markers), seconds=time.perf_counter() - started,
             returncode=result.returncode, timed_out=result.timed_out)
        return self._after_kill(jobs, batch, markers, verdicts, kills, result)

    def _after_kill(self, jobs, batch, markers, verdicts, kills: Counter, result: RunResult) -> list[int]:
        unfinished = [job for position, job in enumerate(batch) if position not in markers]
        if not unfinished:
            return []
        reason = _kill_reason(result)
        if not markers and not (result.timed_out or result.oom_killed):
            for job in unfinished:  # klayout did not even start: retrying would fail the same way
                verdicts[job] = LayoutVerdict("error", error=reason)
            return []
        culprit = unfinished[0]
        verdicts[culprit] = LayoutVerdict("timeout" if result.timed_out else "error", error=reason)
        deck = jobs[culprit][0]
        kills[deck] += 1
        retry = []
        for job in unfinished[1:]:
            if jobs[job][0] == deck and kills[deck] >= self.config.kills_per_deck:
                verdicts[job] = LayoutVerdict("timeout", error=f"not run: this deck killed klayout "
                                                               f"{kills[deck]} times ({reason})")
            else:
                retry.append(job)
        return retry


def _require_binary(binary: str) -> None:
    if shutil.which(binary) is None:
        raise UserError(f"KLayout binary '{binary}' not found: install it with `apt-get install -y klayout` "
                        "(Debian's klayout runs Ruby DRC decks; the PyPI package cannot)")


def _digest(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()[:16]


def _batch_files(jobs, batch: list[int], config: DrcRunnerConfig) -> tuple[dict[str, bytes], list[str]]:
    """Sandbox files for one batch (decks and layouts deduplicated) and the report names to collect."""
    files: dict[str, bytes] = {"driver.rb": RUBY_DRIVER.encode()}
    lines, outputs = [], []
    for position, job in enumerate(batch):
        deck, layout = jobs[job]
        deck_name = f"d{_digest(deck.encode())}.drc"
        layout_name = f"l{_digest(layout)}.gds"
        files.setdefault(deck_name, deck.encode())
        files.setdefault(layout_name, layout)
        outputs.append(f"r{position}.lyrdb")
        lines.append(f"{deck_name}\t{layout_name}\t{outputs[-1]}")
    files["jobs.tsv"] = ("\n".join(lines) + "\n").encode()
    return files, outputs


def _parse_markers(stdout: str) -> dict[int, tuple[float, str]]:
    """Marker lines ``@@DRC <index> <seconds> <status...>`` by job position."""
    markers = {}
    for line in stdout.splitlines():
        if line.startswith(MARKER + " "):
            parts = line.split(" ", 3)
            if len(parts) == 4 and parts[1].isdigit():
                markers[int(parts[1])] = (float(parts[2]), parts[3])
    return markers


def _verdict(marker: tuple[float, str], report: bytes | None) -> LayoutVerdict:
    seconds, status = marker
    if status.startswith("TIMEOUT"):
        return LayoutVerdict("timeout", error=status[len("TIMEOUT "):], seconds=seconds)
    if status.startswith("ERR"):
        return LayoutVerdict("error", error=status[len("ERR "):], seconds=seconds)
    if report is None:
        return LayoutVerdict("error", seconds=seconds,
                             error="the deck wrote no report database; it must call report(title, $output)")
    try:
        database = parse_lyrdb(report)
    except ReportParseError as error:
        return LayoutVerdict("error", error=str(error), seconds=seconds)
    return LayoutVerdict("ok", counts=database.counts, declared=database.declared, seconds=seconds)


def _kill_reason(result: RunResult) -> str:
    if result.timed_out:
        return "klayout was killed at the sandbox wall-clock limit"
    if result.oom_killed:
        return "klayout was killed at the sandbox memory limit"
    tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or [""]
    return f"klayout exited with code {result.returncode}: {tail[0][:300]}"
