"""Pausing EvoKernel at an interrupt and answering it: a new budget and guidance, resumed from the checkpoint."""

from pathlib import Path

import pytest

from sandboxes.errors import UserError

from agents.evokernel.agent import AGENT_NAME, execute
from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.state import DONE, DRAFT, REFINE, with_budget
from agents.evokernel.steer import OFFLINE_NOTE, parse_answer
from agents.evokernel.templates import NpuTemplates
from agents.runtime.budget import Budget
from agents.runtime.interrupts import request_pause
from agents.runtime.launch import execute_run
from agents.runtime.models.accounting import AccountedModel
from agents.runtime.models.scripted import ScriptedModel
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from benchmarks.kernels.tasks import load_tasks
from memory.qmemory import QMemoryConfig
from tests.agents.evokernel.conftest import TASK

GUIDANCE = "Prefer double buffering: set BUFFER_NUM to 2."
PARAMS = {"TILE_LENGTH": 2048, "BUFFER_NUM": 1, "BLOCK_DIM": 1}


def relu_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "tasks"
    folder.mkdir(exist_ok=True)
    (folder / "relu.py").write_text(TASK.format(doc="ReLU activation: y = max(x, 0).", expr="torch.relu(x)"))
    return folder


def kernel_reply(folder: Path) -> str:
    """What a model would answer: the NPU template kernel for relu, in a code block."""
    task = load_tasks(str(folder))[0]
    return f"```python\n{NpuTemplates().template_for(task).render(task, PARAMS)}```"


def start(tmp_path: Path, model, **settings) -> tuple[Run, object]:
    register_agent(AGENT_NAME, execute)
    config = EvoKernelConfig(target="npu", tasks=str(relu_folder(tmp_path)), workers=1, summarise_with_model=False,
                             memory=str(tmp_path / "memory.sqlite"), qmemory=QMemoryConfig(embedding="hashed-tfidf"),
                             **settings)
    run = Run.create(AGENT_NAME, config, tmp_path / "runs")
    return run, execute_run(run, model(run) if model else None)


def answer(run: Run, value, scripted=None):
    """Resume ``run`` in a fresh Run object (as `agent runs resume --answer` does) with ``value``."""
    reopened = Run.open(run.id, run.dir.parent)
    reopened.answer = value
    return reopened, execute_run(reopened, AccountedModel(scripted, reopened) if scripted else None)


def test_answer_sets_budget_and_the_guidance_reaches_the_next_prompt(tmp_path):
    scripted = ScriptedModel([kernel_reply(relu_folder(tmp_path))] * 8)
    run, report = start(tmp_path, lambda r: AccountedModel(scripted, r), budget=2, pause_every=1)
    assert report.summary["status"] == "paused" and len(scripted.calls) == 1
    question = report.summary["interrupts"][0]
    assert question["budget"] == 2 and question["attempts"] == 1 and set(question["accepts"]) == {"budget", "guidance"}
    assert Run.open(run.id, run.dir.parent).status == "paused"

    run, report = answer(run, {"budget": 3, "guidance": GUIDANCE}, scripted)
    assert report.summary["status"] == "paused" and len(scripted.calls) == 2  # paused again after round 2
    first_prompt, next_prompt = (call["messages"][1]["content"] for call in scripted.calls)
    assert GUIDANCE not in first_prompt and GUIDANCE in next_prompt and "Guidance from the user" in next_prompt
    reopened = Run.open(run.id, run.dir.parent)
    assert reopened.config["budget"] == 3 and reopened.meta["guidance"] == [GUIDANCE]
    assert reopened.events("budget.changed")[-1] == {**reopened.events("budget.changed")[-1], "budget": 3,
                                                     "previous": 2}

    run, report = answer(run, {}, scripted)
    assert "status" not in report.summary and report.summary["attempts"] == 3 and len(scripted.calls) == 3
    assert len(report.summary["learning_curve"]) == 3  # the report follows the new budget
    attempts = [e["attempt"] for e in run.events("evokernel.attempt")]
    verified = [e["attempt"] for e in run.events("evokernel.verified")]
    assert attempts == [1, 2, 3] and verified == [1, 2, 3]  # no finished attempt ran again after a resume
    assert Run.open(run.id, run.dir.parent).status == "finished"


def test_guidance_saved_while_a_run_was_stopped_reaches_its_next_prompt(tmp_path):
    scripted = ScriptedModel([kernel_reply(relu_folder(tmp_path))] * 4)
    run, report = start(tmp_path, lambda r: AccountedModel(scripted, r, Budget(max_calls=1)), budget=2)
    assert report.summary["status"] == "stopped" and len(scripted.calls) == 1
    run.update_meta(guidance=[GUIDANCE])  # what /guide in `agent chat --attach` does for a stopped run
    reopened = Run.open(run.id, run.dir.parent)
    report = execute_run(reopened, AccountedModel(scripted, reopened, Budget(max_calls=5)))
    assert report.summary["attempts"] == 2 and GUIDANCE in scripted.calls[1]["messages"][1]["content"]
    seen = reopened.events("evokernel.guidance_seen")
    assert len(seen) == 1 and seen[0]["applied"] is True and seen[0]["policy"] == "model: scripted"


