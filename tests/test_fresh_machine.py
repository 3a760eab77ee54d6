"""The main job on a fresh machine (issue 17): a copy of the checkout and a new venv, both under /tmp, no
bubblewrap, no KLayout binary and (first case) no Docker engine, imitated by .ci/fresh-machine.sh. The README's
first command, on a few L1 tasks, must score correctness 1.0 (it scored 0: the sandbox could not see the venv)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / ".ci" / "fresh-machine.sh"
COMMAND = ["agent", "run", "evokernel", "--target", "npu", "--tasks", "builtin:L1:relu,softmax", "--budget", "2"]


def _imitation_problem() -> str | None:
    if os.geteuid() != 0:
        return "the fresh-machine imitation bind-mounts over system files: run the tests as root"
    missing = [tool for tool in ("unshare", "git") if shutil.which(tool) is None]
    return f"the fresh-machine imitation needs {', '.join(missing)} (apt-get install util-linux git)" if missing \
        else None


def _docker_problem() -> str | None:
    from sandboxes.select import docker_answers

    problem = docker_answers()
    return None if problem is None else f"Docker engine not available ({problem}); start it with .ci/start-dockerd.sh"


def run_on_a_fresh_machine(docker: bool) -> tuple[subprocess.CompletedProcess, dict, list[dict]]:
    """The README's first command in the imitation; its output, report summary and sandbox selection events."""
    workdir = Path(tempfile.mkdtemp(prefix="agentkiln-fresh-", dir="/tmp"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENT_") and not k.endswith("_API_KEY")}
    env.update(LITELLM_LOCAL_MODEL_COST_MAP="True", FRESH_MACHINE_DOCKER="keep" if docker else "")
    try:
        done = subprocess.run([str(SCRIPT), str(workdir), str(workdir / "venv"), *COMMAND], env=env,
                              capture_output=True, text=True, timeout=900)
        run_dir = next((workdir / "agentkiln" / "runs").glob("*-evokernel-*"), None)
        assert run_dir is not None, done.stdout[-2000:] + done.stderr[-3000:]
        summary = json.loads((run_dir / "report.json").read_text())["summary"]
        events = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()]
        return done, summary, [e for e in events if e["kind"] == "sandbox.selected"]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize("docker", [False, pytest.param(True, marks=pytest.mark.docker)], ids=["unshare", "docker"])
def test_the_main_job_is_correct_on_a_fresh_machine_with_everything_under_tmp(docker):
    problem = _imitation_problem() or (_docker_problem() if docker else None)
    if problem:
        pytest.skip(problem)
    done, summary, selected = run_on_a_fresh_machine(docker)
    assert done.returncode == 0, done.stderr[-3000:]
    assert summary["correctness"] == 1.0 and summary["tasks"] == 2, (summary, done.stderr[-3000:])
    assert selected and {e["backend"] for e in selected} == {"docker" if docker else "local"}
