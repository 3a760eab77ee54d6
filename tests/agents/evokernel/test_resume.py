"""A real SIGKILL or SIGINT in the middle of a round, then `agent runs resume`: no finished attempt is
verified again (each task's attempt is its own checkpointed unit, and its verdict is written ahead)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.runtime.run import read_events
from tests.agents.evokernel.conftest import TASK, write_small_tasks


EXTRA_TASKS = {"tanh": "torch.tanh(x)", "silu": "torch.nn.functional.silu(x)", "gelu": "torch.nn.functional.gelu(x)"}
NAMES = {"tasks/relu", "tasks/sigmoid", *(f"tasks/{name}" for name in EXTRA_TASKS)}


def wait_for_first_verdict(runs: Path, process: subprocess.Popen, timeout_s: float = 600) -> Path:
    """The run dir, once its first attempt is verified (the other tasks of the round are still to come:
    one worker verifies the five first drafts one after another)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before it could be stopped"
        for events in runs.glob("*/events.jsonl"):
            if any(e["kind"] == "evokernel.verified" for e in read_events(events)):
                return events.parent
        time.sleep(0.1)
    raise AssertionError("no attempt was verified in time")


def default_sigint() -> None:
    """Let the child take SIGINT as Python does on a terminal (a background parent may ignore it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_stopped_mid_round_then_resumed_verifies_no_finished_attempt_again(signum, tmp_path):
    tasks = write_small_tasks(tmp_path)
    for name, expr in EXTRA_TASKS.items():
        (tasks / f"{name}.py").write_text(TASK.format(doc=f"{name} activation.", expr=expr))
    runs = tmp_path / "runs"
    env = {**os.environ, "AGENT_RUNS_DIR": str(runs), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    command = [sys.executable, "-m", "agents.cli.app", "run", "evokernel", "--target", "npu", "--tasks", str(tasks),
               "--budget", "2", "--workers", "1", "--memory", str(tmp_path / "m.sqlite"), "--model", "offline"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=default_sigint)
    run_dir = wait_for_first_verdict(runs, process)
    process.send_signal(signum)
    process.communicate(timeout=300)
    before = read_events(run_dir / "events.jsonl")
    verified_before = [(e["task"], e["attempt"]) for e in before if e["kind"] == "evokernel.verified"]
    assert verified_before and len(verified_before) < len(NAMES), "the round was not stopped in its middle"
    assert not any(e["kind"] == "evokernel.attempt" for e in before), "round 1 had already been learned"

    resumed = subprocess.run([sys.executable, "-m", "agents.cli.app", "runs", "resume", run_dir.name],
                             env=env, capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    events = read_events(run_dir / "events.jsonl")
    verified = [(e["task"], e["attempt"]) for e in events if e["kind"] == "evokernel.verified"]
    assert len(verified) == len(set(verified)), f"an attempt was verified twice: {sorted(verified)}"
    attempts = [(e["task"], e["attempt"]) for e in events if e["kind"] == "evokernel.attempt"]
    assert sorted(attempts) == sorted(set(verified)) and len(attempts) == len(set(attempts))
    assert {task for task, attempt in attempts if attempt == 1} == NAMES
    assert any(e["kind"] == "graph.resume" for e in events[len(before):])
    assert json.loads((run_dir / "status.json").read_text())["status"] == "finished"
    assert (run_dir / "report.json").exists()
