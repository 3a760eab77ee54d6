"""Job functions for the executor tests (module-level, so that Ray workers import them by name)."""

from __future__ import annotations

import os
from pathlib import Path

from sandboxes.errors import UserError
from sandboxes.telemetry import emit


def where(place, label: str) -> dict:
    """Which process ran the job; emits one event carrying ``label``."""
    emit("test.job", label=label)
    return {"label": label, "pid": os.getpid(), "kept": id(place.keep("counter", dict))}


def refuse(place, message: str) -> None:
    """Raise the user error ``message`` (as an evaluation that finds its node unusable would)."""
    raise UserError(message)


def die_once(place, marker: str) -> str:
    """Kill this worker process the first time (leaving ``marker``); answer normally afterwards."""
    path = Path(marker)
    if not path.exists():
        path.write_text(str(os.getpid()))
        os._exit(1)
    return f"answered by {os.getpid()}"


def sleep_for(place, seconds: float) -> float:
    """Hold the worker for ``seconds`` (an evaluation in progress)."""
    import time

    time.sleep(seconds)
    return seconds
