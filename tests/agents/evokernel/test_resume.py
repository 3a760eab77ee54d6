"""SIGKILL in the middle of a run, then `agent runs resume`: no finished attempt is repeated."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agents.runtime.run import read_events


def wait_for_attempt(runs: Path, process: subprocess.Popen, timeout_s: float = 600) -> Path:
    """The run dir, once its first attempt is learned."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before it could be killed"
        for events in runs.glob("*/events.jsonl"):
            if any(e["kind"] == "evokernel.attempt" for e in read_events(events)):
                return events.parent
        time.sleep(0.2)
    raise AssertionError("no attempt finished in time")


def test_sigkill_then_resume_repeats_no_finished_attempt(small_tasks, tmp_path):
    runs = tmp_path / "runs"
    env = {**os.environ, "AGENT_RUNS_DIR": str(runs), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    command = [sys.executable, "-m", "agents.cli.app", "run", "evokernel", "--target", "npu", "--tasks",
               str(small_tasks), "--budget", "2", "--workers", "2", "--memory", str(tmp_path / "m.sqlite"),
               "--model", "offline"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    run_dir = wait_for_attempt(runs, process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    before = read_events(run_dir / "events.jsonl")
    finished = {(e["task"], e["attempt"]) for e in before if e["kind"] == "evokernel.attempt"}

    resumed = subprocess.run([sys.executable, "-m", "agents.cli.app", "runs", "resume", run_dir.name],
                             env=env, capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    events = read_events(run_dir / "events.jsonl")
    after = events[len(before):]
    attempts = [(e["task"], e["attempt"]) for e in events if e["kind"] == "evokernel.attempt"]
    assert len(attempts) == len(set(attempts)), "an attempt was announced twice"
    for task in {t for t, _ in attempts}:
        numbers = sorted(a for t, a in attempts if t == task)
        assert numbers == list(range(1, len(numbers) + 1))
    reverified = {(e["task"], e["attempt"]) for e in after if e["kind"] == "evokernel.verified"}
    assert not (reverified & finished), "a finished attempt was verified again after resume"
    assert any(e["kind"] == "graph.resume" for e in after)
    assert json.loads((run_dir / "status.json").read_text())["status"] == "finished"
    assert (run_dir / "report.json").exists()
