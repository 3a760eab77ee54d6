"""Runs as MCP resources: ``agentkiln://runs/ID`` is a run's summary and report, ``.../events`` its events (JSON)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from agents.runtime.run import Run, list_run_ids
from agents.runtime.summary import summarize

SCHEME = "agentkiln://runs/"
EVENTS_SUFFIX = "/events"


def run_resources(root: str | Path | None, limit: int) -> list[dict[str, str]]:
    """The newest ``limit`` runs, newest first: uri, name and a one-line description each."""
    listed = []
    for run_id in reversed(list_run_ids(root)[-limit:] if limit else []):
        try:
            run = Run.open(run_id, root)
        except UserError as error:
            listed.append({"uri": SCHEME + run_id, "name": run_id, "description": f"unreadable: {error}"})
            continue
        status = run.status_record()
        listed.append({"uri": SCHEME + run_id, "name": run_id,
                       "description": f"{run.agent} run, {status['status']} {status.get('reason') or ''}".strip()})
    return listed


def read_run_resource(uri: str, root: str | Path | None) -> str:
    """The JSON text behind ``uri`` (a run's summary and report, or its events); a UserError for any other uri."""
    if not uri.startswith(SCHEME):
        raise UserError(f"unknown resource {uri!r}: this server serves {SCHEME}ID and {SCHEME}ID{EVENTS_SUFFIX}")
    rest = uri[len(SCHEME):]
    events = rest.endswith(EVENTS_SUFFIX)
    run = Run.open(rest[: -len(EVENTS_SUFFIX)] if events else rest, root)
    data: Any = run.events() if events else _summary(run)
    return json.dumps(data, indent=1, default=str)


def _summary(run: Run) -> dict[str, Any]:
    report = run.read_report()
    return {**summarize(run), "report": report.to_dict() if report else None}
