"""Reading a run's own files for its panels: only inside the run directory, and only so much."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from agents.runtime.run import Run

TEXT_LIMIT = 200_000


def inside(run: Run, path: str | Path | None) -> Path | None:
    """``path`` (absolute, or relative to the run) if it lies inside the run directory, else None."""
    if not path:
        return None
    base = Path(os.path.realpath(run.dir))
    resolved = Path(os.path.realpath(base / path))
    if base not in resolved.parents and run.id in Path(path).parts:  # an absolute path written before a move
        parts = Path(path).parts
        resolved = Path(os.path.realpath(base.joinpath(*parts[parts.index(run.id) + 1:])))
    return resolved if base in resolved.parents and resolved.is_file() else None


def read_text(run: Run, path: str | Path | None, limit: int = TEXT_LIMIT) -> str | None:
    """The file's text (cut at ``limit`` characters), None when it is missing or outside the run."""
    found = inside(run, path)
    if found is None:
        return None
    try:
        return found.read_text(errors="replace")[:limit]
    except OSError:
        return None


def read_json(run: Run, path: str | Path) -> Any:
    """The file's JSON, None when it is missing, unreadable or outside the run."""
    text = read_text(run, path, limit=50_000_000)
    try:
        return None if text is None else json.loads(text)
    except json.JSONDecodeError:
        return None
