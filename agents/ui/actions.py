"""What the dashboard can do to a run, with the runtime calls `agent runs resume --answer` and chat's /pause, /guide
and /budget use: a pause request, guidance, new spending limits, and a resume (with the answer to the interrupt a
paused run waits on) that runs `agent runs resume` in the background, as chat's /resume does, and returns once that
command has taken the run over."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

from sandboxes.errors import UserError

from agents.runtime.interrupts import add_guidance, request_pause, waiting_interrupts
from agents.runtime.launch import BUDGET_FIELDS, change_spending_limits
from agents.runtime.run import Run

BY = "ui"
RESUME_LOG = "ui-resume.log"


def pause(run: Run) -> dict[str, Any]:
    """Ask a running run to pause at its next safe point."""
    status = run.status_record()["status"]
    if status != "running":
        raise UserError(f"run {run.id} is {status}; only a running run can be asked to pause")
    request_pause(run, by=BY)
    return {"done": f"asked {run.id} to pause at its next safe point"}


def guide(run: Run, text: Any) -> dict[str, Any]:
    """Add guidance for the run's agent (kept in its config.json; the agent reads it at its next step)."""
    if not isinstance(text, str) or not text.strip():
        raise UserError("guidance needs a non-empty text")
    add_guidance(run, text.strip(), by=BY)
    return {"done": f"guidance added to {run.id}"}


def budget(run: Run, limits: Any) -> dict[str, Any]:
    """New spending limits for a run that is not running (saved for its next resume)."""
    if not isinstance(limits, dict) or not limits or set(limits) - set(BUDGET_FIELDS):
        raise UserError(f"budget takes {', '.join(BUDGET_FIELDS)} (numbers, 0 or more)")
    if any(not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0 for v in limits.values()):
        raise UserError(f"budget limits must be numbers, 0 or more: {json.dumps(limits)}")
    status = run.status_record()["status"]
    if status == "running":
        raise UserError(f"run {run.id} is running; change its budget once it stops or pauses")
    change_spending_limits(run, {k: int(v) if k != "max_cost_usd" else float(v) for k, v in limits.items()}, by=BY)
    return {"done": f"spending limits of {run.id} are now {limits}; resume continues it"}


def resume(run: Run, answer: Any = None, wait_s: float = 60.0) -> dict[str, Any]:
    """Start `agent runs resume ID [--answer JSON]` in the background and wait (up to ``wait_s``) until it has
    taken the run over, so that the page follows a run that is moving again; the checks are the command's own,
    and a command that gives up first is an error saying why (the last line it wrote)."""
    status = run.status_record()
    try:
        waiting = waiting_interrupts(run)
    finally:
        run.close()
    if status["status"] in ("running", "finished"):
        raise UserError(f"run {run.id} is {status['status']}; there is nothing to resume")
    if waiting and answer is None:
        raise UserError(f"run {run.id} is paused and asks: {status.get('reason')}; send an answer ({{}} continues "
                        "unchanged)")
    argv = [sys.executable, "-m", "agents.cli.app", "runs", "resume", run.id, "--root", str(run.dir.parent)]
    if answer is not None:
        argv += ["--answer", json.dumps(answer)]
    log_path = run.dir / RESUME_LOG
    with log_path.open("a") as log:
        start = log.tell()
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env={**os.environ, "AGENT_RUNS_DIR": str(run.dir.parent)}, start_new_session=True)
    threading.Thread(target=process.wait, name=f"ui-resume-{run.id}", daemon=True).start()  # reap it when it ends
    taken = _taken_over(run, status.get("updated"), process, wait_s)
    if not taken and process.poll() is not None:
        said = log_path.read_text(errors="replace")[start:].strip().splitlines()
        raise UserError(f"`agent runs resume {run.id}` exited {process.returncode}: "
                        f"{said[-1] if said else 'it wrote nothing'}")
    where = f"its output goes to {log_path}"
    return {"done": f"resuming {run.id} (pid {process.pid}); {where}" if taken else
            f"started `agent runs resume {run.id}` (pid {process.pid}); it has not taken the run over yet; {where}",
            "pid": process.pid}


def _taken_over(run: Run, updated: Any, process: subprocess.Popen, wait_s: float) -> bool:
    """Whether the resuming command changed the run's status within ``wait_s`` (False at once if it exits first)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if run.status_record().get("updated") != updated:
            return True
        if process.poll() is not None:
            return run.status_record().get("updated") != updated
        time.sleep(0.1)
    return False
