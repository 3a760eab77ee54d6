import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agents.runtime.models.base import ChatResponse, ToolCall, Usage
from agents.runtime.models.serialize import response_to_dict
from agents.runtime.run import Run, list_run_ids

REPO = Path(__file__).resolve().parents[3]
# The real `agent` entry point, loading only the demo's commands so the child skips unrelated heavy imports.
ONLY_DEMO_CLI = ("import sys; from agents.cli import app; app.COMMAND_MODULES[:] = ['agents.cli.run_demo']; "
                 "app.main(sys.argv[1:])")


def wait_for(predicate, timeout_s=90.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def newest_run_events(kind):
    ids = list_run_ids()
    return Run.open(ids[-1]).events(kind) if ids else []


def recording_of_one_calculator_call(path: Path) -> Path:
    """A session as `--record` writes it: the model answers with a calculator tool call."""
    reply = ChatResponse(content="", tool_calls=[ToolCall("call_1", "calculator", {"expression": "17 * 23 + 4"})],
                         usage=Usage(40, 12), cost_usd=0.0001, model="gpt-4o-mini")
    path.write_text(json.dumps({"key": "unmatched", "request": {}, "response": response_to_dict(reply)}) + "\n")
    return path


def test_sigkill_mid_run_then_resume_finishes_without_repeating_steps(agent_cli, tmp_path):
    recording = recording_of_one_calculator_call(tmp_path / "session.jsonl")
    command = [sys.executable, "-c", ONLY_DEMO_CLI, "run", "demo", "--step-delay", "1.5",
               "--model", f"replay:{recording}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: any(e["node"] == "act" for e in newest_run_events("node.start")))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        process.kill()
    run = Run.open("last")
    assert run.status == "interrupted" and not (run.dir / "report.json").exists()

    result = agent_cli("runs", "resume", run.id)
    assert result.code == 0, result.err
    events = run.events()
    starts = [e["node"] for e in events if e["kind"] == "node.start"]
    ends = [e["node"] for e in events if e["kind"] == "node.end"]
    assert starts == ["plan", "act", "act"], "plan finished before the kill and is not run again"
    assert ends == ["plan", "act"]
    assert len(run.events("model.call")) == 1, "the model call of the finished step is not repeated"
    assert run.events("graph.resume")[0]["pending"] == ["act"]
    assert Run.open(run.id).status == "finished" and run.read_report().summary["answer"] == 395

    again = agent_cli("runs", "resume", run.id)
    assert again.code == 2 and "already finished" in again.err


def test_sigterm_ends_a_run_as_ctrl_c_does(agent_cli, tmp_path):
    """Slurm, docker stop and systemd send SIGTERM: the run stayed marked running and nothing said how to resume."""
    recording = recording_of_one_calculator_call(tmp_path / "session.jsonl")
    command = [sys.executable, "-c", ONLY_DEMO_CLI, "run", "demo", "--step-delay", "1.5",
               "--model", f"replay:{recording}"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: any(e["node"] == "act" for e in newest_run_events("node.start")))
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    run = Run.open("last")
    assert process.returncode == 130 and f"agent runs resume {run.id}" in err, err
    assert run.status_record()["status"] == "interrupted"
    assert agent_cli("runs", "resume", run.id).code == 0


def test_list_and_show_summarise_runs(agent_cli):
    assert agent_cli("run", "demo").code == 0
    run = Run.open("last")
    listing = agent_cli("runs", "list")
    assert listing.code == 0 and run.id in listing.out and "finished" in listing.out
    shown = agent_cli("runs", "show", run.id[:20])
    assert shown.code == 0
    for fragment in ("status", "finished", "steps", "plan ×1, act ×1", "cost_usd", "best", "395"):
        assert fragment in shown.out


def damaged_runs(root: Path) -> dict[str, Path]:
    """Beside good runs: one with a config.json that is not JSON, one whose config.json is missing."""
    broken, bare = root / "20260101-000000-demo-broken", root / "20260101-000001-demo-bare"
    broken.mkdir(parents=True)
    (broken / "config.json").write_text('{"agent": "demo", "created": ')
    bare.mkdir()
    (bare / "events.jsonl").write_text('{"seq": 1, "kind": "run.start"}\n')
    return {"broken": broken, "bare": bare}


def test_damaged_runs_are_listed_with_the_reason_and_do_not_hide_the_others(agent_cli, tmp_path):
    assert agent_cli("run", "demo").code == 0
    good = Run.open("last")
    damaged = damaged_runs(tmp_path / "runs")
    listing = agent_cli("runs", "list", "--json")
    assert listing.code == 0, listing.err
    rows = {row["id"]: row for row in json.loads(listing.out)["runs"]}
    assert rows[good.id]["status"] == "finished" and rows[good.id]["best"] == 395
    assert rows[damaged["broken"].name]["status"] == "unreadable"
    assert "unreadable config.json" in rows[damaged["broken"].name]["reason"]
    assert "has no config.json" in rows[damaged["bare"].name]["reason"]
    table = agent_cli("runs", "list")
    assert table.code == 0 and all(name in table.out for name in (good.id, *(p.name for p in damaged.values())))

    broken = agent_cli("runs", "show", damaged["broken"].name)
    assert broken.code == 2 and broken.err.startswith(f"error: run {damaged['broken'].name} has an unreadable")
    bare = agent_cli("runs", "show", damaged["bare"].name)
    assert bare.code == 2 and "has no config.json" in bare.err and "no run" not in bare.err
    assert json.loads(agent_cli("runs", "show", good.id, "--json").out)["report"]["summary"]["answer"] == 395


def test_a_damaged_checkpoint_file_is_one_line_and_leaves_the_run_as_it_was(agent_cli, tmp_path):
    script = tmp_path / "replies.json"
    script.write_text("[]")
    assert agent_cli("run", "demo", "--model", f"scripted:{script}", "--max-calls", "0").code == 3
    run = Run.open("last")
    (run.dir / "checkpoints.sqlite").write_bytes(b"this is not a database" * 100)
    before = (run.dir / "status.json").read_text(), len(run.events())
    result = agent_cli("runs", "resume", run.id, "--max-calls", "3")
    assert result.code == 2 and "Traceback" not in result.err
    assert result.err.strip() == (f"error: run {run.id}: {run.dir / 'checkpoints.sqlite'} is damaged (file is not a "
                                  "database); its progress cannot be read, so it cannot resume: start a new run")
    assert ((run.dir / "status.json").read_text(), len(run.events())) == before


def test_a_benchmark_run_says_it_does_not_resume_and_how_to_run_it_again(agent_cli):
    """It said: no agent named 'bench-kernels' is registered (known: ...)."""
    run = Run.create("bench-kernels", {"target": "cpu"}, argv=["bench", "kernels", "--tasks", "kb/level1::19_*"])
    result = agent_cli("runs", "resume", run.id)
    assert result.code == 2, result.err
    assert "does not resume" in result.err and "agent bench kernels --tasks 'kb/level1::19_*'" in result.err
