"""Steering from the chat on a pseudo-terminal: attach to a paused EvoKernel run, change its budget, add
guidance, resume it in the background; and `/run evokernel` followed inside a session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agents.runtime.run import Run, list_run_ids
from sandboxes.errors import UserError
from tests.agents.chat.conftest import PROMPT, write_script
from tests.agents.evokernel.conftest import TASK

GUIDANCE = "Prefer double buffering: set BUFFER_NUM to 2."
EVOKERNEL_ENV = {"AGENT_EVOKERNEL_SUMMARISE_WITH_MODEL": "false",
                 "AGENT_EVOKERNEL_QMEMORY": json.dumps({"embedding": "hashed-tfidf"})}


def relu_task(root: Path) -> tuple[Path, str]:
    """A one-task folder and a model reply holding the NPU template kernel for it."""
    from agents.evokernel.templates import NpuTemplates
    from benchmarks.kernels.tasks import load_tasks

    folder = root / "tasks"
    folder.mkdir()
    (folder / "relu.py").write_text(TASK.format(doc="ReLU activation: y = max(x, 0).", expr="torch.relu(x)"))
    task = load_tasks(str(folder))[0]
    params = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 1}
    return folder, f"```python\n{NpuTemplates().template_for(task).render(task, params)}```"


def paused_evokernel_run(root: Path) -> Run:
    """`agent run evokernel --pause-every 1` with a scripted model: it stops at its first pause."""
    folder, reply = relu_task(root)
    model = write_script(root / "evo.json", [reply] * 6)
    command = [sys.executable, "-m", "agents.cli.app", "run", "evokernel", "--target", "npu", "--tasks", str(folder),
               "--budget", "2", "--pause-every", "1", "--workers", "1", "--memory", str(root / "memory.sqlite"),
               "--model", model, "--record", str(root / "prompts.jsonl")]
    done = subprocess.run(command, env={**os.environ, **EVOKERNEL_ENV}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 4, done.stderr[-2000:]  # paused for an answer
    run = Run.open(list_run_ids()[-1])
    assert run.status == "paused", run.status_record()
    return run


def test_attach_changes_budget_adds_guidance_and_resumes_a_paused_run(spawn_chat, isolated_agent_env):
    run = paused_evokernel_run(isolated_agent_env)
    chat = spawn_chat("--attach", run.id, "--model", write_script(isolated_agent_env / "chat.json", []),
                      "--tools", "sandbox")
    chat.expect("the run is paused and asks: EvoKernel paused after round 1")
    chat.expect("now 2 attempts per task")
    chat.expect(PROMPT)
    chat.sendline("/budget --attempts 3")
    chat.expect('answer so far: {"budget": 3}')
    chat.expect(PROMPT)
    chat.sendline(f"/guide {GUIDANCE}")
    chat.expect("guidance will be sent with /resume")
    chat.expect(PROMPT)
    chat.sendline("/resume")
    chat.expect(f"started `agent runs resume {run.id} --answer")
    chat.expect(rf"\[{run.id}\] graph.answer")
    chat.expect(rf"\[{run.id}\] evokernel.attempt tasks/relu attempt 2")
    chat.expect(rf"\[{run.id}\] graph.paused")  # pause_every 1: it asks again after round 2
    chat.expect(rf"\[{run.id}\] result: status=paused")
    chat.expect("process exited 4")  # paused for an answer
    chat.sendline("/status")
    chat.expect("now 3 attempts per task")
    chat.expect(PROMPT)
    chat.sendline("/resume")
    chat.expect(rf"\[{run.id}\] evokernel.attempt tasks/relu attempt 3")
    chat.expect(rf"\[{run.id}\] run.end finished")
    chat.expect(rf"\[{run.id}\] result: policy=model:")
    chat.expect("process exited 0")
    chat.sendline("/exit")
    chat.expect("saved; continue with")

    finished = Run.open(run.id)
    assert finished.status == "finished" and finished.config["budget"] == 3 and finished.meta["guidance"] == [GUIDANCE]
    assert [e["attempt"] for e in finished.events("evokernel.attempt")] == [1, 2, 3]
    assert [e["attempt"] for e in finished.events("evokernel.verified")] == [1, 2, 3]  # none repeated
    prompts = [json.loads(line)["request"]["messages"][1]["content"]
               for line in (isolated_agent_env / "prompts.jsonl").read_text().splitlines()]
    assert len(prompts) == 3 and GUIDANCE not in prompts[0] and all(GUIDANCE in p for p in prompts[1:])


def test_run_evokernel_inside_a_session_is_followed_to_its_result(spawn_chat, isolated_agent_env):
    chat = spawn_chat("--model", write_script(isolated_agent_env / "chat.json", []), "--tools", "sandbox")
    chat.expect(PROMPT)
    chat.sendline("/run evokernel --tasks builtin:L1:relu --model offline --budget 2 --workers 1")
    chat.expect("started `agent run evokernel")
    chat.expect(r"\[(\S+-evokernel-\w+)\] run directory")
    run_id = chat.match.group(1)
    chat.expect(rf"\[{run_id}\] node.end retrieve")
    chat.expect(rf"\[{run_id}\] evokernel.attempt L1/relu attempt 1 \(draft\): correct")
    chat.expect(rf"\[{run_id}\] run.end finished")
    chat.expect(rf"\[{run_id}\] result: policy=offline policy: template")
    chat.expect("process exited 0")
    chat.sendline("/exit")
    chat.expect("saved; continue with")
    assert Run.open(run_id).read_report().summary["correctness"] == 1.0


def test_steering_commands_refuse_what_does_not_apply(agent_cli, isolated_agent_env, monkeypatch):
    import io

    from agents.chat.steer import Steering

    running = Run.create("demo", {})
    running.set_status("running")
    lines = ["/guide too early", "/answer {\"budget\": 2}", "/pause", "/status", "/exit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = agent_cli("chat", "--attach", running.id, "--model", write_script(isolated_agent_env / "s.json", []),
                       "--tools", "sandbox")
    assert result.code == 0, result.err
    assert "apply to a paused run" in result.out and f"asked {running.id} to pause" in result.out
    assert (running.dir / "pause.request").exists() and running.events("pause.requested")[-1]["by"] == "chat"
    assert "/pause asks it to pause" in result.out

    running.set_status("stopped", "call budget spent")
    with pytest.raises(UserError, match="does not wait for an answer with 'budget'"):
        steering = Steering(running)
        steering.add_to_answer(steering.paused(), "budget", 3)
