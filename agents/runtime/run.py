"""Run directories: ``runs/<id>/`` with config, events, checkpoints, artifacts and the report."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel

from benchmarks.report import Report
from sandboxes.errors import UserError
from sandboxes.telemetry import event_sink

from agents.runtime.budget import BudgetExceeded, Totals
from agents.runtime.interrupts import NO_ANSWER, RunPaused

RUNS_DIR_ENV = "AGENT_RUNS_DIR"
CONFIG_FILE, EVENTS_FILE, STATUS_FILE = "config.json", "events.jsonl", "status.json"
CHECKPOINTS_FILE = "checkpoints.sqlite"
RUN_FILES = (CONFIG_FILE, EVENTS_FILE, STATUS_FILE, CHECKPOINTS_FILE)
"""A directory holding any of these under the runs folder is a run (perhaps a damaged one)."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped a run; it is saved as ``interrupted`` and ``agent runs resume`` continues it."""

    def __init__(self, run_id: str):
        super().__init__(run_id)
        self.run_id = run_id


def runs_root(root: str | Path | None = None) -> Path:
    """The folder that holds run directories: ``root``, else ``$AGENT_RUNS_DIR``, else ``./runs`` (a ``UserError``
    when that is a file)."""
    path = Path(root or os.environ.get(RUNS_DIR_ENV) or "runs")
    if path.exists() and not path.is_dir():
        source = "" if root else f" (from ${RUNS_DIR_ENV})" if os.environ.get(RUNS_DIR_ENV) else ""
        raise UserError(f"the runs folder {path}{source} is a file, not a folder")
    return path


def read_events(path: Path) -> list[dict[str, Any]]:
    """All events of an ``events.jsonl``; a line cut short by a kill is skipped."""
    return parse_events(path.read_bytes()) if path.exists() else []


def parse_events(data: bytes) -> list[dict[str, Any]]:
    """The events in some lines of an ``events.jsonl`` (a line that is not a JSON object is skipped)."""
    events = []
    for line in data.splitlines():
        with contextlib.suppress(ValueError):  # JSON or UTF-8 that does not parse
            event = json.loads(line)
            if isinstance(event, dict):
                events.append(event)
    return events


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _as_dict(config: BaseModel | dict[str, Any] | None) -> dict[str, Any]:
    if config is None:
        return {}
    if isinstance(config, BaseModel):
        return config.model_dump(mode="json")
    return json.loads(json.dumps(dict(config), default=str))