def test_offline_policy_pauses_on_request_and_records_the_guidance_it_cannot_read(tmp_path, monkeypatch):
    original = Run.create

    def create_with_request(*args, **kwargs):
        run = original(*args, **kwargs)
        request_pause(run, by="test")  # as `/pause` in an attached chat does, before the first round ends
        return run

    monkeypatch.setattr(Run, "create", create_with_request)
    run, report = start(tmp_path, None, budget=2)
    assert report.summary["status"] == "paused" and report.summary["interrupts"][0]["reason"] == "requested"
    assert not (run.dir / "pause.request").exists()

    run, report = answer(run, {"budget": 3, "guidance": GUIDANCE})
    assert report.summary["policy"] == "offline policy: template mutation" and report.summary["attempts"] == 3
    seen = run.events("evokernel.guidance_seen")
    assert len(seen) == 1 and seen[0]["text"] == GUIDANCE and seen[0]["applied"] is False
    assert seen[0]["note"] == OFFLINE_NOTE and "cannot interpret" in OFFLINE_NOTE


def test_a_rejected_answer_is_asked_again(tmp_path):
    run, report = start(tmp_path, None, budget=2, pause_every=1)
    assert report.summary["status"] == "paused"
    run, report = answer(run, {"budget": 0})
    assert report.summary["status"] == "paused" and "the last answer was rejected" in report.summary["question"]
    assert "greater than or equal to 1" in report.summary["interrupts"][0]["rejected"]
    assert Run.open(run.id, run.dir.parent).status == "paused"
    run, report = answer(run, {"budget": 2})
    assert report.summary["attempts"] == 2 and [e["attempt"] for e in run.events("evokernel.attempt")] == [1, 2]


def test_with_budget_reopens_or_finishes_tasks():
    spent = {"stage": DONE, "done_reason": "budget spent", "attempts": 2, "first_feasible_attempt": None}
    assert with_budget(spent, 4, "evokernel")["stage"] == DRAFT
    assert with_budget({**spent, "first_feasible_attempt": 1}, 4, "refine")["stage"] == REFINE
    assert with_budget({**spent, "first_feasible_attempt": 1}, 4, "pass@k")["stage"] == "sample"
    assert with_budget(spent, 2, "evokernel") == spent
    other = {**spent, "done_reason": "offline policy: no template kernel computes this task"}
    assert with_budget(other, 9, "evokernel") == other
    running = {"stage": REFINE, "done_reason": "", "attempts": 3, "first_feasible_attempt": 1}
    assert with_budget(running, 3, "evokernel")["stage"] == DONE and with_budget(running, 5, "evokernel") == running


def test_parse_answer():
    assert parse_answer({}).budget is None and parse_answer(None).guidance is None
    assert parse_answer({"budget": 4, "guidance": "x"}).budget == 4
    for bad in ({"budget": 0}, {"speed": 2}, [1]):
        with pytest.raises(UserError, match="evokernel answer"):
            parse_answer(bad)


@pytest.mark.slow
def test_a_paused_child_pauses_the_bench_and_takes_its_answer(agent_cli, isolated_agent_env, monkeypatch):
    from agents.runtime.interrupts import waiting_interrupts
    from agents.runtime.run import list_run_ids

    folder = relu_folder(isolated_agent_env)
    monkeypatch.setenv("AGENT_EVOKERNEL_PAUSE_EVERY", "1")
    result = agent_cli("bench", "evokernel", "--methods", "refine,pass@k", "--target", "npu", "--tasks", str(folder),
                       "--budget", "2", "--workers", "1", "--model", "offline")
    assert result.code == 4, result.err  # paused for an answer
    bench = Run.open(next(i for i in list_run_ids() if "evokernel-bench" in i))
    assert bench.status == "paused" and waiting_interrupts(bench)[0]["round"] == 1
    for answer_text, code in (('{"guidance": "' + GUIDANCE + '"}', 4), ("{}", 0)):  # refine ends, pass@k pauses
        resumed = agent_cli("runs", "resume", bench.id, "--answer", answer_text)
        assert resumed.code == code, resumed.err
    report = Run.open(bench.id).read_report()
    assert Run.open(bench.id).status == "finished" and [r["attempts"] for r in report.rows] == [2, 2]
    children = Run.open(bench.id).meta["children"]
    assert Run.open(children["refine seed 0"]).meta["guidance"] == [GUIDANCE]
