"""The CLI entry point: cheap to load, one-line errors, exit codes, Ctrl-C, --version, completion."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from agents.runtime.run import Run
from tests.agents.cli.test_runs_cmd import ONLY_DEMO_CLI, REPO, newest_run_events, wait_for


def test_loading_every_command_imports_no_agent_runtime_heavyweights(modules_loaded_by):
    statements = "import agents.cli.app as app\napp._load_commands(debug=True)"
    assert modules_loaded_by(statements, ("langgraph", "langchain_core", "litellm", "torch")) == []


def test_unknown_command_fails_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "agents.cli.app", "no-such-command"], capture_output=True,
                            text=True)
    assert result.returncode != 0 and "Traceback" not in result.stderr


def test_ctrl_c_exits_130_naming_the_resume_command_and_the_resume_finishes(agent_cli):
    # the Python handler a terminal launch has, also when this suite runs with SIGINT ignored (e.g. started by `&`
    # from a script, which the child would inherit)
    ctrl_c_reaches_python = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    command = [sys.executable, "-c", ctrl_c_reaches_python + ONLY_DEMO_CLI, "run", "demo", "--step-delay", "1.5",
               "--model", "offline"]
    process = subprocess.Popen(command, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        wait_for(lambda: any(e["node"] == "act" for e in newest_run_events("node.start")))
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends to the terminal's foreground process group
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    run = Run.open("last")
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1] == (f"interrupted: run {run.id} is saved; continue it with: "
                                            f"agent runs resume {run.id}")
    assert "Traceback" not in err and out == ""
    assert json.loads((run.dir / "status.json").read_text())["status"] == "interrupted"
    assert not (run.dir / "report.json").exists()

    resumed = agent_cli("runs", "resume", run.id)
    assert resumed.code == 0, resumed.err
    assert [e["node"] for e in run.events("node.end")] == ["plan", "act"], "plan is not repeated"
    assert Run.open(run.id).status == "finished"


def test_a_budget_stopped_run_exits_3_and_says_how_to_continue(agent_cli, tmp_path):
    (tmp_path / "replies.json").write_text("[]")
    result = agent_cli("run", "demo", "--model", f"scripted:{tmp_path / 'replies.json'}", "--max-calls", "0", "--json")
    run = Run.open("last")
    assert result.code == 3, result.err
    document = json.loads(result.out)
    assert document["run"] == {"id": run.id, "dir": str(run.dir), "status": "stopped"}
    assert document["summary"]["resume"] == f"agent runs resume {run.id} --max-calls <more>"  # the limit that ran out


def test_version_help_and_shell_completion(agent_cli):
    from importlib.metadata import version

    shown = agent_cli("--version")
    assert shown.code == 0 and shown.out.strip() == f"agentkiln {version('agentkiln')}"
    helped = agent_cli("--help")
    for fragment in ("--debug", "--version", "--install-completion", "3 stopped by its budget", "130 interrupted"):
        assert fragment in helped.out
    as_agent = "import sys; sys.argv[0] = 'agent'; from agents.cli.app import main; main()"
    completion = subprocess.run([sys.executable, "-c", as_agent], capture_output=True, text=True,
                                env={**os.environ, "_AGENT_COMPLETE": "complete_bash", "COMP_WORDS": "agent ru",
                                     "COMP_CWORD": "1"})
    assert completion.stdout.split() == ["run", "runs"]


def test_ctrl_c_in_a_benchmark_does_not_offer_a_resume_it_cannot_do(agent_cli, monkeypatch):
    def measured_until_sigint(*args, **kwargs):
        signal.raise_signal(signal.SIGINT)  # a real SIGINT, delivered to this process while it measures

    monkeypatch.setattr("numerics.sparse.storage.density_table", measured_until_sigint)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as on a terminal (CI may ignore it)
    try:
        result = agent_cli("bench", "macko", "--rows", "64", "--cols", "64", "--densities", "0.5")
    finally:
        signal.signal(signal.SIGINT, previous)
    run = Run.open("last")
    assert result.code == 130 and run.status == "interrupted"
    assert result.err.strip().splitlines()[-1] == (f"interrupted: run {run.id} is marked interrupted; a benchmark "
                                                   "does not resume, run it again")
