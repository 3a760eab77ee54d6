"""`/run AGENT ...`: start `agent run AGENT ...` as a background process and follow its events in the session."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from agents.runtime.run import list_run_ids, read_events, runs_root

FOLLOWED_KINDS = ("node.start", "node.end", "node.error", "model.call", "best", "budget.exceeded", "budget.changed",
                  "guidance", "graph.answer", "graph.paused", "evokernel.attempt", "evokernel.guidance_seen", "run.end")
REPORT_KEYS = 8
FIND_RUN_S = 120.0
POLL_S = 0.3


def event_line(run_id: str, event: dict[str, Any]) -> str:
    """One compact line for an event of a followed run."""
    kind = event.get("kind", "?")
    detail = {"node.start": lambda e: e.get("node", ""),
              "node.end": lambda e: f"{e.get('node', '')} ({e.get('duration_s', 0):.2f}s)",
              "node.error": lambda e: f"{e.get('node', '')}: {str(e.get('error', ''))[:120]}",
              "model.call": lambda e: f"{e.get('model', '')} {e.get('prompt_tokens', 0)}+"
                                      f"{e.get('completion_tokens', 0)} tokens ${e.get('cost_usd', 0):.4f}",
              "evokernel.attempt": lambda e: f"{e.get('task')} attempt {e.get('attempt')} ({e.get('stage')}): "
                                             f"{e.get('status')}" + (f" {e['latency_ms']:.4g} ms"
                                                                     if e.get("latency_ms") is not None else ""),
              "graph.paused": lambda e: f"waiting for an answer: {e.get('interrupts')}"[:300],
              "run.end": lambda e: f"{e.get('status', '')} {e.get('reason', '')}".strip()}.get(kind)
    text = detail(event) if detail else ", ".join(f"{k}={v}" for k, v in event.items()
                                                   if k not in ("seq", "ts", "kind"))[:160]
    return f"[{run_id}] {kind} {text}".rstrip()


def line_printer(console: Any) -> Callable[[str], None]:
    """Print followed lines whole (the terminal wraps them), so a narrow or dumb terminal does not split them."""
    return lambda line: console.print(line, markup=False, highlight=False, soft_wrap=True)


class BackgroundRun:
    """A child `agent run ...` process; a daemon thread finds its run directory and tails its events."""

    def __init__(self, argv: list[str], say: Callable[[str], None], log_dir: Path, *, run_id: str | None = None,
                 root: str | Path | None = None):
        """``argv`` follows `agent` (e.g. ``["run", "demo"]``); ``run_id`` when the run already exists (resume)."""
        self.argv = list(argv)
        self.say = say
        self.root = runs_root(root)
        self.run_id = run_id
        self.process: subprocess.Popen | None = None
        self.log_path = log_dir / f"background-{time.time_ns()}.log"

    def start(self) -> None:
        known = set(list_run_ids(self.root))
        self.root.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "AGENT_RUNS_DIR": str(self.root.resolve())}
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen([sys.executable, "-m", "agents.cli.app", *self.argv], stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                            start_new_session=True)  # Ctrl-C in the chat does not reach it
        self.say(f"started `agent {' '.join(self.argv)}` (pid {self.process.pid}); following its events")
        threading.Thread(target=self._follow, args=(known,), daemon=True).start()

    def describe(self) -> str:
        state = "running" if self.process and self.process.poll() is None else f"exited {self.process.returncode}"
        return f"agent {' '.join(self.argv)} · run {self.run_id or '?'} · {state}"

    def _follow(self, known: set[str]) -> None:
        seen = 0
        if self.run_id is not None:
            seen = len(read_events(self.root / self.run_id / "events.jsonl"))
        else:
            self.run_id = self._find_run(known)
        if self.run_id is None:
            self.process.wait()
            self.say(f"`agent {' '.join(self.argv)}` exited {self.process.returncode} without a run: "
                     f"{self._log_tail()}")
            return
        self.say(f"[{self.run_id}] run directory {self.root / self.run_id}")
        while True:
            done = self.process.poll() is not None
            events = read_events(self.root / self.run_id / "events.jsonl")
            for event in events[seen:]:
                if event.get("kind") in FOLLOWED_KINDS:
                    self.say(event_line(self.run_id, event))
            seen = len(events)
            if done:
                break
            time.sleep(POLL_S)
        self.say(self._result_line())
        self.say(f"[{self.run_id}] process exited {self.process.returncode}; agent chat --attach {self.run_id}")

    def _result_line(self) -> str:
        """The first fields of the run's report summary (its final result, or why it stopped)."""
        from benchmarks.report import Report

        path = self.root / self.run_id / "report.json"
        try:
            summary = Report.read_json(path).summary
        except (OSError, ValueError, KeyError):
            return f"[{self.run_id}] no report"
        shown = [f"{key}={value}" for key, value in list(summary.items())[:REPORT_KEYS]
                 if not isinstance(value, (list, dict))]
        return f"[{self.run_id}] result: {', '.join(shown)}"[:400]

    def _find_run(self, known: set[str]) -> str | None:
        deadline = time.monotonic() + FIND_RUN_S
        while time.monotonic() < deadline:
            new = [run_id for run_id in list_run_ids(self.root) if run_id not in known]
            if new:
                return new[-1]
            if self.process.poll() is not None:
                return None
            time.sleep(POLL_S)
        return None

    def _log_tail(self) -> str:
        try:
            lines = self.log_path.read_text().strip().splitlines()
        except OSError:
            return ""
        return lines[-1] if lines else ""
