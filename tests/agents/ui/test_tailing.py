"""Live views as server-sent events (`agents.ui.tailing`): a run's events by byte offset, the runs list's changes."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

from agents.runtime.run import Run
from agents.ui.runs_index import snapshot_of
from agents.ui.tailing import event_stream, read_new_events, rows_stream


async def _never_gone() -> bool:
    return False


def _collect(stream, limit: int = 100) -> list[str]:
    async def take() -> list[str]:
        found = []
        async for message in stream:
            found.append(message)
            if len(found) >= limit:
                break
        return found
    with ThreadPoolExecutor(1) as thread:  # its own loop: Playwright's sync API keeps one running in this thread
        return thread.submit(asyncio.run, take()).result()


def _parse(message: str) -> tuple[str, int | None, object]:
    fields = dict(line.split(": ", 1) for line in message.strip().splitlines())
    return fields.get("event"), int(fields["id"]) if "id" in fields else None, json.loads(fields["data"])


def test_events_another_process_wrote_are_all_sent_in_order(tmp_path):
    """A pause request from the dashboard is written by a second Run object; its seq follows the agent's."""
    run = Run.create("demo", {}, tmp_path)
    run.emit("node.start", node="plan")
    Run.open(run.id, tmp_path).emit("pause.requested", by="ui")
    run.emit("node.end", node="plan")
    run.set_status("finished")
    messages = [_parse(m) for m in _collect(event_stream(run, 0, 0.01, _never_gone))]
    assert [data["kind"] for kind, _, data in messages if kind == "run-event"] == \
        ["node.start", "pause.requested", "node.end"]
    assert [data["seq"] for kind, _, data in messages if kind == "run-event"] == [1, 2, 3]
    assert messages[-1][0] == "end" and messages[-1][2]["status"] == "finished"
    second_id = messages[1][1]
    resumed = [_parse(m) for m in _collect(event_stream(run, second_id, 0.01, _never_gone))]
    assert [data["kind"] for kind, _, data in resumed if kind == "run-event"] == ["node.end"]


def test_a_line_still_being_written_waits_and_a_cut_line_is_skipped(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"seq": 1, "kind": "a"}\n{"seq": 2, "ki')
    [(event, end)] = read_new_events(path, 0)
    assert event["kind"] == "a" and end == len(b'{"seq": 1, "kind": "a"}\n')
    assert read_new_events(path, end) == []
    path.write_bytes(path.read_bytes() + b'\n{"seq": 3, "kind": "c"}\n')
    assert [e["kind"] for e, _ in read_new_events(path, end)] == ["c"]


def _rows_messages(lists: list[list[dict]], since: str, limit: int) -> list[tuple[str, str | None, object]]:
    snapshots = iter([snapshot_of(rows) for rows in lists])
    messages = _collect(rows_stream(lambda: next(snapshots), since, 0.01, _never_gone), limit=limit)
    return [(event, fields.get("id"), data) for message in messages for event, fields, data in _events(message)]


def _events(message: str) -> list[tuple[str, dict, object]]:
    """Each event of a message (one change may send several), with its fields."""
    found = []
    for block in message.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((fields.get("event"), fields, json.loads(fields["data"])))
    return found


def test_the_runs_list_stream_sends_everything_then_only_changes():
    lists = [[{"id": "a", "status": "running"}], [{"id": "a", "status": "running"}],
             [{"id": "a", "status": "finished"}, {"id": "b", "status": "running"}], [{"id": "b", "status": "running"}]]
    messages = _rows_messages(lists, "", limit=3)
    assert [(kind, data) for kind, _, data in messages] == [
        ("runs", [{"id": "a", "status": "running"}]), ("row", {"id": "a", "status": "finished"}),
        ("row", {"id": "b", "status": "running"}), ("removed", "a")]
    versions = [snapshot_of(rows).version for rows in lists]
    assert [event_id for _, event_id, _ in messages] == [versions[0], None, versions[2], versions[3]]


def test_a_page_already_showing_the_list_gets_only_its_changes():
    lists = [[{"id": "a", "status": "running"}], [{"id": "a", "status": "finished"}]]
    messages = _rows_messages(lists, snapshot_of(lists[0]).version, limit=1)
    assert messages == [("row", snapshot_of(lists[1]).version, {"id": "a", "status": "finished"})]
