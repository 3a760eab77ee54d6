import json

import pytest

from sandboxes.errors import UserError

from agents.runtime.models.replay import RecordingModel, ReplayModel
from agents.runtime.models.scripted import ScriptedModel

FIRST = [{"role": "user", "content": "first"}]
SECOND = [{"role": "user", "content": "second"}]


def record(path):
    model = RecordingModel(ScriptedModel(["one", {"tool_calls": [{"name": "f", "arguments": {"a": 1}}]}]), path)
    return [model.complete(FIRST), model.complete(SECOND, tools=[{"type": "function"}], temperature=0.2)]


def test_replay_serves_what_was_recorded(tmp_path):
    path = tmp_path / "session.jsonl"
    recorded = record(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 2 and lines[1]["request"]["options"] == {"temperature": 0.2}
    replay = ReplayModel(path)
    assert replay.name == f"replay:{path}"
    assert replay.complete(FIRST) == recorded[0]
    assert replay.complete(SECOND, tools=[{"type": "function"}], temperature=0.2) == recorded[1]


def test_replay_matches_requests_out_of_order(tmp_path):
    path = tmp_path / "session.jsonl"
    recorded = record(path)
    replay = ReplayModel(path)
    assert replay.complete(SECOND, tools=[{"type": "function"}], temperature=0.2) == recorded[1]
    assert replay.complete(FIRST) == recorded[0]


def test_replay_falls_back_to_order_and_then_runs_out(tmp_path):
    path = tmp_path / "session.jsonl"
    recorded = record(path)
    replay = ReplayModel(path)
    assert replay.complete([{"role": "user", "content": "changed"}]) == recorded[0]
    replay.complete(SECOND)
    with pytest.raises(UserError, match="no reply left"):
        replay.complete(FIRST)


def test_missing_or_broken_recordings_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="replay file not found"):
        ReplayModel(tmp_path / "none.jsonl")
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"response": {"content": "ok"}}\nnot json\n')
    with pytest.raises(UserError, match="line 2 is not a recorded call"):
        ReplayModel(broken)


def test_replay_hands_the_whole_text_to_a_streaming_caller(tmp_path):
    path = tmp_path / "session.jsonl"
    record(path)
    pieces = []
    assert ReplayModel(path).complete(FIRST, on_token=pieces.append).content == "one"
    assert pieces == ["one"]