class Run:
    """One run of one agent, stored in its own directory."""

    def __init__(self, run_dir: Path, meta: dict[str, Any]):
        self.dir = run_dir
        self.id = run_dir.name
        self.meta = meta
        self.agent: str = meta["agent"]
        self.config: dict[str, Any] = meta.get("config", {})
        self.runtime: dict[str, Any] = meta.get("runtime", {})
        self.artifacts = run_dir / "artifacts"
        self.artifacts.mkdir(exist_ok=True)
        self.events_path = run_dir / EVENTS_FILE
        self._lock = threading.Lock()
        self._saver: Any = None
        self.totals = Totals()
        self.answer: Any = NO_ANSWER
        """The answer ``run_graph`` gives the interrupt this run is paused at (set by ``resume(..., answer=)``)."""
        self._seq = 0
        self._offset = 0
        """How far into events.jsonl this object has read (other processes append to the same file)."""
        self._line_open = False
        """Whether the file ends inside a line (a writer killed mid-line): the next event starts a new one."""
        if self.events_path.exists():
            with self.events_path.open("rb") as stream:
                self._catch_up(stream)

    @classmethod
    def create(cls, agent: str, config: BaseModel | dict[str, Any] | None = None, root: str | Path | None = None,
               *, runtime: BaseModel | dict[str, Any] | None = None, argv: list[str] | None = None) -> "Run":
        """Make a new ``runs/<id>/`` holding ``config.json`` (agent, argv, config, runtime options)."""
        base = runs_root(root)
        run_id = f"{time.strftime('%Y%m%d-%H%M%S')}-{agent}-{secrets.token_hex(3)}"
        run_dir = base / run_id
        run_dir.mkdir(parents=True)
        meta = {"id": run_id, "agent": agent, "created": time.time(),
                "argv": list(sys.argv[1:] if argv is None else argv),
                "config": _as_dict(config), "runtime": _as_dict(runtime)}
        (run_dir / CONFIG_FILE).write_text(json.dumps(meta, indent=2) + "\n")
        run = cls(run_dir, meta)
        run.set_status("created")
        return run

    @classmethod
    def open(cls, run_id: str, root: str | Path | None = None) -> "Run":
        """Reopen a run by id, unique id prefix, or ``last`` (the newest run)."""
        base = runs_root(root)
        run_dir = _find_run_dir(base, run_id)
        if not (run_dir / CONFIG_FILE).exists():
            raise UserError(f"run {run_dir.name} has no {CONFIG_FILE} (its directory {run_dir} is incomplete); "
                            "it cannot be shown or resumed")
        try:
            meta = json.loads((run_dir / CONFIG_FILE).read_text())
            if not isinstance(meta, dict) or "agent" not in meta:
                raise ValueError("it names no agent")
        except (OSError, ValueError) as error:
            raise UserError(f"run {run_dir.name} has an unreadable {CONFIG_FILE}: {_one_line(error)}") from None
        return cls(run_dir, meta)

    def update_meta(self, **fields: Any) -> None:
        """Add fields to ``config.json`` (e.g. the model that was resolved for this run).

        The file is read again first, so fields another process wrote meanwhile are kept.
        """
        with contextlib.suppress(OSError, json.JSONDecodeError):
            self.meta = json.loads((self.dir / CONFIG_FILE).read_text())
        self.meta.update(fields)
        self.config, self.runtime = self.meta.get("config", {}), self.meta.get("runtime", {})
        _write_atomic(self.dir / CONFIG_FILE, json.dumps(self.meta, indent=2) + "\n")

    def emit(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Append one event to ``events.jsonl`` (``seq`` and ``ts`` are added, and ``node_task``: the LangGraph task
        id of the graph node it was emitted in, when it was emitted in one)."""
        node_task = _current_node_task()
        with self._lock, self.events_path.open("a+b") as stream:
            fcntl.flock(stream, fcntl.LOCK_EX)  # chat's /pause and the dashboard append through Run objects of their own
            self._catch_up(stream)
            self._seq += 1
            event = {"seq": self._seq, "ts": round(time.time(), 6), "kind": kind, **fields}
            if node_task and "node_task" not in event:
                event["node_task"] = node_task
            line = ("\n" if self._line_open else "") + json.dumps(event, default=str) + "\n"
            stream.write(line.encode())
            stream.flush()
            self._offset, self._line_open = stream.tell(), False
            if kind == "model.call":
                self.totals.add(event)
        return event

    def _catch_up(self, stream: Any) -> None:
        """Read what was appended since this object last read or wrote: the next ``seq`` follows the file's last,
        and model calls count in the totals (a line cut short by a kill is skipped)."""
        if os.fstat(stream.fileno()).st_size == self._offset:
            return
        stream.seek(self._offset)
        data = stream.read()
        self._offset += len(data)
        self._line_open = bool(data) and not data.endswith(b"\n")
        for event in parse_events(data):
            with contextlib.suppress(ValueError, TypeError):  # a seq that is not a number
                self._seq = max(self._seq, int(event.get("seq") or 0))
            if event.get("kind") == "model.call":
                self.totals.add(event)

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The events written so far, optionally only those of one kind."""
        events = read_events(self.events_path)
        return [e for e in events if kind is None or e.get("kind") == kind]

    @contextlib.contextmanager
    def active(self) -> Iterator["Run"]:
        """Route ``sandboxes.telemetry.emit`` into this run and track its status; at the end, export this segment
        as an OpenTelemetry trace when one is configured (``agents.runtime.otel``)."""
        self.set_status("running")
        self.emit("run.start", agent=self.agent, pid=os.getpid())
        try:
            with event_sink(lambda kind, fields: self.emit(kind, **fields)):
                yield self
        except BudgetExceeded as error:
            self._finish("stopped", str(error))
            raise
        except RunPaused as paused:
            self._finish("paused", str(paused), interrupts=paused.interrupts)
            raise
        except KeyboardInterrupt:
            self._finish("interrupted", "interrupted by the user")
            raise RunInterrupted(self.id) from None
        except BaseException as error:
            self._finish("failed", f"{type(error).__name__}: {error}")
            raise
        else:
            self._finish("finished", "")
        finally:
            from agents.runtime.otel import export_finished_segment

            export_finished_segment(self)

    def _finish(self, status: str, reason: str, **extra: Any) -> None:
        self.emit("run.end", status=status, reason=reason, **self.totals.as_dict())
        self.set_status(status, reason, **extra)

    def set_status(self, status: str, reason: str = "", **extra: Any) -> None:
        """Write ``status.json`` (``extra``: e.g. the ``interrupts`` a paused run waits on)."""
        record = {"status": status, "reason": reason, "pid": os.getpid(), "updated": time.time(), **extra}
        _write_atomic(self.dir / STATUS_FILE, json.dumps(record, default=str) + "\n")

    @property
    def status(self) -> str:
        """created, running, finished, failed, stopped (budget), paused (at an interrupt, waiting for an
        answer) or interrupted (killed or Ctrl-C)."""
        return self.status_record()["status"]

    def status_record(self) -> dict[str, Any]:
        try:
            record = json.loads((self.dir / STATUS_FILE).read_text())
        except (OSError, json.JSONDecodeError):
            record = {"status": "created", "reason": ""}
        if record["status"] == "running" and not _pid_alive(int(record.get("pid", 0))):
            record.update(status="interrupted", reason="the process ended without finishing (killed?)")
        return record

    def checkpointer(self) -> Any:
        """A LangGraph ``SqliteSaver`` on ``checkpoints.sqlite`` (one per run, thread id = run id); a damaged
        file is a UserError that names it."""
        if self._saver is None:
            from langgraph.checkpoint.sqlite import SqliteSaver

            path = self.dir / CHECKPOINTS_FILE
            connection = sqlite3.connect(str(path), check_same_thread=False)
            try:
                connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.DatabaseError as error:
                connection.close()
                raise UserError(f"run {self.id}: {path} is damaged ({error}); its progress cannot be read, so "
                                "it cannot resume: start a new run") from None
            self._saver = SqliteSaver(connection)
            self._saver.setup()  # WAL journal; then sync at checkpoints only: a killed process loses nothing
            connection.execute("PRAGMA synchronous=NORMAL")
        return self._saver

    def write_report(self, report: Report) -> None:
        """Write ``report.json`` (``{"summary", "rows"}``) and ``report.md``."""
        report.write_json(self.dir / "report.json")
        _write_atomic(self.dir / "report.md", report.to_markdown())

    def read_report(self) -> Report | None:
        """The report written so far; None when there is none or it cannot be read."""
        path = self.dir / "report.json"
        try:
            return Report.read_json(path) if path.exists() else None
        except (OSError, ValueError, AttributeError):
            return None

    def close(self) -> None:
        if self._saver is not None:
            self._saver.conn.close()
            self._saver = None


def _current_node_task() -> str | None:
    """The LangGraph task id of the node this thread runs in (None outside a node, or without LangGraph loaded)."""
    config_module = sys.modules.get("langgraph.config")
    if config_module is None:
        return None
    try:
        namespace = config_module.get_config().get("configurable", {}).get("checkpoint_ns", "")
    except RuntimeError:  # not inside a runnable
        return None
    return namespace.partition("|")[0].partition(":")[2] or None  # the top-level node's task (node.start's ``task``)


def _write_atomic(path: Path, text: str) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def _find_run_dir(base: Path, run_id: str) -> Path:
    exact = base / run_id
    if run_id not in ("", ".", "..", "last") and exact.parent == base and any(
            (exact / name).exists() for name in RUN_FILES):
        return exact  # a whole id: no need to read every run's config to sort them
    ids = list_run_ids(base)
    if run_id == "last" and ids:
        return base / ids[-1]
    if run_id in ids:
        return base / run_id
    matches = [i for i in ids if i.startswith(run_id)]
    if len(matches) == 1:
        return base / matches[0]
    if matches:
        raise UserError(f"run id '{run_id}' is ambiguous in {base}: {', '.join(matches[:5])}")
    raise UserError(f"no run '{run_id}' in {base} (see `agent runs list`)")


def list_run_ids(root: str | Path | None = None) -> list[str]:
    """Ids of the runs under ``root``, oldest first (by creation time)."""
    base = runs_root(root)
    if not base.is_dir():
        return []
    runs = (p for p in base.iterdir() if any((p / name).exists() for name in RUN_FILES))
    return [p.name for p in sorted(runs, key=_created)]


def _created(run_dir: Path) -> tuple[float, str]:
    """Creation time from config.json, else the directory's modification time (a damaged run)."""
    try:
        return float(json.loads((run_dir / CONFIG_FILE).read_text()).get("created", 0)), run_dir.name
    except (OSError, ValueError, AttributeError):
        return run_dir.stat().st_mtime, run_dir.name


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())
