"""Live views as server-sent events: a run's events as they are appended, the runs list as it changes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable

from agents.runtime.run import Run

if TYPE_CHECKING:
    from agents.ui.runs_index import Snapshot

FINAL_STATUSES = ("finished", "failed", "stopped", "paused", "interrupted", "unreadable")
HEARTBEAT_S = 15.0


def sse(data: Any, event: str | None = None, event_id: int | str | None = None) -> str:
    """One server-sent event (JSON data)."""
    head = (f"event: {event}\n" if event else "") + (f"id: {event_id}\n" if event_id is not None else "")
    return f"{head}data: {json.dumps(data, default=str)}\n\n"


def read_new_events(path: Path, offset: int) -> list[tuple[dict[str, Any], int]]:
    """Whole lines appended to ``path`` since byte ``offset``, each as (event, byte offset after its line) (a line
    still being written is read next time; a line cut short by a kill is skipped)."""
    try:
        with path.open("rb") as stream:
            stream.seek(offset)
            chunk = stream.read()
    except OSError:
        return []
    events, position = [], offset
    for line in chunk[: chunk.rfind(b"\n") + 1].splitlines(keepends=True):
        position += len(line)
        try:
            events.append((json.loads(line), position))
        except json.JSONDecodeError:
            continue
    return events


async def event_stream(run: Run, offset: int, poll_s: float, gone: Callable[[], Any]) -> AsyncIterator[str]:
    """The run's events written after byte ``offset`` of its events file, then each new one as it is written
    (each event's id is the offset after it, so a reconnecting browser resumes exactly there, with no lookup of a
    seq in the file); a last ``end`` event once the run is no longer running and everything written was sent."""
    quiet = 0.0
    while not await gone():
        events = read_new_events(run.events_path, offset)
        for item, offset in events:
            yield sse(item, "run-event", offset)
        status = run.status_record()
        if not events and status["status"] in FINAL_STATUSES:
            yield sse(status, "end")
            return
        quiet = 0.0 if events else quiet + poll_s
        if quiet >= HEARTBEAT_S:
            quiet = 0.0
            yield ": still here\n\n"
        await asyncio.sleep(poll_s)


async def rows_stream(snapshot: Callable[[], "Snapshot"], since: str, poll_s: float, gone: Callable[[], Any]
                      ) -> AsyncIterator[str]:
    """The whole runs list first (``runs``) unless the client already shows version ``since`` of it, then each row
    that changed or appeared (``row``) and each id that disappeared (``removed``); the last event of each change
    carries the new version as its id, so a reconnecting browser is sent the list again only if it changed."""
    known: dict[str, dict[str, Any]] | None = None
    version = since
    while not await gone():
        current = await asyncio.to_thread(snapshot)
        now = {row["id"]: row for row in current.rows}
        if current.version != version:
            changes = [("runs", current.rows)] if known is None else \
                [("row", row) for run_id, row in now.items() if known.get(run_id) != row] + \
                [("removed", run_id) for run_id in sorted(known.keys() - now.keys())]
            if changes:
                *first, (event, data) = changes
                yield "".join(sse(item, kind) for kind, item in first) + sse(data, event, current.version)
            version = current.version
        known = now
        await asyncio.sleep(poll_s)
